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

// TestGoGoneFixtures judges real Go programs (testdata/gen/go-gone, Go
// 1.26 and Go 1.13.15, debug=2 and SIGQUIT; each README.md says the
// verdict wanted, written before dumpdiff ran) whose waits' other side is
// ambiguous or gone. An AB-BA cycle (reserve, settle) beside a sleeping
// janitor: in one dump a warning of basis go-lock-asleep naming the
// sleepers as the other candidate holders; at two moments critical (the
// held pair). Its healthy twin (one lock order, the janitor holding a
// lock briefly while asleep) and plain contention with a running holder
// give no deadlock.
func TestGoGoneFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	asleep := func(sev Severity, sleepers ...string) func(*testing.T, Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "severity", f.Severity, sev)
			eq(t, "basis", f.Basis, basisLockAsleep)
			var at, zs []string
			for _, m := range f.Cycle {
				at = append(at, strings.SplitN(m.Culprit, " ", 2)[0])
			}
			for _, z := range f.Asleep {
				zs = append(zs, strings.SplitN(z.Culprit, " ", 2)[0])
			}
			slices.Sort(at)
			slices.Sort(zs)
			eq(t, "members", strings.Join(at, " "), "main.reserve main.settle")
			eq(t, "asleep", strings.Join(zs, " "), strings.Join(sleepers, " "))
		}
	}
	held := func(t *testing.T, f Finding) {
		eq(t, "severity", f.Severity, Critical)
		eq(t, "basis", f.Basis, basisHeldPair)
	}
	dl := func(check func(*testing.T, Finding)) want {
		return want{KindDeadlock, "main.main", "mutex-wait", check}
	}
	contention := want{KindContention, "main.main", "mutex-wait", nil}
	tests := []fixtureCase{
		{"go-gone-sleepcycle", []string{"sigquit.txt"}, []want{dl(asleep(Warning, "main.janitor"))}},
		{"go-gone-sleepcycle-go113", []string{"sigquit.txt"}, []want{dl(asleep(Warning, "main.janitor", "main.main"))}},
		{"go-gone-sleepcycle-debug2", []string{"1.txt"}, []want{dl(asleep(Warning, "main.janitor"))}},
		{"go-gone-sleepcycle-debug2", []string{"1.txt", "2.txt"}, []want{dl(held), {KindLeaked, "main.main", "waitgroup-wait", nil}}},
		{"go-gone-sleepcycle-debug2-go113", []string{"2.txt"}, []want{dl(asleep(Warning, "main.janitor"))}},
		{"go-gone-sleepcycle-debug2-go113", []string{"1.txt", "2.txt"}, []want{dl(held)}},
		{"go-gone-sleepflow-healthy", []string{"1.txt", "2.txt"}, nil},
		{"go-gone-sleepflow-healthy-go113", []string{"1.txt", "2.txt"}, nil},
		{"go-gone-contend-busy", []string{"sigquit.txt"}, []want{contention}},
		{"go-gone-contend-busy-go113", []string{"1.txt", "2.txt"}, []want{contention}},
	}
	runFixtureCases(t, dir, tests)
	for _, tt := range tests {
		keepsShape(t, filepath.Join(dir, tt.name), tt.moments)
	}
}

// keepsShape checks that files of fixture dir give the same findings
// (kind, pool, basis, severity) pasted each way of pasteShapes.
func keepsShape(t *testing.T, dir string, files []string) {
	t.Helper()
	verdict := func(sh func(string) string) string {
		var in []Input
		for _, name := range files {
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			ds, err := parse.Parse(name, strings.NewReader(sh(string(b))))
			if err != nil || len(ds) != 1 {
				t.Fatalf("%s/%s: %d dumps, %v", dir, name, len(ds), err)
			}
			in = append(in, Input{Label: name, Dump: ds[0]})
		}
		var out []string
		for _, f := range Analyze(in, Options{}).Findings {
			out = append(out, fmt.Sprintf("%s %s %s %v", f.Kind, f.Pool, f.Basis, f.Severity))
		}
		slices.Sort(out)
		return strings.Join(out, "; ")
	}
	want := verdict(pasteShapes[0])
	for i, sh := range pasteShapes[1:] {
		eq(t, fmt.Sprintf("%s %v shape %d", filepath.Base(dir), files, i+1), verdict(sh), want)
	}
}
