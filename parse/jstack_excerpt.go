package parse

import (
	"bytes"
	"strconv"
)

// Excerpts of JVM text dumps: what people paste of a jstack when they
// paste only part of it (issue 32: "a dump that starts in its middle is
// read for what it has, with a warning that it is an excerpt"). Each is
// read by the JVM text scanner (jstack.go) and says what it lacks in
// Dump.Excerpt.
//
// The deadlock report alone, the part of a jstack people paste most:
//
//	Found one Java-level deadlock:
//	=============================
//	"T1":
//	  waiting to lock monitor 0x00007f3c18001440 (object 0x00000000fc0dfed8, a com.example.Account),
//	  which is held by "T2"
//	...
//	Java stack information for the threads listed above:
//	===================================================
//	"T1":
//		at com.example.Transfer.run(Transfer.java:32)
//		- waiting to lock <0x00000000fc0dfed8> (a com.example.Account)
//		- locked <0x00000000fc0dfa80> (a com.example.Account)
//	...
//	Found 1 deadlock.
//
// With no thread entries around it, the report is all there is of its
// threads: each `"name":` of the summary is a thread (excerptEdge), its
// stack copy gives that thread its frames and lock lines (excerptStack),
// and the summary gives what the stack may not print (finishReport): the
// lock waited for, its holder ("which is held by", as Lock.Owner: the
// lock graph's printed owner), and the state the JVM's deadlock detector
// implies (it reports only threads blocked entering a monitor, BLOCKED, or
// parked for an ownable synchronizer, WAITING). A paste may also start at
// "Java stack information for the threads listed above:", without the
// summary; its threads are the report's.

// jstackExcerpt is what the scanner keeps of a dump read as an excerpt.
type jstackExcerpt struct {
	// byName are the threads the current deadlock report names, by name,
	// in the summary's order: the k-th `"name":` of the stack copy is the
	// k-th thread of that name of the summary (two threads of one name
	// may deadlock: samurai's TrickyThreads). Each report has its own.
	byName map[string][]*Thread
	// stackSeen counts the stack copies read of each name in the current
	// report.
	stackSeen map[string]int
	// stacks is true once a report's stack copy was read.
	stacks bool
	// reports counts the deadlock reports read.
	reports int
	// report is true when the excerpt is a deadlock report alone: its
	// reports' names are its threads. In an excerpt of thread entries, a
	// report names threads of those entries, as in a whole dump.
	report bool
	// start says where a paste that starts at a thread's body began
	// (Dump.Excerpt); "" for a deadlock report.
	start string
	// unnamed counts the threads read without a name.
	unnamed int
	// headless is true for a deadlock report pasted without its title
	// line ("Found one Java-level deadlock:"), said in Dump.Excerpt.
	headless bool
	// nameOnly is true in a paste whose threads are quoted names over
	// their frames (a reporter's abbreviation): a name alone followed by
	// a frame is a thread.
	nameOnly bool
}

// newReport forgets the threads of the report before.
func (ex *jstackExcerpt) newReport() {
	ex.byName = map[string][]*Thread{}
	ex.stackSeen = map[string]int{}
}

var (
	prefixFoundOne     = []byte("Found one ")
	suffixDeadlock     = []byte("deadlock:")
	prefixDeadlockInfo = []byte("Java stack information for the threads listed above")
)

// isDeadlockStart reports whether t is the first line of a deadlock
// report: "Found one Java-level deadlock:" (also "Found one Java-level
// deadlock (virtual threads):"-like kinds).
func isDeadlockStart(t []byte) bool {
	t = unheading(t)
	return bytes.HasPrefix(t, prefixFoundOne) && bytes.HasSuffix(bytes.TrimRight(t, " "), suffixDeadlock)
}

// unheading is t without the Markdown that a paste into an issue made of
// a report's title line: a heading's marks ("# Found one Java-level
// deadlock:", the line lost its place in a fence) or bold ("**...**").
// Only the deadlock report's two title lines are read through it: their
// words are the JVM's own, whatever the marks around them.
func unheading(t []byte) []byte {
	n := 0
	for n < len(t) && n < 6 && t[n] == '#' {
		n++
	}
	if n > 0 && n < len(t) && t[n] == ' ' {
		t = bytes.TrimLeft(t[n:], " ")
	}
	if bytes.HasPrefix(t, []byte("**")) {
		t = bytes.TrimSuffix(bytes.TrimRight(t[2:], " "), []byte("**"))
	}
	return t
}

