package analyze

import "github.com/dumpdiff/dumpdiff/parse"

// The timeline detector's thresholds. What each protects against is said
// once, in the detector's Thresholds below (README.md's table is made from
// them; TestThresholdsBeside keeps each beside its detector).
const (
	MinRise                 = 5
	RiseFactor              = 2
	RecoveredShare          = 0.25
	NotRecoveredCriticalMin = 10
	// PhaseFullShare: in a format that prints no goroutine ids (debug=1,
	// the proto), a state's rise that its pool's total did not carry is
	// a phase shift of the same goroutines unless the state holds at
	// least this share of its pool from its peak to the last moment
	// (phaseShift).
	PhaseFullShare = 0.5
)

var timelineDetector = &Detector{
	Name:     "timeline",
	Kinds:    []string{KindGrowing, KindNotRecovered, KindRecovered},
	Doc:      "a waiting state that rose from the first moment: growing (at every moment), not-recovered (still up at the last moment) or recovered; and a Go pool that only grew. Goroutines the first moment shows runnable at the very frames where they later wait were in that wait, woken (wokenAtFirst): no rise",
	Requires: []*Detector{deadlockDetector, eventLoopDetector, contentionDetector, poolExhaustedDetector, explosionDetector},
	Folds:    "nothing; a rise caused by a deadlock, a contended lock or a thread explosion in its pool says so (caused by)",
	Thresholds: []Threshold{
		{"MinRise", MinRise, "a waiting state must rise by at least this many threads over its first count: a few requests in flight come and go between two dumps of a healthy service"},
		{"RiseFactor", RiseFactor, "…and to at least this many times its first count: a busy pool moving 40 → 46 is not a rise"},
		{"RecoveredShare", RecoveredShare, "a rise is recovered when its last count is within this share of the rise above the first count: a tail of slow requests still finishing is recovery (a pool-exhausted finding is critical above it)"},
		{"PhaseFullShare", PhaseFullShare, "where no goroutine ids are printed (Go debug=1, the proto), a state's rise that its pool's total did not carry (the pool rose by less than half of it) is the same goroutines moving from one phase of their work to another (600 streams reading, then waiting for the next response head), not a rise, unless the state holds at least this share of its pool at every moment from its peak to the last: a pool whose workers all went into one wait and stay there (a stall) still rises, and a leak carries its pool's total with it"},
		{"NotRecoveredCriticalMin", NotRecoveredCriticalMin, "a state that did not recover is critical from this many threads left at the last moment (or half its pool), its rise seen at two moments when three or more are given: a handful left over is worth a look, not a page, and a rise at the newest moment alone (a watch ring's last tick, a machine that stalled) cannot show that threads stay"},
	},
	Run: runTimeline,
}

func runTimeline(p *Pass) []Finding {
	r := p.R
	var fs []Finding
	for _, pl := range r.Pools {
		if pl.Internal {
			continue
		}
		for _, g := range pl.States {
			if f, ok := timelineFinding(p, pl, g); ok {
				fs = append(fs, f)
			}
		}
		if f, ok := goPoolGrowing(r, pl, fs); ok {
			fs = append(fs, f)
		}
	}
	return fs
}

// timelineFinding judges one waiting group over the moments.
func timelineFinding(p *Pass, pl *Pool, g *Group) (Finding, bool) {
	c := g.Counts
	n := len(c)
	if n < 2 || g.Category != Waiting && g.State != "unclassified" && g.State != "unknown" {
		return Finding{}, false
	}
	base := c[0]
	peak, at := base, 0
	for i, x := range c {
		if x > peak {
			peak, at = x, i
		}
	}
	base = min(peak, base+wokenAtFirst(pl, g, at))
	if peak-base < MinRise || peak < RiseFactor*base {
		return Finding{}, false
	}
	// A debug=1 moment prints no wait state: its goroutines of this pool
	// may be in this very state, filed as unknown. A rise against it is
	// the encodings differing, not the program.
	if g.State != "unknown" && unknownIn(pl) && mixesStatePrinting(p.R) {
		return Finding{}, false
	}
	if phaseShift(p.R, pl, g, at) {
		return Finding{}, false
	}
	claim := p.explainedBy(g, at)
	if claim != "" && p.GroupClaim(g) == claim {
		return Finding{}, false // a pool-exhausted finding tells this group's story
	}
	last := c[n-1]
	strictly := n >= 3
	for i := 1; i < n; i++ {
		if c[i] <= c[i-1] {
			strictly = false
		}
	}
	var kind string
	sev := Info
	switch {
	case strictly:
		kind, sev = KindGrowing, Critical
	case float64(last-base) > RecoveredShare*float64(peak-base):
		kind, sev = KindNotRecovered, Warning
		// Critical needs the rise seen at two moments at least: of three
		// or more, a rise at the last one alone (a watch ring's newest
		// tick, a stall of a moment) cannot show that threads stay. Two
		// moments (before, after) are all a comparison has.
		once := n >= 3 && firstRise(c) == n-1
		if !once && (last >= NotRecoveredCriticalMin || (pl.Counts[n-1] > 0 && 2*last >= pl.Counts[n-1])) {
			sev = Critical
		}
	default:
		kind = KindRecovered
	}
	f := groupFinding(kind, pl, g, at)
	f.Severity = sev
	f.Since = firstRise(c)
	f.Same = g.Same
	f.CausedBy = claim
	if claim == "" {
		// Threads created per task that then wait: the explosion made them.
		for _, e := range p.Found(explosionDetector) {
			if e.Pool == pl.Name && e.State == g.State && e.Via == g.Via {
				f.CausedBy = e.ID
			}
		}
	}
	return f, true
}

