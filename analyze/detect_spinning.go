package analyze

import (
	"slices"
	"strings"
	"time"

	"github.com/dumpdiff/dumpdiff/parse"
)

// The spinning detector's thresholds. What each protects against is said
// once, in the detector's Thresholds below (README.md's table is made from
// them; TestThresholdsBeside keeps each beside its detector).
const (
	SpinCPUShare     = 0.05
	SpinRestCPUShare = 0.2
	SpinMinWall      = 7
	SpinMinCPU       = 0.5
	SpinMinAge       = 6
	SpinLifeShare    = 0.3
	SpinMinElapsed   = 30
	SpinLoopWindow   = 8
	SpinTopShare     = 0.5
)

var spinningDetector = &Detector{
	Name:  KindSpinning,
	Kinds: []string{KindSpinning},
	Doc: "the same thread runnable in the same loop at every moment from its first, its CPU time growing with the wall clock " +
		"(JVM cpu=: SpinCPUShare of the wall and SpinMinCPU, whatever the span, whatever its top frame looks like: a spin hint, a yield, a sleep(0), a selector the application polls at SpinRestCPUShare; at one moment, cpu= SpinLifeShare of its elapsed=, or of its life by a ps row beside the dump, or of a javacore's JVM uptime), or the same goroutine running in the same functions at every moment given " +
		"(Go prints no CPU: the weaker evidence; running, runnable, or caught in the runtime's semaphore with its own code on top, an allocation waiting for the world the dump stopped; its loop may be caught in its own helpers, GoLoopAppDepth), or a JVM thread that prints no cpu= (JDK 8) in the same frames at every moment while others are blocked on a lock it holds, or in the same application frames over SpinMinWall, out of native code, while others wait for it (its task's result, a lock no thread prints as held when it is the one thread that could hold it: inferred) (the frames alone, said so), or, in one dump, threads RUNNABLE in code that loops for ever only over a corrupted structure " +
		"(a HashMap, TreeMap or NonBlockingHashMap written by threads at once: one thread in a tree bin's parent walk or allocation loop, several in one lookup, put or rebalancing, one more in any row of a structure so proven, or one with a CPU total past HotLoopCPU and no age, or one on a JDK 8-or-older hash bin's walk alone in a paste a person cut; the loop's shape, said so); " +
		"or, over three moments or more, two threads or more RUNNABLE in one back-off loop (its application methods at every moment, a yield or tryLock above them at some moment, CPU grown at every step: a livelock, livelock.go, whose thresholds are said there); " +
		"or, over two moments or more, two threads or more backing off (a short sleep, a timed park, a tryLock) under the same application function, the same frames below the back-off at every moment (a timed tryLock at one, a helper's sleep at another), each holding a lock of its own at every moment (a livelock of short sleeps, by the stacks' structure: livelock.go); " +
		"not one that came back to its application's code between moments while another of its pool came back in the same frames or a peer passes through its place (busy work, busyLikePeers); critical when threads wait for it (a lock it holds, a task of its pool), else busy work",
	Claims: ClaimsThreads,
	Folds:  "nothing; contention on a lock it holds and threads stuck on its tasks' results follow from it",
	Thresholds: []Threshold{
		{"SpinCPUShare", SpinCPUShare, "CPU time grown by at least this share of the wall time between the thread's first and last moment: " +
			"below it the thread was off CPU nearly all along, caught twice in the same frames; low because a runaway on a shared or " +
			"throttled host gets only its share of the cores (the fixtures' four spinning parsers got 10% each, 2 cores at load 12)"},
		{"SpinRestCPUShare", SpinRestCPUShare, "…and this share for a thread in a selector the application polls (RUNNABLE, as " +
			"the JVM prints any select): an idle selector's CPU grows by next to nothing, one serving traffic " +
			"by a little; a selectNow loop that returns at once got 45–68% on 2 shared cores (testdata/verdicts/*-spin-selectnow)"},
		{"SpinMinCPU", SpinMinCPU, "seconds of CPU a JVM thread burned in the same frames between its first and last moment (cpu=): the evidence " +
			"of a loop, whatever the span (issue 33: two pollers busy-waiting on a flag, dumps 3 s apart, a span of 6.1 s, 1.6 → 2.8 → 3.9 s of cpu=, " +
			"were missed under a minimum span). Below it, a computation of under half a second caught twice (dumps taken back to back), or a busy " +
			"worker of a loaded host caught in the same call (testdata/verdicts/jvm-busy-short-healthy: 0.4 s at load 12). Half a second, so that " +
			"a loop at 15% of a core (2 cores at load 12: testdata/verdicts/*-spin-flag-*, *-spin-restlook-*: 0.6–1.2 s) over dumps 2–3 s apart " +
			"stays over it whatever the jitter"},
		{"SpinMinAge", SpinMinAge, "…and, for a thread that has lived less than this many seconds at the last moment (elapsed=; no age " +
			"printed is no youth), a span of SpinMinWall as well: a thread that just started may be running the job it was started for " +
			"(a warm-up, a first load), all its young life in one place (testdata/verdicts/jvm-idle's scorers, a CPU job started with the " +
			"service: 2.8 and 4.8 s old at its last two dumps, 2 s apart). Over it: samurai's HighCPUExample in the corpus (a CPU loop, " +
			"dumps 1 s apart, 8.4 s old), the flag waiters here (8.3–11.3 s)"},
		{"SpinMinWall", SpinMinWall, "seconds between the first and last moment, when the dumps tell, where no CPU is printed (JDK 8, Go: the frames " +
			"alone) or the thread has lived less than SpinMinAge: dumps a few seconds apart catch a computation that lasts seconds (a request " +
			"parsing a large file), which the frames alone cannot tell from a loop; 7, not 10, so that three dumps on a 5 s schedule stay over " +
			"it whatever the jitter (a first attach is slower: 9.35–9.93 s in testdata/verdicts/*-spin-*, and date lines print whole seconds), " +
			"while two dumps 5 s apart stay under it"},
		{"SpinLifeShare", SpinLifeShare, "at one moment, cpu= at least this share of the thread's elapsed= " +
			"(or a ps row beside the dump: its %CPU is over the thread's life; or a javacore's CPU total against the JVM's uptime, a lower bound): " +
			"a busy thread is on CPU at the moment it is caught, a loop was on CPU for its life. Measured on the real dumps here " +
			"(TestLifeShareOnRealDumps): RUNNABLE application threads of the healthy and busy controls and of the corpus alive 30 s or more " +
			"were on CPU at most 2% of their life (few such threads: the busy controls are young); the runaways' hottest 35-97% in seven " +
			"fixtures, 12% and 25% in two taken at load 12 on 2 cores (two dumps find those); OpenTSDB's HashSet loop 67% in ps over 3.7 days. " +
			"0.5 missed the loops of a shared host. A pool sized to its cores that computes all its life looks the same in one moment: " +
			"said as busy work or a runaway"},
		{"SpinMinElapsed", SpinMinElapsed, "…and it has lived this many seconds: a thread started for a short job computes all its " +
			"young life (a batch export, a request)"},
		{"SpinTopShare", SpinTopShare, "a share of top's last interval (top -H beside the dump) that makes a running thread a notable line, " +
			"never a finding: a busy healthy thread is on CPU as much in top's few seconds (hashmap-busy-healthy's busy indexer: 53%)"},
		{"SpinLoopWindow", SpinLoopWindow, "top frames compared across moments: a loop's frames move within its body " +
			"(recursion depth, the line it is at), so the same loop is some function shared by these windows, under the same caller; " +
			"with cpu= printed, also the same application frames under library code of any depth, or a pool's run loop between " +
			"tasks under the task seen at another moment (its task frames gone at the safepoint)"},
		{"GoLoopAppDepth", GoLoopAppDepth, "in Go (no CPU printed), a goroutine's loop is the same across moments when a function common " +
			"to both windows is among the first this many application frames of each, with the same callers under it: a loop calling " +
			"helpers of its own package is caught in one at one moment, in itself at the next (go-stalls-ini-stuck); deeper, a request " +
			"that went on from one part of its handler to another would share its handler and be taken for one loop"},
	},
	Run: runSpinning,
}