// isDeadlockStacks reports whether t is the line that starts a deadlock
// report's stack copy.
func isDeadlockStacks(t []byte) bool {
	return bytes.HasPrefix(unheading(t), prefixDeadlockInfo)
}

// isEdgeLine reports whether t is a line of a deadlock summary's entry
// ("waiting to lock monitor ...", "waiting for ownable synchronizer ...",
// "which is held by ..."), whatever its indentation.
func isEdgeLine(t []byte) bool {
	return bytes.HasPrefix(t, []byte("waiting ")) || bytes.HasPrefix(t, []byte("which is held by "))
}

// newExcerptThread adds a thread of name to the dump and the report.
func (s *jstackScanner) newExcerptThread(name string) *Thread {
	t := &Thread{Weight: 1, Line: s.p.ls.lineNo(), JVM: &JVM{Name: name}}
	s.excerpt.byName[name] = append(s.excerpt.byName[name], t)
	s.d.Threads = append(s.d.Threads, t)
	return t
}

// excerptEdge handles a summary's `"name":` line in an excerpt: each is
// a thread.
func (s *jstackScanner) excerptEdge(name string) {
	s.newExcerptThread(name)
}

// excerptStack handles a stack copy's `"name":` line in an excerpt: the
// lines after it are that thread's frames and locks.
func (s *jstackScanner) excerptStack(name string) {
	s.endThread()
	s.flushPending()
	ex := s.excerpt
	ex.stacks = true
	k := ex.stackSeen[name]
	ex.stackSeen[name]++
	var t *Thread
	if k < len(ex.byName[name]) {
		t = ex.byName[name][k]
	} else {
		if s.dl != nil {
			// No summary (the paste starts at the stack copy): the
			// report's threads are those of its stacks.
			s.dl.Cycle = append(s.dl.Cycle, DeadlockEdge{Thread: name})
		}
		t = s.newExcerptThread(name)
	}
	s.t = t
	s.resumed = true
	s.mounted = -1
	s.sawStateLine = false
	s.fbuf = append(s.fbuf[:0], t.Frames...)
	t.Frames = nil
}

// startStacksOnly begins a report pasted from its "Java stack information
// for the threads listed above:" line.
func (s *jstackScanner) startStacksOnly() {
	s.excerpt.newReport()
	s.d.Deadlocks = append(s.d.Deadlocks, Deadlock{Line: s.p.ls.lineNo()})
	s.dl = &s.d.Deadlocks[len(s.d.Deadlocks)-1]
	s.edge = nil
	s.state = stDeadlockStacks
}

// finishReport gives an excerpt's threads what the report's summary says
// of them (see the comment at the top of this file). It runs where a
// report ends: at "Found N deadlock(s).", at the next report, at the end
// of the dump.
func (s *jstackScanner) finishReport() {
	if !s.reportOnly() || s.dl == nil {
		return
	}
	s.excerpt.reports++
	seen := map[string]int{}
	for _, e := range s.dl.Cycle {
		k := seen[e.Thread]
		seen[e.Thread]++
		if k >= len(s.excerpt.byName[e.Thread]) {
			continue
		}
		t := s.excerpt.byName[e.Thread][k]
		kind, addr, class := edgeWait(e.Waiting)
		wait := -1
		for i, l := range t.Locks() {
			if l.Kind == LockWaitingTo || l.Kind == LockParking {
				wait = i
				break
			}
		}
		switch {
		case wait >= 0:
			l := &t.JVM.Locks[wait]
			if l.Owner == "" && e.Holder != "" && (addr == "" || l.Address == "" || l.Address == addr || kind == LockWaitingTo) {
				// A monitor's summary names the monitor and its object:
				// the stack's line names the object, the one waited for.
				l.Owner = e.Holder
			}
			kind = l.Kind
		case kind != "":
			t.JVM.Locks = append(t.JVM.Locks, Lock{Kind: kind, Address: s.p.in.str(addr), Class: s.p.in.str(class), Frame: -1, Owner: e.Holder})
		}
		if t.State == "" {
			switch kind {
			case LockWaitingTo:
				t.State, t.StateDetail = "BLOCKED", "on object monitor"
			case LockParking:
				t.State, t.StateDetail = "WAITING", "parking"
				if timedPark(t) {
					// parkNanos or parkUntil on the stack (a tryLock with a
					// timeout): the JVM prints such a thread TIMED_WAITING.
					t.State = "TIMED_WAITING"
				}
			}
		}
	}
}

