package analyze

import "strings"

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
	// Go goroutines held, by their id, in a wait at every moment
	// (heldgo.go): HeldWaitMin and HeldSpanSeconds.
	HeldWaitMin     = 2
	HeldSpanSeconds = 4
)

var stuckDetector = &Detector{
	Name:  KindStuck,
	Kinds: []string{KindStuck},
	Doc:   "the very same threads in the same wait and culprit at every moment given, most of their pool, with no rise needed: what a first dump taken mid-incident shows; at any count, and on one dump as one dump's evidence, threads in a named wait (a peer's reply, a pool's item, a lock) that are most of a paste a person cut, or that are with their lock's holders every application thread of the dump, or a known client's peer wait held by most of a pool's workers inside their work; Go goroutines the runtime prints waiting minutes in their work (or, in a paste a person cut, in a rest under a call of their own), or that the dumps show by their ids in the same wait at every moment before any age is printed, or on a WaitGroup nothing left can count down; and the waiting goroutines of the tests go test stopped at their -timeout (its own verdict, on one dump)",
	Requires: []*Detector{timelineDetector, leakedDetector, deadlockDetector, eventLoopDetector, contentionDetector, poolExhaustedDetector, explosionDetector,
		spinningDetector},
	Folds: "nothing; a group that rose from a healthy first moment is the timeline's (not-recovered), a Go group blocked for minutes the leak's",
	Thresholds: []Threshold{
		{"StuckMin", StuckMin, "without a rise, the very same threads in the same wait and culprit at every moment are stuck from this many, when they wait in a loop of their own (a reader per connection, a consumer per partition wait in one place by design)"},
		{"StuckTaskFloor", StuckTaskFloor, "…or from this many when they wait inside a task a pool gave them, or untimed at a latch, barrier or phaser as threads of their own (a gathering whose peers never come), their pool's share deciding (a fixed pool of 8 with 8 held is stuck): the floor because one thread in one long call cannot be told from noise, and one thread on a latch is main's shutdown latch by design"},
		{"WorkWaitMinutes", WorkWaitMinutes, "in Go, a goroutine the runtime prints as waiting this many minutes (from 1) under its own work is stuck, alone and in one dump: in a send, a pool's or a client's wait under a call its own function made (a request does not wait a minute for a channel or a connection); in a rest (select, receive, a read, a Cond) only under a unit of work a server or runner gave it (Roles.GoWork), from WorkRestMinutes. A goroutine whose own function waits (an accept loop, a worker on its job channel, a signal or ticker loop) rests there for days by design, and a lock's waiters are contention's"},
		{"WorkRestMinutes", WorkRestMinutes, "…a rest under a unit of work counts from this many minutes, when fewer than LeakMin of the group rest that long: a long poll answers within a minute or two; a streaming endpoint's handlers (server-sent events, websockets) rest between events by the hundred, alike, which is the leak detector's to judge by their parents and spread (a few streams held open longer read as stuck: the dump prints nothing that tells a stream from a request that never ends). Not relative to the process's ordinary wait: each stuck request brings goroutines that wait as long (its connection's background read), and a crowd behind one holder makes minutes ordinary. In a paste a person cut (no goroutine 1: goPasted) a rest under a call of the goroutine's own (a read of a reply, a receive nobody sends to) counts from this many too, when it is ChosenShare of the paste: what they kept is what they ask about; a rest in the goroutine's own function and a library's loop (net/http's keep-alive reads, whose age is the connection's idle time up to the process's uptime) never count"},
		{"HeldWaitMin", HeldWaitMin, "in Go, goroutines that the dumps print with the same id, in the same wait, with the same stack at every moment given (two at least) waited at least the moments' span, printed or not: stuck from this many, in the waits the printed minutes count (no rest, under a call their own function made or a request's work; not a lock's, which contention and deadlock follow), when no minute is printed yet (a stall under a minute old). The floor because one goroutine in one slow call cannot be told from noise, and the id cannot tell a goroutine that stayed from one that came back to the same frames between every two dumps (a producer held back by its consumer at each look)"},
		{"HeldSpanSeconds", HeldSpanSeconds, "…and, when the dumps print their times, over at least this many seconds: dumps closer than that show calls in flight (a request to a slow upstream answers within seconds); dumps 5 s apart span 4.6–5.4 s between two of them, taken by hand or by a schedule"},
		{"StuckShare", StuckShare, "…and when they are at least this share of their pool at the last moment: one long call is not a stuck pool. Threads in a wait that costs no CPU (a read, a connect) whose cpu= rose by CPURanMin between every two moments are not counted: they ran between the dumps"},
		{"PeerShare", PeerShare, "on one whole dump, threads in a named wait on a peer (a reply under a DB driver's query, an HTTP or gRPC call), each inside the unit of work its pool gave it, are their pool's story from this share of the pool's threads: most of the pool then serves at that peer's pace, where a healthy busy pool spreads over the CPU, several peers and idle workers; said as one dump's evidence, which cannot tell stuck from busy"},
		{"PeerWaitMin", PeerWaitMin, "…and from this many threads: one or two workers in one call at one instant are a call in flight, not told from noise"},
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
	fs := goWorkWaits(p, told)
	if n < 2 && len(held) == 0 {
		return fs // one moment cannot show that threads stay
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
			// Stayed, not Always: threads that joined at a later moment and
			// never left are as stuck as those there from the start; but some
			// must be there from the first moment, else it rose, and a rise is
			// the timeline's to judge.
			stayed := g.held()
			why := held[g]
			if told[g] || why == "" && (n < 2 || g.Category != Waiting || rest || g.Always == 0 || stayed < min ||
				float64(stayed) < StuckShare*float64(pl.Counts[n-1])) {
				continue
			}
			claim := p.explainedBy(g, n-1)
			if claim != "" && (p.GroupClaim(g) == claim || why != "" && n == 1) {
				continue // a pool-exhausted finding tells it; on one dump, whatever finding explains it
			}
			f := groupFinding(KindStuck, pl, g, n-1)
			f.Severity = Critical
			f.Since, f.FromStart = 0, true
			f.Same = stayed
			f.Always = g.Always
			f.CausedBy = claim
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
	linkTaskWaits(fs, append(p.FoundAll(), fs...))
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

// held is how many of the group's threads stayed in its wait (Stayed)
// without running between the dumps: in a wait that costs no CPU
// (Resource.Still), a thread whose cpu= rose between every two dumps
// (StayedRan) left the wait and came back, as a server's connection
// threads do, answering requests between reads; they look held and are
// not. Where cpu= is not printed (Go, JDK 8) StayedRan is 0.
func (g *Group) held() int {
	if r := resourceByID(g.Resource); r != nil && r.Still {
		return g.Stayed - g.StayedRan
	}
	return g.Stayed
}
