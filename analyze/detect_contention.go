package analyze

import (
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/dumpdiff/dumpdiff/parse"
)

var contentionDetector = &Detector{
	Name:     KindContention,
	Kinds:    []string{KindContention},
	Doc:      "many threads wait for one lock: a JVM monitor or j.u.c lock with its printed owner, a Go sync.Mutex or RWMutex (by address) with its likely holder",
	Requires: []string{KindDeadlock},
	Folds:    "nothing; its lock is left to the deadlock when its owner is in or blocked on a cycle",
	Run:      runContention,
}

// lockKey identifies a lock across moments: its address and class.
type lockKey struct{ addr, class string }

func runContention(p *Pass) []Finding {
	r := p.R
	var order []lockKey
	acc := map[lockKey]*Finding{}
	// claimed are the waiters of each finding's lock per moment, kept to be
	// claimed once the findings are made (no second scan of every thread).
	claimed := map[lockKey][][]*parse.Thread{}
	var goLocks []goMomentLocks
	if r.Runtime == parse.RuntimeGo {
		goLocks = goLocksByMoment(r)
	}
	for m, mo := range r.Moments {
		d := mo.Dump
		if d == nil {
			continue
		}
		waiters := map[lockKey][]*parse.Thread{}
		var owners func(k lockKey, ws []*parse.Thread) (*parse.Thread, bool)
		switch r.Runtime {
		case parse.RuntimeJVM:
			h := holders(d)
			for _, t := range d.Threads {
				if a, c := waitsFor(t); a != "" {
					k := lockKey{a, c}
					waiters[k] = append(waiters[k], t)
				}
			}
			owners = func(k lockKey, _ []*parse.Thread) (*parse.Thread, bool) { return h[k.addr], false }
		case parse.RuntimeGo:
			waiters = goLocks[m].waiters
			held := goLocks[m].held
			owners = func(k lockKey, _ []*parse.Thread) (*parse.Thread, bool) { return held[k], true }
		}
		for k, ws := range waiters {
			if len(ws) < ContentionMin {
				continue
			}
			owner, inferred := owners(k, ws)
			if owner == nil && r.Runtime == parse.RuntimeJVM {
				continue // no owner printed: nothing says who blocks them
			}
			if owner != nil && p.ThreadClaim(m, owner) != "" {
				continue // the owner is in or behind a deadlock: the deadlock tells it
			}
			f := acc[k]
			if f == nil {
				f = &Finding{ID: findingID(KindContention, k.addr), Kind: KindContention, Severity: Warning,
					Counts: make([]int, len(r.Moments)), At: m, Since: m, FromStart: m == 0}
				acc[k] = f
				order = append(order, k)
			}
			f.Counts[m] = len(ws)
			if claimed[k] == nil {
				claimed[k] = make([][]*parse.Thread, len(r.Moments))
			}
			claimed[k][m] = ws
			f.Evidence = append(f.Evidence, Evidence{Moment: m, Count: len(ws), Threads: names(r.Runtime, ws[:min(len(ws), 5)])})
			if len(ws) < f.Counts[f.At] && f.Lock != nil {
				continue
			}
			// The facts of the moment with most waiters.
			f.At = m
			f.Lock = &LockFact{Address: k.addr, Class: k.class, OwnerInferred: inferred}
			if owner != nil {
				o := p.ref(owner)
				f.Lock.Owner = &o
				if inferred {
					f.Basis = "owner-inferred"
				} else {
					f.Basis = "owner-printed"
				}
			} else {
				f.Basis = "owner-unknown"
			}
			f.Pool, f.State, f.Resource, f.Frame, f.Culprit = "", "", "", "", ""
			var wf *waiterFacts
			if goLocks != nil {
				wf = goLocks[m].facts[k]
			} else {
				wf = newWaiterFacts()
				for _, t := range ws {
					si := p.info(t)
					wf.add(si.pool, si.state, si.culprit, si.entry)
				}
			}
			pools, states, culps, ents := wf.pools, wf.states, wf.culps, wf.ents
			f.Pool, f.State = mostCommon(pools), mostCommon(states)
			if 2*pools[f.Pool] <= len(ws) {
				f.Pool = "" // waiters from many pools: no one pool to name
			}
			if s := p.signatureByID(r.Runtime, f.State); s != nil {
				f.Resource = s.Resource
			}
			f.Culprits = ranked(culps)
			f.Culprit = mostCommon(culps)
			f.Entries = rankedEntries(ents)
			if owner != nil {
				f.Frame = f.Lock.Owner.Frame
			}
		}
	}
	// The waiters map is walked in no fixed order: the findings are put in
	// one (most waiters first, then by lock), so that the same dumps give
	// the same report every run.
	sort.SliceStable(order, func(i, j int) bool {
		a, b := maxOf(acc[order[i]].Counts), maxOf(acc[order[j]].Counts)
		if a != b {
			return a > b
		}
		if order[i].addr != order[j].addr {
			return order[i].addr < order[j].addr
		}
		return order[i].class < order[j].class
	})
	var fs []Finding
	for _, k := range order {
		f := acc[k]
		for _, pl := range r.Pools {
			if pl.Name == f.Pool {
				f.PoolCounts = pl.Counts
			}
		}
		fs = append(fs, *f)
	}
	// Claim the waiters, so that a rise of their state tells it is caused by the lock.
	for m := range r.Moments {
		n := 0
		for _, k := range order {
			if c := claimed[k]; c != nil {
				n += len(c[m])
			}
		}
		p.reserveClaims(m, n)
	}
	for _, k := range order {
		for m, ws := range claimed[k] {
			for _, t := range ws {
				p.ClaimThread(m, t, acc[k].ID)
			}
		}
	}
	return fs
}