// timedPark: t parks with a deadline (LockSupport.parkNanos or parkUntil
// among its frames).
func timedPark(t *Thread) bool {
	for _, f := range t.Frames {
		if f.Func == "java.util.concurrent.locks.LockSupport.parkNanos" || f.Func == "java.util.concurrent.locks.LockSupport.parkUntil" {
			return true
		}
	}
	return false
}

// edgeWait reads what a summary's entry waits for:
//
//	waiting to lock monitor 0x00007f3c18001440 (object 0x00000000fc0dfed8, a com.example.Account),
//	waiting to lock Monitor@0x00007f9958004848 (Object@0x00000000803c6648, a org/glowroot/Logger),   (jstack -F)
//	waiting to lock monitor 0x080f0cdc (a MumbleDBConnection),                                     (JDK 5)
//	waiting for ownable synchronizer 0x00000000fc0dffe8, (a java.util.concurrent.locks.ReentrantLock$NonfairSync),
//
// The address is the object's where printed (the stack's lock lines
// print that one), else the monitor's; kind is "" when the entry is none
// of these (a JNI monitor).
func edgeWait(w string) (kind LockKind, addr, class string) {
	b := []byte(w)
	switch {
	case bytes.HasPrefix(b, []byte("waiting for ownable synchronizer ")):
		kind = LockParking
	case bytes.HasPrefix(b, []byte("waiting to lock monitor ")), bytes.HasPrefix(b, []byte("waiting to lock Monitor@")):
		kind = LockWaitingTo
	default:
		return "", "", ""
	}
	at := bytes.Index(b, []byte("(object "))
	if at < 0 {
		at = bytes.Index(b, []byte("(Object@"))
	}
	if at < 0 {
		at = 0
	}
	if x := bytes.Index(b[at:], []byte("0x")); x >= 0 {
		h := b[at+x:]
		n := 2
		for n < len(h) && isHexDigit(h[n]) {
			n++
		}
		addr = string(h[:n])
	}
	a := bytes.LastIndex(b, []byte("(a "))
	if c := bytes.LastIndex(b, []byte(", a ")); c > a {
		a = c + 1
	}
	if a >= 0 {
		c := b[a+3:]
		if e := bytes.IndexByte(c, ')'); e > 0 {
			class = string(bytes.ReplaceAll(c[:e], []byte("/"), []byte(".")))
		}
	}
	return kind, addr, class
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// startsJVMExcerpt reports whether line starts a JVM text excerpt that no
// whole dump starts with: a deadlock report, or its stack copy, pasted
// alone; a thread's state line (the paste lost the thread's header); a
// header that lost its opening quote. Each is a line only a JVM prints.
// (A paste that starts at frames, or at a quoted name alone, starts with
// a line a log may print too: startsJVMBody decides, looking ahead.)
func startsJVMExcerpt(line []byte) bool {
	return isDeadlockStart(line) || isDeadlockStacks(line) || isStateStart(line) ||
		isLostQuoteHeader(line) || isThreadAtHeader(line) || isOneLineEdge(trimIndent(line))
}

// A deadlock report pasted without its title (issue 33, "unread JVM
// forms"): its summary's entries alone, as HotSpot prints them or joined
// on one line by the paste, or its stack copy without the "Java stack
// information ..." line:
//
//	"T1":
//	  waiting to lock monitor 0x00007f3c18001440 (object 0x00000000fc0dfed8, a java.lang.Object),
//	  which is held by "T2"
//	"T1": waiting to lock monitor 0x00007f3c18001440 (object 0x00000000fc0dfed8, a java.lang.Object), which is held by "T2"
//	"T1":
//		at com.example.Transfer.run(Transfer.java:32)
//
// A `"name":` line alone is a JSON key too: it starts a report only where
// the line after it is an entry's line or a frame (startsJVMBody looks).

// isReportName reports whether t (indentation removed) is a report
// entry's `"name":` line: a quoted name and a colon, nothing after.
func isReportName(t []byte) bool {
	t = bytes.TrimRight(t, " \t")
	return len(t) >= 4 && t[0] == '"' && bytes.HasSuffix(t, []byte(`":`))
}

// oneLineEdgeSep is what follows the name in an entry joined on one line.
var oneLineEdgeSep = []byte(`": waiting `)

// isOneLineEdge reports whether t (indentation removed) is a report entry
// joined on one line: `"T1": waiting to lock monitor ..., which is held
// by "T2"` (or `waiting for ownable synchronizer ...`).
func isOneLineEdge(t []byte) bool {
	if len(t) < 8 || t[0] != '"' {
		return false
	}
	i := bytes.Index(t, oneLineEdgeSep)
	return i > 0 && bytes.IndexByte(t[1:i], '"') < 0 && bytes.Contains(t[i:], []byte("which is held by "))
}

// splitOneLineEdge cuts a one-line entry into its name, what it waits
// for and the holder's name ("" if not quoted).
func splitOneLineEdge(t []byte) (name, waiting, holder []byte) {
	i := bytes.Index(t, oneLineEdgeSep)
	name, rest := t[1:i], t[i+3:]
	j := bytes.LastIndex(rest, []byte("which is held by "))
	waiting = bytes.TrimRight(rest[:j], " ")
	h := bytes.TrimSpace(rest[j+len("which is held by "):])
	if len(h) > 1 && h[0] == '"' && h[len(h)-1] == '"' {
		holder = h[1 : len(h)-1]
	}
	return name, waiting, holder
}

// startHeadless begins a report pasted without its title at line, an
// entry of its summary (isOneLineEdge, or isReportName over an entry's
// line) or of its stack copy (isReportName over a frame).
func (s *jstackScanner) startHeadless(line []byte) {
	s.excerpt.report = true
	s.excerpt.headless = true
	if n, ok := s.p.ls.peek(0); isReportName(trimIndent(line)) && ok && bytes.HasPrefix(trimIndent(n.text), []byte("at ")) {
		s.startStacksOnly()
		s.p.ls.unread()
		return
	}
	s.d.Deadlocks = append(s.d.Deadlocks, Deadlock{Line: s.p.ls.lineNo(), Kind: "Java-level"})
	s.dl = &s.d.Deadlocks[len(s.d.Deadlocks)-1]
	s.edge = nil
	s.state = stDeadlock
	s.p.ls.unread()
}

// startsBody reports whether line is a line startsJVMBody may have
// claimed: a frame or a quoted name alone.
func startsBody(line []byte) bool {
	t := trimIndent(line)
	return isNameOnlyHeader(t) || isReportName(t) || bytes.HasPrefix(t, []byte("at "))
}

// mayStartBody is startsBody without the frames that follow a frame, an
// exception's message or "Caused by:" (inTrace): they belong to that
// trace, and startsJVMBody would refuse them. Asked on every line outside
// a dump, before the line is copied and the lines after it looked at: a
// log of exception traces pays one look a trace, not one a frame.
func mayStartBody(line, prev []byte) bool {
	t := trimIndent(line)
	return isNameOnlyHeader(t) || isReportName(t) || bytes.HasPrefix(t, []byte("at ")) && !inTrace(prev)
}

// inTrace reports whether prev, the line before a frame, puts that frame
// in an exception's trace: a frame, a "... N more", an exception's line.
func inTrace(prev []byte) bool {
	p := trimIndent(prev)
	return len(p) > 0 && (bytes.HasPrefix(p, []byte("at ")) || bytes.HasPrefix(p, []byte("...")) || looksLikeException(string(p)))
}

// jvmTextFormat is the JVM text format of the detection chain.
func jvmTextFormat() *textFormat {
	for i := range textFormats {
		if textFormats[i].format == FormatJVMText {
			return &textFormats[i]
		}
	}
	return nil
}

// isStateStart reports whether line is a thread's state line as jstack
// prints it: 3 spaces before it, or none when the paste lost them. Any
// other indentation is the paste's (prefix.go strips it, then asks
// again); a TAB before it is no jstack's either: the prefix learner,
// trying each place in a line a dump may start at, would take the TAB for
// the indentation of a dump whose thread headers it then reads as
// indented lines.
func isStateStart(line []byte) bool {
	return bytes.HasPrefix(line, prefixState) || bytes.HasPrefix(line, []byte("   ")) && bytes.HasPrefix(line[3:], prefixState)
}

// isThreadAtHeader reports whether line is the header NetBeans, VisualVM
// and Spring Boot's text thread dump print (actuator_text.go), which
// starts a paste of their threads without the lines above them:
//
//	"sendWmsFetchOrderThreadPool-1" - Thread t@4442
func isThreadAtHeader(line []byte) bool {
	if len(line) < 15 || line[0] != '"' {
		return false
	}
	i := bytes.LastIndex(line, []byte(`" - Thread t@`))
	return i > 0 && allDigits(bytes.TrimRight(line[i+len(`" - Thread t@`):], " \t"))
}

// isLostQuoteHeader reports whether line is a HotSpot thread header
// whose opening quote was lost in the paste: `main" #1 prio=5 os_prio=0
// tid=0x00007f6aec016800 nid=0xaba runnable`.
func isLostQuoteHeader(line []byte) bool {
	if len(line) < 20 || line[0] == '"' || line[0] == ' ' || line[0] == '\t' {
		return false
	}
	q := bytes.Index(line, []byte(`" `))
	if q <= 0 || bytes.IndexByte(line[:q], '"') >= 0 {
		return false
	}
	return isHotSpotHeader(append([]byte{'"'}, line...))
}

// startsJVMBody reports whether line, outside any dump, starts a paste of
// threads without their headers' shape, and why (the Dump.Excerpt note),
// looking at the lines after it (ls.peek):
//
//	\tat java.lang.Object.wait(Native Method)      frames first: a lock line
//	\t- waiting on <0x...> (a java.lang.Object)    among the frames, or a thread
//	\tat java.lang.Object.wait(Object.java:502)    header after them, tells a
//	...                                            thread from an exception's trace
//	"pool-1-thread-3"                              a quoted name alone over frames
//	    at sun.misc.Unsafe.park(Native Method)     (a reporter's abbreviation)
//
// prev is the line before (nil if none): frames after a frame, an
// exception's message or "Caused by:" belong to that trace.
func startsJVMBody(ls *lineSource, line, prev []byte) bool {
	t := trimIndent(line)
	if isReportName(t) {
		// A deadlock report's entry without its title: an entry's line
		// or a frame must follow.
		n, ok := ls.peek(0)
		if !ok {
			return false
		}
		nt := trimIndent(n.text)
		return isEdgeLine(nt) && bytes.HasPrefix(nt, []byte("waiting ")) || bytes.HasPrefix(nt, []byte("at ")) && parseFrame(nt[3:], newInterner()) != nil
	}
	if isNameOnlyHeader(t) {
		n, ok := ls.peek(0)
		if !ok {
			return false
		}
		nt := trimIndent(n.text)
		return bytes.HasPrefix(nt, []byte("at ")) && parseFrame(nt[3:], newInterner()) != nil || bytes.HasPrefix(nt, prefixState)
	}
	if !bytes.HasPrefix(t, []byte("at ")) || inTrace(prev) || parseFrame(t[3:], newInterner()) == nil {
		return false
	}
	// Look ahead through the frames: maxBodyLook lines bound the cost on
	// a log of exception traces (each trace is looked at once, from its
	// first frame).
	const maxBodyLook = 2048
	for k := 0; k < maxBodyLook; k++ {
		n, ok := ls.peek(k)
		if !ok {
			return false
		}
		nt := trimIndent(n.text)
		switch {
		case len(nt) == 0:
			continue
		case bytes.HasPrefix(nt, []byte("at ")):
			continue
		case len(nt) > 2 && nt[0] == '-' && nt[1] == ' ':
			body, _ := cutOwnedBy(nt[2:])
			_, ok := parseLockLine(body, newInterner(), false)
			return ok
		case bytes.HasPrefix(nt, []byte("Locked ownable synchronizers:")):
			return true
		case nt[0] == '"':
			return isHotSpotHeader(nt) || isThreadAtHeader(nt) || isThreadInfoHeader(nt)
		default:
			return false
		}
	}
	return false
}

// startExcerpt begins an excerpt at its first line (startsJVMExcerpt);
// false if it is none after all.
func (s *jstackScanner) startExcerpt(line []byte) bool {
	s.excerpt = &jstackExcerpt{}
	s.excerpt.newReport()
	switch {
	case isDeadlockStart(line):
		s.excerpt.report = true
		s.p.ls.unread() // the scanner starts the report (line)
		s.state = stPreamble
	case isDeadlockStacks(line):
		s.excerpt.report = true
		s.startStacksOnly()
	case isOneLineEdge(trimIndent(line)) || isReportName(trimIndent(line)):
		s.startHeadless(line)
	case isThreadAtHeader(line):
		s.excerpt.start = `no "Full thread dump" line: it starts at a thread`
		s.p.ls.unread()
		s.state = stThread
	case isLostQuoteHeader(line):
		s.excerpt.start = "its first thread header lost its opening quote (its name may be cut)"
		s.p.ls.replace(append([]byte{'"'}, line...))
		s.state = stThread
	case isNameOnlyHeader(trimIndent(line)):
		s.excerpt.start = "its threads are quoted names over frames: no ids, states or locks but those printed"
		s.excerpt.nameOnly = true
		s.p.ls.unread()
		s.state = stThread
	case isStateStart(line), bytes.HasPrefix(trimIndent(line), []byte("at ")):
		what := "its state line"
		if !bytes.HasPrefix(trimIndent(line), prefixState) {
			what = "its frames"
		}
		s.excerpt.start = "no thread header before its first thread: it starts at " + what
		s.unnamedThread()
		s.p.ls.unread()
		s.state = stThread
	default:
		return false
	}
	return true
}

// unnamedThread starts a thread whose header is not in the paste; its
// name says so: "(unnamed 1)".
func (s *jstackScanner) unnamedThread() {
	s.endThread()
	s.excerpt.unnamed++
	s.t = &Thread{Weight: 1, Line: s.p.ls.lineNo(), JVM: &JVM{Name: s.p.in.str(unnamedName(s.excerpt.unnamed))}}
	s.mounted = -1
	s.sawStateLine = false
}

// headerCut starts an unnamed thread at a state line that follows another
// thread's frames (threadLine): its header was cut in the paste. A dump
// read whole until then becomes an excerpt, and says so.
func (s *jstackScanner) headerCut() {
	if s.excerpt == nil {
		s.excerpt = &jstackExcerpt{}
		s.excerpt.newReport()
		s.excerpt.start = "a thread's header is missing: its state line follows another thread's frames"
	}
	s.unnamedThread()
	s.t.Line = s.p.ls.lineNo()
}

// unnamedName is the name of the k-th thread read without a header.
func unnamedName(k int) string {
	return "(unnamed " + strconv.Itoa(k) + ")"
}

// reportOnly reports whether the dump read is a deadlock report alone.
func (s *jstackScanner) reportOnly() bool { return s.excerpt != nil && s.excerpt.report }

// excerptNote says in Dump.Excerpt what the excerpt read lacks.
func (s *jstackScanner) excerptNote() {
	ex := s.excerpt
	if ex == nil || s.d.Excerpt != "" {
		return
	}
	if ex.start != "" {
		s.d.Excerpt = ex.start
		return
	}
	if ex.reports > 0 {
		s.d.Excerpt = "only the JVM's deadlock report: the threads it names, no others"
		if ex.headless {
			s.d.Excerpt += `; without its title ("Found one Java-level deadlock:")`
		}
		if !ex.stacks {
			s.d.Excerpt += `; without its stack copy ("Java stack information ..."), so without frames`
		}
	}
}
