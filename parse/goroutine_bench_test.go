package parse

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkParseGoDebug2 parses the 20,000-goroutine debug=2 corpus dump.
// The speed target (2x DataDog/gostackparse, half its peak RSS, on a
// 100,000-goroutine dump) is checked whole-process by bench/compare.sh;
// this benchmark is for work on the scanner itself.
func BenchmarkParseGoDebug2(b *testing.B) {
	path := filepath.Join(corpusDir, "go", "dumpdiff-gen__go1.26.8__lookup-goroutine-debug2-20000-goroutines.txt")
	if p := os.Getenv("DUMPDIFF_BENCH_FILE"); p != "" {
		path = p // e.g. a 100,000-goroutine dump made by bench/gen100k
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Skipf("corpus file not present (%v)", err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		dumps, err := Parse("bench", bytes.NewReader(data))
		if err != nil || len(dumps) != 1 {
			b.Fatalf("got %d dumps, err %v", len(dumps), err)
		}
	}
}
