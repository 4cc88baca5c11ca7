package parse

import (
	"bytes"
	"fmt"
	"strconv"
	"time"
)

// IBM javacores: what IBM's and the Eclipse OpenJ9 JVMs write on kill -3
// (javacore.20241118.122039.37560.0001.txt), from the Classic VM of J2RE
// 1.3/1.4 to J9 (IBM Java 8) and OpenJ9 (Semeru 11 to 21+). Every line
// begins with a tag, a level digit and a component name, then the text:
//
//	0SECTION       TITLE subcomponent dump routine                     a javacore's first line
//	1TIDATETIMEUTC Date: 2024/11/18 at 18:20:39:414 (UTC)              (1TIDATETIME: local, without a zone)
//	1CIJAVAVERSION JRE 21 Mac OS X aarch64-64 (build 21.0.4+7-LTS)
//	1CIPROCESSID   Process ID: 37560 (0x92B8)
//	0SECTION       THREADS subcomponent dump routine
//	3XMTHREADINFO      "main" J9VMThread:0x..., omrthread_t:0x..., java/lang/Thread:0x..., state:CW, prio=5
//	3XMJAVALTHREAD            (java/lang/Thread getId:0x2, isDaemon:false)
//	3XMTHREADINFO1            (native thread ID:0x8D14A, native priority:0x5, ...)
//	3XMCPUTIME               CPU usage total: 1.264468000 secs, current category="Application"
//	3XMTHREADBLOCK     Waiting on: java/util/concurrent/atomic/AtomicReference@0x0000000300349B90 Owned by: <unowned>
//	4XESTACKTRACE                at java/lang/Object.wait(Object.java:255)
//	5XESTACKTRACE                   (entered lock: org/apache/derby/impl/jdbc/EmbedConnection@0x00000000E0C67918, entry count: 1)
//	3XMTHREADINFO3           No Java callstack associated with this thread
//	3XMTHREADINFO      "Finalizer" (TID:0x101B4100, sys_thread_t:0x998610, state:CW, native ID:0x94) prio=8      Classic VM
//	3XMTHREADINFO      Anonymous native thread                         J9: a native thread attached to the VM
//	0SECTION       Javadump End section
//
// A javacore starts at its TITLE section, or, in an excerpt, at the
// thread section's 1XMTHDINFO line or at a thread's 3XMTHREADINFO record
// (startsJavacore): a ticket or a manual quotes the threads that matter,
// with "..." where it cut lines. An excerpt is read for what it holds and
// says so (Dump.Excerpt, with the number of "..." cuts). States of the
// scanner and their edges:
//
//	header   1TI*, 1CI* lines read, other sections passed over  -> thread (3XMTHREADINFO),
//	                                                              deadlock (1LKDEADLOCK)
//	deadlock the LOCKS section's cycle (deadlockLine)             -> header (the cycle closed,
//	                                                              another section)
//	thread   the thread's lines, frames and locks                -> thread, header (another section)
//	any      "Javadump End section", a line without a tag, a
//	         second TITLE (unread)                               -> end
//
// Threads are the model's JVM threads: the state letters become
// Thread.State (R RUNNABLE, CW and MW WAITING, P WAITING (parked), B
// BLOCKED, S SUSPENDED, Z TERMINATED; the letters in StateDetail), frames
// read as jstack frames once the class's '/' are '.', the blocking line
// and entered locks as lock lines, a deadlock the JVM found as a
// Deadlock. The other sections (memory, classes, the monitor pool, native
// stacks) are understood and not read; a line
// of the thread section that no rule reads is recorded in Skipped.
//
// Cost: one pass, one tag compare a line; no regexp.

// javacoreTitle ends a javacore's first line.
var javacoreTitle = []byte("TITLE subcomponent dump routine")

// startsJavacore reports whether line is a javacore's first line: its
// TITLE section, or the thread section or a thread record of an excerpt.
func startsJavacore(line, _ []byte) bool {
	return bytes.HasPrefix(line, []byte("0SECTION")) && (bytes.Contains(line, javacoreTitle) || bytes.Contains(line, javacoreThreads) || bytes.Contains(line, javacoreLocks)) ||
		bytes.HasPrefix(line, []byte("1XMTHDINFO")) || bytes.HasPrefix(line, javacoreThreadTag) || isLocksStart(line) || isMonitorStart(line)
}