// goMomentLocks are one moment's Go lock waiters, by lock, the inferred
// holders, and the waiters' facts (for locks with ContentionMin waiters).
type goMomentLocks struct {
	waiters map[lockKey][]*parse.Thread
	held    map[lockKey]*parse.Thread
	facts   map[lockKey]*waiterFacts
}

// waiterFacts count a lock's waiters by pool, state, culprit and entry.
type waiterFacts struct {
	pools, states, culps map[string]int
	ents                 map[entryKey]int
}

func newWaiterFacts() *waiterFacts {
	return &waiterFacts{pools: map[string]int{}, states: map[string]int{}, culps: map[string]int{}, ents: map[entryKey]int{}}
}

func (w *waiterFacts) add(pool, state, culprit string, entry entryKey) {
	w.pools[pool]++
	w.states[state]++
	if culprit != "" {
		w.culps[culprit]++
	}
	if entry.fn != "" {
		w.ents[entry]++
	}
}

// goLocksByMoment finds every moment's lock waiters and their likely
// holders, the moments side by side (each visits all its goroutines).
func goLocksByMoment(r *Result) []goMomentLocks {
	out := make([]goMomentLocks, len(r.Moments))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for m, mo := range r.Moments {
		if mo.Dump == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			out[m] = goLocksAt(r, m, mo.Dump)
		}()
	}
	wg.Wait()
	return out
}

// goLocksAt finds the lock waiters of moment m in the builder's lock
// groups (not every goroutine need be visited), with the groups' threads
// (labels joined); a lock waited on from several groups gets its waiters
// back in dump order. Then it infers their holders.
func goLocksAt(r *Result, m int, d *parse.Dump) goMomentLocks {
	lc := lockCache{}
	waiters := map[lockKey][]*parse.Thread{}
	from := map[lockKey]int{}
	type waiter struct {
		t *parse.Thread
		g *Group
	}
	byLock := map[lockKey][]waiter{}
	for _, pl := range r.Pools {
		for _, g := range pl.States {
			if g.Resource != "lock" {
				continue
			}
			seen := map[lockKey]bool{}
			for _, t := range g.Threads[m] {
				if t.WaitAddr == "" || t.Weight > 1 {
					continue
				}
				k := lockKey{t.WaitAddr, lc.of(t).class}
				waiters[k] = append(waiters[k], t)
				byLock[k] = append(byLock[k], waiter{t, g})
				if !seen[k] {
					seen[k] = true
					from[k]++
				}
			}
		}
	}
	// The facts of the waiters of each contended lock: pool and state are
	// their group's, culprit and entry point their stack's (once a stack).
	type stackKey struct {
		ref     stackRef
		creator *parse.Creator
	}
	type stackFacts struct {
		culprit string
		entry   entryKey
	}
	sf := map[stackKey]stackFacts{}
	facts := map[lockKey]*waiterFacts{}
	for k, ws := range byLock {
		if len(ws) < ContentionMin {
			continue
		}
		wf := newWaiterFacts()
		for _, w := range ws {
			var sk stackKey
			if len(w.t.Frames) > 0 {
				sk = stackKey{stackRef{&w.t.Frames[0], len(w.t.Frames)}, w.t.CreatedBy}
			}
			s, ok := sf[sk]
			if !ok || sk.ref.first == nil {
				s.culprit = FrameString(culprit(r.Runtime, w.t))
				s.entry.fn, s.entry.probe = entryPoint(r.Runtime, w.t)
				sf[sk] = s
			}
			wf.add(w.g.Pool, w.g.State, s.culprit, s.entry)
		}
		facts[k] = wf
	}
	for k, n := range from {
		if n > 1 {
			slices.SortStableFunc(waiters[k], func(a, b *parse.Thread) int { return a.Line - b.Line })
		}
	}
	return goMomentLocks{waiters: waiters, held: inferGoHolders(d, waiters, lc.of), facts: facts}
}

