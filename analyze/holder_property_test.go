package analyze

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestHolderGraphProperty (issue 33, "cycles of every kind" and "the
// holder first"): random lock graphs, cycles and chains mixed, written in
// the forms that print an owner (jstack -l, ThreadInfo.toString(), the
// Actuator's JSON) and in forms that drop it (jstack without -l, which
// prints no ownable synchronizer; a holder whose lock lines are lost and
// whose waiters print no owner). Two properties, one dump each:
//
//   - the lock graph names a waiter's holder exactly when the form prints
//     it, by the holder's lock lines or the waiter's owner;
//   - the deadlock findings are exactly the cycles of the printed edges,
//     each member's wait naming the next member as its holder.
func TestHolderGraphProperty(t *testing.T) {
	const cases = 1200
	forms := []string{"jstack", "jstack-no-l", "threadinfo", "threadinfo-cut", "json", "json-cut"}
	rng := rand.New(rand.NewPCG(33, 12))
	cycles := 0
	for c := range cases {
		g := randomLockGraph(rng)
		form := forms[c%len(forms)]
		text := g.write(form)
		ds, err := parse.Parse(fmt.Sprintf("gen-%d", c), strings.NewReader(text))
		if err != nil || len(ds) != 1 {
			t.Fatalf("case %d (%s): parse: %v (%d dumps)\n%s", c, form, err, len(ds), text)
		}
		d := ds[0]
		byName := map[string]*parse.Thread{}
		for _, th := range d.Threads {
			byName[th.Name()] = th
		}
		// The holder, exactly when printed.
		dl := newDumpLocks(d)
		edge := map[int]int{}
		for i, w := range g.waits {
			th := byName[g.name(i)]
			if th == nil {
				t.Fatalf("case %d (%s): thread %s not parsed\n%s", c, form, g.name(i), text)
			}
			_, holder, _, ok := dl.waitOf(th)
			if w < 0 {
				if ok && holder != nil {
					t.Fatalf("case %d (%s): %s waits for nothing, read as waiting for %s\n%s", c, form, g.name(i), holder.Name(), text)
				}
				continue
			}
			want := ""
			if g.printed(form, w) {
				want = g.name(w)
				edge[i] = w
			}
			got := ""
			if holder != nil {
				got = holder.Name()
			}
			if got != want {
				t.Fatalf("case %d (%s): %s waits for %s's lock: holder %q, want %q\n%s", c, form, g.name(i), g.name(w), got, want, text)
			}
		}
		// Deadlocks, exactly the cycles of the printed edges.
		want := graphCycles(edge, len(g.waits), g.name)
		cycles += len(want)
		r := Analyze([]Input{{Label: "1", Dump: d}}, Options{})
		var got []string
		for _, f := range r.Findings {
			if f.Kind != KindDeadlock {
				continue
			}
			var ns []string
			for _, m := range f.Cycle {
				ns = append(ns, m.Name)
				if m.WaitsFor == nil || m.WaitsFor.Holder == "" {
					t.Fatalf("case %d (%s): cycle member %s names no holder\n%s", c, form, m.Name, text)
				}
			}
			sort.Strings(ns)
			got = append(got, strings.Join(ns, ","))
		}
		sort.Strings(got)
		if !slices.Equal(got, want) {
			t.Fatalf("case %d (%s): deadlocks %q, want the cycles %q\n%s", c, form, got, want, text)
		}
	}
	t.Logf("%d random lock graphs, %d cycles among them", cases, cycles)
}

// lockGraphCase is a random lock graph: thread i holds lock i when held[i]
// (a monitor or, when juc[i], a ReentrantLock) and waits for lock
// waits[i] (-1: none, asleep).
type lockGraphCase struct {
	held  []bool
	juc   []bool
	waits []int
	pool  string
}

func randomLockGraph(rng *rand.Rand) lockGraphCase {
	n := 2 + rng.IntN(8)
	g := lockGraphCase{held: make([]bool, n), juc: make([]bool, n), waits: make([]int, n), pool: []string{"worker", "posting", "pool-3-thread"}[rng.IntN(3)]}
	for i := range n {
		g.held[i] = rng.IntN(4) > 0
		g.juc[i] = rng.IntN(2) == 0
	}
	for i := range n {
		g.waits[i] = -1
		if rng.IntN(5) == 0 {
			continue // asleep: a chain ends here
		}
		j := rng.IntN(n)
		if j != i && g.held[j] {
			g.waits[i] = j
		}
	}
	return g
}

func (g lockGraphCase) name(i int) string { return fmt.Sprintf("%s-%d", g.pool, i+1) }

func (g lockGraphCase) class(i int) string {
	if g.juc[i] {
		return "java.util.concurrent.locks.ReentrantLock$NonfairSync"
	}
	return "java.lang.Object"
}

func (g lockGraphCase) addr(i int) string { return fmt.Sprintf("0x00000000f%07x", 0x100+i*0x30) }
func (g lockGraphCase) hash(i int) string { return fmt.Sprintf("%x", 0x1b6d3586+i*0x1111) }

// printed tells whether form prints who holds lock w: jstack without -l
// prints a monitor's "- locked" line, no ownable synchronizer; the cut
// forms lose every holder's lock lines, and print the owner on the
// waiter's line for even locks only (a dump whose owner column is empty
// for the rest).
func (g lockGraphCase) printed(form string, w int) bool {
	switch form {
	case "jstack-no-l":
		return !g.juc[w]
	case "threadinfo-cut", "json-cut":
		return w%2 == 0
	}
	return true
}

func (g lockGraphCase) write(form string) string {
	var b strings.Builder
	switch {
	case strings.HasPrefix(form, "jstack"):
		b.WriteString("2026-12-07 13:04:25\nFull thread dump OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1 mixed mode, sharing):\n\n")
		for i := range g.waits {
			g.writeJstack(&b, i, form == "jstack")
		}
	case strings.HasPrefix(form, "threadinfo"):
		for i := range g.waits {
			g.writeThreadInfo(&b, i, form == "threadinfo")
		}
	default:
		b.WriteString(`{"threads":[`)
		for i := range g.waits {
			if i > 0 {
				b.WriteString(",")
			}
			g.writeJSON(&b, i, form == "json")
		}
		b.WriteString("]}\n")
	}
	return b.String()
}

func (g lockGraphCase) writeJstack(b *strings.Builder, i int, dashL bool) {
	w := g.waits[i]
	app := fmt.Sprintf("\tat com.example.gen.Worker.step%d(Worker.java:%d)\n", i, 10+i)
	fmt.Fprintf(b, "%q #%d prio=5 os_prio=0 cpu=1.00ms elapsed=10.00s tid=0x%016x nid=0x%x ", g.name(i), 12+i, 0x7f0000001000+i*0x100, 0x100+i)
	var frames strings.Builder
	switch {
	case w < 0:
		b.WriteString("waiting on condition  [0x00007f0000000000]\n   java.lang.Thread.State: TIMED_WAITING (sleeping)\n")
		frames.WriteString("\tat java.lang.Thread.sleep(java.base@17.0.15/Native Method)\n" + app)
	case g.juc[w]:
		b.WriteString("waiting on condition  [0x00007f0000000000]\n   java.lang.Thread.State: WAITING (parking)\n")
		fmt.Fprintf(&frames, "\tat jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)\n\t- parking to wait for  <%s> (a %s)\n", g.addr(w), g.class(w))
		frames.WriteString("\tat java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:211)\n" +
			"\tat java.util.concurrent.locks.ReentrantLock.lock(java.base@17.0.15/ReentrantLock.java:322)\n" + app)
	default:
		b.WriteString("waiting for monitor entry  [0x00007f0000000000]\n   java.lang.Thread.State: BLOCKED (on object monitor)\n")
		fmt.Fprintf(&frames, "%s\t- waiting to lock <%s> (a %s)\n", app, g.addr(w), g.class(w))
	}
	if g.held[i] && !g.juc[i] {
		fmt.Fprintf(&frames, "\tat com.example.gen.Worker.hold%d(Worker.java:5)\n\t- locked <%s> (a %s)\n", i, g.addr(i), g.class(i))
	}
	frames.WriteString("\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)\n")
	b.WriteString(frames.String())
	if dashL {
		b.WriteString("\n   Locked ownable synchronizers:\n")
		if g.held[i] && g.juc[i] {
			fmt.Fprintf(b, "\t- <%s> (a %s)\n", g.addr(i), g.class(i))
		} else {
			b.WriteString("\t- None\n")
		}
	}
	b.WriteString("\n")
}

func (g lockGraphCase) writeThreadInfo(b *strings.Builder, i int, holders bool) {
	w := g.waits[i]
	app := fmt.Sprintf("\tat app//com.example.gen.Worker.step%d(Worker.java:%d)\n", i, 10+i)
	fmt.Fprintf(b, "%q prio=5 Id=%d ", g.name(i), 12+i)
	owner := func() string {
		if !g.printed("threadinfo-cut", w) && !holders {
			return ""
		}
		return fmt.Sprintf(" owned by %q Id=%d", g.name(w), 12+w)
	}
	switch {
	case w < 0:
		b.WriteString("TIMED_WAITING\n\tat java.base@17.0.15/java.lang.Thread.sleep(Native Method)\n" + app)
	case g.juc[w]:
		fmt.Fprintf(b, "WAITING on %s@%s%s\n\tat java.base@17.0.15/jdk.internal.misc.Unsafe.park(Native Method)\n\t-  waiting on %s@%s\n", g.class(w), g.hash(w), owner(), g.class(w), g.hash(w))
		b.WriteString("\tat java.base@17.0.15/java.util.concurrent.locks.LockSupport.park(LockSupport.java:211)\n" + app)
	default:
		fmt.Fprintf(b, "BLOCKED on %s@%s%s\n%s\t-  blocked on %s@%s\n", g.class(w), g.hash(w), owner(), app, g.class(w), g.hash(w))
	}
	if holders && g.held[i] && !g.juc[i] {
		fmt.Fprintf(b, "\tat app//com.example.gen.Worker.hold%d(Worker.java:5)\n\t-  locked %s@%s\n", i, g.class(i), g.hash(i))
	}
	b.WriteString("\tat java.base@17.0.15/java.lang.Thread.run(Thread.java:840)\n\n")
	if holders && g.held[i] && g.juc[i] {
		fmt.Fprintf(b, "\tNumber of locked synchronizers = 1\n\t- %s@%s\n\n", g.class(i), g.hash(i))
	}
}

func (g lockGraphCase) writeJSON(b *strings.Builder, i int, holders bool) {
	w := g.waits[i]
	frame := func(cls, method string, line int, native bool) string {
		return fmt.Sprintf(`{"methodName":%q,"fileName":"X.java","lineNumber":%d,"nativeMethod":%t,"className":%q}`, method, line, native, cls)
	}
	var frames []string
	state, lockInfo, ownerName, ownerID := "TIMED_WAITING", "null", "null", -1
	switch {
	case w < 0:
		frames = append(frames, frame("java.lang.Thread", "sleep", -2, true))
	case g.juc[w]:
		state = "WAITING"
		frames = append(frames, frame("jdk.internal.misc.Unsafe", "park", -2, true), frame("java.util.concurrent.locks.LockSupport", "park", 211, false))
	default:
		state = "BLOCKED"
	}
	frames = append(frames, frame("com.example.gen.Worker", fmt.Sprintf("step%d", i), 10+i, false))
	var monitors []string
	if g.held[i] && !g.juc[i] && holders {
		monitors = append(monitors, fmt.Sprintf(`{"className":%q,"identityHashCode":%d,"lockedStackDepth":%d}`, g.class(i), 0x1b6d3586+i*0x1111, len(frames)))
	}
	frames = append(frames, frame("com.example.gen.Worker", fmt.Sprintf("hold%d", i), 5, false), frame("java.lang.Thread", "run", 840, false))
	if w >= 0 {
		lockInfo = fmt.Sprintf(`{"className":%q,"identityHashCode":%d}`, g.class(w), 0x1b6d3586+w*0x1111)
		if holders || g.printed("json-cut", w) {
			ownerName, ownerID = fmt.Sprintf("%q", g.name(w)), 12+w
		}
	}
	var syncs []string
	if g.held[i] && g.juc[i] && holders {
		syncs = append(syncs, fmt.Sprintf(`{"className":%q,"identityHashCode":%d}`, g.class(i), 0x1b6d3586+i*0x1111))
	}
	fmt.Fprintf(b, `{"threadName":%q,"threadId":%d,"lockOwnerId":%d,"lockOwnerName":%s,"daemon":false,"threadState":%q,"priority":5,"stackTrace":[%s],"lockedMonitors":[%s],"lockedSynchronizers":[%s],"lockInfo":%s}`,
		g.name(i), 12+i, ownerID, ownerName, state, strings.Join(frames, ","), strings.Join(monitors, ","), strings.Join(syncs, ","), lockInfo)
}

// graphCycles are the cycles of the functional graph edge (i → edge[i]),
// each as its members' names sorted and joined, sorted.
func graphCycles(edge map[int]int, n int, name func(int) string) []string {
	var out []string
	done := make([]bool, n)
	for s := range n {
		if done[s] {
			continue
		}
		pos := map[int]int{}
		var path []int
		cur, ok := s, true
		for ok && !done[cur] {
			if i, seen := pos[cur]; seen {
				var ns []string
				for _, x := range path[i:] {
					ns = append(ns, name(x))
				}
				sort.Strings(ns)
				out = append(out, strings.Join(ns, ","))
				break
			}
			pos[cur] = len(path)
			path = append(path, cur)
			cur, ok = edge[cur]
		}
		for _, x := range path {
			done[x] = true
		}
	}
	sort.Strings(out)
	return out
}

// TestPermitHoldersProperty (issue 33, "the holder first" for a
// semaphore, which prints no owner): random bulkheads, written as jstack
// -l or ThreadInfo.toString() (8 frames a stack): waiters parked in
// Semaphore.acquire from one method's line, holders deeper in that method
// at the line after it, under I/O of random depth, threads past the
// release further down, others elsewhere. The permit's holders are named
// exactly when every holder's frames show the acquire's method (a stack
// cut above it may hide one: nothing is proven), and are then exactly the
// threads at the first line past the acquire.
func TestPermitHoldersProperty(t *testing.T) {
	const cases = 800
	rng := rand.New(rand.NewPCG(33, 8))
	named := 0
	for c := range cases {
		waiters, holders, after, others := 1+rng.IntN(6), 1+rng.IntN(4), rng.IntN(3), rng.IntN(3)
		cut := c%2 == 1 // ThreadInfo: 8 frames a stack
		depth := make([]int, holders)
		for i := range depth {
			depth[i] = 1 + rng.IntN(9)
		}
		var b strings.Builder
		if !cut {
			b.WriteString("2026-12-07 13:04:25\nFull thread dump OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1 mixed mode, sharing):\n\n")
		}
		id := 12
		thread := func(name, state string, frames []string, lock string) {
			id++
			if cut {
				fmt.Fprintf(&b, "%q prio=5 Id=%d %s", name, id, state)
				if lock != "" {
					fmt.Fprintf(&b, " on java.util.concurrent.Semaphore$NonfairSync@%s", lock)
				}
				b.WriteString("\n")
				for i, f := range frames {
					if i == 8 {
						b.WriteString("\t...\n")
						break
					}
					fmt.Fprintf(&b, "\tat %s\n", f)
					if i == 0 && lock != "" {
						fmt.Fprintf(&b, "\t-  waiting on java.util.concurrent.Semaphore$NonfairSync@%s\n", lock)
					}
				}
				b.WriteString("\n")
				return
			}
			fmt.Fprintf(&b, "%q #%d prio=5 os_prio=0 cpu=1.00ms elapsed=10.00s tid=0x%016x nid=0x%x runnable  [0x00007f0000000000]\n   java.lang.Thread.State: %s\n", name, id, 0x7f0000001000+id*0x100, id, state)
			for i, f := range frames {
				fmt.Fprintf(&b, "\tat %s\n", f)
				if i == 0 && lock != "" {
					fmt.Fprintf(&b, "\t- parking to wait for  <0x00000000f00%s> (a java.util.concurrent.Semaphore$NonfairSync)\n", lock)
				}
			}
			b.WriteString("\n   Locked ownable synchronizers:\n\t- None\n\n")
		}
		const call = "com.example.gen.Bulkhead.call(Bulkhead.java:%d)"
		tail := []string{"com.example.gen.Bulkhead.lambda$main$0(Bulkhead.java:50)", "java.lang.Thread.run(Thread.java:840)"}
		want := map[string]bool{}
		hidden := false
		for i := range holders {
			fs := []string{"sun.nio.ch.SocketDispatcher.read0(Native Method)"}
			for k := range depth[i] {
				fs = append(fs, fmt.Sprintf("java.io.Reader%d.read(Reader.java:%d)", k, 10+k))
			}
			fs = append(fs, "com.example.gen.Db.query(Db.java:20)", fmt.Sprintf(call, 32))
			name := fmt.Sprintf("fetcher-h%d", i)
			want[name] = true
			if cut && len(fs) > 8 {
				hidden = true // a holder the cut stack hides: nothing is proven
			}
			thread(name, "RUNNABLE", append(fs, tail...), "")
		}
		for i := range after {
			thread(fmt.Sprintf("fetcher-a%d", i), "TIMED_WAITING", append([]string{"java.lang.Thread.sleep(Native Method)", fmt.Sprintf(call, 36)}, tail...), "")
		}
		var ws []string
		for i := range waiters {
			name := fmt.Sprintf("fetcher-w%d", i)
			ws = append(ws, name)
			thread(name, "WAITING", append([]string{"jdk.internal.misc.Unsafe.park(Native Method)", "java.util.concurrent.locks.LockSupport.park(LockSupport.java:211)",
				"java.util.concurrent.locks.AbstractQueuedSynchronizer.acquireSharedInterruptibly(AbstractQueuedSynchronizer.java:1047)",
				"java.util.concurrent.Semaphore.acquire(Semaphore.java:318)", fmt.Sprintf(call, 30)}, tail...), "1b6d3586")
		}
		for i := range others {
			thread(fmt.Sprintf("other-%d", i), "TIMED_WAITING", []string{"java.lang.Thread.sleep(Native Method)", "com.example.gen.Other.run(Other.java:9)"}, "")
		}
		text := b.String()
		ds, err := parse.Parse(fmt.Sprintf("permits-%d", c), strings.NewReader(text))
		if err != nil || len(ds) != 1 {
			t.Fatalf("case %d: parse: %v\n%s", c, err, text)
		}
		if hidden {
			want = map[string]bool{}
		}
		dl := newDumpLocks(ds[0])
		for _, th := range ds[0].Threads {
			w, ok := dl.permitOf(th)
			if !slices.Contains(ws, th.Name()) {
				if ok {
					t.Fatalf("case %d: %s read as waiting for a permit\n%s", c, th.Name(), text)
				}
				continue
			}
			if !ok {
				t.Fatalf("case %d: %s not read as waiting for a permit\n%s", c, th.Name(), text)
			}
			got := map[string]bool{}
			for _, h := range w.holders {
				got[h.Name()] = true
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("case %d: %s's permit holders %v, want %v\n%s", c, th.Name(), got, want, text)
			}
			if len(want) > 0 {
				named++
			}
		}
	}
	t.Logf("%d random bulkheads, %d waiters tied to their holders", cases, named)
}
