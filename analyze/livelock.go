package analyze

import (
	"iter"
	"maps"
	"slices"
	"time"

	"github.com/dumpdiff/dumpdiff/parse"
)

// A livelock looks like progress (issue 33, the mirror of "nothing healthy
// was flagged"): threads RUNNABLE at every moment in the same application
// loop, each backing off for the others (a tryLock that fails, a
// Thread.yield), their CPU growing, none getting anywhere. On a loaded
// host a thread that yields gets little CPU (the fixture's two polite
// threads, 2 cores shared by a dozen busy processes: 0.18–1.3% of the
// wall between dumps), under SpinCPUShare: the spinning rule's CPU share does not
// see it, and its back-off frame on top is what tells the loop.
//
// The thresholds, and what each protects:
const (
	// LivelockMin threads in the same loop (same pool, same loop driver):
	// a livelock is threads backing off for each other; one thread
	// yielding alone is a spin-wait, the spinning rule's.
	LivelockMin = 2
	// LivelockMoments: RUNNABLE in the loop at this many moments, every
	// moment given: two dumps catch a back-off that then succeeded.
	LivelockMoments = 3
	// LivelockCPUShare: CPU grown between every two moments by at least
	// this share of the wall time between them (and CPURanMin): a thread
	// the JVM prints RUNNABLE in a native wait (a read, an accept) gains
	// nothing; one backing off gains for every try. Measured on the
	// fixture's two polite threads, 2 cores shared with a dozen busy
	// processes: 0.18–1.3% of the wall between dumps 6–20 s apart (the
	// lowest, 24 ms in 13 s); 2.5 ms per 5 s at this share.
	LivelockCPUShare = 0.0005
)

// backOffFrames are the frames a loop backs off in: a thread found in one
// of them, above its first application frame, at some moment of a loop it
// never leaves is retrying, not working. Table rows, beside the signature
// table's: a healthy busy loop (a checksum, a parser) calls none of them.
// LockSupport.parkNanos is not here: a thread parked is TIMED_WAITING, not
// RUNNABLE. The built-in rows of Roles.BackOffs: a signatures file's
// "back-off" adds a team's own helper.
var backOffFrames = []string{
	"java.lang.Thread.yield",
	"java.lang.Thread.yield0",
	"java.lang.Thread.onSpinWait",
	"java.util.concurrent.locks.ReentrantLock.tryLock",
	"java.util.concurrent.locks.ReentrantLock$Sync.tryLock",
	"java.util.concurrent.locks.ReentrantLock$Sync.nonfairTryAcquire",
	"java.util.concurrent.locks.ReentrantReadWriteLock$ReadLock.tryLock",
	"java.util.concurrent.locks.ReentrantReadWriteLock$WriteLock.tryLock",
	"java.util.concurrent.locks.StampedLock.tryWriteLock",
	"java.util.concurrent.locks.StampedLock.tryReadLock",
}

// livelockAt tells whether the thread whose stacks by moment are s (one a
// moment, every moment) is in a back-off loop: RUNNABLE at every moment,
// LivelockMoments at least over SpinMinWall seconds, its CPU growing by
// LivelockCPUShare of the wall between every two moments, the same loop
// at each, backing off at some moment (oneBackOffLoop, backOffFrames).
// The times of the moments must be printed (a JVM dump's date line).
func livelockAt(r *Result, s []*parse.Thread, backs []string) (spinner, bool) {
	n := len(s)
	if r.Runtime != parse.RuntimeJVM || n < LivelockMoments || n != len(r.Moments) {
		return spinner{}, false
	}
	first, last := r.Moments[0].Time, r.Moments[n-1].Time
	if first.IsZero() || last.Sub(first) < SpinMinWall*time.Second {
		return spinner{}, false
	}
	for m, t := range s {
		if t == nil || t.State != "RUNNABLE" || t.CPU <= 0 || culprit(r.Runtime, t) == nil {
			return spinner{}, false
		}
		if m > 0 {
			wall := r.Moments[m].Time.Sub(r.Moments[m-1].Time)
			gain := t.CPU - s[m-1].CPU
			if wall <= 0 || gain < CPURanMin || float64(gain) < LivelockCPUShare*float64(wall) {
				return spinner{}, false
			}
		}
	}
	if !oneBackOffLoop(r.Runtime, s, backs) {
		return spinner{}, false
	}
	return spinner{since: 0, stacks: s, basis: "livelock", cpu: s[n-1].CPU - s[0].CPU, wall: last.Sub(first)}, true
}

