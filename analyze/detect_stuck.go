package analyze

import (
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/dumpdiff/dumpdiff/parse"
)

// The stuck detector's thresholds. What each protects against is said
// once, in the detector's Thresholds below (README.md's table is made from
// them; TestThresholdsBeside keeps each beside its detector).
const (
	StuckMin       = 5
	StuckTaskFloor = 2
	StuckShare     = 0.5
	ChosenShare    = 0.5
	// Go's printed waits in work (goWorkWaits).
	WorkWaitMinutes = 1
	WorkRestMinutes = 5
	// One whole dump's peer waits in a pool (poolPeerWaits):
	// PeerShare is the share of a pool's threads at the moment in one
	// named peer wait: most of the pool then serves at that peer's pace.
	// A healthy busy pool spreads over the CPU, several peers and its
	// idle workers.
	PeerShare = 0.5
	// PeerWaitMin is the floor: one or two workers in one call at one
	// instant are a call in flight, not told from noise.
	PeerWaitMin = 3
	// PeerPoolFloor is the fewest threads of a pool that, all of them in
	// one client read at every moment (peerPool), are stuck: one thread
	// alone in a read of its own is a push client's reader as often as a
	// stuck call.
	PeerPoolFloor = 2
	// PeerElapsedMin and PeerCPUShare: one JVM dump's whole pool in one
	// client read (peerLifetime), each thread alive this many seconds with
	// at most this share of its life on CPU.
	PeerElapsedMin = 60 // seconds
	// PeerProgramMin: the fewest client reads a Go program all waiting
	// on them is stuck on (peerProgram).
	PeerProgramMin = 1
	PeerCPUShare   = 0.01
	// RoundTripStay is how long a JVM thread's own round trip (a query,
	// an HTTP call's response head, a name lookup, a peer's reply inside a
	// scheduled job or a pool's task) must stay unanswered, the very same
	// thread in the same place from the first moment to the last, to be
	// stuck alone (oneRoundTrip).
	RoundTripStay = 8 // seconds
	// Hand-offs nothing left can serve (orphanedWaits): every
	// application thread, this many or more, waits untimed on one.
	OrphanedMin = 2
	// A lone lock waiter whose holder no dump prints (sameLockWait).
	StuckLockMoments = 3
	StuckLockSpan    = 10 // seconds
	// Go goroutines held, by their id, in a wait at every moment
	// (heldgo.go): HeldWaitMin and HeldSpanSeconds.
	HeldWaitMin     = 2
	HeldSpanSeconds = 4
	// Request handlers of one debug=1 profile parked in a channel
	// operation at one function (handlers_chan.go).
	HandlersChanMin = 50
)

