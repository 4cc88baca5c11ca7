package parse

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Delve's goroutine listings (github.com/go-delve/delve, pkg/terminal
// command.go formatGoroutine and service/api PrintStack, v1.27.2): what a
// person debugging a Go process pastes instead of a dump (issue 32).
//
//	(dlv) goroutines                                                              the command, when pasted
//	  Goroutine 1 - User: /src/net/fd_unix.go:150 net.(*netFD).accept (0x501909) [IO wait 3402241820540]
//	* Goroutine 7 - User: ./main.go:34 main.worker (0x673d56) (thread 8120)       '*': the selected one; on a thread
//	  Goroutine 22 - Runtime: /src/runtime/proc.go:463 runtime.gopark (0x489ace) [sync.Mutex.Lock]
//		Labels: "job":"import", "tenant":"acme"                                   goroutines -l
//		 0  0x0000000000489ace in runtime.gopark                                  goroutines -t: numbered frames,
//		     at /usr/local/go/src/runtime/proc.go:463                             innermost first
//		(truncated)                                                               past -t's depth (10)
//	[27 goroutines]                                                               the footer
//
// A header names one location of the goroutine: its User location (the
// default: the topmost frame outside the runtime), Runtime (-r: the
// topmost), Go (-g: its go statement, read as its creator) or Start (-s:
// its function). The bracket is the runtime's wait reason, printed only
// for a goroutine waiting or in a syscall, and the runtime's g.waitsince
// (the monotonic clock at the GC that first saw it waiting; not a
// duration): a goroutine without a bracket is running or runnable, and is
// read without a state. Stamps of one listing compare, so a goroutine's
// wait is read as at least the time from its stamp to the newest stamp in
// the listing, in whole minutes (what debug=2 prints is that or more).
// An old Delve that has no table for the runtime's version prints
// "unknown wait reason N": no state is read from it.
//
// `stack` and `bt` print one goroutine's frames alone (no header, no id):
// read as one goroutine with id 0. `goroutines -group` prints groups under
// a name line ("user=true") with "\tTotal: N" after at most 5 goroutines of
// each: the goroutines listed are read and the totals said. A terminal
// prints the frames' names in bold (ANSI), and a transcript without a
// terminal puts the "(dlv) " prompt before a command's first line: both are
// taken off.

// formatDelve names Delve's listings in the detection chain only: a dump
// read from one is a FormatGoText dump that says what it lacks (Excerpt).
const formatDelve Format = "go-delve"

var (
	delvePrompt  = []byte("(dlv) ")
	delveKeyword = []byte("Goroutine ")
)

// delveKinds are the locations a header can name (formatGoroutine).
var delveKinds = [...]string{"User", "Runtime", "Go", "Start"}

// delveHeader is one "Goroutine N - User: ..." line read.
type delveHeader struct {
	id      int64
	kind    string // "User", "Runtime", "Go", "Start"
	fn      []byte // the location's function; empty if none printed
	file    []byte
	line    int
	state   string // the wait reason; empty when none is printed
	stamp   int64  // g.waitsince; 0 when not printed
	unknown bool   // "unknown wait reason N": a reason Delve had no word for
	thread  bool   // " (thread N)": on an OS thread
}

// trimDelve takes the indentation and the "(dlv) " prompts off line.
func trimDelve(line []byte) []byte {
	line = trimIndentNBSP(line)
	for bytes.HasPrefix(line, delvePrompt) {
		line = line[len(delvePrompt):]
	}
	return trimIndentNBSP(line)
}

// trimIndentNBSP takes spaces, tabs and no-break spaces (a browser's copy of
// a tab) off the front of line.
func trimIndentNBSP(line []byte) []byte {
	for {
		switch {
		case len(line) > 0 && (line[0] == ' ' || line[0] == '\t'):
			line = line[1:]
		case bytes.HasPrefix(line, nbsp):
			line = line[len(nbsp):]
		default:
			return line
		}
	}
}

// isIndented reports whether line starts with a space, a tab or a no-break
// space.
func isIndented(line []byte) bool {
	return len(line) > 0 && (line[0] == ' ' || line[0] == '\t') || bytes.HasPrefix(line, nbsp)
}

// isPrompt reports whether line starts with Delve's prompt, indented or
// not: another command's output begins there.
func isPrompt(line []byte) bool {
	return bytes.HasPrefix(trimIndentNBSP(line), delvePrompt)
}

