package parse

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"time"
)

// ParseFile reads every dump in the file at path ("-" for stdin) with the
// default Options.
func ParseFile(path string) ([]*Dump, error) { return Options{}.ParseFile(path) }

// Parse reads every dump in r with the default Options; name is used in
// positions and errors.
func Parse(name string, r io.Reader) ([]*Dump, error) { return Options{}.Parse(name, r) }

// ParseFile reads every dump in the file at path ("-" for stdin). Gzip is
// undone transparently; a JFR recording is read by running the JDK's jfr
// tool on the file (see jfr.go). The error is a *NoDumpError when the file
// holds no dump, or an I/O error naming the file.
func (o Options) ParseFile(path string) ([]*Dump, error) {
	if path == "-" {
		return o.Parse("-", os.Stdin)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	jfrPath := ""
	size := int64(0)
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		jfrPath = path // jfr reads the file itself; a pipe is copied first
		size = st.Size()
	}
	return o.parse(path, bufio.NewReaderSize(f, readSize(size)), jfrPath)
}

// readSize is the read buffer for a file of size bytes (0 when unknown):
// 1 MiB, and for a file above 64 MiB a 64th of it, up to 8 MiB. A read of
// a file in the page cache is a fraction of a millisecond of copying,
// long enough for the Go scheduler to hand the reading goroutine's P to
// another goroutine when one is waiting, as when three moments are parsed
// on two cores: each read of 1 MiB then cost two thread switches and left
// a core idle between them. 3 × 1M goroutines (911 MB a file), load
// only, 6 interleaved runs: 3.47 -> 2.86 s wall, 6.21 -> 5.47 CPU-s,
// 0.69 -> 0.19 core-seconds idle. The bound keeps many small files from
// holding large buffers.
func readSize(size int64) int {
	const least, most = 1 << 20, 8 << 20
	return int(max(least, min(size/64, most)))
}

// Parse reads every dump in r; name is used in positions and errors. The
// format is detected by content: a JFR recording goes to the jfr tool, a
// gzip stream is opened (and capped at MaxInflated), a byte order mark or
// UTF-16 is decoded, then the binary formats (pprof proto) and JSON (jcmd
// Thread.dump_to_file, Spring Boot Actuator, jfr print --json) are tried on
// the head of the input, else the input is scanned as text line by line
// and each line that starts a dump hands the scan to that format's parser.
func (o Options) Parse(name string, r io.Reader) ([]*Dump, error) {
	return o.parse(name, bufio.NewReaderSize(r, 1<<20), "")
}

// parse is Parse with a file path jfr can read, or "" (a stream).
func (o Options) parse(name string, br *bufio.Reader, path string) ([]*Dump, error) {
	head, _ := br.Peek(4)
	if isJFRRecording(head) {
		return o.parseJFRRecording(name, br, path)
	}
	if head, _ := br.Peek(len(hprofMagic)); isHPROF(head) {
		return o.parseHPROF(name, br, path, false)
	}
	gz := len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b
	if gz {
		zr, err := gzip.NewReader(br)
		if err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) {
				return nil, fmt.Errorf("%s: truncated gzip stream (cut inside its header): %w", name, err)
			}
			return nil, fmt.Errorf("%s: reading gzip: %w", name, err)
		}
		defer zr.Close()
		inner := bufio.NewReaderSize(zr, 1<<20)
		if head, _ = inner.Peek(len(hprofMagic)); isHPROF(head) {
			// A heap dump is read as a stream in bounded memory, however
			// far it expands: no cap on the stream (hprof.go).
			return o.parseHPROF(name, inner, path, true)
		}
		br = bufio.NewReaderSize(&capReader{r: inner, max: o.maxInflated(), what: "gzip stream"}, 1<<20)
		if head, _ = br.Peek(4); isJFRRecording(head) {
			return o.parseJFRRecording(name, br, "")
		}
	}
	if head, _ = br.Peek(16); isGoTrace(head) {
		return o.parseGoTrace(name, br)
	}
	br, _ = decodeText(br)
	in := newInterner()
	head, _ = br.Peek(4096)
	for _, b := range binaryFormats {
		if !b.claim(head) {
			continue
		}
		data, err := readAllCapped(br, o.maxInflated(), "JSON or proto input")
		if err != nil {
			if gz && errors.Is(err, io.ErrUnexpectedEOF) {
				return nil, fmt.Errorf("%s: truncated gzip stream: it ends after %d bytes of %s data: %w", name, len(data), b.format, err)
			}
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		dumps, err := b.parse(name, data, in)
		if err == errUnrecognized {
			return o.parseText(name, bufio.NewReader(bytes.NewReader(data)), in, false)
		}
		return dumps, err
	}
	return o.parseText(name, br, in, gz)
}