// javacoreLocks ends the LOCKS section's header line (javacore_locks.go).
var javacoreLocks = []byte("LOCKS subcomponent dump routine")

// isLocksStart reports whether line starts a part of a LOCKS section
// pasted without its header: its monitor pool, its registered (VM)
// monitors, one monitor of either, or its deadlock report
// (javacore_locks.go). A ticket pastes one monitor alone, from its
// 2LKREGMON line (eclipse-openj9/openj9#8724: "2LKREGMON VM class table
// lock (0x…): Flat locked by "Default Executor-thread-14" (…)" and its
// waiters); each tag is OpenJ9's own, so no other text starts with one.
func isLocksStart(line []byte) bool {
	if len(line) < 11 || line[0] != '1' || line[1] != 'L' || line[2] != 'K' {
		return false
	}
	for _, t := range []string{"1LKPOOLINFO ", "1LKMONPOOLDUMP ", "1LKDEADLOCK ", "1LKREGMONDUMP "} {
		if bytes.HasPrefix(line, []byte(t)) {
			return true
		}
	}
	return false
}

// isMonitorStart reports whether line starts one monitor of a LOCKS
// section: "2LKREGMON" (a VM monitor), "2LKMONINUSE" or "3LKMONOBJECT"
// (an object monitor of the pool).
func isMonitorStart(line []byte) bool {
	if len(line) < 11 || line[1] != 'L' || line[2] != 'K' {
		return false
	}
	for _, t := range []string{"2LKREGMON ", "2LKMONINUSE ", "3LKMONOBJECT "} {
		if bytes.HasPrefix(line, []byte(t)) {
			return true
		}
	}
	return false
}

// javacoreThreads ends the THREADS section's header line, where an
// excerpt of the thread section starts.
var javacoreThreads = []byte("THREADS subcomponent dump routine")

// javacoreThreadTag starts a thread record (and an excerpt that starts at one).
var javacoreThreadTag = []byte("3XMTHREADINFO ")

// isElision reports whether line is an excerpt's mark of cut lines: "..."
// alone, maybe indented.
func isElision(line []byte) bool {
	t := bytes.TrimSpace(line)
	return len(t) >= 3 && len(bytes.Trim(t, ".")) == 0 || bytes.Equal(t, []byte("…"))
}

// javacoreTag splits a javacore line into its tag and its text; ok is
// false for a line without a tag ("3XMTHREADINFO", "NULL").
func javacoreTag(line []byte) (tag, text []byte, ok bool) {
	i := 0
	if bytes.HasPrefix(line, []byte("NULL")) {
		i = 4
	} else {
		if len(line) < 2 || !isDigit(line[0]) {
			return nil, nil, false
		}
		i = 1
		for i < len(line) && (line[i] >= 'A' && line[i] <= 'Z' || isDigit(line[i])) {
			i++
		}
		if i < 3 {
			return nil, nil, false
		}
	}
	if i < len(line) && line[i] != ' ' && line[i] != '\t' {
		return nil, nil, false
	}
	return line[:i], bytes.TrimLeft(line[i:], " \t"), true
}

// javacoreScan reads one javacore.
type javacoreScan struct {
	p      *textParser
	d      *Dump
	t      *Thread
	dl     *Deadlock // the deadlock report being read; nil if none
	frames map[string]*Frame
	buf    []byte // a frame's text with its class's '/' as '.'
	local  time.Time
	// started is the JVM's start (1CISTARTTIME), local; zero if not printed.
	started time.Time
	// owners are the blocking locks whose owner is named with its
	// J9VMThread, to be given its Java id once every thread is read.
	owners []javacoreOwner
	cuts   int // "..." lines of an excerpt
	// mons are the LOCKS section's monitors (javacore_locks.go), read
	// into threads only when the javacore has no thread record; mon is
	// the one whose queues are being read, nil if none.
	mons []javacoreMonitor
	mon  *javacoreMonitor
	// dlRefs are the threads of the deadlock report being read, as its
	// 2LKDEADLOCKTHR lines name them (name and J9VMThread), the first
	// again at the end; dlAll those of each report added to the dump.
	dlRefs []javacoreRef
	dlAll  [][]javacoreRef
}

