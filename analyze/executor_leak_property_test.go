package analyze

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// ownerNaming is how a world's thread owners name their threads, and the
// stack a thread of theirs rests in: Executors.defaultThreadFactory's,
// Netty's and a ForkJoinPool's "id then member", a team's own factory,
// and a java.util.Timer's one thread per owner (Timer-N, or a name given
// to the timer). Stacks as OpenJDK 17 prints them (testdata/verdicts/
// execleak-*, testdata/libs/jvm-roles-pool-ids).
type ownerNaming struct {
	format   string // one %d: the owner's id; a second: the member
	member0  int    // the first member number
	perOwner bool   // one thread per owner (no member)
	rest     string // the resting stack's frames
	want     string // the pool the finding names
}

const (
	restGetTask = "\tat jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)\n" +
		"\t- parking to wait for  <0x00000000fd3718a8> (a java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject)\n" +
		"\tat java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:341)\n" +
		"\tat java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await(java.base@17.0.15/AbstractQueuedSynchronizer.java:1630)\n" +
		"\tat java.util.concurrent.LinkedBlockingQueue.take(java.base@17.0.15/LinkedBlockingQueue.java:435)\n" +
		"\tat java.util.concurrent.ThreadPoolExecutor.getTask(java.base@17.0.15/ThreadPoolExecutor.java:1062)\n" +
		"\tat java.util.concurrent.ThreadPoolExecutor.runWorker(java.base@17.0.15/ThreadPoolExecutor.java:1122)\n" +
		"\tat java.util.concurrent.ThreadPoolExecutor$Worker.run(java.base@17.0.15/ThreadPoolExecutor.java:635)\n" +
		"\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)\n"
	restTimer = "\tat java.lang.Object.wait(java.base@17.0.15/Native Method)\n" +
		"\t- waiting on <0x00000000fc4d2220> (a java.util.TaskQueue)\n" +
		"\tat java.lang.Object.wait(java.base@17.0.15/Object.java:338)\n" +
		"\tat java.util.TimerThread.mainLoop(java.base@17.0.15/Timer.java:537)\n" +
		"\t- locked <0x00000000fc4d2220> (a java.util.TaskQueue)\n" +
		"\tat java.util.TimerThread.run(java.base@17.0.15/Timer.java:516)\n"
	restForkJoin = "\tat jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)\n" +
		"\t- parking to wait for  <0x00000000fc5a1f10> (a java.util.concurrent.ForkJoinPool)\n" +
		"\tat java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:341)\n" +
		"\tat java.util.concurrent.ForkJoinPool.awaitWork(java.base@17.0.15/ForkJoinPool.java:1724)\n" +
		"\tat java.util.concurrent.ForkJoinPool.runWorker(java.base@17.0.15/ForkJoinPool.java:1623)\n" +
		"\tat java.util.concurrent.ForkJoinWorkerThread.run(java.base@17.0.15/ForkJoinWorkerThread.java:165)\n"
	restNetty = "\tat sun.nio.ch.EPoll.wait(java.base@17.0.15/Native Method)\n" +
		"\tat sun.nio.ch.EPollSelectorImpl.doSelect(java.base@17.0.15/EPollSelectorImpl.java:118)\n" +
		"\tat sun.nio.ch.SelectorImpl.lockAndDoSelect(java.base@17.0.15/SelectorImpl.java:129)\n" +
		"\tat sun.nio.ch.SelectorImpl.select(java.base@17.0.15/SelectorImpl.java:146)\n" +
		"\tat io.netty.channel.nio.SelectedSelectionKeySetSelector.select(SelectedSelectionKeySetSelector.java:68)\n" +
		"\tat io.netty.channel.nio.NioEventLoop.select(NioEventLoop.java:803)\n" +
		"\tat io.netty.channel.nio.NioEventLoop.run(NioEventLoop.java:457)\n" +
		"\tat io.netty.util.concurrent.SingleThreadEventExecutor$4.run(SingleThreadEventExecutor.java:989)\n" +
		"\tat io.netty.util.internal.ThreadExecutorMap$2.run(ThreadExecutorMap.java:74)\n" +
		"\tat io.netty.util.concurrent.FastThreadLocalRunnable.run(FastThreadLocalRunnable.java:30)\n" +
		"\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)\n"
	// A task an owner's thread runs (work, not rest).
	busyTask = "\tat com.example.report.ReportService.compute(ReportService.java:41)\n" +
		"\tat java.util.concurrent.FutureTask.run(java.base@17.0.15/FutureTask.java:264)\n" +
		"\tat java.util.concurrent.ThreadPoolExecutor.runWorker(java.base@17.0.15/ThreadPoolExecutor.java:1136)\n" +
		"\tat java.util.concurrent.ThreadPoolExecutor$Worker.run(java.base@17.0.15/ThreadPoolExecutor.java:635)\n" +
		"\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)\n"
)

