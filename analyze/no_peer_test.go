package analyze

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/parse"
)

// noPeerMain is main's stack, in each hand-off wait the rule knows: the
// state line and the frames under the thread's header (JDK 17).
var noPeerMain = map[string]string{
	"latch": "WAITING (parking)\n\tat jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)\n" +
		"\t- parking to wait for  <0x00000000fc000010> (a java.util.concurrent.CountDownLatch$Sync)\n" +
		"\tat java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:211)\n" +
		"\tat java.util.concurrent.CountDownLatch.await(java.base@17.0.15/CountDownLatch.java:230)\n",
	"barrier": "WAITING (parking)\n\tat jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)\n" +
		"\t- parking to wait for  <0x00000000fc000020> (a java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject)\n" +
		"\tat java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:341)\n" +
		"\tat java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await(java.base@17.0.15/AbstractQueuedSynchronizer.java:1630)\n" +
		"\tat java.util.concurrent.CyclicBarrier.dowait(java.base@17.0.15/CyclicBarrier.java:244)\n" +
		"\tat java.util.concurrent.CyclicBarrier.await(java.base@17.0.15/CyclicBarrier.java:364)\n",
	"syncput": "WAITING (parking)\n\tat jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)\n" +
		"\t- parking to wait for  <0x00000000fc000030> (a java.util.concurrent.SynchronousQueue$TransferStack)\n" +
		"\tat java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:211)\n" +
		"\tat java.util.concurrent.SynchronousQueue$TransferStack.transfer(java.base@17.0.15/SynchronousQueue.java:401)\n" +
		"\tat java.util.concurrent.SynchronousQueue.put(java.base@17.0.15/SynchronousQueue.java:893)\n",
	"fullput": "WAITING (parking)\n\tat jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)\n" +
		"\t- parking to wait for  <0x00000000fc000040> (a java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject)\n" +
		"\tat java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:341)\n" +
		"\tat java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await(java.base@17.0.15/AbstractQueuedSynchronizer.java:1630)\n" +
		"\tat java.util.concurrent.ArrayBlockingQueue.put(java.base@17.0.15/ArrayBlockingQueue.java:370)\n",
	"join": "WAITING (on object monitor)\n\tat java.lang.Object.wait(java.base@17.0.15/Native Method)\n" +
		"\t- waiting on <0x00000000fc000050> (a java.lang.Thread)\n" +
		"\tat java.lang.Thread.join(java.base@17.0.15/Thread.java:1304)\n" +
		"\t- locked <0x00000000fc000050> (a java.lang.Thread)\n",
}

