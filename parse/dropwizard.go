package parse

import "bytes"

// Dropwizard's admin /threads page (metrics-jvm's ThreadDump.dump, and the
// servlets and tools that copied it: Jenkins, Hadoop-style status pages)
// prints each ThreadInfo with its wait above the frames, the owner on a
// line of its own, and lowercase "id=":
//
//	"dw-2113 - GET /path" id=2113 state=WAITING
//	    - waiting on <0x1f2f7a6b> (a ...AbstractFuture$Sync)
//	    - locked <0x1f2f7a6b> (a ...AbstractFuture$Sync)        the printer's echo of the wait: nothing held
//	"order-1" id=15 state=BLOCKED
//	    - waiting to lock <0x23fc625e> (a java.lang.Object)
//	     owned by ledger id=14                                   the owner, unquoted (Jenkins quotes it)
//	    at app//Svc.update(Svc.java:66)
//	      - locked <0x0f6f4d33> (a java.lang.Object)             a monitor held at the frame above
//	    Locked synchronizers: count = 1
//	      - java.util.concurrent.locks.ReentrantLock$NonfairSync@63961c42
//
// " (suspended)" and " (running in native)" end the header or its last
// wait line. The wait's address is the identity hash as "<0x%08x>", the
// synchronizers' as Object.toString's "@hex": both are read as the hash
// without "0x" and leading zeros, so that a lock held and a lock waited
// for are one object. metrics-jvm before 4 skips each thread's first
// locked monitor (its loop starts at 1): the owner line still names the
// holder of a monitor a thread is BLOCKED on.

// isDropwizardThread reports whether th's header was Dropwizard's
// ("id=N state=S": a lowercase id and a state field).
func isDropwizardHeader(line []byte) bool {
	q := bytes.LastIndex(line, []byte(`" id=`))
	if q < 0 {
		return false
	}
	return toolHeaderRest(line[q+2:])
}

// dropwizardOwner reads the owner line under a Dropwizard header
// ("owned by ledger id=14", Jenkins's `owned by "ledger" id=14 (0xe)`):
// the name and id; ok false if t is not one.
func dropwizardOwner(t []byte) (name []byte, id int64, ok bool) {
	rest, found := bytes.CutPrefix(t, []byte("owned by "))
	if !found {
		return nil, 0, false
	}
	k := bytes.LastIndex(rest, []byte(" id="))
	if k <= 0 {
		return nil, 0, false
	}
	name, num := rest[:k], rest[k+len(" id="):]
	if sp := bytes.IndexByte(num, ' '); sp >= 0 {
		num = num[:sp] // Jenkins: " (0xe)" after the id
	}
	if len(num) == 0 || !allDigits(num) {
		return nil, 0, false
	}
	if len(name) >= 2 && name[0] == '"' && name[len(name)-1] == '"' {
		name = name[1 : len(name)-1]
	}
	return name, int64(atoiBytes(num)), len(name) > 0
}

// cutDropwizardTrailer returns t without the " (suspended)" and
// " (running in native)" Dropwizard prints after a thread's last wait line.
func cutDropwizardTrailer(t []byte) []byte {
	for {
		u := bytes.TrimSuffix(bytes.TrimSuffix(t, []byte(" (running in native)")), []byte(" (suspended)"))
		if len(u) == len(t) {
			return t
		}
		t = u
	}
}

// dropwizardHash is a Dropwizard address as the hash ThreadInfo's
// "Class@hex" prints: "0x0f6f4d33" → "f6f4d33".
func dropwizardHash(a string) string {
	if len(a) > 2 && a[0] == '0' && (a[1] == 'x' || a[1] == 'X') {
		a = a[2:]
		for len(a) > 1 && a[0] == '0' {
			a = a[1:]
		}
	}
	return a
}

// dropwizardLocks puts th's locks, read from a Dropwizard thread, in the
// model's shape: the echo "- locked" of the wait is dropped (the thread
// waits; it holds nothing of it), the wait printed above the frames is
// the top frame's (a park under Unsafe.park), every address is the hash,
// and the owner line's id goes to the wait.
func dropwizardLocks(th *Thread, ownerID int64, in *interner) {
	if th.JVM == nil {
		return
	}
	locks := th.JVM.Locks[:0]
	var waitAddr string
	for _, l := range th.JVM.Locks {
		l.Address = in.str(dropwizardHash(l.Address))
		if l.Frame < 0 && l.Kind != LockOwnable {
			switch {
			case l.Kind == LockHeld && l.Address == waitAddr:
				continue // the printer's echo of the wait
			case l.Kind == LockWaitingOn || l.Kind == LockWaitingTo:
				waitAddr = l.Address
			}
			if len(th.Frames) > 0 {
				l.Frame = 0
				if l.Kind == LockWaitingOn && parkedWaitingTo(th.Frames[:1]) {
					l.Kind = LockParking
				}
			}
		}
		if ownerID != 0 && l.OwnerID == 0 && l.Owner != "" && l.Kind != LockHeld && l.Kind != LockOwnable {
			l.OwnerID = ownerID
		}
		locks = append(locks, l)
	}
	th.JVM.Locks = locks
}
