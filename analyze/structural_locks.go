package analyze

import (
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// Waits a JVM dump shows by the stacks' structure rather than by a lock line
// with an address and a holder (issue 33, "cycles of every kind"):
//
//   - A class's initialization. JDK 17+ prints the waiter's
//     "- waiting on the Class initialization monitor for X"; the thread
//     that initializes X is the one with X.<clinit> on its stack (the JVM
//     runs a class's initializer in the thread that first touched it, and
//     lets every other thread wait until it returns). Older HotSpots print
//     only the header's "in Object.wait()" over a RUNNABLE thread with no
//     Object.wait frame: the class is not named, and the initializer is
//     known only when one other thread is inside a <clinit>. OpenJ9's
//     javacore names the initializing thread itself (parse reads it as the
//     lock's owner: the ordinary lock graph closes that cycle).
//   - A class loader's lock. A loader that is not parallel capable is
//     locked, while one of its classes loads, by ClassLoader.loadClass (a
//     "- locked <..> (a the.Loader)" line under loadClass) and by the JVM
//     itself from Class.forName0 (native): a thread BLOCKED there prints no
//     "waiting to lock" line. Its holder is the thread that holds a lock
//     in a loadClass frame, when the dump shows exactly one.

// structuralWait is one thread's wait that the dump shows by structure.
type structuralWait struct {
	// lock names what it waits for: a class's initialization has no
	// address (class: the class; "" when older JVMs do not print it); a
	// loader's lock has the holder's printed address and class.
	lock   lockKey
	holder *parse.Thread // nil when the dump shows no holder
	basis  string        // basisClassInit, basisLoaderLock or basisPermit
	// holders are, for a semaphore's permits (basisPermit), every holder
	// the stacks show, holder the first; nil elsewhere.
	holders []*parse.Thread
}

const (
	basisClassInit  = "class-init"  // a class's initializer and the threads that wait for it
	basisLoaderLock = "loader-lock" // a class loader's lock, its waiters printing no lock line
)

// clinitSuffix ends the frame of a class's static initializer:
// "com.example.cycles.TaxRules.<clinit>".
const clinitSuffix = ".<clinit>"

// classLoadingFrames are the top frames (below the JVM's own) of a thread
// that the JVM blocks on a class loader's lock without a lock line: it
// takes the lock in native code, from these.
// Not a [roles] key: the JDK's class loading natives, a JDK fact.
var classLoadingFrames = []string{
	"java.lang.Class.forName0", "java.lang.ClassLoader.loadClass0", "java.lang.ClassLoader.findLoadedClass0",
	"java.lang.ClassLoader.defineClass0", "java.lang.ClassLoader.defineClass1", "java.lang.ClassLoader.defineClass2",
	"java.lang.ClassLoader.findBootstrapClass",
}

// structuralWaits finds the waits of d that its lock lines do not say
// (see above), keyed by waiting thread. One pass over the threads and
// their frames; nil for a dump with none.
func structuralWaits(d *parse.Dump) map[*parse.Thread]structuralWait {
	if d == nil || d.Format.Runtime() != parse.RuntimeJVM {
		return nil
	}
	var initWaiters, loadWaiters []*parse.Thread
	for _, t := range d.Threads {
		if t.JVM == nil {
			continue
		}
		if a, _ := waitsFor(t); a != "" {
			continue // a printed lock line says it
		}
		switch {
		case classInitWait(t) != "" || unnamedClassInitWait(t):
			initWaiters = append(initWaiters, t)
		case t.State == "BLOCKED" && len(t.Frames) > 0 && anyEqual(t.Frames[0].Func, classLoadingFrames):
			loadWaiters = append(loadWaiters, t)
		}
	}
	if initWaiters == nil && loadWaiters == nil {
		return nil
	}
	out := map[*parse.Thread]structuralWait{}
	if initWaiters != nil {
		// initializers: class → the thread inside its <clinit>; a class
		// two threads initialize (two loaders, one name) names no one.
		initializers := map[string]*parse.Thread{}
		inClinit := map[*parse.Thread]bool{}
		for _, t := range d.Threads {
			for _, f := range t.Frames {
				if c, ok := strings.CutSuffix(f.Func, clinitSuffix); ok {
					inClinit[t] = true
					if o, dup := initializers[c]; dup && o != t {
						initializers[c] = nil
					} else {
						initializers[c] = t
					}
				}
			}
		}
		for _, t := range initWaiters {
			w := structuralWait{basis: basisClassInit}
			if c := classInitWait(t); c != "" {
				w.lock.class = c
				if h := initializers[c]; h != t {
					w.holder = h
				}
			} else {
				// Older HotSpot: the class is not printed; the one other
				// thread inside an initializer is the one it can wait for.
				for o := range inClinit {
					if o == t {
						continue
					}
					if w.holder != nil {
						w.holder = nil
						break
					}
					w.holder = o
				}
			}
			out[t] = w
		}
	}
	if loadWaiters != nil {
		// The loader locks held in loadClass; more than one names no one.
		held := map[lockKey]*parse.Thread{}
		for _, t := range d.Threads {
			for _, l := range t.Locks() {
				if l.Kind != parse.LockHeld || l.Address == "" || l.Frame < 0 || l.Frame >= len(t.Frames) {
					continue
				}
				if strings.HasSuffix(t.Frames[l.Frame].Func, ".loadClass") && !releasedByWait(t, l.Address) {
					held[lockKey{l.Address, l.Class}] = t
				}
			}
		}
		if len(held) == 1 {
			for k, h := range held {
				for _, t := range loadWaiters {
					if h != t {
						out[t] = structuralWait{lock: k, holder: h, basis: basisLoaderLock}
					}
				}
			}
		}
	}
	return out
}

// classInitWait is the class t waits to see initialized, as JDK 17+ prints
// it; "" if none.
func classInitWait(t *parse.Thread) string {
	for _, l := range t.Locks() {
		if l.Kind == parse.LockClassInit && l.Address == "" {
			return l.Class
		}
	}
	return ""
}

// unnamedClassInitWait: an older HotSpot's class-initialization wait, a
// RUNNABLE thread "in Object.wait()" with no Object.wait frame on top.
func unnamedClassInitWait(t *parse.Thread) bool {
	if t.State != "RUNNABLE" || t.Java().StateDetail != "in Object.wait()" || len(t.Frames) == 0 {
		return false
	}
	top := t.Frames[0].Func
	return top != "java.lang.Object.wait" && top != "java.lang.Object.wait0"
}

func anyEqual(s string, xs []string) bool {
	for _, x := range xs {
		if s == x {
			return true
		}
	}
	return false
}

// dumpLocks are one JVM dump's locks: who holds each printed lock, and
// the waits its structure shows.
type dumpLocks struct {
	holder     map[string]*parse.Thread
	structural map[*parse.Thread]structuralWait
	// permits are the semaphore waits and their holders by structure
	// (permits.go): read by the contention detector only (permitOf), never
	// an edge of the lock graph.
	permits map[*parse.Thread]structuralWait
}

func newDumpLocks(d *parse.Dump) dumpLocks {
	return dumpLocks{holder: holders(d), structural: structuralWaits(d), permits: permitWaits(d)}
}

// permitOf is the semaphore t waits for a permit of, with the holders its
// stacks show (permits.go); ok is false when t waits for no permit.
func (dl dumpLocks) permitOf(t *parse.Thread) (w structuralWait, ok bool) {
	w, ok = dl.permits[t]
	return w, ok
}

// waitOf is the lock t waits for and its holder (nil if none is known),
// printed or by structure; ok is false when t waits for no lock.
func (dl dumpLocks) waitOf(t *parse.Thread) (k lockKey, holder *parse.Thread, basis string, ok bool) {
	if a, c := waitsFor(t); a != "" {
		basis := ""
		if isClassInitLock(t, a) {
			basis = basisClassInit // OpenJ9's, printed with its initializing thread
		}
		return lockKey{a, c}, dl.holder[a], basis, true
	}
	if w, found := dl.structural[t]; found {
		return w.lock, w.holder, w.basis, true
	}
	return lockKey{}, nil, "", false
}

// lockName is how a finding's id names a lock: its address, or for a
// class's initialization the class.
func (k lockKey) name() string {
	if k.addr == "" {
		return "class-init " + k.class
	}
	return k.addr
}

// isClassInitLock: t's lock line for addr is a class's initialization.
func isClassInitLock(t *parse.Thread, addr string) bool {
	for _, l := range t.Locks() {
		if l.Kind == parse.LockClassInit && l.Address == addr {
			return true
		}
	}
	return false
}