// javacoreOwner is a blocking lock's owner as a javacore names it.
type javacoreOwner struct {
	t   *Thread
	i   int    // index in t's locks
	vmt string // the owner's J9VMThread ("0x94501D00")
}

// parseJavacore reads one javacore (see the state machine above).
func parseJavacore(p *textParser) *Dump {
	s := &javacoreScan{p: p, d: &Dump{}, frames: make(map[string]*Frame)}
	ls := p.ls
	first := true
	startTag := ""
	for {
		line, ok := ls.next()
		if !ok {
			break
		}
		tag, text, ok := javacoreTag(line)
		if !ok {
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			if !first && isElision(line) {
				s.cuts++ // an excerpt's cut: the javacore goes on after it
				continue
			}
			ls.unread() // not a javacore's line: the javacore ended
			break
		}
		if !first && bytes.HasPrefix(line, []byte("0SECTION")) && bytes.Contains(text, javacoreTitle) ||
			!first && (startTag == "1XMTHDINFO" || startTag == "3XMTHREADINFO") && bytes.HasPrefix(line, []byte("1XMTHDINFO")) {
			ls.unread() // a second javacore (or excerpt)
			break
		}
		if first {
			startTag = string(tag)
			switch {
			case startTag == "0SECTION" && bytes.Contains(text, javacoreLocks):
				startTag = "LOCKS"
			case startTag == "0SECTION" && !bytes.Contains(text, javacoreTitle):
				startTag = "THREADS"
			case isLocksStart(line), isMonitorStart(line):
				startTag = "LOCKS"
			}
		}
		first = false
		if !s.line(line, tag, text) {
			break
		}
	}
	s.endThread()
	s.endDeadlock()
	if s.d.Time.IsZero() {
		s.d.Time = s.local
	}
	if !s.started.IsZero() && !s.local.IsZero() && s.local.After(s.started) {
		s.d.Uptime = s.local.Sub(s.started)
	}
	locksOnly := len(s.d.Threads) == 0 && (len(s.mons) > 0 || len(s.d.Deadlocks) > 0)
	if locksOnly {
		s.locksThreads()
	} else if len(s.mons) > 0 {
		s.mergeMonitors()
	}
	if len(s.d.Threads) == 0 {
		return nil
	}
	s.resolveOwners()
	switch {
	case locksOnly:
		s.d.Excerpt = "no javacore THREADS section: its threads are those its LOCKS section names, without stacks"
	case startTag == "THREADS":
		s.d.Excerpt = "no javacore TITLE section: it starts at its THREADS section"
	case startTag == "1XMTHDINFO":
		s.d.Excerpt = "no javacore TITLE section: it starts at its thread details (1XMTHDINFO)"
	case startTag == "3XMTHREADINFO":
		s.d.Excerpt = "no javacore TITLE or THREADS header: it starts at a thread record (3XMTHREADINFO)"
	case s.cuts > 0:
		s.d.Excerpt = "lines of the javacore were cut"
	}
	if s.cuts > 0 && s.d.Excerpt != "" {
		s.d.Excerpt += fmt.Sprintf(`; cut in %d place(s) ("...")`, s.cuts)
	}
	s.d.Cut = s.d.Excerpt != "" // every excerpt of a javacore is a person's cut
	return s.d
}

// resolveOwners gives each blocking lock whose owner a javacore names
// with its J9VMThread the owner's Java thread id (Lock.OwnerID), which
// tells apart threads of one name.
func (s *javacoreScan) resolveOwners() {
	if len(s.owners) == 0 {
		return
	}
	byVMT := map[string]int64{}
	for _, t := range s.d.Threads {
		if t.TID != "" && t.ID != 0 {
			byVMT[t.TID] = t.ID
		}
	}
	for _, o := range s.owners {
		o.t.JVM.Locks[o.i].OwnerID = byVMT[o.vmt]
	}
}

