package analyze

import (
	"slices"
	"strings"
	"time"

	"github.com/dumpdiff/dumpdiff/parse"
)

// A goroutine the Go runtime prints as waiting for minutes is stuck or at
// rest by what its wait is under, not by its name or its count (issue 33):
// a handler blocked 42 minutes sending on a channel, a request reading an
// upstream for 317, is stuck even alone and in one dump; an accept loop
// waiting for days, a service's own worker selecting on its job channel,
// a signal.Notify or ticker loop, rest in their goroutine's own loop.

// workLevel is what a goroutine's wait is under.
type workLevel int8

const (
	// ownLoop: the goroutine's own function (the one `go` started, its
	// bottom frame) waits, or no frame of the application is on the
	// stack: its top-level loop rests between the units it handles.
	ownLoop workLevel = iota
	// underCall: the first application frame is not the goroutine's own
	// function: its body called something that waits (a worker's
	// process(job), main's run()).
	underCall
	// underWork: a frame where a server or runner hands the goroutine one
	// unit of work (Roles.GoWork: a request's handler, a group's task)
	// sits below the wait.
	underWork
)

// goWork tells what t's wait is under (workLevel), work the frames of
// Roles.GoWork. One pass over the frames, once a distinct stack.
func goWork(t *parse.Thread, work []string) workLevel {
	var bottom *parse.Frame
	for i := len(t.Frames) - 1; i >= 0; i-- {
		// runtime.goexit and runtime.main stand under every goroutine in
		// the proto; debug=2 hides them.
		if f := t.Frames[i]; !strings.HasPrefix(f.Func, "runtime.") {
			bottom = f
			break
		}
	}
	for i, f := range t.Frames {
		if i > 0 && anchorMatch(work, f.Func) {
			return underWork
		}
	}
	if c := culprit(parse.RuntimeGo, t); c != nil && c != bottom {
		return underCall
	}
	return ownLoop
}

// workWaits are a group's goroutines at one moment whose printed wait is
// LeakWaitMinutes or more while they wait under a call (workLevel
// underCall or more) or a unit of work (underWork), by printed minutes.
type workWaits struct {
	n int // goroutines, weights included
	// gone: what would end these waits is gone (adderless): a rest that
	// counts from WorkWaitMinutes like a wait that is no rest.
	gone       bool
	call, work map[int]int // minutes → goroutines; work ⊆ call
	samples    []string    // up to 5 of them
	// culprits and entries of these goroutines (their group may hold
	// others of the same state that rest), of all (call) and of those
	// under a unit of work (work): what the finding names.
	callNames, workNames frameNames
}

// frameNames counts the culprits and entry points of goroutines.
type frameNames struct {
	culprits, entries map[string]int
	// named: the culprit and entry point of a stack the parser shares
	// among goroutines (stackKey), found once: 80,000 goroutines held in
	// one send of a million-goroutine dump share a few dozen stacks.
	named map[stackKey][2]string
}

// stackKey stands for a goroutine's frames: the parser shares one Frames
// slice among goroutines with identical stacks, so its first element's
// address and its length name the frames.
type stackKey struct {
	first **parse.Frame
	n     int
}

func keyOfStack(t *parse.Thread) (stackKey, bool) {
	if len(t.Frames) == 0 {
		return stackKey{}, false
	}
	return stackKey{&t.Frames[0], len(t.Frames)}, true
}

func (fn *frameNames) add(t *parse.Thread, w int) {
	if fn.culprits == nil {
		fn.culprits, fn.entries, fn.named = map[string]int{}, map[string]int{}, map[stackKey][2]string{}
	}
	k, shared := keyOfStack(t)
	names, ok := fn.named[k]
	if !ok || !shared {
		e, _ := entryPoint(parse.RuntimeGo, t)
		names = [2]string{FrameString(culprit(parse.RuntimeGo, t)), e}
		if shared {
			fn.named[k] = names
		}
	}
	fn.culprits[names[0]] += w
	fn.entries[names[1]] += w
}

