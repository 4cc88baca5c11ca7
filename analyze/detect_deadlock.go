package analyze

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// The deadlock detector's thresholds; what each protects against is said
// in its Thresholds below (README.md's table is made from them).
const (
	// SelfWaitMoments: see the row (pool_self_wait.go).
	SelfWaitMoments = 2
	// AsleepHoldersMax: see the row (golockclosed.go).
	AsleepHoldersMax = 3
)

var deadlockDetector = &Detector{
	Name:   KindDeadlock,
	Kinds:  []string{KindDeadlock},
	Doc:    "threads that wait for each other in a cycle of locks (the JVM's report or the lock graph, class initializations, class loaders' locks, a producer waiting for its hand-off's one consumer thread and a wait for a future (a FutureTask's or a CompletableFuture's) whose every runner waits for the waiter, and a writer waiting for a read lock's likely holder (inferred, said so) included), a ReentrantReadWriteLock whose every parked thread waits for its write lock, no thread owning it (the dump lists ownable synchronizers) and none outside them in the lock's classes, the very same threads at every moment, two at least: its read holder is among them (an upgrade: the thread alone at its place named first) or gone without unlocking (read-held, readheld.go), a pool whose every worker waits for work queued behind it in the same pool (for a task's result — a FutureTask's, which only a runner of one outside the pool could complete, whatever else runs or reads beside it —, or for its peers at a latch, barrier or phaser whose parties the pool cannot run at once), none of them let through between the dumps and no live thread of the tasks' class left to come, a holder waiting untimed for a notify or signal while threads of its own class that would send it are blocked on a lock it holds (a nested wait), threads waiting untimed on one object from two or more of its own methods with nobody inside it (a lost wake-up: each side waits for the other), Go goroutines each waiting on a mutex the next one's frames name (argument graph) or, with no frame naming either lock, two goroutines on two mutexes that stay put (same ids, lines and locks) at each of the last HeldWaitMin moments over HeldSpanSeconds while no other goroutine out of its rest stays anywhere (a lock waited on for seconds was held all along: gopairs.go), a Go goroutine waiting on a lock that a frame further down its own stack, a method of the same value (the lock a field of it, or the lock's method printing the same receiver), may hold, with no other goroutine inside that value, its wait proven long (a minute printed, or the same wait at the last moments: go-self-lock, goself.go), in one dump every Go goroutine of the application out of its rest waiting on a few mutexes, nothing running or asleep, each mutex left one possible holder among the other mutexes' waiters once those sharing one place are ruled out (closed waits: go-lock-closed, golockclosed.go; with up to AsleepHoldersMax goroutines asleep beside them a likely cycle that names the sleepers as the other candidate holders, go-lock-asleep), a Go mutex whose inferred holder waits untimed in a channel send or receive while others wait for the mutex and nothing else out of its rest stays (its partner can only be among the waiters: go-lock-chan), every Go goroutine out of its rest in a plain channel send or receive (no select: it may hold a timer), one per stack, a sender among them, the same at those moments, or in one dump with nothing else of the application running, runnable or asleep (a listener or a timer keeps the runtime from calling it asleep: go-chan-cycle, gochans.go); an inferred Go cycle seen in one dump is a warning, critical where every member printed a wait of LockHeldMinutes (a mutex's) or at two moments, or a Go program its runtime stopped as asleep (led by a goroutine waiting for a lock, where one does)",
	Claims: ClaimsThreads,
	Folds:  "the JVM's report and the lock graph of the same cycle; the threads that only wait on the cycle; contention on the cycle's locks",
	Thresholds: []Threshold{
		{"AsleepHoldersMax", AsleepHoldersMax, "the most Go goroutines asleep beside a closed lock cycle (every goroutine of the application out of its rest waiting on a few mutexes) that it is still told with, as a likely cycle naming the sleepers as the other candidate holders (go-lock-asleep: a sleeper could hold either lock while asleep; info in one dump, a warning with a minute printed at every member, critical only with the same goroutines at the last two moments): a few background loops (a janitor, main's own pause) leave the cycle the likely story; a crowd of sleepers (requests backing off in a retry) is where a lock is as likely held, and nothing is said"},
		{"SelfWaitMoments", SelfWaitMoments, "moments in a row, to the last, the very same threads of a pool must all wait on its own queued work (none idle, no task runner outside it) to call it deadlocked when several dumps are given: a pool whose tasks wait on their parts for an instant, caught once among several dumps, is at work. One dump alone says it as a warning (likely a thread-starvation deadlock), for futures only: tasks meeting at a barrier all wait at once in passing"},
	},
	Run: runDeadlock,
}