// goPreemptFrames are the runtime frames a preempted goroutine shows on
// top of its own (a SIGQUIT traceback of a goroutine stopped mid-loop).
// Not a [roles] key: the Go runtime's own frames.
var goPreemptFrames = []string{"runtime.asyncPreempt", "runtime.asyncPreempt2", "runtime.gopreempt_m", "runtime.goschedImpl", "runtime.mcall"}

// ownFrames are t's frames without the runtime's preemption frames on top.
func ownFrames(t *parse.Thread) []*parse.Frame {
	fs := t.Frames
	for len(fs) > 0 && slices.Contains(goPreemptFrames, fs[0].Func) {
		fs = fs[1:]
	}
	return fs
}

// loopWindow are the functions of t's top SpinLoopWindow frames.
func loopWindow(t *parse.Thread) []string {
	fs := ownFrames(t)
	out := make([]string, 0, min(len(fs), SpinLoopWindow))
	for _, f := range fs[:min(len(fs), SpinLoopWindow)] {
		if !slices.Contains(out, f.Func) {
			out = append(out, f.Func)
		}
	}
	return out
}

// anchorOf is the frame a loop runs under: the first application frame,
// else the bottom frame.
func anchorOf(rt parse.Runtime, t *parse.Thread) string {
	if c := culprit(rt, t); c != nil {
		return c.Func
	}
	if len(t.Frames) > 0 {
		return t.Frames[len(t.Frames)-1].Func
	}
	return ""
}

// sameLoop: a and b run under the same caller, with a function in common
// among their top SpinLoopWindow frames (no allocation: a runnable-heavy
// dump compares every goroutine's stacks). Where the JVM printed cpu= for
// both, the CPU growth is the evidence and the frames need only say it is
// the same work: the same application frames under library code of any
// depth (a parser 20 frames deep, another place in it at each moment), or
// a pool's run loop between two tasks under the task seen at the other
// moment (sameAppPart, betweenTasks).
func sameLoop(rt parse.Runtime, a, b *parse.Thread) bool {
	if anchorOf(rt, a) == anchorOf(rt, b) {
		fa, fb := ownFrames(a), ownFrames(b)
		fa, fb = fa[:min(len(fa), SpinLoopWindow)], fb[:min(len(fb), SpinLoopWindow)]
		for _, x := range fa {
			for _, y := range fb {
				if x == y || x.Func == y.Func {
					return true
				}
			}
		}
	}
	if a.JVM != nil && b.JVM != nil && a.CPU == 0 && b.CPU == 0 {
		// JDK 8: the same application frames under library code of any
		// depth (a regex backtracking 40 frames deep) are the same work
		// too; such a thread spins only where others wait for it
		// (framesAlone), which is the evidence the frames lack.
		return javaTop(a) && javaTop(b) && sameAppPart(rt, a, b)
	}
	if a.JVM == nil && b.JVM == nil {
		return goSameLoop(rt, a, b)
	}
	if a.JVM == nil || b.JVM == nil || a.CPU == 0 || b.CPU == 0 {
		return false
	}
	return sameAppPart(rt, a, b) || betweenTasks(a, b) || betweenTasks(b, a) || inlinedTop(rt, a, b) || inlinedTop(rt, b, a)
}

// GoLoopAppDepth: in Go, the frames are all the evidence, the window
// decides. A loop that calls helpers of its own package is caught in one
// helper at one moment and in another, or in itself, at the next
// (example.com/stalls/ini.Parse ← nextLine at one moment, strings.TrimSpace
// ← Parse at the next: testdata/verdicts/go-stalls-ini-stuck), so the
// first application frame moves. It is the same loop when a function
// common to both windows is among the first GoLoopAppDepth application
// frames of each, with the same callers under it. What the depth protects:
// a request that went on from one part of its handler to another (reading
// its body, then matching it) shares its handler, deeper than that, and
// stays two places.
const GoLoopAppDepth = 2

// goSameLoop reports whether Go goroutines a and b run one loop by their
// frames (GoLoopAppDepth).
func goSameLoop(rt parse.Runtime, a, b *parse.Thread) bool {
	fa, fb := ownFrames(a), ownFrames(b)
	for i, x := range fa[:min(len(fa), SpinLoopWindow)] {
		if appDepth(rt, fa, i) > GoLoopAppDepth {
			break
		}
		for j, y := range fb[:min(len(fb), SpinLoopWindow)] {
			if x.Func != y.Func || !isAppFrame(rt, x) || appDepth(rt, fb, j) > GoLoopAppDepth {
				continue
			}
			if len(fa)-i != len(fb)-j {
				return false
			}
			for k := 1; i+k < len(fa); k++ {
				if fa[i+k].Func != fb[j+k].Func {
					return false
				}
			}
			return true
		}
	}
	return false
}

