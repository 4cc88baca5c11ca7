package analyze

import (
	"fmt"
	"strings"
	"time"

	"github.com/dumpdiff/dumpdiff/parse"
)

// A goroutine's id is its identity across the moments (issue 33): Go
// never reuses an id within a process, so a goroutine printed with the
// same id, in the same wait, with the very same stack at every moment
// given has waited there at least the moments' span, or left and come back
// to the very same frames between every two dumps. The runtime prints a
// wait's age only from one minute ("[chan send, 3 minutes]"): dumps taken
// 5 s apart under a minute into a stall print none, and the ids are then
// the only measure of the wait. goWorkWaits reads them where it reads the
// printed minutes, for the same waits: no rest, under a call the
// goroutine's own function made (a send, a pool's or a client's wait); a
// lock's waiters are contention's and deadlock's (golocks), which follow
// the goroutines by their waits at every moment already.

// goHeld is what the ids tell of one analysis.
type goHeld struct {
	// held are the goroutines of the last moment that were at every
	// moment, with their id, in the same state with the same frames.
	held map[*parse.Thread]bool
	// moments is how many moments they were seen at (all of them).
	moments int
	// span is the last moment's time less the first's: the least time
	// they waited; 0 when a moment carries no time.
	span time.Duration
	// records: the moments print no ids (debug=1 profiles): held are the
	// records with the same stack and the same count at every moment,
	// the same goroutines or others that took their places alike, the
	// weaker evidence.
	records bool
}

// heldRecords is heldGoroutines for moments that aggregate goroutines by
// stack and print no id (a debug=1 profile): a record of the last moment
// is held when every earlier moment has a record with the same state and
// frames and the same count. nil when a moment is not such a profile.
func heldRecords(r *Result) *goHeld {
	n := len(r.Moments)
	key := func(t *parse.Thread) string {
		var b strings.Builder
		b.WriteString(t.State)
		for _, f := range t.Frames {
			fmt.Fprintf(&b, "|%s:%d", f.Func, f.Line)
		}
		return b.String()
	}
	byKey := make([]map[string]int, n-1)
	for m := range n {
		d := r.Moments[m].Dump
		if d == nil || len(d.Threads) == 0 {
			return nil
		}
		for _, t := range d.Threads {
			if t.ID != 0 {
				return nil
			}
		}
		if m < n-1 {
			byKey[m] = map[string]int{}
			for _, t := range d.Threads {
				byKey[m][key(t)] += max(t.Weight, 1)
			}
		}
	}
	h := &goHeld{held: map[*parse.Thread]bool{}, moments: n, records: true}
	if t0, t1 := r.Moments[0].Time, r.Moments[n-1].Time; !t0.IsZero() && t1.After(t0) {
		h.span = t1.Sub(t0)
	}
	for _, t := range r.Moments[n-1].Dump.Threads {
		if len(t.Frames) == 0 {
			continue
		}
		k, w := key(t), max(t.Weight, 1)
		same := true
		for m := range n - 1 {
			if byKey[m][k] != w {
				same = false
				break
			}
		}
		if same {
			h.held[t] = true
		}
	}
	// A record's count says nothing of who is in it: when other records
	// of its pool changed between the moments, the pool's goroutines move
	// between the phases of their work, and one record's count that came
	// out the same is the same share of a moving population, not the same
	// goroutines (TestPhaseShiftProperty). Held records are those of pools
	// that did not move at all.
	for _, pl := range r.Pools {
		if movedPool(pl) {
			for _, g := range pl.States {
				for _, t := range g.Threads[n-1] {
					delete(h.held, t)
				}
			}
		}
	}
	return h
}

// movedPool reports whether some state of pl changed its count between
// two moments.
func movedPool(pl *Pool) bool {
	for _, g := range pl.States {
		for _, c := range g.Counts {
			if c != g.Counts[0] {
				return true
			}
		}
	}
	return false
}

