package analyze

import "github.com/dumpdiff/dumpdiff/parse"

// BasisHandlersChan marks a stuck finding of request handlers blocked on a
// channel operation in one debug=1 profile (handlersOnChannel).
const BasisHandlersChan = "handlers-chan"

// handlersOnChannel: one debug=1 profile (often a fragment a person pasted:
// its header and the one record they ask about) whose server connections'
// goroutines are parked, HandlersChanMin or more and ChosenShare of that
// pool, in a channel operation (debug=1 hides three runtime frames above
// it, four on Go 1.13: gopark, chansend or chanrecv, and its wrapper; a
// select hides two and is a rest) at an application function under a request's handler (Roles.GoWork:
// net/http's serverHandler.ServeHTTP and the other servers' rows). A
// request that waits on a channel for a worker's reply or for room waits
// for its peer; a hundred at once at one function are requests held by
// whatever should take or give on that channel. Said as one dump's
// evidence (a warning), with the profile's own total (its header, when the
// paste kept it) as context. Workers resting in their own loop's receive
// are no server's connections and are not counted.
func handlersOnChannel(p *Pass) []Finding {
	r := p.R
	if len(r.Moments) != 1 || r.Moments[0].Format != parse.FormatGoDebug1 || r.Moments[0].Dump == nil {
		return nil
	}
	work := p.opt.roleTable().GoWork // a server's request to its handler (Roles.GoWork)
	var fs []Finding
	for _, pl := range r.Pools {
		if !connectionBound(pl.Name) {
			continue
		}
		for _, g := range pl.States {
			if g.State != "unknown" {
				continue
			}
			byCulprit := map[string]int{}
			var top *Shape
			n := 0
			for i := range g.Shapes[0] {
				sh := &g.Shapes[0][i]
				if sh.Stack == nil || sh.Culprit == "" || parse.HiddenRuntimeFrames(sh.Stack) < 3 || goWork(sh.Stack, work) != underWork {
					continue
				}
				byCulprit[sh.Culprit] += sh.Count
				if k := byCulprit[sh.Culprit]; k > n {
					n, top = k, sh
				}
			}
			if n < HandlersChanMin || float64(n) < ChosenShare*float64(pl.Counts[0]) {
				continue
			}
			f := groupFinding(KindStuck, pl, g, 0)
			f.ID = findingID(KindStuck, pl.Name, BasisHandlersChan)
			f.Severity = Warning
			f.Basis = BasisHandlersChan
			f.Counts = []int{n}
			f.Totals = []int{max(r.Moments[0].Dump.HeaderTotal, r.Totals[0])}
			f.Frame, f.Culprit = top.top, top.Culprit
			f.Since, f.FromStart = 0, true
			f.Same = n
			fs = append(fs, f)
		}
	}
	return fs
}
