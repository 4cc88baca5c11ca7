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
// The stages are rewriters (stage.go), after the prefix is taken off
// (ranks 1 and 2), and end with the dump (endPrefix). Cost: nothing
// on a dump indented as written (the mode stays nil and the Go fast path
// runs); on a re-indented dump, one prefix compare and one copy into a
// reused buffer per indented line, and the line-by-line path.

// nbsp is U+00A0 NO-BREAK SPACE in UTF-8.
var nbsp = []byte{0xc2, 0xa0}

// frameIndent is what stands for the TAB before a Go file line ("    ",
// no-break spaces): every line that begins with exactly it begins with a
// TAB instead.
type frameIndent struct {
	frame []byte
	buf   []byte // the last line rewritten
}

func (f *frameIndent) rank() int { return 1 }

func (f *frameIndent) undo(line []byte) []byte {
	if !bytes.HasPrefix(line, f.frame) {
		return line
	}
	f.buf = append(append(f.buf[:0], '\t'), line[len(f.frame):]...)
	return f.buf
}

// nbspIndent reads the leading no-break spaces of a line as spaces.
type nbspIndent struct {
	buf []byte // the last line rewritten
}

func (n *nbspIndent) rank() int { return 2 }

func (n *nbspIndent) undo(line []byte) []byte {
	if !bytes.HasPrefix(line, nbsp) {
		return line
	}
	n.buf = n.buf[:0]
	i := 0
	for i < len(line) {
		switch {
		case line[i] == ' ' || line[i] == '\t':
			n.buf = append(n.buf, line[i])
			i++
			continue
		case bytes.HasPrefix(line[i:], nbsp):
			n.buf = append(n.buf, ' ')
			i += len(nbsp)
			continue
		}
		break
	}
	n.buf = append(n.buf, line[i:]...)
	return n.buf
}

// learnFrameIndent fixes the Go frame indentation of the dump being read
// to the first n bytes of the line last returned, and returns that line
// with them undone (the line next gives back after unread, too).
func (s *lineSource) learnFrameIndent(n int) []byte {
	s.addRewrite(&frameIndent{frame: bytes.Clone(s.line[:n])})
	s.line = s.stage().undo(s.line)
	return s.line
}

// learnNBSP makes leading no-break spaces read as spaces for the rest of
// the dump being read, and returns the line last returned so read.
func (s *lineSource) learnNBSP() []byte {
	s.addRewrite(&nbspIndent{})
	s.line = s.stage().undo(s.line)
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
	if !fileLocShape(rest) {
		return 0
	}
	return i
}

// fileLocShape is fileLoc's test on a file line without its indentation:
// "path:line", then the end or a space ("/src/main.go:12 +0x1d").
func fileLocShape(rest []byte) bool {
	c := bytes.LastIndexByte(rest, ':')
	if c <= 0 || c+1 >= len(rest) || !isDigit(rest[c+1]) {
		return false
	}
	e := c + 1
	for e < len(rest) && isDigit(rest[e]) {
		e++
	}
	return e == len(rest) || rest[e] == ' '
}

// bareFileLine reports whether line is a Go file line that lost its TAB:
// not indented at all, and "path:line" with no space in the path (a
// sentence with a time or an address in it has one: "listening on
// 127.0.0.1:8080").
func bareFileLine(line []byte) bool {
	if len(line) == 0 || line[0] == ' ' || line[0] == '\t' || bytes.HasPrefix(line, nbsp) {
		return false
	}
	c := bytes.LastIndexByte(line, ':')
	if c <= 0 || bytes.IndexByte(line[:c], ' ') >= 0 {
		return false
	}
	return fileLocShape(line)
}
