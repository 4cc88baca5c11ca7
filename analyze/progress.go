package analyze

import "github.com/dumpdiff/dumpdiff/parse"

// Progress the dumps show while threads sit in the same frames (issue 33,
// "nothing healthy was flagged"): a throttle whose permits rotate. Two
// hundred threads behind a Semaphore of two wait in acquire at every
// dump, most of them the very same threads, and yet the wait is served:
// between every two dumps some waiters got through (or left), and the
// pool's threads past the wait, doing the work, are other threads at each
// dump. A throttle whose holders hang shows the opposite: the very same
// holders in the same place at every dump, or none visible at all.
//
// What this cannot tell, and so does not quiet: waiters that leave by
// timing out while the holders are elsewhere (another pool, a leaked
// permit): no rotating holder is seen in the pool, and the wait stays
// stuck.

// servedWait reports whether the threads in a wait, followed by identity
// at each moment (wait[m]), are served: between every two moments at least
// one thread of the wait at the earlier one is not in it at the later one,
// and at every moment the pool has threads at work outside the wait
// (work[m]: identity → the group each is in), none of them the same thread
// in the same group as at the moment before (a holder that stays holds
// the resource; one that rotates passes it on). Fewer than two moments,
// or a moment with no thread outside the wait at work, show nothing.
func servedWait(wait []map[threadID]bool, work []map[threadID]*Group) bool {
	if len(wait) < 2 || len(work) != len(wait) {
		return false
	}
	for m := range wait {
		if len(work[m]) == 0 {
			return false // no holder seen in the pool: nothing rotates
		}
		if m == 0 {
			continue
		}
		left := false
		for id := range wait[m-1] {
			if !wait[m][id] {
				left = true
				break
			}
		}
		if !left {
			return false // nobody got through between these two dumps
		}
		for id, g := range work[m] {
			if work[m-1][id] == g {
				return false // a holder stayed where it was
			}
		}
	}
	return true
}

// served: servedWait over g's threads and the threads of its pool past
// the wait: not resting (a thread resting in its pool's loop holds
// nothing; one sleeping in its own work, idle or not, may hold a permit)
// and running, at another line, the application function the waiters
// wait from (their culprit: the method that called acquire, in the work
// after it). A thread of the pool elsewhere (a request just arrived,
// another endpoint) is no holder: it may rotate while the holders hang in
// another pool. Identity unknown (aggregated formats), or waiters with no
// application frame: false.
func (r *Result) served(pl *Pool, g *Group) bool {
	n := len(r.Moments)
	if n < 2 || len(g.Threads) < n || n-1 >= len(g.Stacks) || g.Stacks[n-1] == nil {
		return false
	}
	from := culprit(r.Runtime, g.Stacks[n-1])
	if from == nil {
		return false
	}
	past := func(t *parse.Thread) bool {
		for _, f := range t.Frames {
			if f.Func == from.Func {
				return f.Line != from.Line
			}
		}
		return false
	}
	wait := make([]map[threadID]bool, n)
	work := make([]map[threadID]*Group, n)
	for m := 0; m < n; m++ {
		wait[m] = map[threadID]bool{}
		for _, t := range g.Threads[m] {
			id := identity(r.Runtime, t)
			if id == (threadID{}) {
				return false
			}
			wait[m][id] = true
		}
		work[m] = map[threadID]*Group{}
		for _, h := range pl.States {
			if h == g || h.Rest || m >= len(h.Threads) {
				continue
			}
			for _, t := range h.Threads[m] {
				if !past(t) {
					continue
				}
				id := identity(r.Runtime, t)
				if id == (threadID{}) {
					return false
				}
				work[m][id] = h
			}
		}
	}
	return servedWait(wait, work)
}
