package analyze

import (
	"maps"

	"github.com/dumpdiff/dumpdiff/parse"
)

// The leaked detector's thresholds. What each protects against is said
// once, in the detector's Thresholds below (README.md's table is made from
// them; TestThresholdsBeside keeps each beside its detector).
const (
	LeakMin         = 10
	LeakWaitMinutes = 1
	LeakParentShare = 0.5
	LeakRestOver    = 4
	LeakRestSpread  = 1
	LeakFlatMin     = 100
	LeakFlatSpread  = 0.1
	LeakMassShare   = 0.5
	LeakMassMin     = 50
	LeakIdleMinutes = 2
	LeakAloneShare  = 0.9
	LeakAloneMin    = 1000
	LeakBodiesMin   = 100
	// SenderGoneMoments: see the row (sendergone.go).
	SenderGoneMoments = 2
)

var leakedDetector = &Detector{
	Name:  KindLeaked,
	Kinds: []string{KindLeaked},
	Doc: "Go goroutines blocked for good: marked leaked by the runtime (goroutineleak, Go 1.26+); or many of one creator waiting minutes as printed, in any wait " +
		"(in a rest — select, chan receive, sync.Cond, WaitGroup — only far longer than the dump's other goroutines, and made one per request: distinct parents, or before Go 1.21 waits that spread); " +
		"or, when no wait is printed, one stack holding most of the process's goroutines at every moment (\"N of M goroutines at F\"; flat in a rest or in a wait debug=1 hides, a suspect said as info unless it is alone in a large process, LeakAloneShare and LeakAloneMin: a goroutine per session or subscriber holds as flat), or a large flat count in a wait that is not a rest; " +
		"on one dump that prints goroutine ids and no age (a young debug=2 or SIGQUIT dump), one pool in one wait holding LeakFlatMin goroutines and LeakMassShare of the process, in a send, a lock or another wait that is no rest, or in a rest (a receive, a select) when LeakParentShare of them have distinct parents (made one per request), as a warning said as one moment's evidence (crowd.go); on one debug=1 profile alone (no ids, no wait times), one pool parked where debug=1 hides the wait (state unknown: a channel operation or a select, most often), LeakMassMin and LeakMassShare of the profile, as info: a suspect, since as many live objects' goroutines look the same in one moment. " +
		"HTTP client connections lent with their response body while no goroutine reads any body (unreadBodies), goroutines in a plain channel receive that is a one-shot function's own statement (called by the goroutine's code or under a unit of work, not its own loop), the same ids at SenderGoneMoments moments or a minute printed, none of the function's closures nor any goroutine it or they started alive (sendergone.go: the producer returned without sending or closing), goroutines in a plain chan send or in sync.Cond.Wait called from the application whose creator (printed) returned, none of its kin alive and nothing else of the application out of rest, a periodic loop's sleep counted as a possible receiver or signaller (receivergone.go: receiver-gone, critical when the senders grow; signaller-gone), and a goroutine in WaitGroup.Wait whose workers are gone or all blocked while no other application goroutine can run (waitgroups.go: its workers are the goroutines it started, those started by or running a method of its caller's receiver type, a stopper's, and those running a func literal of its caller; a worker waiting for input is fed while the application's own listener takes input; a library's rest, and a loop pausing in its own sleep with the same id at every moment of two or more, call no Done), are told by one dump's structure. " +
		"What rests by design stays idle by its signature (accept, idle keep-alive connections, sleep) or its count per creator (one ticker or accept loop: below LeakMin); goroutines serving a live server connection are its peer's",
	Requires: []*Detector{timelineDetector, contentionDetector, explosionDetector},
	Folds:    "nothing; a pool the timeline already calls growing or not-recovered makes a runtime-marked leak critical; a lock's waiters the contention detector tells (many goroutines on one lock for minutes wait for its holder: contention, not a leak)",
	Thresholds: []Threshold{
		{"LeakMin", LeakMin, "goroutines of one creator in one wait, printed as long, for a suspected leak: a few are slow calls, and a loop that rests by design (a ticker, an accept loop) is one per creator"},
		{"LeakWaitMinutes", LeakWaitMinutes, "a wait the Go runtime prints (in minutes, from 1) this long on a send or a lock is not passing through: a request does not wait a minute on a channel"},
		{"LeakParentShare", LeakParentShare, "goroutines resting on a channel are a leak only if this share of them has distinct parents (one per request, as Go 1.21+ prints): idle workers share one (a pool of 64 started by main is never a mass, however much of the process it is)"},
		{"LeakRestOver", LeakRestOver, "in a rest, a wait counts as long from this many times the dump's ordinary wait (the median printed wait of the moment's other goroutines, 0 where none is printed), and from LeakWaitMinutes: in a process where everything has rested for hours, hours prove nothing"},
		{"LeakRestSpread", LeakRestSpread, "before Go 1.21 (no parent printed), resting goroutines are a leak only if their long waits spread over at least this many minutes (made one by one, as requests leak them): a pool started at once rests with one wait"},
		{"LeakFlatMin", LeakFlatMin, "without identities or wait times (debug=1, proto): this many goroutines of one creator in a wait that is not a rest at every moment, in a pool whose own total moves by more than LeakFlatSpread (in a flat pool, a constant population moving between its phases, 400 requests in flight behind a semaphore of 400, holds each phase's count as flat); and on one young dump with ids (no age printed yet), the floor of a one-dump suspect: a burst of a few dozen requests in flight sends and receives as much"},
		{"LeakFlatSpread", LeakFlatSpread, "…varying by at most this share of their count; and the most a stack held by mass may fall below its peak"},
		{"LeakMassShare", LeakMassShare, "when no long wait is printed, one stack (one pool, one culprit) is a suspect when it holds at least this share of the process's goroutines at every moment, flat or growing: a busy server spreads its goroutines over its connections' handful of stacks"},
		{"LeakIdleMinutes", LeakIdleMinutes, "goroutines at rest in a library's pool (a client's idle connection) count as kept by pools nobody uses when more than the pool keeps (its row's PoolKeeps) have been idle this long, as printed: past net/http's default 90 s idle timeout, which a used pool applies"},
		{"LeakMassMin", LeakMassMin, "…and at least this many goroutines at every moment: in a small process one stack holding half is ordinary. A stack that holds flat in a rest (a select, a receive; in debug=1, parked under two hidden runtime frames, gopark and selectgo), seen flat over several moments or at one moment alone, needs LeakFlatMin: a bounded set made once (50 subscribers of a broker, each in a select on its own channel) is most of a small process and never grows, while a leak grows with the requests that make it"},
		{"LeakAloneShare", LeakAloneShare, "one debug=1 profile alone, or a mass holding flat over several moments in a rest or a wait debug=1 hides: a mass (LeakFlatMin, in a hidden wait: a worker pool sized by hand, 64 idle on their channel, is below it) holding at least this share of the process is said as a warning, not info: a process's live objects (connections, sessions, subscriptions) bring goroutines of their own elsewhere (their reader, their server connection), so their watchers are at most about half of it; nothing but a leak, or a burst still in flight, leaves nine tenths of a process in one wait — from LeakAloneMin goroutines on"},
		{"LeakAloneMin", LeakAloneMin, "one debug=1 profile alone, or a flat mass in a rest or a hidden wait over several moments: the fewest goroutines of a mass alone in the process (LeakAloneShare) said as a warning (150 sessions each in its select, flat, are a live set: go-livesets-sessions-healthy). Below it the mass stays info: a worker pool sized by hand (100 workers idle on their job channel in a batch process, go-handlers-chan-workers-idle) is alone in its process too, and debug=1 hides the receive that would tell a worker's loop from a leak's wait; a pool sized by hand is a few hundred at most (GoSleepCrowdMin's reasoning), a leak passes any count"},
		{"SenderGoneMoments", SenderGoneMoments, "moments with a whole dump (ids printed) over which the very same goroutines must stay in a one-shot function's plain channel receive, none of its closures nor any goroutine it started alive, to call them waiting on senders that returned, critical (sendergone.go): a receive caught once may be a result a moment from arriving (a producer scheduled, not yet printed); one dump says it only where each printed LeakWaitMinutes, as a warning"},
		{"LeakBodiesMin", LeakBodiesMin, "HTTP client connections whose response body is lent (readLoop waiting in http-body-wait) with no goroutine reading any body: at least this many, and LeakMassShare of the lent ones, at the last moment, are bodies nobody closes (unreadBodies); a client may hold a few dozen bodies between two reads while it works on a chunk, and a proxy streaming bodies reads each on its own goroutine"},
	},
	Run: runLeaked,
}

