package watch

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sync"
	"testing"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/parse"
)

// ringDumps writes n real debug=2 dumps of this process holding about
// 10,000 goroutines (workers idle on a channel, requests in a select, and
// a leak that grows by 20 a moment), the shape of a ring of a 10k-goroutine
// service. The goroutines end when the benchmark does.
func ringDumps(b *testing.B, n int) []string {
	b.Helper()
	dir := b.TempDir()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	park := func(k int, fn func()) {
		for range k {
			wg.Go(fn)
		}
	}
	jobs := make(chan int)
	park(8000, func() {
		select {
		case <-jobs:
		case <-stop:
		}
	})
	park(2000, func() { benchRequest(stop) })
	var paths []string
	for i := range n {
		park(20, func() { benchLeak(stop) })
		p := filepath.Join(dir, "m"+string(rune('a'+i/26))+string(rune('a'+i%26))+".txt")
		f, err := os.Create(p)
		if err != nil {
			b.Fatal(err)
		}
		pprof.Lookup("goroutine").WriteTo(f, 2)
		f.Close()
		paths = append(paths, p)
	}
	b.Cleanup(func() { close(stop); wg.Wait() })
	return paths
}

func benchRequest(stop chan struct{}) { <-stop }
func benchLeak(stop chan struct{})    { <-stop }

func parseMoment(b *testing.B, path string) analyze.Input {
	ds, err := parse.ParseFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return analyze.Input{Label: filepath.Base(path), Dump: ds[0]}
}

// BenchmarkRingTick is what a tick of watch costs a ring of 40 moments of
// a 10k-goroutine service once the moment is on disk: parse the new moment
// (the ring keeps the other 39 parsed) and analyze the 40 with the ring's
// analyze.Cache (the other 39 moments' builds kept). MiB-held is what the
// ring holds in memory: the parsed moments and their cached builds.
func BenchmarkRingTick(b *testing.B) {
	paths := ringDumps(b, 41)
	var size int64
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil {
			size = max(size, st.Size())
		}
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var in []analyze.Input
	for _, p := range paths[:40] {
		in = append(in, parseMoment(b, p))
	}
	opt := analyze.Options{Cache: analyze.NewCache()}
	analyze.Analyze(in, opt) // the ring's last analysis, before this tick
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		x := parseMoment(b, paths[40-i%2]) // alternate: the ring turns
		in = append(in[1:], x)
		analyze.Analyze(in, opt)
	}
	b.ReportMetric(float64(after.HeapInuse-before.HeapInuse)/(1<<20), "MiB-held")
	b.ReportMetric(float64(size)/(1<<20), "MiB-moment")
}

// BenchmarkRingTickNoCache is the tick without the analysis cache: the
// new moment parsed, the 40 built again.
func BenchmarkRingTickNoCache(b *testing.B) {
	paths := ringDumps(b, 41)
	var in []analyze.Input
	for _, p := range paths[:40] {
		in = append(in, parseMoment(b, p))
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		x := parseMoment(b, paths[40-i%2])
		in = append(in[1:], x)
		analyze.Analyze(in, analyze.Options{})
	}
}

// BenchmarkRingFull is the same tick without the ring's parsed moments:
// all 40 parsed again, then analyzed (what running dumpdiff on the ring's
// folder each tick would cost).
func BenchmarkRingFull(b *testing.B) {
	paths := ringDumps(b, 41)
	b.ResetTimer()
	for b.Loop() {
		in := make([]analyze.Input, 0, 40)
		for _, p := range paths[1:] {
			in = append(in, parseMoment(b, p))
		}
		analyze.Analyze(in, analyze.Options{})
	}
}
