package analyze

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dumpdiff/dumpdiff/parse"
)

// The argument graph (issue 33): Go prints no lock's owner, but debug=2
// and a SIGQUIT print each frame's arguments, and a lock waiter's own
// frames below its Lock hold the objects it works on — the lock it waits
// for is one of them, at a field's offset; the others are locks it may
// have taken already. Two goroutines in a transfer between accounts, each
// waiting for the account the other one's frames name:
//
//	(*BankAccount).Transfer(0xc000010140, 0xc000010100, …) waits 0xc000010118
//	(*BankAccount).Transfer(0xc000010100, 0xc000010140, …) waits 0xc000010158
//
// The offset of the lock in its object (0x18 here) is the same for every
// waiter of one function; it is what tells "this frame names the object of
// that lock" from a neighbour allocated 32 bytes further. Which of a
// waiter's objects it has locked, the dump does not say: a waiter may also
// name an object it will lock only later (a transfer that orders its locks
// waits on the first one and holds nothing). So a cycle of this graph is
// only an inference, and the deadlock detector takes it only where the
// wait is proven long: the runtime printed minutes, or the same goroutines
// wait the same way at every moment (goArgCycleHeld).

// argWindow is the farthest a lock may sit from the start of the object a
// frame names, in bytes: a sync.Mutex is a field, most often among the
// first; a wider window lets more neighbours' addresses land on a lock,
// which the offset every waiter of the function shares then has to sort
// out.
const argWindow = 1024

// argWaiter is one lock waiter as the argument graph reads it.
type argWaiter struct {
	lock   uint64   // the lock's address (Thread.WaitAddr)
	caller string   // the function that called Lock
	args   []uint64 // the addresses its frames print from the caller down (parse.GoExtra.LockArgs)
}

// argCycles returns the cycles of ws's argument graph, each as indexes into
// ws, a member waiting for the lock the next one (cyclically) may hold.
// touched are addresses other goroutines, outside ws, print as a method's
// receiver: a lock whose object one of them names may be held by it, and
// gets no edge. A lock two or more waiters may hold gets no edge either.
func argCycles(ws []argWaiter, touched map[uint64]bool) [][]int {
	cs, _ := argGraph(ws, touched)
	return cs
}

// argGraph is argCycles, and each waiter's edge: the index of the one
// waiter that may hold its lock, -1 for none.
func argGraph(ws []argWaiter, touched map[uint64]bool) ([][]int, []int) {
	if len(ws) < 2 {
		return nil, nil
	}
	// The offset of each caller's lock in its objects: common to all its
	// waiters, and of those the smallest. Objects do not overlap, so of the
	// printed pointers below a lock the nearest is the object that holds
	// it; a farther one is a neighbour (accounts allocated 32 bytes apart
	// name each other's locks at 0x18 and 0x38).
	offs := map[string][]uint64{}
	for _, w := range ws {
		var os []uint64
		for _, a := range w.args {
			if a <= w.lock && w.lock-a < argWindow && !slices.Contains(os, w.lock-a) {
				os = append(os, w.lock-a)
			}
		}
		if prev, ok := offs[w.caller]; ok {
			os = slices.DeleteFunc(os, func(o uint64) bool { return !slices.Contains(prev, o) })
		}
		slices.Sort(os)
		offs[w.caller] = os
	}
	for c, os := range offs {
		if len(os) > 1 {
			offs[c] = os[:1]
		}
	}
	waited := map[uint64]bool{}
	for _, w := range ws {
		waited[w.lock] = true
	}
	// The locks each waiter may hold: its objects' locks at its caller's
	// offsets that another waits for, not its own.
	holders := map[uint64][]int{}
	for i, w := range ws {
		var mine []uint64
		for _, a := range w.args {
			for _, o := range offs[w.caller] {
				if l := a + o; l != w.lock && waited[l] && !slices.Contains(mine, l) {
					mine = append(mine, l)
				}
			}
		}
		for _, l := range mine {
			holders[l] = append(holders[l], i)
		}
	}
	// A lock whose object another goroutine names as a receiver, at an
	// offset its waiters' callers use, may be held there.
	for l := range holders {
		for _, w := range ws {
			if w.lock != l {
				continue
			}
			for _, o := range offs[w.caller] {
				if o <= l && touched[l-o] {
					delete(holders, l)
				}
			}
		}
	}
	next := make([]int, len(ws))
	for i, w := range ws {
		next[i] = -1
		if h := holders[w.lock]; len(h) == 1 && h[0] != i {
			next[i] = h[0]
		}
	}
	var out [][]int
	state := make([]int, len(ws)) // 0 unseen, 1 on the path, 2 done
	for i := range ws {
		if state[i] != 0 {
			continue
		}
		var path []int
		cur := i
		for cur >= 0 && state[cur] == 0 {
			state[cur] = 1
			path = append(path, cur)
			cur = next[cur]
		}
		if cur >= 0 && state[cur] == 1 {
			j := slices.Index(path, cur)
			out = append(out, slices.Clone(path[j:]))
		}
		for _, x := range path {
			state[x] = 2
		}
	}
	return out, next
}

