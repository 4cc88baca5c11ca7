package analyze

import (
	"time"

	"github.com/dumpdiff/dumpdiff/parse"
)

// Severity orders findings.
type Severity int

const (
	Info Severity = iota
	Warning
	Critical
)

func (s Severity) String() string {
	switch s {
	case Critical:
		return "critical"
	case Warning:
		return "warning"
	}
	return "info"
}

// Finding is one verdict as facts: numbers, frames, threads and locks. It
// holds no sentence; report.Summary builds one from these facts, so text,
// Markdown, JSON and the TUI say the same thing. A field that does not
// apply to the kind is left empty (nil, "", 0, -1 for moment indexes).
type Finding struct {
	// ID is unique within a Result ("stuck mypage-* socket-read"); CausedBy
	// refers to it.
	ID       string
	Kind     string
	Severity Severity
	// Detector is the Kind of the detector row that made the finding (one
	// row may make several kinds: timeline makes growing, not-recovered and
	// recovered).
	Detector string
	Pool     string // the pool of the threads concerned; "" for process-wide findings
	State    string // their signature id; "" when not one state
	Via      string // what the state waits on, told apart by caller ("jdbc org.postgresql")
	// Resource is what the threads wait for (Signature.Resource:
	// "db-connection", "peer-reply", "monitor", "lock"...); "" if not known.
	Resource string
	// Counts are the threads concerned per moment, weights included.
	Counts []int
	// PoolCounts are all threads of Pool per moment; nil when Pool is "".
	PoolCounts []int
	// Totals are the process's threads per moment (explosion); nil otherwise.
	Totals []int
	// At is the moment the finding is about (the peak, the saturated
	// moment, the last moment of a stuck group); Since is the first moment
	// it is seen. Both index Result.Moments.
	At, Since int
	// Recovered is true when what the finding is about came back by the
	// last moment (a recovered rise, a pool no longer exhausted, a deadlock
	// or contention no longer seen); false when it is still there or when
	// one moment cannot tell (see Finding.At and the moments).
	Recovered bool
	// FromStart is true when it is already there at the first moment given:
	// there is no healthy moment before to compare with, so the finding
	// cannot say when it began or that load brought it.
	FromStart bool
	// Frame is the most common top frame and Culprit the most common first
	// application frame of the threads concerned; "" if not applicable.
	// For spinning, Culprit is where the threads run (their top frame,
	// library code included: a running thread's culprit is where it runs),
	// but for a loop by its shape (basis loop-shape, loop-shape-cut): the
	// loop is the map's, the fault the application's that shares the map,
	// so Culprit is the first application frame below the loop.

	Frame   string
	Culprit string
	// PoolFrame is, for a pool's waiters (pool-exhausted), the pool's own
	// frame they wait under, the one their caller called
	// (HikariPool.getConnection, GenericObjectPool.borrowObject): their
	// top frame is a park that tells nothing; "" for other findings and
	// where the stack shows none.
	PoolFrame string
	// Loop are the frames a spinning thread loops in, innermost first (at
	// most 5, library frames included), and Caller the first application
	// frame below them when it is not one of them; nil and "" otherwise.
	Loop   []string
	Caller string
	// Known is, for a loop by its shape (basis loop-shape, loop-shape-cut),
	// the row of the hot-loop table (hotloops.go, or a signatures file's
	// [hot-loop] block) whose loop the threads run; nil otherwise.
	Known *HotLoop
	// Culprits are all first application frames at At, most common first.
	Culprits []FrameCount
	// Entries are the entry points of the threads concerned at At (the
	// first application frame under the server or framework; for Go the
	// creator too), most common first. Probe marks a health, readiness or
	// liveness check.
	Entries []FrameCount
	// Same is how many of the very same threads (by identity) are there at
	// every moment from Since to the last; 0 when unknown.
	Same int
	// Always is how many of them were there at every moment given (stuck);
	// 0 otherwise.
	Always int
	// CPU is the CPU time CPUThreads of them used meanwhile (cpu= printed);
	// 0 when not printed.
	CPU        time.Duration
	CPUThreads int
	// Wall is the wall time a spinning finding's CPU was measured over
	// (the longest of its threads': between its moments, or its elapsed=
	// for one moment); 0 otherwise.
	Wall time.Duration
	// Limit is the pool's size as far as the dump tells it (saturated and
	// the stuck pool it folds into); Size 0 when unknown.
	Limit Limit
	// Idle and Waiting are the pool's idle and waiting threads at At; for
	// spinning, Waiting is the threads that wait for the spinning ones.
	Idle, Waiting int
	// Starved are entry points that had threads in the pool at another
	// moment and have none at At: work the saturated pool no longer serves.
	Starved []FrameCount
	// Lock is the contended lock, with its owner (contention).
	Lock *LockFact
	// Holding are locks the stuck threads hold while they wait for a lock (a monitor
	// locked in one of their frames, an ownable synchronizer), other than
	// the one they wait on, the first three by address: whoever needs one
	// waits behind a holder that itself waits (stuck; nil elsewhere).
	Holding []LockRef
	// InitClass is the class whose initialization the stuck threads wait
	// for (Resource "class-init"), as their lock line names it; "" when
	// not printed, and elsewhere.
	InitClass string
	// Cycle are the threads of a deadlock cycle, each with the lock it waits
	// for and who holds it; Blocked are threads that wait on the cycle
	// without being in it (their contention is folded into the deadlock),
	// or, for spinning, the first 10 of the threads waiting for it (Waiting).
	Cycle   []CycleMember
	Blocked []ThreadRef
	// Workers are, for a WaitGroup nobody serves (BasisWaitGroupUnserved),
	// the blocked goroutines it waits for at At, by pool, state and their
	// own culprit frame (main.runBatch.func1 in a chan send), most first;
	// WaiterPools are the pools of every goroutine waiting in Wait from the
	// same caller, first seen first. nil elsewhere.
	Workers     []HolderGroup `json:",omitempty"`
	WaiterPools []string      `json:",omitempty"`
	// Asleep are, for a Go deadlock of basis "go-lock-asleep", the
	// goroutines asleep beside the cycle at its last moment: each could
	// hold its locks while asleep instead (the weaker story the stacks
	// leave open); nil otherwise.
	Asleep []ThreadRef `json:",omitempty"`
	// SelfLock is, for a Go deadlock of basis "go-self-lock" (one
	// goroutine waiting on a lock its own outer frame took), what ties
	// that frame to the lock; nil otherwise.
	SelfLock *SelfLockFact `json:",omitempty"`
	// Holders are the threads that hold the exhausted resource at At,
	// grouped by what they do, most first (<resource>-pool-exhausted).
	Holders []HolderGroup
	// HolderBasis is how Holders were found: "past-acquire" when by the
	// stacks' structure, threads of the waiters' application path past
	// their acquire (poolholders.go); "" when a client's frames say what
	// they hold (a JDBC driver's read), or no holder is named.
	HolderBasis string
	// Handoff names the hand-off producers wait on, by the class whose
	// consumers take from it ("ArrayBlockingQueue", "SynchronousQueue", "a
	// pipe"), for findings on threads that wait for room or a taker;
	// Consumers are the threads waiting on the other side of a hand-off of
	// that class at At (in its take or poll, its read), grouped: none means
	// its consumers are busy elsewhere or gone. "" and nil otherwise.
	// ConsumerLoop: Consumers are the hand-off's own consumer threads,
	// whatever they do (a library's worker: busy in a socket write), not
	// only threads waiting to take.
	Handoff      string
	Consumers    []HolderGroup
	ConsumerLoop bool
	// Busy are, when no thread waits on a JDK queue's other side at At,
	// its consumers busy elsewhere (busyConsumers): by pool, state and
	// culprit; nil when no moment showed one taking.
	Busy []HolderGroup
	// BusyInferred is true when no moment showed a thread taking from the
	// queue's class, and Busy are instead the threads running the same
	// application frames at every moment (runningThrough): its likely
	// consumers, which no busy consumer's stack can prove.
	BusyInferred bool `json:",omitempty"`
	// OtherTakers are the threads waiting to take from a JDK queue of the
	// hand-off's class at At while its producers wait: a full queue has
	// items to take and a waiting putter a taker to pair with, so they
	// wait on another queue of that class, not on this one.
	OtherTakers int
	// Scheduler is, for vthread-scheduler-saturated, the virtual-thread
	// scheduler's reading at each moment (by Result.Moments index; Read
	// false where none was taken); nil for other kinds.
	Scheduler []SchedulerReading
	// Pinned is, for vthread-scheduler-saturated, how many of the mounted
	// virtual threads at At wait while mounted (their carrier does no
	// work: pinned); Holders are all of them. 0 otherwise.
	Pinned int
	// Wait is how long Go goroutines have waited, as printed; nil when not.
	Wait *WaitFact
	// Owners is, for a leak of thread owners (basis "executor-leak" or
	// "executor-crowd": executors, timers, clients made per call and never
	// shut down), what their threads' names and rests show; nil otherwise.
	Owners *OwnerFact
	// Awaits is, for a wait on a hand-off no thread can serve (basis
	// "no-peer"), what it waits on and who could have been its other side;
	// nil otherwise.
	Awaits *AwaitFact
	// WaitedBy are, for a stuck finding, the threads outside it that wait
	// untimed on a hand-off its threads would serve (main's latch the
	// stuck tasks of its own method count down, a join or a get of them):
	// they follow from it, said on it, the holder first (no_peer.go's
	// waitedBy); nil when none.
	WaitedBy []ThreadRef
	// Parents is how many distinct goroutines created the threads concerned
	// (Go 1.21+ "created by F in goroutine N"); 0 when not printed.
	Parents int
	// Basis says how a finding was established: deadlock "jvm-report",
	// "lock-graph", "class-init" (an edge of the cycle is a class's
	// initialization: who runs X.<clinit> and who waits for X),
	// "loader-lock" (a class loader's lock its waiters print no line for)
	// or "go-runtime"; leaked "runtime", "long-wait" or
	// "flat-count"; spinning "cpu-growth" (cpu= grew between moments),
	// "cpu-lifetime" (one moment's cpu= against elapsed=), "cpu-lifetime-ps"
	// (a ps row beside the dump: %CPU over the thread's life), "cpu-uptime"
	// (a javacore's CPU total against the JVM's uptime), "same-frames"
	// (Go, which prints no CPU), "same-frames-holder" (a JVM that prints no
	// cpu=: the same frames at every moment while others are blocked on a
	// lock it holds), "same-frames-awaited" (a JVM that prints no cpu=:
	// the same application frames at every moment over SpinMinWall, out of
	// native code, while others wait for it at the last moment), "loop-shape"
	// (one dump: RUNNABLE in code that loops for ever only over a corrupted
	// structure, hotloops.go), "livelock" (threads RUNNABLE in one
	// back-off loop at every moment, CPU growing: livelock.go), "livelock-held"
	// (threads each holding a lock at every moment while they back off
	// in the same frames, a sleep or timed park on top: livelock.go) or "mixed"; contention "owner-printed", "owner-inferred", "owner-by-receiver",
	// "permit-holders" (a semaphore's holders by the stacks: permits.go) or
	// "owner-joined" (LockFact.OwnerFrom); growing
	// "whole-pool" when the pool's count rose, not one state's (Go); stuck
	// and <resource>-pool-exhausted "one-dump-cut" or "one-dump-process"
	// (one moment: a paste a person cut, most of it in the wait; a whole
	// dump whose every application thread is in a named wait: heldWaits),
	// "held-cut" or "held-process" (the same, with the very same threads at
	// every moment of several); pool-exhausted "persists" (fewer than
	// PoolWaitMin, the very same waiter at every moment of several);
	// vthread-scheduler-saturated "pinned" (mounted virtual threads wait
	// while mounted) or "running" (they all run: CPU-bound).
	Basis string
	// Headline is the Go runtime's fatal error line ("all goroutines are
	// asleep - deadlock!"); "" otherwise.
	Headline string
	// CausedBy is the ID of the finding this one follows from; "" for a
	// root cause.
	CausedBy string
	// Evidence lists per moment which threads were seen.
	Evidence []Evidence
	// Remedy is what to do, from the remedy table (Remedy: the first row
	// whose frames are in the finding's stack; a signatures file's rows
	// first), "{culprit}" standing for Culprit; "" when no row fits.
	Remedy string
}

