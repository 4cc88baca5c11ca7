package analyze

import (
	"slices"
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// lockGraph is the waits-for graph of one JVM dump: who holds each lock,
// and for each blocked thread the thread it waits for.
type lockGraph struct {
	locks dumpLocks                       // printed holders and the waits the structure shows
	next  map[*parse.Thread]*parse.Thread // blocked thread → holder of what it waits for
	// handoffs are the producers whose edge is a hand-off: they wait for
	// room that only the hand-off's one consumer thread makes.
	handoffs map[*parse.Thread]*handoffSide
	// futures are the threads whose edge is a future they wait for, to a
	// thread running a future's task (futureEdges).
	futures map[*parse.Thread]bool
	// readers are the writers whose edge is to the likely read holder of
	// the read-write lock they wait for (readerEdges): HotSpot prints no
	// reader, the edge is inferred.
	readers map[*parse.Thread]bool
}

func newLockGraph(d *parse.Dump) *lockGraph {
	g := &lockGraph{locks: newDumpLocks(d), next: map[*parse.Thread]*parse.Thread{}}
	var producers []*parse.Thread
	for _, t := range d.Threads {
		if _, o, _, ok := g.locks.waitOf(t); ok && o != nil && o != t {
			g.next[t] = o
		} else if waitsOnObject(t) && handoffOf(t) != nil {
			producers = append(producers, t)
		}
	}
	// A producer of a library's hand-off waits for its consumer thread
	// (the side's own loop): when the dump has exactly one, that is an
	// edge as a lock's holder is (log4j1-cycle-stuck: the AsyncAppender's
	// dispatcher, blocked on the logger its producer holds).
	// Each side's consumers are found once: a thousand producers of one
	// appender share its one consumer.
	type found struct {
		one *parse.Thread
		n   int
	}
	sides := map[*handoffSide]found{}
	for _, t := range producers {
		side := handoffOf(t)
		if !side.Loop {
			continue // a JDK queue's consumers are any thread's: no one edge
		}
		c, ok := sides[side]
		if !ok {
			for _, x := range d.Threads {
				if consumes(x, side) && handoffOf(x) == nil {
					c.one, c.n = x, c.n+1
				}
			}
			sides[side] = c
		}
		if one := c.one; c.n == 1 && one != t {
			if g.handoffs == nil {
				g.handoffs = map[*parse.Thread]*handoffSide{}
			}
			g.next[t], g.handoffs[t] = one, side
		}
	}
	g.readerEdges(d)
	g.futureEdges(d)
	return g
}

// readerEdges adds, for a thread waiting to write a read-write lock whose
// holder no line prints (a read lock's holders never are), an edge to the
// lock's likely reader (likelyReader: the one thread outside its waiters
// that runs the class whose methods take it). Inferred, and said so
// (LockRef.ReadHolder): with it, a reader that waits for a future whose
// task wants the write lock closes a cycle no lock line prints
// (rw-future-cf-stuck).
func (g *lockGraph) readerEdges(d *parse.Dump) {
	waiters := map[string][]*parse.Thread{}
	for _, t := range d.Threads {
		if a, _ := waitsFor(t); a != "" && g.next[t] == nil && g.locks.holder[a] == nil {
			waiters[a] = append(waiters[a], t)
		}
	}
	for _, ws := range waiters {
		// A queued writer lets no new reader in: the readers among the
		// waiters wait behind the first writer (queuedWriter), which
		// waits for the read holder.
		w, _ := queuedWriter(ws)
		for _, t := range ws {
			if !writesShared(t) {
				if w != nil {
					g.next[t] = w
				}
				continue
			}
			if r := likelyReader(d, ws); r != nil && r != t {
				if g.readers == nil {
					g.readers = map[*parse.Thread]bool{}
				}
				g.next[t], g.readers[t] = r, true
			}
		}
	}
}

// writesShared: t waits to take a read-write lock for writing.
func writesShared(t *parse.Thread) bool {
	for _, sl := range sharedLocks {
		if inTop(t, sl.writer, 8) {
			return true
		}
	}
	return false
}

// futureRuns are the frames of a thread running a future's task, and
// futureWaits the classes a thread parks on to wait for one: a
// FutureTask's get and its run (an executor's submit); a
// CompletableFuture's join or get (parked on its Signaller) and the task
// of runAsync or supplyAsync on an executor (rw-future-cf-stuck, JDK 17
// and 25 alike).
var (
	futureRuns = []string{"java.util.concurrent.FutureTask.run", "java.util.concurrent.FutureTask.runAndReset",
		"java.util.concurrent.CompletableFuture$AsyncRun.run", "java.util.concurrent.CompletableFuture$AsyncSupply.run"}
	futureWaits = []string{"java.util.concurrent.FutureTask", "java.util.concurrent.CompletableFuture$Signaller"}
)

// futureEdges adds, for a thread waiting on a FutureTask, an edge to the
// thread that runs a future's task when every thread running one waits,
// through the graph, for the waiter itself: whichever of them runs its
// future cannot finish, and a task not started waits behind them in
// their pool (rwlock-stuck: settings-writer holds the write lock and
// waits for a task that waits for the read lock). The dump does not
// print which task a thread runs: the edge goes to the first of them,
// the rest wait on the cycle.
func (g *lockGraph) futureEdges(d *parse.Dump) {
	var waiters, runners []*parse.Thread
	for _, t := range d.Threads {
		if g.next[t] != nil {
			if inTop(t, futureRuns, len(t.Frames)) {
				runners = append(runners, t)
			}
			continue
		}
		for _, l := range t.Locks() {
			if l.Kind == parse.LockParking && slices.Contains(futureWaits, l.Class) {
				waiters = append(waiters, t)
			}
		}
		if inTop(t, futureRuns, len(t.Frames)) {
			runners = append(runners, t)
		}
	}
	for _, w := range waiters {
		var first *parse.Thread
		all := len(runners) > 0
		for _, r := range runners {
			if r == w {
				continue
			}
			if !g.leadsTo(r, w) {
				all = false
				break
			}
			if first == nil {
				first = r
			}
		}
		if all && first != nil {
			if g.futures == nil {
				g.futures = map[*parse.Thread]bool{}
			}
			g.next[w], g.futures[w] = first, true
		}
	}
}

// leadsTo reports whether t's chain of waits reaches to.
func (g *lockGraph) leadsTo(t, to *parse.Thread) bool {
	seen := map[*parse.Thread]bool{}
	for cur := g.next[t]; cur != nil && !seen[cur]; cur = g.next[cur] {
		if cur == to {
			return true
		}
		seen[cur] = true
	}
	return false
}

// waitsOnObject reports whether t waits on a monitor (Object.wait) or
// parks: a printed "waiting on" or "parking to wait for" line.
func waitsOnObject(t *parse.Thread) bool {
	for _, l := range t.Locks() {
		if l.Kind == parse.LockWaitingOn || l.Kind == parse.LockParking {
			return true
		}
	}
	return false
}

// basis is how the cycle's edges are known: basisClassInit when one of
// them is a class's initialization, basisLoaderLock a loader's lock taken
// in native code, else "lock-graph" (every edge a printed lock line).
func (g *lockGraph) basis(cycle []*parse.Thread) string {
	b := "lock-graph"
	for _, t := range cycle {
		if g.handoffs[t] != nil {
			b = basisHandoff
			continue
		}
		if g.futures[t] {
			b = basisFuture
			continue
		}
		if _, _, wb, _ := g.locks.waitOf(t); wb == basisClassInit {
			return wb
		} else if wb != "" {
			b = wb
		}
	}
	return b
}

// basisHandoff: one of the cycle's edges is a producer waiting for the
// one consumer thread of a library's hand-off.
const basisHandoff = "handoff"

// basisFuture: one of the cycle's edges is a thread waiting for a future
// whose every possible runner waits for it.
const basisFuture = "future"

// cycles finds the cycles of the graph, each once, in thread order.
func (g *lockGraph) cycles(d *parse.Dump) [][]*parse.Thread {
	var out [][]*parse.Thread
	done := map[*parse.Thread]bool{}
	for _, t := range d.Threads {
		if done[t] {
			continue
		}
		path := map[*parse.Thread]int{}
		var order []*parse.Thread
		for cur := t; cur != nil && !done[cur]; cur = g.next[cur] {
			if i, ok := path[cur]; ok {
				out = append(out, append([]*parse.Thread(nil), order[i:]...))
				break
			}
			path[cur] = len(order)
			order = append(order, cur)
		}
		for _, x := range order {
			done[x] = true
		}
	}
	return out
}

// blockedOn returns the threads, outside the cycle, whose chain of waits
// leads into it: they wait on the cycle without being part of it.
func (g *lockGraph) blockedOn(d *parse.Dump, cycle []*parse.Thread) []*parse.Thread {
	in := map[*parse.Thread]bool{}
	for _, t := range cycle {
		in[t] = true
	}
	var out []*parse.Thread
	for _, t := range d.Threads {
		if in[t] {
			continue
		}
		seen := map[*parse.Thread]bool{}
		for cur := g.next[t]; cur != nil && !seen[cur]; cur = g.next[cur] {
			seen[cur] = true
			if in[cur] {
				out = append(out, t)
				break
			}
		}
	}
	return out
}

// holders maps lock addresses to the thread holding them (monitors locked
// and ownable synchronizers), then, for a lock no thread prints as held,
// to the owner its waiters print (printedOwners).
func holders(d *parse.Dump) map[string]*parse.Thread {
	h := map[string]*parse.Thread{}
	owned := false
	for _, t := range d.Threads {
		for _, l := range t.Locks() {
			if (l.Kind == parse.LockHeld || l.Kind == parse.LockOwnable) && l.Address != "" {
				// A thread in Object.wait() prints "locked" for a monitor it released
				// (J9: "entered lock"); its "waiting on", "waiting to re-lock" or
				// "Blocked on" line for the same address says so: no thread waits
				// for a monitor it holds.
				if !releasedByWait(t, l.Address) {
					h[l.Address] = t
				}
			}
			owned = owned || l.Owner != ""
		}
	}
	if owned {
		printedOwners(d, h)
	}
	return h
}

// printedOwners adds to h the holders the waiters name: a javacore's
// "Owned by:", ThreadInfo's and OpenJ9 jstack's `owned by "Y" Id=N`,
// IntelliJ's "waiting for Y@N to release lock", a JSON dump's owner. A
// holder's own lines win where it prints the lock (h has it already):
// an owner named by a waiter is the same fact seen from the other side.
// The owner is the thread of that id and name when the id is printed,
// else the one thread of that name; two threads of one name and no id
// name no one; a name no thread of the dump has is a thread the input
// names without its stack.
func printedOwners(d *parse.Dump, h map[string]*parse.Thread) {
	byID := map[int64]*parse.Thread{}
	byName := map[string]*parse.Thread{}
	for _, t := range d.Threads {
		if t.ID != 0 {
			if _, dup := byID[t.ID]; dup {
				byID[t.ID] = nil
			} else {
				byID[t.ID] = t
			}
		}
		if n := t.Name(); n != "" {
			if _, dup := byName[n]; dup {
				byName[n] = nil
			} else {
				byName[n] = t
			}
		}
	}
	// An owner the dump does not hold (a paste of the waiter alone:
	// Arthas's `thread -b`, a ticket's one thread) is still its holder, by
	// name: a thread of that name and id with no stack, one per owner.
	var absent map[string]*parse.Thread
	for _, t := range d.Threads {
		for _, l := range t.Locks() {
			if l.Owner == "" || l.Address == "" || h[l.Address] != nil {
				continue
			}
			o, named := byName[l.Owner]
			if l.OwnerID != 0 {
				if x := byID[l.OwnerID]; x != nil && x.Name() == l.Owner {
					o = x
				} else if _, seen := byID[l.OwnerID]; seen {
					named = true // the id is another thread's: not absent
				}
			}
			if o == nil && !named {
				if o = absent[l.Owner]; o == nil {
					o = &parse.Thread{ID: l.OwnerID, JVM: &parse.JVM{Name: l.Owner}, NoStack: true, Weight: 1}
					if absent == nil {
						absent = map[string]*parse.Thread{}
					}
					absent[l.Owner] = o
				}
			}
			if o != nil && o != t {
				h[l.Address] = o
			}
		}
	}
}

func releasedByWait(t *parse.Thread, addr string) bool {
	for _, l := range t.Locks() {
		if (l.Kind == parse.LockWaitingOn || l.Kind == parse.LockWaitingTo || l.Kind == parse.LockReLocking) && l.Address == addr {
			return true
		}
	}
	return false
}

// waitsFor returns the lock a thread is blocked on: a monitor it waits to
// lock, or a j.u.c lock it parks for; "" if none.
func waitsFor(t *parse.Thread) (addr, class string) {
	for _, l := range t.Locks() {
		switch l.Kind {
		case parse.LockWaitingTo, parse.LockReLocking:
			return l.Address, l.Class
		case parse.LockClassInit:
			// OpenJ9 prints the class-initialization lock's address and
			// its initializing thread (the lock's Owner); HotSpot neither
			// (structuralWaits).
			if l.Address != "" {
				return l.Address, l.Class
			}
		case parse.LockParking:
			if isLockClass(l.Class) {
				return l.Address, l.Class
			}
		}
	}
	return "", ""
}

// isLockClass reports whether a parking blocker is a lock (a thread parks
// behind its owner) rather than a condition, queue or latch (threads park
// there to rest): "java.util.concurrent.locks.ReentrantLock$NonfairSync" is,
// "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject" is not.
func isLockClass(class string) bool {
	simple := class[strings.LastIndexByte(class, '.')+1:]
	for _, notLock := range []string{"Condition", "CountDownLatch", "Semaphore", "CyclicBarrier", "FutureTask", "Phaser", "CompletableFuture"} {
		if strings.Contains(simple, notLock) {
			return false
		}
	}
	return strings.HasPrefix(simple, "ReentrantLock") || strings.HasPrefix(simple, "ReentrantReadWriteLock") ||
		strings.HasPrefix(simple, "StampedLock") || strings.HasSuffix(simple, "Sync") || strings.HasSuffix(simple, "Lock")
}

// lockRef describes the lock t waits for, with its holder; nil if none.
// A class's initialization has no address, and Class is the class.
func (g *lockGraph) lockRef(rt parse.Runtime, t *parse.Thread) *LockRef {
	if side := g.handoffs[t]; side != nil {
		return &LockRef{Handoff: side.Name, Holder: threadLabel(rt, g.next[t])}
	}
	if g.futures[t] {
		return &LockRef{Future: true, Holder: threadLabel(rt, g.next[t])}
	}
	k, o, _, ok := g.locks.waitOf(t)
	if !ok {
		return nil
	}
	ref := &LockRef{Address: k.addr, Class: k.class}
	if o != nil && o != t {
		ref.Holder = threadLabel(rt, o)
	} else if g.readers[t] {
		ref.Holder, ref.ReadHolder = threadLabel(rt, g.next[t]), true
	}
	return ref
}