// noPeerOthers are the other threads a generated dump may hold: whether
// each could serve main's wait, and its stack after the state line.
var noPeerOthers = []struct {
	kind  string
	serve bool
	stack string
}{
	// Running, sleeping or waiting with a deadline in application code: it
	// could count down, arrive, take or end.
	{"busy", true, "RUNNABLE\n\tat com.example.Work.crunch(Work.java:40)\n\tat com.example.Work.run(Work.java:12)\n"},
	{"sleeper", true, "TIMED_WAITING (sleeping)\n\tat java.lang.Thread.sleep(java.base@17.0.15/Native Method)\n\tat com.example.Work.pause(Work.java:22)\n\tat com.example.Work.run(Work.java:12)\n"},
	// A scheduled executor's leader with a task due: it will run it.
	{"scheduled", true, "TIMED_WAITING (parking)\n\tat jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)\n" +
		"\t- parking to wait for  <0x00000000fc100000> (a java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject)\n" +
		"\tat java.util.concurrent.locks.LockSupport.parkNanos(java.base@17.0.15/LockSupport.java:252)\n" +
		"\tat java.util.concurrent.ScheduledThreadPoolExecutor$DelayedWorkQueue.take(java.base@17.0.15/ScheduledThreadPoolExecutor.java:1182)\n" +
		"\tat java.util.concurrent.ThreadPoolExecutor.getTask(java.base@17.0.15/ThreadPoolExecutor.java:1062)\n" +
		"\tat java.util.concurrent.ThreadPoolExecutor.runWorker(java.base@17.0.15/ThreadPoolExecutor.java:1122)\n"},
	// A server's acceptor: a request could serve it.
	{"acceptor", true, "RUNNABLE\n\tat sun.nio.ch.Net.accept(java.base@17.0.15/Native Method)\n" +
		"\tat sun.nio.ch.NioSocketImpl.accept(java.base@17.0.15/NioSocketImpl.java:755)\n\tat java.net.ServerSocket.implAccept(java.base@17.0.15/ServerSocket.java:675)\n" +
		"\tat com.example.Server.serve(Server.java:30)\n"},
	// Waiting untimed itself: for an item, a latch, a notify.
	{"taker", false, "WAITING (parking)\n\tat jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)\n" +
		"\t- parking to wait for  <0x00000000fc200000> (a java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject)\n" +
		"\tat java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:341)\n" +
		"\tat java.util.concurrent.LinkedBlockingQueue.take(java.base@17.0.15/LinkedBlockingQueue.java:435)\n" +
		"\tat com.example.Drain.run(Drain.java:18)\n"},
	{"gate", false, "WAITING (parking)\n\tat jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)\n" +
		"\t- parking to wait for  <0x00000000fc300000> (a java.util.concurrent.CountDownLatch$Sync)\n" +
		"\tat java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:211)\n" +
		"\tat java.util.concurrent.CountDownLatch.await(java.base@17.0.15/CountDownLatch.java:230)\n\tat com.example.Gate.pass(Gate.java:12)\n"},
	// main's own lambda, waiting untimed itself: tied to main's wait (the
	// thread main joins, the counter of its latch), unable to serve it.
	{"tied", false, "WAITING (parking)\n\tat jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)\n" +
		"\t- parking to wait for  <0x00000000fc600000> (a java.util.concurrent.CountDownLatch$Sync)\n" +
		"\tat java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:211)\n" +
		"\tat java.util.concurrent.CountDownLatch.await(java.base@17.0.15/CountDownLatch.java:230)\n\tat com.example.Main.lambda$main$0(Main.java:21)\n"},
	// An executor's idle worker: it runs only what someone submits.
	{"idle", false, "WAITING (parking)\n\tat jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)\n" +
		"\t- parking to wait for  <0x00000000fc400000> (a java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject)\n" +
		"\tat java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:341)\n" +
		"\tat java.util.concurrent.LinkedBlockingQueue.take(java.base@17.0.15/LinkedBlockingQueue.java:435)\n" +
		"\tat java.util.concurrent.ThreadPoolExecutor.getTask(java.base@17.0.15/ThreadPoolExecutor.java:1062)\n" +
		"\tat java.util.concurrent.ThreadPoolExecutor.runWorker(java.base@17.0.15/ThreadPoolExecutor.java:1122)\n" +
		"\tat java.util.concurrent.ThreadPoolExecutor$Worker.run(java.base@17.0.15/ThreadPoolExecutor.java:635)\n"},
	{"cached-idle", false, "TIMED_WAITING (parking)\n\tat jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)\n" +
		"\t- parking to wait for  <0x00000000fc500000> (a java.util.concurrent.SynchronousQueue$TransferStack)\n" +
		"\tat java.util.concurrent.locks.LockSupport.parkNanos(java.base@17.0.15/LockSupport.java:252)\n" +
		"\tat java.util.concurrent.SynchronousQueue$TransferStack.transfer(java.base@17.0.15/SynchronousQueue.java:401)\n" +
		"\tat java.util.concurrent.SynchronousQueue.poll(java.base@17.0.15/SynchronousQueue.java:903)\n" +
		"\tat java.util.concurrent.ThreadPoolExecutor.getTask(java.base@17.0.15/ThreadPoolExecutor.java:1061)\n" +
		"\tat java.util.concurrent.ThreadPoolExecutor.runWorker(java.base@17.0.15/ThreadPoolExecutor.java:1122)\n" +
		"\tat java.util.concurrent.ThreadPoolExecutor$Worker.run(java.base@17.0.15/ThreadPoolExecutor.java:635)\n"},
}

// noPeerMoment writes one jstack dump: the JVM's own threads, main in
// wait, and others (indexes into noPeerOthers), each named by its index.
func noPeerMoment(at time.Time, m int, wait string, others []int, extra bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\nFull thread dump OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1 mixed mode, sharing):\n\n", at.Format("2006-01-02 15:04:05"))
	b.WriteString("\"Reference Handler\" #2 daemon prio=10 os_prio=0 cpu=0.10ms elapsed=60.00s tid=0x00007f0000001000 nid=0x201 waiting on condition  [0x00007f0000000000]\n" +
		"   java.lang.Thread.State: RUNNABLE\n\tat java.lang.ref.Reference.waitForReferencePendingList(java.base@17.0.15/Native Method)\n" +
		"\tat java.lang.ref.Reference.processPendingReferences(java.base@17.0.15/Reference.java:253)\n\tat java.lang.ref.Reference$ReferenceHandler.run(java.base@17.0.15/Reference.java:215)\n\n")
	b.WriteString("\"Signal Dispatcher\" #4 daemon prio=9 os_prio=0 cpu=0.10ms elapsed=60.00s tid=0x00007f0000002000 nid=0x202 waiting on condition  [0x0000000000000000]\n" +
		"   java.lang.Thread.State: RUNNABLE\n\n")
	fmt.Fprintf(&b, "\"main\" #1 prio=5 os_prio=0 cpu=40.00ms elapsed=60.00s tid=0x00007f0000009000 nid=0x200 waiting on condition  [0x00007f0000000000]\n   java.lang.Thread.State: %s", noPeerMain[wait])
	b.WriteString("\tat com.example.Main.main(Main.java:30)\n\n")
	for i, k := range others {
		o := noPeerOthers[k]
		fmt.Fprintf(&b, "\"%s-%d\" #%d prio=5 os_prio=0 cpu=%d.00ms elapsed=60.00s tid=0x00007f0000%03x00 nid=0x%x waiting on condition  [0x00007f0000000000]\n   java.lang.Thread.State: %s",
			o.kind, i, 20+i, 10+m*5, 0x100+i, 0x300+i, o.stack)
		b.WriteString("\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:833)\n\n")
	}
	if extra {
		// A thread seen at this moment only: one that began or ended
		// between the dumps.
		fmt.Fprintf(&b, "\"passing-%d\" #%d prio=5 os_prio=0 cpu=1.00ms elapsed=1.00s tid=0x00007f0000f%02x000 nid=0x%x waiting on condition  [0x00007f0000000000]\n   java.lang.Thread.State: %s",
			m, 90+m, m, 0x900+m, noPeerOthers[5].stack)
		b.WriteString("\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:833)\n\n")
	}
	return b.String()
}