// appDepth is how many application frames fs holds from its top down to
// fs[i] included.
func appDepth(rt parse.Runtime, fs []*parse.Frame, i int) int {
	n := 0
	for _, f := range fs[:i+1] {
		if isAppFrame(rt, f) {
			n++
		}
	}
	return n
}

// inlinedTop reports whether b is a's stack without a's top frames (at
// most SpinLoopWindow), over an application frame: the callee a loop
// calls, inlined by the JIT, is printed at one safepoint and not at the
// next (a map's get inside its caller's loop: testdata/verdicts/
// jvm-spin-maps's session-index), so the frames that stay are the loop's.
func inlinedTop(rt parse.Runtime, a, b *parse.Thread) bool {
	k := len(a.Frames) - len(b.Frames)
	if k <= 0 || k > SpinLoopWindow || culprit(rt, b) == nil {
		return false
	}
	for i, f := range b.Frames {
		if f.Func != a.Frames[i+k].Func {
			return false
		}
	}
	return true
}

// javaTop reports whether t's top frame is Java code, not a native method.
func javaTop(t *parse.Thread) bool {
	return len(t.Frames) > 0 && t.Frames[0].Note != "Native Method"
}

// sameAppPart reports whether a and b have the same application frames
// (by function, innermost first; lines move with the loop's body), at
// least one: whatever library code runs above them, it runs for the same
// application call.
func sameAppPart(rt parse.Runtime, a, b *parse.Thread) bool {
	i, j, n := 0, 0, 0
	for {
		for i < len(a.Frames) && !isAppFrame(rt, a.Frames[i]) {
			i++
		}
		for j < len(b.Frames) && !isAppFrame(rt, b.Frames[j]) {
			j++
		}
		if i == len(a.Frames) || j == len(b.Frames) {
			return i == len(a.Frames) && j == len(b.Frames) && n > 0
		}
		if a.Frames[i].Func != b.Frames[j].Func {
			return false
		}
		i, j, n = i+1, j+1, n+1
	}
}

// betweenTasks reports whether a is a pool's worker in its run loop itself
// (ThreadPoolExecutor.runWorker on top, no application frame: between two
// tasks, or where the JIT's safepoint leaves a task inlined into it) and b
// runs a task under that same loop: a worker busy with its tasks back to
// back, as a pool that re-submits its own task is.
func betweenTasks(a, b *parse.Thread) bool {
	fa := ownFrames(a)
	if len(fa) == 0 || !anyPrefix(fa[0].Func, taskFrames) || culprit(parse.RuntimeJVM, a) != nil {
		return false
	}
	for _, f := range b.Frames {
		if f.Func == fa[0].Func {
			return true
		}
	}
	return false
}

// spinAnchor is the caller a spinner's finding is keyed and named by: the
// anchor of its latest stack with an application frame (a worker caught
// between two tasks shows none), else of its last.
func spinAnchor(rt parse.Runtime, sp spinner) *parse.Thread {
	for i := len(sp.stacks) - 1; i >= 0; i-- {
		if culprit(rt, sp.stacks[i]) != nil {
			return sp.stacks[i]
		}
	}
	return sp.stacks[len(sp.stacks)-1]
}

// loopCache remembers sameLoop by the two stacks' first frames' slots:
// goroutines with one stack share it in a parse (the build finds a slot
// by that address), so a pool of identical stacks is compared once a
// pair of moments. A stack without frames is never asked.
type loopCache struct {
	rt   parse.Runtime
	seen map[loopKey]bool
}

// loopKey is a pair of stacks: their frames' first slots and lengths.
type loopKey struct {
	a, b   **parse.Frame
	la, lb int
}

func (c *loopCache) same(a, b *parse.Thread) bool {
	k := loopKey{&a.Frames[0], &b.Frames[0], len(a.Frames), len(b.Frames)}
	if v, ok := c.seen[k]; ok {
		return v
	}
	v := sameLoop(c.rt, a, b)
	c.seen[k] = v
	return v
}

// loopFrames are the loop's frames, innermost first, at most 5, down to
// the first application frame (the loop is the code above the caller
// that entered it, library code included): the functions of the last
// stack's window found in every other stack's window.
func loopFrames(rt parse.Runtime, ts []*parse.Thread) []string {
	last := ts[len(ts)-1]
	fs := ownFrames(last)
	var out []string
	seen := map[string]bool{}
	for _, f := range fs[:min(len(fs), SpinLoopWindow)] {
		in := !seen[f.Func]
		for _, t := range ts[:len(ts)-1] {
			in = in && slices.Contains(loopWindow(t), f.Func)
		}
		if in && len(out) < 5 {
			seen[f.Func] = true
			out = append(out, FrameString(f))
		}
		if isAppFrame(rt, f) {
			break
		}
	}
	return out
}

// spinner is one thread found spinning: its stacks from moment since to
// the last, and what was measured.
type spinner struct {
	since  int
	stacks []*parse.Thread // moments since..n-1
	basis  string          // "cpu-growth", "cpu-lifetime" (and cpuLife's others), "same-frames" (Go), "same-frames-holder", "same-frames-awaited" (a JVM without cpu=), "loop-shape", "loop-shape-cut" (one thread alone in a paste: cutAlone)
	cpu    time.Duration   // grown (cpu-growth) or used in its life (cpu-lifetime); 0 for same-frames
	wall   time.Duration   // what cpu is measured over; 0 for same-frames
	known  *HotLoop        // the hot-loop table's row of a loop-shape spinner; nil otherwise
}

// runSpinning is the spinning threads by their CPU or frames, then the
// livelocks of threads that hold a lock while they back off (livelock.go).
func runSpinning(p *Pass) []Finding {
	return append(spinningThreads(p), heldBackOffs(p)...)
}

