package parse

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Go text goroutine dumps: runtime.Stack(buf, true), /debug/pprof/goroutine?debug=2,
// panic and fatal error output, SIGQUIT tracebacks, from old Go to 1.27.
//
// A dump is a prologue (optional) and goroutine blocks:
//
//	panic: order 5: inventory went negative [recovered, repanicked]    prologue
//	[signal SIGSEGV: segmentation violation code=0x1 addr=0x40 pc=0x811ac1]
//
//	goroutine 27 gp=0xc000003 m=0 mp=0x579480 [chan receive, 5 minutes, locked to thread]:
//	main.process(0x5, 0x1d4b373b60f0)                                   function line
//		corpusgen/crash/main.go:47 +0xaf fp=0x.. sp=0x.. pc=0x..       file line
//	...81 frames elided...
//	created by main.dispatcher in goroutine 24
//		corpusgen/crash/main.go:55 +0x32
//	[originating from goroutine 1]:                                     tracebackancestors
//	main.start(...)
//		/src/http.go:30 +0x87
//
//	rax    0xca                                                         SIGQUIT register dump (epilogue)
//
// The scanner is a state machine over classified lines (goLineKind). Its
// states and edges:
//
//	prologue -- header --> goroutine;  prologue -- any other line --> prologue
//	goroutine -- function line --> wantFile;  wantFile -- file line --> goroutine
//	goroutine -- "created by" --> wantCreatorFile --> goroutine
//	goroutine -- "[originating from goroutine N]:" --> goroutine (frames now go to the ancestor)
//	goroutine -- "runtime stack:" --> system (frames dropped: they belong to no goroutine)
//	goroutine -- panic:/fatal error:/SIGQUIT --> end of dump, unread (newCapture: a
//	       second crash traceback in the same file), or prologue (the same dump goes
//	       on: "runtime stack:", the next M after "-----", syzkaller's "REPORT:",
//	       a dump that had no prologue of its own)
//	any -- register line, "-----" --> same state (epilogue, understood and dropped)
//	any -- a line no rule knows --> peek at the next non-blank line: if it is
//	       a Go dump line, the unknown one is recorded in Dump.Skipped and the
//	       scan goes on; otherwise the dump ends there (log output after the
//	       dump; the unknown line and the blank lines are passed over).
//
// A header whose goroutine id was already seen since the last prologue ends
// the dump: that is a second capture appended to the same file.
//
// The scanner (this file) reads, classifies and decides; the builder
// (goroutine_build.go) makes threads and frames from what the scanner
// emits, on a second core when there is one.
//
// Cost: one pass, no regexp, no allocation per repeated frame (the frame
// cache is keyed by the raw "path:line" bytes, checked against the
// function name); threads, creators and frame slices are carved from
// slabs. This is the hot loop.

// goLineKind classifies one line of a Go text dump.
type goLineKind uint8

const (
	glUnknown   goLineKind = iota
	glBlank                // ""
	glHeader               // goroutine 1 [running]:
	glFunc                 // main.main() / main.bar(...) / panic({0x4b27a0?, 0x1d4b373a6028?})
	glFile                 // \t/path/main.go:18 +0x25 fp=0x.. sp=0x.. pc=0x..
	glCreatedBy            // created by main.main in goroutine 1
	glElided               // ...81 frames elided... / ...additional frames elided...
	glOrigin               // [originating from goroutine 1]:
	glNoStack              // \tgoroutine running on other thread; stack unavailable
	glStart                // panic: / fatal error: / SIGQUIT: quit / runtime stack:
	glEpilogue             // rax    0xca / ----- / runtime: ... / stack: frame={...} / 0xc000049f08:  0x0  0x0
)

// classifyGoLine looks only at the first bytes and the last byte of line
// except for the rare kinds.
func classifyGoLine(line []byte) goLineKind {
	k, _ := classifyGoLineParen(line)
	return k
}

// classifyGoLineParen is classifyGoLine that also returns, for a function
// line, the index of the '(' opening its arguments (see argsParen).
func classifyGoLineParen(line []byte) (goLineKind, int) {
	if len(line) == 0 {
		return glBlank, 0
	}
	switch line[0] {
	case '\t':
		if len(line) > 1 && line[1] == 'g' && bytes.HasPrefix(line, []byte("\tgoroutine running on other thread")) {
			return glNoStack, 0
		}
		return glFile, 0 // fileLine checks for the ":line"
	case 'g':
		if isGoHeader(line) {
			return glHeader, 0
		}
	case 'c':
		if bytes.HasPrefix(line, []byte("created by ")) {
			return glCreatedBy, 0
		}
	case '.':
		if bytes.HasPrefix(line, []byte("...")) && bytes.HasSuffix(line, []byte("elided...")) {
			return glElided, 0
		}
		if personElision(line) {
			return glElided, 0
		}
	case 0xe2:
		if personElision(line) {
			return glElided, 0
		}
	case '[':
		if bytes.HasPrefix(line, []byte("[originating from goroutine ")) {
			return glOrigin, 0
		}
		if personElision(line) {
			return glElided, 0
		}
	case '-':
		if isDashes(line) {
			return glEpilogue, 0
		}
	case 'r', 's', '0':
		if isRuntimeDiagnostic(line) {
			return glEpilogue, 0
		}
	case ' ':
		return glUnknown, 0
	}
	if line[len(line)-1] == ')' {
		if i := argsParen(line); i > 0 {
			return glFunc, i
		}
	}
	if isGoStart(line) {
		return glStart, 0
	}
	if isRegisterLine(line) {
		return glEpilogue, 0
	}
	return glUnknown, 0
}

// syncWaitAddr returns the receiver address of a sync lock frame, the lock
// a goroutine waits on: "0xc0000a6000" from
//
//	internal/sync.(*Mutex).lockSlow(0xc0000a6000)
//	sync.(*RWMutex).Lock(0xc000010108?)
//
// nil for any other frame, or when the argument is elided ("(...)"). Two
// byte comparisons for frames outside sync: this runs on every function line.
func syncWaitAddr(line []byte, paren int) []byte {
	if len(line) < 8 || line[0] != 's' && line[0] != 'i' {
		return nil
	}
	if !bytes.HasPrefix(line, []byte("sync.(*")) && !bytes.HasPrefix(line, []byte("internal/sync.(*")) {
		return nil
	}
	a := line[paren+1:]
	if !bytes.HasPrefix(a, []byte("0x")) {
		return nil
	}
	end := 2
	for end < len(a) && (a[end] >= '0' && a[end] <= '9' || a[end] >= 'a' && a[end] <= 'f') {
		end++
	}
	return a[:end]
}

