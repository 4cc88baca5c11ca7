package parse

import "bytes"

// A javacore's LOCKS section: its monitors, their owners and the threads
// waiting for them, and the deadlocks the JVM found. A ticket or a manual
// (eclipse-openj9/openj9-docs docs/dump_javadump.md) pastes it alone, the
// lock graph being the answer:
//
//	0SECTION       LOCKS subcomponent dump routine                        a LOCKS excerpt's first line (or
//	1LKPOOLINFO    Monitor pool info:                                     1LKPOOLINFO, 1LKMONPOOLDUMP,
//	1LKMONPOOLDUMP Monitor Pool Dump (flat & inflated object-monitors):   1LKDEADLOCK: startsJavacore)
//	2LKMONINUSE      sys_mon_t:0x92711200 infl_mon_t: 0x92711240:         a monitor of the pool
//	3LKMONOBJECT       java/lang/Object@0xB56658D8: Flat locked by "Worker Thread 0" (J9VMThread:0x92A3EC00), entry count 1
//	3LKWAITERQ            Waiting to enter:
//	3LKWAITER                "Worker Thread 1" (J9VMThread:0x92703F00)
//	3LKNOTIFYQ            Waiting to be notified:
//	3LKWAITNOTIFY            "Common-Cleaner" (J9VMThread:0x0000000000FD0100)
//	1LKREGMONDUMP  JVM System Monitor Dump (registered monitors):
//	2LKREGMON          Thread global lock (0x00007FF4F0004FE8): <unowned>  a VM monitor, its queues as above
//	1LKDEADLOCK    Deadlock detected !!!                                  (javacore.go: deadlockLine)
//
// The owner is "Flat locked by "X" (…)" or "owner "X" (…)", or
// "<unowned>". In a whole javacore the THREADS section says the same of
// each thread (3XMTHREADBLOCK, entered locks) and the monitors are passed
// over. A javacore with no thread record (the LOCKS section pasted alone)
// is read from them (locksThreads): each thread the graph names (by its
// J9VMThread, else its name) is a thread without a stack, holding what it
// owns, BLOCKED on what it waits to enter (owner named), WAITING on what
// it waits to be notified of; a deadlock's threads wait for the objects
// the report names, each owned by the next.

// javacoreMonitor is a monitor of the LOCKS section.
type javacoreMonitor struct {
	class, addr string // "java.lang.Object", "0xB56658D8"; for a VM monitor its name and address
	owner       javacoreRef
	enter       []javacoreRef // "Waiting to enter:"
	notify      []javacoreRef // "Waiting to be notified:"
	notifyQ     bool          // the queue being read is the notify queue
	vm          bool          // a VM monitor (2LKREGMON), not an object's
}

// javacoreRef names a thread as the LOCKS section does: "Worker Thread
// 1" (J9VMThread:0x92703F00); name "" for none (<unowned>).
type javacoreRef struct{ name, vmt string }

// monitorLine reads a line of the monitor dumps.
func (s *javacoreScan) monitorLine(tag, text []byte) {
	in := s.p.in
	switch string(tag) {
	case "2LKMONINUSE":
		s.mon = nil // its object follows
	case "3LKMONOBJECT":
		// java/lang/Object@0xB56658D8: Flat locked by "Worker Thread 0" (J9VMThread:0x92A3EC00), entry count 1
		obj, rest, ok := bytes.Cut(text, []byte(": "))
		if !ok {
			return
		}
		l := javacoreLock("", obj, in)
		s.mons = append(s.mons, javacoreMonitor{class: l.Class, addr: l.Address, owner: javacoreOwnerRef(rest, in)})
		s.mon = &s.mons[len(s.mons)-1]
	case "2LKREGMON":
		// Thread global lock (0x00007FF4F0004FE8): <unowned>
		c := bytes.Index(text, []byte("): "))
		k := -1
		if c > 0 {
			k = bytes.LastIndex(text[:c], []byte(" ("))
		}
		if k <= 0 {
			s.mon = nil
			return
		}
		s.mons = append(s.mons, javacoreMonitor{class: in.bytes(text[:k]), addr: in.bytes(text[k+2 : c]), owner: javacoreOwnerRef(text[c+3:], in), vm: true})
		s.mon = &s.mons[len(s.mons)-1]
	case "3LKWAITERQ", "3LKNOTIFYQ":
		if s.mon != nil {
			s.mon.notifyQ = tag[3] == 'N'
		}
	case "3LKWAITER", "3LKWAITNOTIFY":
		if s.mon == nil {
			return
		}
		r := javacoreRefOf(text, in)
		if r.name == "" {
			return
		}
		if s.mon.notifyQ || tag[len(tag)-1] == 'Y' {
			s.mon.notify = append(s.mon.notify, r)
		} else {
			s.mon.enter = append(s.mon.enter, r)
		}
	}
}

