package analyze

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// jdk17Thread writes one jstack -l thread of JDK 17.
func jdk17Thread(b *strings.Builder, tid int, name, header, state string, frames []string, owned ...string) {
	fmt.Fprintf(b, "\"%s\" #%d daemon prio=5 os_prio=0 cpu=1.00ms elapsed=60.00s tid=0x00007f2f6010%04x nid=0x%x %s  [0x00007f2f650b0000]\n   java.lang.Thread.State: %s\n",
		name, tid, tid, tid, header, state)
	for _, f := range frames {
		b.WriteString("\t" + f + "\n")
	}
	b.WriteString("\n   Locked ownable synchronizers:\n")
	if len(owned) == 0 {
		owned = []string{"None"}
	}
	for _, o := range owned {
		b.WriteString("\t- " + o + "\n")
	}
	b.WriteString("\n")
}

// genMoments parses the same generated dump text at two moments, 5 s apart.
func genMoments(t *testing.T, c int, body func(b *strings.Builder)) []Input {
	t.Helper()
	var in []Input
	for m, at := range []string{"2026-12-07 16:04:04", "2026-12-07 16:04:09"} {
		var b strings.Builder
		b.WriteString(at + "\nFull thread dump OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1 mixed mode, sharing):\n\n")
		body(&b)
		ds, err := parse.Parse(fmt.Sprintf("gen-%d-%d", c, m), strings.NewReader(b.String()))
		if err != nil || len(ds) != 1 {
			t.Fatalf("case %d: %v", c, err)
		}
		in = append(in, Input{Label: fmt.Sprint(m + 1), Dump: ds[0]})
	}
	return in
}

