package analyze

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// Closed lock waits in one Go dump (issue 33, "cycles of every kind", "the
// holder first"). Go prints no lock's owner, but one moment can still
// prove a cycle by structure: when every goroutine of the application out
// of its rest waits for one of a few sync.Mutexes, the holder of each of
// them is among those waiters (nobody else is left to hold it: a sleeper
// will wake and let go, a running goroutine is no wait), and not among
// its own waiters. Each waiter then waits for a lock held by another
// waiter: a graph in which every goroutine has an edge out must close a
// cycle. Which waiter holds which lock the stacks tell only by
// elimination: two goroutines at the very same place (frames, lines and
// the objects they print) hold the same locks, and one mutex has one
// holder, so a stack shared by two waiters holds none of them (the
// bystanders of lockorder1/lockorder2: three readConfig on muA, two
// writeStats on muB). A lock left with one candidate has its holder; a
// cycle of such edges is named, its locks' other waiters blocked behind
// it. A lock with no candidate means its holder is elsewhere (resting
// with it, or gone): nothing is said; several candidates: the cycle is
// there but not who is in it, and nothing is said either.
//
// This is one moment's evidence (basis go-lock-closed): a warning, unless
// the members have waited minutes as the runtime prints, or the same
// cycle is seen at two moments (runDeadlock's goSeverity).
//
// A sleeper beside them (a janitor's pause in its loop, main sleeping)
// could hold a lock: it wakes and lets go, and the waiters go on. The
// structure is then two stories, and an engineer reading the stacks
// weighs them: the waiters hold what the others wait for (the cycle), or
// the sleeper holds the locks while asleep. Up to AsleepHoldersMax
// sleepers (detect_deadlock.go) the cycle is still told, as the weaker evidence it is (basis
// go-lock-asleep, the sleepers named as the other candidate holders):
// with several dumps only when the same goroutines wait the same way at
// the last of them (argCycleHeld: a sleeper that held a lock has woken
// and let it go by then, and the waiters have moved), in one dump info
// (goSeverity: a janitor paused under its lock looks the same), a
// warning when every member printed LockHeldMinutes (no sleep of a
// loop's pause lasts a minute while it holds a lock others need).

const (
	basisLockClosed = "go-lock-closed"
	basisLockAsleep = "go-lock-asleep"
)

