package parse

import "bytes"

// The indentation stage. A runtime indents few lines, and with one byte:
// a Go dump puts a TAB before each file line, a JVM dump a TAB before
// "at" and spaces before its state line. On the way to a reader the TAB
// often becomes spaces (a browser, Slack, Jira, an editor: 2, 4 or 8) or
// no-break spaces (text copied from a rendered page):
//
//	main.main()
//	    /src/main.go:12 +0x1d                 a Go file line, TAB as 4 spaces
//	\u00a0\u00a0\u00a0\u00a0at java.lang.Thread.run(Thread.java:829)      a JVM frame, TAB as no-break spaces
//
// The stage is learned once per dump, by its format's parser, from the
// first line that needs it (a line the parser reads as the runtime wrote
// it never does), and then undoes that indentation on every later line of
// the dump, before the parser sees it:
//
//	Go   the first line after a function or "created by" line that is
//	     indented by spaces or no-break spaces and reads as a file line
//	     once they are a TAB fixes the dump's frame indentation
//	     (learnFrameIndent); every later line that begins with exactly it
//	     begins with a TAB instead.
//	JVM  the first line indented by a no-break space turns the leading
//	     no-break spaces of every later line into spaces (learnNBSP);
//	     the JVM parser reads any run of spaces and TABs as indentation.
//
// The stage lives in the line source's mode (prefix.go), after the
// prefix is taken off, and ends with the dump (endPrefix). Cost: nothing
// on a dump indented as written (the mode stays nil and the Go fast path
// runs); on a re-indented dump, one prefix compare and one copy into a
// reused buffer per indented line, and the line-by-line path.

// nbsp is U+00A0 NO-BREAK SPACE in UTF-8.
var nbsp = []byte{0xc2, 0xa0}

// lineStage is the learned indentation of a dump.
type lineStage struct {
	// frame is what stands for the TAB before a Go file line ("    ", no-break
	// spaces); nil when the dump's file lines begin with a TAB.
	frame []byte
	// nbsp is true when leading no-break spaces are read as spaces.
	nbsp bool
	// html is true inside an HTML block (escape.go): entities undone.
	html bool
	// cont is the indentation go test gives the lines of a t.Log message
	// after its first (goroutine_notes.go): taken off; nil when none.
	cont []byte
	buf  []byte // the last line rewritten
	hbuf []byte // the last line unescaped
}

// empty reports whether the stage undoes nothing.
func (st *lineStage) empty() bool { return st.frame == nil && !st.nbsp && !st.html && st.cont == nil }

// undo returns line with the learned indentation undone (HTML escapes
// are undone before, on the line as read: readStaged): line itself
// when it needs nothing, else a rewrite in st.buf (valid until the next
// call).
func (st *lineStage) undo(line []byte) []byte {
	if st.cont != nil && bytes.HasPrefix(line, st.cont) {
		line = line[len(st.cont):]
	}
	if st.frame != nil && bytes.HasPrefix(line, st.frame) {
		st.buf = append(append(st.buf[:0], '\t'), line[len(st.frame):]...)
		return st.buf
	}
	if st.nbsp && bytes.HasPrefix(line, nbsp) {
		st.buf = st.buf[:0]
		i := 0
		for i < len(line) {
			switch {
			case line[i] == ' ' || line[i] == '\t':
				st.buf = append(st.buf, line[i])
				i++
				continue
			case bytes.HasPrefix(line[i:], nbsp):
				st.buf = append(st.buf, ' ')
				i += len(nbsp)
				continue
			}
			break
		}
		st.buf = append(st.buf, line[i:]...)
		return st.buf
	}
	return line
}

// stage returns the mode's indentation stage, making the mode (without a
// prefix) when the dump had none.
func (s *lineSource) stage() *lineStage {
	if s.mode == nil {
		s.mode = &prefixMode{}
	}
	return &s.mode.stage
}

// learnFrameIndent fixes the Go frame indentation of the dump being read
// to the first n bytes of the line last returned, and returns that line
// with them undone (the line next gives back after unread, too).
func (s *lineSource) learnFrameIndent(n int) []byte {
	st := s.stage()
	st.frame = append(st.frame[:0:0], s.line[:n]...)
	s.line = st.undo(s.line)
	return s.line
}

// learnCont takes the first n bytes of the line last returned off it and
// off every later line of the dump that begins with them, and returns the
// line without them.
func (s *lineSource) learnCont(n int) []byte {
	st := s.stage()
	st.cont = append(st.cont[:0:0], s.line[:n]...)
	s.line = s.line[n:]
	return s.line
}

// learnNBSP makes leading no-break spaces read as spaces for the rest of
// the dump being read, and returns the line last returned so read.
func (s *lineSource) learnNBSP() []byte {
	st := s.stage()
	st.nbsp = true
	s.line = st.undo(s.line)
	return s.line
}

// goFrameIndent returns the length of the indentation of line when it is a
// Go file line (or the no-stack line) whose TAB became spaces or no-break
// spaces, and 0 otherwise:
//
//	"    /src/main.go:12 +0x1d"                     4
//	"  goroutine running on other thread; ..."      2
//	"    leaks.go:78: found unexpected goroutines"  0: no line number at its last ':'
func goFrameIndent(line []byte) int {
	i := 0
	for i < len(line) {
		if line[i] == ' ' {
			i++
		} else if bytes.HasPrefix(line[i:], nbsp) {
			i += len(nbsp)
		} else {
			break
		}
	}
	if i == 0 || i == len(line) || line[i] == '\t' {
		return 0
	}
	rest := line[i:]
	if bytes.HasPrefix(rest, []byte("goroutine running on other thread")) {
		return i
	}
	// fileLoc's test, on the line as it would read with a TAB.
	c := bytes.LastIndexByte(rest, ':')
	if c <= 0 || c+1 >= len(rest) || !isDigit(rest[c+1]) {
		return 0
	}
	e := c + 1
	for e < len(rest) && isDigit(rest[e]) {
		e++
	}
	if e < len(rest) && rest[e] != ' ' {
		return 0
	}
	return i
}