// javacoreOwnerRef reads a monitor's owner: `Flat locked by "X" (…), entry
// count 1`, `owner "X" (…), entry count 1`; none for "<unowned>".
func javacoreOwnerRef(text []byte, in *interner) javacoreRef {
	for _, p := range []string{"Flat locked by ", "owner "} {
		if rest, ok := bytes.CutPrefix(text, []byte(p)); ok {
			return javacoreRefOf(rest, in)
		}
	}
	return javacoreRef{}
}

// javacoreRefOf reads `"Worker Thread 1" (J9VMThread:0x92703F00)` (the
// deadlock report's `(0x94501D00)` too); a name may hold quotes: it ends
// at the last `" (`.
func javacoreRefOf(text []byte, in *interner) javacoreRef {
	if len(text) < 2 || text[0] != '"' {
		return javacoreRef{}
	}
	q := bytes.LastIndex(text, []byte(`" (`))
	if q <= 0 {
		q = bytes.LastIndexByte(text, '"')
		if q <= 0 {
			return javacoreRef{}
		}
		return javacoreRef{name: in.bytes(text[1:q])}
	}
	r := javacoreRef{name: in.bytes(text[1:q])}
	id := text[q+3:]
	if e := bytes.IndexAny(id, ",)"); e >= 0 {
		id = id[:e]
	}
	id = bytes.TrimPrefix(id, []byte("J9VMThread:"))
	if isHexWord(id) {
		r.vmt = in.bytes(id)
	}
	return r
}

// locksThreads makes the threads of a javacore that has no thread record
// from its LOCKS section (see the comment at the top of this file).
func (s *javacoreScan) locksThreads() {
	byKey := map[string]*Thread{}
	get := func(r javacoreRef) *Thread {
		key := r.vmt
		if key == "" {
			key = "name:" + r.name
		}
		if t, ok := byKey[key]; ok {
			return t
		}
		t := &Thread{Weight: 1, NoStack: true, JVM: &JVM{Name: r.name, TID: r.vmt}}
		byKey[key] = t
		s.d.Threads = append(s.d.Threads, t)
		return t
	}
	for _, m := range s.mons {
		l := Lock{Class: m.class, Address: m.addr, Frame: -1}
		if m.owner.name != "" {
			o := get(m.owner)
			held := l
			held.Kind = LockHeld
			o.JVM.Locks = append(o.JVM.Locks, held)
		}
		for _, r := range m.enter {
			t := get(r)
			w := l
			w.Kind, w.Owner = LockWaitingTo, m.owner.name
			t.JVM.Locks = append(t.JVM.Locks, w)
			if t.State == "" {
				t.State, t.StateDetail = "BLOCKED", "waiting to enter a monitor (3LKWAITER)"
			}
		}
		for _, r := range m.notify {
			t := get(r)
			w := l
			w.Kind = LockWaitingOn
			t.JVM.Locks = append(t.JVM.Locks, w)
			if t.State == "" {
				t.State, t.StateDetail = "WAITING", "waiting to be notified (3LKWAITNOTIFY)"
			}
		}
	}
	for i, dl := range s.d.Deadlocks {
		refs := s.dlAll[i] // the edges' threads, the holder of the last edge after them
		for j, e := range dl.Cycle {
			l := javacoreLock(LockWaitingTo, bytes.TrimPrefix([]byte(e.Waiting), []byte("waiting for ")), s.p.in)
			l.Frame, l.Owner = -1, e.Holder
			if !bytes.Contains([]byte(e.Waiting), []byte("@")) {
				l.Address, l.Class = "", "" // a monitor alone (sys_mon_t:…): no object printed
			}
			t := get(refs[j])
			if !hasJVMLock(t, LockWaitingTo, l.Address) || l.Address == "" {
				t.JVM.Locks = append(t.JVM.Locks, l)
			}
			if t.State == "" {
				t.State, t.StateDetail = "BLOCKED", "in a deadlock the JVM found (1LKDEADLOCK)"
			}
			if e.Holder != "" && l.Address != "" {
				h := get(refs[j+1])
				if !hasJVMLock(h, LockHeld, l.Address) {
					held := l
					held.Kind, held.Owner = LockHeld, ""
					h.JVM.Locks = append(h.JVM.Locks, held)
				}
			}
		}
	}
}

