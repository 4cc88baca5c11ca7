package parse

import "bytes"

// The HotSpot Serviceability Agent's stack dump: `jhsdb jstack --pid N`
// (JDK 9+) and `jstack -F` (JDK 8 and before, the "forced" mode, for a
// JVM that does not answer the attach). The agent reads the threads from
// outside the process, so its text is its own:
//
//	Attaching to process ID 25864, please wait...                       prose, passed over
//	Debugger attached successfully.
//	Server compiler detected.
//	JVM version is 17.0.15+6-Debian-1deb12u1
//	Deadlock Detection:                                                 the dump's first line (isSAStart)
//
//	No deadlocks found.                                                 or HotSpot's report, before the threads
//
//	"main" #1 prio=5 tid=0x00007f65c8017ea0 nid=0x650a waiting on condition [0x00007f65cedfe000]   jhsdb: jstack's header
//	   java.lang.Thread.State: TIMED_WAITING (sleeping)
//	   JavaThread state: _thread_blocked                                the VM's state: passed over
//	 - java.lang.Thread.sleep(long) @bci=0 (Interpreted frame)          a frame (isSAFrame)
//	 - Dl.main(java.lang.String[]) @bci=79, line=11 (Interpreted frame)
//		- locked <0x000000069ec195e8> (a java.lang.Object)               jstack's lock lines
//
//	Thread 12371: (state = BLOCKED)                                     jstack -F (JDK 8): no name,
//	 - java.lang.Object.wait(long) @bci=0 (Interpreted frame)           the OS thread id
//
// The frame's method is printed with its parameter types and no source
// file: the frame keeps the method and the line, with no file. The
// "(state = X)" of a JDK 8 header is the VM's view of the thread
// (JavaThreadState: BLOCKED is _thread_blocked, any thread parked in the
// VM, sleeping or reading a socket as well as waiting for a monitor), not
// java.lang.Thread.State: it is kept as the thread's detail, and the
// state is left unknown.
//
// The agent prints a monitor a BLOCKED thread waits for as "- locked",
// beside the monitors it holds (worker-1 above holds 0x…95e8 and waits for
// 0x…95f8, and prints both as locked). A monitor has one owner, so the
// lock lines are mended from the dump's own facts at its end (saLocks):
// the deadlock report's "waiting to lock Monitor@… (Object@0x…)" names
// the object a thread waits for and its holder.

var (
	prefixSADeadlock = []byte("Deadlock Detection:")
	prefixSAThread   = []byte("Thread ")
	saNoDeadlock     = []byte("No deadlocks found.")
	saVMState        = []byte("JavaThread state: ")
	saBCI            = []byte(" @bci=")
)

// isSAStart reports whether line starts an agent's dump: its
// "Deadlock Detection:" line, or a JDK 8 thread header.
func isSAStart(line []byte) bool {
	return bytes.Equal(bytes.TrimRight(line, " \t"), prefixSADeadlock) || isSAThreadHeader(line)
}

// isSAThreadHeader reports whether t is a JDK 8 `jstack -F` thread
// header: "Thread 12371: (state = BLOCKED)".
func isSAThreadHeader(t []byte) bool {
	rest, ok := bytes.CutPrefix(t, prefixSAThread)
	if !ok {
		return false
	}
	c := bytes.IndexByte(rest, ':')
	if c <= 0 || !allDigits(rest[:c]) {
		return false
	}
	rest = bytes.TrimSpace(rest[c+1:])
	return bytes.HasPrefix(rest, []byte("(state = ")) && rest[len(rest)-1] == ')'
}

// saThread is the thread of a JDK 8 `jstack -F` header.
func saThread(t []byte, in *interner) *Thread {
	rest := t[len(prefixSAThread):]
	c := bytes.IndexByte(rest, ':')
	st := bytes.TrimSpace(rest[c+1:])
	st = bytes.TrimSuffix(bytes.TrimPrefix(st, []byte("(state = ")), []byte(")"))
	return &Thread{Weight: 1, JVM: &JVM{
		NativeID:    in.bytes(rest[:c]),
		StateDetail: in.bytes(append([]byte("VM state "), st...)),
	}}
}

