package analyze

import "github.com/dumpdiff/dumpdiff/parse"

var eventLoopDetector = &Detector{
	Name:     KindEventLoopBlocked,
	Kinds:    []string{KindEventLoopBlocked},
	Doc:      "an event loop thread (Netty, Vert.x, gRPC's Netty transport) blocked in a wait instead of its selector: every connection it serves waits with it; one thread is enough, on one dump",
	Requires: []*Detector{contentionDetector},
	Claims:   ClaimsGroups,
	Folds:    "the loop threads' own timeline and stuck findings; follows from the contention its blocked loops wait in",
	Run:      runEventLoop,
}

// blocksLoop reports whether a state blocks the thread it is in: a wait on
// anything, or a sleep; not the selector, not running.
func blocksLoop(s *Signature) bool {
	return s != nil && (s.Category == Waiting || s.Resource == "time")
}

// checkerBlocked reports whether a blocked-thread checker (Vert.x's)
// warned about t: its current task has run past the checker's limit,
// whatever its top frame shows (a loop in the task's own code blocks the
// loop as a wait does).
func checkerBlocked(t *parse.Thread) bool {
	return t.JVM != nil && t.JVM.BlockedFor > 0
}

// runEventLoop makes one finding per event loop pool: its blocked threads
// summed over their states (one loop in a socket read, another behind a
// lock: one story, the blocking code on the loop), named by the largest.
func runEventLoop(p *Pass) []Finding {
	r := p.R
	if r.Runtime != parse.RuntimeJVM {
		return nil
	}
	loops := p.opt.roleTable().EventLoops
	var fs []Finding
	for _, pl := range r.Pools {
		if pl.Internal {
			continue
		}
		counts := make([]int, len(r.Moments))
		// causes are the contention findings its blocked loops wait in,
		// per moment: a lock's holder is their story (main-holder-stuck).
		causes := make([]string, len(r.Moments))
		var groups []*Group
		per := map[*Group][]int{}
		for _, g := range pl.States {
			for m, ts := range g.Threads {
				for _, t := range ts {
					if !blocksLoop(p.signature(m, t)) && !checkerBlocked(t) || !anyFramePrefix(t, loops) {
						continue
					}
					if per[g] == nil {
						per[g] = make([]int, len(r.Moments))
						groups = append(groups, g)
					}
					if c := p.ThreadClaimOf(contentionDetector, m, t); c != "" {
						causes[m] = c
					}
					w := max(t.Weight, 1)
					per[g][m] += w
					counts[m] += w
				}
			}
		}
		if len(groups) == 0 {
			continue
		}
		at := peakAt(counts)
		main := groups[0]
		for _, g := range groups {
			if per[g][at] > per[main][at] {
				main = g
			}
		}
		f := groupFinding(KindEventLoopBlocked, pl, main, at)
		f.ID = findingID(KindEventLoopBlocked, pl.Name)
		f.Severity = Critical
		f.Counts = counts
		f.Since = firstAtLeast(counts, 1)
		f.FromStart = counts[0] > 0
		f.CausedBy = causes[at]
		culps := map[string]int{}
		ents := map[entryKey]int{}
		f.Evidence = nil
		for m, c := range counts {
			if c == 0 {
				continue
			}
			ev := Evidence{Moment: m, Count: c}
			for _, g := range groups {
				ev.Threads = append(ev.Threads, g.Samples[m]...)
			}
			ev.Threads = firstN(ev.Threads, 5)
			f.Evidence = append(f.Evidence, ev)
		}
		for _, g := range groups {
			for _, c := range g.Culprits {
				culps[c.Func] += c.Count
			}
			for _, e := range g.Entries[at] {
				ents[entryKey{e.Func, e.Probe}] += e.Count
			}
			// The loops' own stories are this one.
			p.ClaimGroup(g, f.ID)
		}
		f.Culprits = ranked(culps)
		if len(f.Culprits) > 0 {
			f.Culprit = f.Culprits[0].Func
		}
		f.Entries = rankedEntries(ents)
		fs = append(fs, f)
	}
	return fs
}
