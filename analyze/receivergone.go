package analyze

import (
	"slices"
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// Waits whose other side returned (issue 33, "waits by structure"), the
// mirror of sender-gone (sendergone.go) and its machinery: a function F
// starts goroutines (`go func() { ch <- result }()`) and returns before
// it takes what they send (a timeout, an early return on an error); each
// sender then blocks in its send for good, one more per call of F. A
// sync.Cond's waiters whose signaller is gone are the same story. The
// stacks show it by structure (goneSides, one row per wait):
//
//   - goroutines parked in the wait (a plain chan send: neither a nil
//     channel nor a select, whose timer or context case may end it; a
//     sync.Cond's Wait called from the application's own frame), not a
//     semaphore's acquire (holders stand past it: pool-exhausted's);
//   - their creator F (`created by F` printed, an application function) has
//     returned: no other goroutine has F, nor the function F is a closure
//     of, on its stack; none runs a closure of F or was created by F or
//     by one of the waiters (kinAlive); a creator still running may take
//     the send or signal when its call returns;
//   - nobody else of the application could: at each such moment no other
//     application goroutine is out of a library's rest (someoneElse: a
//     consumer resting in its select, a worker on its job channel, a
//     goroutine running or asleep in its work may be the receiver; so may
//     a loop pausing in its own sleep, which sender-gone leaves out: a
//     periodic loop drains a channel or broadcasts a Cond at its pace);
//   - the wait stays: the very same goroutine ids at every whole moment of
//     two or more (SenderGoneMoments), or, in one dump (a paste a person
//     cut too), a wait of LeakWaitMinutes or more printed by each.
//
// A send is a leak (each call of F leaves one more goroutine): critical
// when the count grows between the moments, a warning when it holds
// (none added while the dumps were taken) or one dump tells it. A Cond
// nobody can signal at every moment of two or more is critical; one dump
// a warning. A debug=1 profile prints no ids and no creator: nothing.

// BasisReceiverGone marks goroutines blocked sending on a channel whose
// creator returned and nobody is left to receive (receivergone.go).
const BasisReceiverGone = "receiver-gone"

// BasisSignallerGone marks goroutines in sync.Cond.Wait whose creator
// returned and nobody is left to signal (receivergone.go).
const BasisSignallerGone = "signaller-gone"

// goneSide is one wait whose other side can be gone: the group state it
// is filed under, how the goroutine must wait in it, and how the finding
// says it. A table row, not a case: a wait whose counterpart the stacks
// tie to its creator (a WaitGroup's Done: waitgroups.go; a receive's
// sender: sendergone.go) is told by its own file.
type goneSide struct {
	basis string
	state string // the signature table's state id
	// waits: t is parked in the wait proper (not a nil channel, not a
	// library's own wait under the same state).
	waits func(rt parse.Runtime, t *parse.Thread) bool
	// grows: critical only when the count grows between moments (a
	// leak's mark); else critical at two moments whatever the count.
	grows bool
}

var goneSides = []goneSide{
	{basis: BasisReceiverGone, state: "chan-send", grows: true,
		waits: func(rt parse.Runtime, t *parse.Thread) bool {
			return chanWait("chan-send", t) == "send" && receiveOf(rt, t) != nil
		}},
	{basis: BasisSignallerGone, state: "cond-wait",
		waits: func(rt parse.Runtime, t *parse.Thread) bool { return condCaller(rt, t) != nil }},
}

// condCaller is the application frame that called sync.Cond.Wait in t
// (the runtime's and sync's frames above it); nil when a library called
// it (net/http's abortPendingRead, client-go's queue: their own rest).
func condCaller(rt parse.Runtime, t *parse.Thread) *parse.Frame {
	in := false
	for _, f := range t.Frames {
		switch {
		case strings.HasPrefix(f.Func, "runtime.") || strings.HasPrefix(f.Func, "sync.runtime_"):
		case f.Func == "sync.(*Cond).Wait":
			in = true
		case in && isAppFrame(rt, f):
			return f
		default:
			return nil
		}
	}
	return nil
}

// goneWaiter is one goroutine at one moment in a wait whose creator is
// gone.
type goneWaiter struct {
	t  *parse.Thread
	pl *Pool
	g  *Group
}

// creatorOf is the application function that started t, as its
// `created by` line prints it; "" when none is printed (a paste that cut
// the stack: grep's context, a person's elision, tells no creator, and
// the goroutine's own bottom function may be a cut stack's middle) or
// the creator is a library's (errgroup's Go, net/http's Serve: the
// caller that spawned through it is not printed).
func creatorOf(rt parse.Runtime, t *parse.Thread) string {
	if c := t.CreatedBy; c != nil && isAppFrame(rt, &parse.Frame{Func: c.Func}) {
		return c.Func
	}
	return ""
}

// creatorRuns: a goroutine of d other than the waiters has fn, or the
// function fn is a closure of, on its stack.
func creatorRuns(d *parse.Dump, fn string, waiters map[*parse.Thread]bool) bool {
	owner := closureOwner(fn)
	for _, t := range d.Threads {
		if waiters[t] {
			continue
		}
		if slices.ContainsFunc(t.Frames, func(f *parse.Frame) bool { return f.Func == fn || owner != "" && f.Func == owner }) {
			return true
		}
	}
	return false
}

// goneOthers finds, for each row of goneSides, the goroutines whose
// wait's other side is gone (see above): one finding per row and
// creator, at the last moment with a dump.
func goneOthers(p *Pass, said map[string]bool) []Finding {
	r := p.R
	if r.Runtime != parse.RuntimeGo {
		return nil
	}
	last := lastWithDump(r)
	if last < 0 {
		return nil
	}
	var whole []int // moments with a whole dump that prints ids
	for m, mo := range r.Moments {
		if mo.Dump != nil && wholeGoDump(mo.Dump) && slices.ContainsFunc(mo.Dump.Threads, func(t *parse.Thread) bool { return t.ID != 0 }) {
			whole = append(whole, m)
		}
	}
	// A paste (not whole) at the last moment: that one dump alone, by its
	// printed minutes.
	if len(whole) == 0 || whole[len(whole)-1] != last {
		d := r.Moments[last].Dump
		if d.Excerpt == "" && !pastedDump(d) || d.Kind == "panic" || ownVerdict(d) {
			return nil
		}
		whole = []int{last}
	}
	var fs []Finding
	for _, side := range goneSides {
		fs = append(fs, goneSide1(p, side, whole, said)...)
	}
	return fs
}

func goneSide1(p *Pass, side goneSide, whole []int, said map[string]bool) []Finding {
	r := p.R
	// unserved[m][F] are moment m's waiters created by F nobody can serve.
	unserved := map[int]map[string][]goneWaiter{}
	for _, m := range whole {
		d := r.Moments[m].Dump
		byFn := map[string][]goneWaiter{}
		for _, pl := range r.Pools {
			if pl.Internal {
				continue
			}
			for _, g := range pl.States {
				if g.State != side.state || m >= len(g.Threads) {
					continue
				}
				if side.state == "chan-send" && semaphoreAcquire(r, g, slotResource) {
					continue // a semaphore's acquire: its holders' story (pool-exhausted)
				}
				for _, t := range g.Threads[m] {
					if t.Weight > 1 || t.GoExtra != nil && t.GoExtra.Bubble != 0 || !side.waits(r.Runtime, t) {
						continue // a debug=1 record, a synctest bubble, a nil channel
					}
					if t.ID == 0 && len(whole) > 1 {
						continue // no id: it cannot be followed
					}
					fn := creatorOf(r.Runtime, t)
					if fn == "" {
						continue
					}
					byFn[fn] = append(byFn[fn], goneWaiter{t, pl, g})
				}
			}
		}
		unserved[m] = map[string][]goneWaiter{}
		if len(byFn) == 0 {
			continue
		}
		asSG := map[string][]senderGoneWaiter{}
		for fn, ws := range byFn {
			for _, w := range ws {
				asSG[fn] = append(asSG[fn], senderGoneWaiter(w))
			}
		}
		if someoneElse(p, m, asSG, true) {
			continue
		}
		for fn, ws := range byFn {
			ids := map[int64]bool{}
			is := map[*parse.Thread]bool{}
			for _, w := range ws {
				if w.t.ID != 0 {
					ids[w.t.ID] = true
				}
				is[w.t] = true
			}
			if creatorRuns(d, fn, is) || kinOutside(d, fn, ids, is) {
				continue
			}
			unserved[m][fn] = ws
		}
	}
	last := whole[len(whole)-1]
	var fs []Finding
	for _, fn := range slicesSortedKeys(unserved[last]) {
		ws := unserved[last][fn]
		var stay []goneWaiter
		sev := Warning
		if len(whole) >= SenderGoneMoments {
			// Those there at every whole moment, unserved: the wait stays.
			for _, w := range ws {
				if slices.ContainsFunc(whole, func(m int) bool {
					return !slices.ContainsFunc(unserved[m][fn], func(o goneWaiter) bool { return o.t.ID == w.t.ID })
				}) {
					continue
				}
				stay = append(stay, w)
			}
			if len(stay) == 0 {
				continue
			}
			if !side.grows || len(ws) > len(unserved[whole[0]][fn]) {
				sev = Critical
			}
		} else {
			for _, w := range ws {
				if w.t.WaitMinutes >= LeakWaitMinutes {
					stay = append(stay, w)
				}
			}
			if len(stay) == 0 {
				continue
			}
			ws = stay
		}
		w := stay[0]
		if said[w.pl.Name] {
			continue
		}
		f := groupFinding(KindLeaked, w.pl, w.g, last)
		f.ID = findingID(KindLeaked, w.pl.Name, side.basis, fn)
		f.Basis = side.basis
		f.Severity = sev
		f.Culprit = FrameString(receiveOf(r.Runtime, w.t))
		if side.state == "cond-wait" {
			f.Culprit = FrameString(condCaller(r.Runtime, w.t))
		}
		f.Counts = make([]int, len(r.Moments))
		for _, m := range whole {
			f.Counts[m] = len(unserved[m][fn])
		}
		f.Counts[last] = len(ws)
		f.Totals = r.Totals
		f.Since = whole[0]
		f.FromStart = f.Since == 0
		f.Same = len(stay)
		// The creator leads the entry points: whose calls leave them.
		f.Entries = []FrameCount{{Func: fn, Count: len(ws)}}
		wf := &WaitFact{}
		var names []string
		for _, s := range ws {
			names = append(names, threadLabel(r.Runtime, s.t))
			if s.t.WaitMinutes > 0 {
				if wf.Goroutines == 0 || s.t.WaitMinutes < wf.MinMinutes {
					wf.MinMinutes = s.t.WaitMinutes
				}
				wf.MaxMinutes = max(wf.MaxMinutes, s.t.WaitMinutes)
				wf.Goroutines++
			}
		}
		if wf.Goroutines > 0 {
			f.Wait = wf
		}
		f.Evidence = []Evidence{{Moment: last, Count: len(ws), Threads: firstN(names, 5)}}
		said[w.pl.Name] = true
		fs = append(fs, f)
	}
	return fs
}

// kinOutside is kinAlive with the waiters told by their stacks (a paste
// may print no ids): a goroutine other than the waiters runs a closure of
// fn, was created by fn or a closure of it, or by one of the waiters from
// application code.
func kinOutside(d *parse.Dump, fn string, ids map[int64]bool, is map[*parse.Thread]bool) bool {
	for _, t := range d.Threads {
		if is[t] {
			continue
		}
		if c := t.CreatedBy; c != nil {
			if c.Func == fn || closureOwner(c.Func) == fn || c.Parent != 0 && ids[c.Parent] && isAppFrame(parse.RuntimeGo, &parse.Frame{Func: c.Func}) {
				return true
			}
		}
		if slices.ContainsFunc(t.Frames, func(f *parse.Frame) bool { return closureOwner(f.Func) == fn }) {
			return true
		}
	}
	return false
}
