package parse

import (
	"bufio"
	"errors"
	"io"
)

// lineSource yields the lines of a text input one at a time, with their
// 1-based numbers, without copying: a returned line is valid until the next
// call to next. One line can be pushed back with unread, so that a format
// parser can stop at the first line that is not its own and leave it to the
// caller. CR before LF is removed (CRLF dumps from Windows).
//
// Cost: one bufio.Reader of 1 MiB; a line longer than that is assembled in a
// side buffer (rare: jcmd JSON is not read through here).
type lineSource struct {
	r    *bufio.Reader
	name string // file name for errors
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
}

func newLineSource(name string, r io.Reader) *lineSource {
	br, ok := r.(*bufio.Reader)
	if !ok || br.Size() < 1<<20 {
		br = bufio.NewReaderSize(r, 1<<20)
	}
	return &lineSource{r: br, name: name}
}

// next returns the next line without its line ending, and false at the end
// of input or on a read error (see Err).
func (s *lineSource) next() ([]byte, bool) {
	if s.back {
		s.back = false
		return s.line, true
	}
	if s.eof {
		return nil, false
	}
	line, err := s.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		s.long = append(s.long[:0], line...)
		for err == bufio.ErrBufferFull {
			line, err = s.r.ReadSlice('\n')
			s.long = append(s.long, line...)
		}
		line = s.long
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
	s.n++
	s.partial = len(line) == 0 || line[len(line)-1] != '\n'
	// Direct byte checks: bytes.TrimSuffix showed up at ~10% of Go text
	// parse time in profiles; this is the hot loop.
	if n := len(line); n > 0 && line[n-1] == '\n' {
		line = line[:n-1]
	}
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	s.line = line
	return line, true
}

// unread makes the next call to next return the current line again.
func (s *lineSource) unread() { s.back = true }

// lineNo is the 1-based number of the line last returned by next.
func (s *lineSource) lineNo() int { return s.n }

// Err returns the first read error other than io.EOF.
func (s *lineSource) Err() error { return s.err }
