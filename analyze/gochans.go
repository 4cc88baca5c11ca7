package analyze

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// Go cycles through channels (issue 33, "cycles of every kind"). The
// runtime prints "all goroutines are asleep" only when no goroutine at
// all can run: a service whose net/http listener waits in accept, or
// whose timers tick, never gets it, however stuck its own goroutines are.
// Two shapes the dumps show by structure, across moments:
//
//   - go-lock-chan: a goroutine holds a mutex (it runs the lock's code past
//     its Lock call: the holder the lock graph infers, golocks.go) and waits
//     untimed in a channel send or receive, while others wait for that
//     mutex. When nothing else out of its rest stayed anywhere over the
//     moments, the goroutine that would take its send (or make its
//     receive) can only be among the mutex's waiters: they wait for it, it
//     waits for them (a ledger sending to its auditor under the lock while
//     the auditor takes the lock before it receives).
//   - go-chan-cycle: every goroutine of the application out of its rest
//     waits in a plain channel send or receive (a select may hold a timer's
//     or a context's case the dump does not print), at least one of them
//     sending, the very same goroutines at the same lines at each of
//     the last moments: nobody is left to receive what they send (two
//     pipeline stages each sending to the other).
//
// Both are taken as the held pair is (gopairs.go): at each of the last
// HeldWaitMin moments that hold a dump, over HeldSpanSeconds where the
// moments print their times (argCycleHeld). From one dump, go-chan-cycle
// is a warning only where nothing else of the application runs, is
// runnable or sleeps (chanCycleQuiet: otherwise a send in flight looks the
// same); go-lock-chan never is. A debug=1 profile prints no ids: a record
// (a stack and its count) stands for its goroutines, the same record at
// every moment, the weaker evidence the finding says.

const (
	basisLockChan  = "go-lock-chan"
	basisChanCycle = "go-chan-cycle"
	// chanCycleMax is the most goroutines a channel cycle is taken among:
	// a cycle is a few stages of a program; dozens out of rest in channel
	// waits are a crowd (a leak, a fan-out), which leaked and stuck name.
	chanCycleMax = 16
)

// goPlace is where one goroutine (or one debug=1 record) is at a moment.
type goPlace struct {
	t *parse.Thread
	// who is its identity across moments: its id, or, for a record with
	// no id, its stack and count.
	who string
	// at is its state and frames, line by line.
	at string
	// rest: it waits where a healthy goroutine waits too, as heldPair
	// reads it: the runtime's own, the dump's writer, an idle state, or a
	// rest in the goroutine's own loop (a worker on its job channel, an
	// accept loop).
	rest bool
	// wait is its channel wait: "send", "receive", "select", or "park"
	// for a debug=1 record parked in the runtime under its first frame,
	// which the profile hides (a channel operation or a select, most
	// often); "" for any other state, and for a nil channel or an empty
	// select (no partner can ever come: a cycle needs one).
	wait string
}

// goPlaces are moment m's goroutines, as the pools hold them.
func goPlaces(p *Pass, m int) []goPlace {
	roles := p.opt.roleTable()
	var out []goPlace
	for _, pl := range p.R.Pools {
		for _, g := range pl.States {
			if m >= len(g.Threads) {
				continue
			}
			rest := pl.Internal || g.Category == Idle || g.State == dumpWriterState
			for _, t := range g.Threads[m] {
				at := string(appendStackKey(nil, t))
				who := fmt.Sprintf("g%d", t.ID)
				if t.ID == 0 {
					who = fmt.Sprintf("r%d|%s", max(t.Weight, 1), at)
				}
				out = append(out, goPlace{t: t, who: who, at: at,
					rest: rest || g.Rest && goWork(t, roles.GoWork) == ownLoop, wait: chanWait(g.State, t)})
			}
		}
	}
	return out
}

// chanWait names t's channel wait from its group's state id.
func chanWait(state string, t *parse.Thread) string {
	if strings.Contains(t.State, "nil chan") || strings.Contains(t.State, "no cases") {
		return ""
	}
	switch state {
	case "chan-send":
		return "send"
	case "chan-receive":
		return "receive"
	case "select":
		return "select"
	case "unknown":
		if parse.HiddenRuntimeFrames(t) > 0 {
			return "park"
		}
	}
	return ""
}

