package analyze

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestHolderFirstFixtures (issue 33, "the holder is the story" and "cycles
// of every kind"): real Java 17 programs (testdata/gen/verdicts-holderfirst;
// every README.md was written from the program's source before dumpdiff
// ran), each dumped three ways at once, jstack -l, the program's own
// ThreadMXBean dump as Actuator JSON and as ThreadInfo.toString() text,
// with their healthy twins.
func TestHolderFirstFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	txt := []string{"1", "2", "3"}
	js := []string{"1.json", "2.json", "3.json"}
	cycle := func(basis string) func(t *testing.T, f Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, basis)
			eq(t, "cycle", len(f.Cycle), 3)
			next := map[string]string{"posting-1": "posting-2", "posting-2": "posting-3", "posting-3": "posting-1"}
			for _, c := range f.Cycle {
				if c.WaitsFor == nil {
					t.Fatalf("%s waits for nothing", c.Name)
				}
				eq(t, c.Name+" waits for, held by", c.WaitsFor.Holder, next[c.Name])
			}
		}
	}
	owner := func(t *testing.T, f Finding) {
		eq(t, "basis", f.Basis, "owner-printed")
		eq(t, "class", f.Lock.Class, "com.example.holderfirst.OwnerWaitApp$AuditLog")
		eq(t, "owner", f.Lock.Owner.Name, "audit-flusher")
		eq(t, "owner state", f.Lock.Owner.State, "socket-read")
		eq(t, "owner waits", f.Lock.Owner.Waits, true)
	}
	permits := func(t *testing.T, f Finding) {
		eq(t, "basis", f.Basis, "permit-holders")
		eq(t, "class", f.Lock.Class, "java.util.concurrent.Semaphore$NonfairSync")
		eq(t, "holders", len(f.Lock.Holders), 3)
		for _, h := range f.Lock.Holders {
			eq(t, h.Name+" state", h.State, "socket-read")
			eq(t, h.Name+" in", strings.HasPrefix(h.Culprit, "com.example.holderfirst.LocalDb$Conn.query("), true)
		}
		eq(t, "waiters", f.Counts[f.At], 5)
	}
	pgPermits := func(t *testing.T, f Finding) {
		eq(t, "basis", f.Basis, "permit-holders")
		eq(t, "class", f.Lock.Class, "java.util.concurrent.Semaphore$NonfairSync")
		eq(t, "holders", len(f.Lock.Holders), 3)
		for _, h := range f.Lock.Holders {
			eq(t, h.Name+" state", h.State, "socket-read")
			eq(t, h.Name+" in", strings.HasPrefix(h.Culprit, "com.example.sources.BulkheadPgApp.runReport("), true)
		}
		eq(t, "waiters", f.Counts[f.At], 5)
	}
	causedByContention := func(t *testing.T, f Finding) {
		eq(t, "caused by", strings.HasPrefix(f.CausedBy, "contention "), true)
	}
	livelock := func(t *testing.T, f Finding) {
		eq(t, "basis", f.Basis, "livelock-held")
		eq(t, "culprit", strings.HasPrefix(f.Culprit, "com.example.holderfirst.BackoffApp.backOff("), true)
		eq(t, "caller", strings.HasPrefix(f.Caller, "com.example.holderfirst.BackoffApp.transferHolding("), true)
		eq(t, "holding", len(f.Holding), 2)
		held := map[string]bool{}
		for _, h := range f.Holding {
			held[h.Holder] = true
			eq(t, h.Holder+" holds", h.Class, "java.util.concurrent.locks.ReentrantLock$NonfairSync")
		}
		eq(t, "holders", fmt.Sprint(held), "map[mover-1:true mover-2:true]")
	}
	tests := []fixtureCase{
		// A ReentrantLock/ReentrantReadWriteLock cycle of three: one
		// deadlock in every form, with or without the JVM's report.
		{"juc-cycle-stuck", txt, []want{{KindDeadlock, "posting-*", "lock-wait", cycle("jvm-report")}}},
		{"juc-cycle-cut-stuck", txt, []want{{KindDeadlock, "posting-*", "lock-wait", cycle("lock-graph")}}},
		{"juc-cycle-cut-stuck", []string{"2"}, []want{{KindDeadlock, "posting-*", "lock-wait", cycle("lock-graph")}}},
		{"juc-cycle-stuck-json", js, []want{{KindDeadlock, "posting-*", "lock-wait", cycle("lock-graph")}}},
		{"juc-cycle-stuck-threadinfo", txt, []want{{KindDeadlock, "posting-*", "lock-wait", cycle("lock-graph")}}},
		{"juc-cycle-healthy", txt, nil},
		{"juc-cycle-healthy-json", js, nil},
		{"juc-cycle-healthy-threadinfo", txt, nil},
		// A monitor whose printed owner waits on a database: the holder
		// first, in every form.
		{"owner-wait-stuck", txt, []want{{KindContention, "request-*", "monitor-blocked", owner}, {KindStuck, "request-*", "monitor-blocked", causedByContention}}},
		{"owner-wait-stuck-json", js, []want{{KindContention, "request-*", "monitor-blocked", owner}, {KindStuck, "request-*", "monitor-blocked", causedByContention}}},
		{"owner-wait-stuck-threadinfo", txt, []want{{KindContention, "request-*", "monitor-blocked", owner}, {KindStuck, "request-*", "monitor-blocked", causedByContention}}},
		{"owner-wait-healthy", txt, nil},
		// Six requests behind the flush's 5 ms reply at the middle dump
		// only: no contention; the blocked state's rise that fell back is
		// said as recovered (info).
		{"owner-wait-healthy-json", js, []want{{KindRecovered, "request-*", "monitor-blocked", nil}}},
		{"owner-wait-healthy-threadinfo", txt, []want{{KindRecovered, "request-*", "monitor-blocked", nil}}},
		// A semaphore's permits held in a socket read: the waiters tied to
		// the holders by structure where the stacks show the acquire's
		// method (jstack, JSON); ThreadInfo's 8 frames cut it off the
		// holders: the waiters alone.
		{"permit-stuck", txt, []want{{KindContention, "fetcher-*", "semaphore-wait", permits}, {KindStuck, "fetcher-*", "semaphore-wait", causedByContention}}},
		{"permit-stuck-json", js, []want{{KindContention, "fetcher-*", "semaphore-wait", permits}, {KindStuck, "fetcher-*", "semaphore-wait", causedByContention}}},
		{"permit-stuck-threadinfo", txt, []want{{KindStuck, "fetcher-*", "semaphore-wait", nil}}},
		{"permit-healthy", txt, nil},
		{"permit-healthy-json", js, nil},
		{"permit-healthy-threadinfo", txt, nil},
		// Second, independent source (testdata/gen/sources-real/gen.sh): a
		// Semaphore bulkhead in front of a real PostgreSQL through HikariCP
		// and PgJDBC, its three holders in pg_sleep(600) reads; the twin's
		// permits turn over every 20 ms.
		{"src2-permit-pg-stuck", txt, []want{{KindContention, "report-*", "semaphore-wait", pgPermits}, {KindStuck, "report-*", "semaphore-wait", causedByContention}}},
		{"src2-permit-pg-healthy", txt, nil},
		// Two movers each holding a lock, retrying the other's with a
		// 1 ms sleep or park: one livelock by structure, in every form.
		{"backoff-stuck", txt, []want{{KindSpinning, "mover-*", "sleep", livelock}}},
		{"backoff-stuck", []string{"1", "3"}, []want{{KindSpinning, "mover-*", "sleep", livelock}}},
		{"backoff-stuck", []string{"2"}, nil},
		{"backoff-stuck-json", js, []want{{KindSpinning, "mover-*", "sleep", livelock}}},
		{"backoff-stuck-threadinfo", txt, []want{{KindSpinning, "mover-*", "sleep", livelock}}},
		{"backoff-healthy", txt, nil},
		{"backoff-healthy-json", js, nil},
		{"backoff-healthy-threadinfo", txt, nil},
	}
	runFixtureCases(t, dir, tests)
}