func runLeaked(p *Pass) []Finding {
	r := p.R
	if r.Runtime != parse.RuntimeGo {
		return nil
	}
	fs := runtimeMarked(p)
	marked := map[string]bool{}
	for _, f := range fs {
		marked[f.Pool] = true
	}
	told := map[string]bool{} // pool+state the timeline already tells
	for _, f := range p.Found(timelineDetector) {
		told[f.Pool+"\x00"+f.State] = true
	}
	n := len(r.Moments)
	hist := momentMinutes(r)
	said := maps.Clone(marked) // pools with a leak found: mass adds nothing to them
	for _, pl := range r.Pools {
		if pl.Internal || marked[pl.Name] {
			continue
		}
		for _, g := range pl.States {
			if g.Category == Idle && !told[pl.Name+"\x00"+g.State] {
				if f, ok := keptIdle(p, pl, g); ok {
					fs = append(fs, f)
					said[pl.Name] = true
				}
				continue
			}
			if g.Category != Waiting || told[pl.Name+"\x00"+g.State] {
				continue
			}
			if lockTold(p, g) {
				continue // the lock's contention tells them, with its holder
			}
			if f, ok := longWait(p, pl, g, hist); ok {
				fs = append(fs, f)
				said[pl.Name] = true
				continue
			}
			// Aggregated formats print neither identities nor wait times: a
			// large count that does not move is what is left to go on.
			// Where ids are printed, Always tells whether the goroutines
			// stay: a flat count of others each time (400 requests in
			// flight behind a semaphore of 400) is a steady load.
			if g.Rest || g.Always > 0 || n < 2 || printsIDs(g) {
				continue
			}
			lo, hi := g.Counts[0], g.Counts[0]
			for _, c := range g.Counts {
				lo, hi = min(lo, c), max(hi, c)
			}
			// A wait debug=1 hides (state unknown) may be a rest: a flat
			// count there is byMass's, said as a suspect (flatHiddenMass).
			if g.State == "unknown" && !aloneMass(lo, r.Totals[n-1]) {
				continue
			}
			if lo >= LeakFlatMin && float64(hi-lo) <= LeakFlatSpread*float64(hi) && !flatPool(pl) {
				f := groupFinding(KindLeaked, pl, g, n-1)
				f.Severity = Warning
				f.Basis = "flat-count"
				f.FromStart = true
				fs = append(fs, f)
				said[pl.Name] = true
			}
		}
	}
	fs = append(fs, unreadBodies(p, said)...)
	fs = append(fs, unservedWaitGroups(p, said)...)
	fs = append(fs, goneSenders(p, said)...)
	fs = append(fs, goneOthers(p, said)...)
	fs = append(fs, byMass(p, said, told)...)
	fs = append(fs, goCrowd(p, said)...)
	return append(fs, byMassOneMoment(p, said)...)
}