// TestOrphanedHolderProperty: a monitor's holder waiting untimed on a
// Feed's monitor or a latch, 1–5 threads BLOCKED on its monitor, and
// random others. Over 300 generated pairs of dumps, the contention names
// the holder and says no thread can wake it exactly when no other thread,
// neither untimed-waiting nor blocked on the holder's monitor, runs the
// signalling class (the Feed's for Object.wait, the awaiting class for a
// latch); a timed holder (Object.wait(ms)) or one in a queue's take (its
// producers may be any class's) is never orphaned.
func TestOrphanedHolderProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 29))
	const index = "0x00000000fc08a4a0"
	seen := map[bool]int{}
	told := 0 // orphaned holders the contention tells (not the nested-wait rule)
	for c := range 300 {
		latch := rng.IntN(2) == 0
		queue := latch && rng.IntN(3) == 0 // parked in a queue's take: its producers are any class's
		timed := rng.IntN(8) == 0
		waiters := 1 + rng.IntN(5)
		// Others: 0 untimed waiter elsewhere, 1 main asleep, 2 a sleeping
		// signaller in the signalling class, 3 a running one there, 4 a
		// thread BLOCKED on the holder's monitor in another class.
		var others []int
		for range rng.IntN(4) {
			others = append(others, rng.IntN(5))
		}
		want := !timed && !queue && !slices.Contains(others, 2) && !slices.Contains(others, 3)
		signalClass := "com.example.Feed"
		if latch {
			signalClass = "com.example.Ledger"
		}
		in := genMoments(t, c, func(b *strings.Builder) {
			tid := 20
			state, header := "WAITING (on object monitor)", "in Object.wait()"
			top := []string{"at java.lang.Object.wait(java.base@17.0.15/Native Method)",
				"- waiting on <0x00000000fc08b440> (a com.example.Feed)",
				"at java.lang.Object.wait(java.base@17.0.15/Object.java:338)",
				"at com.example.Feed.awaitBatch(Feed.java:10)",
				"- locked <0x00000000fc08b440> (a com.example.Feed)",
				"at com.example.Index.rebuild(Index.java:20)"}
			if latch {
				state, header = "WAITING (parking)", "waiting on condition"
				top = []string{"at jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)",
					"- parking to wait for  <0x00000000fc0e1a00> (a java.util.concurrent.CountDownLatch$Sync)",
					"at java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:211)",
					"at java.util.concurrent.locks.AbstractQueuedSynchronizer.acquireSharedInterruptibly(java.base@17.0.15/AbstractQueuedSynchronizer.java:1047)",
					"at java.util.concurrent.CountDownLatch.await(java.base@17.0.15/CountDownLatch.java:230)",
					"at com.example.Ledger.close(Ledger.java:20)"}
				if queue {
					top = []string{"at jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)",
						"- parking to wait for  <0x00000000fc0e1a00> (a java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject)",
						"at java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:341)",
						"at java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await(java.base@17.0.15/AbstractQueuedSynchronizer.java:1623)",
						"at java.util.concurrent.LinkedBlockingQueue.take(java.base@17.0.15/LinkedBlockingQueue.java:435)",
						"at com.example.Ledger.close(Ledger.java:20)"}
				}
			}
			if timed {
				state = "TIMED_WAITING (on object monitor)"
				if latch {
					state = "TIMED_WAITING (parking)"
				}
			}
			tid++
			jdk17Thread(b, tid, "index-builder", header, state, append(top,
				"- locked <"+index+"> (a com.example.Index)",
				"at java.lang.Thread.run(java.base@17.0.15/Thread.java:840)"))
			blocked := func(name, class string) {
				tid++
				jdk17Thread(b, tid, name, "waiting for monitor entry", "BLOCKED (on object monitor)", []string{
					"at " + class + "(X.java:30)",
					"- waiting to lock <" + index + "> (a com.example.Index)",
					"at java.lang.Thread.run(java.base@17.0.15/Thread.java:840)"})
			}
			for k := range waiters {
				blocked(fmt.Sprintf("lookup-%d", k+1), "com.example.Index.lookup")
			}
			for k, o := range others {
				tid++
				name := fmt.Sprintf("other-%d", k+1)
				switch o {
				case 0:
					jdk17Thread(b, tid, name, "in Object.wait()", "WAITING (on object monitor)", []string{
						"at java.lang.Object.wait(java.base@17.0.15/Native Method)",
						"- waiting on <0x00000000fc09c0" + fmt.Sprint(k) + "0> (a com.example.Mailbox)",
						"at com.example.Mailbox.take(Mailbox.java:5)",
						"at java.lang.Thread.run(java.base@17.0.15/Thread.java:840)"})
				case 1:
					jdk17Thread(b, tid, name, "waiting on condition", "TIMED_WAITING (sleeping)", []string{
						"at java.lang.Thread.sleep(java.base@17.0.15/Native Method)",
						"at com.example.Main.main(Main.java:9)"})
				case 2:
					jdk17Thread(b, tid, name, "waiting on condition", "TIMED_WAITING (sleeping)", []string{
						"at java.lang.Thread.sleep(java.base@17.0.15/Native Method)",
						"at " + signalClass + ".deliverLoop(X.java:40)",
						"at java.lang.Thread.run(java.base@17.0.15/Thread.java:840)"})
				case 3:
					jdk17Thread(b, tid, name, "runnable", "RUNNABLE", []string{
						"at " + signalClass + ".count(X.java:41)",
						"at java.lang.Thread.run(java.base@17.0.15/Thread.java:840)"})
				case 4:
					blocked(name, "com.example.Report.print")
				}
			}
		})
		r := Analyze(in, Options{})
		var f *Finding
		nested := false
		for i := range r.Findings {
			if r.Findings[i].Kind == KindContention {
				f = &r.Findings[i]
			}
			// With no thread left beside the holder and its waiters, the
			// nested-wait rule tells the same root (a wait under a lock
			// its waiters want) as a deadlock led by the holder.
			nested = nested || r.Findings[i].Basis == "nested-wait" && r.Findings[i].Pool == "index-builder"
		}
		seen[want]++
		if nested && want {
			continue
		}
		if f == nil || f.Lock == nil || f.Lock.Owner == nil || f.Lock.Owner.Name != "index-builder" {
			if queue {
				continue // a consumer holding a lock: told by other rules, or not at all
			}
			t.Fatalf("case %d (latch %v, timed %v, %d waiters, others %v): no contention led by index-builder: %+v", c, latch, timed, waiters, others, r.Findings)
		}
		got := f.Lock.Owner.Orphaned != ""
		if got != want {
			t.Fatalf("case %d (latch %v, timed %v, %d waiters, others %v): orphaned %q, want %v", c, latch, timed, waiters, others, f.Lock.Owner.Orphaned, want)
		}
		if want {
			eq(t, "severity", f.Severity, Critical)
			told++
		}
	}
	if seen[true] == 0 || seen[false] == 0 || told == 0 {
		t.Fatalf("the cases cover one side only: %v, %d told by the contention", seen, told)
	}
}