// line handles one tagged line; false ends the javacore.
func (s *javacoreScan) line(line, tag, text []byte) bool {
	in := s.p.in
	switch string(tag) {
	case "0SECTION":
		s.endThread()
		s.endDeadlock()
		return !bytes.HasPrefix(text, []byte("Javadump End section"))
	case "1TIDATETIMEUTC":
		if t := javacoreTime(text); !t.IsZero() {
			s.d.Time = t
		}
	case "1TIDATETIME":
		s.local = javacoreTime(text)
	case "1CISTARTTIME":
		// "JVM start time: 2024/11/18 at 10:58:05:137", local as 1TIDATETIME.
		if v, ok := bytes.CutPrefix(text, []byte("JVM start time: ")); ok {
			s.started = javacoreTime(append([]byte("Date: "), v...))
		}
	case "1CIJAVAVERSION":
		s.d.Version = string(text)
	case "1CIPROCESSID":
		if rest, ok := bytes.CutPrefix(text, []byte("Process ID: ")); ok {
			s.d.ProcessID = atoiBytes(rest)
		}
	case "1LKDEADLOCK":
		s.endDeadlock()
		s.mon = nil
		s.dl = &Deadlock{Line: s.p.ls.lineNo()}
	case "2LKMONINUSE", "3LKMONOBJECT", "2LKREGMON", "3LKWAITERQ", "3LKNOTIFYQ", "3LKWAITER", "3LKWAITNOTIFY":
		s.monitorLine(tag, text)
	case "2LKDEADLOCKTHR", "4LKDEADLOCKOBJ", "4LKDEADLOCKMON":
		if s.dl != nil {
			s.deadlockLine(tag, text)
		}
	case "3XMTHREADINFO":
		s.endThread()
		s.t = javacoreThread(text, in)
		s.t.Line = s.p.ls.lineNo()
	case "3XMJAVALTHREAD":
		if s.t != nil {
			if v, ok := fieldAfter(text, "getId:"); ok {
				s.t.ID = parseNumber(v)
			}
			if v, ok := fieldAfter(text, "isDaemon:"); ok {
				s.t.Daemon = bytes.HasPrefix(v, []byte("true"))
			}
		}
	case "3XMTHREADINFO1":
		if s.t != nil {
			if v, ok := fieldAfter(text, "native thread ID:"); ok {
				s.t.NativeID = in.bytes(v)
			}
		}
	case "3XMCPUTIME":
		if s.t != nil {
			if v, ok := bytes.CutPrefix(text, []byte("CPU usage total: ")); ok {
				if f := bytes.Fields(v); len(f) > 0 { // a line cut after its key has none
					if sec, err := strconv.ParseFloat(string(f[0]), 64); err == nil {
						s.t.CPU = time.Duration(sec * float64(time.Second))
					}
				}
			}
		}
	case "3XMTHREADBLOCK":
		if s.t != nil {
			s.block(line, text)
		}
	case "3XMTHREADINFO3":
		if s.t != nil && bytes.HasPrefix(text, []byte("No Java callstack")) {
			s.t.NoStack = true
		}
	case "4XESTACKTRACE":
		if s.t == nil {
			s.p.skip(s.d, line, "javacore frame outside a thread")
			return true
		}
		body, ok := bytes.CutPrefix(text, []byte("at "))
		f := s.frame(body)
		if !ok || f == nil {
			s.p.skip(s.d, line, "javacore frame line not understood")
			return true
		}
		s.t.Frames = append(s.t.Frames, f)
	case "5XESTACKTRACE":
		if s.t == nil {
			return true
		}
		// (entered lock: org/apache/derby/impl/jdbc/EmbedConnection@0x00000000E0C67918, entry count: 1)
		body, ok := bytes.CutPrefix(text, []byte("(entered lock: "))
		if !ok {
			s.p.skip(s.d, line, "javacore lock line not understood")
			return true
		}
		if c := bytes.IndexByte(body, ','); c >= 0 {
			body = body[:c]
		}
		l := javacoreLock(LockHeld, body, in)
		l.Frame = len(s.t.Frames) - 1
		s.t.JVM.Locks = append(s.t.JVM.Locks, l)
	}
	return true
}

