package analyze

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestReadHeldProperty (issue 33, "cycles of every kind", "the holder
// first"; read-held): random worlds of a ReentrantReadWriteLock whose
// every parked thread waits for the write lock and no thread owns it —
// random pools and class names, lock addresses (moved by the GC between
// moments), 1 to 5 writers at one or several places, an upgrader alone at
// its own place or not, JDK 17 or 25 frames, 2 or 3 moments, idle pool
// workers beside. Told as a critical deadlock exactly when the same
// waiters wait so at every moment; the lone upgrader, where there is one,
// named as the likely read holder waiting for itself, the others blocked
// behind it. Never told: a writer got the lock between moments (the
// waiters change), a thread prints the lock as its own (a write owner),
// a reader waits too (a queued writer: contention), a thread outside the
// waiters runs the lock's class (the likely reader), the dump prints no
// ownable synchronizers (plain jstack: nothing says no one owns it), one
// moment only. Seeded.
func TestReadHeldProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 717))
	kinds := []string{"held", "held", "moved", "owner", "reader", "outside", "plain", "one"}
	told := 0
	for c := range 320 {
		kind := kinds[c%len(kinds)]
		jdk := []string{"17.0.15", "25.0.1"}[rng.IntN(2)]
		class := []string{"com.example.Settings", "org.acme.cache.SlotCache", "io.shop.Catalog"}[rng.IntN(3)]
		pool := []string{"settings-writer-", "worker-", "pool-2-thread-"}[rng.IntN(3)]
		writers := 1 + rng.IntN(5)
		upgrader := rng.IntN(3) > 0
		if !upgrader && writers == 1 {
			writers = 2
		}
		samePlace := rng.IntN(2) == 0
		moments := 2 + rng.IntN(2)
		if kind == "one" {
			moments = 1
		}
		sync := "java.util.concurrent.locks.ReentrantReadWriteLock$" + []string{"NonfairSync", "FairSync"}[rng.IntN(2)]
		world := func(m int) string {
			var b strings.Builder
			fmt.Fprintf(&b, "2026-12-08 01:%02d:%02d\nFull thread dump OpenJDK 64-Bit Server VM (%s mixed mode, sharing):\n\n", 10+m, 5*m, jdk)
			addr := fmt.Sprintf("0x00000000fc%06x", 0x17bbf0+0x1000*m) // the GC moves it
			tid := 20
			thread := func(name, state, header string, frames []string, owns string) {
				tid++
				fmt.Fprintf(&b, "\"%s\" #%d prio=5 os_prio=0 cpu=1.00ms elapsed=%d.00s tid=0x00007f2f6010%04x nid=0x%x %s  [0x00007f2f650b0000]\n   java.lang.Thread.State: %s\n",
					name, tid, 60-tid, tid, tid, header, state)
				for _, f := range frames {
					b.WriteString("\t" + f + "\n")
				}
				if kind == "plain" {
					b.WriteString("\n")
					return
				}
				b.WriteString("\n   Locked ownable synchronizers:\n")
				if owns != "" {
					b.WriteString("\t- <" + owns + "> (a " + sync + ")\n\n")
				} else {
					b.WriteString("\t- None\n\n")
				}
			}
			park := []string{"at jdk.internal.misc.Unsafe.park(java.base@" + jdk + "/Native Method)",
				"- parking to wait for  <" + addr + "> (a " + sync + ")",
				"at java.util.concurrent.locks.LockSupport.park(java.base@" + jdk + "/LockSupport.java:211)",
				"at java.util.concurrent.locks.AbstractQueuedSynchronizer.acquire(java.base@" + jdk + "/AbstractQueuedSynchronizer.java:715)"}
			write := append(append([]string{}, park...), "at java.util.concurrent.locks.ReentrantReadWriteLock$WriteLock.lock(java.base@"+jdk+"/ReentrantReadWriteLock.java:959)")
			run := "at java.lang.Thread.run(java.base@" + jdk + "/Thread.java:840)"
			if upgrader {
				thread("refresher", "WAITING (parking)", "waiting on condition",
					append(append([]string{}, write...), "at "+class+".reload("+classFile(class)+":41)", "at "+class+".refresh("+classFile(class)+":30)", run), "")
			}
			first := 0
			if kind == "moved" && m == moments-1 {
				first = 1 // one writer got the lock and went on
			}
			for i := first; i < writers; i++ {
				line := 50
				if !samePlace {
					line = 50 + i
				}
				thread(fmt.Sprintf("%s%d", pool, i), "WAITING (parking)", "waiting on condition",
					append(append([]string{}, write...), fmt.Sprintf("at %s.set(%s:%d)", class, classFile(class), line), run), "")
			}
			switch kind {
			case "owner":
				thread("flusher", "TIMED_WAITING (sleeping)", "waiting on condition", []string{
					"at java.lang.Thread.sleep(java.base@" + jdk + "/Native Method)", "at org.acme.Flush.run(Flush.java:9)", run}, addr)
			case "reader":
				thread("reader-1", "WAITING (parking)", "waiting on condition", append(append([]string{}, park[:3]...),
					"at java.util.concurrent.locks.AbstractQueuedSynchronizer.acquireShared(java.base@"+jdk+"/AbstractQueuedSynchronizer.java:1027)",
					"at java.util.concurrent.locks.ReentrantReadWriteLock$ReadLock.lock(java.base@"+jdk+"/ReentrantReadWriteLock.java:738)",
					"at "+class+".get("+classFile(class)+":60)", run), "")
			case "outside":
				thread("auditor", "RUNNABLE", "runnable", []string{
					"at sun.nio.ch.SocketDispatcher.read0(java.base@" + jdk + "/Native Method)", "at " + class + ".audit(" + classFile(class) + ":70)", run}, "")
			}
			for i := range 1 + rng.IntN(3) {
				thread(fmt.Sprintf("idle-%d", i), "WAITING (parking)", "waiting on condition", []string{
					"at jdk.internal.misc.Unsafe.park(java.base@" + jdk + "/Native Method)",
					"- parking to wait for  <0x00000000fd000000> (a java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject)",
					"at java.util.concurrent.locks.LockSupport.park(java.base@" + jdk + "/LockSupport.java:371)",
					"at java.util.concurrent.LinkedBlockingQueue.take(java.base@" + jdk + "/LinkedBlockingQueue.java:435)",
					"at java.util.concurrent.ThreadPoolExecutor.getTask(java.base@" + jdk + "/ThreadPoolExecutor.java:1070)",
					"at java.util.concurrent.ThreadPoolExecutor.runWorker(java.base@" + jdk + "/ThreadPoolExecutor.java:1130)",
					"at java.util.concurrent.ThreadPoolExecutor$Worker.run(java.base@" + jdk + "/ThreadPoolExecutor.java:642)", run}, "")
			}
			return b.String()
		}
		var in []Input
		for m := range moments {
			ds, err := parse.Parse(fmt.Sprintf("%d.txt", m+1), strings.NewReader(world(m)))
			if err != nil {
				t.Fatal(err)
			}
			in = append(in, Input{Dump: ds[0]})
		}
		r := Analyze(in, Options{})
		var got []Finding
		for _, f := range r.Findings {
			if f.Basis == basisReadHeld {
				got = append(got, f)
			}
		}
		desc := fmt.Sprintf("case %d (%s, jdk %s, %d writers, upgrader %v, same place %v, %d moments)", c, kind, jdk, writers, upgrader, samePlace, moments)
		if kind != "held" {
			if len(got) > 0 {
				t.Fatalf("%s: want no read-held deadlock, got %+v", desc, got)
			}
			continue
		}
		if len(got) != 1 {
			t.Fatalf("%s: want one read-held deadlock, got %+v", desc, r.Findings)
		}
		f := got[0]
		total := writers
		if upgrader {
			total++
		}
		eq(t, desc+" severity", f.Severity, Critical)
		eq(t, desc+" kind", f.Kind, KindDeadlock)
		eq(t, desc+" all of them", len(f.Cycle)+len(f.Blocked), total)
		lone := upgrader || !samePlace || writers == 1
		if upgrader {
			eq(t, desc+" lead", f.Cycle[0].Name, "refresher")
			eq(t, desc+" alone in the cycle", len(f.Cycle), 1)
		}
		if !lone {
			eq(t, desc+" no holder named", f.Lock.Owner == nil, true)
		}
		told++
	}
	if told < 60 {
		t.Fatalf("too few worlds told: %d", told)
	}
}

