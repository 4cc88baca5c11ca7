package analyze

import (
	"slices"
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// The holders of an exhausted pool, by the stacks' structure (issue 33,
// "the holder first"). A pool of N things lends each to a caller that
// keeps it while it works: the waiters and the holders run the same
// application path, and differ only in where they are on it. A waiter is
// at its acquire (a borrow under the caller's frame, a Go chan send that
// takes a slot of a buffered channel used as a semaphore); a holder is in
// the same caller's frame at a later line, past the acquire, doing what it
// borrowed the item for (a socket read under the payment client, a future
// it waits for, a network read under main.processJob). No lock line prints
// this tie (a pool is no ownable synchronizer, a channel prints no owner),
// yet the holders are the story: the waiters follow from what they do.
//
// The rule, per moment:
//
//   - each waiter's acquire site is its first application frame under the
//     pool's borrow (borrowAt: a pool of the application's own, its
//     ChannelPool.acquire, is the acquire and not the site), or, where no
//     borrow frame is seen (HikariCP's getConnection under a DataSource, a
//     Go chan send), its first application frame: the function and line
//     that asked the pool;
//   - a holder is a thread that waits at no acquire of the same pool and
//     has that very function on its stack below its top (it called
//     something from it) at a line past the waiter's (both printed): it
//     passed the acquire and has not come back from the work it took the
//     item for. A line before the acquire (the request's parsing) is not
//     past it; a function the holders share further down (a worker's loop,
//     a servlet) is not the site, so an idle or unrelated thread of the
//     same pool is never a holder.
//
// Every line past the acquire counts, not only the first one reached (as
// a semaphore's permits do, permits.go): a pool's item is held through the
// rest of the caller's work (Go's deferred release, a try-with-resources
// block), and a stuck pool's holders often stand at different steps of it.
// The count is support, not proof: it most often equals the pool's size
// (HikariCP's 10, the channel's capacity), and the finding says the size
// it infers from it. A pool whose holders change from moment to moment is
// at work; the detector's persistence rule (the same waiters at every
// moment, or PoolWaitMin of them) decides exhaustion, this rule only who
// holds.

// holderBasisPast is a finding's HolderBasis when its holders were found
// past the waiters' acquire (this file).
const holderBasisPast = "past-acquire"

// structuralAcquires are the Go waits that take an item of a semaphore
// no client's frames name the holders of, by resource: a chan send, which
// is a buffered channel's slot taken (`sem <- struct{}{}`) when goroutines
// of the same function stand past it (semaphore-pool-exhausted), and a
// send nobody receives otherwise (the stuck, no-peer and receiver-gone
// rules); golang.org/x/sync/semaphore's Acquire (its own select), whose
// holders are likewise the callers past it. The state is the signature
// table's id. Not a [roles] key: what each state is, a Go fact.
var structuralAcquires = []struct{ resource, state string }{
	{slotResource, "chan-send"},
	{weightedResource, "semaphore-wait"},
}

// acquireSite is the frame of t's application code that asked the pool
// (see above), or with below 1 its next application frame down (the
// caller of the application's own wrapper of the pool); nil when t shows
// none.
func acquireSite(rt parse.Runtime, t *parse.Thread, below int) *parse.Frame {
	from := 0
	if rt == parse.RuntimeJVM {
		if i := borrowAt(t); i >= 0 {
			from = i + 1
		}
	}
	for _, f := range t.Frames[min(from, len(t.Frames)):] {
		if isAppFrame(rt, f) {
			if below == 0 {
				return f
			}
			below--
		}
	}
	return nil
}

// acqSite is an acquire site: a function and the line it waits at.
type acqSite struct {
	fn   string
	line int
}

// pastAcquire are the threads of ts (one moment's) past the acquire of
// the waiters (see above), in ts's order; none when no waiter prints its
// site's line. A JVM pool's waiters that show no holder past their first
// application frame are tried once more at the frame under it: the
// application's own wrapper of the pool (a DAO's connection helper) has
// returned in its holders, which are past the wrapper's caller. Once, not
// further down, where a worker's loop or a dispatcher every thread of the
// pool shares would stand; not for a Go chan send, whose caller's later
// lines (a worker's loop sending its result) hold no slot.
func pastAcquire(rt parse.Runtime, ts []*parse.Thread, waiters map[*parse.Thread]bool) []*parse.Thread {
	out := pastSite(rt, ts, waiters, 0)
	if len(out) == 0 && rt == parse.RuntimeJVM {
		out = pastSite(rt, ts, waiters, 1)
	}
	return out
}

// pastSite is pastAcquire at the waiters' acquire sites below frames down.
func pastSite(rt parse.Runtime, ts []*parse.Thread, waiters map[*parse.Thread]bool, below int) []*parse.Thread {
	var sites []acqSite
	for t := range waiters {
		if f := acquireSite(rt, t, below); f != nil && f.Line > 0 && !slices.Contains(sites, acqSite{f.Func, f.Line}) {
			sites = append(sites, acqSite{f.Func, f.Line})
		}
	}
	if len(sites) == 0 {
		return nil
	}
	var out []*parse.Thread
	for _, t := range ts {
		if waiters[t] {
			continue
		}
		// Below the top: it called something from the function. A Go
		// goroutine parked in a channel operation or a select prints no
		// runtime frame above its own before Go 1.14's tracebacks (Go
		// 1.13: `main.convert` at the top, in chan receive): its top is
		// then the function itself, waiting at the later line.
		from := 1
		if rt == parse.RuntimeGo && len(t.Frames) > 0 && !strings.HasPrefix(t.State, "running") && !strings.HasPrefix(t.State, "runnable") {
			from = 0
		}
		if slices.ContainsFunc(t.Frames[min(from, len(t.Frames)):], func(f *parse.Frame) bool {
			return slices.ContainsFunc(sites, func(s acqSite) bool { return f.Func == s.fn && f.Line > s.line })
		}) {
			out = append(out, t)
		}
	}
	return out
}

// holderGroups groups the holders hs of moment m by their pool, state and
// via (the group each is filed in) and their own culprit (a group's is its
// majority's, and a holder may share a group with threads before the
// acquire), most first, and returns the groups that are mostly holders at
// m: a group the holders' finding explains.
func holderGroups(r *Result, m int, hs []*parse.Thread) ([]HolderGroup, []*Group) {
	is := map[*parse.Thread]bool{}
	for _, t := range hs {
		is[t] = true
	}
	type hk struct{ pool, state, via, culprit string }
	count := map[hk]int{}
	var order []hk
	var explained []*Group
	for _, pl := range r.Pools {
		for _, g := range pl.States {
			n := 0
			for _, t := range g.Threads[m] {
				if !is[t] {
					continue
				}
				k := hk{pl.Name, g.State, g.Via, FrameString(culprit(r.Runtime, t))}
				if _, ok := count[k]; !ok {
					order = append(order, k)
				}
				count[k] += max(t.Weight, 1)
				n += max(t.Weight, 1)
			}
			if n > 0 && 2*n > g.Counts[m] {
				explained = append(explained, g)
			}
		}
	}
	out := make([]HolderGroup, 0, len(order))
	for _, k := range order {
		out = append(out, HolderGroup{Pool: k.pool, State: k.state, Via: k.via, Culprit: k.culprit, Count: count[k]})
	}
	slices.SortStableFunc(out, func(a, b HolderGroup) int { return b.Count - a.Count })
	return out, explained
}

// slotResource is the resource of a buffered channel used as a
// semaphore, weightedResource of golang.org/x/sync/semaphore.Weighted:
// their waiters are found by semaphoreAcquire, not by a signature row alone.
const (
	slotResource     = "slot"
	weightedResource = "weighted-permit"
)

// structural: res is a resource whose waiters are found by structure.
func structural(res string) bool {
	return slices.ContainsFunc(structuralAcquires, func(a struct{ resource, state string }) bool { return a.resource == res })
}

// semaphoreAcquire: g is goroutines in res's acquire (structuralAcquires)
// with goroutines past it in the same function at the moment most of g
// wait: a semaphore's acquire (not, for a chan send, a send nobody
// receives).
func semaphoreAcquire(r *Result, g *Group, res string) bool {
	if r.Runtime != parse.RuntimeGo || !slices.Contains(structuralAcquires, struct{ resource, state string }{res, g.State}) {
		return false
	}
	at := peakAt(g.Counts)
	d := r.Moments[at].Dump
	if d == nil || g.Counts[at] == 0 {
		return false
	}
	ws := map[*parse.Thread]bool{}
	for _, t := range g.Threads[at] {
		ws[t] = true
	}
	return len(pastAcquire(r.Runtime, d.Threads, ws)) > 0
}

// poolTurnsOver: over several moments, the pool's holders by structure
// (pastAcquire) at each moment its waiters wait are other threads than at
// the moment before, no waiter waited at every moment, and the waiters
// are never more than the holders (each gets an item within one round of
// the pool): the items go round, the pool is busy at its edge, not
// exhausted (a healthy twin's shape: pool2-holders-healthy,
// go-chansem-healthy). A single moment, one holder seen at two moments
// in a row, or a queue longer than the pool (96 requests behind 10
// connections that turn over: hikari-pool-exhausted) says nothing of the
// kind.
func poolTurnsOver(r *Result, waiters []*Group) bool {
	n := len(r.Moments)
	if n < 2 {
		return false
	}
	for _, g := range waiters {
		if g.Always > 0 {
			return false
		}
	}
	var prev map[threadID]bool
	seen := 0
	for m := range n {
		d := r.Moments[m].Dump
		ws := map[*parse.Thread]bool{}
		for _, g := range waiters {
			for _, t := range g.Threads[m] {
				ws[t] = true
			}
		}
		if d == nil || len(ws) == 0 {
			prev = nil
			continue
		}
		ids := map[threadID]bool{}
		hs := pastAcquire(r.Runtime, d.Threads, ws)
		if len(ws) > len(hs) {
			return false
		}
		for _, t := range hs {
			id := identity(r.Runtime, t)
			if id == (threadID{}) || prev[id] {
				return false // a holder kept at two moments in a row, or one not told apart
			}
			ids[id] = true
		}
		prev = ids
		seen++
	}
	return seen >= 2
}

// heldByVia: at moment m some thread holds res under a client that says
// so (a JDBC driver's read holds a db-connection: Via.Holds), the
// holders the detector names first.
func heldByVia(r *Result, res string, m int) bool {
	for _, q := range r.Pools {
		for _, h := range q.States {
			if h.Holds == res && h.Counts[m] > 0 && h.Resource != res && !h.Rest && h.Category != Idle && !q.Internal {
				return true
			}
		}
	}
	return false
}