// argCycles adds the argument graph's cycles among the waiters no other
// rule put in a cycle (inCycle) and whose locks no goroutine was found to
// hold (held): basis "go-arg-graph". ts are the moment's goroutines.
func (lw *lockWaits) argCycles(ts []*parse.Thread, held map[lockKey]*parse.Thread, inCycle map[*parse.Thread]bool) []goCycle {
	waiting := map[*parse.Thread]bool{}
	for _, a := range lw.byKey {
		for _, t := range a.threads {
			waiting[t] = true
		}
	}
	var ws []argWaiter
	var wt []*parse.Thread
	var wk []lockKey
	for _, k := range slices.SortedFunc(maps.Keys(lw.byKey), compareLockKeys) {
		// A holder the other rules found outside the waiters is taken at
		// its word; one that waits on a lock itself (a goroutine of the
		// waiters' function at another Lock line, which may be before
		// the lock, not past it) is what this graph reads better.
		if h := held[k]; h != nil && !waiting[h] || lockByType(k.addr) {
			continue
		}
		l, err := strconv.ParseUint(k.addr[2:], 16, 64)
		if err != nil {
			continue
		}
		for _, t := range lw.byKey[k].threads {
			c := lockCaller(t)
			if inCycle[t] || c == nil || t.GoExtra == nil || len(t.LockArgs) == 0 {
				continue
			}
			ws = append(ws, argWaiter{lock: l, caller: c.Func, args: argsFrom(t, c)})
			wt = append(wt, t)
			wk = append(wk, k)
		}
	}
	if len(ws) < 2 {
		return nil
	}
	touched := map[uint64]bool{}
	for _, t := range ts {
		if t.GoExtra == nil || slices.Contains(wt, t) {
			continue
		}
		for _, r := range t.Receivers {
			touched[r.Addr] = true
		}
	}
	var out []goCycle
	cs, next := argGraph(ws, touched)
	for _, c := range cs {
		g := goCycle{basis: "go-arg-graph"}
		for j, i := range c {
			g.members = append(g.members, wt[i])
			g.waits = append(g.waits, wk[i])
			g.holders = append(g.holders, wt[c[(j+1)%len(c)]])
			inCycle[wt[i]] = true
		}
		// Waiters whose holders' chain leads into the cycle wait on it
		// too (a teller behind a teller behind the cycle).
		for i := range ws {
			if slices.Contains(c, i) {
				continue
			}
			for cur, n := next[i], 0; cur >= 0 && n <= len(ws); cur, n = next[cur], n+1 {
				if slices.Contains(c, cur) {
					g.blocked = append(g.blocked, wt[i])
					break
				}
			}
		}
		out = append(out, g)
	}
	return out
}