// Limit is a pool's maximum size and where the number comes from.
type Limit struct {
	Size int
	// Source is "default" (the library's default, which a configuration may
	// change), "configured" (a signatures file's [pool]), "observed" (the same size at every moment: a fixed pool),
	// "current" (one moment, none idle: its size now, a guess at its
	// maximum) or "" when unknown.
	Source string
	What   string // "Tomcat maxThreads default"; "" if not a known default
	// NamedLike is, for a pool whose name matches a known limit's row but
	// whose threads no loop of that row runs, the row's what and the loop
	// missing: why no known size is given; "" otherwise.
	NamedLike string
}

// LockFact is a lock and who holds it.
type LockFact struct {
	// Address is the lock's address at At ("0x000000076ab62208",
	// "0xc0000a6000"); "" for a class's initialization (Class is the class).
	Address string
	// Addresses are every address the lock had, in the order seen, when the
	// garbage collector moved it between moments (one lock by its class,
	// owner and waiters); nil when it had one.
	Addresses []string
	Class     string // "java.lang.Object", "sync.Mutex"; "" if not printed
	Owner     *ThreadRef
	// Holders are, for a semaphore's permits (Basis "permit-holders"),
	// every permit holder the stacks show when there are several, Owner
	// the first of them; nil elsewhere.
	Holders []ThreadRef `json:",omitempty"`
	// OwnerInferred is true when the owner is a guess (Go prints no owner:
	// a goroutine of the waiters' function past the Lock call).
	OwnerInferred bool
	// OwnerReceiver is, for a Go owner inferred by value, the receiver
	// (as printed, "0xc000010000") of the method it runs, the one the
	// waiters' methods lock; "" otherwise.
	OwnerReceiver string
	// OwnerFrom says where the owner came from when the waiters' dump did
	// not print it (a JSON dump's j.u.c lock, joined from "Thread.print -l
	// beside" by parse.JoinLockOwners); empty when printed or inferred.
	OwnerFrom string
	// QueuedWriter is, for a read-write lock no thread prints as held
	// (HotSpot prints no holder of a read lock), the writer queued first
	// among its waiters: its readers wait behind it, and it waits for the
	// read holders; Queued how many writers wait. nil and 0 otherwise.
	QueuedWriter *ThreadRef
	Queued       int
}