// argsParen returns the index of the '(' that opens the arguments of a
// function line, or -1. A '(' after a '.' opens a receiver
// ("net.(*conn).Read(0x1)"); the function name holds no space, the
// arguments may ("(0x1, {0x2, 0x3})").
func argsParen(line []byte) int {
	i := 0
	for {
		j := bytes.IndexByte(line[i:], '(')
		if j < 0 {
			return -1
		}
		i += j
		if i == 0 {
			return -1
		}
		if line[i-1] != '.' {
			break
		}
		i++
	}
	if bytes.IndexByte(line[:i], ' ') >= 0 {
		return -1
	}
	return i
}

// isGoHeader reports whether line starts like "goroutine 1 [",
// "goroutine 1 gp=0x..." or "goroutine 1 ... [".
func isGoHeader(line []byte) bool {
	_, _, header := goHeaderStart(line)
	return header
}

// goHeaderStart reads the start of a goroutine header in one pass: header
// is isGoHeader's answer and, when it is true, id and ok are goHeaderID's
// (ok false when the id overflows). The fast path reads every header so.
func goHeaderStart(line []byte) (id int64, ok, header bool) {
	const p = "goroutine "
	if len(line) < len(p)+3 || string(line[:len(p)]) != p {
		return 0, false, false
	}
	j := len(p)
	ok = true
	if n := placeholderID(line); n > 0 {
		// "goroutine NNNNN [chan send, 49 minutes]:": a person replaced
		// the id; read as id 0, which no repeat check counts.
		j += n
		return 0, true, j+1 < len(line) && line[j] == ' ' && line[j+1] == '['
	}
	for ; j < len(line) && line[j] >= '0' && line[j] <= '9'; j++ {
		if id > (1<<62)/10 {
			ok = false // as parseInt
		}
		id = id*10 + int64(line[j]-'0')
	}
	if j == len(p) || j+1 >= len(line) || line[j] != ' ' {
		return 0, false, false
	}
	if !ok {
		id = 0
	}
	switch line[j+1] {
	case '[', 'g':
		return id, ok, true
	case '.', 0xe2:
		// "goroutine 25 ... [select]:", "goroutine 25 … [select]:": a
		// person's elision of the "gp=... m=..." between the id and the
		// state (Go 1.23+ under GOTRACEBACK=system), or of nothing.
		rest := line[j+1:]
		return id, ok, (bytes.HasPrefix(rest, []byte("...")) || bytes.HasPrefix(rest, []byte("…"))) && bytes.Contains(rest, []byte(" ["))
	}
	return id, ok, false
}

// isGoStart reports whether line begins the prologue of a crash dump:
//
//	panic: runtime error: invalid memory address or nil pointer dereference
//	fatal error: all goroutines are asleep - deadlock!
//	SIGQUIT: quit            (also "^\SIGQUIT: quit" as echoed by a terminal; any
//	                         other text before it is a prefix: see prefix.go)
//	SIGSEGV: segmentation violation
//	runtime stack:
func isGoStart(line []byte) bool {
	switch {
	case bytes.HasPrefix(line, []byte("panic: ")), bytes.HasPrefix(line, []byte("fatal error: ")),
		bytes.Equal(line, []byte("runtime stack:")), isSIGQUITLine(line):
		return true
	}
	return signalName(line) != ""
}

// isSIGQUITLine reports whether line ends in "SIGQUIT: quit": alone, as
// "^\SIGQUIT: quit" echoed by a terminal, or after what the program wrote
// to stdout without a final newline ("tick 3SIGQUIT: quit": the runtime's
// stderr runs on). A log collector's prefix before it is told apart first
// (sigquitAfterText).
func isSIGQUITLine(line []byte) bool {
	return bytes.HasSuffix(line, []byte("SIGQUIT: quit"))
}

// sigquitAfterText reports whether line is a SIGQUIT line with text before
// it other than a terminal's "^\": a log prefix, or a program's output.
func sigquitAfterText(line []byte) bool {
	return isSIGQUITLine(line) && !bytes.Equal(line, []byte("SIGQUIT: quit")) && !bytes.Equal(line, []byte(`^\SIGQUIT: quit`))
}

// signalName returns "SIGSEGV" for "SIGSEGV: segmentation violation" and ""
// for a line not of that form.
func signalName(line []byte) string {
	if !bytes.HasPrefix(line, []byte("SIG")) {
		return ""
	}
	i := 3
	for i < len(line) && line[i] >= 'A' && line[i] <= 'Z' {
		i++
	}
	if i == 3 || i+1 >= len(line) || line[i] != ':' || line[i+1] != ' ' {
		return ""
	}
	return string(line[:i])
}

// isRegisterLine reports whether line is a register of a SIGQUIT dump:
// "rax    0xca", "r15    0xffffffffffffffff", "rflags 0x286", "fault   0x0".
func isRegisterLine(line []byte) bool {
	i := 0
	for i < len(line) && (line[i] >= 'a' && line[i] <= 'z' || i > 0 && line[i] >= '0' && line[i] <= '9') {
		i++
	}
	if i == 0 || i > 8 || i >= len(line) || line[i] != ' ' {
		return false
	}
	for i < len(line) && line[i] == ' ' {
		i++
	}
	if len(line)-i < 3 || line[i] != '0' || line[i+1] != 'x' {
		return false
	}
	for _, c := range line[i+2:] {
		if !isHex(c) {
			return false
		}
	}
	return true
}