func (ww *workWaits) add(l workLevel, t *parse.Thread, w int) {
	if ww.call == nil {
		ww.call = map[int]int{}
	}
	ww.n += w
	ww.call[t.WaitMinutes] += w
	if l == underWork {
		if ww.work == nil {
			ww.work = map[int]int{}
		}
		ww.work[t.WaitMinutes] += w
	}
	if len(ww.samples) < 5 {
		ww.samples = append(ww.samples, threadLabel(parse.RuntimeGo, t))
	}
	ww.callNames.add(t, w)
	if l == underWork {
		ww.workNames.add(t, w)
	}
}

// frameCounts are counts by frame, most first, then by name; "" left out.
func frameCounts(h map[string]int) []FrameCount {
	var out []FrameCount
	for fn, n := range h {
		if fn != "" {
			out = append(out, FrameCount{Func: fn, Count: n})
		}
	}
	slices.SortFunc(out, func(a, b FrameCount) int {
		if a.Count != b.Count {
			return b.Count - a.Count
		}
		return strings.Compare(a.Func, b.Func)
	})
	return out
}

// goWorkWaits finds, in Go dumps, the goroutines stuck in their work: a
// wait the runtime prints as WorkWaitMinutes or more that is no rest (a
// send, a pool's or a client's wait) under a call their own function made,
// or a rest (a select, a receive, a read, a Cond) under a unit of work a
// server or runner gave them, from WorkRestMinutes, fewer than LeakMin of
// them: a long poll answers within a minute or two, and a streaming
// endpoint's handlers rest between events by the hundred, alike. A lock's waiters are the contention
// detector's (LockHeldMinutes); groups told by another finding stay its.
// One dump is enough: the runtime printed how long. The groups found are
// added to told.
func goWorkWaits(p *Pass, told map[*Group]bool) []Finding {
	r := p.R
	if r.Runtime != parse.RuntimeGo {
		return nil
	}
	var fs []Finding
	running := make([]map[string]bool, len(r.Moments)) // per moment, found on first use (orphans)
	// Only the groups the loop below can ask of (heldFinding) are
	// followed: waits of no lock and no rest, outside the runtime's pools.
	held := heldGoroutines(r, func(pl *Pool, g *Group) bool {
		return !pl.Internal && !g.Rest && g.Category == Waiting && g.Resource != "lock"
	})
	if held != nil && held.span > 0 && held.span < HeldSpanSeconds*time.Second {
		held = nil // moments that close show calls in flight
	}
	work := p.opt.roleTable().GoWork
	pasted := goPasted(r)
	for _, pl := range r.Pools {
		if pl.Internal {
			continue
		}
		for _, g := range pl.States {
			gone := false
			if !told[g] && g.Resource == "latch" && printsLong(g) {
				// A latch nothing left can count down is stuck wherever
				// it waits: those moments' story is theirs.
				for m, ww := range adderless(r, g) {
					if ww.n > 0 {
						if g.workWaits == nil {
							g.workWaits = make([]workWaits, len(r.Moments))
						}
						g.workWaits[m] = ww
						gone = true
					}
				}
			}
			if !told[g] && g.Resource == "latch" && !gone {
				if f, ok := pasteLatchFinding(r, pl, g); ok {
					told[g] = true
					fs = append(fs, f)
					continue
				}
			}
			if told[g] || g.Category != Waiting || g.Resource == "lock" || g.workWaits == nil && (g.Rest || !printsLong(g) && held == nil) {
				continue
			}
			if g.workWaits == nil && !g.Rest && printsLong(g) {
				g.workWaits = orphans(r, g, running)
			}
			best := -1
			var wf WaitFact
			for m, ww := range g.workWaits {
				if ww.n == 0 {
					continue
				}
				// A rest under work counts from WorkRestMinutes, not from the
				// process's ordinary wait (restFloor): each stuck request
				// brings goroutines that wait as long as it does (its
				// connection's background read), and a crowd stuck behind
				// one holder makes minutes ordinary.
				h, floor := ww.call, WorkWaitMinutes
				if restOnly(g, ww) {
					h, floor = ww.work, WorkRestMinutes
					if pasted[m] > 0 {
						// A paste a person cut: the rests under a call of
						// their own they chose count too (goPasted).
						h = ww.call
					}
				}
				w := waitsFrom(sortedMinutes(h), floor)
				if restOnly(g, ww) && w.Goroutines >= LeakMin {
					continue // many alike: a streaming endpoint's design, or a leak (the leak detector's)
				}
				if restOnly(g, ww) && pasted[m] > 0 && len(ww.work) == 0 && float64(w.Goroutines) < ChosenShare*float64(pasted[m]) {
					continue // not what the paste is about
				}
				// The latest moment with the most: the longest waits.
				if w.Goroutines > 0 && w.Goroutines >= wf.Goroutines {
					best, wf = m, w
				}
			}
			if best < 0 {
				// No wait printed long enough: the ids may show one that
				// lasted every moment given (heldgo.go).
				// Not told: the very same threads at every moment, most of
				// their pool, are the stuck pool's (critical), which then
				// stands for this (runStuck).
				if f, ok := heldFinding(p, pl, g, held, work); ok {
					fs = append(fs, f)
				}
				continue
			}
			if p.explainedBy(g, best) != "" {
				continue
			}
			f := groupFinding(KindStuck, pl, g, best)
			f.Severity = Warning
			f.Basis = "work-wait"
			// Named by the goroutines told, not by others of the group.
			names := g.workWaits[best].callNames
			if restOnly(g, g.workWaits[best]) {
				names = g.workWaits[best].workNames
			}
			if cs := frameCounts(names.culprits); len(cs) > 0 {
				f.Culprit, f.Culprits = cs[0].Func, cs
			}
			if es := frameCounts(names.entries); len(es) > 0 {
				f.Entries = es
			}
			for _, ww := range g.workWaits {
				if ww.gone && ww.n > 0 {
					f.Basis = "no-adders"
				}
			}
			f.Wait = &wf
			f.Same = wf.Goroutines
			f.Since = best
			for m, ww := range g.workWaits {
				if ww.n > 0 {
					f.Since = min(f.Since, m)
				}
			}
			f.FromStart = f.Since == 0
			f.Evidence = nil
			for m, ww := range g.workWaits {
				if ww.n > 0 {
					f.Evidence = append(f.Evidence, Evidence{Moment: m, Count: ww.n, Threads: ww.samples})
				}
			}
			told[g] = true
			fs = append(fs, f)
		}
	}
	return fs
}

