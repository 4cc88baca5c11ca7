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
// give no deadlock. Then the receives whose producer returned
// (sender-gone) and the WaitGroup of a module with no dot in its path
// (below). Each fixture pasted behind a prefix or indented keeps its
// verdict.
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
		{"go-gone-sleepcycle", []string{"sigquit.txt"}, []want{dl(asleep(Info, "main.janitor"))}},
		{"go-gone-sleepcycle-go113", []string{"sigquit.txt"}, []want{dl(asleep(Info, "main.janitor", "main.main"))}},
		{"go-gone-sleepcycle-debug2", []string{"1.txt"}, []want{dl(asleep(Info, "main.janitor"))}},
		{"go-gone-sleepcycle-debug2", []string{"1.txt", "2.txt"}, []want{dl(held), {KindLeaked, "main.main", "waitgroup-wait", nil}}},
		{"go-gone-sleepcycle-debug2-go113", []string{"2.txt"}, []want{dl(asleep(Info, "main.janitor"))}},
		{"go-gone-sleepcycle-debug2-go113", []string{"1.txt", "2.txt"}, []want{dl(held)}},
		{"go-gone-sleepflow-healthy", []string{"1.txt", "2.txt"}, nil},
		{"go-gone-sleepflow-healthy-go113", []string{"1.txt", "2.txt"}, nil},
		// Its first moment alone is the cycle's shape beside the janitor
		// (who holds led.mu asleep): a possibility at info, no more.
		{"go-gone-sleepflow-healthy-go113", []string{"1.txt"}, []want{{KindDeadlock, "main.main.func5", "mutex-wait", func(t *testing.T, f Finding) {
			eq(t, "severity", f.Severity, Info)
			eq(t, "basis", f.Basis, basisLockAsleep)
		}}}},
		{"go-gone-contend-busy", []string{"sigquit.txt"}, []want{contention}},
		{"go-gone-contend-busy-go113", []string{"1.txt", "2.txt"}, []want{contention}},
	}
	// A receive whose producer returned: six main.fetchAll (under
	// main.handle, or under net/http's handler) in a plain receive, no
	// closure of fetchAll nor goroutine it started alive: critical at two
	// moments, a warning for one dump aged a minute; nothing for one dump
	// with no age, a debug=1 profile, a slow producer alive, idle workers.
	gone := func(sev Severity) func(*testing.T, Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "severity", f.Severity, sev)
			eq(t, "basis", f.Basis, BasisSenderGone)
			eq(t, "culprit", strings.SplitN(f.Culprit, " ", 2)[0], "main.fetchAll")
			eq(t, "count", f.Counts[f.At], 6)
		}
	}
	tests = append(tests,
		fixtureCase{"go-gone-fetch", []string{"1.txt", "2.txt"}, []want{{KindLeaked, "main.main", "chan-receive", gone(Critical)}}},
		fixtureCase{"go-gone-fetch", []string{"2.txt"}, nil},
		// The program's own HTTP clients wait for the handlers' replies:
		// application goroutines that could still send (someoneElse), so
		// the rule says nothing; the clients are stuck.
		fixtureCase{"go-gone-fetch-http-go113", []string{"1.txt", "2.txt"}, []want{{KindStuck, "main.main", "http-client-wait", nil}}},
		fixtureCase{"go-gone-fetch-ext", []string{"1.txt", "2.txt"}, []want{{KindLeaked, "net/http server connections", "chan-receive", gone(Critical)}}},
		fixtureCase{"go-gone-fetch-ext-go113", []string{"1.txt", "2.txt"}, []want{{KindLeaked, "net/http server connections", "chan-receive", gone(Critical)}}},
		fixtureCase{"go-gone-fetch-ext-go113", []string{"2.txt"}, nil},
		fixtureCase{"go-gone-fetch-minutes-go113", []string{"sigquit.txt"}, []want{{KindLeaked, "main.main", "chan-receive", gone(Warning)}}},
		fixtureCase{"go-gone-fetch-cut", []string{"sigquit.txt"}, nil},
		fixtureCase{"go-gone-fetch-http-debug1", []string{"1.txt", "2.txt"}, nil},
		fixtureCase{"go-gone-fetchslow-bounded", []string{"1.txt", "2.txt"}, nil},
		fixtureCase{"go-gone-fetchslow-bounded-go113", []string{"1.txt", "2.txt"}, nil},
		fixtureCase{"go-gone-poolidle-idle", []string{"1.txt", "2.txt"}, nil},
		fixtureCase{"go-gone-poolidle-idle-go113", []string{"1.txt", "2.txt"}, nil},
	)
	// A WaitGroup whose workers block in their send, in a module whose
	// path has no dot (example/app): its frames are the application's,
	// and the finding names the workers' own frame and every pool of its
	// waiters.
	wg := func(sev Severity) func(*testing.T, Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "severity", f.Severity, sev)
			eq(t, "basis", f.Basis, BasisWaitGroupUnserved)
			eq(t, "culprit", f.Culprit, "example/app/internal/batch.RunBatch")
			eq(t, "pools", strings.Join(f.WaiterPools, " "), "main.main main.scheduler")
			if len(f.Workers) != 1 || !strings.HasPrefix(f.Workers[0].Culprit, "example/app/internal/batch.RunBatch.func1 ") || f.Workers[0].State != "chan-send" {
				t.Errorf("workers %+v, want RunBatch.func1 in chan-send", f.Workers)
			}
		}
	}
	stuck := want{KindStuck, "example/app/internal/batch.RunBatch", "chan-send", nil}
	tests = append(tests,
		fixtureCase{"go-dotless-wg-twopools", []string{"1.txt", "2.txt"}, []want{stuck, {KindLeaked, "main.scheduler", "waitgroup-wait", wg(Critical)}}},
		fixtureCase{"go-dotless-wg-twopools-go113", []string{"sigquit.txt"}, []want{{KindLeaked, "main.scheduler", "waitgroup-wait", wg(Warning)}}},
		fixtureCase{"go-dotless-wg", []string{"1.txt", "2.txt"}, []want{stuck}},
		fixtureCase{"go-dotless-wg-healthy", []string{"1.txt", "2.txt"}, nil},
	)
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