// TestAbsentOwnerNamed (issue 33, "the holder first"): a paste of one
// waiter whose owner is printed but not pasted (Arthas's `thread -b`,
// ThreadInfo.toString; IntelliJ's "waiting for Y@N to release lock")
// names that owner as the lock's holder, without a stack. The ThreadInfo
// paste is the shape of a public post's (lsk569937453.github.io, "Druid
// getConnection stuck", 2020: ConsumeMessageThread_2 BLOCKED on the class
// loader's lock owned by ConsumeMessageThread_4), names changed.
func TestAbsentOwnerNamed(t *testing.T) {
	for _, tc := range []struct{ name, text, owner string }{
		{"threadinfo", `"consumer-2" Id=73 BLOCKED on java.lang.Object@491bf991 owned by "consumer-4" Id=75
    at java.lang.ClassLoader.loadClass(ClassLoader.java:404)
    -  blocked on java.lang.Object@491bf991
    at com.example.pool.Utils.loadClass(Utils.java:211)
    at com.example.pool.DataSource.getConnection(DataSource.java:1235)
`, "consumer-4"},
		{"intellij", `"http-nio-8080-exec-7@9120" daemon prio=5 tid=0x4d nid=NA waiting for monitor entry
  java.lang.Thread.State: BLOCKED
	 waiting for audit-flusher@9031 to release lock on <0x2a17> (a com.example.AuditLog)
	at com.example.AuditLog.append(AuditLog.java:33)
	at com.example.web.OrderController.place(OrderController.java:58)
	at java.lang.Thread.run(Thread.java:840)
`, "audit-flusher"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds, err := parse.Parse(tc.name, strings.NewReader(tc.text))
			if err != nil {
				t.Fatal(err)
			}
			r := Analyze([]Input{{Label: "1", Dump: ds[0]}}, Options{})
			var got []string
			for _, f := range r.Findings {
				got = append(got, f.Kind)
				if f.Kind == KindContention {
					eq(t, "owner", f.Lock.Owner.Name, tc.owner)
					eq(t, "owner's stack", f.Lock.Owner.Frame, "")
				}
			}
			eq(t, "findings", fmt.Sprint(got), "[contention]")
		})
	}
}