// goPasted is, per moment, how many application goroutines a Go paste a
// person cut from a dump holds; 0 for a whole dump. A paste, not a whole
// dump: goroutine ids printed, no goroutine 1 (main's, in every whole dump
// while the program runs: the runtime's pprof writer, its SIGQUIT
// traceback and runtime.Stack all print it) and no crash (a panic with
// GOTRACEBACK=single prints the crashing goroutine alone; a leak report
// is its tool's verdict, the leak detector's). What the person
// kept is what they ask about: a rest under a call of the goroutine's own
// (a read of a reply, a receive from a result channel) printed as waiting
// WorkRestMinutes or more is stuck when it is ChosenShare or more of the
// paste (issue 33: "IO wait, 88 minutes" in a client's read, pasted
// alone). A rest in the goroutine's own function (an accept loop, a
// worker on its job channel) and a library's own loop (net/http's idle
// keep-alive reads, whose printed age is the connection's idle time, up to
// the process's uptime) stay rests.
func goPasted(r *Result) []int {
	out := make([]int, len(r.Moments))
	for m, mo := range r.Moments {
		if !pastedDump(mo.Dump) {
			continue
		}
		for _, pl := range r.Pools {
			if !pl.Internal {
				out[m] += pl.Counts[m]
			}
		}
	}
	return out
}

