package analyze

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// The contention detector's Go facts are gathered by the build, while it
// walks a moment's goroutines in dump order with each one's slot at hand:
// a lock waiter's class, caller, pool, state, culprit and entry point are
// its slot's, found once per slot (a few hundred) instead of once per
// waiter (a fifth of a million-goroutine dump can wait on locks), and the
// moments are gathered side by side with the rest of their build, not in
// a second pass that left a core idle.

// goMomentLocks are one moment's Go lock waiters, by lock, the inferred
// holders, and the waiters' facts (for locks that count: ContentionMin
// waiters, or one that has waited LockHeldMinutes).
type goMomentLocks struct {
	waiters map[lockKey][]*parse.Thread
	held    map[lockKey]*parse.Thread
	// byValue are the receivers (as printed) of the held locks whose
	// holder the waiters' receiver told (valueHolders).
	byValue map[lockKey]uint64
	facts   map[lockKey]*waiterFacts
	cycles  []goCycle // the deadlock detector's
}

// lockWaits gathers one moment's lock waiters.
type lockWaits struct {
	byKey map[lockKey]*lockAcc
	// lock is each slot's goLock (by slot number), found on first use;
	// a class of "" is not found yet (goLockClass always names one).
	lock []goLock
}

// lockAcc is one lock's waiters in dump order, and how many of them each
// slot holds.
type lockAcc struct {
	threads []*parse.Thread
	slots   map[*slot]int
}

// counts tells whether the lock's waiters are worth a contention finding's
// facts: ContentionMin of them, or one that has waited LockHeldMinutes.
func (a *lockAcc) counts() bool {
	return len(a.threads) >= ContentionMin || longHeld(a.threads) > 0
}

// longHeld is the longest wait, in minutes, the Go runtime prints for any
// of ws when it is LockHeldMinutes or more; 0 otherwise.
func longHeld(ws []*parse.Thread) int {
	most := 0
	for _, t := range ws {
		if t.WaitMinutes >= LockHeldMinutes {
			most = max(most, t.WaitMinutes)
		}
	}
	return most
}

// lockOf is the goLock of slot s, whose threads all share t's frames.
func (lw *lockWaits) lockOf(s *slot, t *parse.Thread) goLock {
	if int(s.n) >= len(lw.lock) {
		lw.lock = append(lw.lock, make([]goLock, int(s.n)+1-len(lw.lock))...)
	}
	if lw.lock[s.n].class == "" {
		lw.lock[s.n] = goLock{class: goLockClass(t), caller: lockCaller(t)}
	}
	return lw.lock[s.n]
}

// add files t, a goroutine of a lock group, when it waits on a lock by
// address (a weighted profile sample names no one address), or, where Go
// printed the lock frame's arguments as "(...)" (an inlined RLock), by the
// receiver type of the method that called Lock (lockByType).
func (lw *lockWaits) add(s *slot, t *parse.Thread) {
	if t.Weight > 1 {
		return
	}
	gl := lw.lockOf(s, t)
	addr := t.WaitAddr
	if unprintedAddr(addr) {
		addr = "" // "Lock(0x0?)": a stale register spill, no address
	}
	if addr == "" {
		if gl.caller == nil {
			return
		}
		if addr = lockScope(gl.caller.Func); addr == "" {
			return
		}
	}
	k := lockKey{addr, gl.class}
	a := lw.byKey[k]
	if a == nil {
		a = &lockAcc{slots: map[*slot]int{}}
		lw.byKey[k] = a
	}
	a.threads = append(a.threads, t)
	a.slots[s]++
}

// done returns the moment's locks: ts are its goroutines as the dump holds
// them and in their slot numbers, table the slots by number.
func (lw *lockWaits) done(ts []*parse.Thread, in []int32, table []*slot) goMomentLocks {
	lw.joinByType()
	out := goMomentLocks{waiters: make(map[lockKey][]*parse.Thread, len(lw.byKey)), facts: map[lockKey]*waiterFacts{}}
	for k, a := range lw.byKey {
		out.waiters[k] = a.threads
		if !a.counts() {
			continue
		}
		// Pool and state are the waiter's group's, culprit and entry point
		// its shape's: counted once a slot.
		wf := newWaiterFacts()
		for s, n := range a.slots {
			e := s.lg.shapes[s.si].Entry
			wf.add(s.lg.key.pool, s.lg.key.state, s.c.culprit, entryKey{e.Func, e.Probe}, n)
		}
		out.facts[k] = wf
	}
	out.held, out.byValue = lw.holders(ts, in, table)
	out.cycles = lw.cycles(ts, out.held)
	return out
}

