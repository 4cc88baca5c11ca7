package report

import (
	"io"
	"path/filepath"
	"testing"
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