// stripSGR returns line without ANSI colour sequences ("\x1b[1m"); line
// itself when it has none.
func stripSGR(line []byte) []byte {
	if bytes.IndexByte(line, 0x1b) < 0 {
		return line
	}
	out := make([]byte, 0, len(line))
	for i := 0; i < len(line); i++ {
		if line[i] == 0x1b && i+1 < len(line) && line[i+1] == '[' {
			j := i + 2
			for j < len(line) && (line[j] >= '0' && line[j] <= '9' || line[j] == ';') {
				j++
			}
			if j < len(line) && line[j] == 'm' {
				i = j
				continue
			}
		}
		out = append(out, line[i])
	}
	return out
}

// parseDelveHeader reads a goroutine header, line trimmed by trimDelve.
func parseDelveHeader(s []byte) (h delveHeader, ok bool) {
	if len(s) > 1 && s[0] == '*' && s[1] == ' ' {
		s = s[2:]
	}
	if !bytes.HasPrefix(s, delveKeyword) {
		return h, false
	}
	s = s[len(delveKeyword):]
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 || !bytes.HasPrefix(s[i:], []byte(" - ")) {
		return h, false
	}
	h.id, _ = strconv.ParseInt(string(s[:i]), 10, 64)
	s = s[i+3:]
	for _, k := range delveKinds {
		if len(s) > len(k)+1 && string(s[:len(k)]) == k && s[len(k)] == ':' && s[len(k)+1] == ' ' {
			h.kind = k
			s = s[len(k)+2:]
			break
		}
	}
	if h.kind == "" {
		return h, false
	}
	s = bytes.TrimRight(s, " \r")
	if len(s) > 0 && s[len(s)-1] == ']' {
		o := bytes.LastIndex(s, []byte(" ["))
		if o < 0 {
			return h, false
		}
		h.readBracket(s[o+2 : len(s)-1])
		s = s[:o]
	}
	if t := bytes.LastIndex(s, []byte(" (thread ")); t >= 0 && s[len(s)-1] == ')' && allDigits(s[t+len(" (thread "):len(s)-1]) {
		h.thread = true
		s = s[:t]
	}
	// "file:line func (0xPC)": the PC closes it.
	pc := bytes.LastIndex(s, []byte(" (0x"))
	if pc < 0 || s[len(s)-1] != ')' {
		return h, false
	}
	s = s[:pc]
	sp := bytes.LastIndexByte(s, ' ')
	if sp < 0 {
		return h, false
	}
	loc := s[:sp]
	h.fn = s[sp+1:]
	c := bytes.LastIndexByte(loc, ':')
	if c < 0 || !allDigits(loc[c+1:]) {
		return h, false
	}
	h.file, h.line = bytes.TrimRight(loc[:c], " "), atoiBytes(loc[c+1:])
	return h, true
}

// readBracket reads "IO wait 3402241820540", "sleep", "unknown wait
// reason 12 3402241820540".
func (h *delveHeader) readBracket(b []byte) {
	const unknown = "unknown wait reason "
	if bytes.HasPrefix(b, []byte(unknown)) {
		h.unknown = true
		f := bytes.Fields(b[len(unknown):])
		if len(f) == 2 {
			h.stamp, _ = strconv.ParseInt(string(f[1]), 10, 64)
		}
		return
	}
	if sp := bytes.LastIndexByte(b, ' '); sp > 0 && allDigits(b[sp+1:]) {
		h.stamp, _ = strconv.ParseInt(string(b[sp+1:]), 10, 64)
		b = b[:sp]
	}
	h.state = string(b)
}

// parseDelveFrame reads a frame line, trimmed: "0  0x0000000000489ace in
// runtime.gopark"; its number and function.
func parseDelveFrame(s []byte) (n int, fn []byte, ok bool) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 || i+2 > len(s) || s[i] != ' ' || s[i+1] != ' ' {
		return 0, nil, false
	}
	n = atoiBytes(s[:i])
	r := bytes.TrimLeft(s[i:], " ")
	if !bytes.HasPrefix(r, []byte("0x")) {
		return 0, nil, false
	}
	in := bytes.Index(r, []byte(" in "))
	if in < 3 || !allHex(r[2:in]) {
		return 0, nil, false
	}
	fn = stripSGR(r[in+4:])
	return n, bytes.TrimRight(fn, " \r"), len(fn) > 0
}