// backer is the application function that backs off in t: its first
// application frame, under a frame of backs (Roles.BackOffs: backOffFrames
// and a team's own, which is no application frame of the loop's); nil
// when t is not backing off.
func backer(rt parse.Runtime, t *parse.Thread, backs []string) *parse.Frame {
	return backOffUnder(rt, t, backs, nil, false)
}

// backOffUnder is t's first application frame when a frame above it is a
// back-off (one of backs, a team's included, or of waits); nil when none
// is, or, with jdkOnly, when a frame above it is neither the JDK's nor a
// back-off (a library's own wait is no retry the application wrote).
// backer and backOffCaller are its two readings.
func backOffUnder(rt parse.Runtime, t *parse.Thread, backs, waits []string, jdkOnly bool) *parse.Frame {
	backing := false
	for _, f := range t.Frames {
		if slices.Contains(backs, f.Func) {
			backing = true
			continue
		}
		if isAppFrame(rt, f) {
			if backing {
				return f
			}
			return nil
		}
		if jdkOnly && !anyPrefix(f.Func, jdkPrefixes) {
			return nil
		}
		backing = backing || slices.Contains(waits, f.Func)
	}
	return nil
}

// appFuncs are the functions of t's application frames, top first, lines
// left out, and back-off frames (backs) too: a team's own back-off helper
// is the loop's pause, not its code.
func appFuncs(rt parse.Runtime, t *parse.Thread, backs []string) []string {
	var out []string
	for _, f := range t.Frames {
		if isAppFrame(rt, f) && !slices.Contains(out, f.Func) && !slices.Contains(backs, f.Func) {
			out = append(out, f.Func)
		}
	}
	return out
}

// oneBackOffLoop: the stacks s are one loop, its lines moving: the same
// bottom application function at every moment (what drives the loop), and
// every application function not on the stack at every moment is one that
// backs off at some moment (a back-off method the loop calls, or the
// loop's own method seen only in its tryLock). A busy thread moving
// through its work calls other methods at other moments, which do not
// back off.
func oneBackOffLoop(rt parse.Runtime, s []*parse.Thread, backs []string) bool {
	backers := map[string]bool{}
	count := map[string]int{}
	driver := ""
	for i, t := range s {
		fs := appFuncs(rt, t, backs)
		if len(fs) == 0 || i > 0 && fs[len(fs)-1] != driver {
			return false
		}
		driver = fs[len(fs)-1]
		for _, f := range fs {
			count[f]++
		}
		if b := backer(rt, t, backs); b != nil {
			backers[b.Func] = true
		}
	}
	if len(backers) == 0 {
		return false // never seen backing off
	}
	for f, c := range count {
		if c < len(s) && !backers[f] {
			return false
		}
	}
	return true
}

// livelockFew drops the livelock spinners of a pool's loop fewer than
// LivelockMin: one thread backing off alone waits for something else.
func livelockFew(spins []spinner) bool {
	n := 0
	for _, sp := range spins {
		if sp.basis != "livelock" {
			return false // another rule's evidence: the finding stands
		}
		n++
	}
	return n < LivelockMin
}

// A livelock with short sleeps (issue 33, "cycles of every kind"): threads
// that each hold a lock and retry another's with tryLock, backing off
// between tries with a Thread.sleep(1) or a LockSupport.parkNanos. They
// burn little CPU (the fixture's two movers, 1.7% of the wall each) and a
// dump nearly always catches them TIMED_WAITING in the back-off, not
// RUNNABLE: neither the CPU share nor livelockAt sees them, and no lock
// line says what they retry. What the stacks do show is the structure:
// the same application frames at every moment, a back-off on top of them
// at every moment, and a lock held at every moment, the same one. A retry
// that succeeds lets go of what it holds between tries, or moves on
// (backoff-healthy: the polite movers hold nothing while they back off).
// Where the dump prints no held lock (a jstack without -l prints no
// ownable synchronizer), nothing is said: a healthy retry loop looks the
// same there.
//
// The thresholds, and what each protects:
const (
	// LivelockHeldMoments: at every moment given, this many at least: a
	// lock held across two dumps by a thread backing off in the same
	// frames at each is held across every try between them (dumps seconds
	// apart, back-offs of milliseconds). A dump format without a time
	// (Actuator's JSON) whose later dumps are the same stacks is read as
	// fewer moments: two are enough.
	LivelockHeldMoments = 2
)