var ownerNamings = []ownerNaming{
	{format: "pool-%d-thread-%d", member0: 1, rest: restGetTask, want: "pool-*-thread-*"},
	{format: "report-%d-worker-%d", member0: 1, rest: restGetTask, want: "report-*-worker-*"},
	{format: "nioEventLoopGroup-%d-%d", member0: 1, rest: restNetty, want: "nioEventLoopGroup-*-*"},
	{format: "ForkJoinPool-%d-worker-%d", member0: 1, rest: restForkJoin, want: "ForkJoinPool-*-worker-*"},
	{format: "Timer-%d", perOwner: true, rest: restTimer, want: "Timer-*"},
	{format: "reminder-%d", perOwner: true, rest: restTimer, want: "reminder-*"},
}

// ownerWorld is a process over moments: its owners' ids alive at each,
// with how many threads each and whether they work (a task) or rest.
type ownerWorld struct {
	naming  ownerNaming
	kind    string             // "leak", "shutdown", "handful", "turnover"
	moments []map[int][]member // by moment: owner id → its threads
}

type member struct {
	n    int  // member number (ignored per owner)
	busy bool // in a task
}

// newOwnerWorld draws a world of kind over n moments.
func newOwnerWorld(rng *rand.Rand, naming ownerNaming, kind string, n int) ownerWorld {
	w := ownerWorld{naming: naming, kind: kind}
	k := 1 + rng.IntN(3) // threads an owner keeps
	if naming.perOwner {
		k = 1
	}
	members := func(busy bool) []member {
		out := make([]member, k)
		for j := range out {
			out[j] = member{n: naming.member0 + j, busy: busy}
		}
		return out
	}
	next := 1 + rng.IntN(5) // ids the process made before
	switch kind {
	case "leak":
		// c0 owners already leaked, then r more between each two moments
		// (a slow leak below OwnerLeakMin in all, or a fast one), never
		// shut down; a few may end (a timer collected) within OwnerLeakKept.
		c0 := rng.IntN(60)
		var r int
		if rng.IntN(3) == 0 {
			r = 1 + rng.IntN(OwnerLeakMin/2)
		} else {
			r = OwnerLeakMin + rng.IntN(80)
		}
		alive := map[int][]member{}
		for range c0 {
			alive[next] = members(false)
			next++
		}
		for m := range n {
			if m > 0 {
				ids := slices.Sorted(maps.Keys(alive))
				rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
				if len(ids) < 20 {
					ids = nil // a few ending among many, not most of a few
				}
				for _, id := range ids[:rng.IntN(len(ids)/20+1)] {
					delete(alive, id)
				}
				for range r {
					alive[next] = members(false)
					next++
				}
			}
			w.moments = append(w.moments, cloneOwners(alive))
		}
	case "shutdown":
		// Made per request and shut down: at a moment only the requests in
		// flight have theirs, working or between their tasks.
		for range n {
			at := map[int][]member{}
			for range rng.IntN(12) { // a handful in flight: more busy threads would be a rise of their own
				at[next] = members(rng.IntN(4) != 0)
				next++
			}
			next += rng.IntN(200) // made and shut down between the moments
			w.moments = append(w.moments, at)
		}
	case "handful":
		at := map[int][]member{}
		for range 1 + rng.IntN(5) {
			at[next] = members(false)
			next += 1 + rng.IntN(2)
		}
		for range n {
			m := cloneOwners(at)
			for id, ms := range m {
				for j := range ms {
					ms[j].busy = rng.IntN(3) == 0
				}
				m[id] = ms
			}
			w.moments = append(w.moments, m)
		}
	case "turnover":
		// One owner whose idle threads end and new ones take their place.
		num := naming.member0
		for range n {
			var ms []member
			for range rng.IntN(5) {
				num += 1 + rng.IntN(30)
				ms = append(ms, member{n: num, busy: rng.IntN(2) == 0})
			}
			m := map[int][]member{}
			if len(ms) > 0 {
				m[next] = ms
			}
			w.moments = append(w.moments, m)
		}
	}
	return w
}

