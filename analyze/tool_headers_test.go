package analyze

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestToolHeaderFindings: the header families made here
// (testdata/formats/README.md, "Thread headers of other tools") give the
// deadlock of the two named workers, from their names and owners, and
// their healthy control nothing above info; nothing is skipped.
func TestToolHeaderFindings(t *testing.T) {
	for _, fam := range []string{"hash-inline", "hash-state", "geode"} {
		for _, mode := range []string{"deadlock", "healthy"} {
			file := "tool-headers-jdk17__" + fam + "-" + mode + ".txt"
			t.Run(file, func(t *testing.T) {
				ds, err := parse.ParseFile(filepath.Join("..", "testdata", "formats", file))
				if err != nil {
					t.Fatal(err)
				}
				if len(ds) != 1 || len(ds[0].Skipped) != 0 || len(ds[0].Threads) != 2 {
					t.Fatalf("%d dumps; want one of 2 threads, nothing skipped", len(ds))
				}
				r := Analyze([]Input{{Dump: ds[0]}}, Options{})
				var got []string
				for _, f := range r.Findings {
					if f.Severity <= Info {
						continue
					}
					var ms []string
					for _, c := range f.Cycle {
						ms = append(ms, c.Name)
					}
					sort.Strings(ms)
					got = append(got, f.Kind+" "+strings.Join(ms, " + "))
				}
				want := []string{}
				if mode == "deadlock" {
					want = []string{KindDeadlock + " pool-1-thread-1 + pool-1-thread-2"}
				}
				if strings.Join(got, "; ") != strings.Join(want, "; ") {
					t.Errorf("findings %q, want %q", got, want)
				}
			})
		}
	}
}