// backOffWaits are the JDK frames a retry loop backs off in, above its
// application frames: a short sleep or timed park (JDK 17 and 21+), a
// yield, and the tryLock family of backOffFrames (a timed tryLock parks).
var backOffWaits = append([]string{
	"java.lang.Thread.sleep", "java.lang.Thread.sleep0", "java.lang.Thread.sleepNanos", "java.lang.Thread.sleepNanos0",
	"java.util.concurrent.TimeUnit.sleep",
	"java.util.concurrent.locks.LockSupport.parkNanos",
	"java.util.concurrent.locks.ReentrantLock$Sync.tryLockNanos",
	"java.util.concurrent.locks.ReentrantReadWriteLock$Sync.tryWriteLock",
	"java.util.concurrent.locks.ReentrantReadWriteLock$Sync.tryReadLock",
}, backOffFrames...)

// backOffCaller is the application frame that t backs off under: its
// first application frame, when every frame above it is the JDK's and one
// of them a back-off (backOffWaits); nil otherwise (a thread parked for
// ever, a socket read, work). backs are Roles.BackOffs: a team's own
// back-off frame is a back-off, not the caller.
func backOffCaller(rt parse.Runtime, t *parse.Thread, backs []string) *parse.Frame {
	return backOffUnder(rt, t, backs, backOffWaits, true)
}

// heldLocks are the locks t holds that another thread can retry with
// tryLock, by address.
//
// Only locks a tryLock can be asked of count (a j.u.c Lock's ownable
// synchronizer, isLockClass): a monitor has no tryLock, and a thread
// asleep in its task under a synchronized block (small-pool-stuck) or an
// executor's worker holding its own Worker (progress-batch-healthy)
// retries nothing.
func heldLocks(t *parse.Thread) map[string]parse.Lock {
	var out map[string]parse.Lock
	for _, l := range t.Locks() {
		if l.Kind == parse.LockOwnable && l.Address != "" && isLockClass(l.Class) {
			if out == nil {
				out = map[string]parse.Lock{}
			}
			out[l.Address] = l
		}
	}
	return out
}

// heldBackOffs finds the livelocks of threads that hold a lock while they
// back off (see above): LivelockMin threads or more, each at every moment
// (LivelockHeldMoments or more) backing off under the same application
// function, in the same application frames at every moment, holding at
// every moment one lock of its own (the same address throughout, another
// than the others'). One finding per back-off function, basis
// "livelock-held", a spinning finding that says its evidence is the
// stacks' structure.
func heldBackOffs(p *Pass) []Finding {
	r := p.R
	backs := p.opt.roleTable().BackOffs
	n := len(r.Moments)
	if r.Runtime != parse.RuntimeJVM || n < LivelockHeldMoments {
		return nil
	}
	type part struct {
		stacks []*parse.Thread
		lock   parse.Lock
	}
	// Candidates of the last moment, then followed back by identity.
	last := r.Moments[n-1].Dump
	if last == nil {
		return nil
	}
	byID := make([]map[threadID]*parse.Thread, n)
	for m, mo := range r.Moments {
		if mo.Dump == nil {
			return nil
		}
		byID[m] = map[threadID]*parse.Thread{}
		for _, t := range mo.Dump.Threads {
			if t.JVM != nil && backOffCaller(r.Runtime, t, backs) != nil {
				byID[m][identity(r.Runtime, t)] = t
			}
		}
	}
	own := p.own(ClaimsThreads)
	claimed := func(m int, t *parse.Thread) bool { return own.threads[m] != nil && own.threads[m][t] != "" }
	groups := map[string][]part{}
	var order []string
	for _, t := range last.Threads {
		c := backOffCaller(r.Runtime, t, backs)
		if c == nil {
			continue
		}
		id := identity(r.Runtime, t)
		if id == (threadID{}) || claimed(n-1, t) {
			continue // another spinning finding's (a livelock on CPU)
		}
		stacks := make([]*parse.Thread, n)
		held := heldLocks(t)
		ok := len(held) > 0
		for m := 0; m < n && ok; m++ {
			s := byID[m][id]
			if s == nil || backOffCaller(r.Runtime, s, backs) == nil {
				ok = false
				break
			}
			if m > 0 && s.CPU > 0 && stacks[m-1].CPU > 0 && s.CPU-stacks[m-1].CPU < CPURanMin {
				// A back-off wakes a thousand times a second and gains
				// CPU (the fixture's movers: 17 ms a second); a thread
				// asleep for good under its lock gains none. Where cpu=
				// is printed, that is asked; elsewhere the structure is
				// all there is.
				ok = false
				break
			}
			h := heldLocks(s)
			for a := range held {
				if _, still := h[a]; !still {
					delete(held, a)
				}
			}
			ok = len(held) > 0
			stacks[m] = s
		}
		if !ok {
			continue
		}
		loop := retryLoop(r.Runtime, stacks, backs)
		if loop == "" {
			continue
		}
		addr := slices.Min(slices.Collect(maps.Keys(held)))
		if _, seen := groups[loop]; !seen {
			order = append(order, loop)
		}
		groups[loop] = append(groups[loop], part{stacks, held[addr]})
	}
	var fs []Finding
	for _, fn := range order {
		ps := groups[fn]
		locks := map[string]bool{}
		for _, x := range ps {
			locks[x.lock.Address] = true
		}
		if len(ps) < LivelockMin || len(locks) < len(ps) {
			continue // one thread backing off alone, or two holding one lock: not each holding what another wants
		}
		fs = append(fs, heldBackOffFinding(p, fn, ps[0].stacks, func(yield func([]*parse.Thread, parse.Lock) bool) {
			for _, x := range ps {
				if !yield(x.stacks, x.lock) {
					return
				}
			}
		}))
	}
	return fs
}