// chanHeld: a holder's wait that a lock's waiters can be the partner of.
func chanHeld(wait string) bool { return wait == "send" || wait == "receive" || wait == "park" }

// chanFound is a channel cycle seen at one moment.
type chanFound struct {
	m       int
	members []*parse.Thread
	blocked []*parse.Thread
	ref     func(*parse.Thread) *LockRef
}

// goChanCycles are the channel cycles held at the last moments, each with
// its sightings, in the order first seen; none for a runtime other than
// Go's, and none where the runtime itself stopped the program as asleep
// (its own report says it).
func goChanCycles(p *Pass) (basis []string, seen [][]chanFound) {
	r := p.R
	if r.Runtime != parse.RuntimeGo {
		return nil, nil
	}
	one := withDumps(r) == 1
	if len(r.Moments) < HeldWaitMin && !one {
		return nil, nil
	}
	for _, mo := range r.Moments {
		if mo.Dump != nil && strings.Contains(mo.Dump.Headline, "all goroutines are asleep") {
			return nil, nil
		}
	}
	type cand struct {
		basis string
		at    []chanFound
		ms    []int
		// others: per sighting, the places of everyone but the members
		// (go-lock-chan asks that none of them stayed).
		others [][]goPlace
	}
	byKey := map[string]*cand{}
	var order []string
	note := func(key, basis string, f chanFound, others []goPlace) {
		c := byKey[key]
		if c == nil {
			c = &cand{basis: basis}
			byKey[key] = c
			order = append(order, key)
		}
		c.at = append(c.at, f)
		c.ms = append(c.ms, f.m)
		c.others = append(c.others, others)
	}
	for m, mo := range r.Moments {
		if mo.Dump == nil {
			continue
		}
		places := goPlaces(p, m)
		for _, lc := range lockChanAt(p, m, places) {
			note(lc.key, basisLockChan, lc.found, lc.others)
		}
		if k, f, ok := chanCycleAt(m, places); ok {
			note(k, basisChanCycle, f, nil)
		}
	}
	for _, k := range order {
		c := byKey[k]
		if one {
			// One dump: a channel cycle is one moment's evidence (a
			// warning: goSeverity), taken where nothing else could move
			// it (chanCycleQuiet).
			if c.basis != basisChanCycle || !chanCycleQuiet(p, c.at[0]) {
				continue
			}
			basis = append(basis, c.basis)
			seen = append(seen, c.at)
			continue
		}
		if !argCycleHeld(r, c.ms) {
			continue
		}
		// A goroutine of the application asleep beside a channel cycle
		// (a consumer sleeping inside its item's work, a loop pausing)
		// wakes and may be the missing partner, at every moment as in one
		// dump (chanCycleQuiet): no proof of a cycle, unless each member
		// printed a wait too long for that.
		if c.basis == basisChanCycle && !chanCycleSleepless(p, c.at) {
			continue
		}
		if c.basis == basisLockChan && stayedOutOfRest(r, c.ms, c.others) {
			continue
		}
		basis = append(basis, c.basis)
		seen = append(seen, c.at)
	}
	return basis, seen
}

// stayedOutOfRest: some goroutine of others (per sighting at ms) stayed
// out of its rest in the very same place at each of the trailing moments
// argCycleHeld counts: a holder or a partner the cycle did not account for.
func stayedOutOfRest(r *Result, ms []int, others [][]goPlace) bool {
	n := 0
	for i := len(ms) - 1; i > 0 && ms[i-1] == ms[i]-1; i-- {
		n++
	}
	first := len(ms) - 1 - n
	stay := map[string]string{}
	for _, pl := range others[first] {
		if !pl.rest {
			stay[pl.who] = pl.at
		}
	}
	for i := first + 1; i < len(ms); i++ {
		here := map[string]goPlace{}
		for _, pl := range others[i] {
			here[pl.who] = pl
		}
		for who, at := range stay {
			if pl, ok := here[who]; !ok || pl.rest || pl.at != at {
				delete(stay, who)
			}
		}
	}
	return len(stay) > 0
}

// lockChanSeen is one go-lock-chan candidate at a moment.
type lockChanSeen struct {
	key    string
	found  chanFound
	others []goPlace
}