// ThreadRef names one thread with where it is and what it waits for.
type ThreadRef struct {
	Name    string // JVM name, or "goroutine N"
	State   string // signature id ("monitor-blocked"); "" if unclassified
	Frame   string // top frame
	Culprit string // first application frame; "" if none
	// WaitsFor is the lock it is blocked on; nil if none.
	WaitsFor *LockRef
	// Handoff is the hand-off it waits on as a producer (a lock's holder
	// waiting for room in a library's buffer), Consumers who is on its
	// other side and ConsumerLoop as Finding's; "" and nil when none.
	Handoff      string
	Consumers    []HolderGroup
	ConsumerLoop bool
	// Waits: its state is a wait, not work (a lock's holder asleep, in
	// I/O, on a future): the holder's wait is then its waiters' root.
	Waits bool
	// Orphaned is, for a lock's holder in an untimed wait on a monitor,
	// condition or latch, the class of what it waits on when no other
	// thread of the dump could signal it (orphanedHolderWait, inferred
	// from the stacks); "" otherwise.
	Orphaned string
}

// LockRef is a lock without its owner. A class's initialization (a
// deadlock of basis "class-init") has no Address, and Class is the class.
type LockRef struct {
	Address, Class string
	Holder         string // name of the thread holding it; "" if not printed
	// Handoff, when set, says the wait is for room in this hand-off, and
	// Holder is its one consumer thread (no lock: Address and Class "").
	Handoff string
	// Future, when set, says the wait is for a future (a FutureTask's
	// get), and Holder the thread running a task, the one the cycle
	// goes through (the dump prints not which task a thread runs).
	Future bool
	// ReadHolder, when set, says Holder is inferred: the likely holder of
	// a read lock (no dump prints one), the one thread outside its
	// waiters that runs the class whose methods take it.
	ReadHolder bool
	// Chan, when set, says the wait is a Go channel operation ("send",
	// "receive", "select") of a channel cycle (gochans.go): no lock, and
	// Address, Class and Holder "" (Go prints no channel's partner).
	Chan string
}

