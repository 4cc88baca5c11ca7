package analyze

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestHolderFixtures judges the holder as the story (issue 33) on real
// Java 17 programs (testdata/verdicts/*, testdata/gen/verdicts-holders;
// each README.md written from the source before dumpdiff ran), each
// beside a healthy run of the same program that says nothing.
func TestHolderFixtures(t *testing.T) {
	auditSink := want{KindContention, "audit-sink", "monitor-blocked", func(t *testing.T, f Finding) {
		eq(t, "owner", f.Lock.Owner.Name, "archiver")
		eq(t, "owner waits", f.Lock.Owner.Waits, true)
	}}
	dir := filepath.Join("..", "testdata", "verdicts")
	log4j1 := []want{
		{KindContention, "request-worker-*", "monitor-blocked", func(t *testing.T, f Finding) {
			eq(t, "lock class", f.Lock.Class, "org.apache.log4j.Logger")
			o := f.Lock.Owner
			eq(t, "the holder waits", o.Waits, true)
			eq(t, "in", o.State, "queue-put")
			eq(t, "on", o.Handoff, "log4j 1.2's AsyncAppender buffer")
			eq(t, "for", len(o.Consumers), 1)
			eq(t, "its consumer, busy", o.Consumers[0], HolderGroup{Pool: "AsyncAppender-Dispatcher-Thread-*", State: "socket-write", Count: 1})
			eq(t, "a root", f.CausedBy, "")
		}},
		{KindStuck, "request-worker-*", "monitor-blocked", nil},
		{KindSaturated, "request-worker-*", "monitor-blocked", nil},
	}
	log4j1Cycle := []want{
		{KindDeadlock, "AsyncAppender-Dispatcher-Thread-*", "monitor-blocked", func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, "handoff")
			eq(t, "two threads", len(f.Cycle), 2)
			var h *LockRef
			for _, m := range f.Cycle {
				if m.WaitsFor != nil && m.WaitsFor.Handoff != "" {
					h = m.WaitsFor
				}
			}
			eq(t, "a hand-off edge", h != nil, true)
			eq(t, "on", h.Handoff, "log4j 1.2's AsyncAppender buffer")
			eq(t, "to", h.Holder, "AsyncAppender-Dispatcher-Thread-0")
			eq(t, "blocked on the cycle", len(f.Blocked), 11)
			eq(t, "the hand-off deadlock's remedy", strings.Contains(f.Remedy, "Blocking=false"), true)
		}},
		{KindStuck, "request-worker-*", "monitor-blocked", nil},
		{KindSaturated, "request-worker-*", "monitor-blocked", nil},
	}
	rwlock := []want{
		{KindContention, "query-worker-*", "lock-wait", func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, "queued-writer")
			eq(t, "no holder printed: the likely reader inferred", f.Lock.OwnerInferred, true)
			eq(t, "the likely reader", f.Lock.Owner.Name, "catalog-refresher")
			eq(t, "in", f.Lock.Owner.State, "socket-read")
			eq(t, "behind", f.Lock.QueuedWriter.Name, "catalog-writer")
			eq(t, "writers", f.Lock.Queued, 1)
			eq(t, "the read lock's remedy", strings.HasPrefix(f.Remedy, "a thread holds the read lock"), true)
			eq(t, "waiters at the last moment", f.Counts[2], 9)
		}},
		{KindStuck, "query-worker-*", "lock-wait", func(t *testing.T, f Finding) {
			eq(t, "follows from the contention", f.CausedBy != "", true)
		}},
		{KindSaturated, "query-worker-*", "lock-wait", nil},
		// A cycle through the future: the writer waits for a task that
		// waits for its lock.
		{KindDeadlock, "settings-writer", "future-wait", func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, "future")
			eq(t, "two threads", len(f.Cycle), 2)
			eq(t, "the writer waits for the loader's task", f.Cycle[0].WaitsFor.Future && f.Cycle[0].WaitsFor.Holder == "settings-loader-1", true)
			eq(t, "the future deadlock's remedy", strings.HasPrefix(f.Remedy, "a thread waits for a future while it holds a lock"), true)
		}},
	}
	libLock := []want{{KindStuck, "ui-writer", "lock-wait", func(t *testing.T, f Finding) {
		eq(t, "culprit", strings.HasPrefix(f.Culprit, "com.example.holders.LibLockApp$ReadMostlyLock.writeLock("), true)
		eq(t, "the very same thread", f.Same, 1)
	}}}
	orphanBasis := func(t *testing.T, f Finding) { eq(t, "basis", f.Basis, "orphaned") }
	orphan := []want{{KindStuck, "main", "latch-wait", orphanBasis}, {KindStuck, "metrics-collector", "queue-put", orphanBasis}}
	classInitCyclePaste := []want{{KindDeadlock, "(unnamed *)", "class-init-wait", func(t *testing.T, f Finding) {
		eq(t, "cycle members", len(f.Cycle), 2)
		eq(t, "first member", f.Cycle[0].Name, "(unnamed 1)")
		eq(t, "second member", f.Cycle[1].Name, "(unnamed 2)")
	}}}
	classInitPaste := []want{{KindStuck, "(unnamed 1)", "class-init-wait", func(t *testing.T, f Finding) {
		eq(t, "the class", f.InitClass, "com.example.cycles.TaxRules")
	}}}
	mainHolder := []want{
		{KindContention, "nioEventLoopGroup-3-*", "monitor-blocked", func(t *testing.T, f Finding) {
			eq(t, "holder", f.Lock.Owner.Name, "main")
			eq(t, "the holder waits", f.Lock.Owner.Waits, true)
			eq(t, "in", f.Lock.Owner.State, "socket-read")
		}},
		{KindEventLoopBlocked, "nioEventLoopGroup-3-*", "monitor-blocked", func(t *testing.T, f Finding) {
			eq(t, "follows from the contention", f.CausedBy != "", true)
		}},
	}
	runFixtureCases(t, dir, []fixtureCase{
		// log4j 1.2.17's AsyncAppender, its buffer full: one worker holds
		// the logger's monitor and waits in append for the dispatcher,
		// itself in a socket write; 35 workers blocked on the logger.
		{"log4j1-stuck", []string{"1", "2", "3"}, log4j1},
		{"jdk25-log4j1-stuck", []string{"1", "2", "3"}, log4j1},
		{"log4j1-healthy", []string{"1", "2", "3"}, nil},
		// The dispatcher itself logs (reload4j issue #75's stall): it is
		// BLOCKED on the root logger that the waiting producer holds, a
		// cycle of a lock edge and a hand-off edge.
		{"log4j1-cycle-stuck", []string{"1", "2", "3"}, log4j1Cycle},
		{"jdk25-log4j1-cycle-stuck", []string{"1", "2", "3"}, log4j1Cycle},
		{"log4j1-cycle-healthy", []string{"1", "2", "3"}, nil},
		// A ReentrantReadWriteLock held for reading (no holder printed):
		// eight readers queue behind the writer queued first; and a
		// write lock held while its holder waits on a future whose task
		// waits for the read lock.
		{"rwlock-stuck", []string{"1", "2", "3"}, rwlock},
		{"jdk25-rwlock-stuck", []string{"1", "2", "3"}, rwlock},
		{"rwlock-healthy", []string{"1", "2", "3"}, nil},
		// main holds a monitor through its startup, reading from a
		// config server that never answers; Netty's worker event loops
		// block on it (Netty 4.1.48 on Java 17, then Temurin 25).
		{"main-holder-stuck", []string{"1", "2", "3"}, mainHolder},
		{"jdk25-main-holder-stuck", []string{"1", "2", "3"}, mainHolder},
		{"main-holder-healthy", []string{"1", "2", "3"}, nil},
		// JDK queues: the producers of a full queue are stuck (their busy
		// consumers are not named yet: README.md); the three report
		// threads on a latch whose counter is gone are a gathering that
		// never opened (TestPeersGathered); the audit queue's consumer,
		// a thread of its own, is blocked behind the archiver asleep with
		// the ARCHIVE monitor: contention naming it (the holder first);
		// the control is quiet. The four audit producers in the full
		// audit queue's put are stuck too, as its README wanted: a
		// producer's back-pressure counts from StuckTaskFloor (issue 33).
		{"queue-busy-stuck", []string{"1", "2", "3"}, []want{{KindStuck, "ingest-*", "queue-put", nil}, {KindStuck, "report-*", "latch-wait", nil},
			{KindStuck, "audit-*", "queue-put", nil}, auditSink,
			// Its consumers, enricher-1 and -2, the whole of their pool,
			// held in an untimed socket read at every moment: stuck from
			// PeerPoolFloor (peerwait.go), as its README wanted them named.
			{KindStuck, "enricher-*", "socket-read", nil}}},
		{"queue-busy-healthy", []string{"1", "2", "3"}, nil},
		// A library's own read-write lock on LockSupport (as IntelliJ's
		// ReadMostlyRWLock): the writer parked under writeLock is a lock
		// wait by its structure, and alone, the very same thread on the
		// very same lock at three moments 11 s apart with no holder
		// printed, it is stuck (StuckLockMoments); the control is quiet.
		// A holder that itself waits, pasted alone (judge4 45's class):
		// the finding says what it holds while it waits.
		{"holder-paste-stuck", []string{"1"}, []want{{KindStuck, "book-keeper", "monitor-blocked", func(t *testing.T, f Finding) {
			eq(t, "holds one lock", len(f.Holding), 1)
			eq(t, "the order book", f.Holding[0], LockRef{Address: "0x00000000fc0e0808", Class: "com.example.cycles.OrderBook"})
		}}}},
		{"holder-paste-healthy", []string{"1"}, nil},
		// A class-initialization wait pasted alone (judge4 14's class):
		// the finding names the class (Java 17, Temurin 25).
		{"class-init-paste-stuck", []string{"1"}, classInitPaste},
		{"class-init-paste-stuck", []string{"2-jdk25"}, classInitPaste},
		{"class-init-paste-healthy", []string{"1"}, nil},
		// Both threads of a class-initialization cycle pasted from their
		// state lines, headers cut (testdata/gen/pasted-cut): two
		// threads, not one, and their cycle closed (Java 17, Temurin 25).
		{"class-init-cycle-paste-stuck", []string{"1"}, classInitCyclePaste},
		{"class-init-cycle-paste-stuck", []string{"2-jdk25"}, classInitCyclePaste},
		{"class-init-cycle-paste-healthy", []string{"1"}, nil},
		// Hand-offs whose other side died: a latch nobody counts down,
		// a full queue nobody takes from; nothing else of the application
		// alive (judge4 33's class).
		{"orphan-stuck", []string{"1", "2", "3"}, orphan},
		{"jdk25-orphan-stuck", []string{"1", "2", "3"}, orphan},
		{"orphan-healthy", []string{"1", "2", "3"}, nil},
		{"liblock-stuck", []string{"1", "2", "3"}, libLock},
		{"jdk25-liblock-stuck", []string{"1", "2", "3"}, libLock},
		{"liblock-healthy", []string{"1", "2", "3"}, nil},
		{"liblock-healthy", []string{"freeze"}, nil},
		// Temurin 25's run of it caught both enrichers in their lookup
		// at the first dump, before the stall: nothing ties them to the
		// queue, and the finding says only that no thread takes from it.
		{"jdk25-queue-busy-rising", []string{"1", "2", "3"}, []want{{KindNotRecovered, "ingest-*", "queue-put", func(t *testing.T, f Finding) {
			eq(t, "no consumer waiting on it", len(f.Consumers), 0)
			eq(t, "takers of another queue", f.OtherTakers, 3)
			eq(t, "no consumer seen taking", len(f.Busy), 0)
		}}, auditSink}},
		// The same queue stalling after the first dump: the consumers
		// seen taking then are named, busy in their socket read; the
		// report threads waiting on another queue of that class are not.
		{"queue-busy-rising", []string{"1", "2", "3"}, []want{{KindNotRecovered, "ingest-*", "queue-put", func(t *testing.T, f Finding) {
			eq(t, "hand-off", f.Handoff, "LinkedBlockingQueue")
			eq(t, "no consumer waiting on it", len(f.Consumers), 0)
			eq(t, "takers of another queue", f.OtherTakers, 3)
			eq(t, "busy consumers", len(f.Busy), 1)
			eq(t, "busy in", f.Busy[0], HolderGroup{Pool: "enricher-*", State: "socket-read",
				Culprit: "com.example.holders.QueueApp$Enricher.enrich(QueueApp.java:114)", Count: 2})
		}}, auditSink}},
	})
}

