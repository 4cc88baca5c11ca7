package analyze

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// BenchmarkAnalyze analyzes three moments of a large real dump: the
// 100,001-goroutine bench/data/go-100k.txt when `make bench-peers` made it,
// else the shared corpus's 20,000-goroutine dump.
func BenchmarkAnalyze(b *testing.B) {
	in := benchInput(b)
	for b.Loop() {
		Analyze(in, Options{})
	}
	b.ReportMetric(float64(3*in[0].Dump.ThreadCount()), "goroutines/op")
}

// BenchmarkDetectors runs the detectors alone (and conclude) over
// BenchmarkAnalyze's build of the same three moments.
func BenchmarkDetectors(b *testing.B) {
	in := benchInput(b)
	r, opt, bd := prepare(in, Options{})
	for b.Loop() {
		runDetectors(r, opt, bd.classes, bd.goLocks)
	}
	b.ReportMetric(float64(3*in[0].Dump.ThreadCount()), "goroutines/op")
}

// benchInput is three moments of one large dump (see BenchmarkAnalyze).
func benchInput(b *testing.B) []Input {
	path := "../bench/data/go-100k.txt"
	if _, err := os.Stat(path); err != nil {
		path = "../../shared/corpus/go/dumpdiff-gen__go1.26.8__lookup-goroutine-debug2-20000-goroutines.txt"
	}
	ds, err := parse.ParseFile(path)
	if err != nil {
		b.Skipf("no large dump: %v", err)
	}
	return []Input{{Label: "a", Dump: ds[0]}, {Label: "b", Dump: ds[0]}, {Label: "c", Dump: ds[0]}}
}

// BenchmarkAnalyzeJVM analyzes a JVM moment of many distinct thread names,
// the work of learnJVMPools: the shared corpus's real jstack of 3,019
// threads (3,000 of one pool), and the same ten times over under new names
// (pool-1-thread-3001 on: 30,190 threads, 30,000 names of one shape), so
// that time and memory per thread stay flat as the names grow.
func BenchmarkAnalyzeJVM(b *testing.B) {
	ds, err := parse.ParseFile("../../shared/corpus/jvm/dumpdiff-gen__openjdk-17.0.15__jstack-l-3000-threads.txt")
	if err != nil {
		b.Skipf("shared corpus not available: %v", err)
	}
	src := ds[0]
	wide := *src
	wide.Threads = nil
	for rep := range 10 {
		for _, t := range src.Threads {
			c := *t
			if rep > 0 {
				c.ID = t.ID + int64(rep)*1_000_000
				if n, ok := strings.CutPrefix(t.Name(), "pool-1-thread-"); ok {
					i, _ := strconv.Atoi(n)
					j := *t.JVM
					j.Name = "pool-1-thread-" + strconv.Itoa(i+rep*3000)
					c.JVM = &j
				}
			}
			wide.Threads = append(wide.Threads, &c)
		}
	}
	for _, d := range []*parse.Dump{src, &wide} {
		b.Run(strconv.Itoa(d.ThreadCount()), func(b *testing.B) {
			b.ReportAllocs()
			in := []Input{{Label: "a", Dump: d}}
			for b.Loop() {
				Analyze(in, Options{})
			}
			b.ReportMetric(float64(d.ThreadCount()), "threads/op")
		})
	}
}
