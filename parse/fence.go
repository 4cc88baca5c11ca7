package parse

import (
	"bytes"
	"fmt"
)

// A dump pasted in parts. A dump too long for one message or one code
// block is pasted as several, with a person's words between them:
//
//	Seen on prod-3 after the deploy; the dump is long, so in 2 parts:
//
//	```
//	goroutine 1 [running]:
//	...
//	```
//
//	(the rest, it did not fit in one block)
//
//	```
//	goroutine 31 [select]:
//	...
//	```
//
// A person reads one dump, taken at one moment. Rules (lineSource.fenceGap,
// asked at a fence line inside a dump):
//
//  1. A closing fence (``` or ~~~ alone), then at most fenceProseMax
//     non-blank lines that are no fence, then an opening fence (with or
//     without a language), then a line that goes on with the dump being
//     read (its format's goesOn: a goroutine header, a debug=1 record, a
//     JVM thread's quoted name or frame, a javacore thread record) is a
//     gap inside the dump: the fences and the words between are recorded
//     in the dump's Skipped, with their positions, and the parser reads
//     on as if the parts were one.
//  2. Anything else at the fence is left to the parser as it was: a dump's
//     own first line after the gap ("Full thread dump", "goroutine
//     profile: total", a panic) starts a dump of its own, and a Go
//     header whose id the dump already holds ends it (a second capture:
//     goroutine_text.go).
//
// Only lines read without a prefix are looked at (as read, or under the
// stages a dump learns: stage.go): a quoted or indented paste in parts is
// not joined.
//
// Cost: one byte compare a line while a dump is read (next's fast path),
// and a look ahead of at most fenceLookMax lines at a fence.

// fenceProseMax bounds the words between two parts: a sentence or two, a
// heading, a note; a longer text between two blocks is no longer one
// paste. fenceLookMax bounds the lines read ahead, blank ones included.
const (
	fenceProseMax = 8
	fenceLookMax  = 32
)

// isFence reports whether line is a Markdown code fence: three or more
// backticks or tildes, perhaps indented up to three spaces, perhaps with
// a language after an opening one.
func isFence(line []byte) bool {
	i := 0
	for i < len(line) && i < 3 && line[i] == ' ' {
		i++
	}
	rest := line[i:]
	if len(rest) < 3 || rest[0] != '`' && rest[0] != '~' {
		return false
	}
	c := rest[0]
	n := 0
	for n < len(rest) && rest[n] == c {
		n++
	}
	return n >= 3 && (c == '~' || bytes.IndexByte(rest[n:], '`') < 0)
}

// fenceGap is rule 1 at fence, the line just read: true when it closes
// a part of the dump being read and the next part goes on with it; the
// lines of the gap are then held and taken from the queue, and the next
// line read is the next part's first.
func (s *lineSource) fenceGap(fence []byte) bool {
	if len(bytes.Trim(bytes.TrimSpace(fence), "`~")) > 0 {
		return false // an opening fence (a language after it): no part ends here
	}
	no := s.rawN
	fence = bytes.Clone(fence) // the look ahead moves the reader's buffer
	prose := 0
	for k := 0; k < fenceLookMax; k++ {
		l, ok := s.peek(k)
		if !ok {
			return false
		}
		t := bytes.TrimSpace(l.text)
		switch {
		case len(t) == 0:
			continue
		case !isFence(l.text):
			if prose++; prose > fenceProseMax {
				return false
			}
			continue
		}
		next, ok := s.peek(k + 1)
		if !ok || !s.goesOn(next.text) {
			return false
		}
		s.hold(no, fence, "the fence that ends one part of a dump pasted in parts")
		for _, g := range s.queue[:k+1] {
			if len(bytes.TrimSpace(g.text)) == 0 {
				continue
			}
			s.hold(g.no, g.text, fmt.Sprintf("between two parts of a dump pasted in parts (%d lines)", k+1))
		}
		s.queue = s.queue[k+1:]
		return true
	}
	return false
}