// deadlockLine reads a line of the LOCKS section's deadlock report. Each
// thread of the cycle is named, what it waits for, and by whom that is
// owned: the next thread named; the cycle ends where its first thread is
// named again:
//
//	1LKDEADLOCK    Deadlock detected !!!
//	2LKDEADLOCKTHR  Thread "Deadlock Thread 0" (0x00007F5E8435BD00)
//	3LKDEADLOCKWTR    is waiting for:
//	4LKDEADLOCKMON      sys_mon_t:0x00007F5E24013F10 infl_mon_t: 0x00007F5E24013F88:
//	4LKDEADLOCKOBJ      java/lang/String@0x00007F5E5E18E3D8
//	3LKDEADLOCKOWN    which is owned by:
//	2LKDEADLOCKTHR  Thread "Deadlock Thread 1" (0x00007F5E84362100)
//	...
//	2LKDEADLOCKTHR  Thread "Deadlock Thread 0" (0x00007F5E8435BD00)
func (s *javacoreScan) deadlockLine(tag, text []byte) {
	dl := s.dl
	switch string(tag) {
	case "2LKDEADLOCKTHR":
		name, ok := bytes.CutPrefix(text, []byte(`Thread "`))
		q := bytes.LastIndexByte(name, '"')
		if !ok || q < 0 {
			return
		}
		n := string(name[:q])
		r := javacoreRefOf(text[len("Thread "):], s.p.in)
		r.name = n
		s.dlRefs = append(s.dlRefs, r)
		if k := len(dl.Cycle); k > 0 {
			dl.Cycle[k-1].Holder = n
			// The cycle is closed where its first thread is named again:
			// the same J9VMThread where printed (two threads may share a
			// name), else the same name.
			if first := s.dlRefs[0]; first.vmt != "" && first.vmt == r.vmt || (first.vmt == "" || r.vmt == "") && dl.Cycle[0].Thread == n {
				s.endDeadlock()
				return
			}
		}
		dl.Cycle = append(dl.Cycle, DeadlockEdge{Thread: n})
	case "4LKDEADLOCKMON", "4LKDEADLOCKOBJ":
		// The object when printed, else the monitor.
		if k := len(dl.Cycle); k > 0 && (tag[len(tag)-1] == 'J' || dl.Cycle[k-1].Waiting == "") {
			dl.Cycle[k-1].Waiting = "waiting for " + string(text)
		}
	}
}

// endDeadlock adds the deadlock report being read to the dump.
func (s *javacoreScan) endDeadlock() {
	if s.dl != nil && len(s.dl.Cycle) > 0 {
		s.d.Deadlocks = append(s.d.Deadlocks, *s.dl)
		s.dlAll = append(s.dlAll, s.dlRefs)
	}
	s.dl, s.dlRefs = nil, nil
}

// javacoreThread reads a 3XMTHREADINFO header's text.
func javacoreThread(text []byte, in *interner) *Thread {
	t := &Thread{Weight: 1, JVM: &JVM{}}
	rest := text
	if len(text) > 0 && text[0] == '"' {
		// The name ends at the last quote before the fields: names may
		// hold quotes, the fields never do.
		end := len(text) - 1
		for _, sep := range [][]byte{[]byte(`" J9VMThread:`), []byte(`" (TID:`), []byte(`" (`)} {
			if i := bytes.LastIndex(text, sep); i > 0 {
				end = i
				break
			}
		}
		if end <= 0 || text[end] != '"' {
			end = bytes.LastIndexByte(text, '"')
		}
		if end > 0 {
			t.JVM.Name = in.bytes(text[1:end])
			rest = text[end+1:]
		}
	} else {
		// "Anonymous native thread": no Java thread, no stack.
		t.JVM.Name = in.bytes(bytes.TrimSpace(text))
		t.NoStack = true
		return t
	}
	if v, ok := fieldAfter(rest, "J9VMThread:"); ok {
		t.TID = in.bytes(v)
	} else if v, ok := fieldAfter(rest, "TID:"); ok {
		t.TID = in.bytes(v)
	}
	if v, ok := fieldAfter(rest, "native ID:"); ok {
		t.NativeID = in.bytes(v)
	}
	if v, ok := fieldAfter(rest, "prio="); ok {
		t.Priority = atoiBytes(v)
	}
	if v, ok := fieldAfter(rest, "state:"); ok {
		t.State, t.StateDetail = javacoreState(v)
	}
	return t
}

