package analyze

import (
	"slices"
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// A receive whose producer returned (issue 33, "waits by structure"). A
// one-shot function F starts a producer (a closure of its own, or any
// goroutine it creates) and receives its result from an unbuffered
// channel; the producer returns early on an error without sending or
// closing, and F waits for good. The stacks show it by structure:
//   - goroutines parked in a plain channel receive whose receive is F's
//     own statement (only the runtime's frames above F's), F an
//     application function called by the goroutine's own code or under a
//     unit of work (goWork: underCall or underWork), not the goroutine's
//     own function: there a receive is a loop's rest (a worker on its job
//     channel, a run or serve loop), which the stacks cannot tell from a
//     one-shot wait;
//   - the wait stays: the very same goroutine ids at F at every moment of
//     two or more (SenderGoneMoments), or, in one dump, a wait of
//     LeakWaitMinutes or more printed at each;
//   - nobody is left to send: at every such moment no goroutine runs a
//     closure of F (F.funcN on its stack), was created by F or by a
//     closure of F, or was started by one of the waiting goroutines; and
//     no other goroutine of the application is out of a library's rest
//     (someoneElse): a dispatcher resting in its select, a pusher
//     blocked on the lock the receiver holds, a worker on its job
//     channel, a client waiting for its reply may each be the sender.
// A select is left out (one of its cases may be a timer's or a context's
// Done, which ends it without a sender: gochans.go's reasoning); so is a
// debug=1 profile (no ids, no creator: nothing tells the producer gone).
// Several moments say it as critical, one aged dump as a warning.

// senderGoneWaiter is one goroutine at one moment in a receive of F.
type senderGoneWaiter struct {
	t  *parse.Thread
	pl *Pool
	g  *Group
}

// receiveOf is the function whose own statement t's plain channel receive
// is (only the runtime's frames above it), when it is an application
// frame; nil otherwise.
func receiveOf(rt parse.Runtime, t *parse.Thread) *parse.Frame {
	for _, f := range t.Frames {
		if strings.HasPrefix(f.Func, "runtime.") {
			continue
		}
		if isAppFrame(rt, f) {
			return f
		}
		return nil
	}
	return nil
}

// kinAlive reports whether a goroutine of d other than the waiters could
// still send for fn: it runs a closure of fn, was created by fn or a
// closure of it, or was started by one of the waiters from application
// code.
func kinAlive(d *parse.Dump, fn string, waiters map[int64]bool) bool {
	for _, t := range d.Threads {
		if waiters[t.ID] {
			continue
		}
		if c := t.CreatedBy; c != nil {
			// One a waiter started from the application's code; a
			// library's own helper (net/http's background read of the
			// request's connection, started in the handler's goroutine)
			// sends on no channel of F's.
			if c.Func == fn || closureOwner(c.Func) == fn || c.Parent != 0 && waiters[c.Parent] && isAppFrame(parse.RuntimeGo, &parse.Frame{Func: c.Func}) {
				return true
			}
		}
		if slices.ContainsFunc(t.Frames, func(f *parse.Frame) bool { return closureOwner(f.Func) == fn }) {
			return true
		}
	}
	return false
}

// someoneElse reports whether moment m holds an application goroutine,
// other than the receivers of byFn, that could still send to them: one
// that runs, is runnable, sleeps, waits on anything (a lock it will get,
// a peer's reply, a channel: a dispatcher resting in its select, a worker
// on its job channel) under the application's code. Left out are the
// runtime's own goroutines, the one writing the dump, a library's
// goroutines with no application frame (an accept loop started bare, a
// connection's background read), and an application goroutine whose one
// application frame is its own function resting in a library's rest
// (main in http.ListenAndServe, a signal wait): none of them sends on a
// channel the application made for one call; nor does a loop pausing in
// its own sleep (loopPause), unless sleepersServe: a periodic loop is
// what takes a channel's items or signals a Cond at its pace.
func someoneElse(p *Pass, m int, byFn map[string][]senderGoneWaiter, sleepersServe bool) bool {
	waiting := map[*parse.Thread]bool{}
	for _, ws := range byFn {
		for _, w := range ws {
			waiting[w.t] = true
		}
	}
	rt := p.R.Runtime
	for _, pl := range p.R.Pools {
		if pl.Internal {
			continue
		}
		for _, g := range pl.States {
			if m >= len(g.Threads) || g.State == dumpWriterState {
				continue
			}
			for _, t := range g.Threads[m] {
				if waiting[t] || strings.Contains(t.State, "no cases") {
					continue
				}
				var app []*parse.Frame
				for _, f := range t.Frames {
					if isAppFrame(rt, f) && !strings.Contains(f.Func, ".gowrap") {
						app = append(app, f)
					}
				}
				if len(app) == 0 {
					continue // a library's own goroutine
				}
				if g.State == "sleep" && loopPause(t) && !sleepersServe {
					// A loop pausing in its own sleep (a housekeeping
					// loop, main's keep-alive): the process's background,
					// as the WaitGroup rule reads it, no producer of one
					// call's result.
					continue
				}
				if len(app) == 1 && app[0] == bottomFrame(t) && g.Category == Idle && g.State != "sleep" && !strings.HasPrefix(g.State, "chan-") && g.State != "select" {
					continue // its own function resting in a library's rest
				}
				return true
			}
		}
	}
	return false
}

// goneSenders finds the goroutines in a receive of a one-shot function
// whose senders are gone (see above): one finding per function, at the
// last moment with a dump.
func goneSenders(p *Pass, said map[string]bool) []Finding {
	r := p.R
	if r.Runtime != parse.RuntimeGo {
		return nil
	}
	work := p.opt.roleTable().GoWork
	var whole []int // moments with a whole dump that prints ids
	for m, mo := range r.Moments {
		if mo.Dump != nil && wholeGoDump(mo.Dump) && slices.ContainsFunc(mo.Dump.Threads, func(t *parse.Thread) bool { return t.ID != 0 }) {
			whole = append(whole, m)
		}
	}
	if len(whole) == 0 || whole[len(whole)-1] != lastWithDump(r) {
		return nil // the last moment is a paste or a profile: it cannot tell
	}
	// unserved[m][fn] are moment m's waiters of fn nobody can send to.
	unserved := map[int]map[string][]senderGoneWaiter{}
	for _, m := range whole {
		d := r.Moments[m].Dump
		byFn := map[string][]senderGoneWaiter{}
		for _, pl := range r.Pools {
			if pl.Internal {
				continue
			}
			for _, g := range pl.States {
				if g.State != "chan-receive" || m >= len(g.Threads) {
					continue
				}
				for _, t := range g.Threads[m] {
					if t.ID == 0 || t.Weight > 1 || chanWait(g.State, t) != "receive" || t.GoExtra != nil && t.GoExtra.Bubble != 0 {
						continue // a record with no id, a nil channel, a synctest bubble
					}
					f := receiveOf(r.Runtime, t)
					if f == nil || goWork(t, work) == ownLoop {
						continue
					}
					byFn[f.Func] = append(byFn[f.Func], senderGoneWaiter{t, pl, g})
				}
			}
		}
		unserved[m] = map[string][]senderGoneWaiter{}
		if len(byFn) == 0 || someoneElse(p, m, byFn, false) {
			continue
		}
		for fn, ws := range byFn {
			ids := map[int64]bool{}
			for _, w := range ws {
				ids[w.t.ID] = true
			}
			if !kinAlive(d, fn, ids) {
				unserved[m][fn] = ws
			}
		}
	}
	last := whole[len(whole)-1]
	var fs []Finding
	for _, fn := range slicesSortedKeys(unserved[last]) {
		ws := unserved[last][fn]
		// The waiters that stay: at fn, unserved, at every whole moment.
		var stay []senderGoneWaiter
		for _, w := range ws {
			every := true
			for _, m := range whole {
				if !slices.ContainsFunc(unserved[m][fn], func(o senderGoneWaiter) bool { return o.t.ID == w.t.ID }) {
					every = false
					break
				}
			}
			if every {
				stay = append(stay, w)
			}
		}
		sev := Critical
		if len(whole) < SenderGoneMoments {
			stay, sev = nil, Warning
			for _, w := range ws {
				if w.t.WaitMinutes >= LeakWaitMinutes {
					stay = append(stay, w)
				}
			}
		}
		if len(stay) == 0 {
			continue
		}
		w := stay[0]
		if said[w.pl.Name] {
			continue
		}
		f := groupFinding(KindLeaked, w.pl, w.g, last)
		f.ID = findingID(KindLeaked, w.pl.Name, BasisSenderGone, fn)
		f.Basis = BasisSenderGone
		f.Severity = sev
		f.Culprit = FrameString(receiveOf(r.Runtime, w.t))
		f.Counts = make([]int, len(r.Moments))
		for _, m := range whole {
			f.Counts[m] = len(stay)
		}
		f.Totals = r.Totals
		f.Since = whole[0]
		if sev == Warning {
			f.Since = last
		}
		f.FromStart = f.Since == 0
		f.Same = len(stay)
		f.Evidence = nil
		var names []string
		for _, s := range stay {
			names = append(names, threadLabel(r.Runtime, s.t))
		}
		f.Evidence = append(f.Evidence, Evidence{Moment: last, Count: len(stay), Threads: names})
		said[w.pl.Name] = true
		fs = append(fs, f)
	}
	return fs
}

// lastWithDump is the last moment holding a dump; -1 when none.
func lastWithDump(r *Result) int {
	for m := len(r.Moments) - 1; m >= 0; m-- {
		if r.Moments[m].Dump != nil {
			return m
		}
	}
	return -1
}

func slicesSortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// bottomFrame is t's last frame above the runtime's own (runtime.main and
// runtime.goexit, which a SIGQUIT traceback prints under every goroutine
// and debug=2 hides); nil when it has none.
func bottomFrame(t *parse.Thread) *parse.Frame {
	for i := len(t.Frames) - 1; i >= 0; i-- {
		if !strings.HasPrefix(t.Frames[i].Func, "runtime.") {
			return t.Frames[i]
		}
	}
	return nil
}
