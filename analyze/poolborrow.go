package analyze

import (
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// A pool's borrow above a wait, told by the stack's structure rather than
// by a list of pools (issue 33): a thread parked or in Object.wait whose
// wait was entered, through the JDK's own frames and the pool library's,
// from a method that lends (borrowVerbs) of a class named a pool
// (poolClass) waits for that pool to lend it an item. This is what tells
// commons-pool2 relocated into another jar (Tomcat's
// org.apache.tomcat.dbcp.pool2, a shading plugin's copy), commons-pool 1.x
// (GenericObjectPool$Latch and Object.wait), c3p0, Vibur or MongoDB's
// driver without a row each; rows naming a pool stay where the structure
// cannot tell what the pool lends (a Redis client, an HTTP client) or
// where the wait is no borrow method of a pool (HikariCP's ConcurrentBag).

// BorrowDepth is how many frames below the park plumbing a pool's borrow
// method is looked for: a pool waits a few frames under its borrow
// (commons-pool2: deque, condition, park: 7 on JDK 17 with the
// ForkJoinPool.managedBlock frames), and the limit bounds the scan.
const BorrowDepth = 16

// borrowVerbs are the names a pool lends through, compared with a method's
// name after an optional "try" (tryTake, tryAcquire): a prefix ("borrow"
// takes borrowObject and borrowConnection; "checkout" c3p0's
// checkoutResource) unless it ends in '=' (an exact name: a pool's "get"
// is MongoDB's ConcurrentPool.get, where a prefix would take every getter).
// Not a [roles] key: how libraries name a borrow, for pools no row knows;
// a team's own pool is a [signature] row (resource = pooled-object).
var borrowVerbs = []string{"borrow", "acquire", "lease", "checkout", "checkOut", "obtain", "take", "getConnection", "getResource",
	"getObject", "get="}

// notObjectPools are words in a class's simple name that make a "Pool"
// a pool of threads, not of things lent: its workers' waits are their
// rest (ThreadPoolExecutor, QueuedThreadPool, ForkJoinPool, an event
// loop group), which the pool-idle rows say.
// Not a [roles] key: words of the same naming rule as borrowVerbs; a
// team's own pool is a [signature] row.
var notObjectPools = []string{"ThreadPool", "ForkJoin", "Executor", "EventLoop", "Worker", "Scheduler"}

// waitTops are the frames a thread waiting in a pool's borrow has on top:
// a park (LockSupport, a virtual thread's) or a monitor's wait.
// Not a [roles] key: the JDK's park and monitor wait, a JDK fact.
var waitTops = []string{"jdk.internal.misc.Unsafe.park", "sun.misc.Unsafe.park", "java.lang.Object.wait", "java.lang.Object.wait0",
	"java.lang.VirtualThread.park"}

// jdkPrefixes are the JDK's packages: never a pool of the application's,
// and passed over between the wait and the borrow.
// Not a [roles] key: the JDK's packages, a JDK fact.
var jdkPrefixes = []string{"java.", "javax.", "jdk.", "sun.", "com.sun."}

// borrowAt is the index in t's frames of the pool's borrow method that t
// waits under (see above); -1 when t is no such wait. The frames between
// the wait and the borrow are the JDK's or the pool library's own (the
// same first three name segments: org.apache.tomcat.dbcp.pool2's
// LinkedBlockingDeque under its GenericObjectPool): anything else between
// them (a factory of the application's, a driver's connect) is work done
// inside the borrow, creating an item, not a wait for one.
func borrowAt(t *parse.Thread) int {
	fs := t.Frames
	if len(fs) == 0 || !anyPrefix(fs[0].Func, waitTops) {
		return -1
	}
	k := 0 // the park plumbing, which the depth counts past (as a row's Depth does)
	for k < len(fs) && anyPrefix(fs[k].Func, jvmParkFrames) {
		k++
	}
	var passed []string // the frames outside the JDK between the wait and the borrow
	for i, f := range fs {
		if i >= k+BorrowDepth {
			break
		}
		if anyPrefix(f.Func, jdkPrefixes) {
			continue
		}
		if isBorrow(f.Func) {
			lib := libraryOf(f.Func)
			for _, p := range passed {
				if libraryOf(p) != lib {
					return -1
				}
			}
			return i
		}
		passed = append(passed, f.Func)
	}
	return -1
}

// isBorrow reports whether fn ("org.apache.tomcat.dbcp.pool2.impl.GenericObjectPool.borrowObject")
// is a lending method of a class named a pool.
func isBorrow(fn string) bool {
	dot := strings.LastIndexByte(fn, '.')
	if dot < 0 {
		return false
	}
	class, method := fn[:dot], fn[dot+1:]
	simple := class[strings.LastIndexByte(class, '.')+1:]
	if !strings.Contains(simple, "Pool") {
		return false
	}
	for _, w := range notObjectPools {
		if strings.Contains(simple, w) {
			return false
		}
	}
	if m, ok := strings.CutPrefix(method, "try"); ok && m != "" {
		method = strings.ToLower(m[:1]) + m[1:]
	}
	for _, v := range borrowVerbs {
		if exact, ok := strings.CutSuffix(v, "="); ok {
			if method == exact {
				return true
			}
		} else if strings.HasPrefix(method, v) {
			return true
		}
	}
	return false
}

// libraryOf is the first three segments of a Java name, the library it
// belongs to as far as one name tells ("org.apache.tomcat",
// "com.mchange.v2"); the whole name when it has fewer.
func libraryOf(fn string) string {
	n := 0
	for i := range len(fn) {
		if fn[i] == '.' {
			if n++; n == 3 {
				return fn[:i]
			}
		}
	}
	return fn
}

// borrowPool is the class of the pool t waits to borrow from
// ("org.apache.tomcat.dbcp.pool2.impl.GenericObjectPool"); "" when t waits
// in no pool's borrow.
func borrowPool(t *parse.Thread) string {
	i := borrowAt(t)
	if i < 0 {
		return ""
	}
	fn := t.Frames[i].Func
	return fn[:strings.LastIndexByte(fn, '.')]
}

// borrowMatches is a Borrow row's match: t waits in a pool's borrow, and
// the stack at and under the borrow holds what the row lends for
// (BorrowFor: a DataSource's getConnection for a DB connection; Within, a
// client's package anywhere in the stack).
func (s *Signature) borrowMatches(t *parse.Thread) bool {
	i := borrowAt(t)
	if i < 0 {
		return false
	}
	if len(s.Within) > 0 && !anyFramePrefix(t, s.Within) {
		return false
	}
	if len(s.BorrowFor) == 0 {
		return true
	}
	for _, f := range t.Frames[i:] {
		if anchorMatch(s.BorrowFor, f.Func) {
			return true
		}
	}
	return false
}