// goLock is what contention reads of a Go lock waiter's stack.
type goLock struct {
	class  string       // goLockClass
	caller *parse.Frame // lockCaller
}

// stackRef is a goroutine's stack by its shared frames (see slotKey).
type stackRef struct {
	first **parse.Frame
	n     int
}

// lockCache holds goLock by stack, for one moment.
type lockCache map[stackRef]goLock

// of returns goLockClass and lockCaller of t, once per distinct stack: a
// contended lock can have a hundred thousand waiters.
func (c lockCache) of(t *parse.Thread) goLock {
	if len(t.Frames) == 0 {
		return goLock{class: goLockClass(t), caller: lockCaller(t)}
	}
	ref := stackRef{&t.Frames[0], len(t.Frames)}
	if l, ok := c[ref]; ok {
		return l
	}
	l := goLock{class: goLockClass(t), caller: lockCaller(t)}
	c[ref] = l
	return l
}

// goLockClass names the sync type a goroutine waits on: "sync.RWMutex",
// "sync.Mutex".
func goLockClass(t *parse.Thread) string {
	for _, f := range t.Frames {
		switch {
		case strings.Contains(f.Func, "(*RWMutex)"):
			return "sync.RWMutex"
		case strings.Contains(f.Func, "(*Mutex)"):
			return "sync.Mutex"
		}
	}
	return "sync.Mutex"
}

// lockCaller is the frame that called Lock: the first frame below the
// sync and runtime frames ("main.(*store).update").
func lockCaller(t *parse.Thread) *parse.Frame {
	for _, f := range t.Frames {
		if strings.HasPrefix(f.Func, "sync.") || strings.HasPrefix(f.Func, "internal/sync.") || strings.HasPrefix(f.Func, "runtime.") {
			continue
		}
		return f
	}
	return nil
}

// inferGoHolders guesses the goroutine holding each contended Go lock: Go
// prints no owner, but the holder is often a goroutine of the waiters' own
// function past its Lock call (same function, another line), not waiting
// on the lock itself. A lock with no such goroutine, or several, gets none.
// One pass over the dump for all locks: frames × goroutines map lookups.
func inferGoHolders(d *parse.Dump, waiters map[lockKey][]*parse.Thread, lock func(*parse.Thread) goLock) map[lockKey]*parse.Thread {
	type call struct {
		k     lockKey
		lines map[int]bool // lines of the function's Lock calls
	}
	byFunc := map[string][]*call{}
	for k, ws := range waiters {
		if len(ws) < ContentionMin {
			continue
		}
		calls := map[string]*call{}
		for _, t := range ws {
			if c := lock(t).caller; c != nil {
				cl := calls[c.Func]
				if cl == nil {
					cl = &call{k: k, lines: map[int]bool{}}
					calls[c.Func] = cl
					byFunc[c.Func] = append(byFunc[c.Func], cl)
				}
				cl.lines[c.Line] = true
			}
		}
	}
	// A lock's candidates: how many, and the first (only one is a holder).
	type cand struct {
		n int
		t *parse.Thread
	}
	cands := map[lockKey]*cand{}
	if len(byFunc) == 0 {
		return nil
	}
	// The locks a stack could hold depend on its frames alone: found once
	// per distinct stack (the parser shares identical stacks' frames), in
	// frame order, each lock once; a goroutine waiting on a lock itself is
	// not its holder.
	held := map[stackRef][]lockKey{}
	var lastRef stackRef
	var ks []lockKey
	for _, t := range d.Threads {
		if len(t.Frames) == 0 {
			continue
		}
		// Goroutines come in runs of one stack: the last one's locks first.
		if ref := (stackRef{&t.Frames[0], len(t.Frames)}); ref != lastRef {
			lastRef = ref
			var ok bool
			if ks, ok = held[ref]; !ok {
				ks = nil
				for _, f := range t.Frames {
					for _, cl := range byFunc[f.Func] {
						if !cl.lines[f.Line] && !slices.Contains(ks, cl.k) {
							ks = append(ks, cl.k)
						}
					}
				}
				held[ref] = ks
			}
		}
		for _, k := range ks {
			if t.WaitAddr != k.addr {
				if c := cands[k]; c != nil {
					c.n++
				} else {
					cands[k] = &cand{1, t}
				}
			}
		}
	}
	out := map[lockKey]*parse.Thread{}
	for k, c := range cands {
		if c.n == 1 {
			out[k] = c.t
		}
	}
	return out
}

// signatureByID returns the first row of the pass's table (a signatures
// file's rows first) with id for rt.
func (p *Pass) signatureByID(rt parse.Runtime, id string) *Signature {
	for i := range p.sigs {
		if p.sigs[i].Runtime == rt && p.sigs[i].ID == id {
			return &p.sigs[i]
		}
	}
	return nil
}

func firstN(xs []string, n int) []string {
	if len(xs) > n {
		return xs[:n]
	}
	return xs
}