// pastedDump reports a Go text dump whose goroutines a person chose (goPasted
// says how it is told): ids printed, none of them goroutine 1's, and no
// crash. One pass over the goroutines, once a moment.
func pastedDump(d *parse.Dump) bool {
	if d == nil || d.Kind != "" && d.Kind != "sigquit" || len(d.Threads) == 0 {
		return false
	}
	for _, t := range d.Threads {
		if t.ID == 1 || t.ID == 0 {
			return false // main's, or no ids (an aggregate)
		}
	}
	return true
}

// consumerBelow reports a stack whose wait is a library's called from
// another library: its first frame outside the standard library is one
// module's (yamux.(*Stream).Read) and a frame below it another module's
// (go-msgpack's codec decoding what the stream brings), so the wait is
// under its caller's call, a reply being read, not the waiting library's
// own loop (yamux's recvLoop reads its connection in its own frames). A
// stack of the standard library and one module only cannot tell: false.
// A cut stack is read for the frames it kept; a known limit: a library's
// reader loop over another module's framer (grpc's reader over x/net's
// http2 Framer), cut above its bottom, reads as a consumer too.
func consumerBelow(t *parse.Thread) bool {
	lib := ""
	for _, f := range t.Frames {
		m := goModule(f.Func)
		if m == "" {
			continue
		}
		if lib == "" {
			lib = m
		} else if m != lib {
			return true
		}
	}
	return false
}

// goModule is the module a Go function's package is most likely in, by
// its path ("github.com/hashicorp/yamux" of
// "github.com/hashicorp/consul/vendor/github.com/hashicorp/yamux.(*Stream).Read":
// a vendored copy is its own module); "" for the standard library and the
// runtime (goStdTop) and package main; a path with no dot in its first
// element (example/app/store) is named by that element. A code
// host's paths name a module by three elements (github.com/OWNER/REPO,
// golang.org/x/NAME), others by two (google.golang.org/grpc, gopkg.in/yaml.v3).
func goModule(fn string) string {
	if i := strings.LastIndex(fn, "/vendor/"); i >= 0 {
		fn = fn[i+len("/vendor/"):]
	}
	slash := strings.LastIndexByte(fn, '/')
	if dot := strings.IndexByte(fn[slash+1:], '.'); dot >= 0 {
		fn = fn[:slash+1+dot] // the package path
	}
	parts := strings.Split(fn, "/")
	if len(parts) < 2 || goStdTop[parts[0]] {
		return ""
	}
	if !strings.Contains(parts[0], ".") {
		return parts[0] // a module path with no dot (example/app): its first element names it
	}
	n := 2
	switch parts[0] {
	case "github.com", "gitlab.com", "bitbucket.org", "golang.org", "gitee.com":
		n = 3
	}
	return strings.Join(parts[:min(n, len(parts))], "/")
}

// restOnly: g rests, so only its waits under a unit of work count (from
// WorkRestMinutes), unless what would end them is gone.
func restOnly(g *Group, ww workWaits) bool { return g.Rest && !ww.gone }

// printsLong: some goroutine of g printed a wait of LeakWaitMinutes or
// more at some moment.
func printsLong(g *Group) bool {
	for _, w := range g.waits {
		if w.Goroutines > 0 {
			return true
		}
	}
	return false
}

