package report

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/internal/benchinput"
	"github.com/dumpdiff/dumpdiff/parse"
)

// BenchmarkGenerate renders a real scenario (Go, 5 moments, up to 904
// goroutines) in each format. The analysis is done once,
// outside the timer: this measures the renderers only.
func BenchmarkGenerate(b *testing.B) {
	dir := filepath.Join("..", "testdata", "scenarios", "go-slow-upstream-leak")
	r := analyzeScenario(b, dir)
	for _, format := range Formats() {
		b.Run(string(format), func(b *testing.B) {
			for b.Loop() {
				if err := Generate(io.Discard, r, Options{Format: format}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRender renders the report of three 100,000-goroutine moments
// in each ticket format and text: a real 20,000-goroutine debug=2 dump
// written by Go 1.26.8, each goroutine replicated five times under new
// ids (as the TUI's largeResult), the second moment without every 7th
// goroutine and the third without every 5th. The analysis is done once,
// outside the timer: this measures the document and its writers only.
func BenchmarkRender(b *testing.B) {
	r := largeResult(b)
	for _, format := range Formats() {
		b.Run(string(format), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := Generate(io.Discard, r, Options{Format: format}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// largeResult is the analysis BenchmarkRender renders; it skips when the
// shared corpus is not on this machine.
func largeResult(b *testing.B) *analyze.Result {
	b.Helper()
	path := filepath.Join("..", "..", benchinput.Corpus20k)
	if _, err := os.Stat(path); err != nil {
		b.Skipf("real dump not available: %v", err)
	}
	dumps, err := parse.ParseFile(path)
	if err != nil || len(dumps) != 1 {
		b.Fatalf("parsing %s: %d dumps, %v", path, len(dumps), err)
	}
	in := benchinput.ThreeMoments(dumps[0])
	return analyze.Analyze(in, analyze.Options{})
}
