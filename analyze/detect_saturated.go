package analyze

import (
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// The saturated detector's thresholds. What each protects against is said
// once, in the detector's Thresholds below (README.md's table is made from
// them; TestThresholdsBeside keeps each beside its detector).
const (
	SaturatedMin       = 10
	SaturatedTaskFloor = 2
	SaturatedWaiting   = 0.8
	SaturatedOneState  = 0.5
)

var saturatedDetector = &Detector{
	Name:     KindSaturated,
	Kinds:    []string{KindSaturated},
	Doc:      "a JVM pool with no idle thread, nearly all waiting and most in one wait that is not a rest: new work has no thread; said with the pool's limit and where that number comes from. Information only when the pool has room at the last moment after being full from the first (the end of a busy spell), or when its threads move through work (few of the very same threads held in the wait, the rest having run between the dumps, or waiters served while the pool's threads past the wait rotate: progress.go). Threads of their own are no pool: Thread-N threads no pool's loop runs, and a crowd the thread-per-task finding tells",
	Requires: []*Detector{stuckDetector, timelineDetector, poolExhaustedDetector, deadlockDetector, eventLoopDetector, contentionDetector, explosionDetector},
	Folds:    "itself into the stuck or not-recovered finding of the same pool and state, as its consequence (caused by)",
	Thresholds: []Threshold{
		{"SaturatedMin", SaturatedMin, "a pool smaller than this is saturated only when its largest wait is inside the tasks the pool runs, at its known or fixed size, and the very same threads stay in it to the last moment, SaturatedOneState of the pool (a small pool full for one instant is traffic, four threads each in a loop of its own are no pool to fill)"},
		{"SaturatedTaskFloor", SaturatedTaskFloor, "…and never below this size: a single-thread scheduler busy in one long task is one call, not told from noise"},
		{"SaturatedWaiting", SaturatedWaiting, "share of a saturated pool's threads that wait: a pool busy on CPU is working, not stuck"},
		{"SaturatedOneState", SaturatedOneState, "share of a saturated pool in its largest waiting state that is not a rest: most of the pool held by one wait (a rest is a pool idle by design)"},
	},
	Run: runSaturated,
}

func runSaturated(p *Pass) []Finding {
	r := p.R
	if r.Runtime != parse.RuntimeJVM {
		return nil // goroutines are not pooled threads: Go has no pool to saturate
	}
	n := len(r.Moments)
	var fs []Finding
	for _, pl := range r.Pools {
		// Thread-N is the JVM's name for a thread nobody named: threads
		// created one by one, not a pool with a size to reach, when the
		// stacks agree (no pool's loop runs most of them: unpooledPool). A
		// ThreadFactory that returns new Thread(r) gives an executor's
		// workers the same names; run by the executor's loop, they are a
		// pool like any other (the name is a hint, the loop decides).
		// Virtual threads are not pooled either: one per task, by design.
		// A starved common pool is the common-pool detector's to tell.
		roles := p.opt.roleTable()
		if pl.Internal || pl.Name == "Thread-*" && unpooledPool(r, pl, roles.PoolLoops) || virtualPool(pl) || poolIn(pl.Name, roles.CommonPools) {
			continue
		}
		size := p.knownLimit(pl)
		limit, what, source := size.Max, size.What, size.Source
		if source == "default" && pl.Max > limit {
			// The pool grew past the well-known default: it was configured
			// larger (a task-* executor of 30, Tomcat at 400), and the
			// default says nothing of its size. The dumps must tell it.
			limit, what, source = 0, "", ""
		}
		fixed := n >= 2
		for _, c := range pl.Counts {
			if c != pl.Counts[0] {
				fixed = false
			}
		}
		// at tells whether the pool is saturated at moment m: at its
		// maximum, nothing idle, nearly all waiting, most in one state
		// (top).
		at := func(m int) (top *Group, idle, waiting int, ok bool) {
			// The thread writing the dump (an Actuator request in the
			// connector it reports on) is no thread of the pool's work.
			total := pl.Counts[m] - pl.dumpWriters(m)
			if total < SaturatedTaskFloor || total < SaturatedMin && n < 2 {
				return nil, 0, 0, false
			}
			// Several moments tell what the maximum is: a known limit reached,
			// or the same size throughout. A pool that grew and has no known
			// limit (Thread-* per task) has no maximum to be at. One dump
			// alone shows a pool at its size now, whatever its maximum.
			if n >= 2 && !(limit > 0 && total >= limit || limit == 0 && fixed) {
				return nil, 0, 0, false
			}
			for _, g := range pl.States {
				switch g.Category {
				case Idle:
					idle += g.Counts[m]
				case Waiting:
					waiting += g.Counts[m]
					if !g.Rest && (top == nil || g.Counts[m] > top.Counts[m]) {
						top = g
					}
				}
			}
			if idle > 0 || float64(waiting) < SaturatedWaiting*float64(total) || top == nil ||
				float64(top.Counts[m]) < SaturatedOneState*float64(total) {
				return nil, 0, 0, false
			}
			// A small pool is a pool of workers held by their tasks' wait,
			// not threads of their own each waiting in its loop (four
			// connection readers are not a pool to fill).
			if total < SaturatedMin && !top.pooledWork(m) {
				return nil, 0, 0, false
			}
			return top, idle, waiting, true
		}
		// A small pool full at one moment is traffic: it is saturated when
		// it is full at the last moment too and the very same threads stay
		// held in that wait to the last moment (Stayed, less those that ran
		// between the dumps: Group.held), most of the pool. (A fixed pool
		// of 4 whose 5 ms tasks all happened to sleep at the middle dump,
		// with two idle at the last, is a pool keeping up.)
		atFull := at
		at = func(m int) (*Group, int, int, bool) {
			top, idle, waiting, ok := atFull(m)
			if !ok || pl.Counts[m] >= SaturatedMin {
				return top, idle, waiting, ok
			}
			if m != n-1 {
				if _, _, _, full := atFull(n - 1); !full {
					return nil, 0, 0, false
				}
			}
			if float64(top.held()) >= SaturatedOneState*float64(pl.Counts[m]) {
				return top, idle, waiting, ok
			}
			return nil, 0, 0, false
		}
		best, bestTop := -1, (*Group)(nil)
		var bestIdle, bestWaiting int
		for m := 0; m < n; m++ {
			top, idle, waiting, ok := at(m)
			if ok && (best < 0 || top.Counts[m] > bestTop.Counts[best]) {
				best, bestTop, bestIdle, bestWaiting = m, top, idle, waiting
			}
		}
		if best < 0 {
			continue
		}
		// A crowd of threads made one per task (the explosion detector's
		// thread-per-task finding claims their group) is no pool that
		// filled: that finding is their story, said once.
		if claim := p.GroupClaim(bestTop); strings.HasPrefix(claim, KindExplosion+" ") || claim == KindExplosion {
			continue
		}
		f := groupFinding(KindSaturated, pl, bestTop, best)
		f.ID = findingID(KindSaturated, pl.Name)
		f.Severity = Critical
		f.Counts = pl.Counts
		f.Since = best
		f.FromStart = best == 0
		f.Idle, f.Waiting = bestIdle, bestWaiting
		// Saturated once, not at the last moment: the pool has room again
		// (a rolling verdict must see a saturation end, as it sees a rise
		// recover). A saturation that is over is worth a look, not a page.
		if _, _, _, still := at(n - 1); n >= 2 && !still {
			f.Recovered, f.Severity = true, Warning
			// Full from the first moment given and not at the last: what
			// the dumps saw is the end of a busy spell (a batch finishing),
			// with no healthy moment before it to date a rise from (issue
			// 33: a pool busy at moments 1–2 and idle at 3 is no warning).
			if best == 0 && f.Recovered {
				f.Severity = Info
			}
		}
		// Full at every moment, but its threads moving through work: the
		// wait that fills it holds few of the very same threads (they ran
		// between the dumps: Group.held), or its waiters get through while
		// the pool's other threads rotate (served): a busy pool keeping
		// its pace, said as information, not saturation to page on.
		if n >= 2 && !f.Recovered && (bestTop.StayedRan > 0 &&
			float64(bestTop.held()) < SaturatedOneState*float64(pl.Counts[n-1]) || r.served(pl, bestTop)) {
			f.Severity = Info
		}
		f.Evidence = []Evidence{{Moment: best, Count: bestTop.Counts[best], Threads: bestTop.Samples[best]}}
		switch {
		case limit > 0:
			f.Limit = Limit{Size: limit, Source: source, What: what}
		case fixed:
			f.Limit = Limit{Size: pl.Max, Source: "observed"}
		default:
			// Named like a well-known pool whose loop runs none of its
			// threads: its size is unknown, and what its name suggested is
			// said (not the wrong number).
			f.Limit = Limit{Size: pl.Counts[best], Source: "current", NamedLike: size.NamedLike}
		}
		f.Starved = starved(pl, best)
		// One story: the stuck (or rising) wait that fills the pool is the
		// cause, saturation its consequence.
		for _, o := range p.FoundAll() {
			if o.Pool == pl.Name && o.State == bestTop.State && o.Via == bestTop.Via &&
				(o.Kind == KindStuck || o.Kind == KindNotRecovered || o.Kind == KindGrowing || isPoolExhausted(o.Kind)) {
				f.CausedBy = o.ID
				break
			}
		}
		if f.CausedBy == "" {
			if id := p.explainedBy(bestTop, best); id != "" {
				f.CausedBy = id
			}
		}
		fs = append(fs, f)
	}
	return fs
}

// starved returns the entry points the pool served at other moments and
// serves with no thread at moment m.
func starved(pl *Pool, m int) []FrameCount {
	now := map[string]bool{}
	for _, g := range pl.States {
		for _, e := range g.Entries[m] {
			now[e.Func] = true
		}
	}
	seen := map[entryKey]int{}
	for _, g := range pl.States {
		for i, es := range g.Entries {
			if i == m {
				continue
			}
			for _, e := range es {
				if !now[e.Func] {
					seen[entryKey{e.Func, e.Probe}] = max(seen[entryKey{e.Func, e.Probe}], e.Count)
				}
			}
		}
	}
	return rankedEntries(seen)
}

// virtualPool reports whether a pool's threads are JVM virtual threads.
func virtualPool(pl *Pool) bool {
	for _, g := range pl.States {
		for _, ts := range g.Threads {
			for _, t := range ts {
				return t.JVM != nil && t.Virtual
			}
		}
	}
	return false
}
