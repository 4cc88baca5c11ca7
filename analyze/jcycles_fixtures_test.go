package analyze

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestJCyclesFixtures (issue 33, "cycles of every kind" and "the holder
// first"): one real program of five scenes (testdata/gen/verdicts-jcycles,
// Java 17 and Temurin 25; each README.md written from the source before
// dumpdiff ran), each with its healthy twin.
func TestJCyclesFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	all := []string{"1", "2", "3"}
	orphaned := func(holder, class string) func(t *testing.T, f Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "severity", f.Severity, Critical)
			eq(t, "owner", f.Lock.Owner.Name, holder)
			eq(t, "orphaned on", f.Lock.Owner.Orphaned, class)
		}
	}
	rwCycle := func(t *testing.T, f Finding) {
		eq(t, "basis", f.Basis, basisFuture)
		eq(t, "cycle", len(f.Cycle), 2)
		eq(t, "readers behind it", len(f.Blocked), 4)
		for _, c := range f.Cycle {
			if c.Name == "config-io-1" {
				eq(t, "the writer waits for the read holder", c.WaitsFor != nil && c.WaitsFor.ReadHolder && c.WaitsFor.Holder == "config-reloader", true)
			}
		}
	}
	selfWait := func(t *testing.T, f Finding) {
		eq(t, "basis", f.Basis, "pool-self-wait")
		eq(t, "threads", len(f.Cycle), 1)
		eq(t, "culprit", strings.HasPrefix(f.Culprit, "com.example.jcycles.JCyclesApp$SelfPool.invoiceJob("), true)
	}
	ring := func(t *testing.T, f Finding) {
		eq(t, "basis", f.Basis, "livelock-held")
		eq(t, "counts", fmt.Sprint(f.Counts), "[3 3 3]")
		eq(t, "locks held", len(f.Holding), 3)
	}
	runFixtureCases(t, dir, []fixtureCase{
		// A holder in Object.wait on a Feed no thread runs: its five
		// waiters' contention is led by it, and says nobody can wake it.
		{"holder-wait-nosignal-stuck", all, []want{
			{KindContention, "lookup-*", "monitor-blocked", orphaned("index-builder", "com.example.jcycles.JCyclesApp$HolderWait$Feed")},
			{KindStuck, "lookup-*", "monitor-blocked", nil},
		}},
		{"jdk25-holder-wait-nosignal-stuck", all, []want{
			{KindContention, "lookup-*", "monitor-blocked", orphaned("index-builder", "com.example.jcycles.JCyclesApp$HolderWait$Feed")},
			{KindStuck, "lookup-*", "monitor-blocked", nil},
		}},
		{"holder-wait-nosignal-healthy", all, nil},
		// A holder parked on a latch whose counter ended.
		{"holder-park-nolatch-stuck", all, []want{
			{KindContention, "poster-*", "monitor-blocked", orphaned("ledger-closer", "java.util.concurrent.CountDownLatch$Sync")},
		}},
		{"holder-park-nolatch-healthy", all, nil},
		// A read holder joining a CompletableFuture whose task wants the
		// write lock: one cycle through the future, the readers behind it.
		{"rw-future-cf-stuck", all, []want{{KindDeadlock, "config-reloader", "future-wait", rwCycle}}},
		{"jdk25-rw-future-cf-stuck", all, []want{{KindDeadlock, "config-reloader", "future-wait", rwCycle}}},
		{"rw-future-cf-healthy", all, nil},
		// A one-thread executor waiting on its own FutureTask beside a
		// thread in a socket read, which cannot complete a FutureTask.
		{"pool-self-wait-busy-stuck", all, []want{{KindDeadlock, "invoice-writer", "future-wait", selfWait}}},
		{"jdk25-pool-self-wait-busy-stuck", all, []want{{KindDeadlock, "invoice-writer", "future-wait", selfWait}}},
		// One dump cannot tell waiting from waiting forever: a warning.
		{"pool-self-wait-busy-stuck", []string{"1"}, []want{{KindDeadlock, "invoice-writer", "future-wait", oneDumpWarning}}},
		{"pool-self-wait-busy-healthy", all, nil},
		// Three movers in a ring, each holding its write lock, retrying the
		// next with a timed tryLock and a sleep between: the livelock.
		// The JVM itself prints a deadlock when all three are parked in
		// their timed tryLock as it looks (JDK 17 at the first dump,
		// Temurin 25 at each): that report is kept.
		{"backoff-ring-stuck", all, []want{
			{KindDeadlock, "mover-*", "lock-wait", func(t *testing.T, f Finding) { eq(t, "basis", f.Basis, "jvm-report") }},
			{KindSpinning, "mover-*", "sleep", ring},
		}},
		{"jdk25-backoff-ring-stuck", all, []want{
			{KindDeadlock, "mover-*", "sleep", nil},
			{KindSpinning, "mover-*", "lock-wait", ring},
		}},
		{"backoff-ring-healthy", all, nil},
	})
}