var stuckDetector = &Detector{
	Name:  KindStuck,
	Kinds: []string{KindStuck},
	Doc:   "the very same threads in the same wait and culprit at every moment given, most of their pool, with no rise needed: what a first dump taken mid-incident shows; at any count, and on one dump as one dump's evidence, threads in a named wait (a peer's reply, a pool's item, a lock) that are most of a paste a person cut, or that are with their lock's holders every application thread of the dump, or a known client's peer wait held by most of a pool's workers inside their work; a JVM thread alone in the same untimed Object.wait or Condition.await at every moment with no thread left that could signal it (none runs its package but in an untimed wait of its own, in a process that takes no calls: a missed signal, said as an inference); the program's entry thread (main) alone in a hand-off wait (a latch, a barrier, a phaser, an Exchanger, a queue's put or take, a transfer, a join, a future's get, awaitTermination, a Condition or a monitor's wait) that no thread of any moment can serve: every other application thread waits untimed itself or idles in an executor's loop, the same threads at every moment, and the process takes no calls (main waiting is the whole program waiting: one thread is enough; on one dump said as a warning), where a waiting thread is tied to main's wait (a party at the same barrier, the thread its join or get waits for, one running main's lambdas) or the wait is one no program parks main in by design (a producer's put, an Exchanger, a barrier, a phaser, a transfer, awaitTermination); a latch, a Condition, a monitor, a take or a join tied to no thread is main's park until shutdown too, and nothing is said, but for a latch whose counters died: awaited under no method named for the process's end (shutdown-wait roles: awaitShutdown, keepAlive), in a step of the work below main or beside an executor's idle workers (they ran its tasks, which ended with it closed); a shutdown hook of a JVM running its hooks (started by them: younger than their runner) in such a wait that nothing can serve, the JVM unable to exit, with the threads it may join named; a UI's event thread (AWT, JavaFX, SWT) in such a wait inside an event's handler (the UI frozen: it is the one that would take calls); a stuck finding names the threads that wait untimed on a hand-off its threads would serve (main's latch its own lambdas count down after a read with no deadline, a join or a get of them): they follow from it and get no finding of their own; Go goroutines the runtime prints waiting minutes in their work (or, in a paste a person cut, in a rest under a call of their own), or that the dumps show by their ids in the same wait at every moment before any age is printed, or on a WaitGroup nothing left can count down; and the waiting goroutines of the tests go test stopped at their -timeout (its own verdict, on one dump)",
	Requires: []*Detector{timelineDetector, leakedDetector, deadlockDetector, eventLoopDetector, contentionDetector, poolExhaustedDetector, explosionDetector,
		spinningDetector, keptAliveDetector},
	Folds: "nothing; a group that rose from a healthy first moment is the timeline's (not-recovered), a Go group blocked for minutes the leak's",
	Thresholds: []Threshold{
		{"StuckMin", StuckMin, "without a rise, the very same threads in the same wait and culprit at every moment are stuck from this many, when they wait in a loop of their own (a reader per connection, a consumer per partition wait in one place by design)"},
		{"StuckTaskFloor", StuckTaskFloor, "…or from this many when they wait inside a task a pool gave them, or for room in a full queue (a producer's back-pressure, no rest of its loop), or untimed at a latch, barrier or phaser as threads of their own (a gathering whose peers never come), their pool's share deciding (a fixed pool of 8 with 8 held is stuck): the floor because one thread in one long call cannot be told from noise, and one thread on a latch is main's shutdown latch by design"},
		{"WorkWaitMinutes", WorkWaitMinutes, "in Go, a goroutine the runtime prints as waiting this many minutes (from 1) under its own work is stuck, alone and in one dump: in a send, a pool's or a client's wait under a call its own function made (a request does not wait a minute for a channel or a connection); in a rest (select, receive, a read, a Cond) only under a unit of work a server or runner gave it (Roles.GoWork), from WorkRestMinutes. A goroutine whose own function waits (an accept loop, a worker on its job channel, a signal or ticker loop) rests there for days by design, and a lock's waiters are contention's"},
		{"WorkRestMinutes", WorkRestMinutes, "…a rest under a unit of work counts from this many minutes, when fewer than LeakMin of the group rest that long: a long poll answers within a minute or two; a streaming endpoint's handlers (server-sent events, websockets) rest between events by the hundred, alike, which is the leak detector's to judge by their parents and spread (a few streams held open longer read as stuck: the dump prints nothing that tells a stream from a request that never ends). Not relative to the process's ordinary wait: each stuck request brings goroutines that wait as long (its connection's background read), and a crowd behind one holder makes minutes ordinary. In a paste a person cut (no goroutine 1: goPasted) a rest under a call of the goroutine's own (a read of a reply, a receive nobody sends to) counts from this many too, when it is ChosenShare of the paste: what they kept is what they ask about; a rest in the goroutine's own function and a library's loop (net/http's keep-alive reads, whose age is the connection's idle time up to the process's uptime) never count"},
		{"HeldWaitMin", HeldWaitMin, "in Go, goroutines that the dumps print with the same id, in the same wait, with the same stack at every moment given (two at least) waited at least the moments' span, printed or not: stuck from this many, in the waits the printed minutes count (no rest, under a call their own function made or a request's work; not a lock's, which contention and deadlock follow), when no minute is printed yet (a stall under a minute old). The floor because one goroutine in one slow call cannot be told from noise, and the id cannot tell a goroutine that stayed from one that came back to the same frames between every two dumps (a producer held back by its consumer at each look). The deadlock detector takes a Go lock cycle the runtime prints no age for from the same count of moments (the argument graph's, and two lone waiters on two mutexes no frame ties to a holder: gopairs.go): a Go mutex waited on that long was held all along (after 1 ms its waiters are served in turn), so two moments with the very same ids, lines and lock addresses, and nothing else staying, are enough; one moment alone is a warning, one moment's evidence (golockclosed.go)"},
		{"HeldSpanSeconds", HeldSpanSeconds, "…and, when the dumps print their times, over at least this many seconds: dumps closer than that show calls in flight (a request to a slow upstream answers within seconds); dumps 5 s apart span 4.6–5.4 s between two of them, taken by hand or by a schedule; the same span for a Go lock cycle with no age printed"},
		{"StuckShare", StuckShare, "…and when they are at least this share of their pool at the last moment: one long call is not a stuck pool. Threads in a wait that costs no CPU (a read, a connect, a Thread.sleep) whose cpu= rose by CPURanMin between every two moments are not counted: they ran between the dumps (a pool's worker sleeping in one short task after another). A wait is not stuck at any count when it is served: between every two moments some of its threads got through, and its pool's threads past it (running the waiters' own method at another line: the permit holders) are other threads at each moment (a throttle whose permits rotate; progress.go)"},
		{"PeerShare", PeerShare, "on one whole dump, threads in a named wait on a peer (a reply under a DB driver's query, an HTTP or gRPC call), each inside the unit of work its pool gave it, are their pool's story from this share of the pool's threads: most of the pool then serves at that peer's pace, where a healthy busy pool spreads over the CPU, several peers and idle workers; said as one dump's evidence, which cannot tell stuck from busy"},
		{"PeerWaitMin", PeerWaitMin, "…and from this many threads: one or two workers in one call at one instant are a call in flight, not told from noise"},
		{"PeerPoolFloor", PeerPoolFloor, "below StuckMin, a JVM pool whose threads, all of them and this many or more at every moment, the very same, wait in one client read (a plain socket read or a round-trip client's) under application code, none running between the moments, over RoundTripStay, is stuck whatever its size (a pool of 2 with 2 held serves at its peer's pace: nothing). The floor is the one place a count decides: one thread alone in a read of its own is a push client's reader or a listener as often as a stuck call. Not counted: a server's connections (its via rests), an HTTP client's body or a library's long poll (no round trip), a read with no application frame (a library's own loop), threads whose cpu= rose between the moments; said as a warning, not critical (a few threads reading at every moment are a few calls nobody answers or a feed's readers), and as info beside an accept loop of the application's own, whose connections' threads read their clients' next request the same way (a hand-written thread-per-connection server)"},
		{"PeerElapsedMin", PeerElapsedMin, "on one JVM dump that prints cpu= and elapsed= (JDK 11+), a pool's threads, all of them and PeerPoolFloor or more, in one client read at one application line, each alive this many seconds or more, are a warning (basis peer-lifetime): a pool started for a call in flight is younger, and a healthy pool whose reads return is seldom all in one read at one instant. elapsed= is the thread's age, not its wait's: the weaker evidence"},
		{"PeerCPUShare", PeerCPUShare, "…and each on CPU for at most this share of its life: a thread that served calls, parsed replies or computed between its reads has spent more; one that connected, asked and has waited since has spent almost none. A pool of push readers idle since they started looks the same, which is why it is a warning"},
		{"PeerProgramMin", PeerProgramMin, "in Go, one whole dump (goroutine 1 in it; not a paste a person cut) (or the very same goroutines at every moment): every application goroutine waits, none running, sleeping or in a select with cases (a timer may end it), and the only waits not on another goroutine (a channel, a lock, a WaitGroup, a Cond, main's select with no cases) are client reads under application code and acceptors: the program waits on its peer, from this many reads (one: main's read is the whole program, and a program whose every other goroutine waits on it has nothing else to run). A read by a goroutine created by the accept loop's function is the server's connection reading its next request, and then nothing is said; a net/http server's or a library's reads are their vias' rests. A warning where the program's main path waits on its reads (main reads, or waits in a WaitGroup, a lock, or a channel with no os/signal loop beside it), else info: a push client's reader at rest on a quiet stream while main waits for a signal or in select {} looks the same (go-pushclient-healthy); one dump cannot tell a reply that never comes from a slow one; its printed minutes are told"},
		{"RoundTripStay", RoundTripStay, "below StuckTaskFloor, a JVM thread waiting for the answer to its own request (a JDBC query's result, an HTTP client's response head, a DNS lookup, a peer's reply inside a scheduled job or a pool's task), the very same thread in the same place with no CPU from the first moment to the last, is stuck alone when the moments span this many seconds (and it is its pool's share): an answer that late is no call in flight of a service, and its dumps, 5 s apart, span 9.6 s and more; said as a warning (one thread cannot tell a 30 s report query from a hang). A thread reading in its own loop (a push client's reader, a server connection between requests, a UDP listener) rests there and is not counted"},
		{"OrphanedMin", OrphanedMin, "…and from one thread, at two moments or more, where no other finding is: threads waiting untimed on a hand-off (a latch, room in a full queue, a future, a notify) when every application thread of the process, this many or more, waits so at every moment, the very same, one of them a producer waiting for room: no thread is left to take from the queue, count the latch down or signal (its consumer or counter died). Latches and notifies alone are main's shutdown latch and threads parked until a signal by design; a consumer resting in take, a pool's idle worker, a running thread could be the other side"},
		{"StuckLockMoments", StuckLockMoments, "…and from one thread: the very same threads parked on the very same lock object in the same frames at this many moments or more, every moment given, with no holder printed (a read lock, a library's own lock on LockSupport: IntelliJ's ReadMostlyRWLock): a healthy lock passes in milliseconds, a waiter caught on it three times 5 s apart waits for a holder that does not let go; the holder's finding (contention) tells it where a holder is printed"},
		{"StuckLockSpan", StuckLockSpan, "…spanning this many seconds or more from the first moment to the last: dumps taken in a burst catch a busy lock's waiter twice by chance"},
		{"HandlersChanMin", HandlersChanMin, "one debug=1 profile (a fragment a person pasted, with its header) whose net/http handlers are parked in a channel operation (a send or a receive, hidden by the profile; not a select) at one application function, this many or more and ChosenShare of the server's connection goroutines, is a warning naming that function with the profile's header total (handlersOnChannel): a server handing each request's work to workers over a channel has a few dozen handlers in that operation for the milliseconds the work takes, under load"},
		{"ChosenShare", ChosenShare, "below every count above, threads in a named wait (a peer's reply, a pool's item, a lock) are the story of a paste a person cut from a dump when they are at least this share of its application threads (the person chose them; a whole dump pasted without its head is mostly other threads), and of a whole dump when every application thread is in a named wait or holds the lock one waits for (nothing else runs or rests); on one dump this is said as one dump's evidence, which cannot tell stuck from busy"},
	},
	Run: runStuck,
}