// parseDelveAt reads a frame's "at /path/file.go:463", trimmed.
func parseDelveAt(s []byte) (file []byte, line int, ok bool) {
	if !bytes.HasPrefix(s, []byte("at ")) {
		return nil, 0, false
	}
	s = bytes.TrimRight(stripSGR(s[3:]), " \r")
	c := bytes.LastIndexByte(s, ':')
	if c <= 0 || !allDigits(s[c+1:]) {
		return nil, 0, false
	}
	return s[:c], atoiBytes(s[c+1:]), true
}

// isDelveThread reports whether line is Delve's header of an OS thread's
// stack: "Thread 3354812 at 0x4797e3 /src/runtime/sys_linux_amd64.s:555
// runtime.futex".
func isDelveThread(line []byte) bool {
	s := trimDelve(line)
	if !bytes.HasPrefix(s, []byte("Thread ")) {
		return false
	}
	s = s[len("Thread "):]
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i > 0 && bytes.HasPrefix(s[i:], []byte(" at 0x"))
}

// delveStackID reads the goroutine's id from the command before a stack
// printed alone, "(dlv) goroutine 22 stack" (also "bt", "stack -full",
// "stacktrace"); 0 for any other line.
func delveStackID(prev []byte) int64 {
	prev = trimIndentNBSP(prev)
	if !bytes.HasPrefix(prev, delvePrompt) {
		return 0
	}
	f := bytes.Fields(prev[len(delvePrompt):])
	if len(f) < 3 || string(f[0]) != "goroutine" && string(f[0]) != "gr" || !allDigits(f[1]) {
		return 0
	}
	switch string(f[2]) {
	case "stack", "bt", "stacktrace":
		id, _ := strconv.ParseInt(string(f[1]), 10, 64)
		return id
	}
	return 0
}

// startsDelve claims a goroutine header, or the first frame of a stack
// printed alone ("0  0x… in f", after a "(dlv) stack" prompt or at a
// line's start).
//
// Cost: one byte for almost every line (the prefix learner asks at every
// word of a line that names a goroutine).
func startsDelve(line, _ []byte) bool {
	if len(line) < 8 {
		return false
	}
	switch line[0] {
	case ' ', '\t', '(', 'G', '*', '0', nbsp[0]:
	default:
		return false
	}
	s := trimDelve(line)
	if len(s) < 8 {
		return false
	}
	switch s[0] {
	case 'G', '*':
		_, ok := parseDelveHeader(s)
		return ok
	case '0':
		n, _, ok := parseDelveFrame(s)
		return ok && n == 0
	}
	return false
}

// delveScan is one listing being read.
type delveScan struct {
	p       *textParser
	d       *Dump
	cur     *Thread
	frames  []*Frame
	pending []byte // a frame's function awaiting its "at" line
	pendNo  int
	inDefer bool // the last frame line was a defer's: its "at" is the defer's
	// headerFrame tells that frames holds only the header's location.
	headerFrame bool
	// kinds counts the headers of each location kind; stacks the
	// goroutines with numbered frames; bare a stack read without a header.
	kinds   map[string]int
	stacks  int
	bare    bool
	stamps  []int64 // each goroutine's g.waitsince, by index in d.Threads; 0 if none
	unknown int     // "unknown wait reason N" headers
	noState int     // headers without a bracket
	footer  int     // "[N goroutines]"; -1 if none read
	totals  int     // the groups' "Total: N", summed
	grouped int     // groups read
	share   stackShare
	// afterTotal is true after a group's "Total: N"; groupLine (at line
	// groupNo) is the next group's name read after it, until a goroutine
	// line confirms it.
	afterTotal bool
	groupLine  []byte
	groupNo    int
}

