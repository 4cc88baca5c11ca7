package parse

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
)

// lineSource yields the lines of a text input one at a time, with their
// 1-based numbers, without copying: a returned line is valid until the next
// call to next. One line can be pushed back with unread, so that a format
// parser can stop at the first line that is not its own and leave it to the
// caller. CR before LF is removed (CRLF dumps from Windows).
//
// Two things happen below the parsers, and neither is silent: a line
// longer than max is skipped without being held whole, and, in a prefixed
// dump (prefix.go), each line loses its prefix and a line without it is
// kept from the parser. Both are recorded in held with their positions;
// parseText moves the records that fall inside a dump into its Skipped.
//
// Parsers read it through its methods alone (next, unread, replace,
// lineNo and prevNo, cut, current, asRead and readAgain to give lines
// back as read, buffered and took for the Go fast path, peek for the
// prefix learner); its fields are written by it and its stages, each a
// layer of one interface (stage.go: HTML, a prefix, inline code, the
// indentation rewrites), no one else.
//
// Cost: one bufio.Reader of 1 MiB, scanned in place: a line is found with
// one bytes.IndexByte over the bytes already buffered (blk), and
// bufio.ReadSlice runs once per buffer refill, not once per line. A line
// longer than the buffer is assembled in a side buffer up to max, and
// drained past it.
type lineSource struct {
	r    *bufio.Reader
	blk  []byte // the reader's buffered bytes (Peek), from pos on not yet read
	pos  int
	name string // file name for errors
	max  int    // longest line given, in bytes
	n    int    // number of the line last returned
	line []byte // the line last returned
	long []byte // side buffer for lines longer than the reader's buffer
	back bool   // unread was called: next returns line again
	err  error  // read error other than io.EOF
	eof  bool
	// partial is true when the line last returned had no line ending: the
	// last line of an input cut in the middle of a line (head -c), or of a
	// file without a final newline.
	partial bool
	// before is the number of the line returned before the last one: with
	// back set, the last line the parser kept.
	before int
	// rawN and rawPartial are n and partial of the last line read, given
	// or not (a held line is read but not given).
	rawN int
	// joinedAt is the line number of a line joined from prefixed partial
	// records (its first piece's) while nextSlow hands it out; 0 otherwise.
	joinedAt   int
	rawPartial bool

	held      []Skipped // lines read but not given (see above)
	longLines int       // lines skipped for their length, inside dumps or not
	queue     []rawLine // lines read ahead, to be returned again (prefix.go)
	// foreign are the lines of other sources (or none) held in a prefixed
	// dump, whole: those after the dump's last line are read again when it
	// ends (endPrefix), so that nothing the parser read past is lost.
	foreign []rawLine
	// stages are the reader's stages turned on (stage.go); nil when none:
	// lines are given as read. stagesOff is set by a stage that ends them
	// all (a paste that ended), for the line being read.
	stages    *lineStage
	stagesOff bool
	first     []byte // the first line of a prefixed dump, without its prefix
	// raw is, in a prefixed dump, the line last read with its prefix (it
	// aliases the reader's buffer); nil for a line joined from records.
	raw []byte
	// learnBuf holds the line a prefix was learned on (prefix_learn.go),
	// which outlives the lines read ahead to confirm it.
	learnBuf []byte
	// lineBeforeJoin holds a line outside a dump while joinCutStart looks
	// ahead for its rest (prefix_learn.go).
	lineBeforeJoin []byte
	// learnSrc and learnTmp are learnConfirm's scratch: the first line's
	// source and the split of a line read ahead.
	learnSrc []byte
	learnTmp prefixLine
	// join is, while a dump is read, its format's rules for lines a tool
	// cut (rejoin.go); joins records the lines joined, as held does;
	// cutBuf holds a cut line and its join.
	join   *lineJoin
	joins  []Skipped
	cutBuf []byte
	// goesOn is, while a dump is read, its format's textFormat.goesOn:
	// the lines that go on with it after a fenced part ends (fence.go).
	goesOn func(line []byte) bool
}

// rawLine is a line read ahead and queued.
type rawLine struct {
	no      int
	text    []byte
	partial bool
}

func newLineSource(name string, r io.Reader, max int) *lineSource {
	br, ok := r.(*bufio.Reader)
	if !ok || br.Size() < 1<<20 {
		br = bufio.NewReaderSize(r, 1<<20)
	}
	if max <= 0 {
		max = DefaultMaxLine
	}
	return &lineSource{r: br, name: name, max: max}
}

// next returns the next line without its line ending, and false at the end
// of input or on a read error (see Err).
//
// The common case, a raw line whose newline is already buffered, is
// handled here without a call: this runs once per line of every input.
func (s *lineSource) next() ([]byte, bool) {
	if !s.back && s.stages == nil && len(s.queue) == 0 {
		rest := s.blk[s.pos:]
		// A fence inside a dump may be the end of one part of a paste
		// (fence.go): nextSlow looks.
		if i := bytes.IndexByte(rest, '\n'); i >= 0 && i <= s.max && (i == 0 || s.goesOn == nil || rest[0] != '`' && rest[0] != '~') {
			s.pos += i + 1
			line := rest[:i]
			if i > 0 && line[i-1] == '\r' {
				line = line[:i-1]
			}
			s.before = s.n
			s.rawN++
			s.n = s.rawN
			s.rawPartial, s.partial = false, false
			s.line = line
			return line, true
		}
	}
	return s.nextSlow()
}