// isRuntimeDiagnostic reports whether line is one of the runtime's own
// messages inside a traceback, understood and dropped like the registers:
//
//	runtime: g 1: unexpected return pc for main.f called from 0x0
//	stack: frame={sp:0xc000049f00, fp:0xc000049f28} stack=[0xc000048000,0xc00004a000)
//	0x000000c000049f08:  0x0000000000000000  0x000000000045a3e1 <runtime.goexit+0x1>
func isRuntimeDiagnostic(line []byte) bool {
	switch {
	case bytes.HasPrefix(line, []byte("runtime: ")), bytes.HasPrefix(line, []byte("stack: frame={")):
		return true
	case len(line) > 3 && line[0] == '0' && line[1] == 'x':
		i := 2
		for i < len(line) && isHex(line[i]) {
			i++
		}
		return i > 2 && i < len(line) && line[i] == ':'
	}
	return false
}

func isDashes(line []byte) bool {
	if len(line) < 3 {
		return false
	}
	for _, c := range line {
		if c != '-' {
			return false
		}
	}
	return true
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// startsGoText claims a goroutine header or the first line of a crash prologue.
func startsGoText(line, prev []byte) bool {
	if len(line) == 0 {
		return false
	}
	if isGoHeader(line) {
		// A header with a chain of functions after it is a summary's
		// (goroutine_summary.go): the runtime prints nothing after "]:".
		return !startsGoSummary(line)
	}
	if isGoStart(line) || goLeadIn(line) > 0 {
		return true
	}
	_, _, ok := goleakRecord(line)
	return ok
}

// goPrologueMax is how many lines a prologue may hold before its first
// goroutine header. A panic message can span lines (gVisor's watchdog prints
// 18); a "panic:" in ordinary log output with no goroutine after it is not
// a dump.
const goPrologueMax = 200

// goState is the state of the Go text scanner (see the comment at the top).
// Its names come from stringer, so messages and tests can name a state.
//
//go:generate stringer -type goState -trimprefix gs
type goState uint8

const (
	gsPrologue goState = iota
	gsGoroutine
	gsWantFile
	gsWantCreatorFile
	gsSystem
	// gsHeaderless: after grep's group separator ("--"): a function line
	// begins a goroutine whose header grep left out (goroutine_grep.go).
	gsHeaderless
)

// goTextScan is the scanner side of one Go text dump parse: it reads and
// classifies lines, keeps the prologue (kind, headline), decides where the
// dump ends, and emits ops to the builder (goroutine_build.go).
type goTextScan struct {
	p *textParser
	d *Dump
	b *goBuilder

	state       goState
	inGoroutine bool // a header was emitted and its goroutine has not ended
	headers     int  // goroutine headers emitted
	dropFunc    bool // the pending function line belongs to no goroutine
	dropCreator bool // the pending "created by" belongs to no goroutine
	seen        idSet
	// carry is true when a prologue met now goes on with the same dump: the
	// last line before it was a "-----" separator (GOTRACEBACK=crash prints
	// one SIGQUIT traceback per M, each after "-----") or syzkaller's
	// "REPORT:" marker. A goroutine header clears it.
	carry bool
	// last is the kind of the last line read, for checkCut at the end of
	// input.
	last goLineKind
	fast int // frames consumed by fastFrames
	// leadIn is true once a header was read after a lead-in
	// (goroutine_notes.go): its goroutine's lines may be a t.Log
	// message's, indented by go test (continued).
	leadIn bool
	// prologued is true when the dump began with a prologue of its own
	// (a panic, fatal error or SIGQUIT before its first goroutine): only
	// such a dump ends at the next prologue (newCapture). A prologue line
	// met in a dump that began with a goroutine (a runtime.Stack dump, a
	// test log's "panic: test timed out" between its goroutines) does not
	// make it one.
	prologued bool
	// record is goleak's line about the goroutine that follows, read and
	// held until the next line says whether goleak printed the goroutine's
	// header after it (goleak before 1.3) or not (1.3+: the record is the
	// header): goroutine_notes.go's goleakRecord.
	record   goleakRec
	recordAt int // the line of the record being read as a header
	// tests is where the prologue's go test timeout is in its list of
	// running tests (goroutine_notes.go's testsLine).
	tests testsState
	// edits are what a person changed in the dump, in the order first met
	// ("frames elided with \"...\"", "goroutine ids replaced", "frames
	// written on one line"): a paste a person made of a dump, not the
	// runtime's text (finish: Dump.Excerpt and Dump.Cut).
	edits []string
	// one is a frame a person wrote on one line (oneLineFrame), split:
	// its function line and its file line, with a TAB.
	one []byte
	// bare is the last file line that had lost its TAB, with the TAB put
	// back (unknown): valid until the next line is read.
	bare []byte
	// grep is how many goroutines began without a header, in grep's
	// output (goroutine_grep.go); seps how many "--" separated its groups.
	grep, seps int
}

// parseGoText reads one Go text dump (see the state machine above).
func parseGoText(p *textParser) *Dump {
	if d, ok := goSummaryFirst(p); ok {
		return d
	}
	s := &goTextScan{p: p, d: &Dump{}, b: newGoBuilder(p.in)}
	prologue, midPrologue := 0, 0
	ls := p.ls
	for {
		if goFastFrames && s.state == gsGoroutine {
			s.fastFrames(ls)
		}
		line, ok := ls.next()
		if !ok {
			if s.headers > 0 {
				s.checkCut()
			}
			break
		}
		var kind goLineKind
		var paren int
		if s.state == gsWantFile && len(line) > 0 && line[0] == '\t' && (len(line) == 1 || line[1] != 'g') {
			// The file line after a function line, as classifyGoLineParen
			// would find it, without the call: every other line is one.
			kind = glFile
		} else {
			kind, paren = classifyGoLineParen(line)
		}
		if kind == glUnknown {
			line, kind, paren = s.unknown(line, kind, paren)
		}
		if kind == glUnknown {
			if id, st, ok := goleakRecord(line); ok {
				s.record = goleakRec{no: ls.lineNo(), id: id, line: append(s.record.line[:0], line...),
					header: goleakHeader(s.record.header, id, st)}
				s.d.Kind = "goleak"
				if s.d.Headline == "" {
					s.d.Headline = goleakHeadline
				}
				continue
			}
		}
		if s.record.no > 0 && kind == glBlank {
			continue // a note, a blank line, then the header it is about
		}
		if s.record.no > 0 {
			rec := s.record
			s.record.no = 0
			if kind == glHeader {
				// goleak before 1.3: the goroutine's own header follows.
				s.skip(rec.no, rec.line, "goleak's line before a goroutine: skipped")
			} else {
				// goleak 1.3+: the record is the header; the line read is
				// the goroutine's first.
				ls.unread()
				line, kind, paren = rec.header, glHeader, 0
				s.recordAt = rec.no
			}
		}
	again:
		s.last = kind
		if kind == glUnknown && isGrepSep(line) && (s.headers > 0 || s.grep > 0) {
			// grep's group separator: the group before it ends, and the
			// next may begin inside a goroutine, without its header.
			s.orphan()
			s.end()
			s.seps++
			s.state = gsHeaderless
			continue
		}
		if s.headers == 0 && kind == glFunc && prologue == 0 {
			// The input begins at a frame (a grep group, claimed by
			// startsGoBody): a goroutine without its header.
			s.headerless()
			goto again
		}
		if s.state == gsHeaderless && kind != glHeader && kind != glStart {
			switch kind {
			case glFunc:
				s.headerless()
				goto again
			case glBlank:
				continue
			default:
				// A group that begins at a frame's file line or a
				// creator: its function line is before grep's cut.
				s.skip(ls.lineNo(), line, "grep's group begins after this goroutine's header and function line: skipped")
				continue
			}
		}
		if s.headers == 0 {
			// Before the first goroutine: everything is prologue. The builder
			// has had no op yet, so the scanner may use the interner here.
			if kind == glHeader {
				var t Thread
				if parseGoHeader(line, p.in, &t) {
					s.header(line)
				} else {
					no := ls.lineNo()
					if s.recordAt > 0 {
						no, s.recordAt = s.recordAt, 0 // a goleak record's header: the record's line
					}
					s.skip(no, line, s.cutReason("goroutine header not understood"))
				}
				continue
			}
			if kind == glStart || prologue == 0 {
				s.start(line)
				s.prologued = true
			}
			prologue++
			if prologue > goPrologueMax {
				return nil
			}
			s.testsLine(line)
			continue
		}
		switch kind {
		case glBlank:
			s.orphan()
			s.end()
			if s.state != gsPrologue {
				s.state = gsSystem // frames after a blank line belong to no goroutine until a header
			}
			continue
		case glHeader:
			s.orphan()
			id, ok := goHeaderID(line)
			if ok && placeholderID(line) == 0 && s.seen.has(id) {
				// A second capture appended to the same file: a new dump.
				ls.unread()
				return s.finish()
			}
			s.headerID(line, id, ok)
			continue
		case glStart:
			if s.newCapture(line) {
				ls.unread()
				return s.finish()
			}
			if bytes.HasPrefix(line, goTestTimeout) {
				// Inside a dump: a test log's note, not this dump's start.
				s.skip(ls.lineNo(), line, "go test's timeout panic between goroutines: skipped")
			}
			s.orphan()
			s.end()
			s.start(line)
			s.seen.clear()
			s.carry = false
			midPrologue = 0
			continue
		case glEpilogue:
			if line[0] == '-' {
				s.carry = true // "-----": the next M's SIGQUIT traceback (GOTRACEBACK=crash) follows
			}
			continue
		}
		switch s.state {
		case gsPrologue:
			// A prologue after goroutines (a second panic, a SIGQUIT after a
			// runtime.Stack dump): message lines and system frames.
			if midPrologue++; midPrologue > goPrologueMax {
				// A "panic:" in log output after the dump, with no goroutine after it.
				ls.unread()
				return s.finish()
			}
			if kind == glUnknown || kind == glFunc || kind == glFile {
				continue
			}
		case gsGoroutine, gsSystem:
			switch kind {
			case glFunc:
				s.dropFunc = s.state == gsSystem
				if !s.dropFunc {
					s.b.funcLine(line[:paren], ls.lineNo())
					s.b.recv = s.b.argAddr(line, paren)
					s.b.lockArgs(line, paren)
					if a := syncWaitAddr(line, paren); a != nil {
						s.b.apply(opWaitAddr, ls.lineNo(), a)
					}
				}
				s.state = gsWantFile
				continue
			case glCreatedBy:
				s.dropCreator = s.state == gsSystem
				if !s.dropCreator {
					s.b.apply(opCreatedBy, ls.lineNo(), line)
				}
				s.state = gsWantCreatorFile
				continue
			case glElided:
				if !bytes.HasSuffix(line, []byte("elided...")) {
					s.edit(`frames elided by a person ("...")`)
				}
				s.b.apply(opElided, ls.lineNo(), line)
				continue
			case glOrigin:
				if s.inGoroutine {
					s.b.apply(opOrigin, ls.lineNo(), line)
					s.state = gsGoroutine
					continue
				}
			case glNoStack:
				if s.inGoroutine {
					s.b.apply(opNoStack, ls.lineNo(), nil)
					continue
				}
			case glFile:
				s.skip(ls.lineNo(), line, "file line without a function line")
				continue
			}
		case gsWantFile:
			if kind == glFile {
				if !s.dropFunc {
					s.b.frameFile(line, ls.lineNo())
				}
				s.state = gsGoroutine
				continue
			}
			s.orphan()
			s.state = gsGoroutine
			goto again
		case gsWantCreatorFile:
			s.state = gsGoroutine
			if kind == glFile {
				if !s.dropCreator {
					s.b.apply(opCreatorFile, ls.lineNo(), line)
				}
				continue
			}
			goto again
		}
		// A line no rule understands. It belongs to the dump only if the
		// dump goes on after it. Blank lines after it are passed over to
		// find the next real line.
		junk := append([]byte(nil), line...)
		junkLn := ls.lineNo()
		cut := ls.cut() // the last line of the input, without its line ending
		next, ok := ls.next()
		blank := false
		for ok && len(next) == 0 {
			blank = true
			next, ok = ls.next()
		}
		if !ok {
			if cut && s.inGoroutine {
				s.skip(junkLn, junk, "line not understood; "+goCut)
			} else {
				s.cutBefore(junkLn, junk)
			}
			break
		}
		nk, nparen := classifyGoLineParen(next)
		if nk == glUnknown {
			next, nk, nparen = s.unknown(next, nk, nparen)
		}
		if nk == glUnknown {
			s.cutBefore(junkLn, junk)
			ls.unread()
			break
		}
		if string(junk) == "REPORT:" {
			s.carry = true // syzkaller: the report it extracted from the log above follows
		}
		if nk == glStart && s.newCapture(next) {
			// Log output between two captures: it belongs to neither.
			ls.unread()
			return s.finish()
		}
		s.skip(junkLn, junk, noteReason(junk))
		if blank {
			s.orphan()
			s.end()
			if s.state != gsPrologue {
				s.state = gsSystem
			}
		}
		line, kind, paren = next, nk, nparen
		goto again
	}
	return s.finish()
}

// unknown reads a line no rule knows as the runtime wrote it, when it is
// one: a goroutine header after a lead-in (goroutine_notes.go), or a file
// line (or the no-stack line) whose TAB became spaces or no-break spaces:
// after a function or "created by" line, the first such line fixes the
// dump's frame indentation (indent.go) and is read with a TAB. A file
// line that lost its TAB altogether (a log stream that trims each line,
// as Heroku's does: "/usr/local/go/src/net/http/server.go:1697 +0xd0") is
// read with one where a file line is due, and only there: the line after
// a function or "created by" line that reads as "path:line" (bareFileLine).
// Otherwise line is given back as it is.
func (s *goTextScan) unknown(line []byte, kind goLineKind, paren int) ([]byte, goLineKind, int) {
	if i := goLeadIn(line); i > 0 {
		s.leadIn = true
		return line[i:], glHeader, 0
	}
	if s.headers == 0 {
		return line, kind, paren
	}
	if s.leadIn && s.state == gsGoroutine {
		if l, k, p, ok := s.continued(line); ok {
			return l, k, p
		}
	}
	if s.state == gsGoroutine || s.state == gsWantFile {
		if fn, file, ok := oneLineFrame(line); ok {
			s.orphan() // a function line before it without its file line
			s.edit("frames written on one line")
			s.b.funcLine(fn[:argsParen(fn)], s.p.ls.lineNo())
			if a := syncWaitAddr(fn, argsParen(fn)); a != nil {
				s.b.apply(opWaitAddr, s.p.ls.lineNo(), a)
			}
			s.one = append(append(s.one[:0], '\t'), file...)
			s.state = gsWantFile
			return s.one, glFile, 0
		}
	}
	n := goFrameIndent(line)
	if n == 0 {
		if (s.state == gsWantFile || s.state == gsWantCreatorFile) && bareFileLine(line) {
			s.bare = append(append(s.bare[:0], '\t'), line...)
			return s.bare, glFile, 0
		}
		return line, kind, paren
	}
	if s.state != gsWantFile && s.state != gsWantCreatorFile && !bytes.HasPrefix(line[n:], []byte("goroutine running on other thread")) {
		return line, kind, paren
	}
	line = s.p.ls.learnFrameIndent(n)
	kind, paren = classifyGoLineParen(line)
	return line, kind, paren
}

// Truncation. The runtime ends every line with a newline and gives every
// goroutine header a stack, every function line a file line. A dump that
// stops otherwise was cut (a log copied while the process still wrote, a
// body cut in transfer, head -c); its last line is recorded in Skipped
// with the reason, so that the missing goroutines are not read as gone:
//
//	last line without its line ending, and not whole:   "... cut at end of input: the dump is truncated"
//	  a header, function or file line ("main.wait(0xc000", "\t/usr/lib/go/src/ru")
//	last line a function line (its file line missing)   "...; the dump ends there: truncated"
//	last line a goroutine header (its stack missing)    "dump ends after a goroutine header without its stack: truncated"
//
// A whole last line without a final newline (a file saved by an editor)
// is not flagged. When the builder also skipped the line (a header it
// could not read, a function line without file line), finish joins both
// reasons into one entry.
const (
	goCut      = "cut at end of input: the dump is truncated"
	goCutAfter = "the dump ends there: truncated"
)

// cutReason returns reason, or reason with the truncation when the line
// being read is the last of the input and has no line ending.
func (s *goTextScan) cutReason(reason string) string {
	if s.p.ls.cut() {
		return reason + "; " + goCut
	}
	return reason
}

// checkCut runs at the end of input: see Truncation above.
func (s *goTextScan) checkCut() {
	ls := s.p.ls
	line := ls.current()
	switch {
	case s.last == glFunc && s.state == gsWantFile:
		s.skip(ls.lineNo(), line, goCutAfter)
	case s.last == glFile && ls.cut() && !bytes.Contains(line, []byte(" +0x")):
		s.skip(ls.lineNo(), line, goCut)
	case s.last == glHeader && ls.cut() && !bytes.HasSuffix(line, []byte(":")):
		s.skip(ls.lineNo(), line, goCut)
	case s.last == glHeader && s.inGoroutine:
		s.skip(ls.lineNo(), line, "dump ends after a goroutine header without its stack: truncated")
	}
}

// cutBefore runs where the dump ends at junk, a line no rule knows: when
// junk is a goroutine's header or function line cut in its middle
// ("main.wait(0xc000", "goroutine 2 [chan rec"), the dump was cut there
// and pasted into something (a Markdown fence, a JSON field, a <pre>,
// prose after it), so its cut line is not the input's last: junk is
// recorded with the truncation, as at the end of input.
func (s *goTextScan) cutBefore(no int, junk []byte) {
	if s.inGoroutine && looksCutGoLine(junk) {
		s.skip(no, junk, "line not understood; "+goCutAfter)
	}
}

// looksCutGoLine reports whether line is the start of a goroutine header
// or of a function line, cut before its end: a function's name (no space,
// a '.'), maybe its '(', without the closing ')'; or "goroutine N ["
// without "]:".
func looksCutGoLine(line []byte) bool {
	if bytes.HasPrefix(line, []byte("goroutine ")) {
		rest := line[len("goroutine "):]
		i := 0
		for i < len(rest) && isDigit(rest[i]) {
			i++
		}
		return i > 0 && bytes.HasPrefix(rest[i:], []byte(" [")) && !bytes.HasSuffix(line, []byte(":"))
	}
	if len(line) == 0 || line[len(line)-1] == ')' {
		return false
	}
	name := line // cut in its name: "main.leakChanSe"
	if p := bytes.IndexByte(line, '('); p >= 0 {
		name = line[:p]
	}
	return bytes.IndexByte(name, '.') > 0 && bytes.IndexByte(name, ' ') < 0 && bytes.IndexByte(name, '\t') < 0
}

// mergeSkipped joins the entries of one line (sorted by line) into one:
// reasons joined by "; ", the longer text (the builder keeps only a
// function line's name).
func mergeSkipped(sk []Skipped) []Skipped {
	out := sk[:0]
	for _, e := range sk {
		if n := len(out); n > 0 && e.Line > 0 && out[n-1].Line == e.Line {
			out[n-1].Reason += "; " + e.Reason
			if len(e.Text) > len(out[n-1].Text) {
				out[n-1].Text = e.Text
			}
			continue
		}
		out = append(out, e)
	}
	return out
}

// newCapture reports whether line, a glStart line met after goroutines,
// starts a new dump: a second SIGQUIT, panic or fatal error appended to the
// same file (two kill -QUIT, a restarted program writing to the same log).
// It does when the dump began with a prologue of its own (prologued) and
// line is the first line of another one. It does not for:
//
//	runtime stack:          part of the crash traceback
//	-----  then SIGQUIT     the next M of a GOTRACEBACK=crash dump (carry)
//	REPORT: then panic:     syzkaller's extract of the crash above (carry)
//	a dump with no prologue (runtime.Stack, debug=2) then SIGQUIT: the
//	    console session of go-profiler-notes, counted as one dump in the
//	    corpus; the ids repeat, so the seen set is cleared instead.
func (s *goTextScan) newCapture(line []byte) bool {
	if s.headers == 0 || s.d.Kind == "" || !s.prologued || s.carry {
		return false
	}
	return !bytes.Equal(line, []byte("runtime stack:"))
}

// skip records a line the scanner did not understand.
func (s *goTextScan) skip(lineNo int, line []byte, reason string) {
	if len(line) > 200 {
		line = line[:200]
	}
	s.d.Skipped = append(s.d.Skipped, Skipped{Line: lineNo, Text: string(line), Reason: reason})
}

// orphan tells the builder that a pending function line got no file line.
func (s *goTextScan) orphan() {
	if s.state == gsWantFile && !s.dropFunc {
		s.b.apply(opOrphan, 0, nil)
	}
}

// header emits a goroutine header.
func (s *goTextScan) header(line []byte) {
	id, ok := goHeaderID(line)
	s.headerID(line, id, ok)
}

// headerID is header with the goroutine's id already read.
func (s *goTextScan) headerID(line []byte, id int64, ok bool) {
	s.carry = false
	if ph := placeholderID(line) > 0; ph {
		s.edit("goroutine ids replaced")
	} else if ok {
		s.seen.add(id)
	}
	no := s.p.ls.lineNo()
	if s.recordAt > 0 {
		no, s.recordAt = s.recordAt, 0 // a goleak record read as the header
	}
	s.b.headerID(line, no, id, ok)
	s.headers++
	s.inGoroutine = true
	s.state = gsGoroutine
}

// end ends the current goroutine.
func (s *goTextScan) end() {
	if s.inGoroutine {
		s.b.apply(opEnd, 0, nil)
		s.inGoroutine = false
	}
}

// start notes a prologue's first line: the headline and the dump kind.
func (s *goTextScan) start(line []byte) {
	s.state = gsPrologue
	kind, headline := "", false
	switch {
	case bytes.HasPrefix(line, []byte("panic: ")), bytes.HasPrefix(line, []byte("fatal error: ")):
		kind, headline = "panic", true
	case isSIGQUITLine(line):
		kind = "sigquit"
	default:
		if sig := signalName(line); sig != "" {
			kind, headline = "panic", true
		}
	}
	if s.d.Kind == "" {
		s.d.Kind = kind
	}
	if headline && s.d.Headline == "" {
		s.d.Headline = string(line)
	}
}

// finish waits for the builder and assembles the dump; nil if it holds
// no goroutine.
func (s *goTextScan) finish() *Dump {
	if goFastCounted != nil {
		goFastCounted(s.fast)
	}
	s.orphan()
	s.end()
	if s.b.nthreads == 0 {
		return nil
	}
	d := s.d
	d.Threads = s.b.threads()
	d.Partial = s.b.partial
	switch {
	case s.seps > 0:
		d.Excerpt = fmt.Sprintf(`grep's output: %d goroutines in %d groups separated by "--", each cut where grep's context ends; %d without their header (no id, no state printed)`,
			len(d.Threads), s.seps+1, s.grep)
		d.Cut = true
	case s.grep > 0:
		d.Excerpt = fmt.Sprintf("a paste that begins inside a goroutine: its first of %d goroutines without its header (no id, no state printed)", len(d.Threads))
		d.Cut = true
	}
	if len(s.b.skipped) > 0 {
		d.Skipped = append(d.Skipped, s.b.skipped...)
		sort.SliceStable(d.Skipped, func(i, j int) bool {
			a, b := d.Skipped[i], d.Skipped[j]
			// At one line, the builder's reason first, then the truncation.
			return a.Line < b.Line || a.Line == b.Line && !strings.Contains(a.Reason, "truncated") && strings.Contains(b.Reason, "truncated")
		})
		d.Skipped = mergeSkipped(d.Skipped)
	}
	// A person's edits make the dump a paste of their choice (Cut); a dump
	// that only ends cut lost its tail in a copy or a transfer, which is
	// no choice, but the goroutines after the cut are not there either.
	if len(s.edits) > 0 {
		d.Excerpt, d.Cut = "a paste a person edited: "+strings.Join(s.edits, ", "), true
	} else if truncated(d.Skipped) || len(d.Partial) > 0 {
		d.Excerpt = "lines of the dump are cut: what was after the cut is not in it"
	}
	return d
}

// edit notes what a person changed in the dump (goTextScan.edits), once.
func (s *goTextScan) edit(what string) {
	if !slices.Contains(s.edits, what) {
		s.edits = append(s.edits, what)
	}
}

// truncated: the skipped lines say the dump was cut at its end (checkCut,
// cutBefore).
func truncated(sk []Skipped) bool {
	for _, x := range sk {
		if strings.HasSuffix(x.Reason, goCut) || strings.HasSuffix(x.Reason, goCutAfter) || strings.HasSuffix(x.Reason, "without its stack: truncated") {
			return true
		}
	}
	return false
}

// personElision reports whether line is a person's mark for lines left
// out of a paste, alone on its line: "...", "…", "[...]", "... (12 more)".
// The runtime's own ("...additional frames elided...", "...8 frames
// elided...") are classified before it is asked.
//
//	...
//	[...]
//	... (3 more frames)
func personElision(line []byte) bool {
	t := bytes.TrimSpace(line)
	for _, m := range [][]byte{[]byte("[...]"), []byte("[…]"), []byte("..."), []byte("…")} {
		if bytes.HasPrefix(t, m) {
			rest := bytes.TrimSpace(t[len(m):])
			if len(rest) == 0 {
				return true
			}
			// "(12 more)", "(3 more frames)", "(snip)": a note in parentheses.
			return rest[0] == '(' && rest[len(rest)-1] == ')' && bytes.IndexByte(rest[1:len(rest)-1], '(') < 0 && !bytes.Contains(rest, []byte("0x"))
		}
	}
	return false
}

// oneLineFrame splits a frame a person wrote on one line, its function
// and its file separated by spaces or a TAB, into the runtime's two
// lines; ok is false for any other line.
//
//	runtime.chansend(...) runtime/chan.go:283
//	main.(*ctx).readInputLoop(0xc000123400) io_helpers.go:66 +0xd2
func oneLineFrame(line []byte) (fn, file []byte, ok bool) {
	p := argsParen(line)
	if p <= 0 {
		return nil, nil, false
	}
	// The arguments end at the last ')' before the file: a path holds no
	// ')' in Go's own or a module's tree (a Windows "Program Files (x86)"
	// path is written with its TAB, never on one line).
	end := bytes.LastIndexByte(line, ')')
	if end < p {
		return nil, nil, false
	}
	rest := line[end+1:]
	sp := 0
	for sp < len(rest) && (rest[sp] == ' ' || rest[sp] == '\t') {
		sp++
	}
	if sp == 0 || sp == len(rest) || !bareFileLine(rest[sp:]) {
		return nil, nil, false
	}
	return line[:end+1], rest[sp:], true
}

// elidedCount returns N of "...N frames elided..." and 0 for
// "...additional frames elided...".
func elidedCount(line []byte) int {
	n, ok := parseInt(line[3:], ' ')
	if !ok {
		return 0
	}
	return int(n)
}

// parseInt reads the decimal number at the start of b, which must be
// followed by stop or, when stop is 0, by the end of b.
func parseInt(b []byte, stop byte) (int64, bool) {
	var n int64
	i := 0
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		if n > (1<<62)/10 {
			return 0, false
		}
		n = n*10 + int64(b[i]-'0')
		i++
	}
	if i == 0 {
		return 0, false
	}
	if stop == 0 {
		return n, i == len(b)
	}
	return n, i < len(b) && b[i] == stop
}