// parseDelve reads one listing (see the top of this file). The scan's
// edges (delveScan.line):
//
//	header    -> labels, frame 0, header, Total, footer, end
//	frame N   -> its "at" line (then defer, args and locals, frame N+1,
//	             "(truncated)", error:), header, Total, footer, end
//	Total     -> blank, a group's name (kept until a header follows), end
//	footer    -> end (the footer is the listing's last line)
//	a prompt  -> end (another command's output begins)
//
// A stack printed alone starts at its frame 0 with no header.
func parseDelve(p *textParser) *Dump {
	s := &delveScan{p: p, d: &Dump{Format: FormatGoText}, kinds: map[string]int{}, footer: -1}
	ls := p.ls
	if line, ok := ls.next(); ok {
		if _, _, frame := parseDelveFrame(trimDelve(line)); frame && isDelveThread(p.prev) {
			// An OS thread's stack ("Thread 3354812 at 0x4797e3 …" over
			// frames: Delve's thread bt): not a goroutine's. Its lines
			// are passed over.
			return nil
		}
		ls.unread()
	}
	first := true
	for {
		raw, ok := ls.next()
		if !ok {
			break
		}
		if !first && isPrompt(raw) {
			ls.unread() // another command's output
			break
		}
		first = false
		if !s.line(raw) {
			ls.unread()
			break
		}
		if s.footer >= 0 {
			break
		}
	}
	s.end()
	if s.groupLine != nil {
		s.d.Skipped = append(s.d.Skipped, Skipped{Line: s.groupNo, Text: string(s.groupLine), Reason: "line after the last group, no goroutine under it"})
	}
	if len(s.d.Threads) == 0 {
		return nil
	}
	s.finish()
	return s.d
}

// line reads one line of the listing; false when it is none of its lines.
func (s *delveScan) line(raw []byte) bool {
	ls := s.p.ls
	t := trimDelve(raw)
	if len(bytes.TrimSpace(t)) == 0 {
		return true
	}
	if h, ok := parseDelveHeader(t); ok {
		s.afterTotal, s.groupLine = false, nil
		s.header(h, ls.lineNo())
		return true
	}
	if bytes.HasPrefix(t, []byte("Goroutine (unreadable ")) || bytes.HasPrefix(t, []byte("* Goroutine (unreadable ")) {
		s.end()
		s.skip(raw, "a goroutine Delve could not read")
		return true
	}
	if n, fn, ok := parseDelveFrame(t); ok {
		s.inDefer = false
		if s.cur == nil {
			if n != 0 {
				return false
			}
			s.bare = true
			s.begin(delveStackID(s.p.prev), ls.lineNo())
		}
		s.flushPending()
		if n == 0 && !s.bare {
			s.stacks++
		}
		if s.headerFrame {
			// Numbered frames replace the header's one location.
			s.frames, s.headerFrame = s.frames[:0], false
		}
		s.pending = append(s.pending[:0], fn...)
		s.pendNo = ls.lineNo()
		return true
	}
	if file, line, ok := parseDelveAt(t); ok && s.cur != nil {
		if s.inDefer {
			return true // the deferred call's location
		}
		if len(s.pending) == 0 {
			s.skip(raw, "location line without its frame line")
			return true
		}
		in := s.p.in
		s.frames = append(s.frames, in.frame(in.bytes(s.pending), in.bytes(file), line, "", ""))
		s.pending = s.pending[:0]
		return true
	}
	switch {
	case bytes.HasPrefix(t, []byte("Labels: ")) && s.cur != nil:
		s.labels(t[len("Labels: "):], raw)
		return true
	case bytes.Equal(bytes.TrimRight(t, " \r"), []byte("(truncated)")) && s.cur != nil:
		s.cur.extra().FramesElided = true
		return true
	case bytes.HasPrefix(t, []byte("[")) && bytes.HasSuffix(bytes.TrimRight(t, " \r"), []byte(" goroutines]")):
		n := bytes.TrimSuffix(bytes.TrimRight(t, " \r")[1:], []byte(" goroutines]"))
		if allDigits(n) {
			s.footer = atoiBytes(n)
			return true
		}
	case bytes.HasPrefix(t, []byte("Total: ")) && allDigits(bytes.TrimRight(t[len("Total: "):], " \r")):
		s.totals += atoiBytes(bytes.TrimRight(t[len("Total: "):], " \r"))
		s.grouped++
		s.end()
		s.afterTotal = true
		return true
	case bytes.HasPrefix(t, []byte("defer ")) && s.cur != nil:
		s.inDefer = true // "defer 1: 0x… in f", then its "at" and "deferred by" lines
		return true
	case s.cur != nil && (bytes.HasPrefix(t, []byte("deferred by ")) || bytes.HasPrefix(t, []byte("frame: ")) ||
		bytes.HasPrefix(t, []byte("(unreadable defer: "))):
		return true
	case s.cur != nil && bytes.HasPrefix(t, []byte("error: ")):
		s.skip(raw, "a frame Delve could not read")
		return true
	case s.cur != nil && isIndented(raw) && bytes.Contains(t, []byte(" = ")):
		return true // stack -full's arguments and locals ("    x = 1"), indented
	case s.afterTotal && s.groupLine == nil:
		// A group's name ("user=true") after a group's "Total: N": kept
		// until a goroutine line follows it (header), else skipped
		// (parseDelve). The reader's look-ahead would see a prefixed
		// paste's raw lines: it is not used.
		s.groupLine, s.groupNo = bytes.Clone(raw), ls.lineNo()
		return true
	}
	return false
}