func runStuck(p *Pass) []Finding {
	r := p.R
	n := len(r.Moments)
	// One moment cannot show that threads stay: what it says is the
	// held waits' (heldWaits), said as one dump's evidence.
	held := heldWaits(r)
	for g := range poolPeerWaits(r, p.opt.roleTable()) {
		if held[g] == "" {
			if held == nil {
				held = map[*Group]string{}
			}
			held[g] = "pool"
		}
	}
	told := map[*Group]bool{}
	for _, f := range append(p.Found(timelineDetector), p.Found(leakedDetector)...) {
		for _, pl := range r.Pools {
			if pl.Name != f.Pool {
				continue
			}
			for _, g := range pl.States {
				if g.State == f.State && g.Via == f.Via {
					told[g] = true
				}
			}
		}
	}
	// Go prints how long each goroutine has waited: one moment shows a
	// goroutine stuck in its work (the groups found are told).
	// go test's own verdict: the tests it stopped at their deadline hung,
	// on what their goroutines wait for; that is the one-dump story.
	if hung := hungTests(p); len(hung) > 0 && n < 2 {
		return hung
	}
	// The locks a contention finding tells (its holder, or the writer
	// queued first): their lone waiters are its.
	toldLocks := map[string]bool{}
	for _, f := range p.Found(contentionDetector) {
		if f.Lock != nil {
			toldLocks[f.Lock.Address] = true
			for _, a := range f.Lock.Addresses {
				toldLocks[a] = true
			}
		}
	}
	// The locks a deadlock's threads wait for, each held by one of them:
	// a lone waiter on one follows from the deadlock.
	cycleLocks := map[string]string{}
	for _, f := range p.Found(deadlockDetector) {
		for _, c := range f.Cycle {
			if c.WaitsFor != nil && c.WaitsFor.Address != "" {
				cycleLocks[c.WaitsFor.Address] = f.ID
			}
		}
	}
	// Hand-offs nothing left can serve, where no other finding tells the
	// process's story (a deadlock's threads wait on hand-offs too: their
	// counterparts are there, stuck, not gone).
	var orphaned map[*Group]bool
	if len(p.FoundAll()) == 0 {
		orphaned = orphanedWaits(r)
	}
	type orphanAt struct {
		pl *Pool
		g  *Group
	}
	var orphans []orphanAt
	fs := goWorkWaits(p, told)
	if n < 2 && len(held) == 0 {
		// One moment cannot show that threads stay; main's hand-off that
		// nothing in the dump can serve, and a debug=1 profile's request
		// handlers blocked on a channel, are said as one dump's evidence.
		fs = append(fs, handlersOnChannel(p)...)
		fs = append(fs, peerProgram(p, len(fs) > 0 || len(p.FoundAll()) > 0)...)
		fs = append(fs, peerLifetime(p, len(fs) > 0)...)
		return append(fs, noPeerWaits(p, len(fs) > 0)...)
	}
	for _, pl := range r.Pools {
		if pl.Internal {
			continue
		}
		for _, g := range pl.States {
			// A wait inside a pool's task holds one of the pool's threads: the
			// pool's share decides, whatever its size, down to the floor. A
			// virtual thread is no pool's: one per task, by design.
			min := StuckMin
			if g.pooledWork(n-1) && !virtualPool(pl) {
				min = StuckTaskFloor
			}
			// A gathering of peers (a latch, a barrier, a phaser) whose
			// waiters stay: no rest, from the floor (gathered).
			rest := g.Rest
			if rest && gathered(g, n) {
				rest, min = false, StuckTaskFloor
			}
			// Producers waiting for room in a full queue at every moment:
			// back-pressure, not a rest of their own loop (issue 33: the
			// producer side of a hand-off), from the floor.
			if g.Resource == "queue-space" && g.Category == Waiting {
				if min > StuckTaskFloor {
					min = StuckTaskFloor
				}
			}
			// A whole pool in one client read at every moment, none
			// running: stuck whatever its size, from the floor (peerwait.go).
			whole := !rest && peerPool(r, pl, g, n)
			if whole && min > PeerPoolFloor {
				min = PeerPoolFloor
			}
			// A thread's own round trip that stays: stuck alone.
			one := !rest && oneRoundTrip(r, g, n)
			if one {
				min = 1
			}
			lockCause := ""
			if addr, ok := sameLockWait(r, g, n, toldLocks); ok && p.explainedBy(g, n-1) == "" {
				min = 1 // alone, and no other finding tells its wait
				lockCause = cycleLocks[addr]
			}
			// Stayed, not Always: threads that joined at a later moment and
			// never left are as stuck as those there from the start; but some
			// must be there from the first moment, else it rose, and a rise is
			// the timeline's to judge.
			stayed := g.held()
			why := held[g]
			stuckAnyway := why != "" || n >= 2 && g.Category == Waiting && !rest && g.Always > 0 && stayed >= min &&
				float64(stayed) >= StuckShare*float64(pl.Counts[n-1])
			// A wait whose threads get through while the pool's threads
			// past it rotate (a throttle doing its job) is served, however
			// many wait (servedWait, progress.go).
			if stuckAnyway && why == "" && r.served(pl, g) {
				stuckAnyway = false
			}
			// A hand-off nothing left can serve: stuck from one thread,
			// where no other finding tells it.
			orphan := !stuckAnyway && orphaned[g] && p.explainedBy(g, n-1) == ""
			if told[g] || !stuckAnyway && !orphan {
				continue
			}
			if orphan {
				orphans = append(orphans, orphanAt{pl, g})
				continue // said only if nothing else is (below)
			}
			claim := p.explainedBy(g, n-1)
			if claim != "" && (p.GroupClaim(g) == claim || why != "" && n == 1) {
				continue // a pool-exhausted finding tells it; on one dump, whatever finding explains it
			}
			f := groupFinding(KindStuck, pl, g, n-1)
			if g.Resource == "class-init" {
				f.InitClass = initClass(g.Threads[n-1])
			}
			if g.Resource == "monitor" || g.Resource == "lock" {
				// Blocked on one lock while holding another: a link of a
				// chain, and a root for the threads behind it, even when a
				// paste holds none of them (judge4 45).
				f.Holding = heldWhileWaiting(g.Threads[n-1])
			}
			f.Severity = Critical
			f.Since, f.FromStart = 0, true
			f.Same = stayed
			f.Always = g.Always
			f.CausedBy = claim
			if one && stayed < StuckTaskFloor && why == "" {
				f.Severity = Warning // one thread: a slow call or a stuck one
				f.Basis = basisRoundTrip
			}
			if f.CausedBy == "" {
				f.CausedBy = lockCause // behind a lock a deadlock's thread holds
			}
			if whole && stayed < StuckMin && why == "" && f.Basis == "" {
				f.Basis = BasisPeerPool
				// A few threads in reads at every moment are a few calls
				// nobody answers, or a push feed's readers: a warning.
				// Beside an accept loop of the application's own (a
				// hand-written server) they may be its connections,
				// idle keep-alive readers: a suspect (peerwait.go).
				f.Severity = Warning
				if appAccepts(r, n-1) {
					f.Severity = Info
				}
			}
			if why != "" {
				f.Basis = heldBasis(n, why)
				if n == 1 {
					f.Severity = Warning // one dump cannot tell stuck from busy
					f.Same = g.Counts[0]
				}
			}
			fs = append(fs, f)
		}
	}
	fs = dropHeldTold(fs)
	// The orphaned hand-offs are the story only when nothing else is: a
	// stuck group found above has its counterparts (stuck, not gone).
	if len(fs) == 0 {
		for _, o := range orphans {
			f := groupFinding(KindStuck, o.pl, o.g, n-1)
			f.Severity = Critical
			f.Since, f.FromStart = 0, true
			f.Same, f.Always = o.g.held(), o.g.Always
			f.Basis = "orphaned"
			fs = append(fs, f)
		}
	}
	skip := map[[2]string]bool{}
	for _, f := range fs {
		skip[[2]string{f.Pool, f.State}] = true
	}
	fs = append(fs, noSignallerWaits(p, skip)...)
	// A Go program whose every goroutine waits on its client reads
	// (peerwait.go), and the entry thread's hand-off waits nobody can serve
	// (no_peer.go), where no finding above tells the process's story.
	fs = append(fs, peerProgram(p, len(fs) > 0 || len(p.FoundAll()) > 0)...)
	fs = append(fs, noPeerWaits(p, len(fs) > 0)...)
	linkTaskWaits(fs, append(p.FoundAll(), fs...))
	linkHandOffWaiters(p, fs)
	return fs
}

