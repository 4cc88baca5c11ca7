// Package bench compares dumpdiff's parser with peer Go dump parsers in
// process (the whole-process comparison, with peak RSS, is compare.sh).
//
//	cd bench && go test -run '^$' -bench . -benchmem
//
// The benchmarks read data/go-100k.txt (go run ./gen100k writes it) and skip
// without it.
package bench

import (
	"bytes"
	"io"
	"os"
	"testing"

	"github.com/DataDog/gostackparse"
	"github.com/dumpdiff/dumpdiff/parse"
	"github.com/maruel/panicparse/v2/stack"
)

const dump100k = "data/go-100k.txt"

// parsers are the contenders; each returns the goroutines it read.
var parsers = []struct {
	name  string
	count func(tb testing.TB, data []byte) int
}{
	{"dumpdiff", func(tb testing.TB, data []byte) int {
		dumps, err := parse.Parse("dump", bytes.NewReader(data))
		if err != nil {
			tb.Fatal(err)
		}
		n := 0
		for _, d := range dumps {
			n += d.ThreadCount()
		}
		return n
	}},
	{"gostackparse", func(tb testing.TB, data []byte) int {
		gs, _ := gostackparse.Parse(bytes.NewReader(data))
		return len(gs)
	}},
	{"panicparse", func(tb testing.TB, data []byte) int {
		s, _, err := stack.ScanSnapshot(bytes.NewReader(data), io.Discard, &stack.Opts{})
		if err != nil && err != io.EOF {
			tb.Fatal(err)
		}
		if s == nil {
			return 0
		}
		return len(s.Goroutines)
	}},
}

// TestParsersAgree checks that the three parsers count the same goroutines in
// a real debug=2 dump, so that the benchmarks compare like with like.
func TestParsersAgree(t *testing.T) {
	for _, file := range []string{
		"../testdata/go/go1.26.8-debug2.txt",
		"../testdata/scenarios/go-slow-upstream-leak/after.txt",
	} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Skipf("fixture missing (regenerate with testdata/gen/go-*/gen.sh): %v", err)
		}
		want := bytes.Count(data, []byte("\ngoroutine ")) + 1 // the first has no newline before it
		for _, p := range parsers {
			if got := p.count(t, data); got != want {
				t.Errorf("%s: %s read %d goroutines, grep counts %d", file, p.name, got, want)
			}
		}
	}
}

func BenchmarkParse100k(b *testing.B) {
	data, err := os.ReadFile(dump100k)
	if err != nil {
		b.Skipf("%v: generate it with `go run ./gen100k`", err)
	}
	for _, p := range parsers {
		b.Run(p.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if p.count(b, data) == 0 {
					b.Fatal("no goroutine read")
				}
			}
		})
	}
}
