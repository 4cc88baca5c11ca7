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
	GoSleepCrowdMin = 1000
	CgoThreadsMin   = 100
)

var explosionDetector = &Detector{
	Name:     KindExplosion,
	Kinds:    []string{KindExplosion},
	Doc:      "the process multiplied its threads (pools with a known maximum left out), said with the pool that grew most and what it waits on; or, on one dump, a crowd of JVM threads that no pool's loop runs, made by one application frame, in one wait (a thread per task: new Thread per request, supplyAsync with no executor on 1–2 CPUs), said with the frame that made them; or, at a moment, a crowd of goroutines of one creator sleeping on time alone (time.Sleep), GoSleepCrowdMin and CrowdShare of the process, not a server connection's (a request in flight) and not started together by one parent (a pool): a goroutine per request that waits out a delay, with nothing to bound them",
	Claims:   ClaimsGroups,
	Requires: []*Detector{executorLeakDetector},
	Folds:    "leaked thread owners' threads (executor-leak: their rise is the leak's story, left out of the process's); a crowd's own group (its stuck and timeline findings: the same threads, one story) is the crowd's",
	Thresholds: []Threshold{
		{"ExplosionFactor", ExplosionFactor, "the process multiplied its threads by at least this (pools with a known maximum left out: they grow to it by design)"},
		{"ExplosionMin", ExplosionMin, "…and grew by at least this many threads: a small service going from 20 to 60 threads is load, not an explosion"},
		{"CrowdMin", CrowdMin, "on one dump, with no rise: this many JVM threads or more that no pool's loop runs (a thread started for its task), made by one application frame, in one wait of their work (no rest, no gate such as a lock, a permit or a pool's connection, which bounds the work: a throttle's queue), are a thread per task (crowd.go): fewer are a design's few per-request threads, not told from noise; a classic blocking server's connections reading in the accept loop's own code are its clients and rest"},
		{"CrowdShare", CrowdShare, "…and at least this share of the process's application threads at that moment: one crowd holding most of the process is what the process does; a few hundred beside thousands of pooled threads are one of its parts"},
		{"GoExplosionMin", GoExplosionMin, "goroutines, and the JVM's virtual threads (one per task is their design), are cheap: fewer than this many are never an explosion by their rise alone, however fast they multiplied (a crowd of one stack sleeping on time alone, GoSleepCrowdMin and CrowdShare of the process, is told by its structure: goSleepCrowd)"},
		{"GoSleepCrowdMin", GoSleepCrowdMin, "at a moment, this many goroutines or more of one creator sleeping on time alone, CrowdShare of the process, are a goroutine per request waiting out a delay (goSleepCrowd): a worker pool a person sized (tens to a few hundred workers sleeping between polls: a bounded pool of 100 sleeping workers was called an explosion at CrowdMin, in a debug=1 profile that prints no parent to tell a pool by) stays below it; goroutines are cheap, so fewer are no threat to memory either"},
		{"CgoThreadsMin", CgoThreadsMin, "at every moment given, this many goroutines or more in cgo calls (a C function: each holds an OS thread of its own until it returns; debug=2 prints them as [syscall], debug=1 prints no state) are as many OS threads held in C (goCgoThreads), said with the pool that holds most: a few workers in short C calls (a driver's, a compressor's: 4 workers calling a 1 ms C function in a loop) are work, and Go stops a process at 10,000 threads"},
	},
	Run: runExplosion,
}

func runExplosion(p *Pass) []Finding {
	if fs := risen(p); fs != nil {
		return fs
	}
	if fs := threadPerTask(p); fs != nil {
		return fs
	}
	if fs := goSleepCrowd(p); fs != nil {
		return fs
	}
	return goCgoThreads(p)
}