// heldGoroutines follows the goroutines of the last moment back through
// the earlier ones by their id; nil when the moments cannot show it: fewer
// than two, a moment without a dump, or a format that prints no id (a
// debug=1 profile aggregates goroutines by stack; its records are not
// goroutines). Only the goroutines of the groups keep accepts are
// followed (nil: every group's): the detector asks of a few groups, and a
// map of every id of every moment cost a million-goroutine analysis 1.4 s
// of CPU and 240 MB (bench/reader-1m.sh) for goroutines no one asked of.
// The ids followed are one map; each earlier moment is read once against
// it.
func heldGoroutines(r *Result, keep func(*Pool, *Group) bool) *goHeld {
	n := len(r.Moments)
	if r.Runtime != parse.RuntimeGo || n < 2 {
		return nil
	}
	if h := heldRecords(r); h != nil {
		return h
	}
	for m := range n {
		if r.Moments[m].Dump == nil {
			return nil
		}
	}
	last := n - 1
	h := &goHeld{held: map[*parse.Thread]bool{}, moments: n}
	if t0, t1 := r.Moments[0].Time, r.Moments[last].Time; !t0.IsZero() && t1.After(t0) {
		h.span = t1.Sub(t0)
	}
	// The goroutines followed, by id (a later one with the same id wins,
	// as in the dump's own reading), and what each earlier moment shows
	// under that id (the later wins there too).
	at := map[int64]int32{}
	var ts []*parse.Thread
	follow := func(t *parse.Thread) {
		if t.ID == 0 || t.Weight > 1 || len(t.Frames) == 0 {
			return
		}
		if i, ok := at[t.ID]; ok {
			ts[i] = t
			return
		}
		at[t.ID] = int32(len(ts))
		ts = append(ts, t)
	}
	if keep == nil {
		for _, t := range r.Moments[last].Dump.Threads {
			follow(t)
		}
	} else {
		for _, pl := range r.Pools {
			for _, g := range pl.States {
				if last < len(g.Threads) && keep(pl, g) {
					for _, t := range g.Threads[last] {
						follow(t)
					}
				}
			}
		}
	}
	if len(ts) == 0 {
		return h
	}
	same := make([]bool, len(ts))
	for i := range same {
		same[i] = true
	}
	seen := make([]*parse.Thread, len(ts))
	for m := range last {
		clear(seen)
		any := false
		for _, u := range r.Moments[m].Dump.Threads {
			if u.ID == 0 || u.Weight > 1 {
				continue
			}
			any = true
			if i, ok := at[u.ID]; ok {
				seen[i] = u
			}
		}
		if !any {
			return nil // a moment without ids: nothing can be followed
		}
		for i, u := range seen {
			if u == nil || !sameWait(u, ts[i]) {
				same[i] = false
			}
		}
	}
	for i, t := range ts {
		if same[i] {
			h.held[t] = true
		}
	}
	return h
}

// sameWait: u and t are in the same state with the same frames, line by
// line, waiting on the same lock where one is printed. (A goroutine that
// ran between the dumps and came back to the very same frames is not told
// from one that stayed: said in the finding.)
func sameWait(u, t *parse.Thread) bool {
	if u.State != t.State || u.WaitAddr != t.WaitAddr || len(u.Frames) != len(t.Frames) {
		return false
	}
	if len(u.Frames) > 0 && &u.Frames[0] == &t.Frames[0] {
		return true // one shared stack
	}
	for i, f := range u.Frames {
		g := t.Frames[i]
		if f.Func != g.Func || f.Line != g.Line || f.File != g.File {
			return false
		}
	}
	return true
}

// heldWorkWaits are g's goroutines of the last moment held at every
// moment (h) in a wait that is no rest, under a call their own function
// made or a unit of work (workLevel above ownLoop), as workWaits at the
// last moment; n is 0 when there are none.
func heldWorkWaits(r *Result, g *Group, h *goHeld, work []string) workWaits {
	var ww workWaits
	last := len(r.Moments) - 1
	if h == nil || g.Rest || last >= len(g.Threads) {
		return ww
	}
	levels := map[stackKey]workLevel{} // goWork's, once a shared stack (frameNames)
	for _, t := range g.Threads[last] {
		if !h.held[t] {
			continue
		}
		k, shared := keyOfStack(t)
		l, ok := levels[k]
		if !ok || !shared {
			l = goWork(t, work)
			levels[k] = l
		}
		if l > ownLoop {
			ww.add(l, t, max(t.Weight, 1))
		}
	}
	return ww
}

// heldFinding is g's stuck finding from the ids (Basis "held-moments"):
// HeldWaitMin or more of its goroutines in a wait that is no rest, under
// their work, the very same at every moment given; ok false when there is
// none, or when another finding explains the group.
func heldFinding(p *Pass, pl *Pool, g *Group, h *goHeld, work []string) (Finding, bool) {
	ww := heldWorkWaits(p.R, g, h, work)
	last := len(p.R.Moments) - 1
	if ww.n < HeldWaitMin || p.explainedBy(g, last) != "" {
		return Finding{}, false
	}
	f := groupFinding(KindStuck, pl, g, last)
	f.Severity = Warning
	f.Basis = "held-moments"
	if cs := frameCounts(ww.callNames.culprits); len(cs) > 0 {
		f.Culprit, f.Culprits = cs[0].Func, cs
	}
	if es := frameCounts(ww.callNames.entries); len(es) > 0 {
		f.Entries = es
	}
	f.Wait = &WaitFact{Goroutines: ww.n, Held: ww.n, HeldMoments: h.moments, HeldSpan: h.span, HeldRecords: h.records}
	f.Same, f.Always = ww.n, ww.n
	f.Since, f.FromStart = 0, true
	f.Evidence = nil
	for m := range p.R.Moments {
		f.Evidence = append(f.Evidence, Evidence{Moment: m, Count: ww.n, Threads: ww.samples})
	}
	return f, true
}
