package analyze

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/dumpdiff/dumpdiff/parse"
)

// The contention detector's thresholds. What each protects against is said
// once, in the detector's Thresholds below (README.md's table is made from
// them; TestThresholdsBeside keeps each beside its detector).
const (
	ContentionMin   = 5
	ContentionFloor = 2
	ContentionOne   = 1
	ContentionShare = 0.5
	LockHeldMinutes = 1
)

var contentionDetector = &Detector{
	Name:     KindContention,
	Kinds:    []string{KindContention},
	Doc:      "many threads wait for one lock: a JVM monitor or j.u.c lock with its printed owner, a class's initialization (its holder the thread in its <clinit>) or a class loader's lock its waiters print no line for (its holder the thread that took it in loadClass), a read-write lock held for reading (no holder printed) behind the writer queued first, a holder in an untimed wait on a monitor or latch that no thread left could signal (none runs the code that would, but its own waiters: said as the root cause, critical), a Go sync.Mutex or RWMutex (by address) with its likely holder; a Semaphore's waiters behind the permit holders their stacks show (the threads past the same acquire, deeper in the same method: permits.go); event loops blocked on a lock count as a pool's work; one lock across moments even when the GC moved it (by its class, owner and waiters)",
	Requires: []*Detector{deadlockDetector, spinningDetector},
	Claims:   ClaimsThreads,
	Folds:    "nothing; its lock is left to the deadlock when its owner is in or blocked on a cycle, and follows from a spinning owner",
	Thresholds: []Threshold{
		{"ContentionMin", ContentionMin, "threads waiting on one lock at one moment: two or three waiters on a lock are ordinary traffic…"},
		{"ContentionFloor", ContentionFloor, "…unless they are this many or more, run tasks of a pool, are at least ContentionShare of it, and the lock has the same owner at two moments or more: half of a small pool held behind one owner is that pool held; a lock passed from hand to hand between dumps is traffic, and one waiter is any lock's…"},
		{"ContentionOne", ContentionOne, "…except the very same one thread, half its pool or more, behind the very same owner at two moments or more while that owner itself waits (asleep, in I/O: not running): a pool of two with one worker held behind a holder that waits on a remote call is that pool held, the holder its cause; and threads of their own, from this many, the very same ones behind the very same owner that waits at every moment they wait, two or more (they take turns on a lock by design, but not behind a holder asleep or in I/O)"},
		{"ContentionShare", ContentionShare, "share of their pool the waiters of one lock must be to count below ContentionMin: a few waiters of a large pool are traffic"},
		{"LockHeldMinutes", LockHeldMinutes, "a Go lock that one goroutine has waited for this many minutes, as the runtime prints (from 1), counts with any number of waiters: traffic passes in microseconds, and a lock not had in a minute is held by a stuck holder or a cycle (a WaitGroup, a Cond or a channel are not locks and are the leak detector's)"},
	},
	Run: runContention,
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
	goLocks := p.goLocks // gathered by the build
	// heldThreads are, per moment, the threads of the held waits
	// (heldWaits): their lock counts whatever their number; heldLock are
	// the locks they wait for.
	heldThreads := make([]map[*parse.Thread]bool, len(r.Moments))
	for g := range heldWaits(r) {
		for m, ts := range g.Threads {
			if heldThreads[m] == nil {
				heldThreads[m] = map[*parse.Thread]bool{}
			}
			for _, t := range ts {
				heldThreads[m][t] = true
			}
		}
	}
	heldLock := map[lockKey]bool{}
	poolCounts := map[string][]int{}
	for _, pl := range r.Pools {
		poolCounts[pl.Name] = pl.Counts
	}
	// enough tells whether ws, the waiters of lock k at moment m, are
	// enough to count: ContentionMin, or down to ContentionFloor when they
	// are ContentionShare of their pool (at two moments: see below).
	// ownWaiters are, per lock admitted for threads of their own behind
	// an owner that waits, the waiters' identities per moment: the very
	// same at each (see the filter below).
	ownWaiters := map[lockKey][]string{}
	// drained are the Go locks counted for a writer waiting for its
	// readers alone (below ContentionMin, no minutes printed).
	drained := map[lockKey]bool{}
	enough := func(m int, k lockKey, ws []*parse.Thread, oneWaiter, ownerWaits bool) bool {
		if len(ws) >= ContentionMin {
			return true
		}
		if goLocks == nil && heldThreads[m][ws[0]] { // Go's own evidence is the minutes it prints (LockHeldMinutes)
			heldLock[k] = true // a paste of them, or nothing else runs: any count (heldWaits)
			return true
		}
		if goLocks != nil && longHeld(ws) > 0 {
			return true // waited minutes: held, whatever the count
		}
		// A Go writer waiting for readers to drain (writerDrains): the
		// lock is held for reading, by the goroutine the lock graph
		// names; the very same waiters at every moment they wait
		// (checked below) are held by it, whatever their count, one
		// writer alone too.
		drains := goLocks != nil && len(r.Moments) >= 2 && goLocks[m].held[k] != nil && slices.ContainsFunc(ws, writerDrains)
		if drains {
			drained[k] = true
		}
		if !drains && (len(ws) < ContentionOne || len(ws) < ContentionFloor && !oneWaiter || len(r.Moments) < 2) {
			return false
		}
		// Pooled work only (a JVM pool's tasks): threads of their own that
		// take turns on one lock in their loops wait so by design.
		if goLocks != nil {
			if !drains {
				return false
			}
			ownerWaits = true
		}
		pools := map[string]int{}
		tasks := 0
		loops := p.opt.roleTable().EventLoops
		for _, t := range ws {
			pools[p.info(m, t).pool]++
			// An event loop serves every connection of its channels: a
			// pool's work as much as a task is (main-holder-stuck).
			if inPoolTask(t) || anyFramePrefix(t, loops) {
				tasks++
			}
		}
		pool := mostCommon(pools)
		if 2*tasks <= len(ws) || goLocks != nil {
			// Threads of their own take turns on a lock by design, but
			// not behind an owner that waits itself (asleep, in I/O) at
			// every moment they wait, the very same threads: that owner
			// holds them (the filter below checks both).
			if !ownerWaits {
				return false
			}
			if ownWaiters[k] == nil {
				ownWaiters[k] = make([]string, len(r.Moments))
			}
			ids := make([]string, 0, len(ws))
			for _, t := range ws {
				id := identity(r.Runtime, t)
				if id == (threadID{}) {
					return false
				}
				ids = append(ids, fmt.Sprint(id))
			}
			slices.Sort(ids)
			ownWaiters[k][m] = strings.Join(ids, "\x00")
			return true
		}
		if c := poolCounts[pool]; 2*pools[pool] > len(ws) && c != nil {
			return float64(len(ws)) >= ContentionShare*float64(c[m])
		}
		return false
	}
	// ownerIDs are each lock's owner per moment (zero where unknown).
	ownerIDs := map[lockKey][]threadID{}
	// moved maps a lock's address at a later moment to the lock it was
	// (movedLock); addrs are each lock's addresses, in the order seen.
	moved := map[lockKey]lockKey{}
	// ownerFrames are each lock's owner's top frame and culprit per
	// moment: who holds it where the dump prints no thread identity.
	ownerFrames := map[lockKey][]string{}
	ownerFrame := func(m int, o *parse.Thread) string {
		if o == nil || len(o.Frames) == 0 {
			return ""
		}
		return o.Frames[0].Func + " " + p.info(m, o).culprit
	}
	// seenWaiting are the moments each lock had a waiter at, whether they
	// counted or not.
	seenWaiting := map[lockKey][]bool{}
	// owned are each lock's owner at the finding's At.
	owned := map[lockKey]*parse.Thread{}
	// oneIDs are the lone waiter of each lock per moment (ContentionOne).
	oneIDs := map[lockKey][]threadID{}
	addrs := map[lockKey][]string{}
	for m, mo := range r.Moments {
		d := mo.Dump
		if d == nil {
			continue
		}
		waiters := map[lockKey][]*parse.Thread{}
		var owners func(k lockKey, ws []*parse.Thread) (*parse.Thread, bool)
		structural := map[lockKey]string{} // locks known by structure: their basis
		var dl dumpLocks
		switch r.Runtime {
		case parse.RuntimeJVM:
			dl = newDumpLocks(d)
			for _, t := range d.Threads {
				if k, _, basis, ok := dl.waitOf(t); ok {
					waiters[k] = append(waiters[k], t)
					if basis != "" {
						structural[k] = basis
					}
				} else if w, ok := dl.permitOf(t); ok {
					waiters[w.lock] = append(waiters[w.lock], t)
					structural[w.lock] = w.basis
				}
			}
			owners = func(_ lockKey, ws []*parse.Thread) (*parse.Thread, bool) {
				if w, ok := dl.permitOf(ws[0]); ok {
					return w.holder, false
				}
				_, o, _, _ := dl.waitOf(ws[0])
				return o, false
			}
		case parse.RuntimeGo:
			waiters = goLocks[m].waiters
			held := goLocks[m].held
			owners = func(k lockKey, _ []*parse.Thread) (*parse.Thread, bool) { return held[k], true }
		}
		// In a fixed order: a lock the GC moved is matched to the one it
		// was (moved below), the first match taking it.
		keys := slices.SortedFunc(maps.Keys(waiters), compareLockKeys)
		for _, at := range keys {
			ws := waiters[at]
			if seenWaiting[at] == nil {
				seenWaiting[at] = make([]bool, len(r.Moments))
			}
			seenWaiting[at][m] = true
			owner, inferred := owners(at, ws)
			// One waiter counts only behind an owner that waits itself
			// (ContentionOne); the same thread and owner are checked
			// across moments below.
			waits := owner != nil && !inferred && p.signature(m, owner) != nil && p.signature(m, owner).Category != Running
			one := len(ws) == 1 && waits
			if !enough(m, at, ws, one, waits) {
				continue
			}
			// A read-write lock held for reading prints no holder; its
			// readers wait behind the writer queued first, which waits for
			// the read holders (rwlock-stuck).
			var writer *parse.Thread
			writers := 0
			if owner == nil && r.Runtime == parse.RuntimeJVM {
				writer, writers = queuedWriter(ws)
				if writer == nil {
					continue // no owner printed: nothing says who blocks them
				}
				if p.ThreadClaimOf(deadlockDetector, m, writer) != "" {
					continue // the writer they queue behind is in a cycle (through its read holder): the deadlock tells it
				}
			}
			if r.Runtime == parse.RuntimeGo && !slices.ContainsFunc(ws, func(t *parse.Thread) bool { return p.ThreadClaimOf(deadlockDetector, m, t) == "" }) {
				continue // every waiter is in or behind a Go lock cycle: the deadlock tells it
			}
			var spinning string
			if owner != nil {
				if p.ThreadClaimOf(deadlockDetector, m, owner) != "" {
					continue // the owner is in or behind a deadlock: the deadlock tells it
				}
				spinning = p.ThreadClaimOf(spinningDetector, m, owner)
			}
			k := at
			if c, ok := moved[at]; ok {
				k = c
			} else if acc[at] == nil && r.Runtime == parse.RuntimeJVM {
				if c, ok := movedLock(at, m, owner, ws, ownerFrame(m, owner), order, acc, seen{ownerIDs, ownerFrames, claimed}, r.Runtime); ok {
					moved[at], k = c, c
				}
			}
			if seenWaiting[k] == nil {
				seenWaiting[k] = make([]bool, len(r.Moments))
			}
			seenWaiting[k][m] = true // a lock the GC moved: seen under the key it was first
			f := acc[k]
			if f == nil {
				f = &Finding{ID: findingID(KindContention, k.name()), Kind: KindContention, Severity: Warning,
					Counts: make([]int, len(r.Moments)), At: m, Since: m, FromStart: m == 0}
				acc[k] = f
				order = append(order, k)
			}
			f.Counts[m] = len(ws)
			if goLocks != nil {
				if most := longHeld(ws); most > 0 {
					w := f.Wait
					if w == nil {
						w = &WaitFact{MinMinutes: most}
						f.Wait = w
					} else if w.MaxMinutes == 0 {
						w.MinMinutes = most // the fact held a trace's measured wait only
					}
					w.MaxMinutes = max(w.MaxMinutes, most)
					w.MinMinutes = min(w.MinMinutes, most)
					w.Goroutines = max(w.Goroutines, len(ws))
				}
				// An execution trace's measured waits, at the latest moment.
				if d, atLeast := measuredWait(ws); d > 0 {
					if f.Wait == nil {
						f.Wait = &WaitFact{}
					}
					f.Wait.Measured, f.Wait.AtLeast = d, atLeast
				}
			}
			if owner != nil || writer != nil {
				if ownerIDs[k] == nil {
					ownerIDs[k] = make([]threadID, len(r.Moments))
				}
				// The same writer queued at each moment: the lock did not
				// move, as the same owner says for another lock.
				ownerIDs[k][m] = identity(r.Runtime, cmp.Or(owner, writer))
			}
			if owner != nil {
				if ownerFrames[k] == nil {
					ownerFrames[k] = make([]string, len(r.Moments))
				}
				ownerFrames[k][m] = ownerFrame(m, owner)
			}
			if spinning != "" {
				f.CausedBy = spinning // the owner runs while they wait: its loop is their cause
			}
			if claimed[k] == nil {
				claimed[k] = make([][]*parse.Thread, len(r.Moments))
				oneIDs[k] = make([]threadID, len(r.Moments))
			}
			if len(ws) == 1 {
				oneIDs[k][m] = identity(r.Runtime, ws[0])
			}
			claimed[k][m] = ws
			f.Evidence = append(f.Evidence, Evidence{Moment: m, Count: len(ws), Threads: names(r.Runtime, ws[:min(len(ws), 5)])})
			if !slices.Contains(addrs[k], at.addr) {
				addrs[k] = append(addrs[k], at.addr)
			}
			if len(ws) < f.Counts[f.At] && f.Lock != nil {
				continue
			}
			// The facts of the moment with most waiters.
			f.At = m
			f.Lock = &LockFact{Address: at.addr, Class: k.class, OwnerInferred: inferred}
			if owner != nil {
				o := p.ref(m, owner)
				if s := p.signature(m, owner); s != nil && s.Category != Running && s.Category != Other {
					o.Waits = true
				}
				if r.Runtime == parse.RuntimeJVM {
					// A holder that waits itself: for what, and whom.
					if wk, wo, _, ok := dl.waitOf(owner); ok {
						o.WaitsFor = &LockRef{Address: wk.addr, Class: wk.class}
						if wo != nil && wo != owner {
							o.WaitsFor.Holder = threadLabel(r.Runtime, wo)
						}
					} else if d := r.Moments[m].Dump; d != nil {
						o.Orphaned = orphanedHolderWait(p, m, d, owner) // why nobody wakes it
					}
				}
				owned[k] = owner
				f.Lock.Owner = &o
				if w, ok := dl.permitOf(ws[0]); ok && len(w.holders) > 1 {
					// Every permit holder the stacks show, the owner first.
					for _, h := range w.holders {
						hr := p.ref(m, h)
						if s := p.signature(m, h); s != nil && s.Category != Running && s.Category != Other {
							hr.Waits = true
						}
						f.Lock.Holders = append(f.Lock.Holders, hr)
					}
				}
				switch {
				case inferred && goLocks != nil && goLocks[m].byValue[at] != 0:
					f.Basis = "owner-by-receiver"
					f.Lock.OwnerReceiver = fmt.Sprintf("%#x", goLocks[m].byValue[at])
				case inferred:
					f.Basis = "owner-inferred"
				case structural[at] != "":
					f.Basis = structural[at] // a class's initializer, a loader's lock: no lock line says it
				case r.Runtime == parse.RuntimeJVM && parse.IsJoined(owner, at.addr):
					f.Basis = "owner-joined"
					f.Lock.OwnerFrom = lockFrom(owner, at.addr)
				default:
					f.Basis = "owner-printed"
				}
				// A Go writer waiting for the readers to leave: the
				// inferred holder holds the lock for reading, and the
				// writer keeps every new reader out (writerDrains).
				if inferred && r.Runtime == parse.RuntimeGo {
					n := 0
					for _, t := range ws {
						if writerDrains(t) {
							if n++; n == 1 {
								w := p.ref(m, t)
								f.Lock.QueuedWriter, f.Basis = &w, "queued-writer"
							}
						}
					}
					f.Lock.Queued = n
				}
			} else if writer != nil {
				w := p.ref(m, writer)
				f.Lock.QueuedWriter, f.Lock.Queued = &w, writers
				f.Basis = "queued-writer"
				if h := likelyReader(d, ws); h != nil {
					o := p.ref(m, h)
					if s := p.signature(m, h); s != nil && s.Category != Running && s.Category != Other {
						o.Waits = true
					}
					f.Lock.Owner, f.Lock.OwnerInferred = &o, true
				}
			} else {
				f.Basis = "owner-unknown"
			}
			f.Pool, f.State, f.Resource, f.Frame, f.Culprit = "", "", "", "", ""
			var wf *waiterFacts
			if goLocks != nil {
				wf = goLocks[m].facts[k]
			}
			if wf == nil {
				// The JVM's, or a Go lock under the build's counts (a
				// writer waiting for its readers: any count).

				wf = newWaiterFacts()
				for _, t := range ws {
					si := p.info(m, t)
					wf.add(si.pool, si.state, si.culprit, si.entry, 1)
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
	// A lock that never had ContentionMin waiters counts only when one
	// owner held it at every moment they waited, two or more: a small
	// pool behind one lock for an instant, or behind a lock that moves
	// from hand to hand, is traffic. Where one thread waited, it is the
	// very same thread at each of them.
	order = slices.DeleteFunc(order, func(k lockKey) bool {
		// A lock waited on at one moment only, between moments where
		// nobody waits on it at all, was held briefly by a busy holder: traffic
		// that came and went between two dumps (owner-wait-healthy-json:
		// six requests behind a flush's 5 ms database reply, caught at the
		// middle dump of three), whatever the count at that moment.
		if w := seenWaiting[k]; len(w) >= 3 && !w[0] && !w[len(w)-1] && momentsSeen(w) == 1 && acc[k].Wait == nil {
			return true
		}
		if acc[k].Basis == basisPermit {
			// A semaphore's holders are inferred (permits.go): held only
			// when the very same first holder is there at every moment
			// they wait, two or more, whatever the count. A throttle's
			// holders turn over while its queue waits: that is its work
			// (progress-throttle-healthy: 196 waiters behind a fair
			// Semaphore of 2, other holders at each dump).
			var one threadID
			held := 0
			for m, id := range ownerIDs[k] {
				if acc[k].Counts[m] == 0 {
					continue
				}
				if id == (threadID{}) || held > 0 && id != one {
					return true
				}
				one, held = id, held+1
			}
			return held < 2
		}
		if maxOf(acc[k].Counts) >= ContentionMin || acc[k].Wait != nil || heldLock[k] && len(r.Moments) == 1 {
			return false
		}
		if drained[k] && acc[k].Counts[len(r.Moments)-1] == 0 {
			// A few waiters behind a reader that let go by the last
			// moment: a read that took seconds, over now (healthy
			// readers that finish).
			return true
		}
		var one, waiter threadID
		held := 0
		own := ""
		for m, id := range ownerIDs[k] {
			if acc[k].Counts[m] == 0 {
				continue
			}
			if ow := ownWaiters[k]; ow != nil {
				// Threads of their own: the very same at every moment.
				if ow[m] == "" || own != "" && ow[m] != own {
					return true
				}
				own = ow[m]
			}
			if id == (threadID{}) || held > 0 && id != one {
				return true // an owner unknown, or another: the lock moved
			}
			if acc[k].Counts[m] < ContentionFloor {
				// One waiter: the very same thread at each moment.
				w := oneIDs[k][m]
				if w == (threadID{}) || waiter != (threadID{}) && w != waiter {
					return true
				}
				waiter = w
			}
			one, held = id, held+1
		}
		return held < 2
	})
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
	// A holder that waits among another lock's waiters: that lock is the
	// root, this contention follows from it (the holder first, issue 33).
	for _, k := range order {
		f := acc[k]
		o := owned[k]
		if f.CausedBy != "" || o == nil {
			continue
		}
		for _, k2 := range order {
			if k2 != k && claimed[k2] != nil && slices.Contains(claimed[k2][f.At], o) {
				f.CausedBy = acc[k2].ID
				break
			}
		}
	}
	var fs []Finding
	for _, k := range order {
		f := acc[k]
		if o := f.Lock.Owner; o != nil && o.Orphaned != "" && momentsSeen(seenWaiting[k]) >= 2 && f.CausedBy == "" {
			// Its holder waits for a signal no thread left can send, at
			// two moments or more: the lock is never let go.
			f.Severity = Critical
		}
		if len(addrs[k]) > 1 {
			f.Lock.Addresses = addrs[k]
		}
		for _, pl := range r.Pools {
			if pl.Name == f.Pool {
				f.PoolCounts = pl.Counts
				unseenMonitors(r, f, pl)
			}
		}
		fs = append(fs, *f)
	}
	// Claim the waiters, so that a rise of their state tells it is caused
	// by the lock: each moment's claims are its own map, so the moments
	// are claimed side by side (at 1M goroutines a moment, a fifth of them
	// lock waiters, the claims were a tenth of a second on one core).
	var wg sync.WaitGroup
	for m := range r.Moments {
		wg.Go(func() {
			n := 0
			for _, k := range order {
				if c := claimed[k]; c != nil {
					n += len(c[m])
				}
			}
			p.reserveClaims(m, n)
			for _, k := range order {
				if c := claimed[k]; c != nil {
					for _, t := range c[m] {
						p.ClaimThread(m, t, acc[k].ID)
					}
				}
			}
		})
	}
	wg.Wait()
	return fs
}

// waiterFacts count a lock's waiters by pool, state, culprit and entry.
type waiterFacts struct {
	pools, states, culps map[string]int
	ents                 map[entryKey]int
}

func newWaiterFacts() *waiterFacts {
	return &waiterFacts{pools: map[string]int{}, states: map[string]int{}, culps: map[string]int{}, ents: map[entryKey]int{}}
}

// add counts n waiters of one pool, state, culprit and entry.
func (w *waiterFacts) add(pool, state, culprit string, entry entryKey, n int) {
	w.pools[pool] += n
	w.states[state] += n
	if culprit != "" {
		w.culps[culprit] += n
	}
	if entry.fn != "" {
		w.ents[entry] += n
	}
}

// goLock is what contention reads of a Go lock waiter's stack.
type goLock struct {
	class  string       // goLockClass
	caller *parse.Frame // lockCaller
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

// lockFrom is where the owner's held lock at addr came from (Lock.From).
func lockFrom(t *parse.Thread, addr string) string {
	for _, l := range t.Locks() {
		if l.Address == addr && l.From != "" {
			return l.From
		}
	}
	return ""
}

// compareLockKeys orders locks by address, then class.
func compareLockKeys(a, b lockKey) int {
	if c := strings.Compare(a.addr, b.addr); c != 0 {
		return c
	}
	return strings.Compare(a.class, b.class)
}

// seen is what each lock's finding saw per moment: its owner's identity
// and frames, and its waiters.
type seen struct {
	ownerIDs    map[lockKey][]threadID
	ownerFrames map[lockKey][]string
	claimed     map[lockKey][][]*parse.Thread
}

// movedLock finds the lock that lock k, first seen at moment m, was at an
// earlier moment before the garbage collector moved it (issue 33: a
// compacting collection gives the very same monitor another address at
// the next dump, and one story of contention became two or three). A
// lock is an object: its class stays, and so do the threads around it. k
// is taken for an earlier lock of its class, not seen at m, whose owner
// at an earlier moment is k's owner now, or whose waiters were, for the
// most part, k's waiters now (identities: name and native id; where the
// dump prints none, the owner's top frame and culprit, frame); the one
// such lock, else none. ok is false when there is none, or more than one.
func movedLock(k lockKey, m int, owner *parse.Thread, ws []*parse.Thread, frame string, order []lockKey, acc map[lockKey]*Finding,
	s seen, rt parse.Runtime) (lockKey, bool) {
	if k.addr == "" || k.class == "" {
		return lockKey{}, false // a class's initialization has no address to move
	}
	var oid threadID
	if owner != nil {
		oid = identity(rt, owner)
	}
	now := map[threadID]bool{}
	for _, t := range ws {
		if id := identity(rt, t); id != (threadID{}) {
			now[id] = true
		}
	}
	var found lockKey
	n := 0
	for _, c := range order {
		if c.class != k.class || c.addr == "" || acc[c].Counts[m] != 0 {
			continue
		}
		same := false
		for e := 0; e < m && !same; e++ {
			if s.ownerIDs[c] != nil {
				was := s.ownerIDs[c][e]
				if oid != (threadID{}) && was == oid {
					same = true
					break
				}
				// No identity printed: the owner's frames tell it.
				if (oid == (threadID{}) || was == (threadID{})) && frame != "" && s.ownerFrames[c] != nil && s.ownerFrames[c][e] == frame {
					same = true
					break
				}
			}
			if cl := s.claimed[c]; cl != nil && len(cl[e]) > 0 {
				shared := 0
				for _, t := range cl[e] {
					if now[identity(rt, t)] {
						shared++
					}
				}
				// Most of the smaller side: waiters come and go, the
				// lock's crowd stays.
				same = 2*shared > min(len(cl[e]), len(ws))
			}
		}
		if same {
			found, n = c, n+1
		}
	}
	return found, n == 1
}

// sharedLocks are the locks that readers share and a writer takes alone:
// the frames a writer and a reader wait in. A queued writer lets no new
// reader in (the JDK's ReentrantReadWriteLock, fair or not, and
// StampedLock), so the readers waiting with a writer wait behind it.
// Not a [roles] key: the JDK's read-write locks and how they queue, a JDK
// fact.
var sharedLocks = []struct{ writer, reader []string }{
	{[]string{"java.util.concurrent.locks.ReentrantReadWriteLock$WriteLock.*"},
		[]string{"java.util.concurrent.locks.ReentrantReadWriteLock$ReadLock.*"}},
	{[]string{"java.util.concurrent.locks.StampedLock.writeLock*", "java.util.concurrent.locks.StampedLock.tryWriteLock"},
		[]string{"java.util.concurrent.locks.StampedLock.readLock*", "java.util.concurrent.locks.StampedLock.tryReadLock"}},
}

// queuedWriter is, among the waiters ws of one lock, the first that
// waits to take it for writing while another waits to read it, and how
// many wait to write; nil when no reader and writer wait together.
func queuedWriter(ws []*parse.Thread) (*parse.Thread, int) {
	for _, sl := range sharedLocks {
		var first *parse.Thread
		writers, readers := 0, 0
		for _, t := range ws {
			switch {
			case inTop(t, sl.writer, 8):
				if first == nil {
					first = t
				}
				writers++
			case inTop(t, sl.reader, 8):
				readers++
			}
		}
		if first != nil && readers > 0 {
			return first, writers
		}
	}
	return nil, 0
}

// inTop reports whether one of t's top n frames matches anchors.
func inTop(t *parse.Thread, anchors []string, n int) bool {
	for _, f := range t.Frames[:min(len(t.Frames), n)] {
		if anchorMatch(anchors, f.Func) {
			return true
		}
	}
	return false
}

// likelyReader is the thread that likely holds a read-write lock for
// reading when the dump prints no holder: the one thread, not among its
// waiters ws, that runs a method of a class whose methods take the lock
// (the waiters' first application frames: "RwLockApp$Catalog.query"
// takes it, "RwLockApp$Catalog.refresh" runs past it). nil when none or
// more than one: then nothing tells which.
func likelyReader(d *parse.Dump, ws []*parse.Thread) *parse.Thread {
	classes := map[string]bool{}
	waiting := map[*parse.Thread]bool{}
	for _, t := range ws {
		waiting[t] = true
		if c := culprit(parse.RuntimeJVM, t); c != nil {
			if i := strings.LastIndexByte(c.Func, '.'); i > 0 {
				classes[c.Func[:i]] = true
			}
		}
	}
	var found *parse.Thread
	for _, t := range d.Threads {
		if waiting[t] {
			continue
		}
		for _, f := range t.Frames {
			if i := strings.LastIndexByte(f.Func, '.'); i > 0 && classes[f.Func[:i]] {
				if found != nil {
					return nil
				}
				found = t
				break
			}
		}
	}
	return found
}

// unseenMonitors counts f's waiters at the moments whose dump records no
// monitor (Dump.NoMonitors: a heap dump beside jstack moments) as the
// threads of f's pool in f's state there: such a moment cannot say which
// monitor they wait for, and a 0 there was read as the contention gone
// ("8 → 0" beside a jstack whose 8 were BLOCKED in the same frames). A
// moment whose dump prints monitors keeps what it shows.
func unseenMonitors(r *Result, f *Finding, pl *Pool) {
	if f.State == "" {
		return
	}
	for m := range r.Moments {
		if d := r.Moments[m].Dump; d == nil || !d.NoMonitors || f.Counts[m] != 0 {
			continue
		}
		for _, g := range pl.States {
			if g.State == f.State && m < len(g.Counts) {
				f.Counts[m] += g.Counts[m]
			}
		}
	}
}

// momentsSeen is how many moments of w are true.
func momentsSeen(w []bool) int {
	n := 0
	for _, x := range w {
		if x {
			n++
		}
	}
	return n
}