// TestFreezeDumpLockLine: IntelliJ's own dump of liblock-stuck (the
// program writes it in ThreadDumper's shape, from ThreadMXBean) reads
// every line, and its " on LOCK" line is ui-writer's park on the
// library's lock, which classifies it as a lock wait.
func TestFreezeDumpLockLine(t *testing.T) {
	for _, dir := range []string{"liblock-stuck", "jdk25-liblock-stuck"} {
		ms := loadMoments(t, filepath.Join("..", "testdata", "verdicts", dir), []string{"freeze"})
		d := ms[0].Dump
		eq(t, dir+": lines skipped", len(d.Skipped), 0)
		r := Analyze(ms, Options{})
		found := false
		for _, pl := range r.Pools {
			for _, g := range pl.States {
				if pl.Name != "ui-writer" {
					continue
				}
				found = true
				eq(t, dir+": ui-writer's state", g.State, "lock-wait")
				th := g.Threads[0][0]
				ls := th.Locks()
				eq(t, dir+": one lock line", len(ls), 1)
				eq(t, dir+": its kind", ls[0].Kind, parse.LockParking)
				eq(t, dir+": its class", ls[0].Class, "com.example.holders.LibLockApp$ReadMostlyLock")
			}
		}
		eq(t, dir+": ui-writer read", found, true)
	}
}
