package analyze

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// A JDK read-write lock held for reading by nobody who could let it go
// (issue 33, "cycles of every kind", "the holder first"). A
// ReentrantReadWriteLock's read holders are never printed: "Locked
// ownable synchronizers" lists the write lock's owner only. So a thread
// parked for the write lock while no thread lists the lock's sync as its
// own (in a dump that prints those sections) waits for readers. When
// every thread that parks on that sync waits for the write lock, and the
// very same threads wait so at every moment, two moments at least,
// nobody got the lock in between: the readers never left. Where no other
// thread of the application runs the waiters' classes (likelyReader:
// none outside them that could be inside the lock's code), the read
// holder is among the waiters themselves — a thread that holds the read
// lock and asks for the write lock (an upgrade, which
// ReentrantReadWriteLock never grants: it waits for itself, and every
// other writer behind it) — or a thread that took it and is gone without
// unlocking. Either way nothing will release it: a deadlock (basis
// read-held), critical, the likely holders named first (the waiters at a
// place no other waiter shares, the longest-lived first: an upgrader is
// most often one refresh among many plain writers), said as inferred.
//
// With readers waiting too, the writer queued first is the story
// (queued-writer, detect_contention.go); with a thread outside the waiters
// in the lock's classes, that thread is the likely reader (contention).

const basisReadHeld = "read-held"

// rrwlSync is the class of a ReentrantReadWriteLock's sync, which its
// waiters park on (fair or not).
const rrwlSync = "java.util.concurrent.locks.ReentrantReadWriteLock$"

// readHeldAt are, in dump d, the ReentrantReadWriteLocks whose every
// parked thread waits for the write lock while no thread lists the lock
// as owned, in a dump that prints every waiter's ownable synchronizers:
// the waiters by lock, in dump order.
func readHeldAt(d *parse.Dump) map[lockKey][]*parse.Thread {
	waiters := map[lockKey][]*parse.Thread{}
	for _, t := range d.Threads {
		if t.JVM == nil {
			continue
		}
		for _, l := range t.Locks() {
			if l.Kind == parse.LockParking && strings.HasPrefix(l.Class, rrwlSync) && strings.HasSuffix(l.Class, "Sync") {
				k := lockKey{l.Address, l.Class}
				waiters[k] = append(waiters[k], t)
				break
			}
		}
	}
	if len(waiters) == 0 {
		return nil
	}
	owned := map[string]bool{}
	for _, t := range d.Threads {
		for _, l := range t.Locks() {
			if l.Kind == parse.LockOwnable {
				owned[l.Address] = true
			}
		}
	}
	out := map[lockKey][]*parse.Thread{}
	for k, ws := range waiters {
		if owned[k.addr] || slices.ContainsFunc(ws, func(t *parse.Thread) bool { return !t.JVM.Ownables || !writesShared(t) }) {
			continue // an owner printed, nothing printed to tell, or a reader waiting (queued-writer)
		}
		if likelyReader(d, ws) != nil {
			continue // a thread in the lock's classes outside its waiters: the likely reader
		}
		out[k] = ws
	}
	return out
}