func (s *delveScan) skip(raw []byte, reason string) {
	s.p.skip(s.d, raw, reason)
}

// header starts the goroutine of h.
func (s *delveScan) header(h delveHeader, no int) {
	s.begin(h.id, no)
	s.kinds[h.kind]++
	t := s.cur
	in := s.p.in
	switch {
	case h.unknown:
		s.unknown++
	case h.state == "":
		s.noState++
	default:
		t.State = in.str(h.state)
	}
	s.stamps[len(s.stamps)-1] = h.stamp
	fn := h.fn
	if len(fn) == 0 {
		fn = []byte("?")
	}
	f := in.frame(in.bytes(fn), in.bytes(h.file), h.line, "", "")
	if h.kind == "Go" {
		// The go statement: where the goroutine was created.
		t.CreatedBy = &Creator{Func: f.Func, File: f.File, Line: f.Line}
		return
	}
	// The header's location is the goroutine's one frame until numbered
	// frames follow it (goroutines -t), which replace it.
	s.frames = append(s.frames, f)
	s.headerFrame = true
}

// begin ends the goroutine read and starts one with id.
func (s *delveScan) begin(id int64, no int) {
	s.end()
	s.cur = &Thread{ID: id, Weight: 1, Line: no}
	s.d.Threads = append(s.d.Threads, s.cur)
	s.stamps = append(s.stamps, 0)
}

// flushPending skips a frame line whose "at" line did not come.
func (s *delveScan) flushPending() {
	if len(s.pending) > 0 {
		s.d.Skipped = append(s.d.Skipped, Skipped{Line: s.pendNo, Text: string(s.pending), Reason: "frame line without its location line"})
		s.pending = s.pending[:0]
	}
}

// labels reads `"job":"import", "tenant":"acme"` and its "... (N more)".
func (s *delveScan) labels(b, raw []byte) {
	b = bytes.TrimRight(b, " \r")
	if i := bytes.LastIndex(b, []byte("... (")); i >= 0 && bytes.HasSuffix(b, []byte(" more)")) {
		b = b[:i] // Delve prints five labels at most
	}
	set := make([]byte, 0, len(b)+2)
	set = append(append(append(set, '{'), b...), '}')
	l, rest, ok := parseLabelSet(set, s.p.in)
	if !ok || len(rest) != 0 {
		s.skip(raw, "labels line not understood")
		return
	}
	s.cur.Labels = l
}

// end closes the goroutine read.
func (s *delveScan) end() {
	s.flushPending()
	if s.cur == nil {
		return
	}
	fs := s.frames
	if !s.headerFrame {
		var creator string
		fs, creator = runtimeView(fs)
		if creator != "" && s.cur.CreatedBy == nil {
			s.cur.CreatedBy = &Creator{Func: s.p.in.str(creator)}
		}
	}
	s.cur.Frames = s.share.frames(fs)
	s.frames, s.headerFrame, s.inDefer = s.frames[:0], false, false
	s.cur = nil
}

// runtimeView returns a debugger's stack as the runtime's own traceback
// prints it, which the analysis reads (pools by the entry frame when no
// creator is printed, signatures by the frames): without the runtime.goexit
// frame every stack ends in (the traceback stops above it) and without the
// wrapper the compiler writes for a go statement, "main.main.gowrap3"
// (the traceback hides wrappers), nor the method wrappers the compiler
// writes at "<autogenerated>:1". The go statement's wrapper is named after the function
// that holds the go statement: that function is returned as the creator
// ("main.main"); "" when the stack ends in no such wrapper.
func runtimeView(fs []*Frame) ([]*Frame, string) {
	if slices.ContainsFunc(fs, isAutogenerated) {
		fs = slices.DeleteFunc(slices.Clone(fs), isAutogenerated)
	}
	n := len(fs)
	if n > 0 && fs[n-1].Func == "runtime.goexit" {
		n--
	}
	creator := ""
	if n > 0 {
		fn := fs[n-1].Func
		if i := strings.LastIndex(fn, ".gowrap"); i > 0 && allDigits([]byte(fn[i+len(".gowrap"):])) {
			creator = fn[:i]
			n--
		}
	}
	return fs[:n], creator
}

