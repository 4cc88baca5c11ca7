package analyze

import (
	"slices"
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// A sync.WaitGroup's Wait returns when its counter reaches zero, and only
// the goroutines that were to call Done can bring it there: the workers
// the waiter started (its children), or some other goroutine of the
// application. When the waiter's children are gone (they returned before
// Done) or every one of them is blocked on a channel, a lock or another
// WaitGroup, and no other application goroutine is left that could run
// (everything else is the runtime's, a library's loop with no application
// frame, or blocked as well), the Wait never returns: the Go runtime would
// say "all goroutines are asleep" if a server did not keep the process
// alive. Read from one dump's structure; the very same waiter at every
// moment of two or more makes it critical.

// blockedStates are the Go waits that end only when another goroutine
// acts: a channel operation, a select, a lock, a Cond, a semaphore, a
// WaitGroup; and "unknown", a debug=1 record parked where the runtime's
// frames are hidden (a channel operation or a select). A sleep, a read, a
// call to a peer or a running goroutine can still go on by itself.
var blockedStates = []string{"chan-send", "chan-receive", "select", "mutex-wait", "rwmutex-wait", "cond-wait", "semacquire", "semaphore-wait", "waitgroup-wait", "unknown"}

// inputWaits are the blocked states of a worker waiting for input: a
// receive, a select, a debug=1 record whose wait is hidden.
var inputWaits = []string{"chan-receive", "select", "unknown"}

// wgWaiter is one goroutine in WaitGroup.Wait at one moment and what the
// moment holds around it.
type wgWaiter struct {
	t        *parse.Thread
	pool     *Pool
	g        *Group
	caller   string // the frame that called Wait
	children int    // goroutines it started, still there
	blocked  int    // …of which blocked (blockedStates)
	// workers are the blocked ones by pool, state and their own culprit
	// frame (main.runBatch.func1 in a chan send): what the finding names.
	workers map[HolderGroup]int
}

// waitGroupCaller is the function that called WaitGroup.Wait on t's stack
// (the first frame under the sync package's own): "" when none.
func waitGroupCaller(t *parse.Thread) string {
	for i, f := range t.Frames {
		if f.Func != "sync.(*WaitGroup).Wait" {
			continue
		}
		for _, c := range t.Frames[i+1:] {
			if !strings.HasPrefix(c.Func, "sync.") && !strings.HasPrefix(c.Func, "runtime.") {
				return c.Func
			}
		}
	}
	return ""
}

// startedBy reports whether t is one of w's workers: started by w (at
// caller): its printed parent is w, its creator is caller, or its entry is
// a func literal of caller (debug=1 prints no creator: main.run.func1 is
// made in main.run); or started beside w, by the same creator and parent
// (a fan-in's closer goroutine waits for the forwarders its own creator
// started: the Go blog's merge).
func startedBy(t, w *parse.Thread, caller string) bool {
	if c := t.CreatedBy; c != nil {
		if wc := w.CreatedBy; wc != nil && c.Func == wc.Func && (c.Parent == 0 || wc.Parent == 0 || c.Parent == wc.Parent) {
			return true
		}
		if c.Parent != 0 && w.ID != 0 {
			return c.Parent == w.ID
		}
		if c.Func == caller {
			return true
		}
	}
	if n := len(t.Frames); n > 0 {
		e := t.Frames[n-1].Func
		if closureOwner(e) == caller {
			return true
		}
		if t.CreatedBy == nil && len(w.Frames) > 0 {
			// debug=1: two func literals of one function, started beside
			// each other.
			we := w.Frames[len(w.Frames)-1].Func
			o := closureOwner(we)
			return o != "" && (e == o || closureOwner(e) == o)
		}
	}
	return false
}

// family reports whether t is one of the goroutines that could count w's
// WaitGroup down, by structure: one w started (startedBy); one started by,
// or running a func literal of, a method of the waiter's caller's receiver
// type (a stopper's workers, started by (*Stopper).RunWorker, for a Wait
// in (*Stopper).Stop; errgroup's tasks for (*Group).Wait); one running a
// func literal of the caller itself on its stack (a task the caller handed
// to a pool's worker).
func family(t, w *parse.Thread, caller string) bool {
	if startedBy(t, w, caller) {
		return true
	}
	return kin(t, caller)
}

// kin reports whether t is related to the caller of a Wait by more than
// being started beside its waiter: it runs a method of the caller's
// receiver type, or a func literal of the caller (see family).
func kin(t *parse.Thread, caller string) bool {
	if c := t.CreatedBy; c != nil && c.Func == caller {
		return true
	}
	if n := len(t.Frames); n > 0 && closureOwner(t.Frames[n-1].Func) == caller {
		return true
	}
	if r := receiverOf(caller); r != "" {
		if c := t.CreatedBy; c != nil && receiverOf(c.Func) == r {
			return true
		}
		if n := len(t.Frames); n > 0 && receiverOf(t.Frames[n-1].Func) == r {
			return true
		}
	}
	for _, f := range t.Frames {
		if closureOwner(f.Func) == caller {
			return true
		}
	}
	return false
}

// receiverOf is the pointer receiver type of a method or of a func literal
// made in one, as the compiler names them ("main.(*stopper)" for
// main.(*stopper).stop and main.(*stopper).runWorker.func1); "" for a plain
// function. Value receivers are not told from a package path with a dot
// (gopkg.in/yaml.v3.Marshal): they are left out.
func receiverOf(fn string) string {
	from := strings.LastIndexByte(fn, '/') + 1
	k := strings.Index(fn[from:], ".(*")
	if k < 0 {
		return ""
	}
	end := strings.IndexByte(fn[from+k:], ')')
	if end < 0 {
		return ""
	}
	return fn[:from+k+end+1]
}

// loopPause reports whether t sleeps in its own loop: time.Sleep called
// straight from the goroutine's entry function (a housekeeping loop's
// pause), not from a task under it (a worker's task that sleeps, then
// calls Done).
func loopPause(t *parse.Thread) bool {
	n := len(t.Frames)
	for i, f := range t.Frames {
		if f.Func == "time.Sleep" {
			return i+2 == n
		}
	}
	return false
}

// appWork reports whether t runs application code that could call Done:
// an application frame other than the go statement's wrapper (Go 1.22+'s
// main.main.gowrap1 under a library's loop, as `go http.Serve(ln, nil)`
// makes).
func appWork(rt parse.Runtime, t *parse.Thread) bool {
	for _, f := range t.Frames {
		if isAppFrame(rt, f) && !strings.Contains(f.Func, ".gowrap") {
			return true
		}
	}
	return false
}

// unservedWaitGroups: at each moment, the waiters in WaitGroup.Wait that
// nobody can serve (see above). One finding per waiter's caller, at the
// last moment it holds; critical when it holds at every moment of two or
// more.
func unservedWaitGroups(p *Pass, said map[string]bool) []Finding {
	r := p.R
	type acc struct {
		w      wgWaiter
		counts []int
		at     int
		pools  []*Pool // every pool a waiter of this caller is in, first seen first
	}
	per := map[string]*acc{}
	var order []string
	// Loops that pause in a sleep of their own at every whole dump (the
	// same goroutine id): a housekeeping loop, a poller. Across two or more
	// moments such a loop is the process's background, not a worker that
	// is about to call Done; in one dump it is given the benefit of the
	// doubt (it might wake and count down).
	pauses := map[int64]int{} // by goroutine id: the whole dumps it pauses in
	whole := 0
	for m, mo := range r.Moments {
		if mo.Dump == nil || !wholeGoDump(mo.Dump) {
			continue
		}
		whole++
		for _, pl := range r.Pools {
			for _, g := range pl.States {
				if m >= len(g.Threads) || g.State != "sleep" {
					continue
				}
				for _, t := range g.Threads[m] {
					if t.ID != 0 && loopPause(t) {
						pauses[t.ID]++
					}
				}
			}
		}
	}
	background := func(t *parse.Thread) bool {
		return whole >= 2 && t.ID != 0 && pauses[t.ID] == whole
	}
	withDump := 0
	for m, mo := range r.Moments {
		if mo.Dump == nil {
			continue
		}
		withDump++
		// Only a whole dump shows that nothing is left to call Done: a
		// paste, a crash report ("all goroutines are asleep", the
		// deadlock detector's) or a tool's own list are told by theirs.
		if !wholeGoDump(mo.Dump) {
			continue
		}
		// Every goroutine of the moment with its group, once.
		type member struct {
			t    *parse.Thread
			pool *Pool
			g    *Group
		}
		var all []member
		var waiters []int
		for _, pl := range r.Pools {
			if pl.Internal {
				continue
			}
			for _, g := range pl.States {
				if m >= len(g.Threads) || g.State == dumpWriterState {
					continue
				}
				for _, t := range g.Threads[m] {
					if g.State == "waitgroup-wait" {
						waiters = append(waiters, len(all))
					}
					all = append(all, member{t, pl, g})
				}
			}
		}
		// An application that takes input (its own listener's accept loop,
		// under an application frame: `go serve(srv, ln)`) can still feed
		// a worker that waits for input. A library's server started bare
		// (`go http.ListenAndServe(addr, nil)`: net/http/pprof's) feeds
		// none of the application's workers.
		takesInput := false
		for _, o := range all {
			takesInput = takesInput || o.g.Category == Idle && o.g.State != "sleep" && appWork(r.Runtime, o.t)
		}
		for _, wi := range waiters {
			w := all[wi]
			caller := waitGroupCaller(w.t)
			// In a synctest bubble, goroutines block durably by design:
			// the bubble advances its clock or says its own deadlock.
			if caller == "" || w.t.GoExtra != nil && w.t.GoExtra.Bubble != 0 {
				continue
			}
			ww := wgWaiter{t: w.t, pool: w.pool, g: w.g, caller: caller, workers: map[HolderGroup]int{}}
			served := false
			for i, o := range all {
				if i == wi {
					continue
				}
				n := max(o.t.Weight, 1)
				blocked := false
				for _, s := range blockedStates {
					if o.g.State == s {
						blocked = true
					}
				}
				work := appWork(r.Runtime, o.t)
				// A library's rest under an application frame (an accept
				// loop under main.serve, an idle connection) waits for the
				// world outside: the waiter's own (its family's) may bring
				// what ends the Wait, another's calls no Done.
				rest := o.g.Category == Idle && o.g.State != "sleep"
				if family(o.t, w.t, caller) && work {
					ww.children += n
					// One started beside the waiter, and nothing more, that
					// rests in a library's loop (an accept loop) or pauses
					// in its own loop at every moment is the background the
					// waiter's creator started too.
					beside := (rest || background(o.t)) && !kin(o.t, caller) && (o.t.CreatedBy == nil || o.t.CreatedBy.Parent == 0 || o.t.CreatedBy.Parent != w.t.ID)
					// A worker waiting for input (a job channel, a select)
					// is fed while the process takes input; one blocked
					// giving (a send), or on a lock, a WaitGroup, is not.
					if blocked && takesInput && slices.Contains(inputWaits, o.g.State) {
						blocked = false
					}
					if blocked || beside {
						ww.blocked += n
						if blocked {
							ww.workers[HolderGroup{Pool: o.pool.Name, State: o.g.State, Via: o.g.Via, Culprit: FrameString(culprit(r.Runtime, o.t))}] += n
						}
					} else {
						served = true
					}
					continue
				}
				// A library's loop it started with no application frame on
				// it (`go http.Serve(ln, nil)`) calls no Done; nor does a
				// library's rest, nor the process's background loops
				// (background).
				if !blocked && work && !rest && !background(o.t) {
					served = true
				}
			}
			// A waiter the runtime prints as waiting minutes with no worker
			// left is the stuck detector's adderless wait (workwaits.go).
			if served || ww.children == 0 && w.t.WaitMinutes >= LeakWaitMinutes {
				continue
			}
			a := per[caller]
			if a == nil {
				a = &acc{counts: make([]int, len(r.Moments))}
				per[caller] = a
				order = append(order, caller)
			}
			a.w, a.at = ww, m
			if !slices.Contains(a.pools, w.pool) {
				a.pools = append(a.pools, w.pool)
			}
			a.counts[m] += max(w.t.Weight, 1)
		}
	}
	var fs []Finding
	for _, caller := range order {
		a := per[caller]
		if !slices.ContainsFunc(a.pools, func(pl *Pool) bool { return !said[pl.Name] }) {
			continue // every pool of its waiters told already
		}
		f := groupFinding(KindLeaked, a.w.pool, a.w.g, a.at)
		f.ID = findingID(KindLeaked, a.w.pool.Name, "waitgroup-unserved")
		f.Basis = BasisWaitGroupUnserved
		f.Severity = Warning
		f.Culprit = caller
		f.Counts = a.counts
		f.Totals = r.Totals
		f.Entries = []FrameCount{{Func: caller, Count: a.w.children}}
		f.Parents = a.w.blocked
		every := withDump >= 2
		for m, mo := range r.Moments {
			if mo.Dump != nil && a.counts[m] == 0 {
				every = false
			}
		}
		if every {
			f.Severity = Critical
		}
		f.Since = firstAtLeast(a.counts, 1)
		f.FromStart = f.Since == 0
		for k, v := range a.w.workers {
			k.Count = v
			f.Workers = append(f.Workers, k)
		}
		slices.SortFunc(f.Workers, func(x, y HolderGroup) int {
			if x.Count != y.Count {
				return y.Count - x.Count
			}
			return strings.Compare(x.Culprit+x.State, y.Culprit+y.State)
		})
		for _, pl := range a.pools {
			f.WaiterPools = append(f.WaiterPools, pl.Name)
			said[pl.Name] = true
		}
		fs = append(fs, f)
	}
	return fs
}
