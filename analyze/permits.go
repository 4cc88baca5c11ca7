package analyze

import (
	"slices"
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// A semaphore's permits, held by threads the dump prints as no owner
// (issue 33, "the holder first"): a Semaphore is no ownable synchronizer,
// so neither jstack nor ThreadMXBean names who holds its permits, and its
// waiters, parked in Semaphore.acquire, read as "bulkhead full" with no
// cause. The stacks' structure ties them: a thread that called the same
// acquire from the same method and is now deeper in that method, past
// the acquire's line, got its permit there and holds it while it works
// (acquire(); try { work } finally { release(); }): what it does is the
// waiters' cause (permit-stuck: three fetchers in a socket read under
// PermitApp.fetch, five parked in acquire from PermitApp.call).
//
// Of the threads past the acquire in that method, only those at the first
// line reached past it are taken: the work the permit guards comes right
// after its acquire, and a thread further down (its sleep after the
// release, the next iteration's bookkeeping) has given its permit back
// (permit-healthy: fetchers caught in the 10 ms sleep after release).
// A stack the dump cut above the method (ThreadInfo.toString keeps 8
// frames) may be a holder's: then no holder is named. Permits acquired
// elsewhere, by other code, or leaked by a path that never released, are
// not seen: the threads past the acquire would be taken for their holders
// (the rule's known limit). The tie is
// inferred (basis "permit-holders") and kept out of the lock graph: a
// permit has several holders, and a cycle through one of them is no
// deadlock while another may release (lockgraph.go reads waitOf only).

// basisPermit: a semaphore's waiters and the permit holders their stacks
// show (permits.go).
const basisPermit = "permit-holders"

// permitAcquires are the frames of Semaphore's acquire methods: the
// waiter's call site is the first frame under them outside the JDK.
// Not a [roles] key: the JDK's Semaphore, a JDK fact.
var permitAcquires = []string{"java.util.concurrent.Semaphore.acquire", "java.util.concurrent.Semaphore.tryAcquire"}

// permitWait is where t waits for a semaphore's permit: the parking
// lock (the Semaphore's Sync, with its address) and the frame that
// called acquire; ok false when t waits for no permit.
func permitWait(t *parse.Thread) (lock parse.Lock, site *parse.Frame, ok bool) {
	for _, l := range t.Locks() {
		if l.Kind == parse.LockParking && l.Address != "" && strings.Contains(l.Class[strings.LastIndexByte(l.Class, '.')+1:], "Semaphore") {
			lock, ok = l, true
			break
		}
	}
	if !ok {
		return parse.Lock{}, nil, false
	}
	in := false
	for _, f := range t.Frames {
		switch {
		case anyPrefix(f.Func, permitAcquires):
			in = true
		case in && !anyPrefix(f.Func, jdkPrefixes):
			return lock, f, true
		}
	}
	return parse.Lock{}, nil, false
}

// permitWaits finds the permit waits of d and their holders by structure
// (see above), keyed by waiting thread; nil when d has none.
func permitWaits(d *parse.Dump) map[*parse.Thread]structuralWait {
	if d == nil || d.Format.Runtime() != parse.RuntimeJVM {
		return nil
	}
	type site struct {
		fn   string
		line int
		lock lockKey
	}
	var out map[*parse.Thread]structuralWait
	waiting := map[*parse.Thread]site{}
	var sites []site
	for _, t := range d.Threads {
		if t.JVM == nil {
			continue
		}
		if l, f, ok := permitWait(t); ok {
			s := site{f.Func, f.Line, lockKey{l.Address, l.Class}}
			if _, seen := waiting[t]; !seen {
				waiting[t] = s
			}
			if !containsSite(sites, s, func(a, b site) bool { return a == b }) {
				sites = append(sites, s)
			}
		}
	}
	if len(waiting) == 0 {
		return nil
	}
	// A stack the dump cut (ThreadInfo's 8 frames) may hide a holder's
	// frame in the method: then the first line past the acquire that the
	// dump shows proves nothing, and no holder is named.
	var cut []*parse.Thread
	for _, u := range d.Threads {
		if _, w := waiting[u]; !w && u.JVM != nil && u.JVM.StackCut {
			cut = append(cut, u)
		}
	}
	holders := map[site][]*parse.Thread{}
	for _, s := range sites {
		if slices.ContainsFunc(cut, func(u *parse.Thread) bool {
			return !slices.ContainsFunc(u.Frames, func(f *parse.Frame) bool { return f.Func == s.fn })
		}) {
			continue
		}
		first := 0 // the first line past the acquire where a thread is
		var at []*parse.Thread
		for _, u := range d.Threads {
			if _, w := waiting[u]; w || u.JVM == nil {
				continue
			}
			for k, f := range u.Frames {
				if k == 0 || f.Func != s.fn || f.Line <= s.line || s.line == 0 {
					continue // its top is the method itself, not deeper; a line not printed says nothing
				}
				switch {
				case first == 0 || f.Line < first:
					first, at = f.Line, []*parse.Thread{u}
				case f.Line == first:
					at = append(at, u)
				}
				break
			}
		}
		holders[s] = at
	}
	out = map[*parse.Thread]structuralWait{}
	for t, s := range waiting {
		w := structuralWait{lock: s.lock, basis: basisPermit, holders: holders[s]}
		if len(w.holders) > 0 {
			w.holder = w.holders[0]
		}
		out[t] = w
	}
	return out
}

func containsSite[T any](xs []T, x T, eq func(a, b T) bool) bool {
	for _, y := range xs {
		if eq(x, y) {
			return true
		}
	}
	return false
}