// dropHeldTold drops the findings told from the goroutines' ids alone
// (held-moments) of a group that another stuck finding tells.
func dropHeldTold(fs []Finding) []Finding {
	other := map[string]bool{}
	for _, f := range fs {
		if f.Basis != "held-moments" {
			other[f.ID] = true
		}
	}
	out := fs[:0]
	for _, f := range fs {
		if f.Basis != "held-moments" || !other[f.ID] {
			out = append(out, f)
		}
	}
	return out
}

// linkTaskWaits: threads stuck waiting for a task's result (Future.get)
// follow from the stuck threads that run those tasks, when the stacks show
// it: javac names a lambda after the method that defines it, so a task
// whose entry is ReportController.lambda$handle$0 was submitted by
// ReportController.handle, the waiters' culprit.
func linkTaskWaits(fs, all []Finding) {
	for i := range fs {
		f := &fs[i]
		if f.Resource != "task-result" || f.CausedBy != "" || f.Culprit == "" {
			continue
		}
		fn := f.Culprit
		if j := strings.IndexByte(fn, '('); j >= 0 {
			fn = fn[:j]
		}
		dot := strings.LastIndexByte(fn, '.')
		if dot < 0 {
			continue
		}
		prefix := fn[:dot] + ".lambda$" + fn[dot+1:] + "$"
		for _, o := range all {
			if o.ID == f.ID || o.Pool == f.Pool || o.Resource == "task-result" {
				continue
			}
			for _, e := range o.Entries {
				if strings.HasPrefix(e.Func, prefix) {
					f.CausedBy = o.ID
				}
			}
		}
	}
}