func spinningThreads(p *Pass) []Finding {
	r := p.R
	n := len(r.Moments)
	if n == 0 {
		return nil
	}
	// The running threads of the last moment by identity, in the order
	// met, then where each was at the moments before: only runnable
	// threads are visited (a few of a million goroutines), and only those
	// running at the last moment are kept (the rest cannot spin now).
	// (Each identity's moments are n entries of one flat slice, by the
	// identity's number: one allocation for them all, not one each.)
	running := 0
	for _, pl := range r.Pools {
		for _, g := range pl.States {
			if !pl.Internal && n-1 < len(g.Counts) && (g.Category == Running || r.Runtime == parse.RuntimeJVM) {
				running += g.Counts[n-1]
			}
		}
	}
	if running == 0 {
		return nil
	}
	index := make(map[threadID]int, running)
	flat := make([]*parse.Thread, 0, running*n)
	order := make([]threadID, 0, running)
	pools := make([]*Pool, 0, running)
	// The goroutine that wrote a runtime.Stack or debug=2 dump is the
	// dump's first, "running" (the others were stopped to be written:
	// runnable); its top frame is its caller's (runtime.Stack prints from
	// there), so it is told by place, not by frames. A crash's first
	// goroutine (SIGQUIT, panic) is one that was running: it is kept.
	writers := make([]*parse.Thread, n)
	for m, mo := range r.Moments {
		if d := mo.Dump; d != nil && r.Runtime == parse.RuntimeGo && d.Kind == "" && len(d.Threads) > 0 && d.Threads[0].State == "running" {
			writers[m] = d.Threads[0]
		}
	}
	// The thread writing the dump is the dump-writer state, not running;
	// an event loop is runnable while it waits (its own detector's).
	roles := p.opt.roleTable()
	// restTop marks, by identity, the threads found at a rest-looking top
	// (Roles.NotSpinning, or a wait the JVM prints RUNNABLE) at some moment:
	// they spin on the stronger CPU evidence only.
	var restTop []bool
	visit := func(m int, add bool) {
		for _, pl := range r.Pools {
			if pl.Internal {
				continue
			}
			for _, g := range pl.States {
				// Only running groups, but every group of a JVM (a few
				// thousand threads at most), whose waits it prints RUNNABLE
				// may spin (spinCandidate): a Go dump's million parked
				// goroutines are never visited.
				if m >= len(g.Threads) || g.Category != Running && r.Runtime != parse.RuntimeJVM {
					continue
				}
				for _, t := range g.Threads[m] {
					if t.Weight != 1 || len(t.Frames) == 0 || t == writers[m] || anyFramePrefix(t, roles.DumpWriters) ||
						(r.Runtime == parse.RuntimeJVM && anyFramePrefix(t, roles.EventLoops)) {
						continue
					}
					rest, ok := spinCandidate(p, m, g, t)
					if !ok {
						continue
					}
					id := identity(r.Runtime, t)
					if id == (threadID{}) {
						continue
					}
					i, ok := index[id]
					if !ok {
						if !add {
							continue
						}
						i = len(order)
						index[id] = i
						order = append(order, id)
						pools = append(pools, pl)
						restTop = append(restTop, false)
						flat = append(flat, make([]*parse.Thread, n)...)
					}
					flat[i*n+m] = t
					restTop[i] = restTop[i] || rest
				}
			}
		}
	}
	visit(n-1, true)
	if len(order) == 0 {
		return nil
	}
	for m := range n - 1 {
		visit(m, false)
	}
	lc := &loopCache{rt: r.Runtime, seen: map[loopKey]bool{}}
	type acc struct {
		pool  *Pool
		spins []spinner
	}
	// One finding per pool and caller.
	type key struct {
		pool   *Pool
		anchor string
	}
	var keys []key
	byKey := map[key]*acc{}
	var hot map[*parse.Thread]*HotLoop // the loops of the last moment by their shape (hotloops.go)
	var cutLone map[*parse.Thread]bool // …of them, those taken alone in a paste a person cut
	if r.Runtime == parse.RuntimeJVM {
		hot, cutLone = hotLoopsOf(r.Moments[n-1].Dump, roles.HotLoops)
	}
	sps := make([]spinner, len(order))
	spins := make([]bool, len(order))
	for i := range order {
		sp, ok := spinningAt(r, flat[i*n:(i+1)*n], lc, roles.CPUNatives)
		if ok && hot != nil {
			sp.known = hot[flat[i*n+n-1]] // CPU evidence, and a known loop's shape too: the map's loop, the application's fault
		}
		if !ok {
			sp, ok = loopShaped(flat[i*n:(i+1)*n], hot, cutLone, roles.HotLoops)
		}
		if !ok {
			sp, ok = livelockAt(r, flat[i*n:(i+1)*n], roles.BackOffs) // livelock.go
		}
		sps[i], spins[i] = sp, ok
	}
	came := make([]bool, len(order)) // spinners that came back to their application's code (cameBack)
	for i := range order {
		came[i] = spins[i] && sps[i].basis == "cpu-growth" && cameBack(r.Runtime, flat[i*n:(i+1)*n])
	}
	for i := range order {
		sp, ok := sps[i], spins[i]
		if !ok || restTop[i] && (sp.basis != "cpu-growth" || float64(sp.cpu) < SpinRestCPUShare*float64(sp.wall)) {
			continue
		}
		if sp.basis == "cpu-growth" && busyLikePeers(r.Runtime, i, n, flat, pools, spins, came, sp) {
			continue
		}
		k := key{pools[i], anchorOf(r.Runtime, spinAnchor(r.Runtime, sp))}
		if r.Runtime == parse.RuntimeGo {
			// One loop caught in different helpers (goSameLoop) is one
			// finding, under the key of the first met.
			last := sp.stacks[len(sp.stacks)-1]
			for _, o := range keys {
				os := byKey[o].spins[0].stacks
				if o.pool == k.pool && o != k && goSameLoop(r.Runtime, os[len(os)-1], last) {
					k = o
					break
				}
			}
		}
		a := byKey[k]
		if a == nil {
			a = &acc{pool: pools[i]}
			byKey[k] = a
			keys = append(keys, k)
		}
		a.spins = append(a.spins, sp)
	}
	// A JDK 8 thread spinning on its frames alone, the only one of the
	// dump, may be the owner of a lock that plain jstack prints threads
	// parked on but no owner of (inferOwner).
	alone := 0
	for _, k := range keys {
		for _, sp := range byKey[k].spins {
			if sp.basis == "same-frames-awaited" {
				alone++
			}
		}
	}
	var fs []Finding
	for _, k := range keys {
		if livelockFew(byKey[k].spins) {
			continue
		}
		if f, ok := spinningFinding(p, byKey[k].pool, byKey[k].spins, alone == 1); ok {
			fs = append(fs, f)
		}
	}
	return fs
}

