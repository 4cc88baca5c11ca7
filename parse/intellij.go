package parse

import "bytes"

// IntelliJ IDEA's debugger dump ("Get Thread Dump", "Copy Stacks", and the
// file "Export Threads" writes). It is jstack's shape written from the
// debugger's view of the threads (JDWP), read by the JVM text scanner
// (jstack.go) with these differences:
//
//	# This dump may be opened in IntelliJ IDEA using Analyze Stack Trace or Thread Dump...   (newer: a comment
//	# Full thread dump                                                                      lead-in, passed over)
//	"Thread-1@1010" prio=5 tid=0x26 nid=NA waiting for monitor entry ["id":1010]             header: name@id,
//	  java.lang.Thread.State: BLOCKED                                                          nid=NA, no #N
//		 blocks Thread-2@1011                                                                  ownership lines
//		 waiting for Thread-2@1011 to release lock on <0x476> (a java.lang.Object)
//		at DeadlockExample.lambda$main$0(DeadlockExample.java:11)
//		  - locked <0x475> (a java.lang.Object)                                                 jstack's lock lines
//		at DeadlockExample$$Lambda/0x0000000301042210.run(Unknown Source:-1)                   -1: no line known
//
// The "@1010" after the name is the debugger's unique id of the thread
// object, not part of its name: it is cut off the name (so that
// "Thread-1@1010" and "Thread-1@2231" of two sessions pool as "Thread-*")
// and kept as Thread.ID. A header is IntelliJ's when its nid is "NA": the
// debugger has no native id; a JVM always prints one.
//
// "waiting for T@id to release lock on <A> (a C)" is the thread's wait
// for a monitor with its owner: a Lock (LockWaitingTo, A, C) with Owner T
// and OwnerID id, as a jstack "- waiting to lock" line with the owner
// printed. "blocks T@id" says the same wait from the owner's side (T's own
// "waiting for" line names this thread): it is read and adds nothing.
// The addresses are the debugger's object ids ("0x476"), the same for one
// object across the dump's threads, so the "- locked" lines of the owner
// match the waiters' lines as jstack's addresses do.

// IntelliJ's newer dumps end each header with its metadata, and list the
// thread containers (JDK 21+) as entries of their own before the threads:
//
//	"Scope-A" tid=0x0 nid=NA container ["type":"container","id":1352,"parentId":1165]
//	   Carrying virtual thread #0
//	"Scope-A-worker-0@1339" tid=0x2c nid=NA virtual unmounted waiting for monitor entry ["id":1339,"parentId":1352]
//
// A container is no thread: it is kept by its id, and a thread whose
// parentId is a container's id is in that container (JVM.Container, as
// jcmd's JSON dump gives it).

// intellijContainers are a dump's containers by id and its threads'
// parent ids; a nil one is empty.
type intellijContainers struct {
	names   map[int64]string
	parents map[*Thread]int64
	last    bool // the last header read was a container's
}

// isIntelliJContainer reports whether line is a container entry's header.
func isIntelliJContainer(line []byte) bool {
	return len(line) > 0 && line[0] == '"' && bytes.Contains(line, []byte(`" tid=0x0 nid=NA container [`))
}

// intellijMeta reads the "id" and "parentId" of a header's metadata
// (`["id":1339,"parentId":1352]`); 0 when not printed.
func intellijMeta(line []byte) (id, parent int64, container bool) {
	i := bytes.LastIndex(line, []byte(`[`))
	if i < 0 || !bytes.HasSuffix(bytes.TrimRight(line, " "), []byte("]")) {
		return 0, 0, false
	}
	meta := line[i:]
	num := func(key string) int64 {
		k := bytes.Index(meta, []byte(key))
		if k < 0 {
			return 0
		}
		var n int64
		for _, c := range meta[k+len(key):] {
			if c < '0' || c > '9' {
				break
			}
			n = n*10 + int64(c-'0')
		}
		return n
	}
	return num(`"id":`), num(`"parentId":`), bytes.Contains(meta, []byte(`"type":"container"`))
}

