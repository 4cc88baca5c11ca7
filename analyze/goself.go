package analyze

import (
	"slices"
	"strconv"
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// A Go self-deadlock (issue 33, "cycles of every kind", "the holder
// first"): a goroutine waits for a sync.Mutex or RWMutex that a frame
// further down its own stack took already — a method takes r.mu.Lock and
// calls another method of r that takes r.mu.Lock (or RLock) again. Go's
// locks are not re-entrant, Go prints no owner, and the wait reads as
// plain contention with nobody holding the lock. It is a cycle of one
// goroutine: it never recovers, and every goroutine queued behind that
// lock waits on it.
//
// What the dump can prove is structure, never ownership. A waiter's frames
// print their arguments (debug=2, a SIGQUIT); below the method that calls
// Lock, a frame of a method of the same pointer type on the same value
// (the receiver printed as its first argument) is code of that value that
// reached the lock's method from inside itself. Two facts tie that frame
// to the lock, in order of strength:
//
//   - selfInValue: the lock's printed address lies inside that very value,
//     within argWindow of its receiver (0x144ead986278 is
//     (*registry).Refresh(0x144ead986260)'s field at +0x18): the outer
//     method runs on the object whose lock the goroutine waits for;
//   - selfSameValue: the method that calls Lock prints the same receiver
//     as the outer frame, the lock's address not printed ("(...)", an
//     inlined RLock): the same value, its lock by the method that takes
//     it. A printed address outside the value's first argWindow bytes is
//     no tie: a pointer field's lock (syncthing's lib/sync) prints so, but
//     so does any other object's lock the method takes (a parameter's: a
//     held-out Docker daemon dump's (*Daemon).reducePsContainer locking
//     its container read as a self-deadlock), and the dump cannot tell
//     which.
//
// Neither proves the outer frame took the lock (a method may call a
// locking method of its own value without holding anything: the common,
// healthy case). So the rule also asks that nobody else could hold it —
// no goroutine outside the lock's own waiters prints that value as a
// method's receiver, and the lock graph found no holder by function — and
// that the wait is proven long: the runtime printed LockHeldMinutes, or
// the same goroutine waits the same way at each of the last HeldWaitMin
// moments over HeldSpanSeconds (argCycleHeld). A healthy caller of its
// own value's locking method waits a few milliseconds for a holder that
// prints the value too; nested locks on two values of one type
// ((*node).update locking its child) print two receivers and are no
// self-wait.
const basisSelfLock = "go-self-lock"

// How a self-wait's outer frame is tied to the lock (selfWait.tie).
const (
	selfInValue   = "in-value"
	selfSameValue = "same-value"
)

// selfWait is one goroutine's wait on a lock its own outer frame may hold.
type selfWait struct {
	outer *parse.Frame // the frame of the same value below the lock's caller
	recv  uint64       // that value's address, as printed
	tie   string       // selfInValue or selfSameValue
	off   uint64       // the lock's offset in the value, for selfInValue
}

// selfWaitOf reads t, a goroutine waiting on lock k, for a frame below
// its lock caller that runs a method of the same value (selfWait); ok
// false when none does.
func selfWaitOf(t *parse.Thread, k lockKey) (selfWait, bool) {
	c := lockCaller(t)
	if c == nil || t.GoExtra == nil || len(t.Receivers) == 0 {
		return selfWait{}, false
	}
	ci := slices.Index(t.Frames, c)
	rt := receiverType(c.Func)
	if ci < 0 || rt == "" {
		return selfWait{}, false
	}
	var lock uint64
	if !lockByType(k.addr) && len(k.addr) > 2 {
		lock, _ = strconv.ParseUint(k.addr[2:], 16, 64)
	}
	var callerRecv uint64
	for _, r := range t.Receivers {
		if r.Frame == ci && plainMethod(c.Func) {
			callerRecv = r.Addr
		}
	}
	for _, r := range t.Receivers {
		if r.Frame <= ci || r.Frame >= len(t.Frames) {
			continue
		}
		f := t.Frames[r.Frame]
		if receiverType(f.Func) != rt || !plainMethod(f.Func) {
			continue // a closure's first word is its context, no receiver
		}
		switch {
		case lock != 0 && lock >= r.Addr && lock-r.Addr < argWindow && (callerRecv == 0 || callerRecv == r.Addr):
			return selfWait{outer: f, recv: r.Addr, tie: selfInValue, off: lock - r.Addr}, true
		case callerRecv != 0 && callerRecv == r.Addr && lock == 0:
			// The lock's address not printed: the caller's own value's
			// lock, by the method that takes it. A printed address
			// outside the value may be any object's lock the method
			// takes (a parameter's: (*Daemon).reducePsContainer locking
			// its container), so no tie is claimed for it.
			return selfWait{outer: f, recv: r.Addr, tie: selfSameValue}, true
		}
	}
	return selfWait{}, false
}

// plainMethod: fn is a method itself ("main.(*registry).count"), not a
// closure or a deferred call inside one ("main.(*registry).count.func1"),
// whose first printed word is no receiver.
func plainMethod(fn string) bool {
	i := strings.Index(fn, ".(*")
	if i < 0 {
		return false
	}
	j := strings.Index(fn[i:], ").")
	return j >= 0 && !strings.Contains(fn[i+j+2:], ".")
}

// selfCycles are the moment's self-waits among the waiters no other rule
// put in a cycle: one goroutine each, the lock's other waiters blocked
// behind it (basis go-self-lock). held are the lock graph's holders, ts
// the moment's goroutines.
func (lw *lockWaits) selfCycles(ts []*parse.Thread, held map[lockKey]*parse.Thread, inCycle map[*parse.Thread]bool) []goCycle {
	var out []goCycle
	for _, k := range sortedLockKeys(lw.byKey) {
		a := lw.byKey[k]
		if h := held[k]; h != nil && !slices.Contains(a.threads, h) {
			continue // a goroutine past the lock's Lock call holds it
		}
		var self *parse.Thread
		var sw selfWait
		n := 0
		for _, t := range a.threads {
			if inCycle[t] {
				continue
			}
			if w, ok := selfWaitOf(t, k); ok {
				self, sw = t, w
				n++
			}
		}
		if n != 1 {
			continue // none, or two (one lock has one holder: neither is told)
		}
		// Anybody else in a method of that value could hold the lock.
		rt := receiverType(sw.outer.Func)
		touched := false
		for _, u := range ts {
			if u == self || u.GoExtra == nil || slices.Contains(a.threads, u) {
				continue
			}
			for _, r := range u.Receivers {
				if r.Addr == sw.recv && r.Frame < len(u.Frames) && receiverType(u.Frames[r.Frame].Func) == rt {
					touched = true
					break
				}
			}
			if touched {
				break
			}
		}
		if touched {
			continue
		}
		c := goCycle{members: []*parse.Thread{self}, waits: []lockKey{k}, holders: []*parse.Thread{self}, basis: basisSelfLock, self: &sw}
		for _, t := range a.threads {
			if t != self {
				c.blocked = append(c.blocked, t)
			}
		}
		inCycle[self] = true
		out = append(out, c)
	}
	return out
}

// sortedLockKeys are m's keys in compareLockKeys order.
func sortedLockKeys[V any](m map[lockKey]V) []lockKey {
	ks := make([]lockKey, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.SortFunc(ks, compareLockKeys)
	return ks
}

// writerDrains: t waits in a sync.RWMutex's Lock for the readers to leave
// — the semaphore taken right under RWMutex.Lock (rw.writerSem), not
// under the Mutex.Lock that writers queue on (rw.w) — so the lock is held
// for reading, by goroutines no frame of t names:
//
//	sync.runtime_SemacquireRWMutex(0x0?, 0x0?, 0x0?)     Go 1.20 and later
//	sync.runtime_SemacquireMutex(0xc000086128, 0x0, 0x0)  Go 1.14 to 1.19
//	sync.runtime_Semacquire(0xc000086128)                 Go 1.13 and before
//	sync.(*RWMutex).Lock(0xc000086120)
func writerDrains(t *parse.Thread) bool {
	for i, f := range t.Frames {
		if !strings.HasPrefix(f.Func, "sync.") && !strings.HasPrefix(f.Func, "runtime.") && !strings.HasPrefix(f.Func, "internal/sync.") {
			return false
		}
		if strings.HasSuffix(f.Func, "(*RWMutex).Lock") {
			return i > 0 && strings.HasPrefix(t.Frames[i-1].Func, "sync.runtime_Semacquire")
		}
	}
	return false
}