// classFile is the source file a JVM class's frames print.
func classFile(class string) string {
	return class[strings.LastIndexByte(class, '.')+1:] + ".java"
}

// TestReadHeldFixtures judges real Java programs
// (testdata/gen/verdicts-rwlock; each folder's README.md says the verdict
// wanted, written before dumpdiff ran): a read lock upgraded to the write
// lock in one thread, on Java 17 and Temurin 25, is a deadlock led by
// that thread; a read lock its thread left without unlocking, the writers
// waiting for ever, a deadlock naming no holder; readers that finish stay
// quiet.
func TestReadHeldFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	all := []string{"jstack-1", "jstack-2", "jstack-3"}
	upgrade := func(t *testing.T, f Finding) {
		eq(t, "basis", f.Basis, basisReadHeld)
		eq(t, "lead", f.Cycle[0].Name, "settings-refresher")
		eq(t, "blocked", len(f.Blocked), 3)
	}
	leaked := func(t *testing.T, f Finding) {
		eq(t, "basis", f.Basis, basisReadHeld)
		eq(t, "members", len(f.Cycle), 3)
		eq(t, "no holder", f.Lock.Owner == nil, true)
	}
	runFixtureCases(t, dir, []fixtureCase{
		{"rwlock-upgrade-stuck", all, []want{{KindDeadlock, "settings-refresher", "lock-wait", upgrade}}},
		{"jdk25-rwlock-upgrade-stuck", all, []want{{KindDeadlock, "settings-refresher", "lock-wait", upgrade}}},
		{"rwlock-leaked-stuck", all, []want{{KindDeadlock, "index-writer-*", "lock-wait", leaked}}},
		{"rwlock-readers-healthy", all, nil},
		{"jdk25-rwlock-readers-healthy", all, nil},
		// Another session's program (judge15): the upgrader among three
		// looping writers and one more.
		{"java-rwlock-upgrade-judge15", all, []want{
			{KindDeadlock, "cache-refresher", "lock-wait", func(t *testing.T, f Finding) {
				eq(t, "basis", f.Basis, basisReadHeld)
				eq(t, "lead", f.Cycle[0].Name, "cache-refresher")
			}},
			{KindStuck, "cache-reader-*", "lock-wait", nil},
			{KindStuck, "cache-refresher", "lock-wait", nil},
			{KindStuck, "cache-writer", "lock-wait", nil},
		}},
	})
}
