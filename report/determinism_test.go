package report

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/parse"
)

// TestSameDumpsSameReport analyzes every committed fixture set several
// times and requires the same JSON and text each time. Go randomizes map
// iteration on every range, so a detector that emits findings in the
// order of a map walk (the contention detector did, with 16 locks of one
// dump) shows here as two different reports of the same dumps.
func TestSameDumpsSameReport(t *testing.T) {
	var sets []string
	for _, glob := range []string{"scenarios/*", "libs/*", "verdicts/*"} {
		dirs, _ := filepath.Glob(filepath.Join("..", "testdata", glob))
		sets = append(sets, dirs...)
	}
	if len(sets) == 0 {
		t.Fatal("no fixture folder under ../testdata")
	}
	for _, dir := range sets {
		files := dumpFiles(t, dir)
		if len(files) == 0 {
			continue
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var in []analyze.Input
			for _, f := range files {
				ds, err := parse.ParseFile(f)
				if err != nil {
					t.Fatalf("parsing %s: %v", f, err)
				}
				for _, d := range ds {
					in = append(in, analyze.Input{Dump: d})
				}
			}
			var first string
			for run := range 6 {
				r := analyze.Analyze(in, analyze.Options{})
				var b bytes.Buffer
				for _, format := range []Format{FormatJSON, FormatText} {
					if err := Generate(&b, r, Options{Format: format}); err != nil {
						t.Fatal(err)
					}
				}
				if run == 0 {
					first = b.String()
				} else if b.String() != first {
					t.Fatalf("run %d of the same dumps gives another report:\n%s", run+1, firstDiff(first, b.String()))
				}
			}
		})
	}
}

// dumpFiles are the primary dumps of a fixture folder, in name order
// (notes and the encodings beside a moment left out).
func dumpFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		n := e.Name()
		switch filepath.Ext(n) {
		case ".txt", ".log", ".json", ".jfr", ".dmp":
		default:
			continue // README.md, COUNTS.tsv, the proto beside a moment
		}
		// A capture's manifest, and the scheduler read beside a moment, are
		// no dumps of their own.
		if e.IsDir() || strings.Contains(n, "-debug1") || strings.HasPrefix(n, ".") || n == "manifest.json" || strings.Contains(n, "-vthread-scheduler") {
			continue
		}
		out = append(out, filepath.Join(dir, n))
	}
	sort.Strings(out)
	return out
}

// firstDiff shows the first line where a and b differ.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, al[i], bl[i])
		}
	}
	return "one report is a prefix of the other"
}