// isAutogenerated reports whether f is a method wrapper the compiler
// wrote ("net/http.(*onceCloseListener).Accept" at "<autogenerated>:1"):
// the runtime's traceback hides it.
func isAutogenerated(f *Frame) bool { return f.File == "<autogenerated>" }

// stackShare gives goroutines of the same stack one Frames slice, as the
// Go text builder does: the analysis pools goroutines by the address of
// their frames (analyze's goSlotKey). Frames are interned, so a stack is
// its sequence of frame pointers.
type stackShare struct {
	ids    map[*Frame]uint32
	shared map[string][]*Frame
	key    []byte
}

// frames returns the one slice equal to fs (copied on first sight); nil
// for no frames.
func (sh *stackShare) frames(fs []*Frame) []*Frame {
	if len(fs) == 0 {
		return nil
	}
	if sh.ids == nil {
		sh.ids, sh.shared = map[*Frame]uint32{}, map[string][]*Frame{}
	}
	sh.key = sh.key[:0]
	for _, f := range fs {
		id, ok := sh.ids[f]
		if !ok {
			id = uint32(len(sh.ids))
			sh.ids[f] = id
		}
		sh.key = binary.LittleEndian.AppendUint32(sh.key, id)
	}
	out, ok := sh.shared[string(sh.key)]
	if !ok {
		out = append([]*Frame(nil), fs...)
		sh.shared[string(sh.key)] = out
	}
	return out
}

// delveMinute is the runtime's minute, in its clock's nanoseconds.
const delveMinute = 60e9

// finish sets the waits and says what the listing is.
func (s *delveScan) finish() {
	newest := int64(0)
	for _, st := range s.stamps {
		newest = max(newest, st)
	}
	for i, t := range s.d.Threads {
		if st := s.stamps[i]; st > 0 {
			t.WaitMinutes = int((newest - st) / delveMinute)
		}
	}
	var what []string
	n := len(s.d.Threads)
	loc := "User"
	for _, k := range delveKinds {
		if s.kinds[k] > 0 && k != "Go" {
			loc = k
		}
	}
	switch {
	case s.bare && s.d.Threads[0].ID != 0:
		what = append(what, fmt.Sprintf("goroutine %d's stack printed by Delve's stack (the id from the command): no state", s.d.Threads[0].ID))
	case s.bare:
		what = append(what, "a goroutine's stack printed by Delve's stack or bt: no goroutine id, no state")
	case s.stacks > 0:
		what = append(what, fmt.Sprintf("Delve's goroutines -t listing of %d goroutines", n))
	case s.kinds["Go"] == n:
		what = append(what, fmt.Sprintf("Delve's goroutines -g listing of %d goroutines: each one's go statement, read as its creator; no frames", n))
	default:
		what = append(what, fmt.Sprintf("Delve's goroutines listing of %d goroutines: one frame each (its %s location), not their stacks", n, loc))
	}
	if !s.bare {
		what = append(what, "waits are Delve's stamps of the runtime's clock, read as the least wait (from each stamp to the newest)")
	}
	if s.noState > 0 {
		what = append(what, fmt.Sprintf("%d not waiting (running, runnable or in a syscall), without a state: Delve prints only a wait's reason", s.noState))
	}
	if s.unknown > 0 {
		what = append(what, fmt.Sprintf("%d with a wait reason this Delve had no word for (\"unknown wait reason N\"): no state", s.unknown))
	}
	if s.grouped > 0 && s.totals > n {
		what = append(what, fmt.Sprintf("%d goroutines in %d groups, %d listed: the rest are not in it", s.totals, s.grouped, n))
	}
	if s.footer > 0 && s.grouped == 0 && s.footer != n {
		what = append(what, fmt.Sprintf("its footer says %d goroutines, %d read", s.footer, n))
	}
	s.d.Excerpt = strings.Join(what, "; ")
}
