package analyze

import (
	"maps"
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// Hand-offs with nobody on the other side (issue 33: "waits by structure",
// "the producer side of a hand-off"). A hand-off wait has a side: a latch's
// waiter waits for its counters, a barrier's party for the parties still to
// come, a producer for a taker, a consumer for a producer, a join for the
// thread's end, a future's get for its task, awaitTermination for the
// pool's end. no_signaller.go tells an application's own monitor that no
// thread is left to signal; this widens its rule to every JDK hand-off, for
// the thread the program waits on: no thread of any moment can be the
// other side when, by the structure of every other thread's stack,
//   - none runs, sleeps, is blocked on a lock or waits with a deadline
//     (each could act when it goes on): every other application thread
//     waits untimed itself (the would-be counters, takers or signallers
//     wait, for the waiter among others), or rests idle in an executor's
//     loop (getTask, awaitWork: it runs only what someone submits, and the
//     one who would submit is the waiter), a scheduled executor's timed
//     rest and a timer's excepted (a task is due: it runs);
//   - the process takes no calls from outside (callbacksIn: no thread
//     serves, no GUI event thread): a request could still serve it;
//   - the waiter stays: the very same thread in the same wait at every
//     moment given, its cpu= not grown (it was not let through and came
//     back, as a barrier's party is every round).
//
// The threshold is one thread, because the waiter is the program's entry
// thread (main, its static main on the stack): main waiting is the whole
// program waiting, and the one thread that ends the program cannot end.
// Any other lone waiter is left to the rules that see more threads (stuck's
// floors, orphanedWaits, noSignallerWaits): a thread of its own alone in a
// hand-off can be a service's parked helper, which main's dump tells apart
// only with main. One moment is said as a Warning (one dump cannot show
// that the wait stays); every moment of two or more as Critical.

// peerWait is one kind of hand-off wait: the frames a waiter waits in
// (anchors, among its top 16 frames) and, for the sentence, what it waits
// on and what its other side would do. Data, beside the signatures.
type peerWait struct {
	// Kind names the row in a signatures file: its [roles] key
	// "handoff-KIND" adds a team's own frames of this kind of hand-off
	// (Roles.HandOffs).
	Kind    string
	Anchors []string
	What    string // "a CountDownLatch"
	Peer    string // what the other side does: "count it down"
	// Timed: the wait always has a deadline (awaitTermination), and it is
	// the caller's loop around it that stays; any other timed wait ends by
	// its deadline, and is no hand-off stuck.
	Timed bool
	// Rest: main also parks here by design until the process is told to
	// end (a shutdown latch a hook counts down, a monitor or a Condition
	// a hook signals, a queue a command arrives on): with no thread tied
	// to the wait in the dumps, nothing tells a counter that is gone from
	// one that has not come yet (testdata/libs/jvm-idle-kotlinx, a
	// healthy service's main on its shutdown latch), and nothing is
	// said. A join is one too: a joined thread is alive, so one
	// the dumps tie to no thread is main itself
	// (Thread.currentThread().join(), parking main for good:
	// testdata/libs/jvm-roles-renamed-common-pool-idle).
	Rest bool
}

// peerWaits are the hand-off waits, by the first of their frames met from
// the top (a FutureTask's get parks in awaitDone; a join waits in
// Object.wait): tested on the stacks of testdata/verdicts/handoff-*. A
// signatures file's "handoff-KIND" adds a team's own frames to the row of
// that Kind (Roles.HandOffs).
var peerWaits = []peerWait{
	{Anchors: []string{"java.util.concurrent.CountDownLatch.await"}, Kind: "latch", What: "a CountDownLatch", Peer: "count it down", Rest: true},
	{Anchors: []string{"java.util.concurrent.CyclicBarrier.await", "java.util.concurrent.CyclicBarrier.dowait"}, Kind: "barrier", What: "a CyclicBarrier", Peer: "arrive at it"},
	{Anchors: []string{"java.util.concurrent.Phaser.arriveAndAwaitAdvance", "java.util.concurrent.Phaser.awaitAdvance*"}, Kind: "phaser", What: "a Phaser", Peer: "arrive at it"},
	{Anchors: []string{"java.util.concurrent.Exchanger.exchange"}, Kind: "exchanger", What: "an Exchanger", Peer: "exchange with it"},
	{Anchors: []string{"java.util.concurrent.SynchronousQueue.put", "java.util.concurrent.SynchronousQueue.offer"}, Kind: "sync-put", What: "a SynchronousQueue", Peer: "take from it"},
	{Anchors: []string{"java.util.concurrent.LinkedTransferQueue.transfer", "java.util.concurrent.LinkedTransferQueue.tryTransfer"}, Kind: "transfer", What: "a LinkedTransferQueue", Peer: "take from it"},
	{Anchors: []string{"java.util.concurrent.ArrayBlockingQueue.put", "java.util.concurrent.ArrayBlockingQueue.offer",
		"java.util.concurrent.LinkedBlockingQueue.put", "java.util.concurrent.LinkedBlockingQueue.offer",
		"java.util.concurrent.LinkedBlockingDeque.put*", "java.util.concurrent.LinkedBlockingDeque.offer*"}, Kind: "queue-put", What: "a full BlockingQueue", Peer: "take from it"},
	{Anchors: []string{"java.util.concurrent.ArrayBlockingQueue.take", "java.util.concurrent.LinkedBlockingQueue.take",
		"java.util.concurrent.LinkedBlockingDeque.take*", "java.util.concurrent.SynchronousQueue.take", "java.util.concurrent.LinkedTransferQueue.take",
		"java.util.concurrent.PriorityBlockingQueue.take"}, Kind: "queue-take", What: "an empty BlockingQueue", Peer: "put into it", Rest: true},
	{Anchors: []string{"java.io.PipedInputStream.awaitSpace"}, Kind: "pipe-write", What: "a full pipe", Peer: "read from it"},
	{Anchors: []string{"java.io.PipedInputStream.read"}, Kind: "pipe-read", What: "an empty pipe", Peer: "write to it", Rest: true},
	{Anchors: []string{"java.lang.Thread.join"}, Kind: "join", What: "a thread's end", Peer: "end", Rest: true},
	{Anchors: []string{"java.util.concurrent.FutureTask.get", "java.util.concurrent.FutureTask.awaitDone",
		"java.util.concurrent.CompletableFuture.get", "java.util.concurrent.CompletableFuture.join", "java.util.concurrent.CompletableFuture.waitingGet",
		"java.util.concurrent.ForkJoinTask.join", "java.util.concurrent.ForkJoinTask.get"}, Kind: "task-result", What: "a task's result", Peer: "complete it"},
	{Anchors: []string{"java.util.concurrent.ThreadPoolExecutor.awaitTermination", "java.util.concurrent.ForkJoinPool.awaitTermination"},
		Kind: "termination",
		What: "an executor's termination", Peer: "shut it down or finish its tasks", Timed: true},
	{Anchors: []string{"java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await*"}, Kind: "condition", What: "a Condition", Peer: "signal it", Rest: true},
	{Anchors: []string{"java.lang.Object.wait", "java.lang.Object.wait0"}, Kind: "monitor", What: "a monitor's notify", Peer: "notify it", Rest: true},
}

// peerWaitOf is the hand-off t waits on: the first row of peerWaits one
// of its top 16 frames matches, so that a library's wait names itself
// before the Condition or monitor it waits in (a barrier's await parks on
// a Condition, a join waits in Object.wait); nil when none.
//
// A row's frames are its own and those roles adds to its kind
// (Roles.HandOffs: a team's own latch is a latch).
func peerWaitOf(t *parse.Thread, roles *Roles) *peerWait {
	top := t.Frames[:min(len(t.Frames), 16)]
	for i := range peerWaits {
		own := roles.HandOffs[peerWaits[i].Kind]
		for _, f := range top {
			if anchorMatch(peerWaits[i].Anchors, f.Func) || own != nil && anchorMatch(own, f.Func) {
				return &peerWaits[i]
			}
		}
	}
	return nil
}

// basisNoPeer is the basis of noPeerWaits' findings.
const basisNoPeer = "no-peer"

// noPeerWaits are the stuck findings (basis "no-peer") of the entry
// thread's hand-off waits that no thread of any moment can serve, said
// only where no other stuck finding is (told): the threads main's wait
// waits for are then stuck themselves, and their finding is the story.
func noPeerWaits(p *Pass, told bool) []Finding {
	r := p.R
	n := len(r.Moments)
	if r.Runtime != parse.RuntimeJVM || n == 0 || told {
		return nil
	}
	last := r.Moments[n-1].Dump
	if last == nil {
		return nil
	}
	var fs []Finding
	for _, w := range last.Threads {
		pw := peerWaitOf(w, p.opt.roleTable())
		if pw == nil || w.State != "WAITING" && !(pw.Timed && w.State == "TIMED_WAITING") {
			continue
		}
		role := waiterRole(p, last, w)
		hook := role == WaiterHook
		if role == "" && (!entryWait(w) || runsHooks(w)) {
			continue // main in System.exit waits for its hooks: they are the story
		}
		pl, g := groupHolding(r, n-1, w)
		if g == nil || pl.Internal || p.explainedBy(g, n-1) != "" {
			continue
		}
		at, ok := stayedWaiting(p, w, pw)
		if !ok || hook && !hookAtEvery(p, at) || role == WaiterUI && !uiAtEvery(at) {
			continue
		}
		if served := servable(p, at, pw); served {
			continue
		}
		f := groupFinding(KindStuck, pl, g, n-1)
		f.ID = findingID(KindStuck, "no-peer", threadLabel(r.Runtime, w))
		f.Basis = basisNoPeer
		f.Severity = Critical
		if n == 1 {
			f.Severity = Warning // one dump cannot show that the wait stays
		}
		f.Since, f.FromStart = 0, true
		f.Same, f.Always = 1, 1
		f.Counts = make([]int, n)
		f.Evidence = nil
		for m := range n {
			f.Counts[m] = 1
			f.Evidence = append(f.Evidence, Evidence{Moment: m, Count: 1, Threads: []string{threadLabel(r.Runtime, at[m])}})
		}
		var peers []*parse.Thread
		f.Awaits, peers = awaitFact(p, n-1, w, pw)
		if pw.Rest && len(peers) == 0 && role == "" && !counterGone(p, at, pw) {
			continue // main's park until it is told to end looks the same (peerWait.Rest)
		}
		if toldPeer(p, n-1, peers) {
			continue // a tied thread's finding tells it: main follows from it
		}
		fs = append(fs, f)
	}
	return fs
}

// toldPeer: another finding explains one of the threads tied to main's
// wait at moment m (a pool's tasks stuck at a barrier, a deadlock's
// threads, a common pool starved): that is the story, one per cause.
func toldPeer(p *Pass, m int, peers []*parse.Thread) bool {
	for _, t := range peers {
		if p.ThreadClaim(m, t) != "" {
			return true
		}
	}
	return false
}

// groupHolding is the pool and group that hold thread t at moment m.
func groupHolding(r *Result, m int, t *parse.Thread) (*Pool, *Group) {
	for _, pl := range r.Pools {
		for _, g := range pl.States {
			if m < len(g.Threads) {
				for _, x := range g.Threads[m] {
					if x == t {
						return pl, g
					}
				}
			}
		}
	}
	return nil, nil
}

// stayedWaiting finds w, by identity, at every moment in the same
// hand-off wait under the same caller, its cpu= grown by less than
// CPURanMin between any two (an untimed wait costs none; a thread let
// through that came back used some): the thread at each moment.
func stayedWaiting(p *Pass, w *parse.Thread, pw *peerWait) ([]*parse.Thread, bool) {
	r := p.R
	id := identity(r.Runtime, w)
	if id == (threadID{}) {
		return nil, false
	}
	c := FrameString(culprit(r.Runtime, w))
	at := make([]*parse.Thread, len(r.Moments))
	for m, mo := range r.Moments {
		if mo.Dump == nil {
			return nil, false
		}
		for _, t := range mo.Dump.Threads {
			if identity(r.Runtime, t) == id {
				at[m] = t
				break
			}
		}
		t := at[m]
		if t == nil || peerWaitOf(t, p.opt.roleTable()) != pw || FrameString(culprit(r.Runtime, t)) != c || t.State != w.State {
			return nil, false
		}
		if m > 0 {
			if a, b := at[m-1].Java().CPU, t.Java().CPU; a > 0 && b > 0 && b-a >= CPURanMin {
				return nil, false
			}
		}
	}
	return at, true
}

// servable: at some moment a thread could be the other side of the waits
// at (the waiter at each moment), or the process takes calls that could,
// or its application threads are not the same at every moment (one that
// began or ended between the dumps is life: a gathering that opened and
// filled again, a counter that came and went).
func servable(p *Pass, at []*parse.Thread, pw *peerWait) bool {
	roles := p.opt.roleTable()
	var ids map[threadID]bool
	for m := range at {
		now := map[threadID]bool{}
		for _, t := range p.R.Moments[m].Dump.Threads {
			if !jvmInternal(t, roles.JVMInternal) && !t.NoStack {
				now[identity(p.R.Runtime, t)] = true
			}
		}
		if ids != nil && !maps.Equal(ids, now) {
			return true
		}
		ids = now
	}
	for m, w := range at {
		d := p.R.Moments[m].Dump
		if callbacksInBut(p, m, d, w) {
			return true
		}
		for _, t := range d.Threads {
			if t != w && canServe(p, m, t, w) {
				return true
			}
		}
	}
	return false
}

// canServe: thread t of moment m could still act on w's wait: an
// application's thread (not the JVM's own) that is not waiting untimed
// itself, not blocked on a lock w holds, and not at rest in an executor's
// loop with nothing due (its idle workers run only what is submitted). A
// thread whose state is not printed could be doing anything: it could.
func canServe(p *Pass, m int, t, w *parse.Thread) bool {
	roles := p.opt.roleTable()
	if jvmInternal(t, roles.JVMInternal) || t.NoStack {
		return false
	}
	switch t.State {
	case "":
		return true
	case "WAITING":
		return false
	case "BLOCKED":
		return !holdsWaitedLock(w, t)
	}
	if idleWorker(p, m, t) {
		return false
	}
	if si := p.info(m, t); si.sig != nil && si.state == dumpWriterState {
		return false // the thread that prints the dump
	}
	return true
}

// idleWorker: t rests idle in an executor's loop (getTask, awaitWork)
// with nothing due: it runs only what someone submits. A scheduled
// executor's timed rest has a task due, and is not idle so.
func idleWorker(p *Pass, m int, t *parse.Thread) bool {
	si := p.info(m, t)
	return si.sig != nil && si.sig.Category == Idle && restLoop(t, si.state) == "executor" && !anyFramePrefix(t, scheduledRests)
}

// holdsWaitedLock: t is blocked on a monitor or lock that w holds.
func holdsWaitedLock(w, t *parse.Thread) bool {
	addr, _ := waitsFor(t)
	if addr == "" {
		return false
	}
	for _, l := range w.Locks() {
		if (l.Kind == parse.LockHeld || l.Kind == parse.LockOwnable) && l.Address == addr {
			return true
		}
	}
	return false
}

// awaitFact says what w, at moment m, waits on and who is tied to its
// wait: the threads parked or waiting on the same object, the thread its
// join or get waits for (joinTies, a FutureTask's runner that waits), the
// threads running code its waiting method wrote (not for a join: a
// thread main joins is the one joinTies finds, or main itself, and
// main's other lambdas are not it); the rest of the application's
// threads counted, waiting or idle. peers are the tied threads.
func awaitFact(p *Pass, m int, w *parse.Thread, pw *peerWait) (a *AwaitFact, peers []*parse.Thread) {
	r := p.R
	d := r.Moments[m].Dump
	a = &AwaitFact{What: pw.What, Peer: pw.Peer, Address: waitedAddress(w), Waiter: waiterRole(p, d, w), Timed: pw.Timed}
	site, _, how := joinSite(w)
	if site == "" {
		site = handOffCaller(r.Runtime, w, p.opt.roleTable())
	}
	join := how == "Thread.join"
	tied := map[*parse.Thread]bool{}
	for t, ties := range joinTies(d, func(t *parse.Thread) bool { return idleWorker(p, m, t) }) {
		for _, j := range ties {
			if j.waiter == w {
				tied[t] = true
			}
		}
	}
	roles := p.opt.roleTable()
	if a.Waiter == WaiterHook && (join || pw.Kind == "termination") && len(tied) == 0 {
		// A hook joins a thread of the program that ran before the
		// shutdown, or awaits its executor's end: joinTies finds no
		// lambda of the hook's method on it (the hook's code and the
		// thread's are siblings), so every such thread that waits
		// untimed is what it may wait for.
		for _, t := range hookJoinees(p, d, w) {
			tied[t] = true
		}
	}
	runner := hookRunner(d)
	for _, t := range d.Threads {
		if t == w || jvmInternal(t, roles.JVMInternal) || t.NoStack || a.Waiter == WaiterHook && t == runner {
			continue // the hooks' runner waits for the hook: no other side
		}
		peer := tied[t] || a.Address != "" && waitedAddress(t) == a.Address ||
			!join && site != "" && runsCodeOf(t, site) ||
			pw.Peer == "complete it" && inTop(t, futureRuns, len(t.Frames)) && t.State == "WAITING"
		switch {
		case peer:
			peers = append(peers, t)
			if len(a.Peers) == 5 {
				break
			}
			ref := p.ref(m, t)
			if addr := waitedAddress(t); addr != "" {
				ref.WaitsFor = &LockRef{Address: addr, Class: waitedClass(t)}
			}
			ref.Waits = true
			a.Peers = append(a.Peers, ref)
		case idleWorker(p, m, t):
			a.Idle += max(t.Weight, 1)
		default:
			a.Waiting += max(t.Weight, 1)
		}
	}
	return a, peers
}

// waitedAddress is the object t parks on or waits on, as printed; "" when
// none is.
func waitedAddress(t *parse.Thread) string {
	if k, ok := waitedMonitor(t); ok {
		return k.addr
	}
	for _, l := range t.Locks() {
		if l.Kind == parse.LockParking && l.Address != "" {
			return l.Address
		}
	}
	return ""
}

// waitedClass is the class of what t parks on or waits on; "" when none.
func waitedClass(t *parse.Thread) string {
	if k, ok := waitedMonitor(t); ok {
		return k.class
	}
	for _, l := range t.Locks() {
		if l.Kind == parse.LockParking && l.Address != "" {
			return l.Class
		}
	}
	return ""
}

// handOffCaller is the function that waits in w's hand-off: its culprit,
// or, where the culprit is a team's own hand-off frame (Roles.HandOffs:
// its latch is code outside the JDK, as the code that waits in it is),
// the first application frame below that hand-off's frames; "" when none.
func handOffCaller(rt parse.Runtime, w *parse.Thread, roles *Roles) string {
	c := culprit(rt, w)
	if c == nil {
		return ""
	}
	own := func(fn string) bool {
		for _, anchors := range roles.HandOffs {
			if anchorMatch(anchors, fn) {
				return true
			}
		}
		return false
	}
	if len(roles.HandOffs) == 0 || !own(c.Func) {
		return c.Func
	}
	for i, f := range w.Frames {
		if f == c {
			for _, g := range w.Frames[i+1:] {
				if !own(g.Func) && isAppFrame(rt, g) {
					return g.Func
				}
			}
			return ""
		}
	}
	return c.Func
}

// counterGone: main's latch with no thread tied to it is not its park
// until shutdown but a latch whose counters died (threw or returned
// before their countDown), by structure, at every moment of at (the
// waiter, main, at each):
//   - the latch is awaited under no method whose name says it waits for
//     the process's end (Roles.ShutdownWaits: Threads.awaitShutdown,
//     blockUntilShutdown, keepAlive): a service's main parks on its
//     shutdown latch in one, or right in main;
//   - and the would-be counters are there at rest, or the wait is work's:
//     an executor's workers idle in its loop (a ThreadPoolExecutor starts
//     a worker only for a task it is given: idle workers ran tasks that
//     ended, the latch still closed), or the latch is awaited in a method
//     of the program's own below main (loadAll, warmUp: a step of the
//     work, with the tasks' threads gone at every moment).
//
// What is left quiet: a latch awaited right in main with nothing else
// alive (main, a hook's latch, and no thread at all: the common shutdown
// idiom looks the same), and every latch under a shutdown-named method.
func counterGone(p *Pass, at []*parse.Thread, pw *peerWait) bool {
	if pw.Kind != "latch" {
		return false
	}
	w := at[len(at)-1]
	roles := p.opt.roleTable()
	for _, f := range appFramesBelowWait(w, pw, roles) {
		name := strings.ToLower(methodName(f.Func))
		for _, word := range roles.ShutdownWaits {
			if strings.Contains(name, word) {
				return false
			}
		}
	}
	if c := culprit(p.R.Runtime, w); c == nil || methodName(c.Func) != "main" {
		return true // awaited in a step of the work, not main's own park
	}
	for m, x := range at {
		idle := false
		for _, t := range p.R.Moments[m].Dump.Threads {
			if t != x && idleWorker(p, m, t) {
				idle = true
				break
			}
		}
		if !idle {
			return false
		}
	}
	return true
}

// appFramesBelowWait are w's application frames below its hand-off's
// frames (the latch's caller down to main).
func appFramesBelowWait(w *parse.Thread, pw *peerWait, roles *Roles) []*parse.Frame {
	var out []*parse.Frame
	in := false
	for _, f := range w.Frames {
		if !in {
			in = anchorMatch(pw.Anchors, f.Func) || roles.HandOffs[pw.Kind] != nil && anchorMatch(roles.HandOffs[pw.Kind], f.Func)
			continue
		}
		if isAppFrame(parse.RuntimeJVM, f) {
			out = append(out, f)
		}
	}
	return out
}

// methodName is a JVM frame function's method: "loadAll" of
// "com.example.App.loadAll(App.java:12)".
func methodName(fn string) string {
	fn, _, _ = strings.Cut(fn, "(")
	if i := strings.LastIndexByte(fn, '.'); i >= 0 {
		return fn[i+1:]
	}
	return fn
}

// shutdownHookRuns are the frames of the thread that runs a JVM's shutdown
// hooks and joins each (the SIGTERM handler, System.exit's caller, or
// DestroyJavaVM after the last non-daemon thread ended).
var shutdownHookRuns = []string{"java.lang.ApplicationShutdownHooks.runHooks"}

// runsHooks: t runs the JVM's shutdown hooks.
func runsHooks(t *parse.Thread) bool { return anyFramePrefix(t, shutdownHookRuns) }

// hookRunner is the thread of d that runs the shutdown hooks; nil when
// the JVM is not shutting down.
func hookRunner(d *parse.Dump) *parse.Thread {
	if d == nil {
		return nil
	}
	for _, t := range d.Threads {
		if runsHooks(t) {
			return t
		}
	}
	return nil
}

// hookThread: t is a shutdown hook of a JVM running its hooks in d: an
// application thread other than the runner, started no earlier than it
// (its elapsed= no greater: runHooks starts each hook; a thread of the
// program ran before the shutdown began). A dump without elapsed= (JDK 8)
// cannot tell a hook from the threads it joins: none is taken for one.
func hookThread(p *Pass, d *parse.Dump, t *parse.Thread) bool {
	r := hookRunner(d)
	if r == nil || t == r || jvmInternal(t, p.opt.roleTable().JVMInternal) || t.NoStack {
		return false
	}
	re, te := r.Java().Elapsed, t.Java().Elapsed
	return re > 0 && te > 0 && te <= re
}

// hookAtEvery: each moment's thread of at is a hook of a JVM running its
// hooks (the shutdown began before the first dump and never ended).
func hookAtEvery(p *Pass, at []*parse.Thread) bool {
	for m, t := range at {
		if !hookThread(p, p.R.Moments[m].Dump, t) {
			return false
		}
	}
	return true
}

// hookJoinees are the threads of d a hook w may be joining: application
// threads of the program (older than the shutdown: no hooks, not the
// runner) that wait untimed.
func hookJoinees(p *Pass, d *parse.Dump, w *parse.Thread) []*parse.Thread {
	r := hookRunner(d)
	var out []*parse.Thread
	for _, t := range d.Threads {
		if t == w || t == r || t.State != "WAITING" || jvmInternal(t, p.opt.roleTable().JVMInternal) || t.NoStack || hookThread(p, d, t) {
			continue
		}
		out = append(out, t)
	}
	return out
}

// linkHandOffWaiters names, on each stuck finding of fs (not a no-peer
// one: its waiter is the finding), the threads of the last moment that
// wait untimed on a hand-off its threads would serve: a waiter (main, a
// request thread) whose hand-off's caller wrote the code a stuck thread
// runs (main's fetchPrices awaits the latch its lambdas count down after
// a read with no deadline; a join or a get of them). The chain is told
// from the cause: the stuck threads first, their waiters following, and
// the waiters get no finding of their own (noPeerWaits says nothing where
// another stuck finding is).
func linkHandOffWaiters(p *Pass, fs []Finding) {
	r := p.R
	n := len(r.Moments)
	if r.Runtime != parse.RuntimeJVM || n == 0 || r.Moments[n-1].Dump == nil {
		return
	}
	m, d := n-1, r.Moments[n-1].Dump
	roles := p.opt.roleTable()
	for _, w := range d.Threads {
		if w.State != "WAITING" || jvmInternal(w, roles.JVMInternal) || peerWaitOf(w, roles) == nil {
			continue
		}
		site := handOffCaller(r.Runtime, w, roles)
		if s, _, _ := joinSite(w); s != "" {
			site = s
		}
		if site == "" {
			continue
		}
		wi := p.info(m, w)
		for i := range fs {
			f := &fs[i]
			if f.Kind != KindStuck || f.Basis == basisNoPeer || wi.pool == f.Pool && wi.sig != nil && wi.sig.ID == f.State {
				continue
			}
			for _, t := range d.Threads {
				if t == w || !runsCodeOf(t, site) {
					continue
				}
				if ti := p.info(m, t); ti.sig != nil && ti.pool == f.Pool && ti.sig.ID == f.State {
					ref := p.ref(m, w)
					ref.Waits = true
					if addr := waitedAddress(w); addr != "" {
						ref.WaitsFor = &LockRef{Address: addr, Class: waitedClass(w)}
					}
					f.WaitedBy = append(f.WaitedBy, ref)
					break
				}
			}
		}
	}
}

// uiDispatch are frames under which a UI toolkit's event thread runs one
// event's handler: AWT/Swing's dispatch of an event (not its rest, which
// waits in EventQueue.getNextEvent under pumpOneEventForFilters), JavaFX's
// and SWT's run loops (their rest is a native poll, no hand-off). A wait
// above one is the handler's: the UI dispatches nothing while it lasts.
var uiDispatch = []string{
	"java.awt.EventQueue.dispatchEvent",
	"com.sun.glass.ui.gtk.GtkApplication._runLoop", "com.sun.glass.ui.win.WinApplication._runLoop", "com.sun.glass.ui.mac.MacApplication._runLoop",
	"org.eclipse.swt.widgets.Display.readAndDispatch",
}

// uiThread: t is a UI's event thread in an event's handler.
func uiThread(t *parse.Thread) bool { return anyFramePrefix(t, uiDispatch) }

// uiAtEvery: the waiter is in an event's handler at every moment.
func uiAtEvery(at []*parse.Thread) bool {
	for _, t := range at {
		if !uiThread(t) {
			return false
		}
	}
	return true
}

// waiterRole is what w, a thread of d in a hand-off wait, is to the
// program where it is no entry thread: a shutdown hook (WaiterHook), a
// UI's event thread in a handler (WaiterUI); "" otherwise. Neither parks
// by design until the process ends (a hook that waits for good holds the
// exit; an event thread that waits freezes the UI), so a wait of theirs
// tied to no thread is said as one tied (peerWait.Rest is main's only).
func waiterRole(p *Pass, d *parse.Dump, w *parse.Thread) string {
	switch {
	case hookThread(p, d, w):
		return WaiterHook
	case uiThread(w):
		return WaiterUI
	}
	return ""
}