// intellijHeaderMeta notes th's metadata in *c (made on first use); true
// when th is a container, not a thread.
func intellijHeaderMeta(c **intellijContainers, th *Thread, line []byte) bool {
	id, parent, container := intellijMeta(line)
	if !container && parent == 0 {
		if *c != nil {
			(*c).last = false
		}
		return false
	}
	if *c == nil {
		*c = &intellijContainers{names: map[int64]string{}, parents: map[*Thread]int64{}}
	}
	(*c).last = container
	if container {
		(*c).names[id] = th.JVM.Name
		return true
	}
	(*c).parents[th] = parent
	return false
}

// inContainer reports whether the last header read was a container's.
func (c *intellijContainers) inContainer() bool { return c != nil && c.last }

// place gives each thread of d whose parent is a container that
// container's name.
func (c *intellijContainers) place(d *Dump) {
	if c == nil {
		return
	}
	for th, p := range c.parents {
		if name, ok := c.names[p]; ok && th.JVM != nil {
			th.JVM.Container = name
		}
	}
}

// intellijName splits IntelliJ's "Thread-1@1010" into "Thread-1" and 1010;
// ok is false when name does not end in "@digits".
func intellijName(name string) (base string, id int64, ok bool) {
	at := -1
	for i := len(name) - 1; i > 0; i-- {
		c := name[i]
		if c == '@' {
			at = i
			break
		}
		if c < '0' || c > '9' {
			return name, 0, false
		}
	}
	if at <= 0 || at == len(name)-1 {
		return name, 0, false
	}
	for _, c := range []byte(name[at+1:]) {
		id = id*10 + int64(c-'0')
	}
	return name[:at], id, true
}

// isIntelliJ reports whether th, a JVM thread header just read, is one of
// IntelliJ's debugger dumps: its nid is "NA".
func isIntelliJ(th *Thread) bool {
	return th.JVM != nil && th.NativeID == "NA"
}

// intellijHeader cuts the debugger's "@id" off th's name into th.ID.
func intellijHeader(th *Thread, in *interner) {
	if base, id, ok := intellijName(th.JVM.Name); ok {
		th.JVM.Name = in.str(base)
		if th.ID == 0 {
			th.ID = id
		}
	}
	// "virtual unmounted waiting": a virtual thread (JDK 21+).
	if len(th.StateDetail) > len("virtual ") && th.StateDetail[:len("virtual ")] == "virtual " {
		th.Virtual = true
	}
}

var (
	intellijWaitingFor = []byte("waiting for ")
	intellijRelease    = []byte(" to release lock on ")
	intellijBlocks     = []byte("blocks ")
)

// intellijLockLine reads an ownership line of IntelliJ's dump (t is the
// line without its indentation): a wait for a monitor with its owner
// (lock, true, true), or "blocks T@id" (no lock, true). ok is false for
// any other line.
func intellijLockLine(t []byte, in *interner) (l Lock, isLock, ok bool) {
	if rest, found := bytes.CutPrefix(t, intellijBlocks); found {
		_, _, named := intellijName(string(rest))
		return Lock{}, false, named
	}
	rest, found := bytes.CutPrefix(t, intellijWaitingFor)
	if !found {
		return Lock{}, false, false
	}
	i := bytes.Index(rest, intellijRelease)
	if i <= 0 {
		return Lock{}, false, false
	}
	owner, obj := rest[:i], rest[i+len(intellijRelease):]
	// obj: "<0x476> (a java.lang.Object)", read as a "- waiting to lock" line's.
	l, ok = parseLockLine(append([]byte("waiting to lock "), obj...), in, false)
	if !ok {
		return Lock{}, false, false
	}
	name, id, _ := intellijName(string(owner))
	l.Owner, l.OwnerID = in.str(name), id
	return l, true, true
}

