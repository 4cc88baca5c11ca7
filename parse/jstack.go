package parse

import (
	"bytes"
	"strings"
	"time"
)

// JVM text thread dumps: jstack, jstack -l, jcmd PID Thread.print [-l] [-e],
// and kill -3 (SIGQUIT) output, possibly several inside a server log.
//
// A dump starts at one of (startsJVMText):
//
//	8905:                                  jcmd's PID line (optional)
//	2026-11-29 16:42:14                    the date line (optional)
//	Full thread dump OpenJDK 64-Bit Server VM (17.0.15+6 mixed mode, sharing):
//
// or, in a paste that lost those lines, at the first line of what is left:
//
//	Threads class SMR info:
//	"main" #1 prio=5 os_prio=0 tid=0x00007f6aec016800 nid=0xaba runnable  [0x...]
//	"http-nio-8072-exec-1" Id=236 in WAITING      (ThreadInfo.toString, logged by programs)
//
// The scanner (jstackScanner.run) is a state machine over the lines after
// the "Full thread dump" line. States and their edges:
//
//	preamble  blank, "Threads class SMR info:" block     -> thread, deadlock
//	thread    header, state line, frames, locks, carrier
//	          and compiler lines, blank lines            -> thread, ownable, deadlock, trailer
//	ownable   "Locked ownable synchronizers:" entries    -> thread, deadlock, trailer
//	deadlock  "Found one Java-level deadlock:" cycle and
//	          the "Java stack information" copy          -> trailer (at "Found N deadlock(s).")
//	trailer   "JNI global refs", blank, "Heap" block     -> deadlock, end
//
// The dump ends at the end of input, at the next dump's first line (unread
// for the caller), at <EndOfDump> (JMX-style dumps), at the first foreign
// line after the trailer, or after maxPending foreign lines in a row. A
// foreign line (not part of any JVM dump shape) met before the trailer is
// held back: if the dump goes on after it (a thread header, or a frame after
// at most 3 such lines, none of them an exception message), it was log
// output interleaved with the dump and is recorded in Dump.Skipped; if the
// dump ends instead, it was the log after the dump and is passed over.
//
// Nothing read is dropped silently at the end either: a frame or lock line
// cut at the end of input is recorded in Dump.Skipped, and a dump that
// stops in the middle of a thread, before its "JNI global refs:" line, gets
// a Skipped entry saying it looks truncated (checkTruncated).

// maxPending is the number of consecutive foreign lines after which a dump
// without trailer is taken to have ended.
const maxPending = 40

// jstackState is the state of the JVM text scanner; its names come from
// stringer, so messages and tests can name a state.
//
//go:generate stringer -type jstackState -trimprefix st
type jstackState int

const (
	stPreamble jstackState = iota
	stSMR
	stThread
	stOwnable
	stDeadlock
	stDeadlockStacks
	stTrailer
	stHeap
)

var (
	prefixFullDump = []byte("Full thread dump")
	prefixState    = []byte("java.lang.Thread.State:")
)

// startsJVMText reports whether line starts a JVM text dump: the "Full
// thread dump" line, or a date or jcmd PID line that may precede it (the
// parser then checks the next lines and gives up if no dump follows).
func startsJVMText(line, prev []byte) bool {
	if bytes.HasPrefix(line, prefixFullDump) {
		return true
	}
	return isDateLine(line) || isPIDLine(line) || isThreadInfoHeader(line) || isHotSpotHeader(line) || isToolThreadHeader(line) ||
		bytes.Equal(line, prefixSMR) || isIntelliJContainer(line) || startsJVMExcerpt(line) || isSAStart(line)
}

// prefixSMR is the first line of the block HotSpot prints before the threads
// since JDK 11; a paste that lost its "Full thread dump" line starts there.
var prefixSMR = []byte("Threads class SMR info:")

// isHotSpotHeader reports whether line is a HotSpot thread header, which
// starts a dump pasted without its "Full thread dump" line:
//
//	"main" #1 prio=5 os_prio=0 cpu=1124.82ms elapsed=116459.50s tid=0x00007f6aec016800 nid=0xaba runnable  [0x00007f6af4245000]
//	"VM Thread" os_prio=0 tid=0x00007fcb3c0f4440 nid=0x22a3 runnable
//
// The quoted name must be followed by prio= (or os_prio=) and tid=0x and
// nid= fields, or by the thread number (" #1 "): a log line that merely
// starts with a quote has none of them.
func isHotSpotHeader(line []byte) bool {
	if len(line) < 20 || line[0] != '"' {
		return false
	}
	end := bytes.LastIndex(line, []byte(`" `))
	if end <= 0 {
		return false
	}
	rest := line[end+1:]
	if !bytes.Contains(rest, []byte("prio=")) {
		return false
	}
	return bytes.Contains(rest, []byte(" tid=0x")) && bytes.Contains(rest, []byte(" nid=")) || hasThreadNumber(rest)
}

// hasThreadNumber reports whether rest, a header's text after the quoted
// name, begins with HotSpot's thread number (" #12 "): a header a paste
// or a tool left without its tid= and nid= ("main" #1 prio=5 os_prio=0
// waiting on condition) is still one.
func hasThreadNumber(rest []byte) bool {
	if len(rest) < 3 || rest[0] != ' ' || rest[1] != '#' {
		return false
	}
	i := 2
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	return i > 2 && i < len(rest) && rest[i] == ' '
}