// nextSlow is next for a line given back, queued, prefixed, or not yet
// buffered.
func (s *lineSource) nextSlow() ([]byte, bool) {
	if s.back {
		s.back = false
		return s.line, true
	}
	s.before = s.n
	var line []byte
	var ok bool
	if s.stages != nil {
		line, ok = s.nextStaged()
	} else {
		line, ok = s.read()
		for ok && s.goesOn != nil && isFence(line) && s.fenceGap(line) {
			line, ok = s.read()
		}
	}
	if !ok {
		return nil, false
	}
	s.n, s.partial = s.rawN, s.rawPartial
	if s.joinedAt > 0 {
		s.n, s.joinedAt = s.joinedAt, 0
	}
	s.line = line
	return line, true
}

// read returns the next raw line: a queued one, else one from the reader.
func (s *lineSource) read() ([]byte, bool) {
	if len(s.queue) > 0 {
		q := s.queue[0]
		s.queue = s.queue[1:]
		s.rawN, s.rawPartial = q.no, q.partial
		return q.text, true
	}
	return s.readFresh()
}

// peek returns the raw line k lines after the last one read (0: the next),
// as read, prefix and all, without taking it: the lines peeked at stay
// queued and are read in their turn. false at the end of input.
//
// Cost: each line read ahead is copied once (the reader's buffer moves
// on); the prefix learner peeks at a few lines, only at a candidate.
func (s *lineSource) peek(k int) (rawLine, bool) {
	for len(s.queue) <= k {
		n, p := s.rawN, s.rawPartial
		if m := len(s.queue); m > 0 {
			s.rawN = max(s.rawN, s.queue[m-1].no) // the reader's count goes on from the last line it gave
		}
		line, ok := s.readFresh()
		if ok {
			s.queue = append(s.queue, rawLine{no: s.rawN, text: bytes.Clone(line), partial: s.rawPartial})
		}
		s.rawN, s.rawPartial = n, p
		if !ok {
			return rawLine{}, false
		}
	}
	return s.queue[k], true
}

// readFresh reads the next raw line from the reader, past the queue.
func (s *lineSource) readFresh() ([]byte, bool) {
	rest := s.blk[s.pos:]
	if i := bytes.IndexByte(rest, '\n'); i >= 0 && i <= s.max {
		s.pos += i + 1
		line := rest[:i]
		if i > 0 && line[i-1] == '\r' {
			line = line[:i-1]
		}
		s.rawN++
		s.rawPartial = false
		return line, true
	}
	// What is left of the buffer holds no whole line: ReadSlice reads the
	// line on (filling the buffer), then the buffer is scanned again.
	s.r.Discard(s.pos)
	line, ok := s.readSlice()
	s.blk, _ = s.r.Peek(s.r.Buffered())
	s.pos = 0
	return line, ok
}

// readSlice reads one line with bufio.ReadSlice: the lines that are not
// already whole in the buffer, long lines, the end of input and errors.
func (s *lineSource) readSlice() ([]byte, bool) {
	for {
		if s.eof {
			return nil, false
		}
		line, err := s.r.ReadSlice('\n')
		if err == bufio.ErrBufferFull || len(line) > s.max+1 {
			var ok bool
			if line, err, ok = s.readLong(line, err); !ok {
				continue
			}
		}
		if err != nil {
			s.eof = true
			if !errors.Is(err, io.EOF) {
				s.err = err
			}
			if len(line) == 0 {
				return nil, false
			}
		}
		s.rawN++
		s.rawPartial = len(line) == 0 || line[len(line)-1] != '\n'
		// Direct byte checks: bytes.TrimSuffix showed up at ~10% of Go text
		// parse time in profiles; this is the hot loop.
		if n := len(line); n > 0 && line[n-1] == '\n' {
			line = line[:n-1]
		}
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
		return line, true
	}
}

// readLong finishes a line that did not fit the reader's buffer or is
// longer than max. Up to max bytes it is assembled in s.long (ok); past max
// the rest is read and dropped as it comes, and the line is recorded in
// held (not ok: the caller reads the next line).
func (s *lineSource) readLong(line []byte, err error) ([]byte, error, bool) {
	s.long = append(s.long[:0], line[:min(len(line), s.max+1)]...)
	size := int64(len(line))
	for err == bufio.ErrBufferFull {
		line, err = s.r.ReadSlice('\n')
		size += int64(len(line))
		if room := s.max + 1 - len(s.long); room > 0 {
			s.long = append(s.long, line[:min(len(line), room)]...)
		}
	}
	content := size
	if len(line) > 0 && line[len(line)-1] == '\n' {
		content--
	}
	if content <= int64(s.max) {
		return s.long, err, true
	}
	s.rawN++
	s.longLines++
	s.hold(s.rawN, s.long[:min(len(s.long), s.max)], fmt.Sprintf("line longer than %s (%d bytes): skipped without being read whole", byteSize(int64(s.max)), content))
	if err != nil {
		s.eof = true
		if !errors.Is(err, io.EOF) {
			s.err = err
		}
	}
	return nil, err, false
}