// byMassOneMoment: one debug=1 profile given alone (no other moment, no
// ids, no wait times) shows a leak only as a mass: goroutines of one pool
// parked where debug=1 hides the wait (the runtime's frames under their
// first printed one: a channel operation or a select, most often; state
// "unknown"), at least LeakFlatMin of them (no growth is seen: a set made
// once, 50 subscribers, is not one) and LeakMassShare of the profile (of
// the record a person pasted, when they pasted one). The same mass is
// what as many live objects make (a pool of 100 open connections, each
// with its watcher goroutine): one moment cannot tell them apart, so it
// is said as info, a suspect, with the second profile that tells; but a
// mass of LeakAloneShare of the process has no live objects' goroutines
// beside it, and from LeakAloneMin goroutines (past a pool sized by hand,
// which is alone in its process too) is said as a warning. A
// wait the table names (a server's connections reading, workers at a
// known queue) is not in it: those are told by their rows.
func byMassOneMoment(p *Pass, said map[string]bool) []Finding {
	r := p.R
	if len(r.Moments) != 1 || r.Moments[0].Format != parse.FormatGoDebug1 || len(r.Totals) != 1 {
		return nil
	}
	var fs []Finding
	for _, pl := range r.Pools {
		if pl.Internal || said[pl.Name] || connectionBound(pl.Name) {
			continue
		}
		for _, g := range pl.States {
			c := g.Counts[0]
			if g.State != "unknown" || c < LeakMassMin || float64(c) < LeakMassShare*float64(r.Totals[0]) {
				continue
			}
			// One stack, as byMass keys it: a pool and a culprit (a pool's
			// workers parked at several places are several).
			byCulprit := map[string]int{}
			var top *Shape
			parked := 0
			for i := range g.Shapes[0] {
				sh := &g.Shapes[0][i]
				if sh.Stack == nil || parse.HiddenRuntimeFrames(sh.Stack) == 0 {
					continue
				}
				byCulprit[sh.Culprit] += sh.Count
				if k := byCulprit[sh.Culprit]; k > parked || k == parked && sh.Count > top.Count {
					parked, top = k, sh
				}
			}
			// No growth is seen in one moment: a set resting in a select
			// (a broker's subscribers) needs LeakFlatMin.
			floor := LeakMassMin
			if top != nil && selectParked(top.Stack) {
				floor = LeakFlatMin
			}
			if parked < floor || float64(parked) < LeakMassShare*float64(r.Totals[0]) {
				continue
			}
			f := groupFinding(KindLeaked, pl, g, 0)
			f.ID = findingID(KindLeaked, pl.Name, "mass-one")
			f.Severity = Info
			if aloneMass(parked, r.Totals[0]) {
				f.Severity = Warning // alone in the process: no live objects' other goroutines beside it
			}
			f.Basis = "mass-one"
			f.Counts = []int{parked}
			f.Totals = r.Totals
			f.Frame, f.Culprit = top.top, top.Culprit
			f.Since, f.FromStart = 0, true
			fs = append(fs, f)
		}
	}
	return fs
}