// orphans are g's goroutines, in a wait that is no rest in their own
// function for LeakWaitMinutes and more, whose requester has left: the
// function that started them runs no more where it ran (its parent, as
// Go 1.21+ prints it, is gone or runs something else; where no parent is
// printed, no goroutine of the dump runs it). A searcher whose handler gave
// up sends its answer to nobody. Filed as under a call (workWaits); nil
// when there are none. running caches, per moment, the functions the
// dump's goroutines run.
func orphans(r *Result, g *Group, running []map[string]bool) []workWaits {
	var out []workWaits
	for m, ts := range g.Threads {
		if g.waits[m].Goroutines == 0 || r.Moments[m].Dump == nil {
			continue
		}
		var byID map[int64]*parse.Thread
		for _, t := range ts {
			if t.WaitMinutes < LeakWaitMinutes || t.CreatedBy == nil || t.CreatedBy.Func == "" {
				continue
			}
			fn := t.CreatedBy.Func
			left := false
			if id := t.CreatedBy.Parent; id != 0 {
				if byID == nil {
					byID = map[int64]*parse.Thread{}
					for _, u := range r.Moments[m].Dump.Threads {
						byID[u.ID] = u
					}
				}
				par := byID[id]
				left = par == nil || !slices.ContainsFunc(par.Frames, func(f *parse.Frame) bool { return f.Func == fn })
			} else {
				if running[m] == nil {
					running[m] = runningFuncs(r.Moments[m].Dump)
				}
				left = !running[m][fn]
			}
			if left {
				if out == nil {
					out = make([]workWaits, len(r.Moments))
				}
				out[m].add(underCall, t, max(t.Weight, 1))
			}
		}
	}
	return out
}

// adderless are g's goroutines waiting on a latch (a sync.WaitGroup, an
// errgroup's Wait) for LeakWaitMinutes and more with nothing left that
// could count it down: none of the goroutines they started is alive (by
// the parent Go 1.21+ prints; where none is printed, no goroutine was
// created by a function of their stack) and no goroutine runs a closure of
// a function of their stack (a task they handed to a pool, which would
// call Done). Their counter can never reach zero: a worker returned
// without Done (an early return, a panic recovered above it). A waiter
// that handed its work to a pool as a method value, not a closure, is
// told the same (a known limit, said in the README). Only whole dumps
// count: not an excerpt, nor a crash report. Filed as gone waits
// under a call; nil when there are none.
func adderless(r *Result, g *Group) []workWaits {
	var out []workWaits
	for m, ts := range g.Threads {
		d := r.Moments[m].Dump
		// Only a dump of every goroutine, each with its stack, shows that
		// the adders are gone: not an excerpt (a paste a person cut, a
		// debugger's one-line listing), nor a crash report (a panic prints
		// only the goroutine that crashed unless GOTRACEBACK says more,
		// and the dump does not say which).
		if g.waits[m].Goroutines == 0 || d == nil || !wholeGoDump(d) {
			continue
		}
		var idx *adderIndex
		for _, t := range ts {
			if t.WaitMinutes < LeakWaitMinutes {
				continue
			}
			if idx == nil {
				idx = newAdderIndex(d)
			}
			if idx.adders(t) {
				continue
			}
			if out == nil {
				out = make([]workWaits, len(r.Moments))
			}
			out[m].gone = true
			out[m].add(underCall, t, max(t.Weight, 1))
		}
	}
	return out
}

// pasteAdderless are g's goroutines at moment m, a paste (a dump that is
// not whole, wholeGoDump: an excerpt, goroutines without goroutine 1;
// not a crash report, whose own verdict the deadlock detector reads,
// nor a tool's own list), waiting on a latch with
// nothing in the paste that could count it down: adderless's test (no
// child, no goroutine created by a function of its stack, no closure of
// one running) and, as the paste shows no parents and no wait time to
// lean on, no other goroutine running code of the package of the
// waiter's culprit (a pool's worker of that package may call Done: it
// is told apart only where it is not in the paste). Nil when none.
func pasteAdderless(r *Result, g *Group, m int) []*parse.Thread {
	d := r.Moments[m].Dump
	if d == nil || d.Kind == "panic" || wholeGoDump(d) || ownVerdict(d) || len(g.Threads[m]) == 0 {
		return nil
	}
	var out []*parse.Thread
	var idx *adderIndex
	for _, t := range g.Threads[m] {
		c := culprit(parse.RuntimeGo, t)
		if c == nil {
			continue // no application frame: whose latch it is, the paste does not say
		}
		if idx == nil {
			idx = newAdderIndex(d)
		}
		if idx.adders(t) || packageRuns(d, t, funcPackage(c.Func)) {
			continue
		}
		out = append(out, t)
	}
	return out
}