// IntelliJ's own thread dumps (a freeze report, "Dump Threads" of the
// IDE itself: com.intellij.diagnostic.ThreadDumper) are written from
// ThreadMXBean, in jstack's shape with fixed header fields and the
// ThreadInfo's lock on a line of its own, before the frames:
//
//	"AWT-EventQueue-0 2017.1.1#CL-171.4073.41 CLion, eap:false, …" prio=0 tid=0x0 nid=0x0 waiting on condition
//	     java.lang.Thread.State: TIMED_WAITING
//	 on com.intellij.openapi.application.impl.ReadMostlyRWLock@78b535fc
//	        at sun.misc.Unsafe.park(Native Method)
//
// The lock line is " on " getLockName(), then ` owned by "NAME" Id=N`
// when getLockOwnerName() is set, then " (suspended)", " (in native)"
// (ThreadDumper.dumpCallStack, intellij-community platform/util). The
// lock is class@identityHash, one object's in every thread of the dump,
// read as its address. Its kind is the thread's: BLOCKED waits to enter
// the monitor; parked under Unsafe.park, a j.u.c lock or a blocker;
// under Object.wait, the monitor it waits on.

// isFreezeDump reports whether th's header is ThreadDumper's: prio=0
// tid=0x0 nid=0x0 (a JVM prints none of these three).
func isFreezeDump(th *Thread) bool {
	return th.JVM != nil && th.JVM.TID == "0x0" && th.JVM.NativeID == "0x0" && th.JVM.Priority == 0
}

// freezeLockLine reads ThreadDumper's lock line (trimmed): "on
// java.lang.Object@1d37a147 owned by "pool-1" Id=42 (in native)".
func freezeLockLine(t []byte, in *interner) (Lock, bool) {
	rest := t[len("on "):]
	for _, tail := range []string{" (in native)", " (suspended)"} {
		rest = bytes.TrimSuffix(rest, []byte(tail))
	}
	l := Lock{Frame: 0}
	if o := bytes.Index(rest, []byte(` owned by "`)); o > 0 {
		owner := rest[o+len(` owned by "`):]
		q := bytes.LastIndex(owner, []byte(`" Id=`))
		if q < 0 {
			return l, false
		}
		l.Owner = in.bytes(owner[:q])
		l.OwnerID = int64(atoiBytes(owner[q+len(`" Id=`):]))
		rest = rest[:o]
	}
	at := bytes.LastIndexByte(rest, '@')
	if at <= 0 || bytes.IndexByte(rest, ' ') >= 0 || !isHexDigits(rest[at+1:]) {
		return l, false
	}
	l.Class = in.bytes(rest[:at])
	l.Address = in.bytes(append([]byte("0x"), rest[at+1:]...))
	return l, true
}

// isFreezeTail reports whether t is ThreadDumper's lock line without a
// lock: " (in native)", " (suspended)" or both.
func isFreezeTail(t []byte) bool {
	t = bytes.TrimSpace(t)
	for len(t) > 0 {
		switch {
		case bytes.HasPrefix(t, []byte("(in native)")):
			t = bytes.TrimSpace(t[len("(in native)"):])
		case bytes.HasPrefix(t, []byte("(suspended)")):
			t = bytes.TrimSpace(t[len("(suspended)"):])
		default:
			return false
		}
	}
	return true
}

// freezeLockKind gives ThreadDumper's lock line its kind, from the state
// and the top frame read after it.
func freezeLockKind(th *Thread) {
	for i := range th.JVM.Locks {
		l := &th.JVM.Locks[i]
		if l.Kind != "" {
			continue
		}
		top := ""
		if len(th.Frames) > 0 {
			top = th.Frames[0].Func
		}
		switch {
		case th.State == "BLOCKED":
			l.Kind = LockWaitingTo
		case top == "java.lang.Object.wait" || top == "java.lang.Object.wait0":
			l.Kind = LockWaitingOn
		default:
			l.Kind = LockParking
		}
	}
}