// CycleMember is one thread of a deadlock cycle.
type CycleMember = ThreadRef

// HolderGroup is what some holders of a pooled resource are doing.
type HolderGroup struct {
	Pool    string
	State   string
	Via     string
	Culprit string
	Count   int
	// Rest is what the group rests in, for a kept-alive finding (restLoops:
	// "executor", "timer", "monitor", "condition", "queue", "latch",
	// "sleep"): what would end it. Empty elsewhere, and when unknown.
	Rest string
}

// BasisExecutorLeak marks a leak of thread owners: executors, timers,
// clients made per call and never shut down (Finding.Owners).
const BasisExecutorLeak = "executor-leak"

// BasisExecutorCrowd marks the same told by one moment's names: more
// owners than PoolIDLeak of one naming shape, each with the same idle
// threads.
const BasisExecutorCrowd = "executor-crowd"

// OwnerFact is what a leak of thread owners shows (detect_executor_leak.go).
// The owners are told by their threads' names: the id before a member
// counter ("pool-78-thread-2": executor 78), or the whole name of a thread
// that is its owner's only one ("Timer-78").
type OwnerFact struct {
	// Family is the threads' names with the owner's id, and a member
	// counter, as "*" ("pool-*-thread-*", "Timer-*").
	Family string
	// What the owners are, by the loop their threads rest in (restLoops,
	// ownerKinds): "executor", "timer", "event-loop group", "HTTP client";
	// "" when the loop does not say.
	What string
	// Loop is the frame of the loop their resting threads wait in, without
	// its package ("ThreadPoolExecutor.getTask", "TimerThread.mainLoop");
	// "" when none is known.
	Loop string
	// Alive are the owners seen per moment (by Result.Moments index; 0
	// where no dump), AtRest those of them whose every thread rests.
	Alive, AtRest []int
	// New is how many owners at rest at the last moment were not alive at
	// the first: made meanwhile and never shut down; 0 from one moment.
	New int
	// PerOwner is how many threads each owner at rest keeps at the last
	// moment (the most common count).
	PerOwner int
	// Kept is the least share, over consecutive moments, of one moment's
	// owners still alive at the next; 0 from one moment.
	Kept float64
	// FirstID is the highest owner id alive at the first moment, LastID
	// and LowestID the highest and the lowest at the last, each as its
	// name shows it up to the id ("pool-78", "Timer-78").
	FirstID, LastID, LowestID string
	// PerThread: each owner is one thread whose name ends at its id
	// ("Timer-78", by its loop: Roles.OwnerLoops); false for an id before
	// a member counter ("pool-78-thread-2").
	PerThread bool
}