func cloneOwners(m map[int][]member) map[int][]member {
	out := map[int][]member{}
	for k, v := range m {
		out[k] = slices.Clone(v)
	}
	return out
}

// dump writes moment m of the world as jstack -l prints it, beside a few
// threads of the application's own (main, its request threads).
func (w ownerWorld) dump(m int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "2026-12-07 22:%02d:%02d\nFull thread dump OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1 mixed mode, sharing):\n\n", m/12, (m*5)%60)
	thread := func(name string, tid int, busy bool, rest string) {
		fmt.Fprintf(&b, "\"%s\" #%d prio=5 os_prio=0 cpu=1.00ms elapsed=%d.00s tid=0x00007f21b8%06x nid=0x%x ", name, tid, 10+5*m, tid, tid)
		switch {
		case busy:
			b.WriteString("runnable  [0x00007f21bcc36000]\n   java.lang.Thread.State: RUNNABLE\n" + busyTask)
		case strings.Contains(rest, "Object.wait"):
			b.WriteString("in Object.wait()  [0x00007f21bcc36000]\n   java.lang.Thread.State: WAITING (on object monitor)\n" + rest)
		case strings.Contains(rest, "EPoll.wait"):
			b.WriteString("runnable  [0x00007f21bcc36000]\n   java.lang.Thread.State: RUNNABLE\n" + rest)
		default:
			b.WriteString("waiting on condition  [0x00007f21bcc36000]\n   java.lang.Thread.State: WAITING (parking)\n" + rest)
		}
		b.WriteString("\n   Locked ownable synchronizers:\n\t- None\n\n")
	}
	fmt.Fprintf(&b, "\"main\" #1 prio=5 os_prio=0 cpu=300.00ms elapsed=%d.00s tid=0x00007f21b8000001 nid=0x1 waiting on condition  [0x00007f21bef1e000]\n"+
		"   java.lang.Thread.State: TIMED_WAITING (sleeping)\n\tat java.lang.Thread.sleep(java.base@17.0.15/Native Method)\n"+
		"\tat com.example.report.Client.main(Client.java:70)\n\n   Locked ownable synchronizers:\n\t- None\n\n", 10+5*m)
	for i := 1; i <= 4; i++ {
		thread(fmt.Sprintf("http-%d", i), 1+i, false, restGetTask)
	}
	for _, id := range slices.Sorted(maps.Keys(w.moments[m])) {
		for _, mb := range w.moments[m][id] {
			name := fmt.Sprintf(w.naming.format, id)
			if !w.naming.perOwner {
				name = fmt.Sprintf(w.naming.format, id, mb.n)
			}
			thread(name, 1000*id+mb.n, mb.busy, w.naming.rest)
		}
	}
	return b.String()
}

