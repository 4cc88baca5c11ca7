package analyze

import (
	"strings"
	"time"

	"github.com/dumpdiff/dumpdiff/parse"
)

// A condition wait after a missed signal (issue 33): a hand-off of the
// application's own, not a pool, latch or barrier (Object.wait in its
// own method, a Condition.await under its own lock), whose signal came
// before the wait or whose sender ended. No lock line ties the waiter to
// anyone: by structure, at every moment given (two at least),
//   - the very same thread waits untimed (WAITING) in the same wait
//     (the generic monitor or park rows, Resource "condition"), under the
//     same application frame, its cpu= not grown between the dumps (it did
//     not wake and come back);
//   - the wait is no join (Thread.join waits for a thread's end, which
//     the joined thread's own finding tells), no pool's or timer's rest
//     (restLoops), no wait another finding already tells;
//   - no thread of the dump can still send the signal: none runs the
//     package the wait is in (of the waiter's application frames) while it
//     is not itself in an untimed wait: a sender between its signals
//     sleeps, runs or waits with a deadline there;
//   - the process takes no calls from outside that could run the sender's
//     code (no thread serves, no GUI event thread), and the wait is not
//     under the program's entry point (main waiting for the end, by
//     design).
//
// A library's callback (an I/O thread, a listener) may still call into the
// class from frames the dump does not show: the finding is a Warning, said
// as an inference.

// noSignallerWaits are the stuck findings of waits no thread left can
// signal, basis "no-signaller"; skip holds the pools and states other
// stuck findings tell.
func noSignallerWaits(p *Pass, skip map[[2]string]bool) []Finding {
	r := p.R
	n := len(r.Moments)
	if r.Runtime != parse.RuntimeJVM || n < 2 {
		return nil
	}
	// A JVM kept alive by its waiters says so: they are its story.
	kept := len(p.Found(keptAliveDetector)) > 0
	var fs []Finding
	for _, pl := range r.Pools {
		if pl.Internal {
			continue
		}
		for _, g := range pl.States {
			if g.Resource != "condition" || g.Category != Waiting || g.Culprit == "" || skip[[2]string{pl.Name, g.State}] {
				continue
			}
			if !orphanWait(p, g, n, kept) {
				continue
			}
			f := groupFinding(KindStuck, pl, g, n-1)
			f.Severity = Warning // inferred: a callback the dump cannot show may still signal
			f.Basis = "no-signaller"
			f.Since, f.FromStart = 0, true
			f.Same, f.Always = g.Counts[n-1], g.Always
			fs = append(fs, f)
		}
	}
	return fs
}

// orphanWait: every moment of g holds the same threads, each an
// application's own untimed wait that no thread of its dump can signal.
func orphanWait(p *Pass, g *Group, n int, kept bool) bool {
	if len(g.Threads) < n {
		return false
	}
	first := g.Threads[0]
	if len(first) == 0 {
		return false
	}
	ids := identities(p.R.Runtime, first)
	cpu := map[threadID]time.Duration{}
	for m := range n {
		ts := g.Threads[m]
		if len(ts) != len(first) || !sameIdentities(p.R.Runtime, ts, ids) {
			return false
		}
		d := p.R.Moments[m].Dump
		for _, t := range ts {
			// A pool's or a timer's rest loop waits for work by design.
			rest := restLoop(t, g.State)
			if t.State != "WAITING" || kept && !t.Java().Daemon || rest == "executor" || rest == "timer" ||
				anyFramePrefix(t, []string{"java.lang.Thread.join"}) || inPoolTask(t) {
				return false
			}
			id := identity(p.R.Runtime, t)
			if c := t.Java().CPU; c > 0 {
				if prev, ok := cpu[id]; ok && c-prev >= CPURanMin {
					return false // it woke and came back: signalled
				}
				cpu[id] = c
			}
			if d == nil || signallerIn(d, t, p.opt.roleTable().JVMInternal) || callbacksIn(p, m, d) || entryWait(t) {
				return false
			}
		}
	}
	return true
}

// signallerIn: a thread of d other than w can still signal w's wait: it
// is not in an untimed wait itself and runs code of the package w's
// application frames run (canFeed, and a shared package: the class that
// signals is often a neighbour of the one that waits, a Sender beside its
// Receiver).
func signallerIn(d *parse.Dump, w *parse.Thread, internal []string) bool {
	pkgs := map[string]bool{}
	for _, f := range w.Frames {
		if c := topClass(f.Func); c != "" && !anyPrefix(f.Func, jdkPackages) && isAppFrame(parse.RuntimeJVM, f) {
			pkgs[classPackage(c)] = true
		}
	}
	if len(pkgs) == 0 {
		return true // nothing to match: say nothing
	}
	for _, t := range d.Threads {
		if t == w || jvmInternal(t, internal) || !canFeed(t) {
			continue
		}
		for _, f := range t.Frames {
			if c := topClass(f.Func); c != "" && pkgs[classPackage(c)] {
				return true
			}
		}
	}
	return false
}

// classPackage is the package of a top-level class ("com.example.App" →
// "com.example"); a class of the default package is its own.
func classPackage(c string) string {
	if i := strings.LastIndexByte(c, '.'); i > 0 {
		return c[:i]
	}
	return c
}

// callbacksIn: moment m's process takes calls from outside that may run
// any of its code, a signal among it: a server (a thread that serves: an
// acceptor, a selector, a connection) or a GUI (its event thread,
// Roles.UpByDesign). Only a process that takes none can be said to have
// nobody left to signal.
func callbacksIn(p *Pass, m int, d *parse.Dump) bool { return callbacksInBut(p, m, d, nil) }

// callbacksInBut is callbacksIn with thread but left out: a UI's event
// thread that waits in an event's handler takes no calls while it waits.
func callbacksInBut(p *Pass, m int, d *parse.Dump, but *parse.Thread) bool {
	roles := p.opt.roleTable()
	for _, t := range d.Threads {
		if t == but {
			continue
		}
		if nameIn(t.Name(), roles.UpByDesign) {
			return true
		}
		if si := p.info(m, t); si.sig != nil && si.sig.Serves {
			return true
		}
	}
	return false
}

// entryWait: the wait is under the program's entry point (a static main),
// which waits for the program's end by design: a service's main on its
// shutdown monitor (a lone waiter, as main on a shutdown latch).
func entryWait(t *parse.Thread) bool {
	for _, f := range t.Frames {
		if fn, _, _ := strings.Cut(f.Func, "("); strings.HasSuffix(fn, ".main") {
			return true
		}
	}
	return false
}

// topClass is the top-level class of a JVM frame's function
// ("com.example.App$Slot.take" → "com.example.App"); "" if it has none.
func topClass(fn string) string {
	if i := strings.IndexByte(fn, '('); i >= 0 {
		fn = fn[:i]
	}
	dot := strings.LastIndexByte(fn, '.')
	if dot <= 0 {
		return ""
	}
	c := fn[:dot]
	if i := strings.IndexByte(c, '$'); i >= 0 {
		c = c[:i]
	}
	return c
}

// WaitClass is the top-level class of a culprit frame as printed
// ("com.example.App.take(App.java:12)" → "com.example.App").
func WaitClass(culprit string) string { return topClass(culprit) }
