package parse

import (
	"os"
	"strings"
	"testing"
)

// Helpers for tests that build their input from real dumps: whole files
// concatenated, or cut at a line or a byte.

// dumpSummary is what the capture tests check of each dump.
type dumpSummary struct {
	Line     int // Source.Line
	Kind     string
	Headline string
	Threads  int
	Skipped  int
}

func summarize(dumps []*Dump) []dumpSummary {
	var out []dumpSummary
	for _, d := range dumps {
		out = append(out, dumpSummary{Line: d.Source.Line, Kind: d.Kind, Headline: d.Headline, Threads: d.ThreadCount(), Skipped: len(d.Skipped)})
	}
	return out
}

// readInput reads a real dump for a test; it skips the test when a shared
// corpus file is absent.
func readInput(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		if strings.HasPrefix(path, corpusDir) {
			t.Skipf("shared corpus file not present (%v)", err)
		}
		t.Fatal(err)
	}
	return string(b)
}

func lineCount(s string) int { return strings.Count(s, "\n") }

// cutLines returns lines from..to (1-based, inclusive) of s, each with its
// newline; to 0 means up to the end.
func cutLines(s string, from, to int) string {
	lines := strings.SplitAfter(s, "\n")
	if to == 0 || to > len(lines) {
		to = len(lines)
	}
	return strings.Join(lines[from-1:to], "")
}
