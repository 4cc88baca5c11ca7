package analyze

import (
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// The explosion detector's thresholds. What each protects against is said
// once, in the detector's Thresholds below (README.md's table is made from
// them; TestThresholdsBeside keeps each beside its detector).
const (
	ExplosionFactor = 3
	ExplosionMin    = 100
	GoExplosionMin  = 10000
)

var explosionDetector = &Detector{
	Name:  KindExplosion,
	Kinds: []string{KindExplosion},
	Doc:   "the process multiplied its threads (pools with a known maximum left out), said with the pool that grew most and what it waits on",
	Folds: "nothing",
	Thresholds: []Threshold{
		{"ExplosionFactor", ExplosionFactor, "the process multiplied its threads by at least this (pools with a known maximum left out: they grow to it by design)"},
		{"ExplosionMin", ExplosionMin, "…and grew by at least this many threads: a small service going from 20 to 60 threads is load, not an explosion"},
		{"GoExplosionMin", GoExplosionMin, "goroutines are cheap: fewer than this many are never an explosion, however fast they multiplied"},
	},
	Run: runExplosion,
}

func runExplosion(p *Pass) []Finding {
	r := p.R
	if len(r.Totals) < 2 {
		return nil
	}
	// Pools bounded by a known maximum (Tomcat's request threads) grow under
	// load by design, up to their limit: that is saturation, not an
	// explosion, so their growth is left out.
	t := make([]int, len(r.Totals))
	copy(t, r.Totals)
	for _, pl := range r.Pools {
		if limit, _, _ := p.knownLimit(pl.Name); limit > 0 {
			for i := range t {
				t[i] -= pl.Counts[i]
			}
		}
	}
	at := peakAt(t)
	peak := t[at]
	if peak < ExplosionFactor*t[0] || peak-t[0] < ExplosionMin {
		return nil
	}
	// Goroutines are cheap: many more under load is normal. Only a count
	// that threatens memory is an explosion.
	if r.Runtime == parse.RuntimeGo && peak < GoExplosionMin {
		return nil
	}
	var top *Pool
	for _, pl := range r.Pools {
		if top == nil || pl.Counts[at]-pl.Counts[0] > top.Counts[at]-top.Counts[0] {
			top = pl
		}
	}
	f := Finding{ID: KindExplosion, Kind: KindExplosion, Severity: Critical, Totals: r.Totals, Counts: r.Totals, At: at,
		Since: firstRise(t)}
	if top != nil {
		f.Pool, f.Counts, f.PoolCounts = top.Name, top.Counts, top.Counts
		if g := topWaiting(top, at); g != nil {
			f.State, f.Via, f.Resource, f.Frame, f.Culprit = g.State, g.Via, g.Resource, g.TopFrame, g.Culprit
			f.Culprits = g.Culprits
			f.Entries = g.Entries[at]
			f.Evidence = evidence(g)
		}
		// Unnamed Thread-N created per task: an executor without a bounded
		// pool (CompletableFuture.supplyAsync when the common pool's
		// parallelism is 1 spawns a thread per task).
		if strings.HasPrefix(top.Name, "Thread-") {
			f.Basis = "thread-per-task"
		}
	}
	return []Finding{f}
}

// topWaiting returns the group of p with most threads at moment m,
// preferring waiting groups.
func topWaiting(p *Pool, m int) *Group {
	var best *Group
	for _, g := range p.States {
		if best == nil {
			best = g
			continue
		}
		gw, bw := g.Category == Waiting, best.Category == Waiting
		if gw != bw && gw || gw == bw && g.Counts[m] > best.Counts[m] {
			best = g
		}
	}
	return best
}