// busyLikePeers reports whether spinner sp (identity i, its stacks by
// moment flat[i*n:(i+1)*n]) is busy work of its pool, not a loop: it came
// back to its application's code between moments (came[i], cameBack),
// and its pool's other work shows that code returns:
//
//   - another spinner of its pool came back too, in the same application
//     frames (by function) at the last moment: several threads running one
//     application loop that calls work which returns, as a pool of busy
//     workers does (testdata/verdicts/busy-peers-healthy: four validators
//     each caught twice under ValidatorPool.check, each in another call of
//     the regex engine at another moment);
//   - or a peer passes through its place: another thread of its pool, not
//     itself spinning, runnable at every moment of sp's streak, has sp's
//     last top frame (function and line) on top at one moment of the
//     streak and another at another: the pool's work reaches that frame
//     and leaves it (treemap-busy-healthy: writer-1 in Integer.valueOf at
//     moment 3, where two of its peers were too; hashset-busy-healthy:
//     writer-1 at putTreeVal:2168, with two peers that were in remove a
//     moment before).
//
// What it protects: a pool of busy workers whose CPU grows with the wall
// clock by design. A thread that never came back (a regex's backtracking
// under one matches, a corrupted map's loop under one put, a tokenizer at
// one line) keeps its finding whatever its peers do
// (busy-peers-runaway: validator-1 among three busy validators); so does
// a lone thread that came back (a reloader retrying for ever: nothing in
// the dumps tells it from a loop that serves, and the finding says "busy
// work, or a runaway"). One peer is enough: it proves the code returns.
func busyLikePeers(rt parse.Runtime, i, n int, flat []*parse.Thread, pools []*Pool, spins, came []bool, sp spinner) bool {
	if !came[i] {
		return false
	}
	s := flat[i*n : (i+1)*n]
	last := ownFrames(s[n-1])
	if len(last) == 0 {
		return false
	}
	place := last[0]
	for j := range pools {
		if j == i || pools[j] != pools[i] {
			continue
		}
		p := flat[j*n : (j+1)*n]
		if spins[j] {
			if came[j] && p[n-1] != nil && sameAppPart(rt, p[n-1], s[n-1]) {
				return true
			}
			continue
		}
		at, away := false, false
		for m := sp.since; m < n; m++ {
			if p[m] == nil || len(ownFrames(p[m])) == 0 {
				at, away = false, false
				break
			}
			if sameFrame(ownFrames(p[m])[0], place) {
				at = true
			} else {
				away = true
			}
		}
		if at && away {
			return true
		}
	}
	return false
}

// cameBack reports whether the thread whose stacks by moment are s came
// back to its application's code between moments: at some moment with
// application frames, those frames (functions and lines) or the call the
// innermost of them makes differ from another such moment's (sameAppCall).
// A moment without application frames (a pool's worker between two tasks)
// tells nothing either way.
func cameBack(rt parse.Runtime, s []*parse.Thread) bool {
	var ref *parse.Thread
	for _, t := range s {
		if t == nil || culprit(rt, t) == nil {
			continue
		}
		if ref == nil {
			ref = t
			continue
		}
		if !sameAppCall(rt, t, ref) {
			return true
		}
	}
	return false
}

// sameAppCall reports whether a and b have the same application frames
// and the innermost of them makes the same call: the thread has not left
// the call it was in, as far as the application's code can tell. The
// frames are compared by function and line, but for the innermost's line
// when it is the top frame (a loop in the application's own code is at
// one line of its body or another: ResubmitApp's RetryTask.run at lines
// 37 and 39); the call is the function of the frame above the innermost
// (none when it is the top). Threads without application frames never
// are (nothing to compare).
func sameAppCall(rt parse.Runtime, a, b *parse.Thread) bool {
	fa, ta := appCall(rt, a)
	fb, tb := appCall(rt, b)
	if len(fa) == 0 || len(fa) != len(fb) || ta != tb {
		return false
	}
	for k := range fa {
		if fa[k].Func != fb[k].Func || (k > 0 || ta != "") && fa[k].Line != fb[k].Line {
			return false
		}
	}
	return true
}

// appCall are t's application frames, innermost first, and the function
// the innermost calls ("" when it is the top frame).
func appCall(rt parse.Runtime, t *parse.Thread) ([]*parse.Frame, string) {
	var fs []*parse.Frame
	call := ""
	for k, f := range t.Frames {
		if isAppFrame(rt, f) {
			if len(fs) == 0 && k > 0 {
				call = t.Frames[k-1].Func
			}
			fs = append(fs, f)
		}
	}
	return fs, call
}

// sameFrame: the same function at the same line (frames of two dumps are
// not the same pointers).
func sameFrame(a, b *parse.Frame) bool {
	return a == b || a.Func == b.Func && a.Line == b.Line && a.Note == b.Note
}

// spinCandidate tells whether thread t of group g at moment m may be
// spinning, and whether only on the stronger evidence (rest): a running
// thread outside a selector may; a JVM thread the JVM prints RUNNABLE in a
// selector (Roles.NotSpinning: a select that returns at once looks like an
// idle one) may, on rest evidence, unless it is a library's own selector
// loop (busy with its traffic: the load's, not a loop of the
// application); a JVM thread in Thread.sleep printed RUNNABLE sleeps no
// time (a sleeping thread is TIMED_WAITING): a Thread.sleep(0) loop may,
// on the ordinary evidence. Other waits printed RUNNABLE (a socket read, a
// file read) are left out: a read that streams a large answer burns CPU
// in the same frames at every moment, and is no loop.
func spinCandidate(p *Pass, m int, g *Group, t *parse.Thread) (rest, ok bool) {
	// restTopFrames: the selectors' frames, from the role table
	// (Roles.NotSpinning, which a signatures file extends).
	restTopFrames := p.opt.roleTable().NotSpinning
	if p.R.Runtime != parse.RuntimeJVM {
		return false, g.Category == Running
	}
	if t.State != "RUNNABLE" || t.CPU == 0 {
		return false, g.Category == Running && !anyFramePrefix(t, restTopFrames)
	}
	if g.Category == Running && !anyFramePrefix(t, restTopFrames) {
		return false, true
	}
	if s := p.signature(m, t); s != nil && s.Resource == "time" {
		return false, true // a zero sleep
	}
	if !anyFramePrefix(t, restTopFrames) {
		return false, false
	}
	for _, f := range t.Frames {
		if anchorMatch(selectorLoops, f.Func) {
			return true, false
		}
	}
	return true, true
}

