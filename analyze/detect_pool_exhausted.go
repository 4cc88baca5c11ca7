package analyze

import (
	"sort"

	"github.com/dumpdiff/dumpdiff/parse"
)

// The pool-exhausted detector's thresholds. What each protects against is said
// once, in the detector's Thresholds below (README.md's table is made from
// them; TestThresholdsBeside keeps each beside its detector).
const (
	PoolWaitMin = 3
)

var poolExhaustedDetector = &Detector{
	Name:   "pool-exhausted",
	Kinds:  poolExhaustedKinds(),
	Doc:    "threads wait for a resource a bounded pool lends (a DB, Redis or HTTP client connection, a pooled object, a slot of a Go buffered channel used as a semaphore, a permit of golang.org/x/sync/semaphore.Weighted) while its holders are busy; said with what the holders do and who waits (a health check by name); the holders are the threads under a client that holds the resource, or else, by structure, the threads of the waiters' application path past their acquire (the same function at a later line: poolholders.go), which lead the finding and give its culprit; a Go chan send (or a Weighted's Acquire) is such a semaphore's acquire only when holders stand past it (a Go 1.13 goroutine parked in a channel wait prints its own function at the top, at that later line)",
	Claims: ClaimsGroups,
	Folds:  "the waiters' and the holders' timeline findings",
	Thresholds: []Threshold{
		{"PoolWaitMin", PoolWaitMin, "threads waiting for a pooled resource (a DB connection) at one moment to call the pool exhausted: one or two waiters are a pool working at its edge for an instant; any number is enough when the very same waiter is there at every moment of several (a wait that persists is an empty pool, whatever the count), or when the wait is held by the dump's structure (a paste of the waiters a person cut, a process with nothing else running: ChosenShare). The holders need no count: where no client's frames say who holds (a JDBC driver's read), they are the threads of the waiters' application path past their acquire, the same function at a later line (poolholders.go), every one of them, their count the pool's size as far as the dump tells (the waiters' first application frame under the borrow, or once the frame under it when the application wraps the pool: not further down, where a worker's loop every thread shares would stand); a Go chan send is a semaphore's acquire only when such holders stand past it, and a semaphore seen in one dump is a warning. Such a pool is not exhausted when, over several moments, its holders are other threads at each, no waiter stays, and no more wait than hold (the items go round within one round of the pool: a busy pool at its edge); a queue longer than the pool is exhaustion whatever the turnover"},
	},
	Run: runPoolExhausted,
}