// TestExecutorLeakProperty: over random worlds (naming conventions, ids
// with gaps, threads per owner, owners leaked at random rates with a few
// ending, made and shut down per request, a handful made at start,
// turnover inside one pool), cut to random moments and pasted in random
// shapes (a compose prefix, a code block's indent, CRLF), a leak is found
// when its owners at rest made between the first and last moment given
// reach OwnerLeakMin (critical from OwnerLeakFar, the live count rising at
// every moment), on its family's pool and with no other finding; a
// moment alone, or the same owners throughout, warn from more than
// PoolIDLeak owners at rest; and the controls make no finding at all.
func TestExecutorLeakProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 77))
	shapes := []func(string) string{
		func(s string) string { return s },
		func(s string) string { return prefixLines(s, "app-1  | ") },
		func(s string) string { return prefixLines(s, "    ") },
		func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") },
	}
	kinds := []string{"leak", "shutdown", "handful", "turnover"}
	seen := map[string]int{}
	for trial := range 400 {
		naming := ownerNamings[rng.IntN(len(ownerNamings))]
		kind := kinds[rng.IntN(len(kinds))]
		if kind == "turnover" && naming.perOwner {
			kind = "shutdown" // a timer has no members to turn over
		}
		n := 1 + rng.IntN(4)
		w := newOwnerWorld(rng, naming, kind, n)
		// A cut: some of the moments, in order.
		var cut []int
		for m := range n {
			if rng.IntN(4) != 0 || m == n-1 && len(cut) == 0 {
				cut = append(cut, m)
			}
		}
		shape := shapes[rng.IntN(len(shapes))]
		var in []Input
		for _, m := range cut {
			ds, err := parse.Parse(fmt.Sprintf("%d.txt", m+1), strings.NewReader(shape(w.dump(m))))
			if err != nil || len(ds) != 1 {
				t.Fatalf("trial %d: parsing moment %d: %v (%d dumps)", trial, m, err, len(ds))
			}
			in = append(in, Input{Dump: ds[0]})
		}
		wantBasis, wantSev := w.expect(cut)
		r := Analyze(in, Options{})
		var got []string
		for _, f := range r.Findings {
			got = append(got, fmt.Sprintf("%s %s %s %s", f.Kind, f.Pool, f.Basis, f.Severity))
		}
		var want []string
		if wantBasis != "" {
			want = []string{fmt.Sprintf("%s %s %s %s", KindLeaked, naming.want, wantBasis, wantSev)}
		}
		seen[kind+" "+wantBasis+" "+wantSev.String()]++
		if !slices.Equal(got, want) {
			var sizes []int
			for _, m := range w.moments {
				sizes = append(sizes, len(m))
			}
			t.Fatalf("trial %d: %s of %q, moments %v of %d (owners %v, threads %v): findings %q, want %q", trial, kind, naming.format, cut, n, sizes, r.Totals, got, want)
		}
	}
	// Every outcome was drawn, or the worlds prove less than they say.
	for _, k := range []string{"leak executor-leak critical", "leak executor-leak warning", "leak executor-crowd warning", "leak  info",
		"shutdown  info", "handful  info", "turnover  info"} {
		if seen[k] == 0 {
			t.Errorf("no world drew %q (drawn: %v)", k, seen)
		}
	}
}

// expect is the verdict the world's truth calls for over the moments of
// cut: a leak of owners made meanwhile and kept, or a crowd of owners at
// rest at every moment given; "" when none.
func (w ownerWorld) expect(cut []int) (string, Severity) {
	if w.kind != "leak" {
		return "", Info
	}
	first, last := w.moments[cut[0]], w.moments[cut[len(cut)-1]]
	made := 0
	for id := range last {
		if _, ok := first[id]; !ok {
			made++
		}
	}
	kept, rose := 1.0, true
	for i := 0; i+1 < len(cut); i++ {
		a, b := w.moments[cut[i]], w.moments[cut[i+1]]
		rose = rose && len(b) > len(a)
		if len(a) == 0 {
			continue
		}
		still := 0
		for id := range a {
			if _, ok := b[id]; ok {
				still++
			}
		}
		kept = min(kept, float64(still)/float64(len(a)))
	}
	if len(cut) >= 2 && kept >= OwnerLeakKept && made >= OwnerLeakMin {
		if rose && made >= OwnerLeakFar {
			return BasisExecutorLeak, Critical
		}
		return BasisExecutorLeak, Warning
	}
	if len(cut) >= 2 && kept < OwnerLeakKept {
		return "", Info
	}
	for _, m := range cut {
		if len(w.moments[m]) <= PoolIDLeak {
			return "", Info
		}
	}
	return BasisExecutorCrowd, Warning
}

func prefixLines(s, pre string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = pre + l
	}
	return strings.Join(lines, "\n") + "\n"
}