// gathered reports whether g's threads wait, at every moment, untimed, at
// a gathering of peers (Resource "latch": a CountDownLatch, a
// CyclicBarrier, a Phaser) as threads of their own: a latch wait rests by
// design for one thread (main on its shutdown latch, a lone waiter) or
// with a timeout in a loop (the latch as an interruptible sleep,
// TIMED_WAITING), but threads of one pool gathered and kept waiting wait
// for peers that do not come (a counter that failed before it counted, a
// party that never arrived): the floor StuckTaskFloor and the pool's share
// keep the lone waiter out (testdata/verdicts/peers-stuck).
func gathered(g *Group, n int) bool {
	if g.Resource != "latch" || g.Category != Waiting {
		return false
	}
	for m := range n {
		if m >= len(g.Threads) {
			return false
		}
		for _, t := range g.Threads[m] {
			if t.State != "WAITING" {
				return false
			}
		}
	}
	return true
}

// gatherWaits are the waits for peers or another task (a latch, a
// barrier, a phaser, a future's result): untimed, they do not wake to poll
// as a monitor's waiters do, so cpu= grown between every two dumps means
// the thread was let through and came back (a barrier that trips every
// round), as for Still resources.
// Not a [roles] key: resource ids of the signature table, which a team's
// [signature] row names (resource =).
var gatherWaits = map[string]bool{"latch": true, "task-result": true}