// goHeaderID returns N of "goroutine N ..."; 0 for a person's placeholder
// ("goroutine NNNNN [", placeholderID).
func goHeaderID(line []byte) (int64, bool) {
	if placeholderID(line) > 0 {
		return 0, true
	}
	return parseInt(line[len("goroutine "):], ' ')
}

// placeholderID is the length of the placeholder a person wrote for a
// goroutine's id in a header ("goroutine NNNNN [chan send]:", "goroutine
// XXX [select]:", "goroutine ? [running]:"), 0 when the id is a number
// or the header is not one: one letter or '?' repeated 2 to 12 times,
// then " [".
func placeholderID(line []byte) int {
	const p = "goroutine "
	if len(line) < len(p)+3 || string(line[:len(p)]) != p {
		return 0
	}
	c := line[len(p)]
	if c != 'N' && c != 'X' && c != 'x' && c != 'n' && c != '?' {
		return 0
	}
	n := 0
	for len(p)+n < len(line) && line[len(p)+n] == c {
		n++
	}
	if n < 2 || n > 12 || !bytes.HasPrefix(line[len(p)+n:], []byte(" [")) {
		return 0
	}
	return n
}

// parseGoHeader fills t from a goroutine header:
//
//	goroutine 1 [chan receive]:
//	goroutine 1 gp=0x25e31a5321e0 m=nil [chan receive, 5 minutes]:
//	goroutine 0 gp=0xa56ea0 m=0 mp=0xa58080 [idle]:
//	goroutine 8 [select, locked to thread]:
//	goroutine 4 [chan receive (durable), synctest bubble 1]:
//	goroutine 9 [chan send (leaked)]:
//	goroutine 7 [select labels:{"pool": "ingest", "route": "/api/v1/items[0],[1]"}]:   Go 1.26, tracebacklabels=1
//	goroutine 31 [select] {pool: ingest, route: "/api/v1/items[0],[1]"}:             Go 1.27
func parseGoHeader(line []byte, in *interner, t *Thread) bool {
	id, ok := goHeaderID(line)
	if !ok {
		return false
	}
	t.ID = id
	return parseGoHeaderRest(line, in, t)
}