// spinningAt tells whether the thread whose stacks by moment are s spins
// at the last moment, and on what evidence.
func spinningAt(r *Result, s []*parse.Thread, lc *loopCache, natives []string) (spinner, bool) {
	n := len(s)
	last := s[n-1]
	if last == nil {
		return spinner{}, false
	}
	since := n - 1
	for since > 0 && s[since-1] != nil && lc.same(s[since-1], last) {
		since--
	}
	sp := spinner{since: since, stacks: s[since:]}
	first := s[since]
	if since < n-1 {
		wall := time.Duration(0)
		if first.JVM != nil && first.Elapsed > 0 && last.Elapsed > first.Elapsed {
			wall = last.Elapsed - first.Elapsed // the thread's own clock: exact between its two samples
		} else if t0, t1 := r.Moments[since].Time, r.Moments[n-1].Time; !t0.IsZero() && t1.After(t0) {
			wall = t1.Sub(t0)
		}
		if first.JVM != nil && first.CPU > 0 && last.CPU > 0 {
			// cpu= printed: the evidence is the CPU the thread burned in
			// these frames, whatever the span (cpuGrowthSpins).
			if wall == 0 {
				return lifetime(sp, last, r.Moments[n-1].Dump)
			}
			grown := last.CPU - first.CPU
			if float64(grown) < SpinCPUShare*float64(wall) {
				return spinner{}, false // measured, and it was off CPU
			}
			if !cpuGrowthSpins(last, grown, wall) {
				return lifetime(sp, last, r.Moments[n-1].Dump)
			}
			sp.basis, sp.cpu, sp.wall = "cpu-growth", grown, wall
			return sp, true
		}
		// No CPU printed (JDK 8, Go): the frames alone, over a span
		// long enough that a computation of seconds is not taken for a
		// loop (SpinMinWall).
		if wall > 0 && wall < SpinMinWall*time.Second {
			return lifetime(sp, last, r.Moments[n-1].Dump)
		}
		// A JVM that prints no cpu= (JDK 8) is not judged by its frames
		// alone: a RUNNABLE thread in a native call is as often blocked in
		// the kernel (waiting for a child process, a file watch) as
		// running, and a batch computing for minutes is work. But a thread
		// in the same loop at every moment given, not in a native call,
		// while others are blocked on a lock it holds at every moment, is
		// what an engineer calls it: spinning, on the frames alone (the
		// weaker evidence, said so). So is one in the same application
		// frames at every moment over SpinMinWall, out of native code but
		// for natives that return at once (Roles.CPUNatives), when others
		// wait for it at the last moment (a lock JDK 8's plain jstack
		// prints no owner of, a task's result, a latch its tasks count
		// down): runSpinning keeps it only then (same-frames-awaited).
		if first.JVM != nil {
			if first.CPU != 0 || last.CPU != 0 || since != 0 || sameDump(r.Moments[0].Dump, r.Moments[n-1].Dump) {
				return spinner{}, false
			}
			if heldAwaited(r, s) {
				sp.basis = "same-frames-holder"
				return sp, true
			}
			if wall >= SpinMinWall*time.Second && framesAlone(r.Runtime, s, natives) {
				sp.basis = "same-frames-awaited"
				return sp, true
			}
			return spinner{}, false
		}
		// Go prints no CPU time: the same frames at every moment given is
		// all there is (from a later moment only, a goroutine caught
		// twice), and the same dump given twice shows them too.
		if since != 0 || sameDump(r.Moments[since].Dump, r.Moments[n-1].Dump) {
			return lifetime(sp, last, r.Moments[n-1].Dump)
		}
		sp.basis = "same-frames"
		return sp, true
	}
	if n >= 2 {
		// Runnable now but not in this loop at the moment before (another
		// loop, or not runnable while it was alive then): not a loop that
		// has gone on, whatever its life's share.
		if s[n-2] != nil {
			return spinner{}, false
		}
		if t0, t1 := r.Moments[n-2].Time, r.Moments[n-1].Time; !t0.IsZero() && t1.Sub(t0) >= SpinMinWall*time.Second &&
			last.JVM != nil && last.Elapsed > t1.Sub(t0) {
			return spinner{}, false
		}
	}
	return lifetime(sp, last, r.Moments[n-1].Dump)
}

// cpuGrowthSpins reports whether a JVM thread that burned grown of CPU
// over wall in the same frames (last is its stack at the last moment), at
// least SpinCPUShare of wall already, spins on that evidence: at least
// SpinMinCPU of CPU in those frames, and, for a thread that has lived
// under SpinMinAge at the last moment (elapsed=; no age printed is no
// evidence of youth), a span of SpinMinWall as well. What each protects
// is said in the detector's Thresholds.
func cpuGrowthSpins(last *parse.Thread, grown, wall time.Duration) bool {
	if grown < time.Duration(SpinMinCPU*float64(time.Second)) {
		return false
	}
	young := last.Elapsed > 0 && last.Elapsed < SpinMinAge*time.Second
	return !young || wall >= SpinMinWall*time.Second
}

// framesAlone reports whether the thread whose stacks by moment are s is,
// at every moment, in the application's frames with Java code or a native
// of natives (one that returns at once) on top: a JVM thread that prints
// no cpu= and computes, not one blocked in the kernel under a native call.
func framesAlone(rt parse.Runtime, s []*parse.Thread, natives []string) bool {
	for _, t := range s {
		if t == nil || t.JVM == nil || t.State != "RUNNABLE" || culprit(rt, t) == nil {
			return false
		}
		if !javaTop(t) && !anchorMatch(natives, t.Frames[0].Func) {
			return false
		}
	}
	return true
}

// heldAwaited reports whether the thread whose stacks by moment are s is,
// at every moment, out of native code and holding a lock another thread of
// that moment's dump waits to take.
func heldAwaited(r *Result, s []*parse.Thread) bool {
	for m, t := range s {
		d := r.Moments[m].Dump
		if t == nil || d == nil || len(t.Frames) == 0 || t.Frames[0].Note == "Native Method" {
			return false
		}
		held := map[string]bool{}
		for _, l := range t.Locks() {
			if (l.Kind == parse.LockHeld || l.Kind == parse.LockOwnable) && l.Address != "" && !releasedByWait(t, l.Address) {
				held[l.Address] = true
			}
		}
		awaited := false
		for _, w := range d.Threads {
			if a, _ := waitsFor(w); a != "" && w != t && held[a] {
				awaited = true
				break
			}
		}
		if !awaited {
			return false
		}
	}
	return true
}

