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

// TestUnservedFixtures (issue 33, "waits by structure"): UnservedApp run
// here (testdata/verdicts/unserved-*, each README written from the source
// before dumpdiff ran). A latch whose counter died: main awaits it in a
// step of its work (loadAll over a Guava pool whose workers idle after
// one task threw; warmUp over thread-per-task CompletableFutures, one of
// which returned early) and nothing can count it down: stuck, no-peer.
// A shutdown hook that joins a worker parked in take: the JVM cannot
// exit: stuck on the hook, the worker named, no kept-alive (a JVM running
// its hooks is not kept up by its non-daemon threads). Each healthy twin
// (a hook-counted shutdown latch in awaitShutdown; a hook that lets the
// worker drain its backlog) stays quiet.
func TestUnservedFixtures(t *testing.T) {
	noPeer := func(pool, state string, sev Severity, hook bool, peer string) want {
		return want{KindStuck, pool, state, func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, basisNoPeer)
			eq(t, "severity", f.Severity, sev)
			if f.Awaits == nil {
				t.Fatal("no Awaits")
			}
			eq(t, "hook", f.Awaits.Waiter == WaiterHook, hook)
			if peer != "" && (len(f.Awaits.Peers) == 0 || f.Awaits.Peers[0].Name != peer) {
				t.Errorf("peers %v, want %s first", f.Awaits.Peers, peer)
			}
		}}
	}
	var cases []fixtureCase
	for _, at := range []struct {
		moments []string
		sev     Severity
	}{{[]string{"1", "2", "3"}, Critical}, {[]string{"2", "3"}, Critical}, {[]string{"3"}, Warning}} {
		cases = append(cases,
			fixtureCase{"unserved-latch-stuck", at.moments, []want{noPeer("main", "latch-wait", at.sev, false, "")}},
			fixtureCase{"unserved-fjlatch-stuck", at.moments, []want{noPeer("main", "latch-wait", at.sev, false, "")}},
			fixtureCase{"unserved-hook-stuck", at.moments, []want{noPeer("drain-hook", "object-wait", at.sev, true, "consumer")}},
			fixtureCase{"unserved-hookpool-stuck", at.moments, []want{noPeer("pool-hook", "park", at.sev, true, "sink-0")}},
			fixtureCase{"unserved-hookpool-healthy", at.moments, nil},
			fixtureCase{"unserved-latch-healthy", at.moments, nil},
			fixtureCase{"unserved-fjlatch-healthy", at.moments, nil},
			fixtureCase{"unserved-hook-healthy", at.moments, nil},
			fixtureCase{"unserved-client-healthy", at.moments, nil},
			fixtureCase{"unserved-ui-stuck", at.moments, []want{{KindStuck, "AWT-EventQueue-*", "future-wait", func(t *testing.T, f Finding) {
				eq(t, "basis", f.Basis, basisNoPeer)
				eq(t, "severity", f.Severity, at.sev)
				if f.Awaits == nil || f.Awaits.Waiter != WaiterUI {
					t.Errorf("awaits %+v, want the UI's event thread", f.Awaits)
				}
			}}}},
			fixtureCase{"unserved-ui-healthy", at.moments, nil})
		// Client reads with no deadline under main's latch: the reads are
		// the story (stuck, their pool saturated), main named on them as
		// following, with no finding of its own.
		reads := want{KindStuck, "fetch-*", "socket-read", func(t *testing.T, f Finding) {
			if len(f.WaitedBy) != 1 || f.WaitedBy[0].Name != "main" {
				t.Errorf("waited by %v, want main", f.WaitedBy)
			}
		}}
		ws := []want{reads}
		if len(at.moments) > 1 {
			ws = append(ws, want{KindSaturated, "fetch-*", "socket-read", nil}) // a pool's size is seen over moments
		}
		cases = append(cases, fixtureCase{"unserved-client-stuck", at.moments, ws})
	}
	runFixtureCases(t, filepath.Join("..", "testdata", "verdicts"), cases)
}

// unservedCallers are the application methods main may await its latch
// in (below it, main, unless it is main): whether the name says a wait
// for the process's end (Roles.ShutdownWaits).
var unservedCallers = []struct {
	method   string
	shutdown bool
}{
	{"main", false}, {"loadAll", false}, {"warmUp", false}, {"runBatch", false},
	{"awaitShutdown", true}, {"blockUntilShutdown", true}, {"keepAlive", true}, {"waitForever", true},
}