// parseGoHeaderRest is parseGoHeader after the id.
func parseGoHeaderRest(line []byte, in *interner, t *Thread) bool {
	open := bytes.IndexByte(line, '[')
	if open < 0 {
		return false
	}
	rest := line[open+1:]
	end := bytes.IndexByte(rest, ']')
	if end < 0 {
		return false
	}
	var status []byte
	// Wait reasons hold no ']': " labels:{" before the first ']' is the 1.26 form.
	if li := bytes.Index(rest[:end], []byte(" labels:{")); li >= 0 {
		status = rest[:li]
		labels, after, ok := parseLabelSet(rest[li+len(" labels:"):], in)
		if !ok || string(after) != "]:" {
			return false
		}
		t.Labels = labels
	} else {
		status = rest[:end]
		after := rest[end+1:]
		if len(after) > 2 && after[0] == ' ' && after[1] == '{' {
			labels, after2, ok := parseLabelSet(after[1:], in)
			if !ok || string(after2) != ":" {
				return false
			}
			t.Labels = labels
		} else if string(after) != ":" {
			return false
		}
	}
	return parseGoStatus(status, in, t)
}

// goStatusFlags are the parenthesised words the runtime appends to a wait
// reason; they become Flags, not part of State.
var goStatusFlags = [...]string{"leaked", "scan", "durable"}