// longWait: at least LeakMin goroutines of the group have waited
// LeakWaitMinutes or more at some moment. A rest state (a channel receive,
// a select, a sync.Cond or WaitGroup) is where healthy goroutines wait too,
// so there a wait counts only from LeakRestOver times the dump's ordinary
// wait (restFloor), and the goroutines must have been made one by one: most
// of them by distinct parents (Go 1.21+: idle workers share one), or, where
// no parent is printed, with waits that spread over LeakRestSpread minutes
// (a pool started at once rests with one wait). Goroutines serving a live
// server connection wait as long as their client keeps it open.
func longWait(p *Pass, pl *Pool, g *Group, hist [][]minuteCount) (Finding, bool) {
	if g.Rest && connectionBound(pl.Name) {
		return Finding{}, false
	}
	best, bestN := -1, 0
	var wf WaitFact
	parents := 0
	for m, lw := range g.waits { // counted by the builder (headerFacts)
		w := lw.WaitFact
		if g.Rest {
			w = waitsFrom(lw.minutes, restFloor(p.R.Totals[m]-g.Counts[m], hist[m], lw.minutes))
		}
		// The latest moment with the most: the longest waits.
		if k := w.Goroutines; k >= LeakMin && k >= bestN {
			if g.Rest && !madeOneByOne(w, lw) {
				continue
			}
			best, bestN, wf, parents = m, k, w, lw.parents
		}
	}
	if best < 0 {
		return Finding{}, false
	}
	f := groupFinding(KindLeaked, pl, g, best)
	f.Severity = Warning
	f.Basis = "long-wait"
	f.Wait = &wf
	f.Parents = parents
	f.Same = g.Always
	f.Since = firstAtLeast(g.Counts, LeakMin)
	f.FromStart = f.Since == 0
	return f, true
}

// madeOneByOne: resting goroutines with long waits w (of lw) were made one
// per request, not started together as a pool: most by distinct parents
// where parents are printed, else waits spread over LeakRestSpread minutes.
func madeOneByOne(w WaitFact, lw longWaits) bool {
	if lw.parents > 0 {
		return float64(lw.parents) >= LeakParentShare*float64(lw.Goroutines)
	}
	return w.MaxMinutes-w.MinMinutes >= LeakRestSpread
}