// closedLockCycles are moment m's closed lock cycles among the waiters no
// other rule put in a cycle (done: the moment's cycles so far).
func closedLockCycles(p *Pass, m int, done []goCycle) []goCycle {
	if p.goLocks == nil || m >= len(p.goLocks) {
		return nil
	}
	gl := p.goLocks[m]
	taken := map[*parse.Thread]bool{}
	takenLock := map[lockKey]bool{}
	for _, c := range done {
		if c.basis == basisHeldPair {
			continue // a candidate only, taken across moments or not at all
		}
		for _, t := range c.members {
			taken[t] = true
		}
		for _, t := range c.blocked {
			taken[t] = true
		}
		for _, k := range c.waits {
			takenLock[k] = true
		}
	}
	waits := map[*parse.Thread]lockKey{}
	var keys []lockKey
	for _, k := range slices.SortedFunc(maps.Keys(gl.waiters), compareLockKeys) {
		if takenLock[k] {
			continue
		}
		var ws []*parse.Thread
		for _, t := range gl.waiters[k] {
			if !taken[t] {
				ws = append(ws, t)
			}
		}
		if len(ws) == 0 {
			continue
		}
		// Only a sync.Mutex by its address: a read lock has many holders,
		// and a lock filed by its receiver type may be several values.
		if k.class != "sync.Mutex" || lockByType(k.addr) {
			return nil
		}
		keys = append(keys, k)
		for _, t := range ws {
			waits[t] = k
		}
	}
	if len(keys) < 2 {
		return nil // one lock's waiters cannot hold it: its holder is elsewhere
	}
	for _, k := range keys {
		if h := gl.held[k]; h != nil {
			if _, ok := waits[h]; !ok {
				// The lock graph found its holder outside the waiters (past
				// the lock's Lock in the waiters' function, in a method of
				// their type or value, even at rest in a select): no proof.
				return nil
			}
		}
	}
	// The receiver types of the waiters' lock callers: a goroutine at
	// rest inside a method of one of them (a flush in its select) may
	// hold the lock across its wait.
	types := map[string]bool{}
	for t := range waits {
		if c := lockCaller(t); c != nil {
			if rt := receiverType(c.Func); rt != "" {
				types[rt] = true
			}
		}
	}
	// Every goroutine of the application out of its rest waits for one
	// of the locks, and no goroutine anywhere runs; a few may sleep
	// (asleep: the other candidate holders).
	var asleep []*parse.Thread
	for _, pl := range goPlaces(p, m) {
		t := pl.t
		if _, ok := waits[t]; ok {
			continue
		}
		if t.Weight > 1 {
			return nil // a debug=1 record: no address, no identity
		}
		if taken[t] {
			continue
		}
		if _, internal := poolName(p.R.Runtime, t, p.opt); internal {
			continue // the runtime's own
		}
		if s := p.signature(m, t); s != nil && s.Resource == "time" {
			// A sleeper, even in its own loop, wakes and may let a lock
			// go: the other candidate holder, named beside the cycle.
			if asleep = append(asleep, t); len(asleep) > AsleepHoldersMax {
				return nil
			}
			continue
		}
		if !pl.rest {
			return nil // a goroutine that could hold a lock: no proof
		}
		if slices.ContainsFunc(t.Frames, func(f *parse.Frame) bool { return types[receiverType(f.Func)] }) {
			return nil // in a method of the locks' type: it may hold one
		}
		parked := pl.wait != "" || strings.Contains(t.State, "no cases") || strings.Contains(t.State, "nil chan")
		if s := p.signature(m, t); s != nil && s.ID == dumpWriterState {
			parked = true // the goroutine writing this dump
		} else if s != nil && s.ID == "waitgroup-wait" {
			// main waiting for its workers: were it to hold a lock they
			// wait for, it would wait for them while they wait for it, a
			// deadlock all the same.
			parked = true
		}
		if !parked && slices.ContainsFunc(t.Frames, func(f *parse.Frame) bool {
			return isAppFrame(parse.RuntimeGo, f) && !strings.Contains(f.Func, ".gowrap")
		}) {
			// At rest in I/O under the application's own code (a refresh
			// reading its upstream): it may hold a lock across the read,
			// the holder the waiters wait for. A channel wait in its own
			// loop (a ticker, workers on their job channel) and a
			// library's own goroutine (an accept loop, started by a go
			// statement's wrapper) hold none.
			return nil
		}
	}
	// Places shared by two goroutines or more (frames, lines, the
	// objects printed): none of them holds a mutex the others wait for.
	place := func(t *parse.Thread) string {
		k := string(appendStackKey(nil, t))
		if t.GoExtra != nil {
			for _, a := range t.LockArgs {
				k += " " + strconv.FormatUint(a.Addr, 16)
			}
		}
		return k
	}
	shared := map[string]int{}
	for t := range waits {
		shared[place(t)]++
	}
	// A lock its waiters take in methods of one type (c.mu of
	// (*cache).get) is held in a method of that type: a candidate whose
	// frames run none is not its holder (a waiter of another type's lock
	// that never touched it).
	lockType := func(k lockKey) string {
		rt := ""
		for _, t := range gl.waiters[k] {
			c := lockCaller(t)
			if c == nil {
				return ""
			}
			if r := receiverType(c.Func); r == "" || rt != "" && r != rt {
				return ""
			} else {
				rt = r
			}
		}
		return rt
	}
	holder := map[lockKey]*parse.Thread{}
	for _, k := range keys {
		lt := lockType(k)
		var cands []*parse.Thread
		for _, k2 := range keys {
			if k2 == k {
				continue
			}
			for _, t := range gl.waiters[k2] {
				if _, ok := waits[t]; ok && shared[place(t)] == 1 &&
					(lt == "" || slices.ContainsFunc(t.Frames, func(f *parse.Frame) bool { return receiverType(f.Func) == lt })) {
					cands = append(cands, t)
				}
			}
		}
		switch len(cands) {
		case 0:
			return nil // its holder is none of the waiters: resting with it, or gone
		case 1:
			holder[k] = cands[0]
		}
	}
	// The cycles of the edges told: a waiter to its lock's lone holder.
	var out []goCycle
	state := map[*parse.Thread]int{} // 0 unseen, 1 on the path, 2 done
	for _, k := range keys {
		for _, t := range gl.waiters[k] {
			if _, ok := waits[t]; !ok || state[t] != 0 {
				continue
			}
			var path []*parse.Thread
			cur := t
			for cur != nil && state[cur] == 0 {
				state[cur] = 1
				path = append(path, cur)
				cur = holder[waits[cur]]
			}
			if cur != nil && state[cur] == 1 {
				ring := path[slices.Index(path, cur):]
				c := goCycle{basis: basisLockClosed}
				for j, mt := range ring {
					c.members = append(c.members, mt)
					c.waits = append(c.waits, waits[mt])
					c.holders = append(c.holders, ring[(j+1)%len(ring)])
				}
				for _, w := range c.waits {
					for _, b := range gl.waiters[w] {
						if _, ok := waits[b]; ok && !slices.Contains(c.members, b) && !slices.Contains(c.blocked, b) {
							c.blocked = append(c.blocked, b)
						}
					}
				}
				out = append(out, c)
			}
			for _, x := range path {
				state[x] = 2
			}
		}
	}
	if len(out) == 0 && len(holder) < len(keys) {
		// No lock left one holder for the cycle to be named by: where
		// each lock has one waiter of a place of its own, those waiters
		// are the cycle (or wait behind it at a place of their own, which
		// one dump cannot tell apart: a ring of three functions, each
		// lock a candidate of the two others), which holds which not
		// printed. More such waiters than locks: nothing is said.
		var c goCycle
		for _, k := range keys {
			var own []*parse.Thread
			for _, t := range gl.waiters[k] {
				if _, ok := waits[t]; ok && shared[place(t)] == 1 {
					own = append(own, t)
				}
			}
			if len(own) != 1 {
				return nil
			}
			c.members = append(c.members, own[0])
			c.waits = append(c.waits, k)
			c.holders = append(c.holders, nil)
		}
		c.basis = basisLockClosed
		for t := range waits {
			if !slices.Contains(c.members, t) {
				c.blocked = append(c.blocked, t)
			}
		}
		slices.SortFunc(c.blocked, func(a, b *parse.Thread) int { return int(a.ID - b.ID) })
		out = append(out, c)
	}
	if len(asleep) > 0 {
		for i := range out {
			out[i].basis, out[i].asleep = basisLockAsleep, asleep
		}
	}
	return out
}