// argSupported tells whether the argument graph agrees that ts, waiting
// at one Lock line for locks ks (one each), form a ring: true when one of
// them prints no object its lock is in (nothing to check: the ints of a
// ring of package-level locks, "(...)"), or when the graph of their
// arguments closes one cycle through every one of them. Frames that print
// the objects they work on and name none of the others' locks are not a
// ring: tellers taking two accounts in order wait, at the second Lock, for
// locks held by a third goroutine past both.
func argSupported(ts []*parse.Thread, ks []lockKey) bool {
	var ws []argWaiter
	for i, t := range ts {
		c := lockCaller(t)
		if c == nil || t.GoExtra == nil || len(t.LockArgs) == 0 || lockByType(ks[i].addr) {
			continue
		}
		l, err := strconv.ParseUint(ks[i].addr[2:], 16, 64)
		if err != nil {
			continue
		}
		w := argWaiter{lock: l, caller: c.Func, args: argsFrom(t, c)}
		if slices.ContainsFunc(w.args, func(a uint64) bool { return a <= l && l-a < argWindow }) {
			ws = append(ws, w)
		}
	}
	// Only members whose frames name their own lock's object say anything
	// (Go before 1.17 prints raw stack words: a bool's word with stale
	// upper bytes, 0xc000068101, is no object). Some silent: not enough to
	// contradict the ring.
	if len(ws) < len(ts) {
		return true
	}
	cs := argCycles(ws, nil)
	return len(cs) == 1 && len(cs[0]) == len(ts)
}

// argsFrom are the addresses t's frames print from c, its lock caller,
// down.
func argsFrom(t *parse.Thread, c *parse.Frame) []uint64 {
	at := slices.Index(t.Frames, c)
	var out []uint64
	for _, a := range t.LockArgs {
		if a.Frame >= at {
			out = append(out, a.Addr)
		}
	}
	return out
}

// argCycleAged: the runtime printed a wait of LockHeldMinutes or more for
// a member of c (a SIGQUIT or debug=2 dump of a process stuck for
// minutes): one moment is enough.
func argCycleAged(c goCycle) bool {
	for _, t := range c.members {
		if t.WaitMinutes >= LockHeldMinutes {
			return true
		}
	}
	return false
}

// argCycleKey names an argument-graph cycle by what makes it the same
// across moments: each member's id, the function and line it waits at and
// the lock it waits for (Go never reuses an id within a process, and a
// lock moved by no GC keeps its address).
func argCycleKey(c goCycle) string {
	var ks []string
	for i, t := range c.members {
		k := strconv.FormatInt(int64(t.ID), 10) + "@" + c.waits[i].addr
		if f := lockCaller(t); f != nil {
			k += "@" + f.Func + ":" + strconv.Itoa(f.Line)
		}
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return strings.Join(ks, " ")
}

// argCycleHeld tells an argument-graph cycle seen at moments ms (in order)
// that waited long enough to be taken without printed minutes: seen at
// each of the last HeldWaitMin moments or more that hold a dump, up to the
// last (a cycle gone by the last moment was contention that cleared), and,
// where those moments print their times, over HeldSpanSeconds at least
// (dumps closer than that show waits in flight).
func argCycleHeld(r *Result, ms []int) bool {
	var withDump []int
	for m, mo := range r.Moments {
		if mo.Dump != nil {
			withDump = append(withDump, m)
		}
	}
	n := 0
	for i := len(withDump) - 1; i >= 0 && slices.Contains(ms, withDump[i]); i-- {
		n++
	}
	if n < HeldWaitMin {
		return false
	}
	first, last := r.Moments[withDump[len(withDump)-n]].Time, r.Moments[withDump[len(withDump)-1]].Time
	if !first.IsZero() && !last.IsZero() && last.Sub(first) < HeldSpanSeconds*time.Second {
		return false
	}
	return true
}