// sameLockWait reports whether g's threads wait for a lock (Resource
// "lock") whose holder no dump prints, the very same threads parked on
// the very same lock object at every moment, StuckLockMoments or more
// spanning StuckLockSpan seconds (the detector's thresholds say why);
// addr is one lock they wait for.
func sameLockWait(r *Result, g *Group, n int, told map[string]bool) (addr string, ok bool) {
	if g.Resource != "lock" || g.Category != Waiting || n < StuckLockMoments || len(g.Threads) < n {
		return "", false
	}
	first, last := r.Moments[0].Time, r.Moments[n-1].Time
	if first.IsZero() || last.Sub(first).Seconds() < StuckLockSpan {
		return "", false
	}
	waits := func(m int) map[string]string {
		out := map[string]string{}
		for _, t := range g.Threads[m] {
			for _, l := range t.Locks() {
				if l.Kind == parse.LockParking && l.Address != "" && l.Owner == "" {
					out[t.Name()] = l.Address
				}
			}
		}
		return out
	}
	w0 := waits(0)
	if len(w0) == 0 || len(w0) != len(g.Threads[0]) {
		return "", false
	}
	for _, a := range w0 {
		if told[a] {
			return "", false
		}
		for m := range n {
			if d := r.Moments[m].Dump; d != nil && heldAt(d, a) {
				return "", false // its holder printed: contention's to judge
			}
		}
		addr = a
	}
	for m := 1; m < n; m++ {
		if !maps.Equal(w0, waits(m)) {
			return "", false
		}
	}
	return addr, true
}