// restFloor is the shortest wait, in minutes, that counts as long in a rest
// at one moment: LeakRestOver times the median printed wait of the
// moment's other goroutines (others of them, the group's own minutes
// excepted from the moment's all; a goroutine that prints no wait waits
// 0), and at least LeakWaitMinutes.
func restFloor(others int, all, own []minuteCount) int {
	// The others' histogram: all minus own (both sorted by minutes).
	printed := 0
	sub := func(i int) int { // goroutines of all[i] that are not the group's
		n := all[i].N
		for _, o := range own {
			if o.Minutes == all[i].Minutes {
				n -= o.N
			}
		}
		return n
	}
	for i := range all {
		printed += sub(i)
	}
	if others <= 0 {
		return LeakWaitMinutes
	}
	// The median is the (others+1)/2-th wait from the shortest; the
	// goroutines that print none come first.
	rank := (others + 1) / 2
	median, seen := 0, others-printed
	for i := 0; seen < rank && i < len(all); i++ {
		seen += sub(i)
		median = all[i].Minutes
	}
	return max(LeakWaitMinutes, LeakRestOver*median)
}

// waitsFrom are the goroutines of a histogram that waited floor minutes or
// more.
func waitsFrom(h []minuteCount, floor int) WaitFact {
	var w WaitFact
	for _, c := range h {
		if c.Minutes < floor || c.N == 0 {
			continue
		}
		if w.Goroutines == 0 {
			w.MinMinutes = c.Minutes
		}
		w.MaxMinutes = c.Minutes
		w.Goroutines += c.N
	}
	return w
}

// momentMinutes is, per moment, how many goroutines print each wait of
// LeakWaitMinutes or more, fewest minutes first: the groups' histograms
// summed (a few groups print waits; no goroutine is visited again).
func momentMinutes(r *Result) [][]minuteCount {
	out := make([][]minuteCount, len(r.Moments))
	for m := range out {
		var h map[int]int // most dumps print no wait: no map
		for _, pl := range r.Pools {
			for _, g := range pl.States {
				for _, c := range g.waits[m].minutes {
					if h == nil {
						h = map[int]int{}
					}
					h[c.Minutes] += c.N
				}
			}
		}
		out[m] = sortedMinutes(h)
	}
	return out
}

// keptIdle: more goroutines of g than their library's pool keeps
// (Signature.PoolKeeps) have rested LeakIdleMinutes and more: pools nobody
// uses keep them (a client, and its Transport, made per request and
// dropped with its idle connection). The moment with the most.
func keptIdle(p *Pass, pl *Pool, g *Group) (Finding, bool) {
	best := -1
	var wf WaitFact
	for m, lw := range g.waits {
		t := g.Stacks[m]
		if t == nil || lw.Goroutines == 0 {
			continue
		}
		s := p.signature(m, t)
		if s == nil || s.PoolKeeps == 0 {
			continue
		}
		if w := waitsFrom(lw.minutes, LeakIdleMinutes); w.Goroutines > s.PoolKeeps && w.Goroutines >= wf.Goroutines {
			best, wf = m, w
		}
	}
	if best < 0 {
		return Finding{}, false
	}
	f := groupFinding(KindLeaked, pl, g, best)
	f.Severity = Warning
	f.Basis = "idle-kept"
	f.Wait = &wf
	f.Same = g.Always
	f.Since = firstAtLeast(g.Counts, 1)
	f.FromStart = f.Since == 0
	return f, true
}

// lockTold: most of g's goroutines wait on a lock whose contention
// finding claims them, at some moment.
func lockTold(p *Pass, g *Group) bool {
	if g.Resource != "lock" {
		return false
	}
	for m, ts := range g.Threads {
		n := 0
		for _, t := range ts {
			if p.ThreadClaimOf(contentionDetector, m, t) != "" {
				n++
			}
		}
		if n > 0 && 2*n >= len(ts) {
			return true
		}
	}
	return false
}

// connectionBound tells a pool of goroutines that serve a live server
// connection (a handler streaming events, a kept-alive connection): they
// wait as long as their client stays, and end with the connection.
func connectionBound(pool string) bool { return pool == "net/http server connections" }

