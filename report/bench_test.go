package report

import (
	"io"
	"path/filepath"
	"testing"
)

// BenchmarkGenerate renders a real scenario (Go, 4 moments, 904
// goroutines at the end) in each format. The analysis is done once,
// outside the timer: this measures the renderers only.
func BenchmarkGenerate(b *testing.B) {
	dir := filepath.Join("..", "testdata", "scenarios", "go-slow-upstream-leak")
	r := analyzeScenario(b, dir)
	for _, format := range Formats() {
		b.Run(format, func(b *testing.B) {
			for b.Loop() {
				if err := Generate(io.Discard, r, Options{Format: format}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
