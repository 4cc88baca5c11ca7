package analyze

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestGoLockArgsFixtures judges real Go programs whose lock waits Go
// prints no owner for (testdata/gen/go-lock-args, run by Go 1.26 and by Go
// 1.13.15; each folder's README.md says the verdict wanted, written before
// dumpdiff ran). The ledger's cycle of two, with two more tellers queued
// behind it (one at the same Lock line, on the same lock as a member), is
// told only by the accounts the frames print: a deadlock at every moment,
// inferred, critical; from one moment without an age, a warning (one
// moment's evidence, issue 33). Two functions
// taking two package-level locks in opposite orders, one SIGQUIT with the
// waits' minute printed: a deadlock from that moment alone. The healthy
// tellers, taking their locks in order, are caught waiting but form no
// cycle: contention at most.
func TestGoLockArgsFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	ledger := func(t *testing.T, f Finding) {
		eq(t, "basis", f.Basis, "go-arg-graph")
		eq(t, "members", len(f.Cycle), 2)
		eq(t, "blocked", len(f.Blocked), 2)
		for _, m := range f.Cycle {
			if !strings.HasPrefix(m.Culprit, "main.(*account).transfer") {
				t.Errorf("member %s at %s, want main.(*account).transfer", m.Name, m.Culprit)
			}
			if m.WaitsFor == nil || m.WaitsFor.Holder == "" || !slices.ContainsFunc(f.Cycle, func(o ThreadRef) bool { return o.Name == m.WaitsFor.Holder }) {
				t.Errorf("member %s: its lock's holder is not named among the members: %+v", m.Name, m.WaitsFor)
			}
		}
	}
	stock := func(t *testing.T, f Finding) {
		eq(t, "basis", f.Basis, "go-arg-graph")
		var at []string
		for _, m := range f.Cycle {
			at = append(at, strings.SplitN(m.Culprit, " ", 2)[0])
		}
		slices.Sort(at)
		eq(t, "members", strings.Join(at, " "), "main.postLedger main.takeStock")
	}
	graph := func(n int) func(t *testing.T, f Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, "go-lock-graph")
			eq(t, "members", len(f.Cycle), n)
		}
	}
	dl := func(check func(*testing.T, Finding)) want {
		return want{KindDeadlock, "main.main", "mutex-wait", check}
	}
	contention := want{KindContention, "main.main", "mutex-wait", nil}
	severity := func(s Severity, check func(*testing.T, Finding)) func(*testing.T, Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "severity", f.Severity, s)
			check(t, f)
		}
	}
	all := []string{"1", "2", "3"}
	var tests []fixtureCase
	for _, v := range []string{"", "-go113"} {
		tests = append(tests,
			fixtureCase{"go-lock-args-ledger" + v, all, []want{dl(severity(Critical, ledger))}},
			fixtureCase{"go-lock-args-ledger" + v, []string{"2", "3"}, []want{dl(severity(Critical, ledger))}},
			fixtureCase{"go-lock-args-ledger" + v, []string{"2"}, []want{dl(severity(Warning, ledger))}},
			fixtureCase{"go-lock-args-ring" + v, all, []want{dl(graph(4))}},
			fixtureCase{"go-lock-args-pair-sigquit" + v, []string{"sigquit"}, []want{dl(graph(2))}},
			fixtureCase{"go-lock-args-ordered-sigquit" + v, []string{"sigquit"}, []want{contention}},
			// Two functions, the locks passed as arguments, a minute printed:
			// one moment is enough; 8 s in, without an age, a warning.
			fixtureCase{"go-lock-args-stock-sigquit" + v, []string{"sigquit"}, []want{dl(severity(Critical, stock))}},
			fixtureCase{"go-lock-args-stock-early" + v, []string{"sigquit"}, []want{dl(severity(Warning, stock))}},
		)
	}
	// A mutex never unlocked, in the runtime's own "all goroutines are
	// asleep": the lock wait leads, with its remedy, main's WaitGroup
	// wait follows.
	asleepLock := func(t *testing.T, f Finding) {
		eq(t, "basis", f.Basis, "go-runtime")
		eq(t, "culprit", strings.SplitN(f.Culprit, " ", 2)[0], "main.(*store).put")
		eq(t, "members", len(f.Cycle), 2)
		eq(t, "second", f.Cycle[1].State, "waitgroup-wait")
		if !strings.Contains(f.Remedy, "never unlocked") {
			t.Errorf("remedy %q", f.Remedy)
		}
	}
	for _, v := range []string{"", "-go113"} {
		tests = append(tests, fixtureCase{"go-asleep-lock" + v, []string{"stderr"}, []want{{KindDeadlock, "main.main", "mutex-wait", asleepLock}}})
	}
	tests = append(tests,
		fixtureCase{"go-lock-args-ordered", all, []want{contention}},
		fixtureCase{"go-lock-args-ordered-go113", all, []want{contention, {KindRecovered, "main.main", "mutex-wait", nil}}},
	)
	runFixtureCases(t, dir, tests)
}