// mergeMonitors gives the threads of a javacore's THREADS section what its
// LOCKS section says of them. A javacore before OpenJ9's 3XMTHREADBLOCK
// line (IBM's classic JVMs 1.3–1.4, J9 before Java 7) prints who owns a
// monitor and who waits to enter it or to be notified only there:
//
//	3LKMONOBJECT       java.lang.Class@2AD2BF8/2AD2C00: owner "ExecuteThread: '6' for queue: 'weblogic.kernel.Default'" (0x6ECB1E8), entry count 1
//	3LKWAITERQ            Waiting to enter:
//	3LKWAITER                "ExecuteThread: '13' for queue: 'weblogic.kernel.Default'" (0x6F159C8)
//
// (a WebLogic server of IBM J2RE 1.4.2, yusuke/samurai's test resources:
// 13 request threads wait to enter the class monitor of a static
// synchronized method whose owner sleeps inside it). Each monitor's owner
// gets the lock as held, each thread waiting to enter it the lock as
// waited for, with its owner, and is BLOCKED (the section says it waits
// to enter: a classic JVM's "MW" state alone reads as waiting); each
// thread waiting to be notified gets the lock as waited on. A lock a
// thread's own lines gave already (3XMTHREADBLOCK) is not given twice. A
// thread is found by its name; by its J9VMThread where several share the
// name; not at all when neither tells one thread. Object monitors only:
// the VM's own (2LKREGMON) are the VM's business.
func (s *javacoreScan) mergeMonitors() {
	byName := map[string][]*Thread{}
	for _, t := range s.d.Threads {
		if t.JVM != nil {
			byName[t.JVM.Name] = append(byName[t.JVM.Name], t)
		}
	}
	find := func(r javacoreRef) *Thread {
		ts := byName[r.name]
		if len(ts) == 1 {
			return ts[0]
		}
		for _, t := range ts {
			if r.vmt != "" && t.TID == r.vmt {
				return t
			}
		}
		return nil
	}
	for _, m := range s.mons {
		if m.vm {
			// The VM's own monitors (thread list, class table): the
			// thread that writes the javacore holds some while it writes,
			// and a VM that prints no thread's monitors prints none of
			// these either; a wait on one is said by 3XMTHREADBLOCK
			// where the VM prints it.
			continue
		}
		l := Lock{Class: m.class, Address: m.addr, Frame: -1}
		if o := find(m.owner); m.owner.name != "" && o != nil && !hasJVMLock(o, LockHeld, l.Address) {
			held := l
			held.Kind = LockHeld
			o.JVM.Locks = append(o.JVM.Locks, held)
		}
		for _, r := range m.enter {
			t := find(r)
			if t == nil {
				continue
			}
			if !hasJVMLock(t, LockWaitingTo, l.Address) {
				w := l
				w.Kind, w.Owner = LockWaitingTo, m.owner.name
				t.JVM.Locks = append(t.JVM.Locks, w)
			}
			if t.State != "BLOCKED" {
				t.State, t.StateDetail = "BLOCKED", "waiting to enter a monitor (3LKWAITER)"
			}
		}
		for _, r := range m.notify {
			if t := find(r); t != nil && !hasJVMLock(t, LockWaitingOn, l.Address) {
				w := l
				w.Kind = LockWaitingOn
				t.JVM.Locks = append(t.JVM.Locks, w)
			}
		}
	}
}

// hasJVMLock reports whether t's lines gave it a lock of that kind on addr.
func hasJVMLock(t *Thread, kind LockKind, addr string) bool {
	for _, l := range t.JVM.Locks {
		if l.Kind == kind && l.Address == addr {
			return true
		}
	}
	return false
}