// TestSelfWaitFutureTaskProperty: a one-thread executor whose task waits
// on a FutureTask or a CompletableFuture, beside random others. Over 300
// generated pairs of dumps the pool's self-deadlock is found exactly when
// nothing outside could complete the future: for a FutureTask, no thread
// outside the pool runs one (a thread in a socket read or on CPU cannot);
// for a CompletableFuture, no thread outside is at work or in I/O either
// (any of them may complete it).
func TestSelfWaitFutureTaskProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 31))
	seen := map[bool]int{}
	run := "at java.lang.Thread.run(java.base@17.0.15/Thread.java:840)"
	worker := []string{"at java.util.concurrent.FutureTask.run(java.base@17.0.15/FutureTask.java:264)",
		"at java.util.concurrent.ThreadPoolExecutor.runWorker(java.base@17.0.15/ThreadPoolExecutor.java:1136)",
		"at java.util.concurrent.ThreadPoolExecutor$Worker.run(java.base@17.0.15/ThreadPoolExecutor.java:635)", run}
	for c := range 300 {
		cf := rng.IntN(3) == 0
		// Others: 0 a socket reader, 1 a thread on CPU, 2 another pool's
		// worker asleep in its FutureTask, 3 main asleep.
		var others []int
		for range rng.IntN(4) {
			others = append(others, rng.IntN(4))
		}
		want := !slices.Contains(others, 2)
		if cf {
			want = want && !slices.Contains(others, 0) && !slices.Contains(others, 1)
		}
		in := genMoments(t, c, func(b *strings.Builder) {
			tid := 20
			wait := []string{"at jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)",
				"- parking to wait for  <0x00000000fc0a0000> (a java.util.concurrent.FutureTask)",
				"at java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:211)",
				"at java.util.concurrent.FutureTask.awaitDone(java.base@17.0.15/FutureTask.java:447)",
				"at java.util.concurrent.FutureTask.get(java.base@17.0.15/FutureTask.java:190)"}
			if cf {
				wait = []string{"at jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)",
					"- parking to wait for  <0x00000000fc0a0000> (a java.util.concurrent.CompletableFuture$Signaller)",
					"at java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:211)",
					"at java.util.concurrent.CompletableFuture$Signaller.block(java.base@17.0.15/CompletableFuture.java:1864)",
					"at java.util.concurrent.ForkJoinPool.unmanagedBlock(java.base@17.0.15/ForkJoinPool.java:3463)",
					"at java.util.concurrent.ForkJoinPool.managedBlock(java.base@17.0.15/ForkJoinPool.java:3434)",
					"at java.util.concurrent.CompletableFuture.waitingGet(java.base@17.0.15/CompletableFuture.java:1898)",
					"at java.util.concurrent.CompletableFuture.join(java.base@17.0.15/CompletableFuture.java:2117)"}
			}
			tid++
			jdk17Thread(b, tid, "invoice-writer", "waiting on condition", "WAITING (parking)",
				append(append(wait, "at com.example.Invoices.job(Invoices.java:30)"), worker...),
				"<0x00000000fc0b0000> (a java.util.concurrent.ThreadPoolExecutor$Worker)")
			for k, o := range others {
				tid++
				name := fmt.Sprintf("other-%d", k+1)
				switch o {
				case 0:
					jdk17Thread(b, tid, name, "runnable", "RUNNABLE", []string{
						"at sun.nio.ch.SocketDispatcher.read0(java.base@17.0.15/Native Method)",
						"at sun.nio.ch.SocketDispatcher.read(java.base@17.0.15/SocketDispatcher.java:47)",
						"at sun.nio.ch.NioSocketImpl.tryRead(java.base@17.0.15/NioSocketImpl.java:266)",
						"at sun.nio.ch.NioSocketImpl.implRead(java.base@17.0.15/NioSocketImpl.java:317)",
						"at sun.nio.ch.NioSocketImpl.read(java.base@17.0.15/NioSocketImpl.java:355)",
						"at java.net.Socket$SocketInputStream.read(java.base@17.0.15/Socket.java:976)",
						"at com.example.Rates.read(Rates.java:12)", run})
				case 1:
					jdk17Thread(b, tid, name, "runnable", "RUNNABLE", []string{
						"at com.example.Pricing.compute(Pricing.java:7)", run})
				case 2:
					jdk17Thread(b, tid, fmt.Sprintf("render-%d", k+1), "waiting on condition", "TIMED_WAITING (sleeping)", append([]string{
						"at java.lang.Thread.sleep(java.base@17.0.15/Native Method)",
						"at com.example.Render.part(Render.java:9)"}, worker...),
						fmt.Sprintf("<0x00000000fc0c000%d> (a java.util.concurrent.ThreadPoolExecutor$Worker)", k))
				case 3:
					// In another package: a CompletableFuture's waiter yields
					// to any thread asleep in its own package (signallerIn).
					jdk17Thread(b, tid, "main", "waiting on condition", "TIMED_WAITING (sleeping)", []string{
						"at java.lang.Thread.sleep(java.base@17.0.15/Native Method)",
						"at org.launch.Main.main(Main.java:9)"})
				}
			}
		})
		r := Analyze(in, Options{})
		got := false
		for _, f := range r.Findings {
			if f.Kind == KindDeadlock && f.Basis == "pool-self-wait" && f.Pool == "invoice-writer" {
				got = true
			}
		}
		seen[want]++
		if got != want {
			t.Fatalf("case %d (completable %v, others %v): self-deadlock %v, want %v: %+v", c, cf, others, got, want, r.Findings)
		}
	}
	if seen[true] == 0 || seen[false] == 0 {
		t.Fatalf("the cases cover one side only: %v", seen)
	}
}