// binaryFormat is a format read whole: pprof proto, jcmd JSON.
type binaryFormat struct {
	format Format
	// claim reports whether head (the first bytes, up to 4 KiB) starts this format.
	claim func(head []byte) bool
	// parse reads all dumps of data; errUnrecognized sends data to the text scan.
	parse func(name string, data []byte, in *interner) ([]*Dump, error)
}

// textFormat is a line-oriented format.
type textFormat struct {
	format Format
	// starts reports whether line begins a dump of this format. prev is the
	// line before it (nil at the start of input), for formats whose first
	// line alone is not enough.
	starts func(line, prev []byte) bool
	// parse reads one dump. On entry the line that starts it has been
	// unread (the next call to p.ls.next returns it) and p.prev holds the line
	// before it. It returns at the end of input or after unreading the first
	// line that is not part of the dump.
	parse func(p *textParser) *Dump
	// goesOn reports whether line, the first in a fenced block after a
	// closing fence and prose, goes on with a dump of this format (a
	// thread's first line) rather than starting one of its own (fence.go);
	// nil for a format never pasted in parts.
	goesOn func(line []byte) bool
	// join is the format's rules for a line a prefixing tool cut in two
	// (rejoin.go); nil for a format not so cut.
	join *lineJoin
}

// refusal recognises a format dumpdiff does not read, to name it in the
// error instead of the generic "no dump found".
type refusal struct {
	matches func(line []byte) bool
	looks   string // "java stack frames without a thread header, ..."
}

// textParser is what a text format's parser works with.
type textParser struct {
	ls   *lineSource
	in   *interner
	name string
	prev []byte // copy of the line before the dump's first line; nil if none
}

// skip records the current line of ls as skipped in d.
func (p *textParser) skip(d *Dump, line []byte, reason string) {
	if len(line) > 200 {
		line = line[:200]
	}
	d.Skipped = append(d.Skipped, Skipped{Line: p.ls.lineNo(), Text: string(line), Reason: reason})
}

// endsPaste reports whether line, as it is, starts a dump with a line only
// a dump starts with: a goroutine header, a "Full thread dump" line, a
// HotSpot thread header, or the first line of the other formats. A paste
// ends there (prefix.go, rule 4). A line that may start a dump but
// often does not ("panic: test timed out after 2s" in a test log, a
// date, a number) is a line inside the paste when the paste's prefix
// comes back after it.
func endsPaste(line []byte) bool {
	for i := range textFormats {
		tf := &textFormats[i]
		switch tf.format {
		case FormatGoText:
			if isGoHeader(line) {
				return true
			}
		case FormatJVMText:
			if bytes.HasPrefix(line, prefixFullDump) || isHotSpotHeader(line) {
				return true
			}
		default:
			if tf.starts(line, nil) {
				return true
			}
		}
	}
	return false
}