// lockChanAt are moment m's go-lock-chan candidates: a lock whose holder
// (as the lock graph inferred it: one goroutine past the lock's Lock
// call, or in the waiters' type or value; else the one goroutine out of
// its rest in a channel wait) waits in a channel send or
// receive (or, in a debug=1 profile, parks in the runtime right under an
// application frame: no lock, no I/O, no sleep), with its waiters. A debug=1 record waiting at a Lock called
// from a function the holder runs (at another line) waits for the same
// lock: the graph files no weighted record, which names no one address.
func lockChanAt(p *Pass, m int, places []goPlace) []lockChanSeen {
	if p.goLocks == nil || m >= len(p.goLocks) {
		return nil
	}
	gl := p.goLocks[m]
	placeOf := map[*parse.Thread]goPlace{}
	for _, pl := range places {
		placeOf[pl.t] = pl
	}
	waiting := map[*parse.Thread]bool{}
	for _, ws := range gl.waiters {
		for _, t := range ws {
			waiting[t] = true
		}
	}
	// Where the frames tell no holder: the one goroutine out of its rest,
	// in a channel wait, waiting for no lock. A Go mutex waited on for
	// seconds was held all along, by a goroutine that stayed (gopairs.go):
	// with nothing else staying out of its rest (stayedOutOfRest, across
	// the moments), it is the holder. Two such goroutines name none.
	var lone *parse.Thread
	for _, pl := range places {
		if !pl.rest && chanHeld(pl.wait) && !waiting[pl.t] && pl.t.Weight <= 1 {
			if lone != nil {
				lone = nil
				break
			}
			lone = pl.t
		}
	}
	// The lock waiters the graph could not file (a debug=1 record, which
	// prints no address, whose lock caller is no method): one lock per
	// call site, as formats without arguments name it (parse.LockSitePrefix),
	// its holder only the lone one.
	keys := slices.SortedFunc(maps.Keys(gl.waiters), compareLockKeys)
	bySite := map[lockKey][]*parse.Thread{}
	for _, pl := range places {
		if waiting[pl.t] {
			continue
		}
		if sg := p.signature(m, pl.t); sg == nil || sg.Resource != "lock" {
			continue
		}
		if c := lockCaller(pl.t); c != nil {
			k := lockKey{parse.LockSitePrefix + c.Func + ":" + strconv.Itoa(c.Line), goLockClass(pl.t)}
			if bySite[k] == nil {
				keys = append(keys, k)
			}
			bySite[k] = append(bySite[k], pl.t)
		}
	}
	var out []lockChanSeen
	for _, k := range keys {
		h := gl.held[k]
		if h == nil {
			h = lone
		}
		hp, ok := placeOf[h]
		if h == nil || !ok || waiting[h] || !chanHeld(hp.wait) {
			continue
		}
		ws := slices.Clone(gl.waiters[k])
		if site := bySite[k]; site != nil {
			if h != lone {
				continue
			}
			ws = site
		}
		for _, pl := range places {
			if bySite[k] != nil {
				break
			}
			if pl.t.Weight <= 1 || waiting[pl.t] {
				continue
			}
			if s := p.signature(m, pl.t); s == nil || s.Resource != "lock" {
				continue
			}
			if c := lockCaller(pl.t); c != nil && slices.ContainsFunc(h.Frames, func(f *parse.Frame) bool { return f.Func == c.Func && f.Line != c.Line }) {
				ws = append(ws, pl.t)
			}
		}
		if len(ws) == 0 {
			continue
		}
		members := append([]*parse.Thread{h}, ws...)
		in := map[*parse.Thread]bool{}
		for _, t := range members {
			in[t] = true
		}
		var others []goPlace
		for _, pl := range places {
			if !in[pl.t] {
				others = append(others, pl)
			}
		}
		wait, kk := hp.wait, k
		ref := func(t *parse.Thread) *LockRef {
			if t == h {
				return &LockRef{Chan: wait}
			}
			return &LockRef{Address: kk.addr, Class: kk.class, Holder: threadLabel(parse.RuntimeGo, h)}
		}
		out = append(out, lockChanSeen{key: basisLockChan + " " + hp.who + "@" + hp.at + "@" + k.addr,
			found: chanFound{m: m, members: members, ref: ref}, others: others})
	}
	return out
}