// wholeGoDump: d shows every goroutine of its process, each with its
// stack, so that goroutines it lacks are gone: not an excerpt (a paste a
// person cut or edited, a dump cut at its end), not a crash report (a
// panic prints only the goroutine that crashed unless GOTRACEBACK says
// more, and the dump does not say which), nor a tool's list of its own
// choice (goleak's, the leak profile's); and, where the dump prints
// goroutine ids, goroutine 1 is in it: main runs while the process
// lives, so a dump without it is a part of one (a paste of the
// goroutines that mattered to its author, runtime.Stack of one).
func wholeGoDump(d *parse.Dump) bool {
	if d.Excerpt != "" || d.Kind == "panic" || ownVerdict(d) {
		return false
	}
	ids := false
	for _, t := range d.Threads {
		if t.ID == 1 {
			return true
		}
		ids = ids || t.ID > 0
	}
	return !ids // a profile (debug=1, proto) prints no ids, and is whole
}

// ownVerdict: d is a tool's list of the goroutines it judged (goleak's
// report, the runtime's goroutine leak profile): its verdict is read as
// such, not re-judged.
func ownVerdict(d *parse.Dump) bool { return d.Kind == "goleak" || d.Kind == "goroutineleak" }

// packageRuns: a goroutine of d other than t, not itself waiting on a
// latch, runs a frame of package pkg.
func packageRuns(d *parse.Dump, t *parse.Thread, pkg string) bool {
	for _, u := range d.Threads {
		if u == t || len(u.Frames) > 0 && len(t.Frames) > 0 && &u.Frames[0] == &t.Frames[0] {
			continue // t, or a goroutine with t's very stack: another waiter
		}
		for _, f := range u.Frames {
			if funcPackage(f.Func) == pkg {
				return true
			}
		}
	}
	return false
}

// funcPackage is the import path of a Go function's package
// ("github.com/evanw/esbuild/internal/bundler" of
// "github.com/evanw/esbuild/internal/bundler.ScanBundle").
func funcPackage(fn string) string {
	slash := strings.LastIndexByte(fn, '/')
	if dot := strings.IndexByte(fn[slash+1:], '.'); dot >= 0 {
		return fn[:slash+1+dot]
	}
	return fn
}

// pasteLatchFinding is the finding on g's goroutines waiting, in a paste,
// on a latch nothing in the paste could count down (pasteAdderless), at
// the last moment that has them: at Info, as the paste is not the whole
// dump and what would count it down may be in what was left out (the
// summary says so and what to look for). Basis "paste-no-adders".
func pasteLatchFinding(r *Result, pl *Pool, g *Group) (Finding, bool) {
	for m := len(r.Moments) - 1; m >= 0; m-- {
		ts := pasteAdderless(r, g, m)
		if len(ts) == 0 {
			continue
		}
		f := groupFinding(KindStuck, pl, g, m)
		// The runtime's printed minute says the latch has not opened in
		// that long, what the whole dump's rule needs too: a warning.
		// Without it, the paste shows a wait of unknown age: info.
		f.Severity = Info
		if slices.IndexFunc(ts, func(t *parse.Thread) bool { return t.WaitMinutes < LeakWaitMinutes }) < 0 {
			f.Severity = Warning
		}
		f.Basis = "paste-no-adders"
		f.Since = m
		var names frameNames
		var samples []string
		n := 0
		for _, t := range ts {
			w := max(t.Weight, 1)
			n += w
			names.add(t, w)
			if len(samples) < 5 {
				samples = append(samples, threadLabel(parse.RuntimeGo, t))
			}
		}
		if cs := frameCounts(names.culprits); len(cs) > 0 {
			f.Culprit, f.Culprits = cs[0].Func, cs
		}
		if es := frameCounts(names.entries); len(es) > 0 {
			f.Entries = es
		}
		f.Same = n
		for _, t := range ts {
			if t.WaitMinutes > 0 {
				if f.Wait == nil || f.Wait.Goroutines == 0 {
					f.Wait = &WaitFact{MinMinutes: t.WaitMinutes, MaxMinutes: t.WaitMinutes}
				}
				f.Wait.MinMinutes, f.Wait.MaxMinutes = min(f.Wait.MinMinutes, t.WaitMinutes), max(f.Wait.MaxMinutes, t.WaitMinutes)
				f.Wait.Goroutines += max(t.Weight, 1)
			}
		}
		f.Evidence = []Evidence{{Moment: m, Count: n, Threads: samples}}
		return f, true
	}
	return Finding{}, false
}

