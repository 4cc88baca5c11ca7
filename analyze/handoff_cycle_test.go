package analyze

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestHandoffCycleProperty: generated jstack dumps of log4j 1.2's
// AsyncAppender — one producer holding the logger's monitor and waiting
// in append, 0 to 4 others BLOCKED on the logger, and 0 to 2 dispatcher
// threads, each either BLOCKED on the logger or in a socket write. The
// lock graph closes a cycle of basis handoff exactly when there is one
// dispatcher and it is blocked on the producer's logger; the other
// producers wait on the cycle. Two dispatchers (two appenders' worth, no
// telling which one empties this buffer) or none make no edge.
func TestHandoffCycleProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 4))
	const logger = "0x00000000f8228cc0"
	seen := map[bool]int{}
	for i := range 300 {
		var b strings.Builder
		b.WriteString("2026-12-06 21:04:09\nFull thread dump OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1 mixed mode, sharing):\n\n")
		tid := 20
		thread := func(name, state string, frames ...string) {
			tid++
			fmt.Fprintf(&b, "\"%s\" #%d daemon prio=5 os_prio=0 cpu=1.00ms elapsed=6.00s tid=0x00007f2f6010%04x nid=0x%x %s  [0x00007f2f650b0000]\n   java.lang.Thread.State: %s\n",
				name, tid, tid, tid, map[string]string{"BLOCKED (on object monitor)": "waiting for monitor entry", "WAITING (on object monitor)": "in Object.wait()", "RUNNABLE": "runnable"}[state], state)
			for _, f := range frames {
				b.WriteString("\t" + f + "\n")
			}
			b.WriteString("\n")
		}
		blocked := []string{"at org.apache.log4j.Category.callAppenders(Category.java:205)", "- waiting to lock <" + logger + "> (a org.apache.log4j.spi.RootLogger)",
			"at org.apache.log4j.Category.forcedLog(Category.java:391)", "at org.apache.log4j.Category.info(Category.java:666)"}
		thread("request-worker-1", "WAITING (on object monitor)",
			"at java.lang.Object.wait(java.base@17.0.15/Native Method)", "- waiting on <0x00000000f844ed18> (a java.util.ArrayList)",
			"at java.lang.Object.wait(java.base@17.0.15/Object.java:338)", "at org.apache.log4j.AsyncAppender.append(AsyncAppender.java:195)",
			"- locked <0x00000000f844ed18> (a java.util.ArrayList)", "at org.apache.log4j.AppenderSkeleton.doAppend(AppenderSkeleton.java:251)",
			"- locked <0x00000000f844ebb0> (a org.apache.log4j.AsyncAppender)", "at org.apache.log4j.Category.callAppenders(Category.java:206)",
			"- locked <"+logger+"> (a org.apache.log4j.spi.RootLogger)", "at org.apache.log4j.Category.info(Category.java:666)",
			"at com.example.Orders.place(Orders.java:10)", "at java.lang.Thread.run(java.base@17.0.15/Thread.java:840)")
		others := rng.IntN(5)
		for k := range others {
			thread(fmt.Sprintf("request-worker-%d", k+2), "BLOCKED (on object monitor)", append(blocked, "at com.example.Orders.place(Orders.java:10)", "at java.lang.Thread.run(java.base@17.0.15/Thread.java:840)")...)
		}
		dispatchers := rng.IntN(3)
		anyBlocked := false
		for k := range dispatchers {
			name := fmt.Sprintf("AsyncAppender-Dispatcher-Thread-%d", k)
			under := []string{"at com.example.AuditAppender.append(AuditAppender.java:20)",
				"at org.apache.log4j.helpers.AppenderAttachableImpl.appendLoopOnAppenders(AppenderAttachableImpl.java:66)",
				"at org.apache.log4j.AsyncAppender$Dispatcher.run(AsyncAppender.java:590)", "at java.lang.Thread.run(java.base@17.0.15/Thread.java:840)"}
			if rng.IntN(2) == 0 {
				anyBlocked = anyBlocked || dispatchers == 1
				thread(name, "BLOCKED (on object monitor)", append(append([]string(nil), blocked...), under...)...)
			} else {
				thread(name, "RUNNABLE", append([]string{"at sun.nio.ch.SocketDispatcher.write0(java.base@17.0.15/Native Method)",
					"at java.net.Socket$SocketOutputStream.write(java.base@17.0.15/Socket.java:1035)"}, under...)...)
			}
		}
		ds, err := parse.Parse("gen.txt", strings.NewReader(b.String()))
		if err != nil || len(ds) != 1 {
			t.Fatalf("case %d: %v (%d dumps)", i, err, len(ds))
		}
		d := ds[0]
		g := newLockGraph(d)
		cs := g.cycles(d)
		want := dispatchers == 1 && anyBlocked
		if got := len(cs) == 1; got != want || len(cs) > 1 {
			t.Fatalf("case %d (%d dispatchers, blocked %v): %d cycles, want a cycle %v\n%s", i, dispatchers, anyBlocked, len(cs), want, b.String())
		}
		seen[want]++
		if want {
			eq(t, "basis", g.basis(cs[0]), basisHandoff)
			eq(t, "two in the cycle", len(cs[0]), 2)
			eq(t, "the rest wait on it", len(g.blockedOn(d, cs[0])), others)
		}
	}
	if seen[true] == 0 || seen[false] == 0 {
		t.Fatalf("the cases cover one side only: %v", seen)
	}
}