// unservedMoment writes one jstack dump of a generated world. In a latch
// world main awaits a CountDownLatch under caller; in a hook world main
// has returned and, when shuttingDown, the SIGTERM handler runs the
// hooks while "stop-hook" (started after it when hookYoung, else a
// thread of the program older than the shutdown) joins a thread. others
// index noPeerOthers; each is a thread of the program, 60 s old.
func unservedMoment(at time.Time, m int, world, caller string, shuttingDown, hookYoung bool, others []int, extra bool) string {
	hookWorld := world == "hook"
	var b strings.Builder
	fmt.Fprintf(&b, "%s\nFull thread dump OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1 mixed mode, sharing):\n\n", at.Format("2006-01-02 15:04:05"))
	b.WriteString("\"Signal Dispatcher\" #4 daemon prio=9 os_prio=0 cpu=0.10ms elapsed=60.00s tid=0x00007f0000002000 nid=0x202 waiting on condition  [0x0000000000000000]\n" +
		"   java.lang.Thread.State: RUNNABLE\n\n")
	switch {
	case world == "ui":
		// The event thread, in a handler's future get (shuttingDown: in
		// a handler; else at rest in its queue), main returned.
		b.WriteString("\"DestroyJavaVM\" #30 prio=5 os_prio=0 cpu=40.00ms elapsed=60.00s tid=0x00007f0000009000 nid=0x200 waiting on condition  [0x0000000000000000]\n" +
			"   java.lang.Thread.State: RUNNABLE\n\n")
		b.WriteString("\"AWT-EventQueue-0\" #12 prio=6 os_prio=0 cpu=12.00ms elapsed=60.00s tid=0x00007f000000c000 nid=0x2c0 waiting on condition  [0x00007f0000000000]\n" +
			"   java.lang.Thread.State: WAITING (parking)\n\tat jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)\n")
		if shuttingDown {
			b.WriteString("\t- parking to wait for  <0x00000000fc0c0000> (a java.util.concurrent.CompletableFuture$Signaller)\n" +
				"\tat java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:211)\n" +
				"\tat java.util.concurrent.CompletableFuture$Signaller.block(java.base@17.0.15/CompletableFuture.java:1864)\n" +
				"\tat java.util.concurrent.CompletableFuture.waitingGet(java.base@17.0.15/CompletableFuture.java:1898)\n" +
				"\tat java.util.concurrent.CompletableFuture.get(java.base@17.0.15/CompletableFuture.java:2072)\n" +
				"\tat com.example.Main.refresh(Main.java:205)\n\tat java.awt.event.InvocationEvent.dispatch(java.desktop@17.0.15/InvocationEvent.java:318)\n" +
				"\tat java.awt.EventQueue.dispatchEventImpl(java.desktop@17.0.15/EventQueue.java:773)\n\tat java.awt.EventQueue.dispatchEvent(java.desktop@17.0.15/EventQueue.java:745)\n")
		} else {
			b.WriteString("\t- parking to wait for  <0x00000000fc0c0000> (a java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject)\n" +
				"\tat java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:341)\n" +
				"\tat java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await(java.base@17.0.15/AbstractQueuedSynchronizer.java:1630)\n" +
				"\tat java.awt.EventQueue.getNextEvent(java.desktop@17.0.15/EventQueue.java:566)\n")
		}
		b.WriteString("\tat java.awt.EventDispatchThread.pumpOneEventForFilters(java.desktop@17.0.15/EventDispatchThread.java:190)\n" +
			"\tat java.awt.EventDispatchThread.run(java.desktop@17.0.15/EventDispatchThread.java:90)\n\n")
	case !hookWorld:
		fmt.Fprintf(&b, "\"main\" #1 prio=5 os_prio=0 cpu=40.00ms elapsed=60.00s tid=0x00007f0000009000 nid=0x200 waiting on condition  [0x00007f0000000000]\n   java.lang.Thread.State: %s", noPeerMain["latch"])
		fmt.Fprintf(&b, "\tat com.example.Main.%s(Main.java:20)\n", caller)
		if caller != "main" {
			b.WriteString("\tat com.example.Main.main(Main.java:30)\n")
		}
		b.WriteString("\n")
	default:
		b.WriteString("\"DestroyJavaVM\" #30 prio=5 os_prio=0 cpu=40.00ms elapsed=60.00s tid=0x00007f0000009000 nid=0x200 waiting on condition  [0x0000000000000000]\n" +
			"   java.lang.Thread.State: RUNNABLE\n\n")
		if shuttingDown {
			b.WriteString("\"SIGTERM handler\" #31 daemon prio=9 os_prio=0 cpu=2.00ms elapsed=10.00s tid=0x00007f000000a000 nid=0x2a0 in Object.wait()  [0x00007f0000000000]\n" +
				"   java.lang.Thread.State: WAITING (on object monitor)\n\tat java.lang.Object.wait(java.base@17.0.15/Native Method)\n" +
				"\t- waiting on <0x00000000fc0a0000> (a java.lang.Thread)\n\tat java.lang.Thread.join(java.base@17.0.15/Thread.java:1313)\n" +
				"\t- locked <0x00000000fc0a0000> (a java.lang.Thread)\n\tat java.lang.Thread.join(java.base@17.0.15/Thread.java:1381)\n" +
				"\tat java.lang.ApplicationShutdownHooks.runHooks(java.base@17.0.15/ApplicationShutdownHooks.java:107)\n" +
				"\tat java.lang.ApplicationShutdownHooks$1.run(java.base@17.0.15/ApplicationShutdownHooks.java:46)\n" +
				"\tat java.lang.Shutdown.runHooks(java.base@17.0.15/Shutdown.java:130)\n\tat java.lang.Shutdown.exit(java.base@17.0.15/Shutdown.java:173)\n" +
				"\t- locked <0x00000000fc0b0000> (a java.lang.Class for java.lang.Shutdown)\n" +
				"\tat java.lang.Terminator$1.handle(java.base@17.0.15/Terminator.java:51)\n\tat jdk.internal.misc.Signal$1.run(java.base@17.0.15/Signal.java:219)\n" +
				"\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)\n\n")
		}
		age := "10.00"
		if !hookYoung {
			age = "60.00"
		}
		fmt.Fprintf(&b, "\"stop-hook\" #13 prio=5 os_prio=0 cpu=0.40ms elapsed=%s tid=0x00007f000000b000 nid=0x2b0 in Object.wait()  [0x00007f0000000000]\n   java.lang.Thread.State: %s", age, noPeerMain["join"])
		b.WriteString("\tat com.example.Main.lambda$stop$3(Main.java:105)\n\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)\n\n")
	}
	for i, k := range others {
		o := noPeerOthers[k]
		fmt.Fprintf(&b, "\"%s-%d\" #%d prio=5 os_prio=0 cpu=%d.00ms elapsed=60.00s tid=0x00007f0000%03x00 nid=0x%x waiting on condition  [0x00007f0000000000]\n   java.lang.Thread.State: %s",
			o.kind, i, 40+i, 10+m*5, 0x100+i, 0x300+i, o.stack)
		b.WriteString("\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:833)\n\n")
	}
	if extra {
		fmt.Fprintf(&b, "\"passing-%d\" #%d prio=5 os_prio=0 cpu=1.00ms elapsed=1.00s tid=0x00007f0000f%02x000 nid=0x%x waiting on condition  [0x00007f0000000000]\n   java.lang.Thread.State: %s",
			m, 90+m, m, 0x900+m, noPeerOthers[5].stack)
		b.WriteString("\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:833)\n\n")
	}
	return b.String()
}