// TestNoPeerProperty: over generated dumps, main waiting on a hand-off
// (a latch, a barrier, a SynchronousQueue's put, a full queue's put, a
// join) beside a random set of other threads, some able to serve it
// (running, sleeping in application code, a scheduled executor with a
// task due, a server's acceptor), some not (waiting untimed themselves,
// an executor's idle workers), at 1–3 moments: the no-peer finding is
// there exactly when no thread at any moment can serve and the threads
// are the same at every moment, Critical over several moments and a
// Warning on one.
func TestNoPeerProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 71))
	base := time.Date(2026, 12, 7, 13, 0, 0, 0, time.UTC)
	waits := []string{"latch", "barrier", "syncput", "fullput", "join"}
	found := 0
	const cases = 600
	for i := range cases {
		wait := waits[rng.IntN(len(waits))]
		var others []int
		serve, tied, idle := false, 0, false
		for range rng.IntN(5) {
			k := rng.IntN(len(noPeerOthers))
			others = append(others, k)
			serve = serve || noPeerOthers[k].serve
			switch noPeerOthers[k].kind {
			case "tied":
				tied++
			case "idle", "cached-idle":
				idle = true
			}
		}
		moments := 1 + rng.IntN(3)
		churn := moments > 1 && rng.IntN(5) == 0
		var in []Input
		for m := range moments {
			ds, err := parse.Parse(fmt.Sprintf("%d.txt", m+1), strings.NewReader(noPeerMoment(base.Add(time.Duration(m)*5*time.Second), m, wait, others, churn)))
			if err != nil {
				t.Fatal(err)
			}
			in = append(in, Input{Dump: ds[0]})
		}
		// A latch or a join main may park on until it is told to end:
		// only with a thread tied to it in the dump (for a join, the one
		// thread running main's lambdas: joinTies ties no other), or, for
		// a latch main awaits right in main, with an executor's idle
		// workers beside it (its would-be counters ran and ended:
		// counterGone).
		want := !serve && !churn
		switch wait {
		case "latch":
			want = want && (tied > 0 || idle)
		case "join":
			want = want && tied == 1
		}
		var got *Finding
		r := Analyze(in, Options{})
		for k := range r.Findings {
			// orphanedWaits tells the same wait where every application
			// thread waits on a hand-off, a producer among them: it stands.
			if b := r.Findings[k].Basis; b == basisNoPeer || b == "orphaned" && r.Findings[k].Pool == "main" {
				got = &r.Findings[k]
			}
		}
		if (got != nil) != want {
			var fs []string
			for _, f := range r.Findings {
				fs = append(fs, f.Kind+"/"+f.Basis+"/"+f.Pool)
			}
			t.Errorf("case %d (main in %s, others %v, %d moments, churn %v): findings %v, want no-peer %v", i, wait, others, moments, churn, fs, want)
			continue
		}
		if got == nil {
			continue
		}
		found++
		sev := Critical
		if moments == 1 {
			sev = Warning
		}
		if got.Basis == "orphaned" {
			continue
		}
		if got.Severity != sev || got.Pool != "main" || got.Awaits == nil {
			t.Errorf("case %d: no-peer finding severity %v pool %q awaits %v, want %v on main", i, got.Severity, got.Pool, got.Awaits, sev)
		}
	}
	t.Logf("%d generated cases, %d with the finding", cases, found)
	if found == 0 || found == cases {
		t.Errorf("the generator made %d findings of %d cases: both sides must be drawn", found, cases)
	}
}