// parseJVMText reads one JVM text dump; see the state machine above.
func parseJVMText(p *textParser) *Dump {
	d := &Dump{}
	line, ok := p.ls.next()
	if !ok {
		return nil
	}
	if isPIDLine(line) {
		d.ProcessID = atoiBytes(line[:len(line)-1])
		if line, ok = p.ls.next(); !ok {
			return nil
		}
	}
	if isDateLine(line) {
		d.Time = parseDateLine(line)
		if line, ok = p.ls.next(); !ok {
			return nil
		}
	} else if isDateLine(p.prev) {
		d.Time = parseDateLine(p.prev)
	}
	s := &jstackScanner{p: p, d: d, frames: make(map[string]*Frame)}
	switch {
	case bytes.HasPrefix(line, prefixFullDump):
		d.Version = dumpVersion(line[len(prefixFullDump):])
		s.full = true
	case d.ProcessID == 0 && d.Time.IsZero() && (isThreadInfoHeader(line) || isHotSpotHeader(line) || isToolThreadHeader(line) || isIntelliJContainer(line)):
		if isHotSpotHeader(line) && !bytes.Contains(line, []byte(" nid=NA ")) {
			// ThreadInfo and IntelliJ's debugger (nid=NA) print no
			// "Full thread dump" line; a jstack that starts at a
			// thread lost its head, and perhaps threads with it.
			d.Excerpt = `no "Full thread dump" line: it starts at a thread`
		}
		p.ls.unread()
		s.state = stThread
	case d.ProcessID == 0 && d.Time.IsZero() && isSAStart(line):
		// The Serviceability Agent's dump (jstack_sa.go): its first
		// line, or a JDK 8 thread header.
		s.sa = true
		if isSAThreadHeader(line) {
			p.ls.unread()
			s.state = stThread
		}
	case d.ProcessID == 0 && d.Time.IsZero() && bytes.Equal(line, prefixSMR):
		d.Excerpt = `no "Full thread dump" line: it starts at "Threads class SMR info:"`
		p.ls.unread()
	case startsJVMExcerpt(line) || d.ProcessID == 0 && d.Time.IsZero() && startsBody(line):
		// startsBody: a line parseText's startsJVMBody claimed.
		if !s.startExcerpt(line) {
			p.ls.unread()
			return nil
		}
	default:
		p.ls.unread()
		return nil
	}
	s.run()
	if s.sa {
		saLocks(d)
	}
	s.ij.place(d)
	s.excerptNote()
	d.Cut = d.Excerpt != "" // every excerpt of a jstack is a person's cut
	return d
}

// dumpVersion returns the VM description of a "Full thread dump" line:
// " Java HotSpot(TM) Client VM (1.4.2_03-b02 mixed mode):" gives
// "Java HotSpot(TM) Client VM (1.4.2_03-b02 mixed mode)". The HP-UX form
// "  [date] (Java HotSpot(TM) ... mixed mode):" loses its date and parentheses.
func dumpVersion(rest []byte) string {
	rest = bytes.TrimSpace(rest)
	rest = bytes.TrimSuffix(rest, []byte(":"))
	if len(rest) > 0 && rest[0] == '[' {
		if i := bytes.IndexByte(rest, ']'); i >= 0 {
			rest = bytes.TrimSpace(rest[i+1:])
			if len(rest) > 1 && rest[0] == '(' && rest[len(rest)-1] == ')' {
				rest = rest[1 : len(rest)-1]
			}
		}
	}
	return string(bytes.TrimSpace(rest))
}

// isDateLine reports whether line is exactly "yyyy-mm-dd hh:mm:ss", the
// line HotSpot prints before "Full thread dump".
func isDateLine(line []byte) bool {
	if len(line) != 19 {
		return false
	}
	for i, c := range line {
		switch i {
		case 4, 7:
			if c != '-' {
				return false
			}
		case 10:
			if c != ' ' {
				return false
			}
		case 13, 16:
			if c != ':' {
				return false
			}
		default:
			if c < '0' || c > '9' {
				return false
			}
		}
	}
	return true
}

// parseDateLine reads a date line. The JVM prints local time without a
// zone, so the wall clock is kept as printed, in UTC as a stand-in zone.
func parseDateLine(line []byte) time.Time {
	t, err := time.Parse(time.DateTime, string(line))
	if err != nil {
		return time.Time{}
	}
	return t
}

