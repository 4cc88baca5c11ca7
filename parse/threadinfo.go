package parse

import "bytes"

// java.lang.management.ThreadInfo.toString(): what programs log of their
// own threads (Arthas's `thread`, health pages, watchdogs), and the shape
// of Eclipse OpenJ9's jstack, whose output is "the information provided
// in java.lang.management.ThreadInfo" (OpenJ9's tool_jstack.md). Read by
// the JVM text scanner (jstack.go):
//
//	"ring-0" daemon prio=5 Id=12 BLOCKED on java.lang.Object@279f2327 owned by "ring-1" Id=13     (JDK 9+: prio before Id)
//	"http-nio-8072-exec-1" Id=236 in WAITING                                                      (JMX's own form)
//		at app//ThreeWay.lambda$main$0(ThreeWay.java:18)
//		-  blocked on java.lang.Object@279f2327                 the wait, under the top frame
//		-  waiting on java.util.concurrent.locks.ReentrantLock$NonfairSync@5caf905d   (under Unsafe.park: a park)
//		-  locked java.lang.Object@54bedef2                     a monitor held
//		...                                                      the stack cut at 8 frames
//
//		Number of locked synchronizers = 1                       ownable synchronizers held
//		- java.util.concurrent.locks.ReentrantLock$NonfairSync@5caf905d
//
// Apache Karaf's `threads` command (the openHAB console's; Karaf's
// ThreadsAction, shell/commands) prints the same ThreadInfo its own way:
// "in STATE on lock=X@hash" in the header, the owner on the line under it
// and unquoted, each frame and "- locked X@hash" indented by four spaces
// (more for the lock), a blank line after each thread:
//
//	"Karaf local console user openhab" Id=89 in WAITING on lock=org.apache.felix.gogo.runtime.CommandSessionImpl$JobImpl@6ca35f93
//	"worker-2" Id=91 in BLOCKED on lock=java.lang.Object@1b2c3d4e
//	     owned by worker-1 Id=90
//	    at com.example.Svc.update(Svc.java:20)
//	      - locked java.lang.Object@5e2de80c
//
// With --monitors and --locks it adds, under a thread, "Locked monitors:
// count = N" (each "- X@hash locked at " over its depth and frame: the
// stack's "- locked" lines again, read as known and kept nowhere) and
// "Locked synchronizers: count = N" (the ownable synchronizers held).
//
// The owner is printed in the header only: `owned by "ring-1" Id=13` is
// given to the thread's wait (its lock line of the same object, or a
// lock made from the header's "on X@hash" when the stack printed none),
// as Owner and OwnerID.

// isThreadInfoHeader reports whether line is the first line of
// ThreadInfo.toString(): a quoted name, then "Id=N" after at most the
// words "daemon" and "prio=N" (`"main" prio=5 Id=1 RUNNABLE`, `"x" Id=236
// in WAITING`). Such an excerpt is read as a dump without a "Full thread
// dump" line.
func isThreadInfoHeader(line []byte) bool {
	if len(line) == 0 || line[0] != '"' {
		return false
	}
	q := bytes.Index(line, []byte(`" `))
	for q > 0 {
		rest := line[q+2:]
		rest, _ = bytes.CutPrefix(rest, []byte("daemon "))
		if r, ok := bytes.CutPrefix(rest, []byte("prio=")); ok {
			i := 0
			for i < len(r) && isDigit(r[i]) {
				i++
			}
			if i > 0 && i < len(r) && r[i] == ' ' {
				rest = r[i+1:]
			}
		}
		if bytes.HasPrefix(rest, []byte("Id=")) {
			return true
		}
		// A name may hold `" ` itself: try the next quote.
		n := bytes.Index(line[q+1:], []byte(`" `))
		if n < 0 {
			return false
		}
		q += 1 + n
	}
	return false
}

// threadInfoOwner reads the owner out of a ThreadInfo header's detail
// (StateDetail: `on java.lang.Object@279f2327 owned by "ring-1" Id=13`):
// the object ("java.lang.Object@279f2327"), the owner's name and id; ok
// is false when the detail names no owner.
func threadInfoOwner(detail string) (obj, owner string, id int64, ok bool) {
	rest, found := cutPrefixString(detail, "on ")
	if !found {
		return "", "", 0, false
	}
	rest, _ = cutPrefixString(rest, "lock=") // Karaf's "in BLOCKED on lock=X@hash"
	i := bytes.Index([]byte(rest), []byte(` owned by "`))
	if i <= 0 {
		return "", "", 0, false
	}
	obj, rest = rest[:i], rest[i+len(` owned by "`):]
	mark := `" Id=`
	q := bytes.LastIndex([]byte(rest), []byte(mark))
	if q < 0 {
		mark = `" #` // a tool's ids as jcmd prints them (jvm_tool_headers.go)
		q = bytes.LastIndex([]byte(rest), []byte(mark))
	}
	if q < 0 {
		return "", "", 0, false
	}
	owner = rest[:q]
	v := rest[q+len(mark):]
	if sp := bytes.IndexByte([]byte(v), ' '); sp >= 0 {
		v = v[:sp] // " (in native)", " (suspended)"
	}
	for _, c := range []byte(v) {
		if !isDigit(c) {
			return obj, owner, 0, true
		}
		id = id*10 + int64(c-'0')
	}
	return obj, owner, id, true
}

func cutPrefixString(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && s[:len(prefix)] == prefix {
		return s[len(prefix):], true
	}
	return s, false
}

// threadInfoWait gives th's wait the owner its ThreadInfo header prints:
// the lock line of the same object gets Owner and OwnerID; with none, a
// lock is made from the header ("on X@hash"), at the top frame: a wait to
// lock for BLOCKED, a park under Unsafe.park, else a wait on.
func threadInfoWait(th *Thread, in *interner) {
	if th.JVM == nil {
		return
	}
	if owner, ok := headerOwner(th.StateDetail); ok {
		// The header names the owner, the lock lines the lock
		// (jvm_tool_headers.go): the first wait without an owner is its.
		for i := range th.JVM.Locks {
			l := &th.JVM.Locks[i]
			if l.Owner == "" && (l.Kind == LockWaitingTo || l.Kind == LockParking || l.Kind == LockWaitingOn) {
				l.Owner = in.str(owner)
				break
			}
		}
		return
	}
	if th.ID == 0 {
		return
	}
	obj, owner, id, ok := threadInfoOwner(th.StateDetail)
	if !ok {
		return
	}
	at := bytes.LastIndexByte([]byte(obj), '@')
	if at <= 0 {
		return
	}
	class, addr := obj[:at], obj[at+1:]
	if addr == "" {
		return
	}
	for i := range th.JVM.Locks {
		l := &th.JVM.Locks[i]
		if l.Address == addr && (l.Kind == LockWaitingTo || l.Kind == LockParking || l.Kind == LockWaitingOn) {
			l.Owner, l.OwnerID = in.str(owner), id
			return
		}
	}
	kind := LockWaitingOn
	switch {
	case th.State == "BLOCKED":
		kind = LockWaitingTo
	case parkedWaitingTo(th.Frames[:min(1, len(th.Frames))]):
		kind = LockParking
	}
	frame := 0 // the top frame, as a lock line would follow it
	if len(th.Frames) == 0 {
		frame = -1 // no stack printed: the lock follows no frame
	}
	th.JVM.Locks = append(th.JVM.Locks, Lock{Kind: kind, Address: in.str(addr), Class: in.str(class), Frame: frame,
		Owner: in.str(owner), OwnerID: id})
}