// runDeadlock finds each cycle once across moments. The JVM's report lists
// every thread it found blocked, cycle or not; the lock graph tells the
// cycle from the threads that only wait on it. Without lock lines the
// report's threads are the cycle.
func runDeadlock(p *Pass) []Finding {
	r := p.R
	var fs []Finding
	index := map[string]int{} // cycle key → index in fs
	aged := map[int]bool{}    // findings whose every member printed LockHeldMinutes at a moment
	add := func(m int, d *parse.Dump, lockRef func(*parse.Thread) *LockRef, cycle, blocked []*parse.Thread, basis string) {
		key := cycleKey(cycle)
		i, ok := index[key]
		if !ok {
			f := Finding{ID: "deadlock " + key, Kind: KindDeadlock, Severity: Critical, Basis: basis,
				Counts: make([]int, len(r.Moments)), At: m, Since: m, FromStart: m == 0}
			p.leadBy(&f, m, cycle[0])
			for _, t := range cycle {
				ref := p.ref(m, t)
				if lockRef != nil {
					ref.WaitsFor = lockRef(t)
				}
				f.Cycle = append(f.Cycle, ref)
			}
			i = len(fs)
			index[key] = i
			fs = append(fs, f)
		}
		f := &fs[i]
		if r.Runtime == parse.RuntimeGo && !slices.ContainsFunc(cycle, func(t *parse.Thread) bool { return t.WaitMinutes < LockHeldMinutes }) {
			aged[i] = true
		}
		if f.Basis != basis && basis == "jvm-report" {
			f.Basis = basis // the JVM said so too: the stronger word
		}
		if (f.Basis == basisLockClosed || f.Basis == basisLockAsleep) && basis == basisHeldPair {
			// The pair stayed put across the moments: the stronger word,
			// which rules out a sleeper pausing in its loop at each.
			f.Basis, f.Asleep = basis, nil
		}
		if f.Counts[m] == 0 {
			f.Counts[m] = len(cycle)
			f.Evidence = append(f.Evidence, Evidence{Moment: m, Count: len(cycle), Threads: names(r.Runtime, cycle)})
		}
		have := map[string]bool{}
		for _, b := range f.Blocked {
			have[b.Name] = true
		}
		for _, t := range blocked {
			if !have[threadLabel(r.Runtime, t)] {
				ref := p.ref(m, t)
				if lockRef != nil {
					ref.WaitsFor = lockRef(t)
				}
				f.Blocked = append(f.Blocked, ref)
				have[ref.Name] = true
			}
		}
		for _, t := range cycle {
			p.ClaimThread(m, t, f.ID)
		}
		for _, t := range blocked {
			p.ClaimThread(m, t, f.ID)
		}
	}
	// The sleepers beside a go-lock-asleep cycle, as its last moment shows
	// them: the other candidate holders (golockclosed.go).
	addAsleep := func(m int, c goCycle) {
		if len(c.asleep) == 0 {
			return
		}
		f := &fs[index[cycleKey(c.members)]]
		if f.Basis == basisHeldPair {
			return // the pair stayed, and no sleeper's pause held it so long
		}
		f.Basis = basisLockAsleep
		f.Asleep = f.Asleep[:0]
		for _, t := range c.asleep {
			f.Asleep = append(f.Asleep, p.ref(m, t))
		}
	}
	// A self-wait's structure (goself.go), as first read.
	addSelf := func(c goCycle) {
		if c.self == nil {
			return
		}
		f := &fs[index[cycleKey(c.members)]]
		if f.SelfLock == nil {
			f.SelfLock = &SelfLockFact{Frame: FrameString(c.self.outer), Receiver: "0x" + strconv.FormatUint(c.self.recv, 16),
				InValue: c.self.tie == selfInValue, Offset: c.self.off}
		}
	}
	// The argument graph's cycles the runtime printed no minutes for wait
	// until every moment is read: taken where the same goroutines wait the
	// same way at each of the last moments (argCycleHeld).
	type deferred struct {
		m   int
		add func()
	}
	later := map[string][]deferred{}
	members := map[string][]*parse.Thread{} // a held pair's, as first seen
	var laterOrder []string
	for m, mo := range r.Moments {
		d := mo.Dump
		if d == nil {
			continue
		}
		if r.Runtime == parse.RuntimeGo && p.goLocks != nil {
			// Go prints no owner: the lock graph the build inferred, and
			// the cycles one moment's closed waits prove (golockclosed.go).
			cycles := p.goLocks[m].cycles
			cycles = append(slices.Clip(cycles), closedLockCycles(p, m, cycles)...)
			for _, c := range cycles {
				ref := func(t *parse.Thread) *LockRef {
					for i, x := range c.members {
						if x == t {
							ref := &LockRef{Address: c.waits[i].addr, Class: c.waits[i].class}
							if h := c.holders[i]; h != nil {
								ref.Holder = threadLabel(r.Runtime, h) // nil: one of the others, which is not printed
							}
							return ref
						}
					}
					for _, k := range c.waits {
						if slices.Contains(p.goLocks[m].waiters[k], t) {
							return &LockRef{Address: k.addr, Class: k.class}
						}
					}
					return nil
				}
				// One dump alone: the argument graph's cycle is a warning
				// (goSeverity); a held pair needs moments to stay at (at one
				// moment the closed waits tell it: golockclosed.go).
				// A cycle told beside a sleeper (go-lock-asleep) is held the
				// same way: at the last moments, the same goroutines, or a
				// sleeper that held a lock briefly let the waiters go.
				// A self-wait is told only where its wait is proven long
				// (goself.go): one dump with no minutes printed is a
				// method of the value waiting on a holder that may print
				// no receiver.
				if c.basis == basisSelfLock && !argCycleAged(c) && withDumps(r) < 2 {
					continue
				}
				// With several dumps a self-wait must stay to the last,
				// minutes or not: a self-deadlock never recovers, and one
				// gone by then was a wait for another holder.
				if (c.basis == "go-arg-graph" || c.basis == basisLockAsleep) && !argCycleAged(c) && withDumps(r) > 1 || c.basis == basisHeldPair ||
					c.basis == basisSelfLock && withDumps(r) > 1 {
					k := c.basis + " " + argCycleKey(c)
					if _, ok := later[k]; !ok {
						laterOrder = append(laterOrder, k)
						if c.basis == basisHeldPair {
							members[k] = c.members
						}
					}
					later[k] = append(later[k], deferred{m, func() { add(m, d, ref, c.members, c.blocked, c.basis); addAsleep(m, c); addSelf(c) }})
					continue
				}
				add(m, d, ref, c.members, c.blocked, c.basis)
				addAsleep(m, c)
				addSelf(c)
			}
		}
		if r.Runtime == parse.RuntimeJVM {
			g := newLockGraph(d)
			lockRef := func(t *parse.Thread) *LockRef { return g.lockRef(r.Runtime, t) }
			cycles := g.cycles(d)
			covered := map[int]bool{}
			for _, dl := range d.Deadlocks {
				reported := reportedThreads(d, dl)
				if len(reported) == 0 {
					continue
				}
				inReport := map[*parse.Thread]bool{}
				for _, t := range reported {
					inReport[t] = true
				}
				found := false
				for ci, c := range cycles {
					if subset(c, inReport) {
						covered[ci] = true
						found = true
						add(m, d, lockRef, c, g.blockedOn(d, c), "jvm-report")
					}
				}
				if !found {
					add(m, d, lockRef, reported, nil, "jvm-report")
				}
			}
			for ci, c := range cycles {
				if !covered[ci] {
					add(m, d, lockRef, c, g.blockedOn(d, c), g.basis(c))
				}
			}
		}
		if strings.Contains(d.Headline, "all goroutines are asleep") {
			key := "go-asleep"
			i, ok := index[key]
			if !ok {
				f := Finding{ID: "deadlock go-runtime", Kind: KindDeadlock, Severity: Critical, Basis: "go-runtime",
					Headline: d.Headline, Counts: make([]int, len(r.Moments)), At: m, Since: m}
				// The runtime stops the program when no goroutine can run:
				// every goroutine it printed is a member, and what each
				// waits for is the story (main on a WaitGroup nobody can
				// Done, a worker on a channel nobody can send on). The
				// runtime's own goroutines wait by design.
				var members []*parse.Thread
				for _, t := range d.Threads {
					if pool, internal := poolName(r.Runtime, t, p.opt); !internal {
						if f.Cycle == nil {
							f.Pool = pool
						}
						f.Cycle = append(f.Cycle, p.ref(m, t))
						members = append(members, t)
						p.ClaimThread(m, t, f.ID)
					}
				}
				if len(f.Cycle) > 0 {
					f.State, f.Culprit = f.Cycle[0].State, f.Cycle[0].Culprit // main's, first in the report
					// A lock waiter leads where there is one: a lock stays
					// held only by a goroutine that took it and never let
					// it go (one that returned holding it, or one asleep
					// here), and the waits for a WaitGroup or a channel
					// follow from the goroutines it stopped (main waits
					// for the worker that waits for the lock).
					// Of the lock waiters, the holder first, else the
					// culprit most of them share (leadOf).
					var lockers []*parse.Thread
					for _, t := range members {
						if s := p.signature(m, t); s != nil && s.Resource == "lock" {
							lockers = append(lockers, t)
						}
					}
					if len(lockers) > 0 {
						i := holderAmong(p, m, lockers, members) // it holds what they wait for: the root
						if i < 0 {
							i = slices.Index(members, lockers[majorityCulprit(r.Runtime, lockers)])
						}
						t := members[i]
						lead := f.Cycle[i]
						copy(f.Cycle[1:i+1], f.Cycle[:i])
						f.Cycle[0] = lead
						f.State, f.Culprit = lead.State, lead.Culprit
						f.Pool, _ = poolName(r.Runtime, t, p.opt)
					}
				}
				i = len(fs)
				index[key] = i
				fs = append(fs, f)
			}
			fs[i].Counts[m] = d.ThreadCount()
			fs[i].Evidence = append(fs[i].Evidence, Evidence{Moment: m, Count: d.ThreadCount()})
		}
	}
	for _, k := range laterOrder {
		ds := later[k]
		var ms []int
		for _, x := range ds {
			ms = append(ms, x.m)
		}
		held := argCycleHeld(r, ms)
		if m := members[k]; m != nil {
			held = heldPair(p, ms, m) // a pair no frame ties to its locks: it stayed, and nothing else did
		}
		if held {
			for _, x := range ds {
				x.add()
			}
		}
	}
	// Cycles through channels, which the runtime prints as a deadlock
	// only when nothing at all can run (gochans.go).
	bs, seen := goChanCycles(p)
	for i, at := range seen {
		for _, x := range at {
			add(x.m, r.Moments[x.m].Dump, x.ref, x.members, x.blocked, bs[i])
		}
	}
	goSeverity(r, fs, aged)
	fs = append(fs, poolSelfWaits(p)...)
	fs = append(fs, nestedWaitFindings(p)...)
	fs = append(fs, readHeldFindings(p)...)
	return append(fs, lostWakeupFindings(p)...)
}

