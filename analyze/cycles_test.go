package analyze

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestCycleVerdictFixtures (issue 33, "cycles of every kind" and "the
// holder first"): real Java 17 and Temurin 25 programs made for one cycle
// each (testdata/gen/verdicts-cycles; every README.md was written from the
// program's source before dumpdiff ran), with their controls, in the cuts
// that make sense.
func TestCycleVerdictFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	classInit := func(t *testing.T, f Finding) {
		eq(t, "basis", f.Basis, "class-init")
		eq(t, "cycle", len(f.Cycle), 2)
		byName := map[string]CycleMember{}
		for _, c := range f.Cycle {
			byName[c.Name] = c
		}
		tax, cur := byName["init-tax"], byName["init-currency"]
		if tax.WaitsFor == nil || cur.WaitsFor == nil {
			t.Fatalf("cycle members wait for nothing: %+v", f.Cycle)
		}
		eq(t, "init-tax waits for", tax.WaitsFor.Class, "com.example.cycles.CurrencyTable")
		eq(t, "init-tax waits for, held by", tax.WaitsFor.Holder, "init-currency")
		eq(t, "init-currency waits for", cur.WaitsFor.Class, "com.example.cycles.TaxRules")
		eq(t, "init-currency waits for, held by", cur.WaitsFor.Holder, "init-tax")
		eq(t, "init-tax in", strings.HasPrefix(tax.Culprit, "com.example.cycles.TaxRules.<clinit>("), true)
		eq(t, "blocked", len(f.Blocked), 1)
		if len(f.Blocked) == 1 {
			eq(t, "blocked", f.Blocked[0].Name, "price-reader")
		}
	}
	selfWait := func(n int, culprit, class string) func(t *testing.T, f Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, "pool-self-wait")
			eq(t, "threads", len(f.Cycle), n)
			eq(t, "limit", f.Limit.Size, n)
			eq(t, "culprit", strings.HasPrefix(f.Culprit, culprit), true)
			eq(t, "waits on", f.Cycle[0].WaitsFor != nil && f.Cycle[0].WaitsFor.Class == class, true)
		}
	}
	tests := []fixtureCase{
		// Two static initializers waiting for each other, and a reader
		// behind them: one deadlock, by structure, at every cut; the
		// cycle is there in one dump alone (a cycle is a cycle).
		{"class-init-stuck", []string{"1", "2", "3"}, []want{{KindDeadlock, "init-tax", "class-init-wait", func(t *testing.T, f Finding) {
			classInit(t, f)
			eq(t, "counts", fmt.Sprint(f.Counts), "[2 2 2]")
		}}}},
		{"class-init-stuck", []string{"2"}, []want{{KindDeadlock, "init-tax", "class-init-wait", classInit}}},
		{"jdk25-class-init-stuck", []string{"1", "2", "3"}, []want{{KindDeadlock, "init-tax", "class-init-wait", classInit}}},
		{"class-init-healthy", []string{"1", "2", "3"}, nil},
		{"jdk25-class-init-healthy", []string{"1", "2", "3"}, nil},
		// A single-thread executor and a fixed pool of 4, each waiting on
		// parts queued behind its own tasks: two self-deadlocks; the fixed
		// pool's stuck and saturated follow from its.
		{"pool-self-wait-stuck", []string{"1", "2", "3"}, []want{
			{KindDeadlock, "audit-worker-*", "future-wait", selfWait(1, "com.example.cycles.AuditJob.run(", "java.util.concurrent.FutureTask")},
			{KindDeadlock, "report-worker-*", "future-wait", selfWait(4, "com.example.cycles.ReportJob.run(", "java.util.concurrent.CompletableFuture$Signaller")},
			{KindStuck, "report-worker-*", "future-wait", func(t *testing.T, f Finding) {
				eq(t, "caused by", f.CausedBy, "deadlock pool-self-wait report-worker-*")
			}},
			{KindSaturated, "report-worker-*", "future-wait", nil},
		}},
		{"pool-self-wait-stuck", []string{"2", "3"}, []want{
			{KindDeadlock, "audit-worker-*", "future-wait", nil}, {KindDeadlock, "report-worker-*", "future-wait", nil},
			{KindStuck, "report-worker-*", "future-wait", nil}, {KindSaturated, "report-worker-*", "future-wait", nil},
		}},
		// One dump cannot tell a pool waiting on its parts from one waiting
		// forever: the shape of a self-deadlock, said as a warning (issue 33,
		// thread starvation).
		{"pool-self-wait-stuck", []string{"1"}, []want{
			{KindDeadlock, "audit-worker-*", "future-wait", oneDumpWarning}, {KindDeadlock, "report-worker-*", "future-wait", oneDumpWarning},
		}},
		{"pool-self-wait-healthy", []string{"1", "2", "3"}, nil},
		// The same program on Temurin 25.
		{"jdk25-pool-self-wait-stuck", []string{"1", "2", "3"}, []want{
			{KindDeadlock, "audit-worker-*", "future-wait", selfWait(1, "com.example.cycles.AuditJob.run(", "java.util.concurrent.FutureTask")},
			{KindDeadlock, "report-worker-*", "future-wait", selfWait(4, "com.example.cycles.ReportJob.run(", "java.util.concurrent.CompletableFuture$Signaller")},
			{KindStuck, "report-worker-*", "future-wait", nil}, {KindSaturated, "report-worker-*", "future-wait", nil},
		}},
		// Workers BLOCKED in Class.forName0 with no lock line, behind the
		// loader's lock that plugin-loader holds in loadClass while it
		// reads a repository that never answers: the holder first.
		{"classloader-lock-stuck", []string{"1", "2", "3"}, []want{
			{KindContention, "plugin-worker-*", "monitor-blocked", func(t *testing.T, f Finding) {
				eq(t, "basis", f.Basis, "loader-lock")
				eq(t, "waiters", fmt.Sprint(f.Counts), "[4 4 4]")
				eq(t, "class", f.Lock.Class, "com.example.cycles.RemoteLoader")
				eq(t, "owner", f.Lock.Owner.Name, "plugin-loader")
				eq(t, "owner state", f.Lock.Owner.State, "socket-read")
				eq(t, "owner culprit", strings.HasPrefix(f.Lock.Owner.Culprit, "com.example.cycles.RemoteLoader.fetch("), true)
			}},
			{KindStuck, "plugin-worker-*", "monitor-blocked", func(t *testing.T, f Finding) {
				eq(t, "caused by", strings.HasPrefix(f.CausedBy, "contention "), true)
			}},
			{KindSaturated, "plugin-worker-*", "monitor-blocked", nil},
		}},
		{"classloader-lock-healthy", []string{"1", "2", "3"}, nil},
		{"jdk25-classloader-lock-stuck", []string{"1", "2", "3"}, []want{
			{KindContention, "plugin-worker-*", "monitor-blocked", func(t *testing.T, f Finding) {
				eq(t, "basis", f.Basis, "loader-lock")
				eq(t, "owner", f.Lock.Owner.Name, "plugin-loader")
				eq(t, "owner state", f.Lock.Owner.State, "socket-read")
			}},
			{KindStuck, "plugin-worker-*", "monitor-blocked", nil}, {KindSaturated, "plugin-worker-*", "monitor-blocked", nil},
		}},
		// One monitor at three addresses (a full GC between dumps): one
		// contention, its holder named, the stuck pool following from it.
		{"lock-moved-stuck", []string{"1", "2", "3"}, []want{
			{KindContention, "quote-worker-*", "monitor-blocked", func(t *testing.T, f Finding) {
				eq(t, "waiters", fmt.Sprint(f.Counts), "[6 6 6]")
				eq(t, "addresses", len(f.Lock.Addresses), 3)
				eq(t, "class", f.Lock.Class, "com.example.cycles.RateTable")
				eq(t, "owner", f.Lock.Owner.Name, "rate-refresher")
				eq(t, "owner state", f.Lock.Owner.State, "sleep")
			}},
			{KindStuck, "quote-worker-*", "monitor-blocked", func(t *testing.T, f Finding) {
				eq(t, "caused by", strings.HasPrefix(f.CausedBy, "contention "), true)
			}},
			{KindSaturated, "quote-worker-*", "monitor-blocked", nil},
		}},
		{"lock-moved-healthy", []string{"1", "2", "3"}, nil},
		// One worker of a pool of two BLOCKED behind a holder that waits
		// on a remote store: the holder named, at every cut of two
		// moments or more; one moment alone cannot say the lock stayed.
		{"single-waiter-stuck", []string{"1", "2", "3"}, []want{{KindContention, "session-worker-*", "monitor-blocked", func(t *testing.T, f Finding) {
			eq(t, "waiters", fmt.Sprint(f.Counts), "[1 1 1]")
			eq(t, "class", f.Lock.Class, "com.example.cycles.SessionStore")
			eq(t, "owner", f.Lock.Owner.Name, "session-store")
			eq(t, "owner state", f.Lock.Owner.State, "socket-read")
			eq(t, "owner culprit", strings.HasPrefix(f.Lock.Owner.Culprit, "com.example.cycles.SessionStore.flush("), true)
		}}}},
		{"single-waiter-stuck", []string{"2", "3"}, []want{{KindContention, "session-worker-*", "monitor-blocked", nil}}},
		{"single-waiter-stuck", []string{"1"}, nil},
		{"single-waiter-healthy", []string{"1", "2", "3"}, nil},
		// A holder that waits for another holder: the Ledger's contention
		// (its holder asleep in flush) is the root; the OrderBook's, whose
		// holder book-keeper waits for the Ledger, follows from it.
		{"holder-chain-stuck", []string{"1", "2", "3"}, []want{
			{KindContention, "audit-worker-*", "monitor-blocked", func(t *testing.T, f Finding) {
				eq(t, "class", f.Lock.Class, "com.example.cycles.Ledger")
				eq(t, "owner", f.Lock.Owner.Name, "ledger-flusher")
				eq(t, "owner state", f.Lock.Owner.State, "sleep")
				eq(t, "root", f.CausedBy, "")
				eq(t, "waiters", fmt.Sprint(f.Counts), "[4 4 4]") // 3 audit workers and book-keeper
			}},
			{KindContention, "order-worker-*", "monitor-blocked", func(t *testing.T, f Finding) {
				eq(t, "class", f.Lock.Class, "com.example.cycles.OrderBook")
				eq(t, "owner", f.Lock.Owner.Name, "book-keeper")
				w := f.Lock.Owner.WaitsFor
				eq(t, "owner waits for", w != nil && w.Class == "com.example.cycles.Ledger" && w.Holder == "ledger-flusher", true)
				eq(t, "caused by", strings.HasPrefix(f.CausedBy, "contention "), true)
			}},
			{KindStuck, "audit-worker-*", "monitor-blocked", nil}, {KindSaturated, "audit-worker-*", "monitor-blocked", nil},
			{KindStuck, "order-worker-*", "monitor-blocked", nil}, {KindSaturated, "order-worker-*", "monitor-blocked", nil},
		}},
		{"holder-chain-healthy", []string{"1", "2", "3"}, nil},
	}
	runFixtureCases(t, dir, tests)
}

// oneDumpWarning: a finding said from one dump is a warning.
func oneDumpWarning(t *testing.T, f Finding) { eq(t, "severity", f.Severity, Warning) }
