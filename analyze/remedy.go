package analyze

import (
	"slices"
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// What to do, as data (issue 34): a remedy per finding kind and state,
// each said only where the frames prove what it assumes. The first row
// that applies is the finding's (Finding.Remedy); a finding no row fits
// gets none: a remedy is never guessed. A signatures file's [remedy] rows
// (Extensions.Remedies) are tried before the built-in ones, so a team can
// add the fix for its own client or override one of these.
//
// A row's proof reads the finding's representative stack (its pool and
// state's, at the moment it is about) and its entry points:
//   - a JDK socket read with no timeout is SocketDispatcher.read0 reached
//     through NioSocketImpl.tryRead without NioSocketImpl.timedRead (JDK
//     13+; JDK 8's socketRead0 takes its timeout as an argument no frame
//     shows, so nothing is claimed there); with timedRead a timeout is
//     set, and the remedy is the bulkhead, not the timeout;
//   - a connection pool whose waiters include a health check (an entry
//     point or frame named Health...) has the load balancer's check in the
//     queue: it fails a healthy instance;
//   - supplyAsync without an executor on a machine whose common pool has
//     no parallelism runs CompletableFuture$AsyncSupply.run straight under
//     Thread.run, a thread per task.

// Remedy is one row of the remedy table: what to do about a finding of
// one of Kinds in one of States whose stack holds every one of Frames and
// none of Without. An empty list does not restrict.
type Remedy struct {
	ID      string   // names the row: "untimed-socket-read"
	Kinds   []string // finding kinds (Kinds); empty: any
	States  []string // signature ids; empty: any
	Frames  []string // each the end of a frame's function in the stack
	Without []string // none of these may end a frame's function
	// Text is what to do, in a sentence; "{culprit}" stands for the
	// finding's culprit, which each view writes in its own form.
	Text string
	// proof is what a built-in row proves that lists cannot say (two
	// frames next to each other, a health check among the entry points);
	// nil: the lists alone decide.
	proof func(remedyProof) bool
}

// remedyProof is what a row's proof reads.
type remedyProof struct {
	frames  []*parse.Frame
	entries []FrameCount
	basis   string // the finding's Basis
	// heldMinutes is the longest wait a lock's waiter printed (Go), when
	// the finding is about a lock not had in minutes; 0 otherwise.
	heldMinutes int
	// siblingStuck: another finding that stays (stuck, not recovered,
	// leaked, saturated, growing, contention) is on the same pool, in a wait for
	// something other than a channel (a permit, a reply, a lock).
	siblingStuck bool
	// waiter: what the finding's waiter is (AwaitFact.Waiter).
	waiter string
	// holdersWait: an exhausted pool's holders, found past the waiters'
	// acquire (Finding.HolderBasis), most of them in a wait, not at work.
	holdersWait bool
	// blockedWorkers: a WaitGroup nobody serves (BasisWaitGroupUnserved):
	// how many of the goroutines that could call Done are blocked
	// themselves (Finding.Parents); 0 when none is left.
	blockedWorkers int
	// owner: what a leak of thread owners leaked (OwnerFact.What:
	// "executor", "timer"), "" for other findings and when unknown.
	owner string
}

// ownersLeaked: thread owners made per call and never shut down
// (detect_executor_leak.go), of what (OwnerFact.What; "" any other).
func (p remedyProof) ownersLeaked(what string) bool {
	return (p.basis == BasisExecutorLeak || p.basis == BasisExecutorCrowd) && p.owner == what
}

// siblingsStuck: the pool's other goroutines are stuck in another wait.
// A sender's receivers are most often its siblings (a feeder and the
// workers one function started: `go p.worker()` ×8, `go feed()`); a Go
// dump prints no channel's address on a blocked send, so the pool is the
// evidence there is, and the row says "may be". A send whose pool has no
// other stuck wait keeps the orphaned-send row: nothing alive is seen
// that could receive.
func (p remedyProof) siblingsStuck() bool { return p.siblingStuck }

// poolSelfWait: a pool waiting on its own queued work (a deadlock through
// its queue, not its locks).
func (p remedyProof) poolSelfWait() bool    { return p.basis == "pool-self-wait" }
func (p remedyProof) poolBarrierWait() bool { return p.basis == "pool-barrier-wait" }

// handoffCycle: a deadlock one of whose edges is a producer waiting for
// its hand-off's one consumer thread (basis handoff).
func (p remedyProof) handoffCycle() bool { return p.basis == basisHandoff }

// futureCycle: a deadlock one of whose edges is a wait for a future.
func (p remedyProof) futureCycle() bool { return p.basis == basisFuture }

// nestedWait: a holder waiting for a notify or signal while the threads
// that would send it are blocked on a lock it holds.
func (p remedyProof) nestedWait() bool { return p.basis == "nested-wait" }

// lostWakeup: both sides of one object's wait/notify waiting at once.
func (p remedyProof) lostWakeup() bool { return p.basis == "lost-wakeup" }

// queuedWriter: readers of a read-write lock behind a queued writer.
func (p remedyProof) queuedWriter() bool { return p.basis == "queued-writer" }

// rlockReentry: a read lock taken again by its holder behind a writer.
func (p remedyProof) rlockReentry() bool { return p.basis == "go-rlock-reentry" }

// lockChan, chanCycle: a Go cycle through a channel (gochans.go).
func (p remedyProof) lockChan() bool   { return p.basis == basisLockChan }
func (p remedyProof) chanCycle() bool  { return p.basis == basisChanCycle }
func (p remedyProof) lockAsleep() bool { return p.basis == basisLockAsleep }

// idleKept: rests a library's pool would not keep (basis idle-kept).
func (p remedyProof) idleKept() bool { return p.basis == "idle-kept" }

// loopShape: threads loop for ever in a map's own frames (basis loop-shape).
func (p remedyProof) loopShape() bool { return p.basis == "loop-shape" || p.basis == "loop-shape-cut" }

// vthreadPinned: a saturated virtual-thread scheduler whose mounted
// virtual threads wait while mounted (basis pinned).
func (p remedyProof) vthreadPinned() bool { return p.basis == "pinned" }

// vthreadRunning: a saturated virtual-thread scheduler whose mounted
// virtual threads all run (basis running).
func (p remedyProof) vthreadRunning() bool { return p.basis == "running" }

// testTimeout: go test stopped a test at its deadline (basis test-timeout).
func (p remedyProof) testTimeout() bool { return p.basis == "test-timeout" }

// noAdders: a WaitGroup nothing left can count down (basis no-adders).
func (p remedyProof) noAdders() bool    { return p.basis == "no-adders" || p.basis == "paste-no-adders" }
func (p remedyProof) noSignaller() bool { return p.basis == "no-signaller" }

// noPeer: the entry thread waits on a hand-off no thread can serve.
func (p remedyProof) noPeer() bool { return p.basis == basisNoPeer }

// noPeerHook: a shutdown hook's hand-off no thread can serve: the JVM
// cannot exit until the hook ends.
func (p remedyProof) noPeerHook() bool { return p.noPeer() && p.waiter == WaiterHook }

// noPeerUI: a UI event thread's hand-off no thread can serve.
func (p remedyProof) noPeerUI() bool { return p.noPeer() && p.waiter == WaiterUI }

// goAsleep: the Go runtime stopped the program, every goroutine blocked.
func (p remedyProof) goAsleep() bool { return p.basis == "go-runtime" }

// goAsleepLock: the runtime stopped the program and the lead (the
// finding's frames) waits in a sync lock.
func (p remedyProof) goAsleepLock() bool {
	return p.goAsleep() && (p.has("sync.(*Mutex).Lock") || p.has("sync.(*RWMutex).Lock") || p.has("sync.(*RWMutex).RLock") || p.has("sync.(*Mutex).lockSlow"))
}

// lockHeldMinutes: a lock's waiter has waited minutes, as Go prints.
func (p remedyProof) lockHeldMinutes() bool { return p.heldMinutes > 0 }

func (p remedyProof) has(fn string) bool {
	for _, f := range p.frames {
		if strings.HasSuffix(f.Func, fn) {
			return true
		}
	}
	return false
}

// healthCheckWaits: a health check among the threads that wait.
func (p remedyProof) healthCheckWaits() bool {
	for _, e := range p.entries {
		if e.Probe || strings.Contains(strings.ToLower(e.Func), "health") {
			return true
		}
	}
	for _, f := range p.frames {
		if strings.Contains(strings.ToLower(f.Func), "health") {
			return true
		}
	}
	return false
}

// threadPerTask: CompletableFuture's task run on a thread of its own (no
// pool worker between it and Thread.run).
func (p remedyProof) threadPerTask() bool {
	n := len(p.frames)
	for i, f := range p.frames {
		if (strings.HasSuffix(f.Func, "CompletableFuture$AsyncSupply.run") || strings.HasSuffix(f.Func, "CompletableFuture$AsyncRun.run")) &&
			i+1 < n && strings.HasSuffix(p.frames[i+1].Func, "java.lang.Thread.run") {
			return true
		}
	}
	return false
}

// remedies is the built-in remedy table.
var remedies = []Remedy{
	{ID: "thread-per-task", Kinds: []string{KindExplosion}, proof: remedyProof.threadPerTask,
		Text: "CompletableFuture.supplyAsync runs each task on a new thread here (no executor given, and the common pool has no parallelism on this machine): give it a bounded executor, and a read timeout to what the tasks call ({culprit})"},
	{ID: "thread-per-task-crowd", Kinds: []string{KindExplosion}, proof: func(p remedyProof) bool { return p.basis == BasisCrowd },
		Text: "each task runs on a thread started for it: run the tasks on a bounded executor (a fixed pool with a bounded queue, rejecting or waiting when full), and give what they wait on a timeout ({culprit})"},
	{ID: "executor-per-call", Kinds: []string{KindLeaked}, proof: func(p remedyProof) bool { return p.ownersLeaked("executor") },
		Text: "an executor is made per call (Executors.newFixedThreadPool or the like in a request's code) and never shut down, and a pool keeps its idle threads for ever: make one executor and share it (a field, a bean), or shutdown() each in a finally (try-with-resources from JDK 19); an event-loop group built per call the same (shutdownGracefully())"},
	{ID: "timer-per-call", Kinds: []string{KindLeaked}, proof: func(p remedyProof) bool { return p.ownersLeaked("timer") },
		Text: "a new java.util.Timer() is made per call and never cancelled, and each keeps its thread: share one ScheduledExecutorService (or one Timer) for the delayed work, or cancel() each timer once its task has run"},
	{ID: "owner-per-call", Kinds: []string{KindLeaked}, proof: func(p remedyProof) bool { return p.ownersLeaked("") },
		Text: "an object that owns threads (a client, an event-loop group, a scheduler) is built per call and never closed, and each keeps its threads: build it once and share it, or close() it (shutdown(), shutdownGracefully()) when the call ends"},
	{ID: "goroutine-sleep-crowd", Kinds: []string{KindExplosion}, proof: func(p remedyProof) bool { return p.basis == BasisGoSleepCrowd },
		Text: "each request starts a goroutine that waits out a delay ({culprit}): keep the delayed work in one queue served by a timer or a bounded pool (time.AfterFunc per item still makes a goroutine each when it fires), bound how many may wait, and end them with the request's context when they no longer matter"},
	// The holders by structure (poolholders.go) wait with the pool's item
	// in hand: what they wait on is the fix, a larger pool only a delay.
	{ID: "pool-holders-wait", Kinds: poolExhaustedKinds(), proof: func(p remedyProof) bool { return p.holdersWait },
		Text: "every item of the pool is held by a thread that waits past its acquire ({culprit}), and the rest wait for them: give that wait a timeout, and do the slow call before taking the item or after giving it back; a larger pool only delays the next stall"},
	{ID: "health-check-on-pool", Kinds: []string{KindDBPoolExhausted}, proof: remedyProof.healthCheckWaits,
		Text: "the health check waits for a connection like the requests, so the load balancer will take a healthy instance out: take the health check off the pool; then size the pool for the query time and load (or shorten what holds the connections)"},
	{ID: "db-pool-size", Kinds: []string{KindDBPoolExhausted},
		Text: "every connection is held: size the pool for the query time and load, or shorten what holds the connections (the holders' frames are below)"},
	// JDK 13+ only: JDK 8's SocketInputStream.socketRead0 takes its
	// timeout as an argument, which no frame shows.
	{ID: "untimed-socket-read", States: []string{"socket-read"},
		Frames: []string{"SocketDispatcher.read0", "NioSocketImpl.tryRead"}, Without: []string{"NioSocketImpl.timedRead", "Net.poll"},
		Text: "the socket read has no timeout (SocketDispatcher.read0 without NioSocketImpl.timedRead): set a read timeout on the client ({culprit}) and bound how many threads may call it at once (a bulkhead)"},
	// Go prints no deadline: the whole program waiting on its client
	// reads (peerwait.go) is what says the read has none that matters.
	{ID: "go-read-no-deadline", Kinds: []string{KindStuck}, States: []string{"socket-read"},
		proof: func(p remedyProof) bool { return p.basis == BasisPeerProgram },
		Text:  "the whole program waits on this read of a peer's reply ({culprit}): give it a deadline (conn.SetReadDeadline before each read, or a context with a timeout on the call that reads) so that a peer that never answers fails the call instead of hanging the program"},
	{ID: "timed-socket-read", Kinds: []string{KindNotRecovered, KindStuck, KindSaturated}, States: []string{"socket-read"},
		Frames: []string{"NioSocketImpl.timedRead"},
		Text:   "the read has a timeout, yet the threads pile up behind the slow peer: bound how many may wait on it at once (a bulkhead) so that other work keeps a thread"},
	{ID: "pool-barrier-wait", Kinds: []string{KindDeadlock}, proof: remedyProof.poolBarrierWait,
		Text: "the pool's tasks wait for each other at a latch, barrier or phaser ({culprit}), and the parties that would open it are not running: queued behind them in a pool smaller than the parties, or failed before they arrived: run each party on a thread of its own (or a pool at least as large as the parties), count down or arrive in a finally block, and await with a timeout (a broken barrier then frees the rest); a restart is the only way out now"},
	{ID: "pool-self-wait", Kinds: []string{KindDeadlock}, proof: remedyProof.poolSelfWait,
		Text: "the pool's tasks wait for work they submitted to the same pool ({culprit}): run the parts on another executor (or inline), or never block a pool's thread on its own pool's futures; a restart is the only way out now"},
	{ID: "class-init-deadlock", Kinds: []string{KindDeadlock}, States: []string{"class-init-wait"},
		Text: "the classes' static initializers wait for each other ({culprit}): initialize them in one order at startup, or take the reference to the other class out of the static initializer; a restart is the only way out now"},
	{ID: "handoff-deadlock", Kinds: []string{KindDeadlock}, proof: remedyProof.handoffCycle,
		Text: "a producer holds a lock while it waits for room in a hand-off, and the hand-off's only consumer waits for that lock (an appender that logs through the logger it serves): keep the consumer off the producers' locks, or let the hand-off drop or time out rather than block (log4j 1.2's AsyncAppender: Blocking=false); a restart is the only way out now"},
	{ID: "future-deadlock", Kinds: []string{KindDeadlock}, proof: remedyProof.futureCycle,
		Text: "a thread waits for a future while it holds a lock the future's task needs ({culprit}): release the lock before waiting, or run the task inline under the lock; a restart is the only way out now"},
	{ID: "nested-wait", Kinds: []string{KindDeadlock}, proof: remedyProof.nestedWait,
		Text: "a thread waits for a notify or signal ({culprit}) while it holds a lock, and the code that would send it must take that lock first: release the outer lock before waiting (wait on the lock you hold, or on a Condition of it), or notify without it; give the wait a timeout; a restart is the only way out now"},
	{ID: "lost-wakeup", Kinds: []string{KindDeadlock}, proof: remedyProof.lostWakeup,
		Text: "both sides of one object's wait/notify wait at once ({culprit}): a notify() woke a thread of the same side and the other side was never woken; use notifyAll(), or one Condition per side (notFull, notEmpty) with signal, and wait in a loop on its condition; a java.util.concurrent BlockingQueue does this right; a restart is the only way out now"},
	{ID: "rlock-reentry", Kinds: []string{KindDeadlock}, proof: remedyProof.rlockReentry,
		Text: "a goroutine that holds a sync.RWMutex's read lock takes it again ({culprit}) while a writer waits: a waiting writer stops new readers, so neither goes on; never RLock what the caller holds (pass the locked state down, or split the method into a locked and an unlocked part); a restart is the only way out now"},
	{ID: "go-asleep-lock", Kinds: []string{KindDeadlock}, proof: remedyProof.goAsleepLock,
		Text: "the goroutine that waits for a lock ({culprit}) waits for a goroutine that took it and never unlocked it: it returned holding it (an Unlock missed on a return path or after a panic), or it waits here itself; unlock with defer right after Lock, and never return or wait holding a lock; the other waits follow from it"},
	{ID: "go-asleep", Kinds: []string{KindDeadlock}, proof: remedyProof.goAsleep,
		Text: "every goroutine waits for another that can no longer act (a WaitGroup whose Done never comes, a channel whose other side returned or never started): make each wait end on every path (defer wg.Done() first thing in the goroutine, close the channel when its sender is done, select on a context beside it) ({culprit})"},
	// The entry thread's hand-off with nobody on the other side
	// (no_peer.go): the fix is on the side that is gone, by what it
	// would have done; the frames say which hand-off it is. A shutdown
	// hook's first: its fix is the hook's.
	{ID: "no-peer-hook", Kinds: []string{KindStuck}, proof: remedyProof.noPeerHook,
		Text: "a shutdown hook waits for good ({culprit}) and the JVM cannot exit until it ends: a hook must make what it waits for end (interrupt the worker or shutdownNow() its executor, whose shutdown() interrupts no running task, or put its end-of-stream mark) before it joins, and join or await with a timeout; a kill -9 is the only way out now"},
	{ID: "no-peer-ui", Kinds: []string{KindStuck}, proof: remedyProof.noPeerUI,
		Text: "the UI's event thread waits in an event's handler for what nobody will give ({culprit}) and no event is dispatched until it ends: never wait on the event thread; hand the result back to it (thenAccept with invokeLater, SwingWorker.done, Platform.runLater), and complete the future on every path of its task (completeExceptionally in a catch)"},
	{ID: "no-peer-latch", Kinds: []string{KindStuck}, proof: remedyProof.noPeer, Frames: []string{"CountDownLatch.await"},
		Text: "the threads that would count the latch down are gone or wait themselves ({culprit}): count down in a finally, so a counter that fails still counts (and carry its failure to the waiter), and await with a timeout"},
	{ID: "no-peer-barrier", Kinds: []string{KindStuck}, proof: remedyProof.noPeer, Frames: []string{"CyclicBarrier.dowait"},
		Text: "a party of the barrier is gone before it arrived ({culprit}): a party that fails must break the barrier (reset(), or an await with a timeout breaks it for every party), so the others are let go"},
	{ID: "no-peer-phaser", Kinds: []string{KindStuck}, proof: remedyProof.noPeer, Frames: []string{"Phaser.arriveAndAwaitAdvance"},
		Text: "a registered party of the phaser is gone before it arrived ({culprit}): a party that fails must arriveAndDeregister in a finally, and the waiter can wait with awaitAdvanceInterruptibly's timeout"},
	{ID: "no-peer-exchanger", Kinds: []string{KindStuck}, proof: remedyProof.noPeer, Frames: []string{"Exchanger.exchange"},
		Text: "the partner of the Exchanger is gone ({culprit}): exchange with a timeout, and let a partner that fails tell the other (interrupt it)"},
	{ID: "no-peer-join", Kinds: []string{KindStuck}, proof: remedyProof.noPeer, Frames: []string{"java.lang.Thread.join"},
		Text: "main waits for a thread that waits itself, for what nobody left will give ({culprit}): end its loop on every path (its producer sends an end-of-stream mark in a finally, or interrupts it), and join with a timeout"},
	{ID: "no-peer-termination", Kinds: []string{KindStuck}, proof: remedyProof.noPeer, Frames: []string{"ThreadPoolExecutor.awaitTermination"},
		Text: "awaitTermination waits for an executor that nobody has shut down, whose workers idle ({culprit}): call shutdown() before awaitTermination"},
	{ID: "no-peer-future", Kinds: []string{KindStuck}, proof: remedyProof.noPeer, Frames: []string{"FutureTask.get"},
		Text: "the task whose result main waits for cannot finish: the thread running it waits itself, for main or for what is gone ({culprit}): never wait for a task that waits for you; get with a timeout"},
	{ID: "no-peer-queue", Kinds: []string{KindStuck}, proof: remedyProof.noPeer, States: []string{"queue-put", "handoff-wait"},
		Text: "no thread is left to take what main puts ({culprit}): its consumer ended or failed; restart or supervise the consumer, and put with a timeout (offer) so a lost consumer is an error, not a hang"},
	{ID: "no-peer", Kinds: []string{KindStuck}, proof: remedyProof.noPeer,
		Text: "main waits on a hand-off whose other side is gone or waits itself ({culprit}): make the other side act on every path (in a finally), and give the wait a timeout; a restart is the only way out now"},
	{ID: "missed-signal", Kinds: []string{KindStuck}, proof: remedyProof.noSignaller,
		Text: "a wait for a notify or signal that nothing left will send ({culprit}): a signal sent before the wait is lost, and a sender that ended sends none; wait in a loop on a condition the sender sets under the same lock (while (!done) wait()), or hand the result over with a CountDownLatch, a CompletableFuture or a BlockingQueue, which keep it for a late waiter; give the wait a timeout; a restart is the only way out now"},
	{ID: "waitgroup-no-adders", Kinds: []string{KindStuck}, proof: remedyProof.noAdders,
		Text: "a goroutine counted in the WaitGroup returned without Done (an early return, a recovered panic): call Done in a defer at the top of each one, or start them with WaitGroup.Go or errgroup, which cannot forget it ({culprit})"},
	{ID: "sender-gone", Kinds: []string{KindLeaked}, proof: func(p remedyProof) bool { return p.basis == BasisSenderGone },
		Text: "the goroutine that was to send the result returned first, without sending or closing ({culprit}): send or close on every path (a result carrying its error, or defer close(ch) in the producer), give the channel a buffer of one so a late send never blocks, or use errgroup (Go and Wait); receive in a select with the request's context so a lost producer is an error, not a hang; a restart is the only way out now for these goroutines"},
	{ID: "receiver-gone", Kinds: []string{KindLeaked}, proof: func(p remedyProof) bool { return p.basis == BasisReceiverGone },
		Text: "the function that started these goroutines returned before it took what they send (a timeout, an early return on an error), and each blocked send keeps its goroutine and all it references for good ({culprit}): give the channel a buffer for every sender (make(chan T, n)) so a late send never blocks, or send in a select with the caller's context (case <-ctx.Done(): return); a restart is the only way to free those leaked already"},
	{ID: "signaller-gone", Kinds: []string{KindLeaked}, proof: func(p remedyProof) bool { return p.basis == BasisSignallerGone },
		Text: "nothing left will call Signal or Broadcast on this sync.Cond ({culprit}): its signaller returned or signalled before they waited; wait in a loop on a condition set under the Cond's lock (for !ready { c.Wait() }) and Broadcast on every path, or use a channel closed once (close(done)), which a late waiter still sees; a restart is the only way out now for these goroutines"},
	{ID: "waitgroup-workers-blocked", Kinds: []string{KindLeaked}, proof: func(p remedyProof) bool { return p.basis == BasisWaitGroupUnserved && p.blockedWorkers > 0 },
		Text: "the goroutines the WaitGroup waits for are blocked themselves, most often on what only the waiter gives ({culprit}): a channel it reads only after Wait, a lock it holds across Wait, a stop it is busy waiting in; receive while you wait (Wait in a goroutine of its own that then closes the channel), release locks before Wait, and let each worker leave on stop without what the stopper holds; a restart is the only way out now"},
	{ID: "waitgroup-unbalanced", Kinds: []string{KindLeaked}, proof: func(p remedyProof) bool { return p.basis == BasisWaitGroupUnserved && p.blockedWorkers == 0 },
		Text: "no goroutine is left that could call Done ({culprit}): the WaitGroup was counted for more goroutines than were started (an Add for work that was then skipped) or one returned without Done; Add right before each go statement (or start them with WaitGroup.Go or errgroup), and call Done in a defer at the top of each; a restart is the only way out now"},
	{ID: "test-hung", Kinds: []string{KindStuck}, proof: remedyProof.testTimeout,
		Text: "the test waits for something that never comes ({culprit}): give the wait a deadline (select on a timer or t.Context(), a context with timeout), and make every goroutine the test starts end on every path (defer wg.Done(), close the channel it waits on); go test -run TESTNAME -timeout 30s -v shows it again quickly"},
	// A loop by its shape (hotloops.go): a map written by threads at once.
	{ID: "corrupted-map", Kinds: []string{KindSpinning}, proof: remedyProof.loopShape,
		Text: "a map (a HashMap or a HashSet on one, a WeakHashMap, an IdentityHashMap, a TreeMap, a Scala mutable.HashMap) is written by several threads at once without a lock, and its links now form a cycle the threads loop in for ever: make it a ConcurrentHashMap (in Scala, a concurrent.TrieMap), or guard every access, reads too, with one lock, where the application shares it ({culprit}); the corrupted map never heals: a restart is the only way out now"},
	{ID: "vthread-pinned-saturation", Kinds: []string{KindVThreadSchedulerSaturated}, proof: remedyProof.vthreadPinned,
		Text: "virtual threads block while pinned to their carriers ({culprit}): a wait under a native frame or for a class's initialization keeps the carrier, and the queue waits for it; do not block there (initialize the class at startup, take the slow call out of the static initializer or the native callback), or run that call on a platform thread pool; more carriers (jdk.virtualThreadScheduler.parallelism) only postpone it"},
	{ID: "vthread-cpu-saturation", Kinds: []string{KindVThreadSchedulerSaturated}, proof: remedyProof.vthreadRunning,
		Text: "the mounted virtual threads compute ({culprit}) and keep their carriers until done, while requests queue: virtual threads add no CPU; run the computation on a bounded platform thread pool sized to the cores, or bound how many requests compute at once, and keep virtual threads for waiting"},
	{ID: "go-lock-chan", Kinds: []string{KindDeadlock}, proof: remedyProof.lockChan,
		Text: "a goroutine holds a mutex while it waits on a channel ({culprit}), and the goroutine that would take its send or make its receive waits for that mutex: never send or receive on a channel while holding a lock (copy what the send needs, unlock, then send), or let the other side work without the lock; a restart is the only way out now"},
	{ID: "go-chan-cycle", Kinds: []string{KindDeadlock}, proof: remedyProof.chanCycle,
		Text: "the goroutines wait to send to each other on unbuffered channels and nobody receives ({culprit}): a stage that both sends and receives must not block on its send while its peer blocks on its own (receive in a select beside the send, buffer the return path, or give it a goroutine of its own); the runtime says 'all goroutines are asleep' only when nothing at all runs, a listener or a timer hides it; a restart is the only way out now"},
	{ID: "read-held", Kinds: []string{KindDeadlock}, proof: func(p remedyProof) bool { return p.basis == basisReadHeld },
		Text: "a ReentrantReadWriteLock's read lock is held and never released while its waiters ask for the write lock ({culprit}): a thread holding the read lock cannot take the write lock (no upgrade: release the read lock first, then take the write lock and check again what you read), and every lock() needs its unlock() in a finally; a restart is the only way out now"},
	{ID: "go-self-lock", Kinds: []string{KindDeadlock}, proof: func(p remedyProof) bool { return p.basis == basisSelfLock },
		Text: "a method holds its value's lock and calls, directly or through a callback, code that takes the same lock again ({culprit}): Go's sync locks are not re-entrant, so the goroutine waits for itself and everything behind the lock waits with it; split the method into a locking wrapper and an unexported variant that expects the lock held (fooLocked), or release the lock before calling out (callbacks, other types' methods); a restart is the only way out now"},
	{ID: "go-lock-asleep", Kinds: []string{KindDeadlock}, proof: remedyProof.lockAsleep,
		Text: "the waiters may hold each other's mutexes ({culprit}), or a goroutine asleep beside them holds one while it sleeps: take another dump in a few seconds; the same goroutines in the same places are the cycle (take the locks in one order everywhere), waiters that moved on were waiting for the sleeper (never sleep while holding a lock)"},
	{ID: "deadlock", Kinds: []string{KindDeadlock},
		Text: "the threads wait for each other's locks and never go on: take the locks in one order everywhere (or with a timeout); a restart is the only way out now"},
	{ID: "unclosed-body", Kinds: []string{KindLeaked, KindGrowing, KindNotRecovered}, States: []string{"http-body-wait"},
		Text: "HTTP responses' bodies are never closed, and each keeps its connection (and two goroutines): close every response body (defer resp.Body.Close() after the error check), read it to its end to reuse the connection; the caller that dropped it is not on these goroutines' stacks: look for the requests whose response is not closed on every path"},
	{ID: "idle-kept", Kinds: []string{KindLeaked}, proof: remedyProof.idleKept,
		Text: "more idle connections than one client's pool keeps, idle for minutes: clients (Transports) made per request and dropped keep theirs for good; share one http.Client for the process, or set an idle timeout (IdleConnTimeout) and CloseIdleConnections on what you drop"},
	// Go's twin of the untimed socket read: net/http's Client waits for
	// ever by default (Client.Timeout 0, a context with no deadline). No
	// frame shows a timeout either way (Client.Timeout arms a timer before
	// the round trip), so the text says what the wait proves: none shorter
	// than the time it has lasted.
	{ID: "untimed-http-client", Kinds: []string{KindStuck, KindNotRecovered, KindSaturated, KindGrowing}, States: []string{"http-client-wait"},
		Text: "the requests wait on an upstream that does not answer ({culprit}), with no timeout shorter than the time they have waited: net/http's Client has none by default; set http.Client.Timeout, or give each request a context with a deadline (http.NewRequestWithContext), and bound how many may wait on that upstream at once"},
	{ID: "dns-no-answer", Kinds: []string{KindStuck, KindNotRecovered, KindGrowing, KindSaturated}, States: []string{"dns-lookup"},
		Text: "a name lookup waits for a DNS server that does not answer ({culprit}): bound the resolver's wait (resolv.conf's options timeout and attempts for InetAddress and Go's resolver; com.sun.jndi.dns.timeout.initial and .retries for JNDI), cache what it answered (networkaddress.cache.ttl), and check the server the host names"},
	{ID: "send-behind-busy-pool", Kinds: []string{KindLeaked, KindGrowing, KindNotRecovered, KindStuck}, States: []string{"chan-send"},
		proof: remedyProof.siblingsStuck,
		Text:  "goroutines block sending on a channel ({culprit}) while other goroutines of their pool, started by the same function, are stuck in another wait (this pool's other finding): those may be the channel's receivers, alive and busy behind that wait rather than gone; fix what they wait for first, and give the send a way out (select on the context's Done beside it) so the feeder does not hang with them"},
	{ID: "orphaned-send", Kinds: []string{KindLeaked, KindGrowing, KindNotRecovered, KindStuck}, States: []string{"chan-send"},
		Text: "goroutines block sending on a channel nobody receives from any more (its reader returned, on a timeout?): give the channel room for the one answer (buffer 1), or select on the context's Done beside the send ({culprit})"},
	{ID: "lock-held-minutes", Kinds: []string{KindContention}, proof: remedyProof.lockHeldMinutes,
		Text: "the lock has not been had for minutes: its holder is stuck (in I/O with no deadline, or waiting on something its waiters hold); find it in the stacks (a goroutine inside the lock's methods, past the Lock call) and give its wait a deadline, or release the lock before it waits"},
	{ID: "read-lock-behind-writer", Kinds: []string{KindContention}, proof: remedyProof.queuedWriter,
		Text: "a thread holds the read lock while it waits (I/O, a future), and the queued writer keeps every new reader out: do the slow work outside the read lock (copy, then release), or give it a timeout; a writer that can wait should tryLock with a timeout"},
	{ID: "contention", Kinds: []string{KindContention},
		Text: "one thread at a time holds the lock and the rest wait for it: shorten what the holder does under the lock, or take the slow work (I/O) out of it"},
}

// remedyTable is the rows of ext (if any) before the built-in ones.
func remedyTable(ext *Extensions) []Remedy {
	if ext == nil || len(ext.Remedies) == 0 {
		return remedies
	}
	return append(append([]Remedy(nil), ext.Remedies...), remedies...)
}

// fits reports whether row r answers f, whose stack and entry points p holds.
func (r *Remedy) fits(f *Finding, p remedyProof) bool {
	if len(r.Kinds) > 0 && !slices.Contains(r.Kinds, f.Kind) || len(r.States) > 0 && !slices.Contains(r.States, f.State) {
		return false
	}
	for _, fn := range r.Frames {
		if !p.has(fn) {
			return false
		}
	}
	for _, fn := range r.Without {
		if p.has(fn) {
			return false
		}
	}
	return r.proof == nil || r.proof(p)
}

// setRemedies sets each finding's Remedy from the table (ext's rows
// first): the first row that fits.
func setRemedies(r *Result, ext *Extensions) {
	table := remedyTable(ext)
	work := roleTables(ext).GoWork
	for i := range r.Findings {
		f := &r.Findings[i]
		p := proofOf(r, f)
		// A sender serving one request (under a server's or runner's
		// unit of work) has other requests for siblings, not its
		// receivers.
		if p.siblingStuck && len(p.frames) > 0 && goWork(&parse.Thread{Frames: p.frames}, work) == underWork {
			p.siblingStuck = false
		}
		for k := range table {
			if table[k].fits(f, p) {
				f.Remedy = table[k].Text
				break
			}
		}
	}
}

// proofOf is what the rows read of f: the representative stack of its
// pool's group in its state at the moment it is about (the next moment
// that has one when that moment has none), and the group's entry points
// at every moment. Empty when f names no state of a pool.
func proofOf(r *Result, f *Finding) remedyProof {
	p := remedyProof{basis: f.Basis}
	if f.HolderBasis != "" && len(f.Holders) > 0 {
		h := f.Holders[0]
		for _, pl := range r.Pools {
			for _, g := range pl.States {
				if pl.Name == h.Pool && g.State == h.State && g.Category == Waiting {
					p.holdersWait = true
				}
			}
		}
	}
	if f.Basis == BasisWaitGroupUnserved {
		p.blockedWorkers = f.Parents
	}
	if f.Awaits != nil {
		p.waiter = f.Awaits.Waiter
	}
	if f.Owners != nil {
		p.owner = f.Owners.What
		if p.owner != "executor" && p.owner != "timer" {
			p.owner = ""
		}
	}
	if f.Wait != nil && f.Kind == KindContention {
		p.heldMinutes = f.Wait.MaxMinutes
	}
	p.siblingStuck = siblingStuck(r, f)
	g := groupOf(r, f)
	if g == nil {
		return p
	}
	for k := min(max(f.At, 0), len(g.Stacks)-1); k >= 0 && k < len(g.Stacks); k++ {
		if g.Stacks[k] != nil {
			p.frames = g.Stacks[k].Frames
			break
		}
	}
	for _, e := range g.Entries {
		p.entries = append(p.entries, e...)
	}
	return p
}

// siblingStuck reports whether another finding of f's pool, one that
// stays, is about a wait for something other than a channel.
func siblingStuck(r *Result, f *Finding) bool {
	if f.Pool == "" {
		return false
	}
	for i := range r.Findings {
		g := &r.Findings[i]
		if g == f || g.Pool != f.Pool || g.Recovered || g.Resource == "" || g.Resource == "channel" {
			continue
		}
		switch g.Kind {
		case KindStuck, KindNotRecovered, KindLeaked, KindSaturated, KindGrowing, KindContention:
			return true
		}
	}
	return false
}

// groupOf is the group of f's pool in f's state (its via, or the first
// via when f names none); nil when f names no state of a pool.
func groupOf(r *Result, f *Finding) *Group {
	if f.Pool == "" || f.State == "" {
		return nil
	}
	for _, pl := range r.Pools {
		if pl.Name != f.Pool {
			continue
		}
		for _, g := range pl.States {
			if g.State == f.State && (g.Via == f.Via || f.Via == "") {
				return g
			}
		}
	}
	return nil
}
