package analyze

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// frameLine is a jstack frame line: "\tat com.example.Foo.bar(Foo.java:12)".
var frameLine = regexp.MustCompile(`(?m)^(\s*at [^\s(]+)\(([^()]*)\)$`)

// TestVerdictsKeepSignatureForms (issue 33): real dumps whose every frame
// is printed with its method's signature — a JVM descriptor before the
// location (SAP JVM, agents) or Java parameter types in place of the
// location (async-profiler, JFR-like) — give the same findings, with the
// same culprit and frame functions, as printed plainly; the healthy
// control stays quiet. The signature forms are the property of
// parse/frameforms_test.go; this is what they are for: states and
// culprits.
func TestVerdictsKeepSignatureForms(t *testing.T) {
	forms := []struct {
		name   string
		of     func(string) string
		noLine bool // the form prints no location
	}{
		{"descriptor+location", func(s string) string {
			return frameLine.ReplaceAllString(s, "${1}(Ljava/lang/Object;I)V(${2})")
		}, false},
		{"descriptor", func(s string) string {
			return frameLine.ReplaceAllString(s, "${1}(Ljava/lang/Object;I)V")
		}, true},
		{"types", func(s string) string {
			return frameLine.ReplaceAllString(s, "${1}(java.lang.Object, int)")
		}, true},
	}
	verdict := func(in []Input, noLine bool) []string {
		fn := func(s string) string {
			if noLine {
				if k := strings.IndexByte(s, '('); k >= 0 {
					return s[:k] // the function: the form prints no location
				}
			}
			return s
		}
		var out []string
		for _, f := range Analyze(in, Options{}).Findings {
			out = append(out, fmt.Sprintf("%s %s %s culprit=%s", f.Kind, f.Pool, f.Basis, fn(f.Culprit)))
		}
		slices.Sort(out)
		return out
	}
	for _, c := range []struct {
		dir     string
		moments []string
		quiet   bool
	}{
		{"scenarios/hikari-pool-exhausted", []string{"before", "during-1", "during-2", "after"}, false},
		{"libs/jvm-httpclient4-pool", []string{"1", "2"}, false},
		{"libs/jvm-commons-pool2", []string{"1", "2"}, false},
		{"libs/jvm-idle-libs", []string{"1", "2"}, true},
	} {
		path := filepath.Join("..", "testdata", c.dir)
		plain := loadMoments(t, path, c.moments)
		for _, f := range forms {
			want := verdict(plain, f.noLine)
			if c.quiet != (len(want) == 0) {
				t.Fatalf("%s: %d findings plainly, quiet=%v", c.dir, len(want), c.quiet)
			}
			var in []Input
			for _, m := range c.moments {
				b, err := os.ReadFile(filepath.Join(path, m+".txt"))
				if err != nil {
					t.Fatal(err)
				}
				text := f.of(string(b))
				if text == string(b) {
					t.Fatalf("%s %s: no frame rewritten", c.dir, m)
				}
				ds, err := parse.Parse(m+".txt", strings.NewReader(text))
				if err != nil {
					t.Fatalf("%s %s %s: %v", c.dir, f.name, m, err)
				}
				if len(ds) != 1 || len(ds[0].Skipped) != len(plain[len(in)].Dump.Skipped) {
					t.Fatalf("%s %s %s: %d dumps, %d lines skipped", c.dir, f.name, m, len(ds), len(ds[0].Skipped))
				}
				in = append(in, Input{Label: m, Dump: ds[0]})
			}
			eq(t, c.dir+" "+f.name, strings.Join(verdict(in, f.noLine), "; "), strings.Join(want, "; "))
		}
	}
}