// isSAFrame reports whether body (after "- ") is an agent's frame:
// "java.lang.Object.wait(long) @bci=0 (Interpreted frame)".
func isSAFrame(body []byte) bool {
	return bytes.Contains(body, saBCI)
}

// saFrame reads an agent's frame:
//
//	java.lang.ref.ReferenceQueue.remove(long) @bci=59, line=155 (Interpreted frame)
//	Main.main(java.lang.String[]) @bci=9, line=5 (Compiled frame; information may be imprecise)
//
// It returns nil when body has no method before its "(".
func saFrame(body []byte, in *interner) *Frame {
	lp := bytes.IndexByte(body, '(')
	if lp <= 0 {
		return nil
	}
	fn := body[:lp]
	line := 0
	if k := bytes.Index(body, []byte(", line=")); k > 0 {
		rest := body[k+len(", line="):]
		n := 0
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		line = atoiBytes(rest[:n])
	}
	var note []byte
	if o := bytes.LastIndexByte(body, '('); o > lp && body[len(body)-1] == ')' {
		note = body[o+1 : len(body)-1]
		if s := bytes.IndexByte(note, ';'); s > 0 {
			note = note[:s] // "Compiled frame; information may be imprecise"
		}
	}
	return in.frame(in.bytes(fn), "", line, "", in.bytes(note))
}

// saLocks mends the lock lines of an agent's dump (see the comment at the
// top of this file) from its deadlock reports, which name for each thread
// of a cycle the object it waits for and the thread that holds it: a line
// of the waiter on that object becomes its wait, with the holder as owner,
// and a line of the holder on it becomes held. Each agent gets some of
// these lines wrong in its own way: JDK 17's prints the wait as
// "locked", JDK 25's swaps "waiting to lock" and "locked" of a thread
// blocked in a cycle (testdata/formats/README.md); the report of the same
// dump agrees with the program.
func saLocks(d *Dump) {
	type want struct{ addr, holder string }
	wants := map[string]want{}            // waiter -> the object it waits for
	holds := map[string]map[string]bool{} // holder -> objects it holds
	for _, dl := range d.Deadlocks {
		for _, e := range dl.Cycle {
			addr := saEdgeObject(e.Waiting)
			if addr == "" || e.Holder == "" {
				continue
			}
			wants[e.Thread] = want{addr, e.Holder}
			if holds[e.Holder] == nil {
				holds[e.Holder] = map[string]bool{}
			}
			holds[e.Holder][addr] = true
		}
	}
	if len(wants) == 0 {
		return
	}
	for _, th := range d.Threads {
		if th.JVM == nil {
			continue
		}
		w, waits := wants[th.JVM.Name]
		for i := range th.JVM.Locks {
			l := &th.JVM.Locks[i]
			if l.Kind != LockHeld && l.Kind != LockWaitingTo {
				continue
			}
			switch {
			case waits && l.Address == w.addr:
				l.Kind, l.Owner = LockWaitingTo, w.holder
			case holds[th.JVM.Name][l.Address]:
				l.Kind, l.Owner = LockHeld, ""
			}
		}
	}
}

// saEdgeObject is the object address of an agent's deadlock edge,
// "waiting to lock Monitor@0x00007f65300015a0 (Object@0x000000069ec195e8,
// a java/lang/Object)," gives "0x000000069ec195e8"; "" if none.
func saEdgeObject(waiting string) string {
	const obj = "(Object@"
	k := bytes.Index([]byte(waiting), []byte(obj))
	if k < 0 {
		return ""
	}
	rest := waiting[k+len(obj):]
	n := 0
	for n < len(rest) && rest[n] != ',' && rest[n] != ')' {
		n++
	}
	if !isHexWord([]byte(rest[:n])) {
		return ""
	}
	return rest[:n]
}