// goPoolGrowing: goroutines of one Go pool that rose at every moment and
// never fell, whatever they wait on. Goroutines parked in time.Sleep or on
// an idle connection are "idle" for capacity, but a pool of them that only
// ever grows is a leak all the same. Said once per pool, and only when no
// waiting state of the pool already said it.
func goPoolGrowing(r *Result, pl *Pool, already []Finding) (Finding, bool) {
	c := pl.Counts
	n := len(c)
	if r.Runtime != parse.RuntimeGo || n < 3 || c[n-1]-c[0] < MinRise {
		return Finding{}, false
	}
	for i := 1; i < n; i++ {
		if c[i] <= c[i-1] {
			return Finding{}, false
		}
	}
	for _, f := range already {
		if f.Pool == pl.Name && (f.Kind == KindGrowing || f.Kind == KindNotRecovered) {
			return Finding{}, false
		}
	}
	// The state that grew most carries the evidence.
	var g *Group
	for _, x := range pl.States {
		if g == nil || x.Counts[n-1]-x.Counts[0] > g.Counts[n-1]-g.Counts[0] {
			g = x
		}
	}
	f := groupFinding(KindGrowing, pl, g, n-1)
	f.ID = findingID(KindGrowing, pl.Name)
	f.Severity = Warning
	f.Counts = c           // the pool's goroutines: the whole pool grew
	f.Basis = "whole-pool" // the pool's count rose, not one state's
	f.Since = firstRise(g.Counts)
	f.Same = g.Same
	return f, true
}

// wokenAtFirst counts the goroutines of g at moment at that the first
// moment shows runnable at the very frames where they wait at at: they
// were in that wait then too, woken (a message on their channel, their
// lock let go) and not yet run, as every goroutine resting in its loop is
// for a moment after its peer's send. The same wait, not a rise into it.
// Only where ids are printed (the same goroutine is known).
func wokenAtFirst(pl *Pool, g *Group, at int) int {
	if at == 0 || !printsIDs(g) {
		return 0
	}
	first := map[int64]*parse.Thread{}
	for _, h := range pl.States {
		if len(h.Threads) == 0 {
			continue
		}
		for _, t := range h.Threads[0] {
			if t.ID != 0 && (t.State == "runnable" || t.State == "running") {
				first[t.ID] = t
			}
		}
	}
	n := 0
	for _, t := range g.Threads[at] {
		if t0 := first[t.ID]; t0 != nil && sameFrames(t0, t) {
			n += max(t.Weight, 1)
		}
	}
	return n
}

// sameFrames reports whether a and b print the same frames, function and
// line.
func sameFrames(a, b *parse.Thread) bool {
	if len(a.Frames) != len(b.Frames) || len(a.Frames) == 0 {
		return false
	}
	for i := range a.Frames {
		if a.Frames[i].Func != b.Frames[i].Func || a.Frames[i].Line != b.Frames[i].Line {
			return false
		}
	}
	return true
}

// phaseShift reports whether g's rise to its peak (at) is, for all the
// dumps can show, its pool's own goroutines moving between the phases of
// their work. Where ids are printed the goroutines themselves tell it
// (Always, Stayed); a debug=1 profile or a proto prints none, only counts
// per stack. Its pool's total then says where the risen goroutines came
// from: when the pool did not rise by half the state's rise, the others
// came from the pool's other states (a rise in one state while the pool's
// total stays flat is a phase shift). Two shapes stay a rise: a leak
// (the pool's total rises with the state) and a stall (the state holds
// PhaseFullShare of its pool at every moment from its peak to the last:
// the pool went into that wait and stays there).
// Runtime Go only: JVM dumps name every thread.
func phaseShift(r *Result, pl *Pool, g *Group, at int) bool {
	if r.Runtime != parse.RuntimeGo || printsIDs(g) {
		return false
	}
	c, pc := g.Counts, pl.Counts
	if 2*(pc[at]-pc[0]) >= c[at]-c[0] {
		return false // the pool's total carried the rise: more goroutines, not others
	}
	for i := at; i < len(c); i++ {
		if float64(c[i]) < PhaseFullShare*float64(pc[i]) {
			return true // the state let go of its pool's goroutines: they move
		}
	}
	return false // the state holds its pool from its rise on: a stall
}

func firstRise(c []int) int {
	for i := 1; i < len(c); i++ {
		if c[i] > c[0] {
			return i
		}
	}
	return 0
}

// mixesStatePrinting reports whether some moments are debug=1 profiles
// (no wait state printed) and others print one (debug=2, proto frames):
// only then can one goroutine be "unknown" at one moment and known at
// another.
func mixesStatePrinting(r *Result) bool {
	d1, other := false, false
	for _, m := range r.Moments {
		if m.Format == parse.FormatGoDebug1 {
			d1 = true
		} else {
			other = true
		}
	}
	return d1 && other
}

// unknownIn reports whether a pool has goroutines whose state a moment's
// encoding did not print (debug=1): its states cannot be compared across
// moments.
func unknownIn(pl *Pool) bool {
	for _, g := range pl.States {
		if g.State == "unknown" {
			return true
		}
	}
	return false
}