// parseText scans the input line by line. Lines outside any dump (log
// output around a kill -3 dump, a console session) are passed over: they
// belong to no dump. A line that starts a dump once a prefix is taken off
// it (a log collector's, an indented or quoted paste: prefix.go) starts a
// prefixed dump.
//
// A read error ends the scan; the dumps read so far are returned with it.
// gz tells that r is a gzip stream, whose truncation is named as such.
func (o Options) parseText(name string, r io.Reader, in *interner, gz bool) ([]*Dump, error) {
	ls := newLineSource(name, r, o.maxLine())
	p := &textParser{ls: ls, in: in, name: name}
	var dumps []*Dump
	var prev []byte
	var pl, ppl prefixLine
	looks := ""
	jsonLine := 0 // the line of the last JSON record whose field holds a dump
	var startLine, keep []byte
	for {
		line, ok := ls.next()
		if !ok {
			break
		}
		var tf *textFormat
		var shape *prefixShape
		var pv []byte
		if sigquitAfterText(line) && !ls.staged() && bytes.Contains(line, []byte("<pre")) && ls.htmlStart(line) {
			continue // "<pre>SIGQUIT: quit": the HTML block's first line (escape.go)
		}
		// A line ending "SIGQUIT: quit" after text: a collector's prefix
		// or a tool's (learned) first; else it is a program's output run
		// into the runtime's (isSIGQUITLine), read as it is last.
		sq := sigquitAfterText(line)
		for i := range textFormats {
			if tf != nil || sq {
				break
			}
			if textFormats[i].starts(line, prev) {
				tf = &textFormats[i]
			}
		}
		if tf == nil {
			shape, pv, tf = findPrefix(line, prev, &pl, &ppl)
			if tf != nil && shape != nil && (sigquitAfterText(pl.text) || !shape.paste) {
				// A known shape that leaves text before the SIGQUIT
				// ("     api | SIGQUIT: quit" read as indented, a docker
				// record of "2031:SIGQUIT: quit"), or a collector's
				// shape the next lines do not confirm (prefix_learn.go
				// rule 3: a syslog shape that pins a counter as the
				// process): a prefix learned with the known shape's as
				// layers, if one is confirmed; else the known shape.
				// Lines are read ahead: line is kept in a buffer of its
				// own, and split again.
				keep = append(keep[:0], line...)
				line = keep
				shape, pv, tf = findPrefix(line, prev, &pl, &ppl)
				if sigquitAfterText(pl.text) || !ls.learnConfirm(shape.split, pl.source) {
					if lsh, lpv, ltf, lline := ls.learnPrefix(line, prev, &pl); ltf != nil {
						shape, pv, tf, line = lsh, lpv, ltf, lline
					} else {
						shape, pv, tf = findPrefix(line, prev, &pl, &ppl) // pl as the known shape split it
					}
				}
			}
		}
		if tf == nil && (!ls.staged() || sq) {
			// Any other tool's prefix, learned from this line (prefix_learn.go).
			shape, pv, tf, line = ls.learnPrefix(line, prev, &pl)
		}
		for i := range textFormats {
			if tf != nil || !sq {
				break
			}
			if textFormats[i].starts(line, prev) {
				tf = &textFormats[i]
			}
		}
		if tf == nil && shape == nil && !ls.staged() {
			// Escaped dumps (escape.go): a JSON string field's lines are
			// read in this line's place; an HTML block from here on
			// unescaped. Both are given to the same checks again.
			if text, cut := jsonFieldDump(line); text != nil {
				ls.queueText(ls.lineNo(), text, cut)
				jsonLine = ls.lineNo()
				continue
			}
			if bytes.IndexByte(line, '<') >= 0 || bytes.IndexByte(line, '&') >= 0 {
				if ls.htmlStart(line) {
					continue
				}
			}
			if len(line) > 0 && line[0] == '`' && ls.codeStart(line, prev) {
				continue // inline code (inline_code.go): read again without its backticks
			}
		}
		if tf == nil && shape == nil && !ls.staged() && len(line) > 0 && line[len(line)-1] == ')' && !gluedHeader(prev) && startsGoBody(ls, line) {
			// grep's output of a Go dump, beginning inside a goroutine
			// (goroutine_grep.go): asked last, looking ahead.
			for i := range textFormats {
				if textFormats[i].format == FormatGoText {
					tf = &textFormats[i]
				}
			}
		}
		if tf == nil && shape == nil && !ls.staged() && bytes.Contains(line, warnThread) && startsBlockedWarningInside(line) {
			// A blocked-thread checker's warning after a logger's layout
			// that its stack's lines do not carry (blocked_warning.go).
			tf = blockedWarningFormat()
		}
		if tf == nil && shape == nil && !ls.staged() && mayStartBody(line, prev) {
			// A paste of JVM threads that starts at frames or at a quoted
			// name alone (jstack_excerpt.go): a line a log prints too, so
			// it is asked last, looking ahead. The look ahead may move
			// the reader's buffer under line: it goes on as a copy.
			line = bytes.Clone(line)
			if startsJVMBody(ls, line, prev) {
				tf = jvmTextFormat()
			}
			ls.replace(line)
			ls.next()
		}
		if tf == nil {
			if looks == "" && len(dumps) == 0 {
				for _, rf := range refusals {
					if rf.matches(line) {
						looks = rf.looks
						break
					}
				}
			}
			prev = append(prev[:0], line...)
			continue
		}
		start := ls.lineNo()
		var t0 time.Time
		if shape != nil {
			if shape.time != nil && pl.stamp != nil {
				t0 = shape.time(pl.stamp, o.now())
			}
			p.prev = append([]byte(nil), pv...)
			ls.beginPrefix(shape, &pl, endsPaste)
		} else {
			p.prev = prev
			ls.unread()
		}
		html := ls.inHTML()
		if looks == "" && len(dumps) == 0 {
			startLine = append(startLine[:0], line...) // for a refusal, if no dump is found there
		}
		ls.goesOn, ls.join = tf.goesOn, tf.join
		d := tf.parse(p)
		ls.goesOn, ls.join = nil, nil
		html = html || ls.inHTML()
		ls.endPrefix()
		held := ls.takeHeld(start, ls.lastKept())
		joins := ls.takeJoins(start, ls.lastKept())
		prev = prev[:0]
		if emptyQuote(d, tf.format) {
			// Headers quoted in prose (prose_refusal.go): passed over.
			if looks == "" && len(dumps) == 0 {
				looks = proseThreadsRefusal
			}
			continue
		}
		if d == nil {
			if looks == "" && len(dumps) == 0 {
				for _, rf := range refusals {
					if rf.matches(startLine) {
						looks = rf.looks
						break
					}
				}
			}
			// The format looked further and found no dump after all; what it
			// read is passed over. If it gave back the first line, move past it.
			if ls.givenBack() && ls.lineNo() == start {
				ls.next()
			}
			continue
		}
		d.Joined = joins
		if len(held) > 0 {
			d.Skipped = append(d.Skipped, held...)
			sort.SliceStable(d.Skipped, func(i, j int) bool { return d.Skipped[i].Line < d.Skipped[j].Line })
		}
		if shape != nil {
			d.Prefix = shape.name
			if d.Time.IsZero() {
				d.Time = t0
			}
		}
		switch {
		case start == jsonLine && d.Prefix == "":
			d.Prefix = "json string"
		case html && d.Prefix == "":
			d.Prefix = "html"
		}
		if d.Format == "" {
			d.Format = tf.format
		}
		d.Source = Source{File: name, Line: start, Index: len(dumps)}
		dumps = append(dumps, d)
	}
	if err := ls.Err(); err != nil {
		var tl *TooLargeError
		if errors.As(err, &tl) {
			return dumps, fmt.Errorf("%s: %w", name, err)
		}
		if gz && errors.Is(err, io.ErrUnexpectedEOF) {
			where := "after"
			if ls.cut() {
				where = "in" // the last line read is cut
			}
			n := fmt.Sprintf("%d dumps", len(dumps))
			if len(dumps) == 1 {
				n = "1 dump"
			}
			return dumps, fmt.Errorf("%s: gzip stream truncated %s line %d (%s read before it): %w", name, where, ls.lineNo(), n, err)
		}
		return dumps, fmt.Errorf("%s:%d: %w", name, ls.lineNo(), err)
	}
	if len(dumps) == 0 {
		return nil, &NoDumpError{File: name, Looks: looks, LongLines: ls.longCount(), MaxLine: ls.maxLine()}
	}
	return dumps, nil
}
