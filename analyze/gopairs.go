package analyze

import (
	"maps"
	"slices"

	"github.com/dumpdiff/dumpdiff/parse"
)

// Two-mutex order cycles in young dumps (issue 33). Two goroutines take two
// mutexes in opposite orders (debit: the ledger's, then stock's; restock:
// stock's, then the ledger's) through package-level locks or locks no
// frame prints: each holds its first and waits for its second, at another
// line of another function, and nothing in one moment says who holds
// either lock (no goroutine of the waiters' functions past their Lock, no
// receiver, no argument naming the lock's object). Go prints the wait's
// age only from a minute; before that, what the dumps show is the pair
// itself not moving.
//
// pairCycles takes such pairs at one moment as candidates, basis
// "go-held-pair": two locks with no holder found, one waiter each, that no
// other rule put in a cycle. The deadlock detector takes
// it only across moments (heldPair): the same two goroutines, the same
// lines, the same lock addresses, at each of the last HeldWaitMin moments
// or more, over HeldSpanSeconds where the moments print their times; and
// no other goroutine, out of its rest, stayed in the very same place at
// every one of those moments. A waiter that waits seconds on a Go mutex
// waits for a holder that held it all along (after 1 ms of waiting the
// mutex is handed to its waiters in turn, starvation mode): a goroutine
// that stayed where it was; when the only one that stayed is the other
// waiter, each holds what the other waits for. Goroutines resting in their
// own loop (an accept loop, a ticker, workers on their job channel) are
// not counted as holders: a lock held across a rest is a bug of its own,
// which this rule then misses rather than invents.

// pairCycles returns the moment's candidate pairs: every two of the locks
// with no holder found and one waiter each, that no other rule put in a
// cycle (a lock two wait on says nothing of which of them holds the other
// lock, and is left out). Which two belong together one moment cannot
// say: each pair is a candidate, and only a pair that stays at every
// moment, with nothing else staying, is taken (heldPair). Past
// pairLocksMax such locks a moment proposes none: a crowd of lone waiters
// is a busy process's traffic, and its pairs would be many.
func (lw *lockWaits) pairCycles(held map[lockKey]*parse.Thread, inCycle map[*parse.Thread]bool) []goCycle {
	var ks []lockKey
	var ws []*parse.Thread
	for _, k := range slices.SortedFunc(maps.Keys(lw.byKey), compareLockKeys) {
		if held[k] != nil || lockByType(k.addr) {
			continue
		}
		var free []*parse.Thread
		for _, t := range lw.byKey[k].threads {
			if !inCycle[t] && lockCaller(t) != nil {
				free = append(free, t)
			}
		}
		if len(free) == 1 && !slices.Contains(ws, free[0]) {
			ks = append(ks, k)
			ws = append(ws, free[0])
		}
	}
	if len(ks) < 2 || len(ks) > pairLocksMax {
		return nil
	}
	var out []goCycle
	for i := range ks {
		for j := i + 1; j < len(ks); j++ {
			out = append(out, goCycle{members: []*parse.Thread{ws[i], ws[j]}, waits: []lockKey{ks[i], ks[j]},
				holders: []*parse.Thread{ws[j], ws[i]}, basis: basisHeldPair})
		}
	}
	return out
}

// pairLocksMax is the most lone-waiter locks a moment's candidate pairs
// are drawn from (at most 28 pairs).
const pairLocksMax = 8

// basisHeldPair marks a two-mutex cycle told by the pair staying put.
const basisHeldPair = "go-held-pair"

// heldPair tells whether a candidate pair seen at moments ms (in order,
// each with the very same members, lines and locks: argCycleKey) is a
// cycle: seen long enough (argCycleHeld), and no goroutine other than the
// pair's and the waiters behind its locks stayed in one place, out of its
// rest, at every one of those moments (a holder that could hold a lock
// that long).
func heldPair(p *Pass, ms []int, members []*parse.Thread) bool {
	r := p.R
	if !argCycleHeld(r, ms) {
		return false
	}
	// The last moments argCycleHeld counted: the trailing run of ms.
	var last []int
	for i := len(ms) - 1; i >= 0; i-- {
		if i < len(ms)-1 && ms[i] != ms[i+1]-1 && r.Moments[ms[i]+1].Dump != nil {
			break
		}
		last = append([]int{ms[i]}, last...)
	}
	pair := map[int64]bool{}
	for _, t := range members {
		pair[t.ID] = true
	}
	// A goroutine's place: its state and frames.
	type place struct {
		key  string
		rest bool
	}
	roles := p.opt.roleTable()
	stay := map[int64]string{}
	for i, m := range last {
		here := map[int64]place{}
		for _, pl := range r.Pools {
			for _, g := range pl.States {
				if m >= len(g.Threads) {
					continue
				}
				// The runtime's own, the goroutine writing the dump (the
				// same line at each of its own dumps), and a goroutine
				// resting in its own function (a worker on its job
				// channel, an accept loop) hold no application lock across
				// the span; one resting under a call its function made (a
				// read under a flush) may.
				rest := pl.Internal || g.Category == Idle || g.State == dumpWriterState
				for _, t := range g.Threads[m] {
					if t.ID == 0 || pair[t.ID] {
						continue
					}
					here[t.ID] = place{string(appendStackKey(nil, t)), rest || g.Rest && goWork(t, roles.GoWork) == ownLoop}
				}
			}
		}
		if i == 0 {
			for id, pc := range here {
				if !pc.rest {
					stay[id] = pc.key
				}
			}
			continue
		}
		for id, k := range stay {
			if pc, ok := here[id]; !ok || pc.rest || pc.key != k {
				delete(stay, id)
			}
		}
	}
	return len(stay) == 0
}
