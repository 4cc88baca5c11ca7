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
	path := "../bench/data/go-100k.txt"
	if _, err := os.Stat(path); err != nil {
		path = "../../shared/corpus/go/dumpdiff-gen__go1.26.8__lookup-goroutine-debug2-20000-goroutines.txt"
	}
	ds, err := parse.ParseFile(path)
	if err != nil {
		b.Skipf("no large dump: %v", err)
	}
	in := []Input{{Label: "a", Dump: ds[0]}, {Label: "b", Dump: ds[0]}, {Label: "c", Dump: ds[0]}}
	for b.Loop() {
		Analyze(in, Options{})
	}
	b.ReportMetric(float64(3*ds[0].ThreadCount()), "goroutines/op")
}
