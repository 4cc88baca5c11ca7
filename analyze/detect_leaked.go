package analyze

import (
	"github.com/dumpdiff/dumpdiff/parse"
)

// The leaked detector's thresholds. What each protects against is said
// once, in the detector's Thresholds below (README.md's table is made from
// them; TestThresholdsBeside keeps each beside its detector).
const (
	LeakMin         = 10
	LeakWaitMinutes = 1
	LeakParentShare = 0.5
	LeakFlatMin     = 100
	LeakFlatSpread  = 0.1
)

var leakedDetector = &Detector{
	Name:     KindLeaked,
	Kinds:    []string{KindLeaked},
	Doc:      "Go goroutines blocked for good: marked leaked by the runtime (goroutineleak, Go 1.26+), or many of one creator in one wait for minutes as printed, or a large flat count in a wait that is not a rest",
	Requires: []*Detector{timelineDetector},
	Folds:    "nothing; a pool the timeline already calls growing or not-recovered makes a runtime-marked leak critical",
	Thresholds: []Threshold{
		{"LeakMin", LeakMin, "goroutines of one creator in one wait, printed as long, for a suspected leak: a few are slow calls"},
		{"LeakWaitMinutes", LeakWaitMinutes, "a wait the Go runtime prints (in minutes, from 1) this long on a send or a lock is not passing through: a request does not wait a minute on a channel"},
		{"LeakParentShare", LeakParentShare, "goroutines resting on a channel are a leak only if this share of them has distinct parents (one per request, as Go 1.21+ prints): idle workers share one"},
		{"LeakFlatMin", LeakFlatMin, "without identities or wait times (debug=1, proto): this many goroutines of one creator in a wait that is not a rest at every moment"},
		{"LeakFlatSpread", LeakFlatSpread, "…varying by at most this share of their count"},
	},
	Run: runLeaked,
}

func runLeaked(p *Pass) []Finding {
	r := p.R
	if r.Runtime != parse.RuntimeGo {
		return nil
	}
	fs := runtimeMarked(p)
	marked := map[string]bool{}
	for _, f := range fs {
		marked[f.Pool] = true
	}
	told := map[string]bool{} // pool+state the timeline already tells
	for _, f := range p.Found(timelineDetector) {
		told[f.Pool+"\x00"+f.State] = true
	}
	n := len(r.Moments)
	for _, pl := range r.Pools {
		if pl.Internal || marked[pl.Name] {
			continue
		}
		for _, g := range pl.States {
			if g.Category != Waiting || told[pl.Name+"\x00"+g.State] {
				continue
			}
			if f, ok := longWait(p, pl, g); ok {
				fs = append(fs, f)
				continue
			}
			// Aggregated formats print neither identities nor wait times: a
			// large count that does not move is what is left to go on.
			if g.Rest || g.Always > 0 || n < 2 {
				continue
			}
			lo, hi := g.Counts[0], g.Counts[0]
			for _, c := range g.Counts {
				lo, hi = min(lo, c), max(hi, c)
			}
			if lo >= LeakFlatMin && float64(hi-lo) <= LeakFlatSpread*float64(hi) {
				f := groupFinding(KindLeaked, pl, g, n-1)
				f.Severity = Warning
				f.Basis = "flat-count"
				f.FromStart = true
				fs = append(fs, f)
			}
		}
	}
	return fs
}

// longWait: at least LeakMin goroutines of the group have waited
// LeakWaitMinutes or more at some moment. A rest state (a channel receive)
// also needs most of them created by distinct parents: idle workers share
// one parent, goroutines leaked one per request each have their own.
func longWait(p *Pass, pl *Pool, g *Group) (Finding, bool) {
	best, bestN := -1, 0
	var wf WaitFact
	parents := 0
	for m, lw := range g.waits { // counted by the builder (headerFacts)
		// The latest moment with the most: the longest waits.
		if k := lw.Goroutines; k >= LeakMin && k >= bestN {
			best, bestN, wf, parents = m, k, lw.WaitFact, lw.parents
		}
	}
	if best < 0 {
		return Finding{}, false
	}
	if g.Rest && float64(parents) < LeakParentShare*float64(bestN) {
		return Finding{}, false
	}
	f := groupFinding(KindLeaked, pl, g, best)
	f.Severity = Warning
	f.Basis = "long-wait"
	f.Wait = &wf
	f.Parents = parents
	f.Same = g.Always
	f.Since = firstAtLeast(g.Counts, LeakMin)
	f.FromStart = f.Since == 0
	return f, true
}

// runtimeMarked: goroutines the Go runtime itself marked leaked (goroutine
// leak profile, Go 1.26+), one finding per pool.
func runtimeMarked(p *Pass) []Finding {
	r := p.R
	type acc struct {
		pool    *Pool
		g       *Group
		counts  []int
		samples [][]string
	}
	per := map[string]*acc{}
	var order []string
	for _, pl := range r.Pools {
		for _, g := range pl.States {
			for m, c := range g.marked { // counted by the builder (headerFacts)
				if c == 0 {
					continue
				}
				a := per[pl.Name]
				if a == nil {
					a = &acc{pool: pl, g: g, counts: make([]int, len(r.Moments)), samples: make([][]string, len(r.Moments))}
					per[pl.Name] = a
					order = append(order, pl.Name)
				}
				a.counts[m] += c
				for _, s := range g.markedSamples[m] {
					if len(a.samples[m]) < 5 {
						a.samples[m] = append(a.samples[m], s)
					}
				}
			}
		}
	}
	var fs []Finding
	for _, name := range order {
		a := per[name]
		at := peakAt(a.counts)
		f := groupFinding(KindLeaked, a.pool, a.g, at)
		f.ID = findingID(KindLeaked, name)
		f.State, f.Via = "", ""
		f.Severity = Warning
		f.Basis = "runtime"
		f.Counts = a.counts
		f.Since = firstAtLeast(a.counts, 1)
		f.Evidence = nil
		for m, c := range a.counts {
			if c > 0 {
				f.Evidence = append(f.Evidence, Evidence{Moment: m, Count: c, Threads: a.samples[m]})
			}
		}
		for _, o := range p.Found(timelineDetector) {
			if o.Pool == name && (o.Kind == KindGrowing || o.Kind == KindNotRecovered) {
				f.Severity = Critical // the runtime's mark and the timeline agree
				break
			}
		}
		fs = append(fs, f)
	}
	return fs
}

func isLeaked(t *parse.Thread, d *parse.Dump) bool {
	if d != nil && d.Kind == "goroutineleak" {
		return true
	}
	for _, fl := range t.Flags() {
		if fl == "leaked" {
			return true
		}
	}
	return false
}