// goCgoThreads: goroutines in cgo calls (state cgo-call, in every form:
// debug=2's "[syscall]" over a _Cfunc_ wrapper, debug=1's first printed
// frame, the proto's runtime.cgocall) each hold an OS thread until their C
// function returns; CgoThreadsMin of them or more at every moment given
// are as many threads held in C. Said with the pool that holds most, at
// the last moment; its group is the finding's (the mass and the flat
// count of the same goroutines are this story).
func goCgoThreads(p *Pass) []Finding {
	r := p.R
	if r.Runtime != parse.RuntimeGo {
		return nil
	}
	n := len(r.Moments)
	total := make([]int, n)
	var best *Group
	var bestPool *Pool
	for _, pl := range r.Pools {
		for _, g := range pl.States {
			if g.State != "cgo-call" {
				continue
			}
			for m, c := range g.Counts {
				total[m] += c
			}
			if best == nil || g.Counts[n-1] > best.Counts[n-1] {
				best, bestPool = g, pl
			}
		}
	}
	if best == nil {
		return nil
	}
	for m, mo := range r.Moments {
		if mo.Dump != nil && total[m] < CgoThreadsMin {
			return nil
		}
	}
	f := groupFinding(KindExplosion, bestPool, best, n-1)
	f.ID = findingID(KindExplosion, bestPool.Name, BasisCgoThreads)
	f.Basis = BasisCgoThreads
	f.Severity = Warning
	f.Totals = r.Totals
	f.Since = firstAtLeast(best.Counts, 1)
	f.FromStart = f.Since == 0
	p.ClaimGroup(best, f.ID)
	return []Finding{f}
}

// goSleepCrowd: at some moment, one Go pool's goroutines sleeping on time
// alone (the sleep state: time.Sleep, a timer's channel) hold GoSleepCrowdMin
// and CrowdShare of the process's goroutines. A sleep ends by itself, so
// no leak; but thousands of goroutines waiting out a delay, made by one
// creator, are a goroutine per request (a fire-and-forget reminder, a
// retry's backoff) that nothing bounds: each costs a stack meanwhile, and
// the load decides how many. Left out: a server connection's own
// goroutine (a handler that sleeps is a request in flight, its client's),
// and goroutines that print one parent (Go 1.21+: a pool started
// together sleeps in its loop). The moment with the most; critical when
// the crowd is at every moment and grew from the first to the last.
func goSleepCrowd(p *Pass) []Finding {
	r := p.R
	if r.Runtime != parse.RuntimeGo {
		return nil
	}
	var best *crowd
	for m, mo := range r.Moments {
		if mo.Dump == nil || m >= len(r.Totals) {
			continue
		}
		for _, pl := range r.Pools {
			if pl.Internal || connectionBound(pl.Name) {
				continue
			}
			for _, g := range pl.States {
				c := g.Counts[m]
				if g.State != "sleep" || c < GoSleepCrowdMin || float64(c) < CrowdShare*float64(r.Totals[m]) {
					continue
				}
				parents := map[int64]bool{}
				for _, t := range g.Threads[m] {
					if t.CreatedBy != nil && t.CreatedBy.Parent != 0 {
						parents[t.CreatedBy.Parent] = true
					}
				}
				if len(parents) == 1 {
					continue
				}
				if best == nil || c > best.n {
					best = &crowd{pool: pl, g: g, m: m, n: c}
				}
			}
		}
	}
	if best == nil {
		return nil
	}
	f := groupFinding(KindExplosion, best.pool, best.g, best.m)
	f.ID = findingID(KindExplosion, best.pool.Name, "goroutine-crowd")
	f.Basis = BasisGoSleepCrowd
	f.Severity = Warning
	f.Totals = r.Totals
	stays, withDump, first, last := true, 0, -1, -1
	for m, mo := range r.Moments {
		if mo.Dump == nil {
			continue
		}
		withDump++
		if first < 0 {
			first = m
		}
		last = m
		stays = stays && best.g.Counts[m] >= GoSleepCrowdMin
	}
	if withDump >= 2 && stays && best.g.Counts[last] > best.g.Counts[first] {
		f.Severity = Critical
	}
	f.Since = firstAtLeast(best.g.Counts, GoSleepCrowdMin)
	f.FromStart = f.Since == 0
	// The crowd's group is its story (its growth is what a goroutine per
	// request does).
	p.ClaimGroup(best.g, f.ID)
	return []Finding{f}
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
	// Threads of owners made per call and never shut down (executor-leak)
	// rise because of that leak: one story, the leak's.
	for _, f := range p.Found(executorLeakDetector) {
		for i := range t {
			if i < len(f.Counts) {
				t[i] -= f.Counts[i]
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