// byMass: when no long wait is printed (debug=1, the proto, or waits under
// a minute), one stack holding most of the process's goroutines at every
// moment, flat or growing, is a suspected leak. A stack is a pool and a
// culprit, so that one stack is one key in every encoding, whatever state
// each encoding lets it be classified in (debug=1 prints no wait reason).
func byMass(p *Pass, found, told map[string]bool) []Finding {
	r := p.R
	n := len(r.Moments)
	if n < 2 {
		return nil // one moment cannot say flat or growing
	}
	type stack struct {
		pool    *Pool
		g       *Group // the group that holds it at its peak
		counts  []int
		frame   string
		culprit string
		peak    int
		at      []*Group // per moment, the group holding most of it
		most    []int
		rest    bool // in a rest, or parked in a select where debug=1 hides it
	}
	type key struct {
		pool    *Pool
		culprit string
	}
	byKey := map[key]*stack{}
	var order []key
	for _, pl := range r.Pools {
		if pl.Internal || found[pl.Name] || connectionBound(pl.Name) {
			continue
		}
		for _, g := range pl.States {
			if g.Category != Waiting && g.State != "unknown" && g.State != "unclassified" || told[pl.Name+"\x00"+g.State] {
				continue
			}
			// Goroutines in cgo calls are OS threads held in C: the
			// explosion detector's (goCgoThreads), not a mass of parked ones.
			if p.GroupClaim(g) != "" {
				continue
			}
			// Goroutines that print their wait were judged by it (the
			// time rule above): an idle pool as old as the rest of its
			// process is at rest, whatever its share (go-idle-long).
			if printsWaits(g) {
				continue
			}
			// Goroutines resting together under one parent are a pool
			// started at once (64 workers on their job channel), whatever
			// their share: a leak is made one per request.
			if restMadeTogether(g) {
				continue
			}
			for m, shs := range g.Shapes {
				for i := range shs {
					sh := &shs[i]
					k := key{pl, sh.Culprit}
					s := byKey[k]
					if s == nil {
						s = &stack{pool: pl, counts: make([]int, n), culprit: sh.Culprit, at: make([]*Group, n), most: make([]int, n)}
						byKey[k] = s
						order = append(order, k)
					}
					s.counts[m] += sh.Count
					s.rest = s.rest || g.Rest || selectParked(sh.Stack)
					if sh.Count > s.most[m] {
						s.most[m], s.at[m] = sh.Count, g
					}
					if s.counts[m] > s.peak || s.g == nil {
						s.peak, s.g, s.frame = s.counts[m], g, sh.top
					}
				}
			}
		}
	}
	var fs []Finding
	for _, k := range order {
		s := byKey[k]
		// A stack that grows from the first moment to the last is made by
		// the requests or the time that pass (LeakMassMin); one that holds
		// flat in a rest (a select, a receive) is a leak only past the sets
		// people make by hand (LeakFlatMin): 50 subscribers started once,
		// each in a select on its own channel, stay 50. A flat send or
		// lock is no rest, and keeps LeakMassMin.
		floor := LeakMassMin
		if s.rest && float64(s.counts[n-1]-s.counts[0]) <= LeakFlatSpread*float64(s.peak) {
			floor = LeakFlatMin
		}
		ok := true
		for m, c := range s.counts {
			if c < floor || float64(c) < LeakMassShare*float64(r.Totals[m]) {
				ok = false
				break
			}
		}
		if !ok || float64(s.counts[n-1]) < (1-LeakFlatSpread)*float64(s.peak) {
			continue
		}
		at := n - 1
		f := groupFinding(KindLeaked, s.pool, s.g, at)
		f.ID = findingID(KindLeaked, s.pool.Name, "mass")
		f.Severity = Warning
		// Flat in a rest, or in a wait debug=1 hides: what a set of live
		// objects looks like (a goroutine per session, per subscriber,
		// per entity, made as they come and kept while they live), as
		// much as a leak that stopped growing. Only the alone rule makes
		// it more than a suspect: nothing but a leak leaves nine tenths of
		// a large process in one wait (LeakAloneShare, LeakAloneMin).
		if float64(s.counts[n-1]-s.counts[0]) <= LeakFlatSpread*float64(s.peak) && (s.rest || s.g.State == "unknown") &&
			!aloneMass(s.counts[n-1], r.Totals[n-1]) {
			f.Severity = Info
		}
		f.Basis = "mass"
		f.Counts = s.counts
		f.Totals = r.Totals
		f.Frame, f.Culprit = s.frame, s.culprit
		f.Since, f.FromStart = 0, true
		f.Evidence = nil
		for m, c := range s.counts {
			f.Evidence = append(f.Evidence, Evidence{Moment: m, Count: c, Threads: s.at[m].Samples[m]})
		}
		fs = append(fs, f)
	}
	return fs
}