// TestUnservedProperty: over generated worlds, the two waits nobody will
// serve that no thread is tied to.
//   - main's latch: said exactly when nothing can serve it, no thread
//     changes between the moments, and either a thread is tied to it, or
//     no method under it says it waits for the process's end and its
//     counters' trace is there (an executor's idle workers) or the latch
//     is awaited in a step of the work below main (counterGone); a latch
//     under awaitShutdown and its kind, or right in main with no idle
//     pool, is the service's park: quiet.
//   - a shutdown hook's join: said exactly when the JVM runs its hooks
//     at every moment, the waiter was started by them (younger than the
//     runner), and nothing can serve it; kept-alive never speaks while
//     the hooks run.
//   - a UI's event thread: its future get in an event's handler is said
//     exactly when nothing can serve it (the thread itself takes no calls
//     while it waits); at rest in its queue, never.
func TestUnservedProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 17))
	base := time.Date(2026, 12, 7, 16, 0, 0, 0, time.UTC)
	found := map[string]int{}
	const cases = 500
	for i := range cases {
		world := []string{"latch", "hook", "ui"}[rng.IntN(3)]
		hookWorld := world == "hook"
		c := unservedCallers[rng.IntN(len(unservedCallers))]
		shuttingDown, hookYoung := rng.IntN(4) != 0, rng.IntN(4) != 0
		var others []int
		serve, tied, idle := false, 0, false
		for range rng.IntN(4) {
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
		churn := moments > 1 && rng.IntN(6) == 0
		var in []Input
		for m := range moments {
			ds, err := parse.Parse(fmt.Sprintf("%d.txt", m+1), strings.NewReader(unservedMoment(base.Add(time.Duration(m)*5*time.Second), m, world, c.method, shuttingDown, hookYoung, others, churn)))
			if err != nil {
				t.Fatal(err)
			}
			in = append(in, Input{Dump: ds[0]})
		}
		want := !serve && !churn
		waiter := "main"
		switch world {
		case "hook":
			waiter = "stop-hook"
			want = want && shuttingDown && hookYoung
		case "ui":
			// In a handler (shuttingDown stands for it here), any wait
			// nothing can serve is said; at rest in its queue, never.
			waiter = "AWT-EventQueue-*"
			want = want && shuttingDown
		default:
			// The tied thread runs main's lambda: tied to a wait in main
			// only (joinSite's method writes the lambdas it ties).
			want = want && (tied > 0 && c.method == "main" || !c.shutdown && (c.method != "main" || idle))
		}
		r := Analyze(in, Options{})
		var got *Finding
		for k := range r.Findings {
			f := &r.Findings[k]
			if f.Basis == basisNoPeer && f.Pool == waiter {
				got = f
			}
			if hookWorld && shuttingDown && f.Kind == KindKeptAlive {
				t.Errorf("case %d: kept-alive while the JVM runs its hooks: %s", i, f.ID)
			}
		}
		if (got != nil) != want {
			var fs []string
			for _, f := range r.Findings {
				fs = append(fs, f.Kind+"/"+f.Basis+"/"+f.Pool)
			}
			t.Errorf("case %d (world %s, caller %s, shutting down %v, hook young %v, others %v, %d moments, churn %v): findings %v, want no-peer on %s %v",
				i, world, c.method, shuttingDown, hookYoung, others, moments, churn, fs, waiter, want)
			continue
		}
		if got == nil {
			continue
		}
		found[world]++
		role := map[string]string{"latch": "", "hook": WaiterHook, "ui": WaiterUI}[world]
		if got.Awaits == nil || got.Awaits.Waiter != role {
			t.Errorf("case %d: awaits %+v, want waiter %q", i, got.Awaits, role)
		}
	}
	t.Logf("%d generated worlds: said %v", cases, found)
	if found["latch"] == 0 || found["hook"] == 0 || found["ui"] == 0 {
		t.Errorf("the generator must draw both kinds of finding: %v", found)
	}
}

