package parse

import (
	"bytes"
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
//	goroutine -- panic:/fatal error:/SIGQUIT --> prologue (the same dump goes on)
//	any -- register line, "-----" --> same state (epilogue, understood and dropped)
//	any -- a line no rule knows --> peek at the next non-blank line: if it is
//	       a Go dump line, the unknown one is recorded in Dump.Skipped and the
//	       scan goes on; otherwise the dump ends there (log output after the
//	       dump; the unknown line and the blank lines are passed over).
//
// A header whose goroutine id was already seen since the last prologue ends
// the dump: that is a second capture appended to the same file.
//
// Cost: one pass, no regexp, no allocation per repeated frame (the frame
// cache is keyed by the raw "func\x00file:line" bytes); threads, creators
// and frame slices are carved from slabs. This is the hot loop.

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
	glEpilogue             // rax    0xca / -----
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
	case '[':
		if bytes.HasPrefix(line, []byte("[originating from goroutine ")) {
			return glOrigin, 0
		}
	case '-':
		if isDashes(line) {
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

// isGoHeader reports whether line starts like "goroutine 1 [" or
// "goroutine 1 gp=0x...".
func isGoHeader(line []byte) bool {
	const p = "goroutine "
	if len(line) < len(p)+3 || string(line[:len(p)]) != p {
		return false
	}
	i := len(p)
	j := i
	for j < len(line) && line[j] >= '0' && line[j] <= '9' {
		j++
	}
	if j == i || j+1 >= len(line) || line[j] != ' ' {
		return false
	}
	return line[j+1] == '[' || line[j+1] == 'g'
}

// isGoStart reports whether line begins the prologue of a crash dump:
//
//	panic: runtime error: invalid memory address or nil pointer dereference
//	fatal error: all goroutines are asleep - deadlock!
//	SIGQUIT: quit            (also "^\SIGQUIT: quit" as echoed by a terminal)
//	SIGSEGV: segmentation violation
//	runtime stack:
func isGoStart(line []byte) bool {
	switch {
	case bytes.HasPrefix(line, []byte("panic: ")), bytes.HasPrefix(line, []byte("fatal error: ")),
		bytes.Equal(line, []byte("runtime stack:")), bytes.HasSuffix(line, []byte("SIGQUIT: quit")):
		return true
	}
	return signalName(line) != ""
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
	return isGoHeader(line) || isGoStart(line)
}

// goPrologueMax is how many lines a prologue may hold before its first
// goroutine header. A panic message can span lines (gVisor's watchdog prints
// 18); a "panic:" in ordinary log output with no goroutine after it is not
// a dump.
const goPrologueMax = 200

// goState is the state of the Go text scanner (see the comment at the top).
type goState uint8

const (
	gsPrologue goState = iota
	gsGoroutine
	gsWantFile
	gsWantCreatorFile
	gsSystem
)

// goTextScan holds what one Go text dump parse works with.
type goTextScan struct {
	p  *textParser
	d  *Dump
	in *interner

	state goState
	cur   *Thread   // goroutine being read; nil in the prologue
	anc   *Ancestor // ancestor block receiving frames; nil if none
	seen  idSet

	frames  []*Frame // frames of cur (or anc) being collected
	funcKey []byte   // "func\x00" of the function line awaiting its file line
	funcLn  int      // line number of that function line
	// cache maps the "path:line" of a file line to its frame; a frame whose
	// function differs from the cached one (two closures on one line) is
	// found in cache2 under "func\x00path:line".
	cache  map[string]*Frame
	cache2 map[string]*Frame

	threadSlab  []Thread
	creatorSlab []Creator
	frameSlab   []*Frame
}

// parseGoText reads one Go text dump (see the state machine above).
func parseGoText(p *textParser) *Dump {
	s := &goTextScan{
		p:     p,
		d:     &Dump{},
		in:    p.in,
		cache: make(map[string]*Frame),
	}
	s.cache2 = make(map[string]*Frame)
	prologue, midPrologue := 0, 0
	ls := p.ls
	for {
		line, ok := ls.next()
		if !ok {
			break
		}
		kind, paren := classifyGoLineParen(line)
	again:
		if s.state == gsPrologue && s.cur == nil && len(s.d.Threads) == 0 {
			// Before the first goroutine: everything is prologue.
			if kind == glHeader {
				if !s.header(line) {
					s.skip(ls.lineNo(), line, "goroutine header not understood")
				}
				continue
			}
			if kind == glStart || prologue == 0 {
				s.start(line)
			}
			prologue++
			if prologue > goPrologueMax {
				return nil
			}
			continue
		}
		switch kind {
		case glBlank:
			s.skipPendingFunc()
			s.endThread()
			if s.state != gsPrologue {
				s.state = gsSystem // frames after a blank line belong to no goroutine until a header
			}
			continue
		case glHeader:
			s.skipPendingFunc()
			if id, ok := goHeaderID(line); ok {
				if s.seen.has(id) {
					// A second capture appended to the same file: a new dump.
					ls.unread()
					return s.finish()
				}
			}
			if !s.header(line) {
				s.skip(ls.lineNo(), line, "goroutine header not understood")
				s.endThread()
				s.state = gsSystem
			}
			continue
		case glStart:
			s.endThread()
			s.start(line)
			s.seen.clear()
			midPrologue = 0
			continue
		case glEpilogue:
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
				s.funcLine(line, paren)
				continue
			case glCreatedBy:
				if s.state == gsGoroutine {
					s.createdBy(line)
				} else {
					s.state = gsWantCreatorFile
					s.anc = nil
				}
				continue
			case glElided:
				if s.cur != nil && s.anc == nil {
					s.cur.FramesElided = true
					s.cur.ElidedCount = elidedCount(line)
				}
				continue
			case glOrigin:
				if s.cur != nil {
					s.flushFrames()
					id, _ := parseInt(line[len("[originating from goroutine "):], ']')
					s.cur.Ancestors = append(s.cur.Ancestors, Ancestor{ID: id})
					s.anc = &s.cur.Ancestors[len(s.cur.Ancestors)-1]
					s.state = gsGoroutine
					continue
				}
			case glNoStack:
				if s.cur != nil {
					s.cur.NoStack = true
					continue
				}
			case glFile:
				s.skip(ls.lineNo(), line, "file line without a function line")
				continue
			}
		case gsWantFile:
			if kind == glFile {
				s.fileLine(line)
				continue
			}
			s.skipPendingFunc()
			s.state = gsGoroutine
			goto again
		case gsWantCreatorFile:
			if kind == glFile {
				if c := s.cur; c != nil && c.CreatedBy != nil && s.anc == nil {
					c.CreatedBy.File, c.CreatedBy.Line = s.fileLoc(line)
				}
				s.state = gsGoroutine
				continue
			}
			s.state = gsGoroutine
			goto again
		}
		// A line no rule understands. It belongs to the dump only if the
		// dump goes on after it.
		// Blank lines after it are passed over to find the next real line.
		junk := append([]byte(nil), line...)
		junkLn := ls.lineNo()
		next, ok := ls.next()
		blank := false
		for ok && len(next) == 0 {
			blank = true
			next, ok = ls.next()
		}
		if !ok {
			break
		}
		nk, nparen := classifyGoLineParen(next)
		if nk == glUnknown {
			ls.unread()
			break
		}
		s.skip(junkLn, junk, "line not understood in a Go dump")
		if blank {
			s.skipPendingFunc()
			s.endThread()
			if s.state != gsPrologue {
				s.state = gsSystem
			}
		}
		line, kind, paren = next, nk, nparen
		goto again
	}
	if len(s.d.Threads) == 0 && s.cur == nil {
		return nil
	}
	return s.finish()
}

// skip records a line the scanner did not understand.
func (s *goTextScan) skip(lineNo int, line []byte, reason string) {
	if len(line) > 200 {
		line = line[:200]
	}
	s.d.Skipped = append(s.d.Skipped, Skipped{Line: lineNo, Text: string(line), Reason: reason})
}

// skipPendingFunc records a function line whose file line never came.
func (s *goTextScan) skipPendingFunc() {
	if s.state == gsWantFile && len(s.funcKey) > 1 {
		s.skip(s.funcLn, s.funcKey[:len(s.funcKey)-1], "function line without its file line")
	}
}

// start notes a prologue's first line: the headline and the dump kind.
func (s *goTextScan) start(line []byte) {
	s.state = gsPrologue
	s.anc = nil
	kind, headline := "", false
	switch {
	case bytes.HasPrefix(line, []byte("panic: ")), bytes.HasPrefix(line, []byte("fatal error: ")):
		kind, headline = "panic", true
	case bytes.HasSuffix(line, []byte("SIGQUIT: quit")):
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

// finish closes the dump.
func (s *goTextScan) finish() *Dump {
	s.endThread()
	return s.d
}

// endThread stores the frames collected for the current goroutine.
func (s *goTextScan) endThread() {
	if s.cur == nil {
		return
	}
	s.flushFrames()
	s.cur = nil
	s.anc = nil
}

// flushFrames moves the collected frames to the goroutine or ancestor.
func (s *goTextScan) flushFrames() {
	n := len(s.frames)
	if n == 0 {
		return
	}
	if s.anc != nil {
		s.anc.Frames = append([]*Frame(nil), s.frames...)
	} else if s.cur != nil {
		if len(s.frameSlab) < n {
			s.frameSlab = make([]*Frame, max(1<<14, n))
		}
		fs := s.frameSlab[:n:n]
		s.frameSlab = s.frameSlab[n:]
		copy(fs, s.frames)
		s.cur.Frames = fs
	}
	s.frames = s.frames[:0]
}

// newThread returns a zeroed Thread from the slab.
func (s *goTextScan) newThread() *Thread {
	if len(s.threadSlab) == 0 {
		s.threadSlab = make([]Thread, 256)
	}
	t := &s.threadSlab[0]
	s.threadSlab = s.threadSlab[1:]
	return t
}

// header starts a goroutine from its header line. It returns false, and
// starts none, when the header is malformed.
func (s *goTextScan) header(line []byte) bool {
	t := s.newThread()
	if !parseGoHeader(line, s.in, t) {
		*t = Thread{}
		return false
	}
	s.endThread()
	t.Line = s.p.ls.lineNo()
	t.Weight = 1
	s.d.Threads = append(s.d.Threads, t)
	s.seen.add(t.ID)
	s.cur = t
	s.anc = nil
	s.state = gsGoroutine
	return true
}

// funcLine keeps the function of a frame until its file line arrives.
//
//	net/http.(*conn).serve(0xc000130000, {0x7a9e40, 0xc0000a2000})
//	main.bar(...)
func (s *goTextScan) funcLine(line []byte, i int) {
	s.funcKey = append(append(s.funcKey[:0], line[:i]...), 0)
	s.funcLn = s.p.ls.lineNo()
	if s.state == gsSystem {
		s.state = gsWantFile
		s.funcKey = s.funcKey[:0]
		s.funcKey = append(s.funcKey, 0) // no goroutine: the frame is dropped
		return
	}
	s.state = gsWantFile
}

// fileLine completes the frame started by funcLine.
//
//	\t/usr/lib/go/src/net/http/server.go:3056 +0x364
//	\tC:/Users/felixge/pprof.go:693 +0x9f
//	\truntime/proc.go:462 +0xce fp=0x25e31a6adc98 sp=0x25e31a6adc78 pc=0x48618e
func (s *goTextScan) fileLine(line []byte) {
	s.state = gsGoroutine
	if len(s.funcKey) == 1 || s.cur == nil {
		return // a system-stack frame: it belongs to no goroutine
	}
	loc, colon := fileLoc(line)
	if colon < 0 {
		s.skip(s.p.ls.lineNo(), line, "file line without a line number")
		return
	}
	fn := s.funcKey[:len(s.funcKey)-1]
	f, ok := s.cache[string(loc)]
	if !ok || f.Func != string(fn) {
		f = s.slowFrame(fn, loc, colon, ok)
		if f == nil {
			s.skip(s.p.ls.lineNo(), line, "file line without a line number")
			return
		}
	}
	s.frames = append(s.frames, f)
}

// slowFrame finds or makes the frame of fn at loc when the location cache
// has no frame for loc (first) or one of another function.
func (s *goTextScan) slowFrame(fn, loc []byte, colon int, locTaken bool) *Frame {
	nameLen := len(s.funcKey)
	s.funcKey = append(s.funcKey, loc...)
	defer func() { s.funcKey = s.funcKey[:nameLen] }()
	if f, ok := s.cache2[string(s.funcKey)]; ok {
		return f
	}
	n, ok := parseInt(loc[colon+1:], 0)
	if !ok {
		return nil
	}
	f := s.in.frame(s.in.bytes(fn), s.in.bytes(loc[:colon]), int(n), "", "")
	s.cache2[string(s.funcKey)] = f
	if !locTaken {
		s.cache[string(loc)] = f
	}
	return f
}

// fileLoc returns "path:line" of a file line, without the tab, the "+0x"
// offset and the fp= sp= pc= suffix, and the index of its last ':' (-1 if
// none). The suffix holds no ':', so the last one ends the path (paths
// may hold spaces and, on Windows, a drive colon).
func fileLoc(line []byte) ([]byte, int) {
	loc := line[1:]
	c := bytes.LastIndexByte(loc, ':')
	if c <= 0 {
		return loc, -1
	}
	e := c + 1
	for e < len(loc) && loc[e] >= '0' && loc[e] <= '9' {
		e++
	}
	if e == c+1 {
		return loc, -1
	}
	return loc[:e], c
}

// fileLoc splits a file line into its interned path and line number.
func (s *goTextScan) fileLoc(line []byte) (string, int) {
	loc, colon := fileLoc(line)
	if colon < 0 {
		return s.in.bytes(loc), 0
	}
	n, _ := parseInt(loc[colon+1:], 0)
	return s.in.bytes(loc[:colon]), int(n)
}

// createdBy reads "created by main.main" or "created by main.start in goroutine 1".
func (s *goTextScan) createdBy(line []byte) {
	s.state = gsWantCreatorFile
	fn := line[len("created by "):]
	var parent int64
	if i := bytes.Index(fn, []byte(" in goroutine ")); i >= 0 {
		parent, _ = parseInt(fn[i+len(" in goroutine "):], 0)
		fn = fn[:i]
	}
	if s.anc != nil || s.cur == nil {
		return // an ancestor's creator: the model keeps only its frames
	}
	s.flushFrames()
	if len(s.creatorSlab) == 0 {
		s.creatorSlab = make([]Creator, 256)
	}
	c := &s.creatorSlab[0]
	s.creatorSlab = s.creatorSlab[1:]
	c.Func = s.in.bytes(fn)
	c.Parent = parent
	s.cur.CreatedBy = c
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

// goHeaderID returns N of "goroutine N ...".
func goHeaderID(line []byte) (int64, bool) {
	return parseInt(line[len("goroutine "):], ' ')
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
	t.State = in.bytes(reason)
	for i := nf - 1; i >= 0; i-- {
		t.Flags = append(t.Flags, flags[i])
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
			t.Bubble = n
		case len(part) == 0:
			return false
		default:
			t.Flags = append(t.Flags, in.bytes(part))
		}
	}
	return true
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
