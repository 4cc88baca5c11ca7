package analyze

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestNewVerdictsKeepShape (issue 33, "every fixture cut to fewer
// moments, re-indented and prefixed keeps its verdict"): the fixtures of
// this round's JVM classes (a gathering of peers, two-sided waits, a
// nested wait after a public write-up) give the same findings — kind,
// pool, basis — when their dumps are pasted the ways people paste them:
// each line behind a docker-compose prefix, indented by four spaces (a
// Markdown code block), with CRLF line ends, and cut to their last two
// moments.
func TestNewVerdictsKeepShape(t *testing.T) {
	shapes := []struct {
		name string
		of   func(string) string
	}{
		{"compose-prefix", func(s string) string {
			lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
			for i, l := range lines {
				lines[i] = "app-1  | " + l
			}
			return strings.Join(lines, "\n") + "\n"
		}},
		{"indent4", func(s string) string {
			lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
			for i, l := range lines {
				lines[i] = "    " + l
			}
			return strings.Join(lines, "\n") + "\n"
		}},
		{"crlf", func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }},
	}
	verdict := func(in []Input) []string {
		var out []string
		for _, f := range Analyze(in, Options{}).Findings {
			out = append(out, fmt.Sprintf("%s %s %s", f.Kind, f.Pool, f.Basis))
		}
		slices.Sort(out)
		return out
	}
	for _, dir := range []string{"peers-stuck", "jdk25-peers-stuck", "twosided-stuck", "jdk25-twosided-stuck", "nested-queue-stuck"} {
		path := filepath.Join("..", "testdata", "verdicts", dir)
		want := verdict(loadMoments(t, path, []string{"1", "2", "3"}))
		if len(want) == 0 {
			t.Fatalf("%s: no findings to keep", dir)
		}
		eq(t, dir+" cut to 2 and 3", strings.Join(verdict(loadMoments(t, path, []string{"2", "3"})), "; "), strings.Join(want, "; "))
		for _, sh := range shapes {
			var in []Input
			for _, m := range []string{"1", "2", "3"} {
				b, err := os.ReadFile(filepath.Join(path, m+".txt"))
				if err != nil {
					t.Fatal(err)
				}
				ds, err := parse.Parse(m+".txt", strings.NewReader(sh.of(string(b))))
				if err != nil {
					t.Fatalf("%s %s: %v", dir, sh.name, err)
				}
				if len(ds) != 1 {
					t.Fatalf("%s %s %s: %d dumps, want 1", dir, sh.name, m, len(ds))
				}
				in = append(in, Input{Label: m, Dump: ds[0]})
			}
			eq(t, dir+" "+sh.name, strings.Join(verdict(in), "; "), strings.Join(want, "; "))
		}
	}
}