// waitedByMoment writes one dump: main awaits a latch in
// com.example.Main.<waitIn> (under main), and each of readers threads
// runs com.example.Main.lambda$<runIn>$0 into a socket read with no
// deadline (timed: in NioSocketImpl.timedRead, a read with its deadline).
func waitedByMoment(at time.Time, waitIn, runIn string, readers int, timed bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\nFull thread dump OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1 mixed mode, sharing):\n\n", at.Format("2006-01-02 15:04:05"))
	fmt.Fprintf(&b, "\"main\" #1 prio=5 os_prio=0 cpu=40.00ms elapsed=60.00s tid=0x00007f0000009000 nid=0x200 waiting on condition  [0x00007f0000000000]\n   java.lang.Thread.State: %s", noPeerMain["latch"])
	fmt.Fprintf(&b, "\tat com.example.Main.%s(Main.java:20)\n\tat com.example.Main.main(Main.java:30)\n\n", waitIn)
	read := "\tat sun.nio.ch.SocketDispatcher.read0(java.base@17.0.15/Native Method)\n\tat sun.nio.ch.SocketDispatcher.read(java.base@17.0.15/SocketDispatcher.java:47)\n" +
		"\tat sun.nio.ch.NioSocketImpl.tryRead(java.base@17.0.15/NioSocketImpl.java:266)\n\tat sun.nio.ch.NioSocketImpl.implRead(java.base@17.0.15/NioSocketImpl.java:317)\n"
	if timed {
		read = "\tat sun.nio.ch.Net.poll(java.base@17.0.15/Native Method)\n\tat sun.nio.ch.NioSocketImpl.park(java.base@17.0.15/NioSocketImpl.java:186)\n" +
			"\tat sun.nio.ch.NioSocketImpl.timedRead(java.base@17.0.15/NioSocketImpl.java:290)\n\tat sun.nio.ch.NioSocketImpl.implRead(java.base@17.0.15/NioSocketImpl.java:314)\n"
	}
	for i := range readers {
		fmt.Fprintf(&b, "\"fetch-%d\" #%d prio=5 os_prio=0 cpu=20.00ms elapsed=60.00s tid=0x00007f0000%03x00 nid=0x%x runnable  [0x00007f0000000000]\n   java.lang.Thread.State: RUNNABLE\n", i, 20+i, 0x100+i, 0x300+i)
		b.WriteString(read)
		b.WriteString("\tat sun.nio.ch.NioSocketImpl.read(java.base@17.0.15/NioSocketImpl.java:355)\n\tat java.net.Socket$SocketInputStream.read(java.base@17.0.15/Socket.java:966)\n")
		fmt.Fprintf(&b, "\tat com.example.Main.lambda$%s$0(Main.java:40)\n", runIn)
		b.WriteString("\tat java.util.concurrent.ThreadPoolExecutor.runWorker(java.base@17.0.15/ThreadPoolExecutor.java:1136)\n" +
			"\tat java.util.concurrent.ThreadPoolExecutor$Worker.run(java.base@17.0.15/ThreadPoolExecutor.java:635)\n\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:833)\n\n")
	}
	return b.String()
}