// sameDump reports whether a and b are the same dump given twice (a file
// copied, one capture passed under two names): the same threads in the
// same states and frames. It stops at the first difference, which two
// real moments show at once (the goroutine writing the dump is another).
func sameDump(a, b *parse.Dump) bool {
	if a == nil || b == nil || a == b {
		return a == b
	}
	if len(a.Threads) != len(b.Threads) || !a.Time.Equal(b.Time) {
		return false
	}
	for i, x := range a.Threads {
		y := b.Threads[i]
		if x.ID != y.ID || x.State != y.State || x.Name() != y.Name() || len(x.Frames) != len(y.Frames) || x.Java().CPU != y.Java().CPU {
			return false
		}
		for j, f := range x.Frames {
			if g := y.Frames[j]; f.Func != g.Func || f.Line != g.Line {
				return false
			}
		}
	}
	return true
}

// lifetime is the one-moment rule: a JVM thread (of dump d) on CPU most
// of a long enough life (cpuLife: cpu= against elapsed=, a ps row beside
// the dump, a javacore's CPU total against the JVM's uptime).
func lifetime(sp spinner, last *parse.Thread, d *parse.Dump) (spinner, bool) {
	cpu, life, from := cpuLife(last, d)
	if !onCPULife(cpu, life) {
		return spinner{}, false
	}
	sp.since, sp.stacks = sp.since+len(sp.stacks)-1, sp.stacks[len(sp.stacks)-1:]
	sp.basis, sp.cpu, sp.wall = from, cpu, life
	return sp, true
}

// spinningFinding is one finding for the spinning threads of one pool
// under one caller, with who waits for them at the last moment; none
// (false) for threads found on their frames alone that nobody waits for
// (same-frames-awaited). inferOwner: the spinners may own the locks no
// thread of the dump prints as its own.
func spinningFinding(p *Pass, pl *Pool, spins []spinner, inferOwner bool) (Finding, bool) {
	r := p.R
	n := len(r.Moments)
	last := spins[0].stacks[len(spins[0].stacks)-1]
	top := ownFrames(last)[0]
	f := Finding{Kind: KindSpinning, Severity: Warning, Pool: pl.Name, State: "running",
		Counts: make([]int, n), PoolCounts: pl.Counts, At: n - 1, Since: n - 1, Frame: FrameString(top), Culprit: FrameString(top),
		Loop: loopFrames(r.Runtime, spins[0].stacks), Basis: spins[0].basis}
	named := spinAnchor(r.Runtime, spins[0])
	f.ID = findingID(KindSpinning, pl.Name, anchorOf(r.Runtime, named))
	f.Known = spins[0].known
	if c := sharer(r.Runtime, last, p.opt.roleTable().HotLoops); c != nil && f.Known != nil {
		// A map's loop: the loop is the map's, the fault the
		// application's that shares it; its frame is the culprit.
		f.Culprit = FrameString(c)
	} else if c := culprit(r.Runtime, named); c != nil && !slices.Contains(f.Loop, FrameString(c)) {
		f.Caller = FrameString(c)
	}
	tops, ents := map[*parse.Frame]int{}, map[entryKey]int{}
	names := make([][]string, n)
	var lastThreads []*parse.Thread
	claims := make([]int, n)
	for _, sp := range spins {
		for i := range sp.stacks {
			claims[sp.since+i]++
		}
	}
	awaitedOnly := true
	for _, sp := range spins {
		awaitedOnly = awaitedOnly && sp.basis == "same-frames-awaited"
	}
	var claimed []*parse.Thread // by moment, in the order of spins' stacks
	for _, sp := range spins {
		f.Since = min(f.Since, sp.since)
		for i, t := range sp.stacks {
			m := sp.since + i
			f.Counts[m]++
			if len(names[m]) < 5 {
				names[m] = append(names[m], threadLabel(r.Runtime, t))
			}
			claimed = append(claimed, t)
		}
		t := sp.stacks[len(sp.stacks)-1]
		lastThreads = append(lastThreads, t)
		tops[ownFrames(t)[0]]++ // by the interned frame: a string once per distinct frame, below
		if e := p.info(n-1, t).entry; e.fn != "" {
			ents[e]++
		}
		if sp.basis != spins[0].basis {
			f.Basis = "mixed"
		}
		if sp.cpu > 0 {
			f.CPU += sp.cpu
			f.CPUThreads++
			f.Wall = max(f.Wall, sp.wall)
		}
	}
	f.FromStart = f.Since == 0 && n > 1
	byString := map[string]int{}
	for fr, c := range tops {
		byString[FrameString(fr)] += c
	}
	f.Culprits = ranked(byString)
	f.Entries = rankedEntries(ents)
	for m, ns := range names {
		if f.Counts[m] > 0 {
			f.Evidence = append(f.Evidence, Evidence{Moment: m, Count: f.Counts[m], Threads: ns})
		}
	}
	inferred := spinWaiters(p, &f, lastThreads, inferOwner && awaitedOnly)
	if awaitedOnly && f.Waiting == 0 {
		return Finding{}, false // the frames alone, and nobody waits: a computation, not a finding
	}
	if f.Waiting > 0 {
		f.Severity = Critical
	}
	for m, c := range claims {
		p.reserveClaims(m, c)
	}
	i := 0
	for _, sp := range spins {
		for j := range sp.stacks {
			p.ClaimThread(sp.since+j, claimed[i], f.ID)
			i++
		}
	}
	// The waiters of a lock whose owner is inferred have no contention
	// finding (no owner printed): they follow from the spinner.
	for _, w := range inferred {
		p.ClaimThread(n-1, w, f.ID)
	}
	return f, true
}

