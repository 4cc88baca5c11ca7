package analyze

import (
	"maps"
	"slices"
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// Two-sided waits: cycles that pass through a wait/notify or a Condition,
// which no lock line closes (issue 33, "two-sided waits tied").
//
// A nested wait: a thread holds a lock L (a monitor it entered, or a
// java.util.concurrent lock it owns) and waits, untimed, for a notify or a
// signal on another object X (Object.wait releases X's monitor only; a
// Condition's await releases its own lock only). The threads blocked on L
// cannot enter; when one of them runs code of the class the holder waits
// in, it is the thread that would notify X (a class notifies what its own
// methods wait on), and the two wait for each other: a lock-out
// (testdata/verdicts/twosided-stuck: session-keeper holds the table and
// waits on its refreshed signal, which session-refresher, blocked on the
// table, sends). So it is when no application thread is free to send it:
// all but the holder wait untimed or are blocked
// (testdata/verdicts/nested-queue-stuck: a producer holds the queue while
// it waits on a "full" signal the consumers, blocked on the queue, send).
//
// A lost wake-up: threads wait, untimed, on one object's monitor from two
// or more of that object's own methods (a bounded buffer's put waiting for
// room, its take for items) at every moment, the very same threads, and no
// other thread is inside the object or waits to enter it: each side waits
// for the other to notify, which only a notify that woke the wrong side
// (notify rather than notifyAll) or a missed signal explains.

// nestedWait is one holder's wait at one moment: the lock it holds while
// waiting, the object it waits on, and the threads blocked on the lock,
// split into those running the holder's class (tied) and the others.
type nestedWait struct {
	holder      *parse.Thread
	lock        lockKey
	waitsOn     lockKey
	tied, other []*parse.Thread
}

// nestedWaitsAt finds the nested waits of dump d.
func nestedWaitsAt(rt parse.Runtime, d *parse.Dump) []nestedWait {
	dl := newDumpLocks(d)
	blocked := map[*parse.Thread][]*parse.Thread{} // holder → threads blocked on a lock it holds
	lockOf := map[*parse.Thread]lockKey{}
	for _, t := range d.Threads {
		k, o, _, ok := dl.waitOf(t)
		if !ok || o == nil || o == t {
			continue
		}
		if _, seen := lockOf[o]; seen && lockOf[o] != k {
			continue // a holder of several locks: the first met is its story
		}
		lockOf[o] = k
		blocked[o] = append(blocked[o], t)
	}
	var out []nestedWait
	for _, o := range d.Threads {
		ws := blocked[o]
		if len(ws) == 0 || o.State != "WAITING" {
			continue
		}
		on, ok := untimedSignalWait(o)
		if !ok || on.addr == lockOf[o].addr {
			continue
		}
		class := callerClass(rt, o)
		if class == "" {
			continue
		}
		nw := nestedWait{holder: o, lock: lockOf[o], waitsOn: on}
		for _, w := range ws {
			if runsClass(w, class) {
				nw.tied = append(nw.tied, w)
			} else {
				nw.other = append(nw.other, w)
			}
		}
		if len(nw.tied) == 0 && noneFree(rt, d, o, ws) {
			// No thread runs the holder's class, but none is free to
			// send the notify either: every other application thread
			// waits, untimed, or is blocked on the lock.
			nw.tied, nw.other = nw.other, nil
		}
		if len(nw.tied) > 0 {
			out = append(out, nw)
		}
	}
	return out
}

// noneFree reports whether no application thread of d but holder and
// the threads blocked on its lock could act: each waits untimed (WAITING,
// BLOCKED). A thread that runs, is runnable (in I/O: its reply may come)
// or waits with a timeout may still notify.
func noneFree(rt parse.Runtime, d *parse.Dump, holder *parse.Thread, blocked []*parse.Thread) bool {
	for _, t := range d.Threads {
		if t == holder || slices.Contains(blocked, t) || culprit(rt, t) == nil {
			continue
		}
		if t.State != "WAITING" && t.State != "BLOCKED" {
			return false
		}
	}
	return true
}

// untimedSignalWait is the object t waits on for a notify or a signal:
// a monitor it waits on (Object.wait) or a Condition it parks on; ok is
// false for any other wait (a lock, a latch, a future: no signal from a
// peer's code ends those).
func untimedSignalWait(t *parse.Thread) (lockKey, bool) {
	if k, ok := waitedMonitor(t); ok {
		return k, true
	}
	for _, l := range t.Locks() {
		if l.Kind == parse.LockParking && l.Address != "" && strings.HasSuffix(l.Class, "$ConditionObject") {
			return lockKey{l.Address, l.Class}, true
		}
	}
	return lockKey{}, false
}

// waitedMonitor is the monitor t waits on in Object.wait. JDK 17 prints
// "- waiting on <no object reference available>" under wait()'s own
// frame (wait() calling wait(0)); the monitor is then the one the caller
// printed as "- locked" right below, which the wait released.
func waitedMonitor(t *parse.Thread) (lockKey, bool) {
	ls := t.Locks()
	for i, l := range ls {
		if l.Kind != parse.LockWaitingOn {
			continue
		}
		if l.Address != "" {
			return lockKey{l.Address, l.Class}, true
		}
		for _, h := range ls[i+1:] {
			if h.Kind == parse.LockHeld && h.Address != "" {
				return lockKey{h.Address, h.Class}, true
			}
		}
		return lockKey{}, false
	}
	return lockKey{}, false
}

// callerClass is the class of t's first application frame: whose wait it
// is ("com.example.SessionTable" for SessionTable.awaitRefresh).
func callerClass(rt parse.Runtime, t *parse.Thread) string {
	c := culprit(rt, t)
	if c == nil {
		return ""
	}
	return classOf(c.Func)
}

// classOf is a JVM function's class: "a.b.C" of "a.b.C.m", "a.b.C" of a
// lambda's "a.b.C.lambda$m$0".
func classOf(fn string) string {
	if i := strings.LastIndexByte(fn, '.'); i > 0 {
		return fn[:i]
	}
	return ""
}

// runsClass reports whether one of t's frames is a method of class (or of
// a class nested in it).
func runsClass(t *parse.Thread, class string) bool {
	for _, f := range t.Frames {
		c := classOf(f.Func)
		if c == class || strings.HasPrefix(c, class+"$") {
			return true
		}
	}
	return false
}

// nestedWaitFindings are the nested waits seen with the same holder, on
// a lock of the same class, at every moment from their first, two at
// least: deadlocks (basis nested-wait), the holder first.
func nestedWaitFindings(p *Pass) []Finding {
	r := p.R
	if r.Runtime != parse.RuntimeJVM || len(r.Moments) < 2 {
		return nil
	}
	type key struct {
		holder threadID
		class  string // the lock's class: the GC may move it
	}
	seen := map[key][]*nestedWait{}
	var order []key
	for m, mo := range r.Moments {
		if mo.Dump == nil {
			continue
		}
		for _, nw := range nestedWaitsAt(r.Runtime, mo.Dump) {
			k := key{identity(r.Runtime, nw.holder), nw.lock.class}
			if k.holder == (threadID{}) || p.own(ClaimsThreads).threads[m][nw.holder] != "" {
				continue // a cycle found before tells it (a hand-off's, the lock graph's)
			}
			if seen[k] == nil {
				seen[k] = make([]*nestedWait, len(r.Moments))
				order = append(order, k)
			}
			seen[k][m] = &nw
		}
	}
	var fs []Finding
	for _, k := range order {
		at := seen[k]
		since, last := slices.IndexFunc(at, func(nw *nestedWait) bool { return nw != nil }), len(at)-1
		if since < 0 || last-since < 1 || slices.Contains(at[since:], nil) {
			continue // not at every moment from its first to the last, or at one only
		}
		nw := at[last]
		f := Finding{ID: findingID(KindDeadlock, "nested-wait", nw.holder.Name()), Kind: KindDeadlock, Severity: Critical,
			Basis: "nested-wait", Counts: make([]int, len(r.Moments)), At: last, Since: since, FromStart: since == 0}
		p.leadBy(&f, last, nw.holder)
		o := p.ref(last, nw.holder)
		o.Waits = true
		o.WaitsFor = &LockRef{Address: nw.waitsOn.addr, Class: nw.waitsOn.class}
		f.Lock = &LockFact{Address: nw.lock.addr, Class: nw.lock.class, Owner: &o}
		f.Cycle = append(f.Cycle, o)
		for _, w := range nw.tied {
			ref := p.ref(last, w)
			ref.WaitsFor = &LockRef{Address: nw.lock.addr, Class: nw.lock.class, Holder: o.Name}
			f.Cycle = append(f.Cycle, ref)
		}
		for _, w := range nw.other {
			ref := p.ref(last, w)
			ref.WaitsFor = &LockRef{Address: nw.lock.addr, Class: nw.lock.class, Holder: o.Name}
			f.Blocked = append(f.Blocked, ref)
		}
		f.Waiting = len(nw.tied) + len(nw.other)
		for m := since; m <= last; m++ {
			x := at[m]
			ts := append(append([]*parse.Thread{x.holder}, x.tied...), x.other...)
			f.Counts[m] = len(ts)
			f.Evidence = append(f.Evidence, Evidence{Moment: m, Count: len(ts), Threads: names(r.Runtime, ts[:min(len(ts), 5)])})
			for _, t := range ts {
				p.ClaimThread(m, t, f.ID)
			}
		}
		fs = append(fs, f)
	}
	return fs
}

// lostWakeupsAt are, in dump d, the monitors waited on untimed from two or
// more of the monitor's own class's methods, nobody else inside the class
// or entering the monitor: the waiters by monitor address, in dump order.
func lostWakeupsAt(rt parse.Runtime, d *parse.Dump) map[lockKey][]*parse.Thread {
	waiters := map[lockKey][]*parse.Thread{}
	for _, t := range d.Threads {
		if t.JVM == nil || t.State != "WAITING" {
			continue
		}
		if k, ok := waitedMonitor(t); ok {
			waiters[k] = append(waiters[k], t)
		}
	}
	out := map[lockKey][]*parse.Thread{}
	for k, ws := range waiters {
		if len(ws) < 2 {
			continue
		}
		sites := map[string]bool{}
		for _, w := range ws {
			c := culprit(rt, w)
			if c == nil || classOf(c.Func) != k.class {
				sites = nil // a wait from outside the monitor's class: not its own condition
				break
			}
			sites[c.Func] = true
		}
		if len(sites) < 2 {
			continue
		}
		in := map[*parse.Thread]bool{}
		for _, w := range ws {
			in[w] = true
		}
		busy := false
		for _, t := range d.Threads {
			if in[t] {
				continue
			}
			if a, _ := waitsFor(t); a == k.addr || runsClass(t, k.class) {
				busy = true // one inside may still notify, or one entering
				break
			}
		}
		if !busy {
			out[k] = ws
		}
	}
	return out
}

// lostWakeupFindings are the lost wake-ups with the very same waiters at
// every moment from their first, two at least: deadlocks (basis
// lost-wakeup), both sides named.
func lostWakeupFindings(p *Pass) []Finding {
	r := p.R
	if r.Runtime != parse.RuntimeJVM || len(r.Moments) < 2 {
		return nil
	}
	seen := map[string][][]*parse.Thread{} // the monitor's class → its waiters per moment
	var order []string
	for m, mo := range r.Moments {
		if mo.Dump == nil {
			continue
		}
		found := lostWakeupsAt(r.Runtime, mo.Dump)
		for _, k := range slices.SortedFunc(maps.Keys(found), compareLockKeys) {
			if seen[k.class] == nil {
				seen[k.class] = make([][]*parse.Thread, len(r.Moments))
				order = append(order, k.class)
			}
			seen[k.class][m] = found[k]
		}
	}
	var fs []Finding
	for _, class := range order {
		at := seen[class]
		since, last := slices.IndexFunc(at, func(ts []*parse.Thread) bool { return ts != nil }), len(at)-1
		if since < 0 || last-since < 1 {
			continue
		}
		ids := identities(r.Runtime, at[since])
		same := true
		for m := since; m <= last && same; m++ {
			same = at[m] != nil && len(at[m]) == len(at[since]) && sameIdentities(r.Runtime, at[m], ids)
		}
		if !same {
			continue
		}
		ws := at[last]
		// Side by side: the waiters of each of the class's methods, the
		// side met first leading.
		var sides []string
		bySide := map[string][]*parse.Thread{}
		for _, w := range ws {
			c := culprit(r.Runtime, w).Func
			if bySide[c] == nil {
				sides = append(sides, c)
			}
			bySide[c] = append(bySide[c], w)
		}
		f := Finding{ID: findingID(KindDeadlock, "lost-wakeup", class), Kind: KindDeadlock, Severity: Critical, Basis: "lost-wakeup",
			Counts: make([]int, len(r.Moments)), At: last, Since: since, FromStart: since == 0, Same: len(ws), Always: len(ws)}
		mon, _ := waitedMonitor(ws[0])
		addr := mon.addr
		pools, culps := map[string]int{}, map[string]int{}
		for _, side := range sides {
			for _, w := range bySide[side] {
				si := p.info(last, w)
				pools[si.pool]++
				culps[si.culprit]++
				ref := p.ref(last, w)
				ref.WaitsFor = &LockRef{Address: addr, Class: class}
				f.Cycle = append(f.Cycle, ref)
			}
		}
		f.Pool = mostCommon(pools)
		if 2*pools[f.Pool] <= len(ws) {
			f.Pool = ""
		}
		f.Culprits = ranked(culps)
		f.Culprit = f.Cycle[0].Culprit
		f.State = f.Cycle[0].State
		if s := p.signatureByID(r.Runtime, f.State); s != nil {
			f.Resource = s.Resource
		}
		if len(ws[0].Frames) > 0 {
			f.Frame = ws[0].Frames[0].Func
		}
		f.Lock = &LockFact{Address: addr, Class: class}
		f.Waiting = len(ws)
		for m := since; m <= last; m++ {
			f.Counts[m] = len(at[m])
			f.Evidence = append(f.Evidence, Evidence{Moment: m, Count: len(at[m]), Threads: names(r.Runtime, at[m][:min(len(at[m]), 5)])})
			for _, t := range at[m] {
				p.ClaimThread(m, t, f.ID)
			}
		}
		fs = append(fs, f)
	}
	return fs
}
