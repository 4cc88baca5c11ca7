package parse

import "bytes"

// Spring Boot Actuator's plain text thread dump (Boot 2.2 and later,
// /actuator/threaddump with Accept: text/plain), the layout of VisualVM's
// thread dumps, read by the JVM text scanner (jstack.go) with the rules of
// this file:
//
//	2021-09-15 19:58:48                                      date line
//	Full thread dump OpenJDK 64-Bit Server VM (17+35-2724 mixed mode, sharing):
//	                                                         blank
//	"deadLock1" - Thread t@20                                header: name, id
//	   java.lang.Thread.State: BLOCKED
//		at app//com.example.Demo.lambda$main$3(Demo.java:40)    StackTraceElement.toString
//		- waiting to lock <b5379e1> (a java.lang.Object) owned by "deadLock2" t@21
//		- locked <41d2f8a> (a java.lang.Object)                 identity hash codes in hex
//	                                                         blank
//	   Locked ownable synchronizers:
//		- None                                                  or "- Locked <2a84aee7> (a ...NonfairSync)"
//	                                                         blank
//
// The line after the first frame names the lock the thread waits for:
// "waiting on" under Object.wait, else "waiting to lock ... owned by" when
// the lock has an owner (a monitor, or a j.u.c lock the thread parks for),
// else "parking to wait for". So:
//
//   - the owner suffix ` owned by "NAME" t@N` is cut off the lock line and
//     kept as Lock.Owner (cutOwnedBy);
//   - a "waiting to lock" under Unsafe.park is a parked thread: its kind
//     is LockParking, as jstack prints it (parkedWaitingTo);
//   - a quoted name alone, followed by the state line, is a thread whose
//     " - Thread t@N" was lost (as in samurai's Boot 2.5.4 sample): a
//     thread without an id. A name alone followed by anything else is
//     skipped with the lines of its entry, as before.

// cutOwnedBy splits a lock line's text after "- " into the lock and its
// owner's name: `waiting to lock <b5379e1> (a java.lang.Object) owned by
// "deadLock2" t@21` gives `waiting to lock <b5379e1> (a java.lang.Object)`
// and `deadLock2`. owner is nil when the line has no such suffix.
func cutOwnedBy(b []byte) (lock, owner []byte) {
	if n := len(b); n < 4 || b[n-1] < '0' || b[n-1] > '9' {
		return b, nil // one byte for every jstack lock line, which ends with ')'
	}
	t, _, ok := ownerIDAt(b)
	if !ok || t == 0 || b[t-1] != '"' {
		return b, nil
	}
	o := bytes.LastIndex(b[:t-1], []byte(` owned by "`))
	if o < 0 {
		return b, nil
	}
	return b[:o], b[o+len(` owned by "`) : t-1]
}

// ownerIDMarks are the ways tools print the owner's id after its quoted
// name: VisualVM's and the Actuator's " t@13", ThreadInfo's " Id=13",
// the "#13" of tools that print ids as jcmd does (`owned by "w" #13`).
var ownerIDMarks = [][]byte{[]byte(" t@"), []byte(" Id="), []byte(" #")}

// ownerIDAt finds a line's owner id suffix: where its mark starts, and
// the id; ok false when the line ends with none.
func ownerIDAt(line []byte) (at int, id int64, ok bool) {
	for _, m := range ownerIDMarks {
		t := bytes.LastIndex(line, m)
		if t >= 0 && t+len(m) < len(line) && allDigits(line[t+len(m):]) {
			return t, int64(atoiBytes(line[t+len(m):])), true
		}
	}
	return 0, 0, false
}

// ownedByID returns N of a lock line's ` owned by "NAME" t@N` (or " Id=N",
// " #N") suffix; 0 when it has none.
func ownedByID(line []byte) int64 {
	_, id, _ := ownerIDAt(line)
	return id
}

// parkedWaitingTo reports whether a "waiting to lock" line after frames
// is a thread parked for a j.u.c lock: its first frame is Unsafe.park.
func parkedWaitingTo(frames []*Frame) bool {
	if len(frames) != 1 {
		return false
	}
	switch frames[0].Func {
	case "jdk.internal.misc.Unsafe.park", "sun.misc.Unsafe.park":
		return true
	}
	return false
}
