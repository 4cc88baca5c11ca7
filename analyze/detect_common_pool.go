package analyze

import "github.com/dumpdiff/dumpdiff/parse"

var commonPoolDetector = &Detector{
	Name:     KindCommonPoolStarved,
	Kinds:    []string{KindCommonPoolStarved},
	Doc:      "every worker of the JVM's shared ForkJoinPool common pool blocks in a wait: parallel streams and CompletableFuture.*Async calls without an executor queue behind them; any size, on one dump",
	Requires: []*Detector{stuckDetector, timelineDetector, deadlockDetector},
	Folds:    "itself into the stuck or rising wait of its workers, or the deadlock they are in, as its consequence (caused by)",
	Run:      runCommonPool,
}

func runCommonPool(p *Pass) []Finding {
	r := p.R
	if r.Runtime != parse.RuntimeJVM {
		return nil
	}
	var fs []Finding
	for _, pl := range r.Pools {
		if !poolIn(pl.Name, p.opt.roleTable().CommonPools) {
			continue
		}
		best, bestTop := -1, (*Group)(nil)
		for m, total := range pl.Counts {
			if total == 0 {
				continue
			}
			blocked := 0
			var top *Group
			for _, g := range pl.States {
				if g.Category == Waiting && g.Resource != "" {
					blocked += g.Counts[m]
					if top == nil || g.Counts[m] > top.Counts[m] {
						top = g
					}
				}
			}
			if blocked < total || top == nil {
				continue
			}
			if best < 0 || total > pl.Counts[best] {
				best, bestTop = m, top
			}
		}
		if best < 0 {
			continue
		}
		f := groupFinding(KindCommonPoolStarved, pl, bestTop, best)
		f.ID = findingID(KindCommonPoolStarved, pl.Name)
		f.Severity = Critical
		f.Counts = pl.Counts
		f.Waiting = pl.Counts[best]
		f.Limit = Limit{Size: pl.Max, Source: "observed", What: "common pool parallelism (cores − 1 unless set)"}
		f.Since = best
		f.FromStart = best == 0
		for _, o := range p.FoundAll() {
			if o.Pool == pl.Name && o.State == bestTop.State && o.Via == bestTop.Via && (o.Kind == KindStuck || o.Kind == KindNotRecovered || o.Kind == KindGrowing) {
				f.CausedBy = o.ID
			}
		}
		// Its workers in a deadlock (a class initializer of a parallel
		// stream's task waiting for another): the deadlock is the cause.
		if f.CausedBy == "" {
			for _, t := range bestTop.Threads[best] {
				if id := p.ThreadClaimOf(deadlockDetector, best, t); id != "" {
					f.CausedBy = id
					break
				}
			}
		}
		fs = append(fs, f)
	}
	return fs
}