// aloneMass reports whether c goroutines of one stack, of total, are a
// mass alone in its process (LeakAloneMin, LeakAloneShare): a leak, or a
// burst still in flight, and never a set of live objects, whose
// goroutines come with others of their own (their connection's reader).
func aloneMass(c, total int) bool {
	return c >= LeakAloneMin && float64(c) >= LeakAloneShare*float64(total)
}

// runtimeMarked: goroutines the Go runtime itself marked leaked (goroutine
// leak profile, Go 1.26+), one finding per pool.
func runtimeMarked(p *Pass) []Finding {
	r := p.R
	type acc struct {
		pool    *Pool
		g       *Group
		counts  []int
		samples [][]string
	}
	per := map[string]*acc{}
	var order []string
	for _, pl := range r.Pools {
		for _, g := range pl.States {
			for m, c := range g.marked { // counted by the builder (headerFacts)
				if c == 0 {
					continue
				}
				a := per[pl.Name]
				if a == nil {
					a = &acc{pool: pl, g: g, counts: make([]int, len(r.Moments)), samples: make([][]string, len(r.Moments))}
					per[pl.Name] = a
					order = append(order, pl.Name)
				}
				a.counts[m] += c
				for _, s := range g.markedSamples[m] {
					if len(a.samples[m]) < 5 {
						a.samples[m] = append(a.samples[m], s)
					}
				}
			}
		}
	}
	var fs []Finding
	for _, name := range order {
		a := per[name]
		at := peakAt(a.counts)
		f := groupFinding(KindLeaked, a.pool, a.g, at)
		f.ID = findingID(KindLeaked, name)
		f.State, f.Via = "", ""
		f.Severity = Warning
		f.Basis = "runtime"
		if d := r.Moments[at].Dump; d != nil && d.Kind == "goleak" {
			f.Basis = "leak-check" // the test's leak checker marked them, not the runtime
		}
		f.Counts = a.counts
		f.Since = firstAtLeast(a.counts, 1)
		f.Evidence = nil
		for m, c := range a.counts {
			if c > 0 {
				f.Evidence = append(f.Evidence, Evidence{Moment: m, Count: c, Threads: a.samples[m]})
			}
		}
		for _, o := range p.Found(timelineDetector) {
			if o.Pool == name && (o.Kind == KindGrowing || o.Kind == KindNotRecovered) {
				f.Severity = Critical // the runtime's mark and the timeline agree
				break
			}
		}
		fs = append(fs, f)
	}
	return fs
}

// isLeaked reports whether t is marked leaked: by the runtime (Go 1.26+'s
// goroutine leak profile, or a goroutine's "leaked" flag), or by the test's
// leak checker (goleak: every goroutine it prints was left running by the
// test, its verdict, as go test's timeout is for a hung test).
func isLeaked(t *parse.Thread, d *parse.Dump) bool {
	if d != nil && (d.Kind == "goroutineleak" || d.Kind == "goleak") {
		return true
	}
	for _, fl := range t.Flags() {
		if fl == "leaked" {
			return true
		}
	}
	return false
}

// printsWaits reports whether most of a group's goroutines print a wait of
// LeakWaitMinutes or more at some moment: the dump tells how long they
// waited, so their mass is no evidence of its own.
func printsWaits(g *Group) bool {
	for m, w := range g.waits {
		if m < len(g.Counts) && g.Counts[m] > 0 && 2*w.Goroutines >= g.Counts[m] {
			return true
		}
	}
	return false
}

// bodyReadFrames are net/http's frames of a response body's read or close,
// on the goroutine that holds the body: an HTTP/1 client connection whose
// body is lent (its readLoop in http-body-wait) is in use while a goroutine
// reads its body (a proxy's io.Copy, a decoder), and dropped when none does.
// Not persistConn.Read: an idle pooled connection's readLoop reads
// through it too (its Peek for the next response).
var bodyReadFrames = []string{"net/http.(*bodyEOFSignal).", "net/http.(*body).", "net/http.(*gzipReader)."}