// TestNoPeerFixtures (issue 33, "the producer side of a hand-off", "waits
// by structure"): HandoffApp run here (testdata/verdicts/handoff-*, each
// README written from the source before dumpdiff ran): main waits on a
// latch whose counter waits for main, a barrier, a phaser, an Exchanger, a SynchronousQueue's put, a
// full queue's put, a transfer, a join, a pool's termination, a future or
// a Condition whose other side is gone or waits itself, beside a pool's
// idle workers: stuck, basis no-peer, from every cut of two moments and,
// weaker, from one; the healthy twins, whose other side works in
// application code, stay quiet.
func TestNoPeerFixtures(t *testing.T) {
	noPeer := func(state, what string, sev Severity) want {
		return want{KindStuck, "main", state, func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, basisNoPeer)
			eq(t, "severity", f.Severity, sev)
			if f.Awaits == nil {
				t.Fatal("no Awaits")
			}
			eq(t, "awaits", f.Awaits.What, what)
		}}
	}
	var cases []fixtureCase
	for _, c := range []struct{ mode, state, what string }{
		{"latch", "latch-wait", "a CountDownLatch"},
		{"latchpeer", "latch-wait", "a CountDownLatch"},
		{"barrier", "latch-wait", "a CyclicBarrier"},
		{"phaser", "latch-wait", "a Phaser"},
		{"exchanger", "handoff-wait", "an Exchanger"},
		{"syncput", "handoff-wait", "a SynchronousQueue"},
		{"fullput", "queue-put", "a full BlockingQueue"},
		{"transfer", "handoff-wait", "a LinkedTransferQueue"},
		{"join", "object-wait", "a thread's end"},
		{"terminate", "park", "an executor's termination"},
		{"condition", "park", "a Condition"},
	} {
		name := "handoff-" + c.mode + "-stuck"
		if c.mode == "condition" {
			// The signaller died without a trace: the dumps show main
			// parked as a service's main parks on its shutdown Condition
			// until a hook signals it, so nothing is said
			// (peerWait.Rest). The README's answer is not reached, and
			// says so. (The latch's counters are the pool's idle
			// workers: counterGone.)
			cases = append(cases, fixtureCase{name, []string{"1", "2", "3"}, nil})
			continue
		}
		cases = append(cases,
			fixtureCase{name, []string{"1", "2", "3"}, []want{noPeer(c.state, c.what, Critical)}},
			fixtureCase{name, []string{"2", "3"}, []want{noPeer(c.state, c.what, Critical)}},
			fixtureCase{name, []string{"3"}, []want{noPeer(c.state, c.what, Warning)}})
	}
	// The future's worker waits on a latch only main counts down: the
	// pool's barrier-wait finding tells the worker, and main, waiting for
	// it, follows from it (one story per cause: toldPeer).
	cases = append(cases, fixtureCase{"handoff-future-stuck", []string{"1", "2", "3"}, []want{
		{KindDeadlock, "work-*", "latch-wait", nil}}})
	// main has returned and a listener waits on a monitor no thread left
	// will notify: kept-alive's (no entry thread: no no-peer finding).
	cases = append(cases, fixtureCase{"handoff-kept-stuck", []string{"1", "2", "3"}, []want{{KindKeptAlive, "listener", "object-wait", func(t *testing.T, f Finding) {
		eq(t, "severity", f.Severity, Warning)
		eq(t, "rest", len(f.Holders) > 0 && f.Holders[0].Rest == "monitor", true)
	}}}})
	// Second, independent source (testdata/gen/sources-real/gen.sh): main
	// in a real library's hand-off, Netty 4.1.48's bind().sync(), whose
	// only server, the event loop, waits on a latch itself: the blocked
	// loop, and main stuck with no peer; the twin's main waits in
	// closeFuture().sync() beside a live loop and stays quiet.
	blocked := want{KindEventLoopBlocked, "nioEventLoopGroup-2-*", "latch-wait", nil}
	for _, c := range []struct {
		at  []string
		sev Severity
	}{{[]string{"1", "2", "3"}, Critical}, {[]string{"3"}, Warning}} {
		cases = append(cases,
			fixtureCase{"src2-nopeer-netty-stuck", c.at, []want{blocked, noPeer("object-wait", "a monitor's notify", c.sev)}},
			fixtureCase{"src2-nopeer-netty-healthy", c.at, nil})
	}
	for _, mode := range []string{"latch", "latchpeer", "barrier", "exchanger", "syncput", "fullput", "join", "terminate", "kept"} {
		cases = append(cases, fixtureCase{"handoff-" + mode + "-healthy", []string{"1", "2", "3"}, nil})
	}
	runFixtureCases(t, filepath.Join("..", "testdata", "verdicts"), cases)
}