// joinByType files the waiters of a lock keyed by type (lockByType) under
// the one lock of that class, printed with its address, whose waiters are
// in methods of the same type: an RLock inlined as "(...)" and a writer's
// Lock printing the address wait on the same RWMutex.
func (lw *lockWaits) joinByType() {
	for k, a := range lw.byKey {
		if !lockByType(k.addr) {
			continue
		}
		var into lockKey
		n := 0
		for k2, a2 := range lw.byKey {
			if lockByType(k2.addr) || k2.class != k.class {
				continue
			}
			for s := range a2.slots {
				if c := lw.lock[s.n].caller; c != nil && lockScope(c.Func) == k.addr {
					into, n = k2, n+1
					break
				}
			}
		}
		if n != 1 {
			continue // none, or several values of the type with their addresses: kept apart
		}
		a2 := lw.byKey[into]
		a2.threads = append(a2.threads, a.threads...)
		for s, c := range a.slots {
			a2.slots[s] += c
		}
		delete(lw.byKey, k)
	}
}

// holders guesses the goroutine holding each contended Go lock: Go prints
// no owner, but the holder is often a goroutine of the waiters' own
// function past its Lock call (same function, another line), not waiting
// on the lock itself. A lock with no such goroutine, or several, gets none.
func (lw *lockWaits) holders(ts []*parse.Thread, in []int32, table []*slot) (map[lockKey]*parse.Thread, map[lockKey]uint64) {
	type call struct {
		k     lockKey
		lines map[int]bool // lines of the function's Lock calls
	}
	// Every lock's, counted or not: the lock graph (cycles) asks too.
	byFunc := map[string][]*call{}
	for k, a := range lw.byKey {
		calls := map[string]*call{}
		for s := range a.slots {
			if c := lw.lock[s.n].caller; c != nil {
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
	// byType: the receiver types of the waiters' callers ("main.(*cache)"
	// of main.(*cache).get), for locks a method of the type takes: where
	// no goroutine runs the waiters' own function past its Lock, the
	// holder is often in another method of the same type (a refresh
	// holding the cache's mutex across its read).
	byType := map[string][]lockKey{}
	for k, a := range lw.byKey {
		for s := range a.slots {
			if c := lw.lock[s.n].caller; c != nil {
				if rt := receiverType(c.Func); rt != "" && !slices.Contains(byType[rt], k) {
					byType[rt] = append(byType[rt], k)
				} else if sc := closureParent(c.Func); rt == "" && sc != "" && !slices.Contains(byType[sc], k) {
					// A lock a closure takes is most often a variable its
					// function declared: the holder is in another closure
					// of it (Go 1.13 prints it as the closures' argument,
					// Go 1.26 nothing).
					byType[sc] = append(byType[sc], k)
				}
			}
		}
	}
	if len(byFunc) == 0 && len(byType) == 0 {
		return nil, nil
	}
	// A lock's candidates: how many, and the first in dump order (only a
	// lone candidate is named).
	type cand struct {
		n int
		t *parse.Thread
	}
	cands := map[lockKey]*cand{}
	typeCands := map[lockKey]*cand{}
	waitsOn := map[string]bool{} // lock addresses goroutines wait on
	for k, a := range lw.byKey {
		if len(a.threads) > 0 {
			waitsOn[k.addr] = true
		}
	}
	typed := make([][]lockKey, len(table))
	// The locks a goroutine could hold depend on its frames alone: found
	// once a slot, in frame order, each lock once; a goroutine waiting on
	// a lock itself is not its holder.
	held := make([][]lockKey, len(table))
	found := make([]bool, len(table))
	for i, n := range in {
		if !found[n] {
			found[n] = true
			var ks []lockKey
			for _, f := range ts[i].Frames {
				for _, cl := range byFunc[f.Func] {
					if !cl.lines[f.Line] && !slices.Contains(ks, cl.k) {
						ks = append(ks, cl.k)
					}
				}
			}
			held[n] = ks
			var tk []lockKey
			for _, f := range ts[i].Frames {
				if rt := lockScope(f.Func); rt != "" {
					for _, k := range byType[rt] {
						if !slices.Contains(tk, k) {
							tk = append(tk, k)
						}
					}
				}
			}
			typed[n] = tk
		}
		t := ts[i]
		// A goroutine waiting on a lock is no holder by type: the waiters
		// of the type's other locks are in its methods too (an RLock
		// whose address the dump does not print among them).
		if len(typed[n]) > 0 && !(t.WaitAddr != "" && waitsOn[t.WaitAddr]) && table[n].lg.resrc != "lock" {
			for _, k := range typed[n] {
				if c := typeCands[k]; c != nil {
					c.n++
				} else {
					typeCands[k] = &cand{1, t}
				}
			}
		}
		if len(held[n]) == 0 {
			continue // the goroutine is not read: most hold no contended lock
		}
		for _, k := range held[n] {
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
	// The waiters' receiver, where debug=2 prints it, names the value
	// whose lock they wait for; one goroutine inside a method of that
	// very value, not waiting on the lock, is its likely holder (a flush
	// holding the store's mutex across its fsync), before any guess by
	// function or type.
	byValue := map[lockKey]uint64{}
	for k, h := range lw.valueHolders(ts) {
		out[k], byValue[k] = h.t, h.addr
	}
	for k, c := range typeCands {
		if _, ok := out[k]; !ok && c.n == 1 && cands[k] == nil {
			out[k] = c.t
		}
	}
	return out, byValue
}

// valueHolders are the holders the waiters' receivers tell: for each lock
// whose waiters' lock callers are methods (the frame that called Lock)
// printing their receiver (parse.GoExtra.Receivers, debug=2), the one
// goroutine of ts, waiting in no Lock, that runs a method of the same
// pointer type on the same address (in a syscall, an I/O wait, a read, a
// sleep, a select: whatever it does, it does holding the lock). A lock with no such
// goroutine, or several, gets none: Go prints no owner, and two
// goroutines in the value's methods cannot be told apart.
func (lw *lockWaits) valueHolders(ts []*parse.Thread) map[lockKey]valueHolder {
	type value struct {
		typ  string
		addr uint64
	}
	byValue := map[value][]lockKey{}
	// The waiters that print a receiver: the others cannot be taken for
	// a holder by value below (a map of every waiter cost a
	// million-goroutine dump a fifth of a second a moment).
	waiting := map[*parse.Thread]bool{}
	for k, a := range lw.byKey {
		for _, t := range a.threads {
			if t.GoExtra == nil || len(t.Receivers) == 0 {
				continue
			}
			waiting[t] = true
			c := lockCaller(t)
			if c == nil {
				continue
			}
			rt := receiverType(c.Func)
			if rt == "" {
				continue
			}
			for _, r := range t.Receivers {
				if r.Frame < len(t.Frames) && t.Frames[r.Frame] == c {
					v := value{rt, r.Addr}
					if !slices.Contains(byValue[v], k) {
						byValue[v] = append(byValue[v], k)
					}
					break
				}
			}
		}
	}
	if len(byValue) == 0 {
		return nil
	}
	type cand struct {
		n    int
		t    *parse.Thread
		addr uint64
	}
	cands := map[lockKey]*cand{}
	addrOf := map[lockKey]uint64{}
	for v, ks := range byValue {
		for _, k := range ks {
			addrOf[k] = v.addr
		}
	}
	for _, u := range ts {
		if u.GoExtra == nil || len(u.Receivers) == 0 || waiting[u] {
			// A goroutine waiting in Lock is no holder by value: it may
			// hold the lock and wait for another (a chain the function
			// and type rules read), or be one more waiter of the value.
			continue
		}
		var ks []lockKey // the locks u may hold, each once
		for _, r := range u.Receivers {
			if r.Frame >= len(u.Frames) {
				continue
			}
			for _, k := range byValue[value{receiverType(u.Frames[r.Frame].Func), r.Addr}] {
				if !slices.Contains(ks, k) {
					ks = append(ks, k)
				}
			}
		}
		for _, k := range ks {
			if c := cands[k]; c != nil {
				c.n++
			} else {
				cands[k] = &cand{1, u, addrOf[k]}
			}
		}
	}
	out := map[lockKey]valueHolder{}
	for k, c := range cands {
		if c.n == 1 {
			out[k] = valueHolder{c.t, c.addr}
		}
	}
	return out
}

// valueHolder is a lock's holder told by value, and the receiver it
// shares with the waiters.
type valueHolder struct {
	t    *parse.Thread
	addr uint64
}

// lockByType tells a lock key made of its caller's receiver type, not
// an address: Go printed no address ("sync.(*RWMutex).RLock(...)",
// inlined), and the lock is taken as the one lock of that type's values
// its methods take (c.mu of (*config).get) — one key for every value of
// the type, which is right for the one config or cache of a service.
func lockByType(addr string) bool { return addr != "" && !strings.HasPrefix(addr, "0x") }

// lockScope is what code taking one lock shares when the lock's address
// is not printed: its method's pointer receiver type (receiverType), or,
// for a closure of a plain function ("main.rwStuck.func2"), that function
// ("main.rwStuck"), whose closures share the variables it captured (a
// sync.RWMutex declared in it). "" for a plain function: nothing tells
// which lock it takes.
func lockScope(fn string) string {
	if rt := receiverType(fn); rt != "" {
		return rt
	}
	return closureParent(fn)
}

// closureParent is the function a closure is declared in: "main.rwStuck"
// of "main.rwStuck.func2", "main.rwStuck.func2.1" (Go before 1.21) and
// "main.rwStuck.gowrap1"; "" for a function that is no closure.
func closureParent(fn string) string {
	slash := strings.LastIndexByte(fn, '/') + 1
	cut := len(fn)
	for {
		i := strings.LastIndexByte(fn[slash:cut], '.')
		if i < 0 {
			break
		}
		seg := fn[slash+i+1 : cut]
		if !closureSegment(seg) {
			break
		}
		cut = slash + i
	}
	if cut == len(fn) || !strings.Contains(fn[slash:cut], ".") {
		return ""
	}
	return fn[:cut]
}

// closureSegment: seg is a closure's part of a function's name ("func2",
// "1", "gowrap1", "deferwrap1").
func closureSegment(seg string) bool {
	for _, p := range []string{"func", "gowrap", "deferwrap"} {
		seg = strings.TrimPrefix(seg, p)
	}
	if seg == "" {
		return false
	}
	for _, c := range seg {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// unprintedAddr: a lock address Go printed as a stale word ("0x0?" read
// as 0x0): below 0x10000 no heap or data pointer lies.
func unprintedAddr(addr string) bool {
	if !strings.HasPrefix(addr, "0x") {
		return false
	}
	v, err := strconv.ParseUint(addr[2:], 16, 64)
	return err == nil && v < 0x10000
}

// receiverType is the pointer receiver type of a Go method,
// "main.(*cache)" of "main.(*cache).get" (and of its closures,
// "main.(*cache).get.func1"); "" for a function or a value receiver
// (which a dump cannot tell from a package-level function).
func receiverType(fn string) string {
	i := strings.Index(fn, ".(*")
	if i < 0 {
		return ""
	}
	j := strings.Index(fn[i:], ").")
	if j < 0 {
		return ""
	}
	return fn[:i+j+1]
}

// goCycle is a cycle of goroutines waiting for each other's Go locks, as
// the lock graph infers it (Go prints no owner): each member waits for
// the lock the next one holds.
type goCycle struct {
	members []*parse.Thread
	waits   []lockKey       // what each member waits for
	holders []*parse.Thread // who holds it (the next member)
	blocked []*parse.Thread // waiters of the cycle's locks outside it
	basis   string          // "go-lock-graph", "go-rlock-reentry", "go-arg-graph" (goargs.go), "go-self-lock" (goself.go) or "go-held-pair" (gopairs.go)
	// self is, for a go-self-lock cycle (one member), what ties its outer
	// frame to the lock; nil otherwise.
	self *selfWait
	// asleep are the goroutines asleep beside a go-lock-asleep cycle, the
	// other candidate holders of its locks (golockclosed.go); nil otherwise.
	asleep []*parse.Thread
}

// cycles finds the moment's lock cycles: a waits-for graph whose edges are
// a lock's waiter to its holder. The holders are held's (one goroutine
// runs the code that takes the lock without waiting for it), and two
// more the graph alone can tell:
//   - goroutines waiting at the very same Lock line, each for another lock
//     of the class, none of them with a holder elsewhere, have passed the
//     function's earlier Lock calls and hold what the others wait for:
//     locks taken in opposite orders (transfer(a, b) beside
//     transfer(b, a)).
//   - a goroutine waiting in RLock whose own stack, below the method that
//     calls RLock, runs another method of the same receiver type holds
//     the read lock already (snapshot → count); a writer waiting in Lock
//     waits for it to drain, and it, behind the queued writer, for the
//     writer (go-rlock-reentry).
func (lw *lockWaits) cycles(ts []*parse.Thread, held map[lockKey]*parse.Thread) []goCycle {
	waits := map[*parse.Thread]lockKey{}
	line := map[*parse.Thread]*parse.Frame{} // each waiter's lock caller
	for k, a := range lw.byKey {
		for _, t := range a.threads {
			waits[t] = k
			line[t] = lockCaller(t)
		}
	}
	if len(waits) < 2 {
		// One waiter can still wait on itself (goself.go).
		return lw.selfCycles(ts, held, map[*parse.Thread]bool{})
	}
	var out []goCycle
	inCycle := map[*parse.Thread]bool{}
	// Re-entered read locks behind a queued writer.
	for k, a := range lw.byKey {
		if k.class != "sync.RWMutex" {
			continue
		}
		var reader, writer *parse.Thread
		readers := 0
		for _, t := range a.threads {
			switch {
			case rlockWaiter(t) && reentered(t):
				reader = t
				readers++
			case !rlockWaiter(t) && writer == nil:
				writer = t
			}
		}
		if readers != 1 || writer == nil {
			continue
		}
		c := goCycle{members: []*parse.Thread{reader, writer}, waits: []lockKey{k, k}, holders: []*parse.Thread{writer, reader}, basis: "go-rlock-reentry"}
		for _, t := range a.threads {
			if t != reader && t != writer {
				c.blocked = append(c.blocked, t)
			}
		}
		inCycle[reader], inCycle[writer] = true, true
		out = append(out, c)
	}
	// Goroutines waiting at one Lock line, each for another lock of the
	// class and none of those locks with a holder elsewhere, took the
	// function's earlier locks: each holds one the others wait for (the
	// locks are taken in opposite orders), and every one is in a cycle
	// among them — with two, each holds the other's; with more, which
	// holds which the dump does not print. A line that dozens wait at is a
	// crowd on one lock, no ring.
	type at struct {
		fn   string
		line int
	}
	byLine := map[at][]*parse.Thread{}
	var lines []at
	for _, k := range slices.SortedFunc(maps.Keys(lw.byKey), compareLockKeys) {
		for _, t := range lw.byKey[k].threads {
			if c := line[t]; c != nil && held[k] == nil && !inCycle[t] {
				a := at{c.Func, c.Line}
				if byLine[a] == nil {
					lines = append(lines, a)
				}
				byLine[a] = append(byLine[a], t)
			}
		}
	}
	// A lock is held by one goroutine: the larger group is taken first,
	// and a group waiting for a lock a ring holds is blocked behind it,
	// no ring of its own.
	slices.SortStableFunc(lines, func(a, b at) int { return len(byLine[b]) - len(byLine[a]) })
	ringHeld := map[lockKey]bool{}
	for _, a := range lines {
		ts := byLine[a]
		if len(ts) < 2 || len(ts) > 16 {
			continue
		}
		ring := true
		seen := map[lockKey]bool{}
		var ks []lockKey
		for _, t := range ts {
			k := waits[t]
			if seen[k] || ringHeld[k] || k.class != waits[ts[0]].class {
				ring = false
				break
			}
			seen[k] = true
			ks = append(ks, k)
		}
		// Where the frames print the objects they work on, they must
		// close the ring too (goargs.go).
		ring = ring && argSupported(ts, ks)
		if ring {
			for k := range seen {
				ringHeld[k] = true
			}
		}
		if !ring {
			continue
		}
		c := goCycle{basis: "go-lock-graph"}
		for i, t := range ts {
			c.members = append(c.members, t)
			c.waits = append(c.waits, waits[t])
			var h *parse.Thread
			if len(ts) == 2 {
				h = ts[1-i]
			}
			c.holders = append(c.holders, h)
			inCycle[t] = true
		}
		out = append(out, c)
	}
	// The graph of held's edges: a waiter to the goroutine that runs the
	// lock's code without waiting for it.
	next := map[*parse.Thread]*parse.Thread{}
	for t, k := range waits {
		if h := held[k]; h != nil && h != t && !inCycle[t] {
			next[t] = h
		}
	}
	done := map[*parse.Thread]bool{}
	for _, k := range slices.SortedFunc(maps.Keys(lw.byKey), compareLockKeys) {
		for _, t := range lw.byKey[k].threads {
			if done[t] || inCycle[t] {
				continue
			}
			pos := map[*parse.Thread]int{}
			var path []*parse.Thread
			for cur := t; cur != nil && !done[cur]; cur = next[cur] {
				if i, ok := pos[cur]; ok {
					c := goCycle{basis: "go-lock-graph"}
					for j, m := range path[i:] {
						c.members = append(c.members, m)
						c.waits = append(c.waits, waits[m])
						c.holders = append(c.holders, path[i:][(j+1)%len(path[i:])])
						inCycle[m] = true
					}
					out = append(out, c)
					break
				}
				pos[cur] = len(path)
				path = append(path, cur)
			}
			for _, x := range path {
				done[x] = true
			}
		}
	}
	// What is left: the objects the waiters' own frames name (goargs.go).
	out = append(out, lw.argCycles(ts, held, inCycle)...)
	// A waiter on a lock its own outer frame took (goself.go).
	out = append(out, lw.selfCycles(ts, held, inCycle)...)
	// Two lone waiters on two locks no holder was found for (gopairs.go).
	out = append(out, lw.pairCycles(held, inCycle)...)
	// The waiters of a cycle's locks outside it wait on it.
	for i := range out {
		c := &out[i]
		if c.basis != "go-lock-graph" && c.basis != "go-arg-graph" && c.basis != basisHeldPair {
			continue
		}
		for _, k := range c.waits {
			for _, t := range lw.byKey[k].threads {
				if !inCycle[t] && !slices.Contains(c.members, t) && !slices.Contains(c.blocked, t) {
					c.blocked = append(c.blocked, t)
				}
			}
		}
	}
	return out
}

// rlockWaiter: t waits to take a read lock (an RLock frame on its stack).
func rlockWaiter(t *parse.Thread) bool {
	for _, f := range t.Frames {
		if strings.HasSuffix(f.Func, "(*RWMutex).RLock") || strings.HasSuffix(f.Func, "(*RWMutex).rlock") {
			return true
		}
	}
	return false
}

// reentered: below the method that calls RLock, t's stack runs another
// frame of the same pointer receiver type (or the same function again):
// the read lock that method's type guards was taken already, further
// down (snapshot holding c.mu.RLock calls count, which takes it again).
func reentered(t *parse.Thread) bool {
	c := lockCaller(t)
	if c == nil {
		return false
	}
	rt := receiverType(c.Func)
	below := false
	for _, f := range t.Frames {
		if f == c {
			below = true
			continue
		}
		if below && (f.Func == c.Func || rt != "" && receiverType(f.Func) == rt) {
			return true
		}
	}
	return false
}