// retryLoop is the application function the stacks s of one thread (one
// a moment, each backing off: backOffCaller) retry in, "" when they are
// not one loop: the same application frames at every moment below their
// top, which alone may change, from one back-off to another (a timed
// tryLock at one moment, the sleep of a helper between tries at the
// next: backoff-ring-stuck). The loop is the topmost application
// function on every stack; every function above it at some moment is a
// back-off's (a helper that tries or pauses), every one below it is on
// every stack, in the same order.
func retryLoop(rt parse.Runtime, s []*parse.Thread, backs []string) string {
	var below []string // the common part, from the loop down
	for i, t := range s {
		fs := appFuncs(rt, t, backs)
		if i == 0 {
			below = fs
			continue
		}
		// The longest common tail of below and fs.
		k := 0
		for k < len(below) && k < len(fs) && below[len(below)-1-k] == fs[len(fs)-1-k] {
			k++
		}
		below = below[len(below)-k:]
	}
	if len(below) == 0 {
		return ""
	}
	// What sits above the loop at any moment is that moment's back-off:
	// a tried lock or a pause, nothing else (a worker moving through its
	// work calls other methods, which do not back off).
	for _, t := range s {
		fs := appFuncs(rt, t, backs)
		top := fs[:len(fs)-len(below)]
		if len(top) > 0 && backOffCaller(rt, t, backs).Func != top[0] {
			return ""
		}
	}
	return below[0]
}

// heldBackOffFinding makes the finding of one held back-off livelock: the
// participants' stacks by moment and the lock each holds.
func heldBackOffFinding(p *Pass, loop string, first []*parse.Thread, parts iter.Seq2[[]*parse.Thread, parse.Lock]) Finding {
	r := p.R
	n := len(r.Moments)
	lastFirst := first[n-1]
	caller := backOffCaller(r.Runtime, lastFirst, p.opt.roleTable().BackOffs)
	pool, _ := poolName(r.Runtime, lastFirst, p.opt)
	f := Finding{Kind: KindSpinning, Severity: Warning, Pool: pool, State: stateOf(p.signature(n-1, lastFirst)),
		Counts: make([]int, n), At: n - 1, Since: 0, FromStart: true, Basis: "livelock-held",
		Culprit: FrameString(caller), Loop: loopFrames(r.Runtime, first)}
	if len(lastFirst.Frames) > 0 {
		f.Frame = FrameString(lastFirst.Frames[0])
	}
	f.ID = findingID(KindSpinning, "livelock", loop)
	// The caller: the application frame under the back-off's (the loop
	// that retries, when the back-off is a helper of its own).
	below := false
	for _, fr := range lastFirst.Frames {
		if below && isAppFrame(r.Runtime, fr) && fr.Func != caller.Func {
			f.Caller = FrameString(fr)
			break
		}
		below = below || fr == caller
	}
	names := make([][]string, n)
	ents := map[entryKey]int{}
	for stacks, l := range parts {
		for m, t := range stacks {
			f.Counts[m]++
			names[m] = append(names[m], threadLabel(r.Runtime, t))
			p.ClaimThread(m, t, f.ID)
		}
		t := stacks[n-1]
		f.Holding = append(f.Holding, LockRef{Address: l.Address, Class: l.Class, Holder: threadLabel(r.Runtime, t)})
		if e := p.info(n-1, t).entry; e.fn != "" {
			ents[e]++
		}
	}
	f.Entries = rankedEntries(ents)
	for m, ns := range names {
		f.Evidence = append(f.Evidence, Evidence{Moment: m, Count: f.Counts[m], Threads: firstN(ns, 5)})
	}
	return f
}