// runPoolExhausted makes one <resource>-pool-exhausted finding per pooled
// resource: the waiting groups of every pool summed, the holders (threads
// under a caller that holds the resource, whatever they do) at the moment
// most wait. It works on one dump: waiting for a pooled resource is itself
// the sign, no rise needed.
func runPoolExhausted(p *Pass) []Finding {
	r := p.R
	n := len(r.Moments)
	held := heldWaits(r)
	var fs []Finding
	for _, res := range resources {
		if res.Pool == "" {
			continue
		}
		var waiters []*Group
		var waiterPools []*Pool
		counts := make([]int, n)
		for _, pl := range r.Pools {
			if pl.Internal {
				continue
			}
			for _, g := range pl.States {
				if g.Resource == res.ID || structural(res.ID) && semaphoreAcquire(r, g, res.ID) {
					waiters = append(waiters, g)
					waiterPools = append(waiterPools, pl)
					for m, c := range g.Counts {
						counts[m] += c
					}
				}
			}
		}
		at := peakAt(counts)
		if len(waiters) == 0 {
			continue
		}
		// The threads past the waiters' acquire at that moment: the
		// holders by structure (poolholders.go), named when no client
		// says who holds (below).
		ws := map[*parse.Thread]bool{}
		for _, w := range waiters {
			for _, t := range w.Threads[at] {
				ws[t] = true
			}
		}
		var past []*parse.Thread
		if d := r.Moments[at].Dump; d != nil {
			past = pastAcquire(r.Runtime, d.Threads, ws)
		}
		// Holders by structure (no client's frames say who holds) that are
		// other threads at every moment, no waiter that stays, and never
		// more waiters than holders: the pool turns over, busy at its edge,
		// and is not exhausted (poolTurnsOver).
		if len(past) > 0 && !heldByVia(r, res.ID, at) && poolTurnsOver(r, waiters) {
			continue
		}
		// Fewer than PoolWaitMin waiters: the pool was empty at that moment,
		// which says exhausted only when the wait persists (the very same
		// waiter at every moment of several) or the dump's structure holds
		// it (heldWaits); else a pool at its edge for an instant.
		min, basis := PoolWaitMin, ""
		if counts[at] < PoolWaitMin {
			persists := 0
			for _, g := range waiters {
				if n > 1 {
					persists += g.Always
				}
				if w := held[g]; w != "" && basis == "" {
					basis = heldBasis(n, w)
				}
			}
			switch {
			case persists > 0:
				min, basis = 1, "persists"
			case basis != "":
				min = 1
			default:
				continue
			}
		}
		// The largest waiting group names the finding.
		main := 0
		for i, g := range waiters {
			if g.Counts[at] > waiters[main].Counts[at] {
				main = i
			}
		}
		g, pl := waiters[main], waiterPools[main]
		f := groupFinding(PoolExhaustedKind(res.ID), pl, g, at)
		f.ID = findingID(f.Kind, res.ID)
		f.Resource = res.ID
		f.Counts = counts
		f.Since = firstAtLeast(counts, min)
		f.FromStart = f.Since == 0
		f.Basis = basis
		last := counts[n-1]
		f.Severity = Warning
		if n == 1 && basis == "" || last >= min && float64(last-counts[0]) > RecoveredShare*float64(counts[at]-counts[0]) || f.FromStart && last >= min {
			f.Severity = Critical
		}
		if n == 1 && basis != "" || n == 1 && structural(res.ID) {
			// One dump cannot tell stuck from busy; a semaphore of a few
			// slots, no known size and waiters found by structure, least of all.
			f.Severity = Warning
		}
		// Entries, culprits and evidence of every waiting group.
		ents := map[entryKey]int{}
		culps := map[string]int{}
		f.Evidence = nil
		for m := range counts {
			if counts[m] == 0 {
				continue
			}
			ev := Evidence{Moment: m, Count: counts[m]}
			for _, w := range waiters {
				ev.Threads = append(ev.Threads, w.Samples[m]...)
			}
			ev.Threads = firstN(ev.Threads, 5)
			f.Evidence = append(f.Evidence, ev)
		}
		for _, w := range waiters {
			for _, e := range w.Entries[at] {
				ents[entryKey{e.Func, e.Probe}] += e.Count
			}
			if peakAt(w.Counts) == at {
				for _, c := range w.Culprits {
					culps[c.Func] += c.Count
				}
			}
			p.ClaimGroup(w, f.ID)
		}
		f.Entries = rankedEntries(ents)
		if len(culps) > 0 {
			f.Culprits = ranked(culps)
			f.Culprit = f.Culprits[0].Func
		}
		// The pool's own frame beside the caller, the top frame being a
		// park that tells nothing: the caller says whose code waits, this
		// frame on which pool (an HTTP client's pool under a framework's
		// template has no caller of the application's at all).
		f.PoolFrame = poolFrameOf(p, waiters, at, res.ID)
		// Holders: whoever holds the resource at that moment, by what they do.
		type hk struct{ pool, state, via, culprit string }
		hs := map[hk]int{}
		for _, q := range r.Pools {
			for _, h := range q.States {
				// A holder works or waits with the resource in hand; a rest
				// under the same client (an idle connection's reader, the
				// pool's own opener) holds none for a caller.
				if h.Holds != res.ID || h.Counts[at] == 0 || h.Resource == res.ID || h.Rest || h.Category == Idle || q.Internal {
					continue
				}
				hs[hk{q.Name, h.State, h.Via, h.Culprit}] += h.Counts[at]
				p.ClaimGroup(h, f.ID)
			}
		}
		for k, c := range hs {
			f.Holders = append(f.Holders, HolderGroup{Pool: k.pool, State: k.state, Via: k.via, Culprit: k.culprit, Count: c})
		}
		sort.Slice(f.Holders, func(i, j int) bool {
			a, b := f.Holders[i], f.Holders[j]
			if a.Count != b.Count {
				return a.Count > b.Count
			}
			return a.Pool+a.State+a.Culprit < b.Pool+b.State+b.Culprit
		})
		// No thread holds it under a client that says so (a driver's
		// read): the holders by structure, past the waiters' acquire
		// (poolholders.go). They are the story: the culprit is theirs.
		if len(f.Holders) == 0 && len(past) > 0 {
			var explained []*Group
			f.Holders, explained = holderGroups(r, at, past)
			f.HolderBasis = holderBasisPast
			for _, g := range explained {
				p.ClaimGroup(g, f.ID)
			}
			if c := f.Holders[0].Culprit; c != "" {
				f.Culprit = c
				f.Culprits = append([]FrameCount{{Func: c, Count: f.Holders[0].Count}}, f.Culprits...)
			}
		}
		fs = append(fs, f)
	}
	return fs
}

// poolExhaustedKinds are the kinds of every pooled resource.
func poolExhaustedKinds() []string {
	var ks []string
	for _, r := range resources {
		if r.Pool != "" {
			ks = append(ks, PoolExhaustedKind(r.ID))
		}
	}
	return ks
}

// firstAtLeast is the first moment where c reaches min; 0 if none.
func firstAtLeast(c []int, min int) int {
	for i, x := range c {
		if x >= min {
			return i
		}
	}
	return 0
}
