package analyze

import (
	"os"
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