// readHeldFindings are the read-held locks seen with the very same
// waiters at every moment with a dump, two at least.
func readHeldFindings(p *Pass) []Finding {
	r := p.R
	if r.Runtime != parse.RuntimeJVM || withDumps(r) < 2 {
		return nil
	}
	// The lock by its class and its waiters' identities: the GC may move
	// the lock between moments, never its waiters' names.
	type seen struct {
		ws []*parse.Thread
		k  lockKey
	}
	at := map[string][]*seen{}
	var order []string
	var moments []int
	for m, mo := range r.Moments {
		if mo.Dump == nil {
			continue
		}
		moments = append(moments, m)
		for k, ws := range readHeldAt(mo.Dump) {
			if slices.ContainsFunc(ws, func(t *parse.Thread) bool { return p.own(ClaimsThreads).threads[m][t] != "" }) {
				continue // a cycle found before tells it
			}
			ids := make([]string, len(ws))
			for i, t := range ws {
				id := identity(r.Runtime, t)
				ids[i] = id.s + "#" + strconv.FormatInt(id.n, 10)
			}
			slices.Sort(ids)
			key := k.class + " " + strings.Join(ids, ",")
			if at[key] == nil {
				at[key] = make([]*seen, len(r.Moments))
				order = append(order, key)
			}
			at[key][m] = &seen{ws, k}
		}
	}
	var fs []Finding
	for _, key := range order {
		if slices.ContainsFunc(moments, func(m int) bool { return at[key][m] == nil }) {
			continue // not at every moment: the lock moved on (a writer got it between)
		}
		first, last := moments[0], moments[len(moments)-1]
		x := at[key][last]
		cands := readHolderCandidates(r.Runtime, x.ws)
		lead := x.ws[0]
		if len(cands) > 0 {
			lead = cands[0]
		}
		f := Finding{ID: findingID(KindDeadlock, basisReadHeld, lead.Name()), Kind: KindDeadlock, Severity: Critical,
			Basis: basisReadHeld, Counts: make([]int, len(r.Moments)), At: last, Since: first, FromStart: first == 0}
		p.leadBy(&f, last, lead)
		f.Lock = &LockFact{Address: x.k.addr, Class: x.k.class, OwnerInferred: true}
		if len(cands) == 0 {
			// Every waiter at a place another shares: none stands out
			// as the upgrader; they all wait for a reader the dump
			// does not show (gone without unlocking, most often).
			for _, w := range x.ws {
				ref := p.ref(last, w)
				ref.WaitsFor = &LockRef{Address: x.k.addr, Class: x.k.class}
				f.Cycle = append(f.Cycle, ref)
			}
		} else {
			// The likeliest holder is the cycle, waiting for itself; the
			// others wait behind it.
			o := p.ref(last, lead)
			o.Waits = true
			f.Lock.Owner = &o
			ref := p.ref(last, lead)
			ref.WaitsFor = &LockRef{Address: x.k.addr, Class: x.k.class, Holder: o.Name, ReadHolder: true}
			f.Cycle = append(f.Cycle, ref)
			for _, w := range x.ws {
				if w != lead {
					ref := p.ref(last, w)
					ref.WaitsFor = &LockRef{Address: x.k.addr, Class: x.k.class, Holder: o.Name, ReadHolder: true}
					f.Blocked = append(f.Blocked, ref)
				}
			}
		}
		f.Waiting = len(x.ws)
		for _, m := range moments {
			ws := at[key][m].ws
			f.Counts[m] = len(ws)
			f.Evidence = append(f.Evidence, Evidence{Moment: m, Count: len(ws), Threads: names(r.Runtime, ws[:min(len(ws), 5)])})
			for _, t := range ws {
				p.ClaimThread(m, t, f.ID)
			}
		}
		fs = append(fs, f)
	}
	return fs
}

// readHolderCandidates orders the waiters ws of a read-held lock by how
// likely each holds the read lock itself: those at a place no other
// waiter shares (their first application frame and line) first — an
// upgrade is one code path, the plain writers queued behind it are often
// many at one — and of those the longest-lived (elapsed=, the thread
// that came first), then dump order. The candidates are the lone ones;
// none when every waiter shares its place with another.
func readHolderCandidates(rt parse.Runtime, ws []*parse.Thread) []*parse.Thread {
	place := func(t *parse.Thread) string { return FrameString(culprit(rt, t)) }
	n := map[string]int{}
	for _, t := range ws {
		n[place(t)]++
	}
	var lone []*parse.Thread
	for _, t := range ws {
		if n[place(t)] == 1 {
			lone = append(lone, t)
		}
	}
	slices.SortStableFunc(lone, func(a, b *parse.Thread) int { return cmp.Compare(b.JVM.Elapsed, a.JVM.Elapsed) })
	return lone
}
