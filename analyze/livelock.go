package analyze

import (
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
// RUNNABLE.
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
func livelockAt(r *Result, s []*parse.Thread) (spinner, bool) {
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
	if !oneBackOffLoop(r.Runtime, s) {
		return spinner{}, false
	}
	return spinner{since: 0, stacks: s, basis: "livelock", cpu: s[n-1].CPU - s[0].CPU, wall: last.Sub(first)}, true
}

// backer is the application function that backs off in t: its first
// application frame, under a frame of backOffFrames; nil when t is not
// backing off.
func backer(rt parse.Runtime, t *parse.Thread) *parse.Frame {
	backing := false
	for _, f := range t.Frames {
		if isAppFrame(rt, f) {
			if backing {
				return f
			}
			return nil
		}
		backing = backing || slices.Contains(backOffFrames, f.Func)
	}
	return nil
}

// appFuncs are the functions of t's application frames, top first, lines
// left out.
func appFuncs(rt parse.Runtime, t *parse.Thread) []string {
	var out []string
	for _, f := range t.Frames {
		if isAppFrame(rt, f) && !slices.Contains(out, f.Func) {
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
func oneBackOffLoop(rt parse.Runtime, s []*parse.Thread) bool {
	backers := map[string]bool{}
	count := map[string]int{}
	driver := ""
	for i, t := range s {
		fs := appFuncs(rt, t)
		if len(fs) == 0 || i > 0 && fs[len(fs)-1] != driver {
			return false
		}
		driver = fs[len(fs)-1]
		for _, f := range fs {
			count[f]++
		}
		if b := backer(rt, t); b != nil {
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