// isPIDLine reports whether line is "12345:", the first line jcmd prints.
func isPIDLine(line []byte) bool {
	if len(line) < 2 || len(line) > 12 || line[len(line)-1] != ':' {
		return false
	}
	for _, c := range line[:len(line)-1] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// atoiBytes parses a non-negative decimal number; it stops at the first
// non-digit. Overflow is not checked: callers pass short fields.
func atoiBytes(b []byte) int {
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// trimIndent removes leading spaces and tabs.
func trimIndent(b []byte) []byte {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	return b[i:]
}

// pendingLine is a foreign line held back until it is known whether the
// dump goes on after it.
type pendingLine struct {
	line   int
	text   string
	reason string
}

// jstackScanner reads the body of one JVM text dump.
type jstackScanner struct {
	p            *textParser
	d            *Dump
	state        jstackState
	t            *Thread // thread being read; nil before the first header
	mounted      int     // index in t.Frames where "Mounted virtual thread" frames start; -1 if none
	sawStateLine bool
	orphan       bool // after a header that could not be read: its lines are skipped
	// karafMonitors is true in the "Locked monitors: count = N" section
	// Apache Karaf's `threads --monitors` prints under a thread: its lines
	// repeat the stack's "- locked" lines, with the depth (threadinfo.go).
	karafMonitors bool
	// dropwizard is true while a thread of Dropwizard's /threads is read
	// (dropwizard.go); dwOwnerID is the id its owner line gave.
	dropwizard bool
	dwOwnerID  int64
	fbuf       []*Frame // frames of the current thread, copied to it at its end
	pending    []pendingLine
	dl         *Deadlock     // deadlock report being read
	edge       *DeadlockEdge // edge being read
	// frames caches frame lines by their text: one map lookup per frame line
	// instead of one per field. The frames themselves come from the interner.
	frames map[string]*Frame
	// full is true when the dump began with its "Full thread dump" line.
	full      bool
	lastBlank bool // the line last read was blank
	// bareFrames is true once a frame line of this dump was read without
	// its indentation ("at a.B.c(B.java:1)" at column 0: a log stream that
	// trims each line): a frame line not understood is then the thread's
	// too (badThreadLine), indented or not.
	bareFrames bool
	// nameOnly is a header that was a quoted name alone, held until the
	// next line tells whether it starts a thread (actuator_text.go); nil
	// if none. nameOnlyNo is its line.
	nameOnly   []byte
	nameOnlyNo int
	// sapHead is the first line of SAP JVM's three-line header, held
	// until its "tid=" line comes (jstack_sap.go); nil when none is.
	sapHead []byte
	lastNo  int    // number of the last non-blank line read
	last    []byte // copy of that line
	held    []byte // copy of a date or PID line read past (nextDumpHere)
	keptNo  int    // number of the last non-blank line read as the dump's (not held back)
	// ij is IntelliJ's thread containers and the threads' places in
	// them (intellij.go); nil until a header carries its metadata.
	ij *intellijContainers
	// excerpt is set when the dump is read from a part of a dump that
	// has no thread entries of its own (jstack_excerpt.go); nil otherwise.
	excerpt *jstackExcerpt
	// resumed is true while the current thread is one already in the
	// dump, given more lines (an excerpt's deadlock stack copy).
	resumed bool
	// sa is true in a Serviceability Agent's dump (jhsdb jstack, jstack
	// -F: jstack_sa.go): its deadlock report comes before the threads,
	// its frames are "- " lines.
	sa bool
}

// run reads lines until the dump ends.
func (s *jstackScanner) run() {
	defer s.finishReport()
	defer s.endThread()
	defer s.flushNameOnly()
	for {
		line, ok := s.p.ls.next()
		if !ok {
			s.cutAtEOF()
			s.checkTruncated()
			return
		}
		t := trimIndent(line)
		if len(t) > 0 && len(t) == len(line) && (line[0] == nbsp[0] || line[0] == '&') {
			// Only a line not indented by spaces or TABs can need a stage.
			line = s.learnStage(line)
			t = trimIndent(line)
		}
		if len(t) == 0 {
			s.blank()
			s.lastBlank = true
			continue
		}
		if len(t) == len(line) {
			// nextDumpHere reads on: line may hold another line after it.
			full := bytes.HasPrefix(line, prefixFullDump)
			if full {
				s.p.ls.unread()
				s.checkTruncated()
				return
			}
			if isDateLine(line) || isPIDLine(line) {
				var here bool
				if here, line = s.nextDumpHere(line); here {
					s.checkTruncated()
					return
				}
				t = line // the date or PID line, read as a foreign line
			}
		}
		// The last line is kept for checkTruncated: one copy into a reused
		// buffer per line, no allocation.
		s.lastBlank = false
		s.lastNo = s.p.ls.lineNo()
		s.last = append(s.last[:0], line...)
		if !s.line(line, t) {
			if len(s.pending) >= maxPending {
				s.checkTruncated() // the dump ended at log lines
			}
			return
		}
		if len(s.pending) == 0 {
			s.keptNo = s.lastNo
		}
	}
}

// learnStage turns on the stage a line not indented by spaces or TABs
// needs (indent.go, escape.go), and returns the line read under it:
//
//	\u00a0\u00a0\u00a0\u00a0at a.B.c(B.java:1)      indented by no-break spaces (copied
//	                                         from a rendered page): read as spaces
//	&quot;main&quot; #1 prio=5 ...           a thread header HTML-escaped (a wiki's
//	                                         source): the rest read unescaped
func (s *jstackScanner) learnStage(line []byte) []byte {
	switch {
	case bytes.HasPrefix(line, nbsp):
		return s.p.ls.learnNBSP()
	case isEscapedQuote(line):
		return s.p.ls.learnHTML()
	}
	return line
}

// nextDumpHere is asked at a date or jcmd PID line inside a dump: such a
// line starts the next dump only when that dump's "Full thread dump" line
// (or, after a PID line, its date line) comes right after it. Then both
// lines are queued to be read again as read, prefix and all, and the dump
// ends before them (true). A date or a number alone (a person's note, a
// log line) is a line inside the dump (false: the line after it is given
// back, the date line is read as a foreign line).
//
// It returns line, or a copy of it when it read on (line may alias the
// line source's buffers).
func (s *jstackScanner) nextDumpHere(line []byte) (bool, []byte) {
	ls := s.p.ls
	first, ok := ls.asRead()
	if !ok {
		ls.unread() // no look ahead here (a line joined from records): the dump ends, as it always did
		return true, line
	}
	s.held = append(s.held[:0], line...)
	before := rawLine{no: ls.prevNo(), partial: ls.cut()}
	next, ok := ls.next()
	if !ok {
		return false, s.held
	}
	here := bytes.HasPrefix(next, prefixFullDump) || isPIDLine(s.held) && isDateLine(next)
	second, ok := ls.asRead()
	if !ok {
		// A line joined from records: given back as it is.
		ls.unread()
		return here, s.held
	}
	if !here {
		// The next line is read again, in its place; the line handled now
		// is the date or PID line.
		ls.readAgain(first, second)
		return false, s.held
	}
	// The dump's last line is the one before them.
	before.partial = second.partial
	ls.readAgain(before, first, second)
	return true, line
}

// blank handles an empty line.
func (s *jstackScanner) blank() {
	switch s.state {
	case stSMR:
		s.state = stPreamble
	case stHeap:
		s.state = stTrailer
	}
}

// line handles one non-empty line; it returns false when the dump has ended
// (the line is then unread if it may belong to someone else).
func (s *jstackScanner) line(line, t []byte) bool {
	indented := len(t) < len(line)
	if s.nameOnly != nil {
		// The state line under it, indented or not (a log stream that
		// trims each line, as Heroku's, leaves it at column 0).
		if bytes.HasPrefix(t, prefixState) || s.excerpt != nil && s.excerpt.nameOnly && bytes.HasPrefix(t, []byte("at ")) {
			s.t = &Thread{Weight: 1, Line: s.nameOnlyNo, JVM: &JVM{Name: s.p.in.bytes(bytes.TrimSpace(s.nameOnly)[1 : len(bytes.TrimSpace(s.nameOnly))-1])}}
			s.orphan = false
			s.mounted = -1
			s.sawStateLine = false
		} else {
			s.flushNameOnly()
		}
		s.nameOnly = nil
	}
	if s.sapHead != nil || !indented && isSAPHeadStart(t) {
		if joined, ok := s.sapHeader(t); ok {
			if joined == nil {
				return true // held, or its io= line
			}
			line, t = joined, joined
		}
	}
	// Deadlock reports may follow the threads or the trailer.
	if isDeadlockStart(t) {
		s.endThread()
		s.flushPending()
		s.startDeadlock(t)
		return true
	}
	if s.sa && !indented {
		switch {
		case bytes.Equal(t, saNoDeadlock):
			return true
		case isSAThreadHeader(t):
			s.endThread()
			s.flushPending()
			th := saThread(t, s.p.in)
			th.Line = s.p.ls.lineNo()
			s.t, s.orphan, s.mounted, s.sawStateLine, s.state = th, false, -1, false, stThread
			return true
		}
	}
	switch s.state {
	case stDeadlock, stDeadlockStacks:
		return s.deadlockLine(line, t)
	case stTrailer, stHeap:
		return s.trailerLine(line, t)
	case stSMR:
		if t[0] == '_' || t[0] == '}' || bytes.HasPrefix(t, []byte("0x")) {
			return true
		}
	}
	if bytes.Equal(t, []byte("<EndOfDump>")) {
		return false
	}
	if !indented && bytes.Equal(t, prefixSMR) && s.t == nil {
		s.state = stSMR
		return true
	}
	if !indented && bytes.HasPrefix(t, []byte("JNI global ref")) {
		s.endThread()
		s.flushPending() // log lines before the trailer were inside the dump
		s.state = stTrailer
		return true
	}
	if !indented && bytes.Equal(t, []byte("Heap")) && s.t != nil {
		s.endThread()
		s.flushPending()
		s.state = stHeap
		return true
	}
	if t[0] == '"' && !indented && s.p.ls.cut() && !headerHasState(line) {
		// The last line of a cut input: a header that lost its end would
		// make a thread with a wrong id or state ("many-3380" #339). A
		// whole header in a file without a final newline is kept.
		s.endThread()
		s.flushPending()
		s.p.skip(s.d, line, "line cut at end of input")
		s.orphan = true
		s.state = stThread
		return true
	}
	if !indented && t[0] == '>' {
		// A Markdown quote's mark on a thread's header alone: a paste
		// quoted in an issue or a mail repeats "> " only on the first
		// line of each paragraph (the rest are its lazy continuation),
		// and a JVM dump's paragraph is a thread (IntelliJ's "Dump
		// Thread" pasted so, pingidentity/scim#7). The header is read
		// without it; a quote on every line is the prefix stage's.
		if q := trimQuoteMarks(t); len(q) > 0 && q[0] == '"' && (isHotSpotHeader(q) || isThreadInfoHeader(q)) {
			line, t = q, q
		}
	}
	if !indented && t[0] != '"' && isLostQuoteHeader(t) {
		// A header whose opening quote was lost (`worker-1" #12 prio=5 …`):
		// read with it, not given to the thread before as a foreign line.
		line = append([]byte{'"'}, t...)
		t = line
	}
	if t[0] == '"' && !indented {
		th := parseThreadHeader(line, s.p.in)
		if th == nil {
			if fixed := closeQuote(t); fixed != nil {
				th = parseThreadHeader(fixed, s.p.in) // `"worker-2 #13 prio=5 …`: its closing quote lost
			}
		}
		if th == nil && isNameOnlyHeader(t) {
			// A quoted name with no id, priority or state. No JVM prints
			// that; it is a thread only if its state line follows
			// (actuator_text.go), else it and the lines up to the next
			// header are kept as skipped rather than given to the
			// previous thread.
			s.endThread()
			s.flushPending()
			s.nameOnly = append(s.nameOnly[:0], line...)
			s.nameOnlyNo = s.p.ls.lineNo()
			s.orphan = true
			s.state = stThread
			return true
		}
		if th != nil {
			s.orphan = false
			s.endThread()
			s.flushPending()
			if isIntelliJ(th) {
				intellijHeader(th, s.p.in)
				if intellijHeaderMeta(&s.ij, th, line) {
					s.t = nil // a thread container, not a thread
					s.state = stThread
					return true
				}
			}
			th.Line = s.p.ls.lineNo()
			s.t = th
			s.dropwizard, s.dwOwnerID = isDropwizardHeader(t), 0
			s.mounted = -1
			s.sawStateLine = false
			s.state = stThread
			return true
		}
	}
	if s.t != nil && s.threadLine(line, t) {
		return true
	}
	if s.t == nil && s.ij.inContainer() && bytes.HasPrefix(t, []byte("Carrying virtual thread #")) {
		return true // a container's line: it carries no thread of its own
	}
	if s.orphan && s.t == nil && len(s.pending) == 0 && isThreadBodyLine(t) {
		s.p.skip(s.d, line, "line of a thread whose header was not understood")
		return true
	}
	return s.foreign(line)
}

// threadLine handles a line that belongs to the current thread; false if
// it is not a thread line. Held-back foreign lines decide whether a frame
// continues the thread (see the package comment of this file).
func (s *jstackScanner) threadLine(line, t []byte) bool {
	th := s.t
	if s.karafMonitors && len(t) < len(line) {
		// "- java.lang.Object@19469ea2 locked at " and the depth and
		// frame under it ("0 app//Svc.lockBoth(Svc.java:68)"): the
		// stack printed each lock already, at its frame.
		if bytes.HasPrefix(t, []byte("- ")) && bytes.HasSuffix(bytes.TrimRight(t, " "), []byte(" locked at")) {
			return true
		}
		if d, f, ok := bytes.Cut(t, []byte(" ")); ok && allDigits(d) && parseFrame(f, s.p.in) != nil {
			return true
		}
	}
	switch {
	case bytes.HasPrefix(t, []byte("at ")):
		if !s.resumable() {
			return false
		}
		f := s.frame(t[3:])
		if f == nil {
			// Only in a dump with no "Full thread dump" line (a paste, an
			// excerpt): a paste ends where the copy stopped, often inside
			// a line; in a whole jstack a line like it is damage, skipped
			// and said.
			if !s.full {
				f = cutFrame(t[3:], s.p.in)
			}
			if f == nil {
				return s.badThreadLine(line, t, "frame line not understood")
			}
			if len(s.pending) > 0 || len(t) == len(line) && !s.bareFrames {
				return false // as badThreadLine: not this thread's line
			}
			s.d.Partial = append(s.d.Partial, Skipped{Line: s.p.ls.lineNo(), Text: string(line[:min(len(line), 200)]),
				Reason: "a JVM frame line without its (location): cut there, read as a frame of " + f.Func})
		}
		if len(t) == len(line) {
			s.bareFrames = true
		}
		s.flushPending()
		s.fbuf = append(s.fbuf, f)
		s.state = stThread
		return true
	case len(s.fbuf) == 0 && len(th.Locks()) == 0 && bytes.HasPrefix(t, []byte("waiting on ")):
		// A tool's wait line above the frames, without "- "
		// (jvm_tool_headers.go): read as the lock line it is.
		t = append([]byte("- "), t...)
		fallthrough
	case len(t) > 1 && t[0] == '-' && t[1] == ' ':
		if !s.resumable() {
			return false
		}
		if isSAFrame(t[2:]) {
			// The agent's frame, in any JVM text: an excerpt of its dump
			// starts at a thread, without its first line (jstack_sa.go).
			f := saFrame(t[2:], s.p.in)
			if f == nil {
				return s.badThreadLine(line, t, "frame line not understood")
			}
			s.flushPending()
			s.fbuf = append(s.fbuf, f)
			s.state = stThread
			return true
		}
		body, owner := cutOwnedBy(t[2:])
		l, ok := parseLockLine(body, s.p.in, s.state == stOwnable)
		if !ok {
			return s.badThreadLine(line, t, "lock line not understood")
		}
		if owner != nil {
			l.Owner = s.p.in.bytes(owner)
			l.OwnerID = ownedByID(t)
			if l.Kind == LockWaitingTo && parkedWaitingTo(s.fbuf) {
				l.Kind = LockParking
			}
		}
		if l.Kind == LockWaitingOn && parkedWaitingTo(s.fbuf) {
			l.Kind = LockParking // ThreadInfo: "-  waiting on X@hash" under Unsafe.park
		}
		if l.Kind == LockWaitingOn && owner != nil && th.State == "BLOCKED" {
			l.Kind = LockWaitingTo // a tool's "waiting on X owned by" of a thread BLOCKED: a monitor's entry
		}
		s.flushPending()
		if l.Kind == "" {
			return true // "- None"
		}
		if l.Kind == LockOwnable {
			l.Frame = -1
		} else {
			l.Frame = len(s.fbuf) - 1
		}
		th.JVM.Locks = append(th.JVM.Locks, l)
		return true
	case bytes.HasPrefix(t, prefixState):
		if s.sawStateLine && len(s.fbuf) > 0 {
			// A state line under a thread's frames: no JVM prints two
			// for one thread. A paste that cut each thread from its
			// state line (deephaven-core#4383's form, two threads of a
			// class-initialization cycle) puts the next thread here;
			// read it as a thread of its own, not as frames of this one.
			s.headerCut()
			th = s.t
		}
		st, detail := parseStateLine(t[len(prefixState):])
		th.State = s.p.in.bytes(st)
		if len(detail) > 0 || th.StateDetail == "" {
			th.StateDetail = s.p.in.bytes(detail)
		}
		s.sawStateLine = true
		return true
	case bytes.HasPrefix(t, []byte("Locked ownable synchronizers:")),
		bytes.HasPrefix(t, []byte("Locked synchronizers: count =")),
		bytes.HasPrefix(t, []byte("Number of locked synchronizers = ")): // ThreadInfo
		s.state = stOwnable
		s.karafMonitors = false
		if th != nil && th.JVM != nil {
			th.JVM.Ownables = true
		}
		return true
	case bytes.HasPrefix(t, []byte("Locked monitors: count =")) && th.ID != 0: // Karaf's --monitors
		s.karafMonitors = true
		return true
	case bytes.Equal(t, []byte("...")) && len(t) < len(line) && s.state == stThread:
		// ThreadInfo.toString cuts a stack at 8 frames; the frames
		// after are not in the dump, and the thread says so.
		if s.t.JVM != nil {
			s.t.JVM.StackCut = true
		}
		return true
	case isIntelliJ(th) && (t[0] == 'w' || t[0] == 'b'):
		l, isLock, ok := intellijLockLine(t, s.p.in)
		if !ok {
			return false
		}
		s.flushPending()
		if isLock {
			l.Frame = len(s.fbuf) // printed above the frames: the top frame's (0 when none yet)
			if l.Frame > 0 {
				l.Frame--
			}
			th.JVM.Locks = append(th.JVM.Locks, l)
		}
		return true
	case s.dropwizard && len(s.fbuf) == 0 && bytes.HasPrefix(t, []byte("owned by ")):
		name, id, ok := dropwizardOwner(t)
		if !ok {
			return false
		}
		th.StateDetail = s.p.in.str(`owned by "` + string(name) + `"`) // given to the wait by threadInfoWait
		s.dwOwnerID = id
		return true
	case s.dropwizard && len(s.fbuf) == 0 && len(t) > 1 && t[0] == '-' && t[1] == ' ' && len(cutDropwizardTrailer(t)) < len(t):
		return s.threadLine(line[:len(line)-(len(t)-len(cutDropwizardTrailer(t)))], cutDropwizardTrailer(t))
	case bytes.HasPrefix(t, []byte("owned by ")) && th.ID != 0 && len(s.fbuf) == 0 && bytes.HasPrefix([]byte(th.StateDetail), []byte("on ")) &&
		!bytes.Contains([]byte(th.StateDetail), []byte(" owned by ")):
		// Apache Karaf's `threads` (openHAB's console): the owner of
		// the lock in the header's "on lock=X@hash", on a line of its
		// own under the header, its name unquoted (threadinfo.go).
		name, id, ok := bytes.Cut(t[len("owned by "):], []byte(" Id="))
		for ok {
			// The name may hold " Id=" itself: the last one is the id's.
			n, rest, more := bytes.Cut(id, []byte(" Id="))
			if !more {
				break
			}
			name, id = append(append(append([]byte{}, name...), " Id="...), n...), rest
		}
		if !ok || len(id) == 0 || !allDigits(id) {
			return false
		}
		th.StateDetail = s.p.in.str(th.StateDetail + ` owned by "` + string(name) + `" Id=` + string(id))
		return true
	case len(t) > 0 && t[0] == '(' && isFreezeDump(th) && len(s.fbuf) == 0 && isFreezeTail(t):
		return true // " (in native)", " (suspended)" with no lock: nothing the model holds
	case len(t) > 3 && t[0] == 'o' && t[1] == 'n' && t[2] == ' ' && isFreezeDump(th) && len(s.fbuf) == 0:
		l, ok := freezeLockLine(t, s.p.in)
		if !ok {
			return false
		}
		s.flushPending()
		th.JVM.Locks = append(th.JVM.Locks, l) // its kind is the frames' to tell (freezeLockKind)
		return true
	case bytes.HasPrefix(t, []byte("Carrying virtual thread #")):
		th.MountedVirtual = int64(atoiBytes(t[len("Carrying virtual thread #"):]))
		return true
	case bytes.HasPrefix(t, []byte("Mounted virtual thread #")):
		if th.MountedVirtual == 0 {
			th.MountedVirtual = int64(atoiBytes(t[len("Mounted virtual thread #"):]))
		}
		s.mounted = len(s.fbuf)
		return true
	case bytes.HasPrefix(t, saVMState):
		// The agent's "JavaThread state: _thread_blocked": the VM's view,
		// beside the state line; nothing reads it.
		return true
	case bytes.Equal(t, []byte("No compile task")), bytes.HasPrefix(t, []byte("Compiling:")):
		// Compiler threads name their current task; the model has no
		// place for it and nothing reads it.
		return true
	}
	return false
}

// badThreadLine handles an indented frame or lock line of the current
// thread that does not parse ("\tat java.util.con", a line cut in the
// middle): it is recorded as skipped and the thread goes on, so that the
// frames after it are still the thread's. With lines held back before it,
// or without indentation in a dump whose frames are indented, it is a
// foreign line like any other (false).
func (s *jstackScanner) badThreadLine(line, t []byte, reason string) bool {
	if len(s.pending) > 0 || len(t) == len(line) && !s.bareFrames {
		return false
	}
	if s.p.ls.cut() {
		reason = "line cut at end of input"
	}
	s.p.skip(s.d, line, reason)
	return true
}

// cutAtEOF records the last line of the input when it was cut in the middle
// (no line ending) and was held back as foreign: a thread line that lost its
// end ("\t- parking to wait for  <0x...> (a java.util.con") would otherwise
// be passed over as log output after the dump.
func (s *jstackScanner) cutAtEOF() {
	n := len(s.pending)
	if !s.p.ls.cut() || n == 0 || s.pending[n-1].line != s.p.ls.lineNo() {
		return
	}
	last := s.pending[n-1]
	t := trimIndent([]byte(last.text))
	if !isThreadBodyLine(t) && (len(t) == 0 || t[0] != '"') {
		return
	}
	s.pending = s.pending[:n-1]
	s.d.Skipped = append(s.d.Skipped, Skipped{Line: last.line, Text: last.text, Reason: "line cut at end of input"})
}

// headerHasState reports whether a HotSpot header goes on after its nid=
// value, the last field before the state words: such a header was not cut
// before its end, or only in its state words.
func headerHasState(line []byte) bool {
	i := bytes.Index(line, []byte(" nid="))
	return i >= 0 && bytes.IndexByte(line[i+len(" nid="):], ' ') > 0
}

// truncatedReason is the Skipped reason of a dump cut in the middle of a thread.
const truncatedReason = "dump ends without its JNI global refs line: truncated?"

// checkTruncated runs where the dump ends at the end of input or at the
// next dump's first line. A dump that began with "Full thread dump" and
// stops inside a thread, before "JNI global refs:" and any other trailer
// section, was cut (a kill -3 log copied while the JVM was still writing,
// head on a big file): its last line is recorded in Skipped so that the
// missing threads are not read as threads that went away. Only a cut in
// the middle of a thread is flagged, never a dump that ends after a blank
// line: JDK 5 and older, and some tools, print no JNI line at all.
//
//	last line cut (no line ending)                          flagged
//	last line a line of a Java thread (stack or state line) flagged
//	last line a Java thread's header ("main" #1 prio=5 ...) flagged
//	last line a header without #N                           not flagged (the
//	    non-Java threads that end a dump print no stack; JDK 5 prints no #N)
//	last line blank or held back as foreign (log output)    not flagged,
//	    unless the dump's last line was a frame or lock line not
//	    understood (a cut line pasted into something)         flagged
func (s *jstackScanner) checkTruncated() {
	if !s.full || s.state != stThread && s.state != stOwnable {
		return
	}
	if len(s.pending) > 0 {
		// The dump's last line a frame or lock line not understood, then
		// only lines of no dump: a cut dump pasted into something (a
		// Markdown fence, a JSON field, a <pre>), its cut line no longer
		// the input's last.
		if n := len(s.d.Skipped); n > 0 && s.d.Skipped[n-1].Line == s.keptNo && strings.HasSuffix(s.d.Skipped[n-1].Reason, "not understood") {
			s.d.Skipped[n-1].Reason += "; " + truncatedReason
		}
		return
	}
	if s.lastBlank {
		return
	}
	cut := s.p.ls.cutAtEnd() && s.lastNo == s.p.ls.lineNo()
	if !cut && (s.t == nil || len(s.fbuf) == 0 && !s.sawStateLine && s.t.ID == 0) {
		return
	}
	if n := len(s.d.Skipped); n > 0 && s.d.Skipped[n-1].Line == s.lastNo {
		// The cut line is already recorded (cutAtEOF, badThreadLine).
		s.d.Skipped[n-1].Reason += "; " + truncatedReason
		return
	}
	text := s.last
	if len(text) > 200 {
		text = text[:200]
	}
	s.d.Skipped = append(s.d.Skipped, Skipped{Line: s.lastNo, Text: string(text), Reason: truncatedReason})
}

// flushNameOnly records a held name-only header as skipped.
func (s *jstackScanner) flushNameOnly() {
	if s.nameOnly == nil {
		return
	}
	text := s.nameOnly
	if len(text) > 200 {
		text = text[:200]
	}
	s.d.Skipped = append(s.d.Skipped, Skipped{Line: s.nameOnlyNo, Text: string(text),
		Reason: "thread header with a name only (no id, priority or state)"})
	s.nameOnly = nil
}

// resumable reports whether a frame or lock line may continue the current
// thread after the held-back foreign lines.
func (s *jstackScanner) resumable() bool {
	if len(s.pending) == 0 {
		return true
	}
	if len(s.pending) > 3 {
		return false
	}
	for _, pl := range s.pending {
		if looksLikeException(pl.text) {
			return false
		}
	}
	return true
}

// looksLikeException reports whether a log line starts a logged stack
// trace ("java.lang.IllegalStateException: ...", "Caused by: ..."), whose
// "\tat" lines are not a thread's frames.
func looksLikeException(s string) bool {
	for _, w := range []string{"Exception", "Error", "Throwable", "Caused by", "\tat "} {
		if bytesContains(s, w) {
			return true
		}
	}
	return false
}

func bytesContains(s, sub string) bool {
	return len(sub) <= len(s) && bytes.Contains([]byte(s), []byte(sub))
}

// trimQuoteMarks takes a Markdown quote's marks ("> ", ">> ", "> > ") off
// the front of t.
func trimQuoteMarks(t []byte) []byte {
	i := 0
	for i < len(t) && (t[i] == '>' || t[i] == ' ' && i > 0) {
		i++
	}
	return t[i:]
}

// foreign holds back a line no rule understood; false ends the dump.
func (s *jstackScanner) foreign(line []byte) bool {
	if s.state == stTrailer {
		s.p.ls.unread()
		return false
	}
	if len(s.pending) >= maxPending {
		return false
	}
	if len(line) > 200 {
		line = line[:200]
	}
	reason := "foreign line inside a JVM dump (interleaved log output?)"
	if bytes.Contains(line, []byte("tid=")) && bytes.Contains(line, []byte("prio=")) {
		reason = "thread header fields without the quoted name (line cut by the producer?)"
	}
	s.pending = append(s.pending, pendingLine{line: s.p.ls.lineNo(), text: string(line), reason: reason})
	return true
}

// flushPending records the held-back lines as skipped: the dump went on
// after them, so they were inside it.
func (s *jstackScanner) flushPending() {
	for _, pl := range s.pending {
		s.d.Skipped = append(s.d.Skipped, Skipped{Line: pl.line, Text: pl.text, Reason: pl.reason})
	}
	s.pending = s.pending[:0]
}

// endThread finishes the current thread and appends it to the dump. A
// carrier's stack is printed carrier frames first, then "Mounted virtual
// thread #N" and the virtual thread's frames; the frames are stored as one
// stack, innermost first: the virtual thread's frames, then the carrier's.
func (s *jstackScanner) endThread() {
	th := s.t
	s.karafMonitors = false
	if th == nil {
		return
	}
	s.t = nil
	if len(s.fbuf) > 0 {
		th.Frames = append([]*Frame(nil), s.fbuf...) // one allocation of the exact size
		s.fbuf = s.fbuf[:0]
	}
	if k := s.mounted; k > 0 && k < len(th.Frames) {
		n := len(th.Frames)
		frames := make([]*Frame, 0, n)
		frames = append(frames, th.Frames[k:]...)
		frames = append(frames, th.Frames[:k]...)
		th.Frames = frames
		for i := range th.Locks() {
			switch f := th.JVM.Locks[i].Frame; {
			case f < 0:
			case f < k:
				th.JVM.Locks[i].Frame = f + (n - k)
			default:
				th.JVM.Locks[i].Frame = f - k
			}
		}
	}
	if len(th.Frames) == 0 && !s.sawStateLine {
		th.NoStack = true
	}
	for i := range th.Locks() {
		if th.JVM.Locks[i].Frame >= len(th.Frames) {
			// IntelliJ prints its wait above the frames: with no frame
			// after it, the lock follows none.
			th.JVM.Locks[i].Frame = -1
		}
	}
	threadInfoWait(th, s.p.in)
	if s.dropwizard {
		dropwizardLocks(th, s.dwOwnerID, s.p.in)
		s.dropwizard = false
	}
	if isFreezeDump(th) {
		freezeLockKind(th)
	}
	if s.resumed {
		s.resumed = false // in the dump already
	} else {
		s.d.Threads = append(s.d.Threads, th)
	}
	if s.state == stOwnable {
		s.state = stThread
	}
}

// frame returns the frame of the text after "at ", or nil if it is not a
// frame ("at" followed by prose in a log line).
func (s *jstackScanner) frame(text []byte) *Frame {
	if f, ok := s.frames[string(text)]; ok {
		return f
	}
	f := parseFrame(text, s.p.in)
	if f != nil {
		s.frames[string(text)] = f
	}
	return f
}

// trailerLine handles a line after the threads: heap summary or the end.
func (s *jstackScanner) trailerLine(line, t []byte) bool {
	indented := len(t) < len(line)
	switch {
	case !indented && bytes.Equal(t, []byte("Heap")):
		s.state = stHeap
		return true
	case s.state == stHeap && indented:
		return true
	case !indented && bytes.HasPrefix(t, []byte("JNI global ref")):
		return true
	}
	s.p.ls.unread()
	return false
}

// isNameOnlyHeader reports whether t is just a quoted thread name.
func isNameOnlyHeader(t []byte) bool {
	t = bytes.TrimRight(t, " \t")
	return len(t) > 1 && t[0] == '"' && t[len(t)-1] == '"'
}

// isThreadBodyLine reports whether t (indentation removed) has the shape
// of a line inside a thread entry.
func isThreadBodyLine(t []byte) bool {
	return bytes.HasPrefix(t, []byte("at ")) || bytes.HasPrefix(t, []byte("- ")) ||
		bytes.HasPrefix(t, prefixState) || bytes.HasPrefix(t, []byte("Locked ownable synchronizers:"))
}