// parseGoStatus reads "chan receive (nil chan) (leaked), 5 minutes, locked
// to thread, synctest bubble 1".
func parseGoStatus(status []byte, in *interner, t *Thread) bool {
	reason := status
	var more []byte
	if i := bytes.IndexByte(status, ','); i >= 0 {
		reason, more = status[:i], status[i+1:]
	}
	// Peel " (leaked)", " (scan)", " (durable)" off the end of the reason;
	// "(nil chan)", "(no cases)", "(idle)" stay: they are part of it.
	var flags [3]string
	nf := 0
peel:
	for nf < len(flags) {
		for _, f := range goStatusFlags {
			if len(reason) > len(f)+3 && reason[len(reason)-1] == ')' &&
				string(reason[len(reason)-len(f)-3:]) == " ("+f+")" {
				flags[nf] = f
				nf++
				reason = reason[:len(reason)-len(f)-3]
				continue peel
			}
		}
		break
	}
	if len(reason) == 0 {
		return false
	}
	t.State = goWaitReason(reason, in)
	for i := nf - 1; i >= 0; i-- {
		x := t.extra()
		x.Flags = append(x.Flags, flags[i])
	}
	for len(more) > 0 {
		var part []byte
		if i := bytes.IndexByte(more, ','); i >= 0 {
			part, more = more[:i], more[i+1:]
		} else {
			part, more = more, nil
		}
		part = bytes.TrimSpace(part)
		switch {
		case bytes.HasSuffix(part, []byte(" minutes")):
			n, ok := parseInt(part, ' ')
			if !ok {
				return false
			}
			t.WaitMinutes = int(n)
		case bytes.HasPrefix(part, []byte("synctest bubble ")):
			n, ok := parseInt(part[len("synctest bubble "):], 0)
			if !ok {
				return false
			}
			t.extra().Bubble = n
		case len(part) == 0:
			return false
		default:
			x := t.extra()
			x.Flags = append(x.Flags, in.bytes(part))
		}
	}
	return true
}

