package analyze

import (
	"slices"
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// A lock's holder that waits for a signal nobody will send (issue 33, "the
// holder first": a holder that waits is the root cause, and the story says
// why nobody can wake it). The holder waits untimed (WAITING) in
// Object.wait or parked on a condition or latch (not on a lock: the lock
// graph follows those; not on a future: its task is the story), and no
// other thread of the dump can end that wait: each other application
// thread either
//   - waits untimed itself, or is BLOCKED on a lock the holder holds (its
//     waiters: they cannot act until the holder lets go), or
//   - runs no code of the class that would signal: the class of the object
//     waited on (a Feed's monitor is notified from Feed's methods) or, for
//     a JDK latch or condition, the application class that awaits it (the
//     Ledger that awaits its sign-off latch is where the count comes from),
// and the process takes no calls from outside (callbacksIn). Inferred from
// the stacks (a notify from another class's code cannot be ruled out):
// said as such, beside the holder (holder-wait-nosignal-stuck,
// holder-park-nolatch-stuck).

// orphanedHolderWait is the class of what holder waits on when no thread
// of d can signal it (see above); "" when its wait is not such a wait or
// a thread could.
func orphanedHolderWait(p *Pass, m int, d *parse.Dump, holder *parse.Thread) string {
	if holder.State != "WAITING" {
		return ""
	}
	var waited string
	for _, l := range holder.Locks() {
		if l.Kind == parse.LockWaitingOn || l.Kind == parse.LockParking && !isLockClass(l.Class) && !slices.Contains(futureWaits, l.Class) {
			waited = l.Class
			break
		}
	}
	if waited == "" || queueWait(holder) {
		return ""
	}
	signallers := map[string]bool{}
	if !anyPrefix(waited, jdkPackages) {
		signallers[waited] = true
	} else if c := culprit(parse.RuntimeJVM, holder); c != nil {
		signallers[classOf(c.Func)] = true
	}
	if len(signallers) == 0 || callbacksIn(p, m, d) {
		return ""
	}
	held := map[string]bool{}
	for _, l := range holder.Locks() {
		if (l.Kind == parse.LockHeld || l.Kind == parse.LockOwnable) && l.Address != "" {
			held[l.Address] = true
		}
	}
	internal := p.opt.roleTable().JVMInternal
	for _, t := range d.Threads {
		if t == holder || t.JVM == nil || jvmInternal(t, internal) || t.State == "WAITING" {
			continue
		}
		if a, _ := waitsFor(t); a != "" && held[a] {
			continue // its waiter: it acts only once the holder lets go
		}
		for _, f := range t.Frames {
			if signallers[classOf(f.Func)] {
				return ""
			}
		}
	}
	return waited
}

// queueWait: t waits inside a JDK queue or exchanger (a take, a put, a
// transfer): its other side is any thread that holds the queue, in any
// class, which no class of the stacks tells.
func queueWait(t *parse.Thread) bool {
	for _, f := range t.Frames {
		if !anyPrefix(f.Func, jdkPackages) {
			return false
		}
		c := classOf(f.Func)
		simple := c[strings.LastIndexByte(c, '.')+1:] // "LinkedBlockingQueue", not "AbstractQueuedSynchronizer$ConditionObject"
		if strings.HasPrefix(c, "java.util.concurrent.") && !strings.HasPrefix(simple, "AbstractQueued") &&
			(strings.Contains(simple, "Queue") || strings.Contains(simple, "Exchanger")) {
			return true
		}
	}
	return false
}
