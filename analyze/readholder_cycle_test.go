package analyze

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestReadHolderFutureCycleProperty: a read lock's holder that joins a
// CompletableFuture whose task waits for the write lock closes a cycle
// no lock line prints (rw-future-cf-stuck): the writer's edge goes to the
// lock's likely reader, the reader's to the future's runner. Over 300
// generated JDK 17 dumps: the cycle is found exactly when every runner of
// an async task waits to write the lock and the lock's class is run by
// one thread outside its waiters (the reloader); then its readers wait
// on the cycle. A runner at work, a second thread in the lock's class (no
// one reader to infer) or a reloader outside that class closes none.
func TestReadHolderFutureCycleProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 17))
	const sync = "0x00000000fc0e2698"
	seen := map[bool]int{}
	for i := range 300 {
		var b strings.Builder
		b.WriteString("2026-12-07 16:05:08\nFull thread dump OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1 mixed mode, sharing):\n\n")
		tid := 20
		thread := func(name, state, header string, frames []string) {
			tid++
			fmt.Fprintf(&b, "\"%s\" #%d daemon prio=5 os_prio=0 cpu=1.00ms elapsed=6.00s tid=0x00007f2f6010%04x nid=0x%x %s  [0x00007f2f650b0000]\n   java.lang.Thread.State: %s\n",
				name, tid, tid, tid, header, state)
			for _, f := range frames {
				b.WriteString("\t" + f + "\n")
			}
			b.WriteString("\n   Locked ownable synchronizers:\n\t- None\n\n")
		}
		park := func(class string) []string {
			return []string{"at jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)",
				"- parking to wait for  <" + class + ")",
				"at java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:211)"}
		}
		cat := func(xs ...[]string) []string {
			var out []string
			for _, x := range xs {
				out = append(out, x...)
			}
			return out
		}
		run := []string{"at java.lang.Thread.run(java.base@17.0.15/Thread.java:840)"}
		inClass := rng.IntN(4) > 0
		reloadAt := "at com.example.Config.reload(Config.java:20)"
		if !inClass {
			reloadAt = "at com.example.Reloads.reload(Reloads.java:20)"
		}
		thread("config-reloader", "WAITING (parking)", "waiting on condition", cat(
			park("0x00000000fc0f1000> (a java.util.concurrent.CompletableFuture$Signaller"),
			[]string{"at java.util.concurrent.CompletableFuture$Signaller.block(java.base@17.0.15/CompletableFuture.java:1864)",
				"at java.util.concurrent.ForkJoinPool.unmanagedBlock(java.base@17.0.15/ForkJoinPool.java:3463)",
				"at java.util.concurrent.ForkJoinPool.managedBlock(java.base@17.0.15/ForkJoinPool.java:3434)",
				"at java.util.concurrent.CompletableFuture.waitingGet(java.base@17.0.15/CompletableFuture.java:1898)",
				"at java.util.concurrent.CompletableFuture.join(java.base@17.0.15/CompletableFuture.java:2117)",
				reloadAt}, run))
		task := []string{"at java.util.concurrent.CompletableFuture$AsyncRun.run(java.base@17.0.15/CompletableFuture.java:1804)",
			"at java.util.concurrent.ThreadPoolExecutor.runWorker(java.base@17.0.15/ThreadPoolExecutor.java:1136)",
			"at java.util.concurrent.ThreadPoolExecutor$Worker.run(java.base@17.0.15/ThreadPoolExecutor.java:635)"}
		runners := rng.IntN(4)
		all := runners > 0 && inClass
		for k := range runners {
			name := fmt.Sprintf("config-io-%d", k+1)
			if rng.IntN(4) > 0 {
				thread(name, "WAITING (parking)", "waiting on condition", cat(
					park(sync+"> (a java.util.concurrent.locks.ReentrantReadWriteLock$NonfairSync"),
					[]string{"at java.util.concurrent.locks.AbstractQueuedSynchronizer.acquire(java.base@17.0.15/AbstractQueuedSynchronizer.java:715)",
						"at java.util.concurrent.locks.ReentrantReadWriteLock$WriteLock.lock(java.base@17.0.15/ReentrantReadWriteLock.java:959)",
						"at com.example.Config.apply(Config.java:30)"}, task, run))
			} else {
				all = false
				thread(name, "RUNNABLE", "runnable", cat([]string{
					"at sun.nio.ch.SocketDispatcher.read0(java.base@17.0.15/Native Method)",
					"at com.example.Fetcher.fetch(Fetcher.java:30)"}, task, run))
			}
		}
		readers := rng.IntN(5)
		for k := range readers {
			thread(fmt.Sprintf("config-reader-%d", k+1), "WAITING (parking)", "waiting on condition", cat(
				park(sync+"> (a java.util.concurrent.locks.ReentrantReadWriteLock$NonfairSync"),
				[]string{"at java.util.concurrent.locks.AbstractQueuedSynchronizer.acquireShared(java.base@17.0.15/AbstractQueuedSynchronizer.java:1027)",
					"at java.util.concurrent.locks.ReentrantReadWriteLock$ReadLock.lock(java.base@17.0.15/ReentrantReadWriteLock.java:738)",
					"at com.example.Config.read(Config.java:40)"}, run))
		}
		if rng.IntN(5) == 0 {
			// A second thread in the lock's class, not waiting for it:
			// which one reads is not told.
			all = false
			thread("config-auditor", "TIMED_WAITING (sleeping)", "waiting on condition", cat([]string{
				"at java.lang.Thread.sleep(java.base@17.0.15/Native Method)",
				"at com.example.Config.audit(Config.java:50)"}, run))
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
			t.Fatalf("case %d (%d runners, %d readers, reloader in the class %v, cycle wanted %v): %d cycles\n%s", i, runners, readers, inClass, all, len(cs), b.String())
		}
		if !all {
			continue
		}
		eq(t, "basis", g.basis(cs[0]), basisFuture)
		eq(t, "two in the cycle", len(cs[0]), 2)
		eq(t, "the readers and the other runners wait on it", len(g.blockedOn(d, cs[0])), readers+runners-1)
		for _, m := range cs[0] {
			if ref := g.lockRef(parse.RuntimeJVM, m); ref != nil && !ref.Future && (!ref.ReadHolder || ref.Holder != "config-reloader") {
				t.Fatalf("case %d: %s waits for %+v, want the inferred read holder config-reloader", i, m.Name(), ref)
			}
		}
	}
	if seen[true] == 0 || seen[false] == 0 {
		t.Fatalf("the cases cover one side only: %v", seen)
	}
}