// goWaitReason returns reason as a string: one of the runtime's wait
// reasons and statuses (runtime/runtime2.go, waitReasonStrings) as a
// constant, any other through the interner. A switch on the bytes
// allocates nothing and hashes nothing: every header has one.
func goWaitReason(reason []byte, in *interner) string {
	switch string(reason) {
	case "running":
		return "running"
	case "runnable":
		return "runnable"
	case "syscall":
		return "syscall"
	case "idle":
		return "idle"
	case "dead":
		return "dead"
	case "copystack":
		return "copystack"
	case "preempted":
		return "preempted"
	case "waiting":
		return "waiting"
	case "GC assist marking":
		return "GC assist marking"
	case "IO wait":
		return "IO wait"
	case "chan receive (nil chan)":
		return "chan receive (nil chan)"
	case "chan send (nil chan)":
		return "chan send (nil chan)"
	case "dumping heap":
		return "dumping heap"
	case "garbage collection":
		return "garbage collection"
	case "garbage collection scan":
		return "garbage collection scan"
	case "panicwait":
		return "panicwait"
	case "select":
		return "select"
	case "select (no cases)":
		return "select (no cases)"
	case "GC assist wait":
		return "GC assist wait"
	case "GC sweep wait":
		return "GC sweep wait"
	case "GC scavenge wait":
		return "GC scavenge wait"
	case "chan receive":
		return "chan receive"
	case "chan send":
		return "chan send"
	case "finalizer wait":
		return "finalizer wait"
	case "force gc (idle)":
		return "force gc (idle)"
	case "semacquire":
		return "semacquire"
	case "sleep":
		return "sleep"
	case "sync.Cond.Wait":
		return "sync.Cond.Wait"
	case "sync.Mutex.Lock":
		return "sync.Mutex.Lock"
	case "sync.RWMutex.RLock":
		return "sync.RWMutex.RLock"
	case "sync.RWMutex.Lock":
		return "sync.RWMutex.Lock"
	case "sync.WaitGroup.Wait":
		return "sync.WaitGroup.Wait"
	case "trace reader (blocked)":
		return "trace reader (blocked)"
	case "wait for GC cycle":
		return "wait for GC cycle"
	case "GC worker (idle)":
		return "GC worker (idle)"
	case "GC worker (active)":
		return "GC worker (active)"
	case "debug call":
		return "debug call"
	case "GC mark termination":
		return "GC mark termination"
	case "stopping the world":
		return "stopping the world"
	case "flushing proc caches":
		return "flushing proc caches"
	case "coroutine":
		return "coroutine"
	case "GC weak to strong wait":
		return "GC weak to strong wait"
	case "synctest.Run":
		return "synctest.Run"
	case "synctest.Wait":
		return "synctest.Wait"
	case "cleanup wait":
		return "cleanup wait"
	}
	return in.bytes(reason)
}