func subset(c []*parse.Thread, in map[*parse.Thread]bool) bool {
	for _, t := range c {
		if !in[t] {
			return false
		}
	}
	return true
}

func cycleKey(ts []*parse.Thread) string {
	var ns []string
	for _, t := range ts {
		n := t.Name()
		if n == "" && t.JVM == nil {
			n = threadLabel(parse.RuntimeGo, t) // "goroutine 21": a goroutine has no name
		}
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return strings.Join(ns, ", ")
}

func names(rt parse.Runtime, ts []*parse.Thread) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = threadLabel(rt, t)
	}
	return out
}

// reportedThreads finds the threads of a JVM deadlock report. Names are
// not unique (two pools may both have "Worker-A"): of the threads with an
// edge's name, the one blocked on the lock the edge names is taken.
func reportedThreads(d *parse.Dump, dl parse.Deadlock) []*parse.Thread {
	var out []*parse.Thread
	for _, e := range dl.Cycle {
		var pick *parse.Thread
		for _, t := range d.Threads {
			if t.Name() != e.Thread {
				continue
			}
			if pick == nil {
				pick = t
			}
			if a, _ := waitsFor(t); a != "" && strings.Contains(e.Waiting, a) {
				pick = t
				break
			}
		}
		if pick == nil {
			pick = &parse.Thread{JVM: &parse.JVM{Name: e.Thread}} // not in the dump: the name alone
		}
		out = append(out, pick)
	}
	return out
}

