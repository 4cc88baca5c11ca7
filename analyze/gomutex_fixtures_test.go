package analyze

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestGoMutexCycleFixtures judges real Go programs (testdata/gen/go-mutex-cycles,
// Go 1.26 debug=2 and Go 1.13.15 SIGQUIT; each README.md says the verdict
// wanted, written before dumpdiff ran) whose lock cycles one dump must
// tell by structure, bystanders queued on the cycle's locks: the tellers
// of transfer(a, b) and transfer(b, a) (the accounts their frames name),
// lockorder1 and lockorder2 on package-level mutexes (the closed waits:
// everything out of its rest waits on the two locks, and the bystanders
// share their places). One dump with no age: a warning, the cycle's
// goroutines its members, the five bystanders blocked behind it and no
// contention finding of theirs; a minute printed: critical. The healthy
// twins (two mutexes in one order under load, one mutex turning over)
// give no deadlock.
func TestGoMutexCycleFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	cycle := func(sev Severity, basis string, members ...string) func(*testing.T, Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "severity", f.Severity, sev)
			eq(t, "basis", f.Basis, basis)
			var at []string
			for _, m := range f.Cycle {
				at = append(at, strings.SplitN(m.Culprit, " ", 2)[0])
				if m.WaitsFor == nil || !slices.ContainsFunc(f.Cycle, func(o ThreadRef) bool { return o.Name == m.WaitsFor.Holder }) {
					t.Errorf("member %s: its lock's holder is not named among the members: %+v", m.Name, m.WaitsFor)
				}
			}
			slices.Sort(at)
			eq(t, "members", strings.Join(at, " "), strings.Join(members, " "))
			eq(t, "blocked", len(f.Blocked), 5)
		}
	}
	dl := func(check func(*testing.T, Finding)) want {
		return want{KindDeadlock, "main.main", "mutex-wait", check}
	}
	contention := want{KindContention, "main.main", "mutex-wait", nil}
	transfer := []string{"main.(*account).transfer", "main.(*account).transfer"}
	lockorder := []string{"main.lockorder1", "main.lockorder2"}
	tests := []fixtureCase{
		{"go-mutex-transfer-stuck", []string{"1.txt"}, []want{dl(cycle(Warning, "go-lock-graph", transfer...))}},
		{"go-mutex-transfer-stuck-go113", []string{"sigquit.txt"}, []want{dl(cycle(Warning, "go-lock-graph", transfer...))}},
		{"go-mutex-transfer-minutes", []string{"sigquit.txt"}, []want{dl(cycle(Critical, "go-lock-graph", transfer...))}},
		{"go-mutex-lockorder-stuck", []string{"1.txt"}, []want{dl(cycle(Warning, basisLockClosed, lockorder...))}},
		{"go-mutex-lockorder-stuck-go113", []string{"sigquit.txt"}, []want{dl(cycle(Warning, basisLockClosed, lockorder...))}},
		{"go-mutex-lockorder-minutes-go113", []string{"sigquit.txt"}, []want{dl(cycle(Critical, basisLockClosed, lockorder...))}},
		{"go-mutex-ordered-healthy", []string{"1.txt"}, []want{contention}},
		{"go-mutex-ordered-healthy-go113", []string{"sigquit.txt"}, []want{contention}},
		{"go-mutex-turnover-healthy", []string{"1.txt"}, []want{contention}},
		{"go-mutex-turnover-healthy-go113", []string{"sigquit.txt"}, []want{contention}},
	}
	// A ring of three stages of one function, each started by a go
	// statement of its own, all in chan send (Go 1.26 prints no
	// argument of the inlined stage): one dump, nothing runnable or
	// asleep beside it, a warning; the ring that flows (two items, CPU
	// work per item) nothing.
	ring := func(t *testing.T, f Finding) {
		eq(t, "severity", f.Severity, Warning)
		eq(t, "basis", f.Basis, basisChanCycle)
		eq(t, "members", len(f.Cycle), 3)
		for _, m := range f.Cycle {
			if m.WaitsFor == nil || m.WaitsFor.Chan != "send" || !strings.HasPrefix(m.Culprit, "main.stage") {
				t.Errorf("member %s at %s waits for %+v, want a send in main.stage", m.Name, m.Culprit, m.WaitsFor)
			}
		}
	}
	tests = append(tests,
		fixtureCase{"go-chan-ring-stuck", []string{"1.txt"}, []want{{KindDeadlock, "main.main", "chan-send", ring}}},
		fixtureCase{"go-chan-ring-stuck-go113", []string{"sigquit.txt"}, []want{{KindDeadlock, "main.main", "chan-send", ring}}},
		fixtureCase{"go-chan-ringflow-healthy", []string{"1.txt"}, nil},
		fixtureCase{"go-chan-ringflow-healthy-go113", []string{"sigquit.txt"}, nil},
	)
	runFixtureCases(t, dir, tests)
}