// held is how many of the group's threads stayed in its wait (Stayed)
// without running between the dumps: in a wait that costs no CPU
// (Resource.Still), a thread whose cpu= rose between every two dumps
// (StayedRan) left the wait and came back, as a server's connection
// threads do, answering requests between reads; they look held and are
// not. Where cpu= is not printed (Go, JDK 8) StayedRan is 0.
func (g *Group) held() int {
	if r := resourceByID(g.Resource); r != nil && r.Still || gatherWaits[g.Resource] {
		return g.Stayed - g.StayedRan
	}
	return g.Stayed
}

// oneRoundTrip reports whether g's threads wait for the answer to their
// own request — under a round-trip client or an HTTP client's response
// head (roundTrip), in a name lookup, or for a peer's reply inside a task
// a pool gave them (a scheduled job) — over moments that span
// RoundTripStay: a JVM's moments, each printing its time.
func oneRoundTrip(r *Result, g *Group, n int) bool {
	if r.Runtime != parse.RuntimeJVM || n < 2 || g.Resource != "peer-reply" || g.Category != Waiting {
		return false
	}
	first, last := r.Moments[0].Time, r.Moments[n-1].Time
	if first.IsZero() || last.IsZero() || last.Sub(first) < RoundTripStay*time.Second {
		return false
	}
	var t *parse.Thread
	if n-1 < len(g.Stacks) {
		t = g.Stacks[n-1]
	}
	return g.State == "dns-lookup" || roundTrip(g.Via, t) || g.pooledWork(n-1)
}