// chanCycleAt is moment m's go-chan-cycle candidate: every goroutine out
// of its rest waits in a channel send or receive, one goroutine
// per stack (a crowd of one stack is a leak's or a fan-out's), two to
// chanCycleMax of them, at least one sending. Its key is the members and
// their places: the same key at each of the last moments is the same
// goroutines, not one of them moved.
func chanCycleAt(m int, places []goPlace) (string, chanFound, bool) {
	var ms []goPlace
	sends := 0
	stacks := map[string]bool{}
	for _, pl := range places {
		if pl.rest {
			continue
		}
		// A select may hold a timer's or a context's case, which
		// the dump does not print: it can wake; no proof of a cycle.
		// One goroutine per stack and go statement: stages of one
		// function started by go statements of their own (a ring of
		// stage(out, in) goroutines) are a pipeline; many from one go
		// statement are a crowd.
		where := pl.at
		if c := pl.t.CreatedBy; c != nil {
			where += "\ncreated " + c.Func + ":" + strconv.Itoa(c.Line)
		}
		if pl.wait == "" || pl.wait == "park" || pl.wait == "select" || pl.t.Weight > 1 || stacks[where] || len(ms) == chanCycleMax {
			return "", chanFound{}, false
		}
		stacks[where] = true
		if pl.wait == "send" {
			sends++
		}
		ms = append(ms, pl)
	}
	if len(ms) < 2 || sends == 0 {
		return "", chanFound{}, false
	}
	// The senders lead: a send blocked is a receiver missing.
	slices.SortStableFunc(ms, func(a, b goPlace) int {
		if (a.wait == "send") != (b.wait == "send") {
			if a.wait == "send" {
				return -1
			}
			return 1
		}
		return strings.Compare(a.who, b.who)
	})
	var keys []string
	f := chanFound{m: m}
	waits := map[*parse.Thread]string{}
	for _, pl := range ms {
		keys = append(keys, pl.who+"@"+pl.at)
		f.members = append(f.members, pl.t)
		waits[pl.t] = pl.wait
	}
	f.ref = func(t *parse.Thread) *LockRef { return &LockRef{Chan: waits[t]} }
	return basisChanCycle + " " + strings.Join(keys, " "), f, true
}

// chanCycleSleepless tells whether the sightings of a channel cycle
// leave it proven with sleepers about: at some sighting every member
// printed LockHeldMinutes, or no goroutine of the application outside the
// members sleeps at any sighting.
func chanCycleSleepless(p *Pass, at []chanFound) bool {
	for _, f := range at {
		if !slices.ContainsFunc(f.members, func(t *parse.Thread) bool { return t.WaitMinutes < LockHeldMinutes }) {
			return true
		}
	}
	for _, f := range at {
		for _, pl := range goPlaces(p, f.m) {
			if slices.Contains(f.members, pl.t) {
				continue
			}
			if _, internal := poolName(p.R.Runtime, pl.t, p.opt); internal {
				continue
			}
			if s := p.signature(f.m, pl.t); s != nil && s.Resource == "time" {
				return false
			}
		}
	}
	return true
}

// chanCycleQuiet tells whether a channel cycle seen in one dump (f) is
// told by that dump alone: its members have all waited LockHeldMinutes or
// more as the runtime prints, or no goroutine of the application outside
// them runs, is runnable, or sleeps (chanCycleAt already has every one out
// of its rest in a plain channel wait): nothing left to send what they
// wait to receive, or to take what they send. A stage caught in its
// handoff beside one that runs or sleeps between items (a pipeline
// flowing) is no cycle.
func chanCycleQuiet(p *Pass, f chanFound) bool {
	if !slices.ContainsFunc(f.members, func(t *parse.Thread) bool { return t.WaitMinutes < LockHeldMinutes }) {
		return true
	}
	for _, pl := range goPlaces(p, f.m) {
		if slices.Contains(f.members, pl.t) {
			continue
		}
		if _, internal := poolName(p.R.Runtime, pl.t, p.opt); internal {
			continue
		}
		s := p.signature(f.m, pl.t)
		if s == nil || s.ID == dumpWriterState {
			continue
		}
		if s.Category == Running || s.Resource == "time" {
			return false
		}
	}
	return true
}
