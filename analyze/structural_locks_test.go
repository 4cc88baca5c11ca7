package analyze

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// loadRewritten parses dir's moments, each rewritten by edit (moment index,
// text) first.
func loadRewritten(t *testing.T, dir string, moments []string, edit func(m int, s string) string) []Input {
	t.Helper()
	var in []Input
	for i, m := range moments {
		b, err := os.ReadFile(filepath.Join(dir, m+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		ds, err := parse.Parse(m+".txt", strings.NewReader(edit(i, string(b))))
		if err != nil {
			t.Fatal(err)
		}
		in = append(in, Input{Label: m, Dump: ds[0]})
	}
	return in
}

// TestClassInitCycleWithoutLockLine: an older HotSpot prints no "waiting
// on the Class initialization monitor" line (only "in Object.wait()" over a
// RUNNABLE thread). The real class-init-stuck dumps with the line taken
// out still close the cycle: each of the two waiters is inside one
// <clinit>, and the one other thread inside an initializer is the one it
// can wait for. price-reader, outside any initializer, has two threads it
// could wait for: it is tied to neither.
func TestClassInitCycleWithoutLockLine(t *testing.T) {
	line := regexp.MustCompile(`(?m)^\t- waiting on the Class initialization monitor for .*\n`)
	for _, dir := range []string{"class-init-stuck", "jdk25-class-init-stuck"} {
		t.Run(dir, func(t *testing.T) {
			in := loadRewritten(t, filepath.Join("..", "testdata", "verdicts", dir), []string{"1", "2", "3"},
				func(_ int, s string) string { return line.ReplaceAllString(s, "") })
			r := Analyze(in, Options{})
			var dl []Finding
			for _, f := range r.Findings {
				if f.Kind == KindDeadlock {
					dl = append(dl, f)
				} else {
					t.Errorf("unexpected %s", f.ID)
				}
			}
			if len(dl) != 1 {
				t.Fatalf("deadlocks %d, want 1", len(dl))
			}
			eq(t, "basis", dl[0].Basis, "class-init")
			eq(t, "counts", fmt.Sprint(dl[0].Counts), "[2 2 2]")
			var ns []string
			for _, c := range dl[0].Cycle {
				ns = append(ns, c.Name+" ← "+c.WaitsFor.Holder)
				eq(t, "class", c.WaitsFor.Class, "") // not printed: not known
			}
			slices.Sort(ns)
			eq(t, "cycle", strings.Join(ns, ", "), "init-currency ← init-tax, init-tax ← init-currency")
			eq(t, "blocked", len(dl[0].Blocked), 0)
		})
	}
}

// openJ9ClassInit is a javacore's threads section, made from the two
// threads of OpenJ9's documentation (testdata/formats/openj9-docs__javacore-threads-excerpt.txt,
// eclipse-openj9/openj9-docs docs/dump_javadump.md): each thread inside one
// class's <clinit> and waiting on the other class's initialization lock,
// whose initializing thread OpenJ9 names.
const openJ9ClassInit = `0SECTION       THREADS subcomponent dump routine
NULL           =================================
1XMTHDINFO     Thread Details
NULL
3XMTHREADINFO      "Class Initialization Thread 2" J9VMThread:0x0000000000124D00, omrthread_t:0x00007F3F8C1494C8, java/lang/Thread:0x00000000FFF53EE8, state:CW, prio=5
3XMJAVALTHREAD            (java/lang/Thread getId:0x13, isDaemon:false)
3XMTHREADINFO1            (native thread ID:0x6199, native priority:0x5, native policy:UNKNOWN, vmstate:CW, vm thread flags:0x00000181)
3XMTHREADBLOCK     Waiting on: java/lang/J9VMInternals$ClassInitializationLock@0x00000000FFF61C90 Owned by: <unowned> Initializing thread: "Class Initialization Thread 1"
3XMTHREADINFO3           Java callstack:
4XESTACKTRACE                at java/lang/Class.forNameImpl(Native Method)
4XESTACKTRACE                at java/lang/Class.forName(Class.java:339)
4XESTACKTRACE                at OtherClass.<clinit>(ClassInitLockBug.java:40)
4XESTACKTRACE                at java/lang/Class.forNameImpl(Native Method)
4XESTACKTRACE                at java/lang/Class.forName(Class.java:339)
4XESTACKTRACE                at ClassInitLockBug$ClassInitThread.run(ClassInitLockBug.java:16)
NULL
3XMTHREADINFO      "Class Initialization Thread 1" J9VMThread:0x0000000000124100, omrthread_t:0x00007F3F8C148F50, java/lang/Thread:0x00000000FFF53D80, state:CW, prio=5
3XMJAVALTHREAD            (java/lang/Thread getId:0x12, isDaemon:false)
3XMTHREADINFO1            (native thread ID:0x6198, native priority:0x5, native policy:UNKNOWN, vmstate:CW, vm thread flags:0x00000481)
3XMTHREADBLOCK     Waiting on: java/lang/J9VMInternals$ClassInitializationLock@0x00000000FFF61D40 Owned by: <unowned> Initializing thread: "Class Initialization Thread 2"
3XMTHREADINFO3           Java callstack:
4XESTACKTRACE                at java/lang/Class.forNameImpl(Native Method)
4XESTACKTRACE                at java/lang/Class.forName(Class.java:339)
4XESTACKTRACE                at TestClass.<clinit>(ClassInitLockBug.java:29)
4XESTACKTRACE                at java/lang/Class.forNameImpl(Native Method)
4XESTACKTRACE                at java/lang/Class.forName(Class.java:339)
4XESTACKTRACE                at ClassInitLockBug$ClassInitThread.run(ClassInitLockBug.java:16)
NULL
`

// TestOpenJ9ClassInit: OpenJ9 names the thread that runs a class's
// initializer on its waiters' line. In the documentation's real excerpt the
// waiter is tied to it (a wait, no cycle: the initializer sleeps); in the
// two threads made to wait for each other's class, the cycle is a
// class-initialization deadlock.
func TestOpenJ9ClassInit(t *testing.T) {
	ds, err := parse.ParseFile(filepath.Join("..", "testdata", "formats", "openj9-docs__javacore-threads-excerpt.txt"))
	if err != nil {
		t.Fatal(err)
	}
	g := newLockGraph(ds[0])
	var waiter *parse.Thread
	for _, th := range ds[0].Threads {
		if th.Name() == "Class Initialization Thread 2" {
			waiter = th
		}
	}
	if waiter == nil {
		t.Fatal("no Class Initialization Thread 2")
	}
	ref := g.lockRef(parse.RuntimeJVM, waiter)
	if ref == nil {
		t.Fatal("the class-initialization wait is no lock")
	}
	eq(t, "holder", ref.Holder, "Class Initialization Thread 1")
	eq(t, "class", ref.Class, "java.lang.J9VMInternals$ClassInitializationLock")
	eq(t, "cycles", len(g.cycles(ds[0])), 0)

	ds, err = parse.Parse("javacore.txt", strings.NewReader(openJ9ClassInit))
	if err != nil {
		t.Fatal(err)
	}
	r := Analyze([]Input{{Dump: ds[0]}}, Options{})
	var dl *Finding
	for i, f := range r.Findings {
		if f.Kind == KindDeadlock {
			dl = &r.Findings[i]
		}
	}
	if dl == nil {
		t.Fatalf("no deadlock: %v", kindsOf(r.Findings))
	}
	eq(t, "basis", dl.Basis, "class-init")
	eq(t, "state", dl.State, "class-init-wait")
	eq(t, "cycle", len(dl.Cycle), 2)
	for _, c := range dl.Cycle {
		eq(t, c.Name+" waits on a held lock", c.WaitsFor != nil && c.WaitsFor.Holder != "" && c.WaitsFor.Holder != c.Name, true)
	}
}

// addr is a printed lock address.
var addr = regexp.MustCompile(`<0x([0-9a-f]{16})>`)

// shiftAddresses moves every lock of moment m by m×0x1000 bytes, as a
// compacting collection between dumps moves the heap's objects.
func shiftAddresses(m int, s string) string {
	return addr.ReplaceAllStringFunc(s, func(a string) string {
		n, err := strconv.ParseUint(a[3:len(a)-1], 16, 64)
		if err != nil {
			return a
		}
		return fmt.Sprintf("<0x%016x>", n+uint64(m)*0x1000)
	})
}

// TestLockMovedAcrossMoments (issue 33): a monitor the GC moved between
// dumps is one lock. Every real contention fixture, its locks moved at
// each moment (metamorphic: the addresses are all the change), gives the
// findings it gives unmoved: the same ids, pools, counts and causes; a
// moved lock says its addresses. And two locks of one class whose owner
// and waiters are other threads (their native ids changed) stay two.
func TestLockMovedAcrossMoments(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	summary := func(r *Result) []string {
		var out []string
		for _, f := range r.Findings {
			out = append(out, fmt.Sprintf("%s %s %s %v caused-by=%q", f.ID, f.Pool, f.State, f.Counts, f.CausedBy))
		}
		return out
	}
	for _, c := range []struct {
		dir     string
		moments []string
	}{
		{"jvm-contention", []string{"1", "2"}},
		{"holder-db-stuck", []string{"1", "2", "3"}},
		{"small-pool-stuck", []string{"1", "2", "3"}},
		{"holder-spin-stuck", []string{"1", "2", "3"}},
		{"classloader-lock-stuck", []string{"1", "2", "3"}},
		{"single-waiter-stuck", []string{"1", "2", "3"}},
	} {
		t.Run(c.dir, func(t *testing.T) {
			same := func(_ int, s string) string { return s }
			want := summary(Analyze(loadRewritten(t, filepath.Join(dir, c.dir), c.moments, same), Options{}))
			moved := Analyze(loadRewritten(t, filepath.Join(dir, c.dir), c.moments, shiftAddresses), Options{})
			if got := summary(moved); !slices.Equal(got, want) {
				t.Errorf("moved locks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			n := 0
			for _, f := range moved.Findings {
				if f.Kind == KindContention {
					n++
					eq(t, f.ID+" addresses", len(f.Lock.Addresses), countNonZeroInts(f.Counts))
				}
			}
			if n == 0 {
				t.Error("no contention: the case proves nothing")
			}
		})
	}
	// Where the dump prints no thread identity (no #N, tid= or nid=), the
	// owner's frames tell the moved lock.
	t.Run("no identities", func(t *testing.T) {
		ids := regexp.MustCompile(`" #[0-9]+ | tid=0x[0-9a-f]+| nid=0x[0-9a-f]+`)
		strip := func(m int, s string) string {
			return shiftAddresses(m, ids.ReplaceAllStringFunc(s, func(x string) string {
				if strings.HasPrefix(x, `"`) {
					return `" `
				}
				return ""
			}))
		}
		r := Analyze(loadRewritten(t, filepath.Join(dir, "lock-moved-stuck"), []string{"1", "2", "3"}, strip), Options{})
		n := 0
		for _, f := range r.Findings {
			if f.Kind == KindContention {
				n++
				eq(t, "counts", fmt.Sprint(f.Counts), "[6 6 6]")
				eq(t, "addresses", len(f.Lock.Addresses), 3)
			}
		}
		eq(t, "contention findings", n, 1)
	})
	t.Run("other threads", func(t *testing.T) {
		nid := regexp.MustCompile(`nid=0x`)
		other := func(m int, s string) string {
			if m == 1 {
				s = nid.ReplaceAllString(s, "nid=0x99") // other threads of the same names
			}
			return shiftAddresses(m, s)
		}
		r := Analyze(loadRewritten(t, filepath.Join(dir, "lock-moved-stuck"), []string{"1", "2"}, other), Options{})
		n := 0
		for _, f := range r.Findings {
			if f.Kind == KindContention {
				n++
				eq(t, f.ID+" addresses", len(f.Lock.Addresses), 0)
			}
		}
		eq(t, "contention findings", n, 2)
	})
}

func countNonZeroInts(xs []int) int {
	n := 0
	for _, x := range xs {
		if x > 0 {
			n++
		}
	}
	if n == 1 {
		return 0 // one address: none listed
	}
	return n
}

// clinitThread is one jstack thread inside the initializer of class in
// (none when ""), waiting for class waits (none when "").
func clinitThread(name string, nid int, in, waits string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%q #%d prio=5 os_prio=0 cpu=0.50ms elapsed=9.00s tid=0x00007f00000%05x nid=0x%x in Object.wait()  [0x00007f0000000000]\n", name, nid, nid, nid)
	b.WriteString("   java.lang.Thread.State: RUNNABLE\n")
	top := "com.example.gen.Caller.call(Caller.java:7)"
	if in != "" {
		top = in + ".<clinit>(Gen.java:3)"
	}
	fmt.Fprintf(&b, "\tat %s\n", top)
	if waits != "" {
		fmt.Fprintf(&b, "\t- waiting on the Class initialization monitor for %s\n", waits)
	}
	b.WriteString("\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)\n\n")
	return b.String()
}

// TestClassInitRings (generated inputs): n threads each inside one class's
// initializer and waiting for the next one's, in a ring, with extra
// threads waiting for classes of the ring, in a shuffled order: one
// deadlock of the n, basis class-init, every member naming the class it
// waits for and its initializer, the extras blocked on it. Opened into a
// chain (the last waits for a class nobody initializes), no deadlock.
func TestClassInitRings(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 1))
	for iter := 0; iter < 40; iter++ {
		n := 2 + rng.IntN(5)
		extras := rng.IntN(4)
		open := iter%4 == 3
		class := func(i int) string { return fmt.Sprintf("com.example.gen.C%d", i%n) }
		var threads []string
		for i := 0; i < n; i++ {
			waits := class(i + 1)
			if open && i == n-1 {
				waits = "com.example.gen.Elsewhere" // initialized by no thread in the dump
			}
			threads = append(threads, clinitThread(fmt.Sprintf("init-%d", i), 100+i, class(i), waits))
		}
		for e := 0; e < extras; e++ {
			threads = append(threads, clinitThread(fmt.Sprintf("reader-%d", e), 200+e, "", class(rng.IntN(n))))
		}
		rng.Shuffle(len(threads), func(i, j int) { threads[i], threads[j] = threads[j], threads[i] })
		text := "2026-12-06 18:00:00\nFull thread dump OpenJDK 64-Bit Server VM (17.0.15+6 mixed mode, sharing):\n\n" + strings.Join(threads, "")
		ds, err := parse.Parse("gen.txt", strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		r := Analyze([]Input{{Dump: ds[0]}}, Options{})
		var dl []Finding
		for _, f := range r.Findings {
			if f.Kind == KindDeadlock {
				dl = append(dl, f)
			}
		}
		if open {
			if len(dl) != 0 {
				t.Errorf("iter %d: an open chain of %d is no deadlock: %v", iter, n, kindsOf(dl))
			}
			continue
		}
		if len(dl) != 1 {
			t.Fatalf("iter %d: %d deadlocks for a ring of %d", iter, len(dl), n)
		}
		f := dl[0]
		eq(t, "basis", f.Basis, "class-init")
		eq(t, "members", len(f.Cycle), n)
		eq(t, "blocked", len(f.Blocked), extras)
		for _, c := range f.Cycle {
			var i int
			fmt.Sscanf(c.Name, "init-%d", &i)
			if c.WaitsFor == nil || c.WaitsFor.Class != class(i+1) || c.WaitsFor.Holder != fmt.Sprintf("init-%d", (i+1)%n) {
				t.Errorf("iter %d: %s waits for %+v", iter, c.Name, c.WaitsFor)
			}
		}
	}
}

// otherWorker is a jstack thread of another pool: in a task reading a
// socket (it may be completing the futures), or idle in getTask.
func otherWorker(busy bool) string {
	top := "\tat jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)\n" +
		"\tat java.util.concurrent.LinkedBlockingQueue.take(java.base@17.0.15/LinkedBlockingQueue.java:435)\n" +
		"\tat java.util.concurrent.ThreadPoolExecutor.getTask(java.base@17.0.15/ThreadPoolExecutor.java:1062)\n"
	state := "WAITING (parking)"
	if busy {
		top = "\tat sun.nio.ch.SocketDispatcher.read0(java.base@17.0.15/Native Method)\n" +
			"\tat sun.nio.ch.SocketDispatcher.read(java.base@17.0.15/SocketDispatcher.java:47)\n" +
			"\tat sun.nio.ch.NioSocketImpl.tryRead(java.base@17.0.15/NioSocketImpl.java:266)\n" +
			"\tat sun.nio.ch.NioSocketImpl.implRead(java.base@17.0.15/NioSocketImpl.java:317)\n" +
			"\tat sun.nio.ch.NioSocketImpl.read(java.base@17.0.15/NioSocketImpl.java:355)\n" +
			"\tat java.net.Socket$SocketInputStream.read(java.base@17.0.15/Socket.java:966)\n" +
			"\tat com.example.gen.PartClient.fetch(PartClient.java:20)\n" +
			"\tat java.util.concurrent.FutureTask.run(java.base@17.0.15/FutureTask.java:264)\n"
		state = "RUNNABLE"
	}
	return "\"parts-worker-1\" #90 daemon prio=5 os_prio=0 cpu=1.00ms elapsed=9.00s tid=0x00007f0000000090 nid=0x90 runnable  [0x00007f0000000000]\n" +
		"   java.lang.Thread.State: " + state + "\n" + top +
		"\tat java.util.concurrent.ThreadPoolExecutor.runWorker(java.base@17.0.15/ThreadPoolExecutor.java:1136)\n" +
		"\tat java.util.concurrent.ThreadPoolExecutor$Worker.run(java.base@17.0.15/ThreadPoolExecutor.java:635)\n" +
		"\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)\n\n"
}

// TestPoolSelfWaitVeto (metamorphic): the real pool-self-wait-stuck dumps
// with one more thread, of another pool, at every moment. Idle in its
// getTask, it changes nothing: both pools still wait on themselves. In a
// task reading a socket, it could be what completes their futures (as a
// request pool waits on a fetch pool): no pool waits on itself then.
func TestPoolSelfWaitVeto(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts", "pool-self-wait-stuck")
	for _, busy := range []bool{false, true} {
		t.Run(fmt.Sprint("busy=", busy), func(t *testing.T) {
			add := func(_ int, s string) string {
				i := strings.Index(s, "\n\"")
				return s[:i+1] + otherWorker(busy) + s[i+1:]
			}
			r := Analyze(loadRewritten(t, dir, []string{"1", "2", "3"}, add), Options{})
			var pools []string
			for _, f := range r.Findings {
				if f.Kind == KindDeadlock && f.Basis == "pool-self-wait" {
					pools = append(pools, f.Pool)
				}
			}
			slices.Sort(pools)
			want := "[audit-worker-* report-worker-*]"
			if busy {
				want = "[]"
			}
			eq(t, "pools waiting on themselves", fmt.Sprint(pools), want)
		})
	}
}

// refcardClassInit are the two threads of a class-initialization deadlock
// printed by a real JDK 17.0.12 (jstack), as published in ctrung/refcard's
// java-commands.md ("Example of deadlock due to circular initialization
// order", 100 Java mistakes, 3.9.3): main runs Deadlock$B.<clinit> and
// waits for Deadlock$A; the common pool's worker runs Deadlock$A.<clinit>
// and waits for Deadlock$B (a parallel stream's two tasks). The lines are
// as printed; the frames between the task and the pool's loop, which the
// source elides too, are left out. A second source, independent of the
// programs made here: another JVM build, a common-pool worker and main.
const refcardClassInit = `2024-10-05 11:05:38
Full thread dump OpenJDK 64-Bit Server VM (17.0.12+7 mixed mode, sharing):

"main" #1 prio=5 os_prio=0 cpu=58,33ms elapsed=435,63s tid=0x00007f0210029760 nid=0x3141 in Object.wait()  [0x00007f0217608000]
   java.lang.Thread.State: RUNNABLE
	at com.example.spring_modulith.deadlock.Deadlock$B.<clinit>(Deadlock.java:22)
	- waiting on the Class initialization monitor for com.example.spring_modulith.deadlock.Deadlock$A
	at com.example.spring_modulith.deadlock.Deadlock.lambda$main$1(Deadlock.java:8)
	at java.util.stream.ForEachOps$ForEachTask.compute(java.base@17.0.12/ForEachOps.java:290)
	at java.util.concurrent.CountedCompleter.exec(java.base@17.0.12/CountedCompleter.java:754)
	at java.util.concurrent.ForkJoinTask.doExec(java.base@17.0.12/ForkJoinTask.java:373)
	at java.util.concurrent.ForkJoinTask.invoke(java.base@17.0.12/ForkJoinTask.java:686)
	at java.util.stream.ReferencePipeline.forEach(java.base@17.0.12/ReferencePipeline.java:596)
	at com.example.spring_modulith.deadlock.Deadlock.main(Deadlock.java:9)

"ForkJoinPool.commonPool-worker-1" #15 daemon prio=5 os_prio=0 cpu=0,48ms elapsed=435,57s tid=0x00007f0210324b40 nid=0x3161 in Object.wait()  [0x00007f01f08bf000]
   java.lang.Thread.State: RUNNABLE
	at com.example.spring_modulith.deadlock.Deadlock$A.<clinit>(Deadlock.java:14)
	- waiting on the Class initialization monitor for com.example.spring_modulith.deadlock.Deadlock$B
	at com.example.spring_modulith.deadlock.Deadlock.lambda$main$0(Deadlock.java:8)
	at java.util.stream.ForEachOps$ForEachTask.compute(java.base@17.0.12/ForEachOps.java:290)
	at java.util.concurrent.CountedCompleter.exec(java.base@17.0.12/CountedCompleter.java:754)
	at java.util.concurrent.ForkJoinTask.doExec(java.base@17.0.12/ForkJoinTask.java:373)
	at java.util.concurrent.ForkJoinPool$WorkQueue.topLevelExec(java.base@17.0.12/ForkJoinPool.java:1182)
	at java.util.concurrent.ForkJoinPool.scan(java.base@17.0.12/ForkJoinPool.java:1655)
	at java.util.concurrent.ForkJoinPool.runWorker(java.base@17.0.12/ForkJoinPool.java:1622)
	at java.util.concurrent.ForkJoinWorkerThread.run(java.base@17.0.12/ForkJoinWorkerThread.java:165)

`

// TestPublicClassInitDeadlock: the published dump above is a
// class-initialization deadlock of main and the common pool's worker,
// each naming the class it waits for and who initializes it; the common
// pool starved follows from it.
func TestPublicClassInitDeadlock(t *testing.T) {
	ds, err := parse.Parse("refcard.txt", strings.NewReader(refcardClassInit))
	if err != nil {
		t.Fatal(err)
	}
	r := Analyze([]Input{{Dump: ds[0]}}, Options{})
	// The common pool's one worker is in the cycle: the pool is starved,
	// as a consequence of the deadlock.
	if len(r.Findings) != 2 || r.Findings[0].Kind != KindDeadlock || r.Findings[1].Kind != KindCommonPoolStarved {
		t.Fatalf("findings %v, want a deadlock and the common pool starved", kindsOf(r.Findings))
	}
	eq(t, "common pool caused by", r.Findings[1].CausedBy, r.Findings[0].ID)
	f := r.Findings[0]
	eq(t, "basis", f.Basis, "class-init")
	got := map[string]string{}
	for _, c := range f.Cycle {
		if c.WaitsFor != nil {
			got[c.Name] = c.WaitsFor.Class + " ← " + c.WaitsFor.Holder
		}
	}
	eq(t, "main", got["main"], "com.example.spring_modulith.deadlock.Deadlock$A ← ForkJoinPool.commonPool-worker-1")
	eq(t, "worker", got["ForkJoinPool.commonPool-worker-1"], "com.example.spring_modulith.deadlock.Deadlock$B ← main")
}