// unreadBodies: HTTP client connections lent with their response body
// (readLoop in http-body-wait) while no goroutine reads any body. A
// connection is lent while its caller holds the body; a caller that
// streams it reads it on its own goroutine, and the connection goes back
// to the pool (or closes) once the body is read to its end or closed.
// Lent connections beyond the goroutines reading bodies, LeakBodiesMin
// and more and LeakMassShare of the lent ones, at the last moment, are
// bodies nobody closes: each keeps its connection and two goroutines for
// good. One moment proves it by structure; a body held between two reads
// (a caller working on a chunk) is in the margin. The server's idle
// keep-alive connections and a pool's idle ones are not lent (their
// readLoop, or conn.serve, waits in a read).
func unreadBodies(p *Pass, said map[string]bool) []Finding {
	r := p.R
	last := -1
	for m, mo := range r.Moments {
		if mo.Dump != nil {
			last = m
		}
	}
	if last < 0 {
		return nil
	}
	unread := make([]int, len(r.Moments))
	var top *Group
	var topPool *Pool
	for m, mo := range r.Moments {
		if mo.Dump == nil {
			continue
		}
		lent := 0
		for _, pl := range r.Pools {
			for _, g := range pl.States {
				if g.State != "http-body-wait" || m >= len(g.Threads) {
					continue
				}
				for _, t := range g.Threads[m] {
					lent += max(t.Weight, 1)
				}
				if m == last && (top == nil || g.Counts[m] > top.Counts[m]) {
					top, topPool = g, pl
				}
			}
		}
		reading := 0
		for _, t := range mo.Dump.Threads {
			for _, f := range t.Frames {
				if anyPrefix(f.Func, bodyReadFrames) {
					reading += max(t.Weight, 1)
					break
				}
			}
		}
		if u := lent - reading; u > 0 && float64(u) >= LeakMassShare*float64(lent) {
			unread[m] = u
		}
	}
	if top == nil || said[topPool.Name] || unread[last] < LeakBodiesMin {
		return nil
	}
	f := groupFinding(KindLeaked, topPool, top, last)
	f.ID = findingID(KindLeaked, topPool.Name, "unread-bodies")
	f.Severity = Warning
	f.Basis = BasisUnreadBodies
	f.Counts = unread
	f.Totals = r.Totals
	f.Since = firstAtLeast(unread, LeakBodiesMin)
	f.FromStart = f.Since == 0
	// Critical when more moments agree: the bodies stay unread at every
	// moment, and the same connections stay (ids printed) or more come.
	withDump, stays, first := 0, true, -1
	for m, mo := range r.Moments {
		if mo.Dump == nil {
			continue
		}
		withDump++
		if first < 0 {
			first = m
		}
		stays = stays && unread[m] >= LeakBodiesMin
	}
	if withDump >= 2 && stays && (top.Always >= LeakBodiesMin || unread[last] > unread[first]) {
		f.Severity = Critical
	}
	said[topPool.Name] = true
	return []Finding{f}
}

// printsIDs reports whether the group's goroutines print their ids (debug=2,
// SIGQUIT) at some moment: their identity, not their count, tells whether
// they stay.
func printsIDs(g *Group) bool {
	for _, ts := range g.Threads {
		if len(ts) > 0 && ts[0].ID != 0 {
			return true
		}
	}
	return false
}

// flatPool reports whether pl's own total holds flat (within
// LeakFlatSpread) over the moments: a constant population, whose
// goroutines may move between the phases of their work at will. Without
// ids or wait times one state's flat count in it is then a share of the
// pool at each look, not the same goroutines (400 requests in flight
// behind a semaphore of 400, all in one wait; 600 streams spread over
// reading, waiting and writing): nothing grew and nothing shows who
// stays, so no leak is said (a leak grows with what makes it, which the
// timeline and mass rules say). A flat wait in a pool whose total moves
// around it (connections come and go, the same 400 handlers stay in their
// send) is still a suspect.
func flatPool(pl *Pool) bool {
	lo, hi := pl.Counts[0], pl.Counts[0]
	for _, c := range pl.Counts {
		lo, hi = min(lo, c), max(hi, c)
	}
	return float64(hi-lo) <= LeakFlatSpread*float64(hi)
}

// selectParked reports whether a debug=1 record is parked in a select:
// the profile hides exactly two runtime frames above its first printed
// one, gopark under selectgo (a channel operation hides three: gopark,
// chanrecv or chansend, and its wrapper chanrecv1 or chansend1; seen so
// on Go 1.13 and 1.26, testdata/verdicts/shapes-subscribers-debug1-*). A
// select is a rest: a goroutine waiting for its next message or its quit.
func selectParked(t *parse.Thread) bool {
	return t != nil && parse.HiddenRuntimeFrames(t) == 2
}