// hold records a line read but not given to the parser.
func (s *lineSource) hold(no int, text []byte, reason string) {
	if len(text) > 200 {
		text = text[:200]
	}
	s.held = append(s.held, Skipped{Line: no, Text: string(text), Reason: reason})
}

// takeHeld returns the held records of lines from first to last and
// forgets every record up to last.
func (s *lineSource) takeHeld(first, last int) []Skipped {
	var in []Skipped
	k := 0
	for _, h := range s.held {
		switch {
		case h.Line > last:
			s.held[k] = h
			k++
		case h.Line >= first:
			in = append(in, h)
		}
	}
	s.held = s.held[:k]
	return in
}

// replace makes the next call to next return text instead of the current
// line: what is left of it once a parser read its own prefix off it (jfr
// print's `  result = "`). text must stay valid until then.
func (s *lineSource) replace(text []byte) {
	s.line = text
	s.back = true
}

// unread makes the next call to next return the current line again.
func (s *lineSource) unread() { s.back = true }

// lineNo is the 1-based number of the line last returned by next.
func (s *lineSource) lineNo() int { return s.n }

// prevNo is the number of the line returned before the last one.
func (s *lineSource) prevNo() int { return s.before }

// cut reports whether the line last returned had no line ending: the
// last line of an input cut in the middle of a line, or of a file
// without a final newline.
func (s *lineSource) cut() bool { return s.partial }

// cutAtEnd reports whether the input ended in the middle of the line
// last returned.
func (s *lineSource) cutAtEnd() bool { return s.eof && s.partial }

// current is the line last returned by next.
func (s *lineSource) current() []byte { return s.line }

// givenBack reports whether the line last returned will be returned
// again by next (unread or replace was called).
func (s *lineSource) givenBack() bool { return s.back }

// maxLine is the longest line given, in bytes.
func (s *lineSource) maxLine() int { return s.max }

// longCount is the number of lines skipped for their length, inside
// dumps or not.
func (s *lineSource) longCount() int { return s.longLines }

// buffered returns the bytes read from the input and not yet returned,
// when the next lines come straight from them: no line is given back or
// queued, and no prefix or stage is read off the lines (prefix.go,
// indent.go, escape.go). Otherwise nil. A parser may consume whole lines
// of them with took, as that many calls of next would.
func (s *lineSource) buffered() []byte {
	if s.back || s.stages != nil || len(s.queue) > 0 {
		return nil
	}
	return s.blk[s.pos:]
}

// took advances past n lines of size bytes of buffered, all whole, the
// last one last, as n calls of next would.
func (s *lineSource) took(size, n int, last []byte) {
	s.pos += size
	s.rawN += n
	s.before = s.rawN - 1
	s.n = s.rawN
	s.line = last
	s.rawPartial, s.partial = false, false
}

// asRead returns the line last returned by next as it was read, prefix
// and all (a copy), and whether it can be read again with readAgain:
// not a line given back, nor one joined from a collector's pieces, nor
// one read while lines wait in the queue.
func (s *lineSource) asRead() (rawLine, bool) {
	raw := s.line
	if s.stages != nil {
		raw = s.raw
	}
	if raw == nil || s.back || len(s.queue) > 0 {
		return rawLine{}, false
	}
	return rawLine{no: s.n, text: bytes.Clone(raw), partial: s.partial}, true
}

// readAgain makes lines (from asRead, in order) the next lines read, as
// read, before any queued line, and makes the line last returned the one
// numbered last: a parser that read one line or two past its dump's end
// (jstack.go's next dump) gives them back whole, prefix and all.
func (s *lineSource) readAgain(last rawLine, lines ...rawLine) {
	s.queue = append(slices.Clone(lines), s.queue...)
	s.n, s.partial = last.no, last.partial
}

// staged reports whether lines are read under a prefix or a stage
// (prefix.go, indent.go, escape.go).
func (s *lineSource) staged() bool { return s.stages != nil }

// inHTML reports whether lines are read with their HTML escapes undone
// (escape.go).
func (s *lineSource) inHTML() bool {
	if s.stages == nil {
		return false
	}
	h, ok := s.stages.find(rankHTML).(*htmlStage)
	return ok && !h.ended
}

// lastKept is the number of the last line a parser kept: the line before
// the one it gave back, if it gave one back.
func (s *lineSource) lastKept() int {
	if s.back {
		return s.before
	}
	return s.n
}

// Err returns the first read error other than io.EOF.
func (s *lineSource) Err() error { return s.err }