// adderIndex is what one dump says of the goroutines that could count a
// latch down: the children of each goroutine (by printed parent), the
// functions that created goroutines, and the functions whose closures
// some goroutine runs. One pass over the dump, each distinct stack once.
type adderIndex struct {
	parents  bool            // the dump prints parents (Go 1.21+)
	children map[int64]int   // parent goroutine → live children
	creators map[string]bool // functions that created a live goroutine
	closures map[string]int  // function → live goroutines running a closure of it
}

func newAdderIndex(d *parse.Dump) *adderIndex {
	x := &adderIndex{children: map[int64]int{}, creators: map[string]bool{}, closures: map[string]int{}}
	shared := map[**parse.Frame]int{} // goroutines a distinct stack stands for
	var stacks [][]*parse.Frame
	for _, u := range d.Threads {
		if c := u.CreatedBy; c != nil {
			if c.Parent != 0 {
				x.parents = true
				x.children[c.Parent]++
			}
			x.creators[c.Func] = true
		}
		if len(u.Frames) == 0 {
			continue
		}
		if shared[&u.Frames[0]] == 0 {
			stacks = append(stacks, u.Frames)
		}
		shared[&u.Frames[0]] += max(u.Weight, 1)
	}
	for _, fs := range stacks {
		for o := range closureOwners(fs) {
			x.closures[o] += shared[&fs[0]]
		}
	}
	return x
}

// adders tells whether some goroutine of the dump could still count t's
// latch down: a child of t, or another goroutine running a closure of one
// of t's functions.
func (x *adderIndex) adders(t *parse.Thread) bool {
	if x.parents && x.children[t.ID] > 0 {
		return true
	}
	own := closureOwners(t.Frames)
	for _, f := range t.Frames {
		if !x.parents && x.creators[f.Func] {
			return true
		}
		n := x.closures[f.Func]
		if own[f.Func] {
			n-- // t's own
		}
		if n > 0 {
			return true
		}
	}
	return false
}

// closureOwners are the functions frames run a closure of (closureOwner).
func closureOwners(frames []*parse.Frame) map[string]bool {
	out := map[string]bool{}
	for _, f := range frames {
		if o := closureOwner(f.Func); o != "" {
			out[o] = true
		}
	}
	return out
}

// closureOwner is the function a closure or go-statement wrapper belongs
// to, as the compiler names them ("main.runBatch" for main.runBatch.func1,
// main.runBatch.func1.2 and main.runBatch.gowrap1); "" for any other
// function.
func closureOwner(fn string) string {
	from := strings.LastIndexByte(fn, '/') + 1
	for i := from; i < len(fn); i++ {
		if fn[i] != '.' {
			continue
		}
		for _, k := range []string{".func", ".gowrap"} {
			if strings.HasPrefix(fn[i:], k) && i+len(k) < len(fn) && fn[i+len(k)] >= '0' && fn[i+len(k)] <= '9' {
				return fn[:i]
			}
		}
	}
	return ""
}

// runningFuncs are the functions on the dump's goroutines' stacks, each
// distinct stack read once (the parser shares one Frames slice among
// goroutines with identical stacks).
func runningFuncs(d *parse.Dump) map[string]bool {
	out := map[string]bool{}
	seen := map[**parse.Frame]bool{}
	for _, t := range d.Threads {
		if len(t.Frames) == 0 || seen[&t.Frames[0]] {
			continue
		}
		seen[&t.Frames[0]] = true
		for _, f := range t.Frames {
			out[f.Func] = true
		}
	}
	return out
}
