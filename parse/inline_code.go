package parse

import "bytes"

// A dump pasted as inline code. In a chat or a comment a person marks a
// dump as code with backticks on its first and last lines rather than
// with fences on lines of their own:
//
//	`goroutine 25 [select]:                 Markdown inline code, one backtick
//	...
//		/src/main.go:12 +0x2f`
//	```"main" #1 prio=5 ...                 Slack's block: ``` glued to the text
//	...
//		at java.lang.Thread.run(Thread.java:829)```
//
// Rules (lineSource.codeStart, on a line outside dumps that starts with a
// backtick):
//
//  1. A run of backticks before a line that starts a dump, or before one
//     of the codeLead lines above a dump's first (a JVM dump's date line,
//     IntelliJ's comment lines, blank lines), opens inline code: the line
//     is read again without them.
//  2. From there to the end of the dump, a run of as many backticks at
//     the start or the end of a line is taken off it (a stage, rank -1:
//     before the indentation is read), so that the last line, which
//     carries the closing run, reads as written; every line wrapped in
//     backticks of its own reads so too.
//
// Cost: one byte compare a line outside dumps; inside a dump so pasted,
// two suffix compares a line (the line-by-line path).

// inlineCode takes a run of n backticks off the start and the end of a line.
type inlineCode struct {
	n int
}

func (c *inlineCode) rank() int { return -1 }

func (c *inlineCode) undo(line []byte) []byte {
	if len(line) >= c.n && isBackticks(line[:c.n]) && (len(line) == c.n || line[c.n] != '`') {
		line = line[c.n:]
	}
	if k := len(line) - c.n; k >= 0 && isBackticks(line[k:]) && (k == 0 || line[k-1] != '`') {
		line = line[:k]
	}
	return line
}

func isBackticks(b []byte) bool {
	for _, c := range b {
		if c != '`' {
			return false
		}
	}
	return true
}

// codeStart is rule 1 at line, the line last returned by next, outside
// dumps and stages; prev is the line before it. When it opens inline
// code, the stage is on and next returns line again without its
// backticks.
func (s *lineSource) codeStart(line, prev []byte) bool {
	n := 0
	for n < len(line) && line[n] == '`' {
		n++
	}
	if n == 0 || n == len(line) && n >= 3 {
		return false // a fence of its own line: fence.go's, or prose's
	}
	rest := bytes.Clone(line[n:]) // peek moves the reader's buffer
	if !startsText(rest, prev) && !s.startsWithin(rest) {
		return false
	}
	s.addRewrite(&inlineCode{n: n})
	s.line = rest
	s.back = true
	return true
}

// codeLead bounds the lines between an opening run of backticks and the
// dump's first line: a date line, IntelliJ's two comment lines and a
// blank line.
const codeLead = 4

// startsWithin reports whether one of the codeLead lines after the line
// last read starts a dump, rest being the text of that line.
func (s *lineSource) startsWithin(rest []byte) bool {
	prev := rest
	for k := 0; k < codeLead; k++ {
		l, ok := s.peek(k)
		if !ok {
			return false
		}
		if startsText(l.text, prev) {
			return true
		}
		prev = l.text
	}
	return false
}