// heldAt reports whether a thread of d holds the lock at addr (a monitor
// it locked, an ownable synchronizer).
func heldAt(d *parse.Dump, addr string) bool {
	for _, t := range d.Threads {
		for _, l := range t.Locks() {
			if (l.Kind == parse.LockOwnable || l.Kind == parse.LockHeld) && l.Address == addr {
				return true
			}
		}
	}
	return false
}

// heldWhileWaiting are the locks threads ts hold while they wait, other
// than one they wait on (Object.wait prints the monitor it released as
// locked too), the first three by address; nil if none.
func heldWhileWaiting(ts []*parse.Thread) []LockRef {
	seen := map[string]bool{}
	var out []LockRef
	for _, t := range ts {
		waits := map[string]bool{}
		for _, l := range t.Locks() {
			if l.Kind == parse.LockWaitingOn || l.Kind == parse.LockWaitingTo || l.Kind == parse.LockParking {
				waits[l.Address] = true
			}
		}
		for _, l := range t.Locks() {
			if (l.Kind == parse.LockHeld || l.Kind == parse.LockOwnable) && l.Address != "" && !waits[l.Address] && !seen[l.Address] &&
				!anchorMatch(workerLocks, l.Class) {
				seen[l.Address] = true
				out = append(out, LockRef{Address: l.Address, Class: l.Class})
			}
		}
	}
	slices.SortFunc(out, func(a, b LockRef) int { return strings.Compare(a.Address, b.Address) })
	if len(out) > 3 {
		out = out[:3]
	}
	return out
}

// initClass is the class ts wait to see initialized ("waiting on the
// Class initialization monitor for C"); "" when none prints it.
func initClass(ts []*parse.Thread) string {
	for _, t := range ts {
		for _, l := range t.Locks() {
			if l.Kind == parse.LockClassInit && l.Class != "" {
				return l.Class
			}
		}
	}
	return ""
}

// handoffResources are the waits for another thread of the process to
// act (count down, take, complete, signal), as opposed to a peer, a lock
// or a rest.
// Not a [roles] key: resource ids of the signature table, which a team's
// [signature] row names (resource =).
var handoffResources = []string{"latch", "queue-space", "peer-handoff", "task-result", "condition"}

// orphanedWaits are the groups waiting untimed on a hand-off when, at
// every moment (two or more), every application thread of the process,
// OrphanedMin or more, is in such a wait, the very same threads, one of
// them a producer waiting for a taker: nothing left runs, rests in a loop
// or serves that could be the other side.
func orphanedWaits(r *Result) map[*Group]bool {
	n := len(r.Moments)
	if n < 2 {
		return nil
	}
	var groups []*Group
	for m := range n {
		app, waiting := 0, 0
		for _, pl := range r.Pools {
			if pl.Internal {
				continue
			}
			app += pl.Counts[m]
			for _, g := range pl.States {
				if g.Counts[m] == 0 || g.Category != Waiting || !slices.Contains(handoffResources, g.Resource) {
					continue
				}
				untimed := true
				for _, t := range g.Threads[m] {
					untimed = untimed && t.State == "WAITING"
				}
				if !untimed {
					continue
				}
				if g.Always < g.Counts[m] {
					return nil // threads came and went: the hand-off is served
				}
				waiting += g.Counts[m]
				if m == n-1 {
					groups = append(groups, g)
				}
			}
		}
		if app < OrphanedMin || waiting != app {
			return nil
		}
	}
	// A producer's side among them (room in a full queue, a hand-off to a
	// taker) whose taker is gone: without one, latches and notifies alone
	// are main's shutdown latch and threads parked until a signal or a
	// shutdown hook that comes later (TestPeersGatheredProperty's lone
	// waiter).
	producer := false
	for _, g := range groups {
		producer = producer || g.Resource == "queue-space" || g.Resource == "peer-handoff"
	}
	if !producer {
		return nil
	}
	out := map[*Group]bool{}
	for _, g := range groups {
		if g.Always >= g.Counts[n-1] && g.held() >= g.Counts[n-1] {
			out[g] = true
		}
	}
	return out
}