// TestFutureCycleProperty: generated jstack dumps of a thread holding a
// ReentrantReadWriteLock for writing while it waits on a FutureTask, and
// 0 to 4 pool threads running FutureTasks, each either parked on that
// lock or at work (a socket read). The lock graph closes a cycle of basis
// future exactly when there is a runner and every runner waits for the
// holder's lock: then whichever runs the future cannot finish.
func TestFutureCycleProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 5))
	const sync = "0x00000000f8088b08"
	seen := map[bool]int{}
	for i := range 300 {
		var b strings.Builder
		b.WriteString("2026-12-06 21:04:09\nFull thread dump OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1 mixed mode, sharing):\n\n")
		tid := 20
		thread := func(name, state, header string, frames []string, owned string) {
			tid++
			fmt.Fprintf(&b, "\"%s\" #%d daemon prio=5 os_prio=0 cpu=1.00ms elapsed=6.00s tid=0x00007f2f6010%04x nid=0x%x %s  [0x00007f2f650b0000]\n   java.lang.Thread.State: %s\n",
				name, tid, tid, tid, header, state)
			for _, f := range frames {
				b.WriteString("\t" + f + "\n")
			}
			b.WriteString("\n   Locked ownable synchronizers:\n\t- " + owned + "\n\n")
		}
		thread("settings-writer", "WAITING (parking)", "waiting on condition", []string{
			"at jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)",
			"- parking to wait for  <0x00000000f857cb00> (a java.util.concurrent.FutureTask)",
			"at java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:211)",
			"at java.util.concurrent.FutureTask.awaitDone(java.base@17.0.15/FutureTask.java:447)",
			"at java.util.concurrent.FutureTask.get(java.base@17.0.15/FutureTask.java:190)",
			"at com.example.Settings.reload(Settings.java:10)",
			"at java.lang.Thread.run(java.base@17.0.15/Thread.java:840)"}, "<"+sync+"> (a java.util.concurrent.locks.ReentrantReadWriteLock$NonfairSync)")
		task := []string{"at java.util.concurrent.FutureTask.run(java.base@17.0.15/FutureTask.java:264)",
			"at java.util.concurrent.ThreadPoolExecutor.runWorker(java.base@17.0.15/ThreadPoolExecutor.java:1136)",
			"at java.util.concurrent.ThreadPoolExecutor$Worker.run(java.base@17.0.15/ThreadPoolExecutor.java:635)",
			"at java.lang.Thread.run(java.base@17.0.15/Thread.java:840)"}
		runners := rng.IntN(5)
		all := runners > 0
		for k := range runners {
			name := fmt.Sprintf("loader-%d", k+1)
			if rng.IntN(3) > 0 {
				thread(name, "WAITING (parking)", "waiting on condition", append([]string{
					"at jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)",
					"- parking to wait for  <" + sync + "> (a java.util.concurrent.locks.ReentrantReadWriteLock$NonfairSync)",
					"at java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:211)",
					"at java.util.concurrent.locks.AbstractQueuedSynchronizer.acquireShared(java.base@17.0.15/AbstractQueuedSynchronizer.java:1027)",
					"at java.util.concurrent.locks.ReentrantReadWriteLock$ReadLock.lock(java.base@17.0.15/ReentrantReadWriteLock.java:738)",
					"at com.example.Settings.read(Settings.java:20)"}, task...), "<0x00000000f84fdf5"+fmt.Sprint(k)+"> (a java.util.concurrent.ThreadPoolExecutor$Worker)")
			} else {
				all = false
				thread(name, "RUNNABLE", "runnable", append([]string{
					"at sun.nio.ch.SocketDispatcher.read0(java.base@17.0.15/Native Method)",
					"at com.example.Fetcher.fetch(Fetcher.java:30)"}, task...), "<0x00000000f84fdf6"+fmt.Sprint(k)+"> (a java.util.concurrent.ThreadPoolExecutor$Worker)")
			}
		}
		ds, err := parse.Parse("gen.txt", strings.NewReader(b.String()))
		if err != nil || len(ds) != 1 {
			t.Fatalf("case %d: %v", i, err)
		}
		d := ds[0]
		g := newLockGraph(d)
		cs := g.cycles(d)
		seen[all]++
		if got := len(cs) == 1; got != all || len(cs) > 1 {
			t.Fatalf("case %d (%d runners, all waiting %v): %d cycles\n%s", i, runners, all, len(cs), b.String())
		}
		if all {
			eq(t, "basis", g.basis(cs[0]), basisFuture)
			eq(t, "two in the cycle", len(cs[0]), 2)
			eq(t, "the other runners wait on it", len(g.blockedOn(d, cs[0])), runners-1)
		}
	}
	if seen[true] == 0 || seen[false] == 0 {
		t.Fatalf("the cases cover one side only: %v", seen)
	}
}