// javacoreState maps a javacore's state letters to Thread.State and its
// detail.
func javacoreState(v []byte) (state, detail string) {
	switch string(v) {
	case "R":
		return "RUNNABLE", "R"
	case "CW":
		return "WAITING", "CW: waiting on a condition"
	case "MW":
		return "WAITING", "MW: waiting on a monitor"
	case "P":
		return "WAITING", "P: parked"
	case "B":
		return "BLOCKED", "B: blocked on a monitor"
	case "S":
		return "SUSPENDED", "S"
	case "Z":
		return "TERMINATED", "Z"
	}
	return string(v), ""
}

// block reads a thread's 3XMTHREADBLOCK line:
//
//	Waiting on: java/util/concurrent/atomic/AtomicReference@0x0000000300349B90 Owned by: <unowned>
//	Blocked on: org/apache/derby/impl/store/raw/log/LogToFile@0x00000000E06FA928 Owned by: "Default Executor-thread-135" (J9VMThread:0x...)
//	Parked on: java/util/concurrent/locks/AbstractQueuedSynchronizer$ConditionObject@0x00000000E066BA90 Owned by: <unknown>
func (s *javacoreScan) block(line, text []byte) {
	var kind LockKind
	var rest []byte
	for _, k := range []struct {
		prefix string
		kind   LockKind
	}{{"Waiting on: ", LockWaitingOn}, {"Blocked on: ", LockWaitingTo}, {"Parked on: ", LockParking}} {
		if r, ok := bytes.CutPrefix(text, []byte(k.prefix)); ok {
			kind, rest = k.kind, r
			break
		}
	}
	if kind == "" {
		s.p.skip(s.d, line, "javacore blocking line not understood")
		return
	}
	obj, owner, _ := bytes.Cut(rest, []byte(" Owned by: "))
	l := javacoreLock(kind, obj, s.p.in)
	if l.Class == j9ClassInitLock {
		// A class's initialization: the lock is unowned between the
		// initializer's state checks, and OpenJ9 names the thread that
		// runs the initializer after it (docs/dump_javadump.md of
		// eclipse-openj9/openj9-docs):
		//	Waiting on: java/lang/J9VMInternals$ClassInitializationLock@0x00000000FFF61C90 Owned by: <unowned> Initializing thread: "Class Initialization Thread 1"
		l.Kind = LockClassInit
		if _, init, ok := bytes.Cut(owner, []byte("Initializing thread: ")); ok {
			owner = init
		}
	}
	vmt := ""
	if len(owner) > 1 && owner[0] == '"' {
		// "Worker Thread 2" (J9VMThread:0x94501D00, java/lang/Thread:0xB56668D0); a
		// name may hold quotes: it ends at the last `" (`.
		q := bytes.LastIndex(owner, []byte(`" (`))
		if q <= 0 {
			q = bytes.LastIndexByte(owner, '"')
		}
		if q > 0 {
			l.Owner = s.p.in.bytes(owner[1:q])
			if v, ok := fieldAfter(owner[q:], "J9VMThread:"); ok {
				vmt = string(v)
			}
		}
	}
	s.t.JVM.Locks = append(s.t.JVM.Locks, l) // Frame 0: the top frame, as jstack prints it
	if vmt != "" {
		s.owners = append(s.owners, javacoreOwner{t: s.t, i: len(s.t.JVM.Locks) - 1, vmt: vmt})
	}
}

// j9ClassInitLock is the lock OpenJ9 waits on for a class's initialization.
const j9ClassInitLock = "java.lang.J9VMInternals$ClassInitializationLock"

