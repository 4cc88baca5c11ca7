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
	CrowdMin        = 100
	CrowdShare      = 0.5
)

var explosionDetector = &Detector{
	Name:   KindExplosion,
	Kinds:  []string{KindExplosion},
	Doc:    "the process multiplied its threads (pools with a known maximum left out), said with the pool that grew most and what it waits on; or, on one dump, a crowd of JVM threads that no pool's loop runs, made by one application frame, in one wait (a thread per task: new Thread per request, supplyAsync with no executor on 1–2 CPUs), said with the frame that made them",
	Claims: ClaimsGroups,
	Folds:  "nothing; a crowd's own group (its stuck and timeline findings: the same threads, one story) is the crowd's",
	Thresholds: []Threshold{
		{"ExplosionFactor", ExplosionFactor, "the process multiplied its threads by at least this (pools with a known maximum left out: they grow to it by design)"},
		{"ExplosionMin", ExplosionMin, "…and grew by at least this many threads: a small service going from 20 to 60 threads is load, not an explosion"},
		{"CrowdMin", CrowdMin, "on one dump, with no rise: this many JVM threads or more that no pool's loop runs (a thread started for its task), made by one application frame, in one wait of their work (no rest, no gate such as a lock, a permit or a pool's connection, which bounds the work: a throttle's queue), are a thread per task (crowd.go): fewer are a design's few per-request threads, not told from noise; a classic blocking server's connections reading in the accept loop's own code are its clients and rest"},
		{"CrowdShare", CrowdShare, "…and at least this share of the process's application threads at that moment: one crowd holding most of the process is what the process does; a few hundred beside thousands of pooled threads are one of its parts"},
		{"GoExplosionMin", GoExplosionMin, "goroutines, and the JVM's virtual threads (one per task is their design), are cheap: fewer than this many are never an explosion, however fast they multiplied"},
	},
	Run: runExplosion,
}

func runExplosion(p *Pass) []Finding {
	if fs := risen(p); fs != nil {
		return fs
	}
	return threadPerTask(p)
}

// risen: the process multiplied its threads between moments.
func risen(p *Pass) []Finding {
	r := p.R
	if len(r.Totals) < 2 {
		return nil
	}
	// Pools bounded by a known maximum (Tomcat's request threads) grow under
	// load by design, up to their limit: that is saturation, not an
	// explosion, so their growth is left out. A pool's name proves nothing
	// of its threads: its known maximum needs its loop (knownLimit), and
	// threads that no pool's loop runs (each started for its task, as a
	// signatures file's name-only [pool] may still claim) are no bounded
	// pool: their growth counts (unpooledPool).
	t := make([]int, len(r.Totals))
	copy(t, r.Totals)
	for _, pl := range r.Pools {
		if p.knownLimit(pl).Max > 0 && !unpooledPool(r, pl, p.opt.roleTable().PoolLoops) {
			for i := range t {
				t[i] -= pl.Counts[i]
			}
		}
	}
	// Virtual threads are cheap, as goroutines are, and one per task is
	// their design (Executors.newVirtualThreadPerTaskExecutor, Spring Boot
	// 3.2+ requests): 10 becoming 2,000 under a load is that load. The
	// platform threads are judged as before; the virtual ones only past
	// GoExplosionMin.
	virtual := virtualCounts(r)
	platform := make([]int, len(t))
	for i := range t {
		platform[i] = t[i] - virtual[i]
	}
	exploded := func(t []int, min int) (int, bool) {
		at := peakAt(t)
		return at, t[at] >= ExplosionFactor*t[0] && t[at]-t[0] >= ExplosionMin && t[at] >= min
	}
	min := 0
	if r.Runtime == parse.RuntimeGo {
		// Goroutines are cheap: many more under load is normal. Only a
		// count that threatens memory is an explosion.
		min = GoExplosionMin
	}
	at, ok := exploded(platform, min)
	if !ok {
		if at, ok = exploded(t, GoExplosionMin); !ok || virtual[at] == 0 {
			return nil
		}
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
		// Threads created per task: an executor without a bounded pool
		// (CompletableFuture.supplyAsync when the common pool's
		// parallelism is 1 spawns a thread per task), told by the
		// threads' stacks (no pool's loop under them), whatever their
		// name.
		if strings.HasPrefix(top.Name, "Thread-") || unpooledPool(r, top, p.opt.roleTable().PoolLoops) {
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

// virtualCounts is how many of each moment's threads are JVM virtual
// threads (JSON and plain Thread.dump_to_file dumps list them); zeros for
// Go and for dumps that show none.
func virtualCounts(r *Result) []int {
	v := make([]int, len(r.Moments))
	if r.Runtime != parse.RuntimeJVM {
		return v
	}
	for i, mo := range r.Moments {
		if mo.Dump == nil {
			continue
		}
		for _, th := range mo.Dump.Threads {
			if th.JVM != nil && th.JVM.Virtual {
				v[i] += max(th.Weight, 1)
			}
		}
	}
	return v
}