// WaitFact is what a Go dump prints of how long goroutines have waited.
type WaitFact struct {
	MinMinutes, MaxMinutes int
	// Goroutines is how many of the threads concerned print a wait time.
	Goroutines int
	// Measured is the longest wait an execution trace measured among the
	// threads concerned (parse.GoExtra.Waited); 0 when the format measures
	// none. AtLeast is true when that wait began before the trace did, so
	// Measured is a lower bound.
	Measured time.Duration
	AtLeast  bool
	// Held is how many of the goroutines concerned were, by their id, in
	// the very same wait with the very same stack at each of HeldMoments
	// moments (all given); HeldSpan is the time from the first of them to
	// the last, the least time they waited, 0 when the dumps print no
	// time. 0 when the finding is not told from the ids (heldgo.go).
	Held, HeldMoments int
	HeldSpan          time.Duration
	// HeldRecords: the dumps print no ids (debug=1): Held counts the
	// goroutines of records with the same stack and count at every moment,
	// the same goroutines or others that took their places.
	HeldRecords bool `json:",omitempty"`
}

// measuredWait is the longest wait an execution trace measured among ts;
// zero when none was measured.
func measuredWait(ts []*parse.Thread) (longest time.Duration, atLeast bool) {
	for _, t := range ts {
		if t.GoExtra != nil && t.Waited > longest {
			longest, atLeast = t.Waited, t.WaitedAtLeast
		}
	}
	return longest, atLeast
}