// javacoreLock reads "java/lang/Object@0x00000000E0C67918".
func javacoreLock(kind LockKind, obj []byte, in *interner) Lock {
	obj = bytes.TrimSpace(obj)
	l := Lock{Kind: kind}
	class := obj
	if at := bytes.LastIndexByte(obj, '@'); at > 0 {
		class = obj[:at]
		l.Address = in.bytes(obj[at+1:])
	}
	l.Class = in.bytes(bytes.ReplaceAll(class, []byte("/"), []byte(".")))
	return l
}

// frame reads the text after "at " of a 4XESTACKTRACE line:
//
//	java/lang/Object.wait(Object.java:255)
//	java/lang/Thread.run(Thread.java:818(Compiled Code))       J9 8
//	java.lang.Object.wait(Native Method)                       Classic VM
//	org/apache/derby/impl/store/raw/log/LogToFile.flushAll(Bytecode PC:29)   J9, no line numbers
func (s *javacoreScan) frame(text []byte) *Frame {
	if f, ok := s.frames[string(text)]; ok {
		return f
	}
	b := append(s.buf[:0], text...)
	if n := len(b); n > len("(Compiled Code))") && bytes.HasSuffix(b, []byte("(Compiled Code))")) {
		b = append(b[:n-len("(Compiled Code))")], ')')
	}
	// The class's '/' are '.', before the location's '(' (a hidden
	// class's "/0x..." is kept, as jstack prints it).
	lp := bytes.IndexByte(b, '(')
	if lp < 0 {
		lp = len(b)
	}
	for i := 0; i < lp; i++ {
		if b[i] == '/' && !bytes.HasPrefix(b[i+1:], []byte("0x")) {
			b[i] = '.'
		}
	}
	s.buf = b
	var f *Frame
	if i := bytes.Index(b, []byte("(Bytecode PC:")); i > 0 && b[len(b)-1] == ')' {
		// J9's location of a frame without line numbers: a note.
		f = s.p.in.frame(s.p.in.bytes(b[:i]), "", 0, "", s.p.in.bytes(b[i+1:len(b)-1]))
	} else {
		f = parseFrame(b, s.p.in)
	}
	if f != nil {
		s.frames[string(text)] = f
	}
	return f
}

// endThread adds the thread being read to the dump.
func (s *javacoreScan) endThread() {
	if s.t == nil {
		return
	}
	if len(s.t.Frames) > 0 {
		s.t.NoStack = false
	}
	s.d.Threads = append(s.d.Threads, s.t)
	s.t = nil
}

// fieldAfter returns the value after key in text, up to the next ',', ')'
// or space.
func fieldAfter(text []byte, key string) ([]byte, bool) {
	i := bytes.Index(text, []byte(key))
	if i < 0 {
		return nil, false
	}
	v := text[i+len(key):]
	e := 0
	for e < len(v) && v[e] != ',' && v[e] != ')' && v[e] != ' ' {
		e++
	}
	return v[:e], e > 0
}

// parseNumber reads "0x2" or "17".
func parseNumber(v []byte) int64 {
	n, err := strconv.ParseInt(string(v), 0, 64)
	if err != nil {
		return 0
	}
	return n
}

// javacoreTime reads "Date: 2024/11/18 at 18:20:39:414 (UTC)" or the
// Classic VM's "Date:                 2006/05/11 at 17:29:14": a local time
// (1TIDATETIME) is kept as printed, in UTC as a stand-in zone (as JVM
// date lines).
func javacoreTime(text []byte) time.Time {
	v, ok := bytes.CutPrefix(text, []byte("Date:"))
	if !ok {
		return time.Time{}
	}
	f := bytes.Fields(v)
	if len(f) < 3 {
		return time.Time{}
	}
	clock := string(f[2])
	if c := bytes.Count(f[2], []byte(":")); c == 3 {
		i := bytes.LastIndexByte(f[2], ':')
		clock = string(f[2][:i]) + "." + string(f[2][i+1:])
	}
	t, err := time.Parse("2006/01/02 15:04:05.999999999", string(f[0])+" "+clock)
	if err != nil {
		return time.Time{}
	}
	return t
}