// spinWaiters fills in who waits for the spinning threads ts at the last
// moment: threads blocked on a lock one of them holds (the lock with most
// waiters is f.Lock), and threads waiting for a task's result, or on a
// latch the tasks count down, that the spinning threads' entry point was
// submitted from (javac names a lambda
// after the method defining it: a waiter in RequestHandler.handle waits
// for a task whose entry is RequestHandler.lambda$handle$0).
//
// inferOwner (JDK 8, one thread spinning on its frames alone): threads
// parked on a lock no thread prints as held wait for the spinners too;
// they are returned.
func spinWaiters(p *Pass, f *Finding, ts []*parse.Thread, inferOwner bool) []*parse.Thread {
	r := p.R
	m := len(r.Moments) - 1
	d := r.Moments[m].Dump
	if d == nil {
		return nil
	}
	mine := map[*parse.Thread]bool{}
	for _, t := range ts {
		mine[t] = true
	}
	var waiters []*parse.Thread
	var inferred unowned
	var claim []*parse.Thread
	perLock := map[lockKey][]*parse.Thread{}
	var lockOrder []lockKey
	owner := map[lockKey]*parse.Thread{}
	addLock := func(k lockKey, ws []*parse.Thread, o *parse.Thread) {
		if len(ws) == 0 {
			return
		}
		if perLock[k] == nil {
			lockOrder = append(lockOrder, k)
		}
		perLock[k] = append(perLock[k], ws...)
		owner[k] = o
		waiters = append(waiters, ws...)
	}
	switch r.Runtime {
	case parse.RuntimeJVM:
		held := map[string]*parse.Thread{}
		for _, t := range ts {
			for _, l := range t.Locks() {
				if (l.Kind == parse.LockHeld || l.Kind == parse.LockOwnable) && l.Address != "" && !releasedByWait(t, l.Address) {
					held[l.Address] = t
				}
			}
		}
		if len(held) > 0 {
			byAddr := map[lockKey][]*parse.Thread{}
			var ks []lockKey
			for _, t := range d.Threads {
				if a, c := waitsFor(t); a != "" && held[a] != nil && !mine[t] {
					k := lockKey{a, c}
					if byAddr[k] == nil {
						ks = append(ks, k)
					}
					byAddr[k] = append(byAddr[k], t)
				}
			}
			for _, k := range ks {
				addLock(k, byAddr[k], held[k.addr])
			}
		}
		if inferOwner {
			// JDK 8's plain jstack (and kill -3) prints the threads parked
			// on a java.util.concurrent lock but not its owner: with one
			// thread of the dump spinning in the same frames at every
			// moment, that thread is the owner an engineer would name,
			// said as inferred (LockFact.OwnerInferred).
			inferred = unownedLockWaiters(r.Runtime, d, mine)
			for _, k := range inferred.keys {
				addLock(k, inferred.waiters[k], ts[0])
				claim = append(claim, inferred.waiters[k]...)
			}
		}
	case parse.RuntimeGo:
		if m < len(p.goLocks) {
			gl := p.goLocks[m]
			var ks []lockKey
			for k, o := range gl.held {
				if mine[o] {
					ks = append(ks, k)
				}
			}
			slices.SortFunc(ks, func(a, b lockKey) int { return strings.Compare(a.addr+a.class, b.addr+b.class) })
			for _, k := range ks {
				addLock(k, gl.waiters[k], gl.held[k])
			}
		}
	}
	// Task waiters: the lambdas the spinning threads run, by the prefix a
	// waiter's culprit gives.
	var lambdas []string
	for _, e := range f.Entries {
		if i := strings.Index(e.Func, ".lambda$"); i >= 0 {
			rest := e.Func[i+len(".lambda$"):]
			if j := strings.IndexByte(rest, '$'); j >= 0 {
				lambdas = append(lambdas, e.Func[:i]+"."+rest[:j])
			}
		}
	}
	if len(lambdas) > 0 {
		for _, t := range d.Threads {
			if mine[t] {
				continue
			}
			// A future's result, or a latch (CountDownLatch, a barrier,
			// a phaser) the tasks count down: a latch has no owner to
			// print, so the waiter's method and the tasks' lambdas are the
			// link, as for a future.
			s := p.signature(m, t)
			if s == nil || s.Resource != "task-result" && s.Resource != "latch" {
				continue
			}
			c := culprit(r.Runtime, t)
			if c != nil && slices.Contains(lambdas, c.Func) {
				waiters = append(waiters, t)
			}
		}
	}
	f.Waiting = 0
	seen := map[*parse.Thread]bool{}
	for _, t := range waiters {
		if seen[t] {
			continue
		}
		seen[t] = true
		f.Waiting += max(t.Weight, 1)
		if len(f.Blocked) < 10 {
			ref := p.ref(m, t)
			if a, c := waitsFor(t); a != "" {
				ref.WaitsFor = &LockRef{Address: a, Class: c}
			} else if t.WaitAddr != "" {
				ref.WaitsFor = &LockRef{Address: t.WaitAddr, Class: goLockClass(t)}
			}
			f.Blocked = append(f.Blocked, ref)
		}
	}
	best := -1
	for i, k := range lockOrder {
		if best < 0 || len(perLock[k]) > len(perLock[lockOrder[best]]) {
			best = i
		}
	}
	if best >= 0 {
		k := lockOrder[best]
		o := p.ref(m, owner[k])
		f.Lock = &LockFact{Address: k.addr, Class: k.class, Owner: &o, OwnerInferred: r.Runtime == parse.RuntimeGo || inferred.waiters[k] != nil}
		for i := range f.Blocked {
			if w := f.Blocked[i].WaitsFor; w != nil && w.Address == k.addr {
				w.Holder = o.Name
			}
		}
	}
	return claim
}

// unowned are the java.util.concurrent locks threads of a dump park on
// that no thread of it prints as held, with their waiters, in the order met.
type unowned struct {
	keys    []lockKey
	waiters map[lockKey][]*parse.Thread
}

// unownedLockWaiters are the threads of d, but mine, parked on a
// java.util.concurrent lock (waitsFor's parking kind) no thread of d prints
// among its held or ownable locks: a dump taken without -l. None when
// another thread of d could as well be the owner: one in the
// application's code, not waiting on such a lock, that runs or is runnable
// (in a socket read, a child process: a holder blocked in I/O) or sleeps.
func unownedLockWaiters(rt parse.Runtime, d *parse.Dump, mine map[*parse.Thread]bool) unowned {
	owned := map[string]bool{}
	for _, t := range d.Threads {
		for _, l := range t.Locks() {
			if l.Kind == parse.LockHeld || l.Kind == parse.LockOwnable {
				owned[l.Address] = true
			}
		}
	}
	u := unowned{waiters: map[lockKey][]*parse.Thread{}}
	parked := map[*parse.Thread]bool{}
	for _, t := range d.Threads {
		if mine[t] {
			continue
		}
		for _, l := range t.Locks() {
			if l.Kind != parse.LockParking || l.Address == "" || owned[l.Address] || !isLockClass(l.Class) {
				continue
			}
			k := lockKey{l.Address, l.Class}
			if u.waiters[k] == nil {
				u.keys = append(u.keys, k)
			}
			u.waiters[k] = append(u.waiters[k], t)
			parked[t] = true
			break
		}
	}
	for _, t := range d.Threads {
		if mine[t] || parked[t] || culprit(rt, t) == nil {
			continue
		}
		if t.State == "RUNNABLE" || len(t.Frames) > 0 && t.Frames[0].Func == "java.lang.Thread.sleep" {
			return unowned{} // another could hold it
		}
	}
	return u
}