// Evidence is what one moment shows for a finding.
type Evidence struct {
	Moment  int      // index into Result.Moments
	Count   int      // threads concerned at that moment
	Threads []string // sample thread names or goroutine ids
}

// FrameCount is a frame and how many threads show it.
type FrameCount struct {
	Func  string
	Count int
	// Probe is true for a health, readiness or liveness check (entry points).
	Probe bool
}

// The waiters of AwaitFact.Waiter other than the entry thread.
const (
	WaiterHook = "hook"
	WaiterUI   = "ui"
)

// AwaitFact is a hand-off wait that no thread of the dumps can serve: what
// it waits on, what its other side would do, and the threads tied to it
// that cannot (basis "no-peer", no_peer.go).
type AwaitFact struct {
	What    string // what it waits on: "a CountDownLatch", "a thread's end"
	Peer    string // what its other side would do: "count it down"
	Address string // the object it parks or waits on, as printed; "" when none is
	// Peers are the threads tied to the wait, each with what it does (none
	// can serve: each waits itself): another party at the same object, the
	// thread a join or a get waits for, a thread running code the waiting
	// method wrote (its lambdas, its anonymous classes); the first five.
	Peers []ThreadRef
	// Waiting and Idle count the other application threads (Peers left
	// out): waiting untimed elsewhere, and at rest in an executor's loop
	// (they run only what someone submits).
	Waiting, Idle int
	// Timed: the wait has a deadline the caller sets long or renews
	// (awaitTermination): said as a wait, not an untimed one.
	Timed bool
	// Waiter is what the waiting thread is to the program: WaiterHook (a
	// shutdown hook of a JVM running its hooks: it cannot exit until the
	// hook ends), WaiterUI (a UI's event thread, in an event's handler:
	// no event is dispatched while it waits); "" for the program's entry
	// thread (main).
	Waiter string
}

// SelfLockFact is the structure a Go self-deadlock is read from
// (goself.go): below the method that calls Lock, a frame of a method of the
// same value.
type SelfLockFact struct {
	// Frame is that outer frame, "main.(*registry).Refresh (main.go:45)".
	Frame string
	// Receiver is the value's address as its frames print it.
	Receiver string
	// InValue is true when the lock's printed address lies inside that
	// value (Offset bytes from its start): the stronger tie. False when
	// the tie is the lock's caller printing the same receiver (the lock's
	// address not printed, or outside the value: a pointer field).
	InValue bool
	Offset  uint64
}