// idSet is the set of goroutine ids seen in a dump: a bitmap for the ids
// the runtime hands out (small, dense), a map for the rest. clear costs
// what was added since the last clear, not the size of the bitmap.
type idSet struct {
	bits  []uint64
	words []int32 // indexes of the non-zero words of bits
	big   map[int64]struct{}
}

const idSetBitsMax = 1 << 26 // 8 MiB of bitmap at most

func (s *idSet) add(id int64) {
	if id >= 0 && id < idSetBitsMax {
		w := int(id >> 6)
		if w >= len(s.bits) {
			s.bits = append(s.bits, make([]uint64, w+1-len(s.bits)+len(s.bits)/2)...)
		}
		if s.bits[w] == 0 {
			s.words = append(s.words, int32(w))
		}
		s.bits[w] |= 1 << (id & 63)
		return
	}
	if s.big == nil {
		s.big = make(map[int64]struct{})
	}
	s.big[id] = struct{}{}
}

func (s *idSet) has(id int64) bool {
	if id >= 0 && id < idSetBitsMax {
		w := int(id >> 6)
		return w < len(s.bits) && s.bits[w]&(1<<(id&63)) != 0
	}
	_, ok := s.big[id]
	return ok
}

func (s *idSet) clear() {
	for _, w := range s.words {
		s.bits[w] = 0
	}
	s.words = s.words[:0]
	clear(s.big)
}