// TestWaitedByProperty: over generated worlds of main awaiting a latch
// while a pool's threads read a socket, main is named on the readers'
// stuck finding exactly when the readers run a lambda of the method main
// waits in (its code, so its latch), and never where no stuck finding
// is; main then has no finding of its own (one story, the read first).
func TestWaitedByProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 23))
	base := time.Date(2026, 12, 7, 16, 0, 0, 0, time.UTC)
	methods := []string{"fetchPrices", "loadAll", "syncOnce"}
	named := 0
	const cases = 120
	for i := range cases {
		waitIn, runIn := methods[rng.IntN(len(methods))], methods[rng.IntN(len(methods))]
		readers, timed := 1+rng.IntN(4), rng.IntN(4) == 0
		var in []Input
		for m := range 3 {
			ds, err := parse.Parse(fmt.Sprintf("%d.txt", m+1), strings.NewReader(waitedByMoment(base.Add(time.Duration(m)*5*time.Second), waitIn, runIn, readers, timed)))
			if err != nil {
				t.Fatal(err)
			}
			in = append(in, Input{Dump: ds[0]})
		}
		r := Analyze(in, Options{})
		var stuck *Finding
		for k := range r.Findings {
			f := &r.Findings[k]
			if f.Pool == "main" {
				t.Errorf("case %d: main has a finding of its own (%s/%s) beside the readers'", i, f.Kind, f.Basis)
			}
			if f.Kind == KindStuck && f.Pool == "fetch-*" {
				stuck = f
			}
		}
		if stuck == nil {
			continue
		}
		want := waitIn == runIn
		got := len(stuck.WaitedBy) == 1 && stuck.WaitedBy[0].Name == "main"
		if got != want || len(stuck.WaitedBy) > 1 {
			t.Errorf("case %d (main in %s, %d readers in lambda$%s$0, timed %v): waited by %v, want main %v", i, waitIn, readers, runIn, timed, stuck.WaitedBy, want)
		}
		if got {
			named++
		}
	}
	t.Logf("%d generated worlds, main named in %d", cases, named)
	if named == 0 {
		t.Error("the generator never drew main's own readers stuck")
	}
}