// goInferred are the Go cycles told by structure, Go printing no owner.
var goInferred = map[string]bool{"go-lock-graph": true, "go-arg-graph": true, basisHeldPair: true, basisLockClosed: true, basisLockAsleep: true,
	"go-rlock-reentry": true, basisChanCycle: true, basisSelfLock: true}

// goSeverity lowers an inferred Go cycle seen at one moment only to a
// warning, unless every member has waited LockHeldMinutes or more as the
// runtime prints (the tellers of a transfer caught the instant they met
// look like tellers that will never part; a wait of a minute does not).
// Seen at two moments or more, the same goroutines in the same cycle, it
// stays critical.
func goSeverity(r *Result, fs []Finding, aged map[int]bool) {
	if r.Runtime != parse.RuntimeGo {
		return
	}
	for i := range fs {
		f := &fs[i]
		seen := 0
		for _, c := range f.Counts {
			if c > 0 {
				seen++
			}
		}
		// A channel cycle in one dump stays a warning, minutes or not: a
		// send waits for any receiver, which one dump cannot rule out
		// the way a mutex's waiters rule out its holder.
		if goInferred[f.Basis] && seen < 2 && (!aged[i] || f.Basis == basisChanCycle) {
			f.Severity = Warning
		}
		// A cycle beside sleepers in one dump is two stories the dump
		// cannot tell apart (the waiters hold each other's locks, or a
		// sleeper holds one while it sleeps: a janitor that pauses under
		// its lock, go-gone-sleepflow-healthy's first moment, looks the
		// same): said at info, a possibility to check with a second
		// dump; a warning when every member printed minutes (no loop's
		// pause holds a lock that long), critical only at two moments.
		if f.Basis == basisLockAsleep && seen < 2 {
			f.Severity = Info
			if aged[i] {
				f.Severity = Warning
			}
		}
	}
}

// withDumps is how many moments hold a dump.
func withDumps(r *Result) int {
	n := 0
	for _, mo := range r.Moments {
		if mo.Dump != nil {
			n++
		}
	}
	return n
}

// leadBy gives f the pool, state, resource, top frame and culprit of the
// thread that leads it (a cycle's first member, a lock's likely holder),
// as seen at moment m.
func (p *Pass) leadBy(f *Finding, m int, t *parse.Thread) {
	f.Pool, _ = poolName(p.R.Runtime, t, p.opt)
	s := p.signature(m, t)
	f.State = stateOf(s)
	if s != nil {
		f.Resource = s.Resource
	}
	if len(t.Frames) > 0 {
		f.Frame = t.Frames[0].Func
	}
	f.Culprit = FrameString(culprit(p.R.Runtime, t))
}
