package parse

import (
	"bytes"
	"fmt"
)

// Lines cut by the tool that prefixed them. A tool that runs several
// processes and prefixes each one's output (npm's concurrently) reads their
// output in chunks; when another process's chunk comes between two chunks
// of one line, it ends the line there and prints the rest, prefixed again,
// as a line of its own. The Go runtime writes a traceback in many small
// writes, so its lines are cut so:
//
//	[checkout] runtime.chanrecv2
//	[orders] GET /health 200 80ms
//	[checkout] (0x0?, 0x0?)
//
// and the dump, read line by line, ends at the cut ("truncated"), its rest
// read as a second dump. Rules (lineSource.rejoinCut, on each line of a
// dump read under a collector's or a learned prefix):
//
//  1. A line that is no whole line of the dump's format (its textFormat.cut:
//     a Go function line without its closing ')', a file line without its
//     line number, a JVM frame or lock line without its ')'), or a Go file
//     line, whose fields a cut may end early, is looked past.
//  2. The next line of the same source (lines of other sources between are
//     held, as rule 3 of prefix.go holds them) is its rest when it starts
//     no line of the format (textFormat.rest: not a tab or a function
//     name, not a quote or an indentation) and the two joined are a whole
//     line. They are given as one line, numbered by the first.
//  3. Otherwise nothing is joined, and the lines read ahead are read again
//     as they were.
//  4. A bare line right after the cut one (no prefix of the shape at all)
//     is its rest by rule 2's test too: a terminal wrapped the prefixed
//     line and the paste kept the wrap.
//
// Each join is recorded in the dump's Joined, with the rest's position: a
// line the parser reads is one the tool cut, and it is said.
//
// Cost: nothing on a dump read as it is; under a prefix, one call of the
// format's cut a line, and a look ahead of a few lines at a cut one.

// rejoinLook bounds the lines of other sources between a cut line and its
// rest: concurrently's other processes print a line or two in between.
const rejoinLook = 8

// lineJoin is the format's rules for rejoinCut, set while a dump is read.
type lineJoin struct {
	cut  func(line []byte) bool // line is no whole line (rule 1)
	rest func(line []byte) bool // line starts no line of the format (rule 2)
	// mayGoOn reports whether a whole line may still have lost its end
	// (a Go file line's fields).
	mayGoOn func(line []byte) bool
}

// rejoinCut is rules 1 to 3 on text, the text of the line just read under
// the prefix stage m, numbered no; it returns the line to give.
func (s *lineSource) rejoinCut(m *prefixStage, text []byte, no int) []byte {
	j := s.join
	if j == nil || len(text) == 0 || !j.cut(text) && (j.mayGoOn == nil || !j.mayGoOn(text)) {
		return text
	}
	s.cutBuf = append(s.cutBuf[:0], text...) // reading ahead moves the reader's buffer
	if s.raw != nil {
		s.raw = bytes.Clone(s.raw)
	}
	var look []rawLine
	var foreign []int
	partial := s.rawPartial
	for len(look) <= rejoinLook {
		raw, ok := s.read()
		if !ok {
			break
		}
		look = append(look, rawLine{no: s.rawN, text: bytes.Clone(raw), partial: s.rawPartial})
		rest, own := m.own(raw)
		if !own {
			foreign = append(foreign, len(look)-1)
			continue
		}
		if len(bytes.TrimSpace(rest)) > 0 && j.rest(rest) {
			joined := append(bytes.Clone(s.cutBuf), rest...)
			if !j.cut(joined) {
				for _, k := range foreign {
					s.holdForeign(look[k].no, look[k].text, fmt.Sprintf("line from another source between line %d, cut by the tool that prefixed it, and its rest", no))
				}
				s.joins = append(s.joins, Skipped{Line: s.rawN, Text: string(rest[:min(len(rest), 200)]),
					Reason: fmt.Sprintf("the rest of line %d, cut by the tool that prefixed it (a line of another source printed between its pieces): joined to it", no)})
				s.cutBuf = joined
				s.joinedAt, s.raw = no, nil
				return s.cutBuf
			}
		}
		break
	}
	// Rule 4, when rules 1–2 found no rest of the same source: the line
	// right after the cut one, bare (no prefix of the shape at all), is
	// its rest when the two joined are whole: a terminal or a page wrapped
	// the long line and the paste kept the wrap (journalctl's output
	// copied from a narrow terminal, golang/go#12816). Tried last, as
	// another source's line right after a cut is bare too and may join
	// to a whole line by chance.
	// Only a line no whole line of the format (j.cut): a whole Go file
	// line that may go on is whole as it is, and a bare line after it is
	// the next source's.
	if len(look) > 0 && !look[0].partial && j.cut(s.cutBuf) {
		raw := look[0].text
		if _, own := m.own(raw); !own && !m.shape.split(raw, &m.wrapPL) && len(bytes.TrimSpace(raw)) > 0 && j.rest(raw) {
			joined := append(bytes.Clone(s.cutBuf), raw...)
			if !j.cut(joined) {
				s.joins = append(s.joins, Skipped{Line: look[0].no, Text: string(raw[:min(len(raw), 200)]),
					Reason: fmt.Sprintf("the rest of line %d, wrapped onto a line of its own without the prefix: joined to it", no)})
				s.queue = append(look[1:], s.queue...)
				s.rawN, s.rawPartial = look[0].no, false
				s.cutBuf = joined
				s.joinedAt, s.raw = no, nil
				return s.cutBuf
			}
		}
	}
	// No rest: every line read ahead is read again as it was.
	s.queue = append(look, s.queue...)
	s.rawN, s.rawPartial = no, partial
	return s.cutBuf
}

// takeJoins returns the joins recorded for lines from first to last and
// forgets every one up to last (as takeHeld).
func (s *lineSource) takeJoins(first, last int) []Skipped {
	var in []Skipped
	k := 0
	for _, h := range s.joins {
		switch {
		case h.Line > last:
			s.joins[k] = h
			k++
		case h.Line >= first:
			in = append(in, h)
		}
	}
	s.joins = s.joins[:k]
	return in
}

// goJoin is the Go text format's rules.
var goJoin = &lineJoin{
	cut: func(l []byte) bool {
		switch classifyGoLine(l) {
		case glUnknown:
			return true
		case glFile:
			return !goFileWhole(l)
		case glHeader:
			// Every goroutine header ends with its ':' ("]:", any Go);
			// the runtime writes one in pieces ("goroutine ", the id,
			// " [", the reason, "]:"), and a cut may end it at any.
			return !bytes.HasSuffix(bytes.TrimRight(l, " "), []byte(":"))
		}
		return false
	},
	rest:    func(l []byte) bool { return classifyGoLine(l) == glUnknown },
	mayGoOn: func(l []byte) bool { return len(l) > 0 && l[0] == '\t' },
}

// goFileWhole reports whether l is a whole Go file line:
// "\t/path/file.go:123", then " +0x1d" and " fp=0x.. sp=0x.. pc=0x.." or
// not, nothing else after.
func goFileWhole(l []byte) bool {
	if len(l) < 2 || l[0] != '\t' {
		return false
	}
	rest := l[1:]
	if bytes.HasPrefix(rest, []byte("goroutine running on other thread")) {
		return true
	}
	fields := bytes.Split(rest, []byte(" "))
	// From the end: the frame pointers, then the offset, then path:line.
	n := len(fields)
	if n >= 4 && hexField(fields[n-1], "pc=0x") && hexField(fields[n-2], "sp=0x") && hexField(fields[n-3], "fp=0x") {
		n -= 3
	}
	if n >= 2 && hexField(fields[n-1], "+0x") {
		n--
	}
	loc := bytes.Join(fields[:n], []byte(" "))
	c := bytes.LastIndexByte(loc, ':')
	return c > 0 && allDigits(loc[c+1:])
}

// hexField reports whether f is prefix then hex digits.
func hexField(f []byte, prefix string) bool {
	rest, ok := bytes.CutPrefix(f, []byte(prefix))
	return ok && len(rest) > 0 && isHexWord(rest)
}

// jvmFixedLines are lines HotSpot prints as they are, whole: one of them
// cut leaves a piece that is a part of it.
var jvmFixedLines = [][]byte{
	[]byte("Java stack information for the threads listed above:"),
	[]byte("Found one Java-level deadlock:"),
	[]byte("Locked ownable synchronizers:"),
	[]byte("Threads class SMR info:"),
}

// jvmFixedCut reports whether t is the start of one of jvmFixedLines, cut
// (at least its first word and the space after it: "Found " alone is
// prose as often).
func jvmFixedCut(t []byte) bool {
	t = bytes.TrimRight(t, " ")
	for _, f := range jvmFixedLines {
		if len(t) < len(f) && bytes.HasPrefix(f, t) && bytes.IndexByte(t, ' ') > 0 {
			return true
		}
	}
	return false
}

// hasTAt reports whether t holds a NetBeans/VisualVM thread id, " t@"
// and its digits ("- Thread t@332"); " t@" alone is a header cut there.
func hasTAt(t []byte) bool {
	i := bytes.Index(t, []byte(" t@"))
	return i >= 0 && i+3 < len(t) && isDigit(t[i+3])
}

// intellijWords are the words IntelliJ's dump writes after "nid=NA" in a
// header, before its ["id":…] meta (intellij.go).
var intellijWords = map[string]bool{
	"runnable": true, "waiting": true, "sleeping": true, "for": true, "monitor": true, "entry": true,
	"container": true, "virtual": true, "mounted": true, "unmounted": true, "blocked": true,
	"parked": true, "on": true, "object": true, "zombie": true, "wait": true,
}

// intellijCut reports whether rest, an IntelliJ header after "nid=NA ",
// was cut: in a word it does not write, or in its meta before the ']'.
func intellijCut(rest []byte) bool {
	words, meta, hasMeta := bytes.Cut(rest, []byte(" ["))
	if hasMeta {
		return !bytes.HasSuffix(bytes.TrimRight(meta, " "), []byte("]"))
	}
	for _, w := range bytes.Fields(words) {
		if !intellijWords[string(w)] {
			return true
		}
	}
	// A container is printed with its meta always ("container
	// [\"type\":\"container\",…]"): one without is cut before it.
	return bytes.HasSuffix(words, []byte("container"))
}

// jvmStates are the states a HotSpot state line names (Thread.State).
var jvmStates = [][]byte{[]byte("NEW"), []byte("RUNNABLE"), []byte("BLOCKED"), []byte("WAITING"), []byte("TIMED_WAITING"), []byte("TERMINATED")}

// jvmStateWhole reports whether s, what follows "java.lang.Thread.State:",
// is whole: a state, then nothing or its detail in parentheses closed
// ("WAITING (parking)"). HotSpot writes the label and the state in two
// writes, so a cut may fall between them or in either.
func jvmStateWhole(s []byte) bool {
	for _, st := range jvmStates {
		rest, ok := bytes.CutPrefix(s, st)
		if !ok || len(rest) > 0 && rest[0] != ' ' {
			continue
		}
		rest = bytes.TrimSpace(rest)
		return len(rest) == 0 || rest[0] == '(' && rest[len(rest)-1] == ')'
	}
	return false
}

// jvmJoin is the JVM text format's rules.
var jvmJoin = &lineJoin{
	cut: func(l []byte) bool {
		t := bytes.TrimLeft(l, " \t")
		switch {
		case bytes.HasPrefix(t, []byte("at ")), bytes.HasPrefix(t, []byte("- ")):
			return !bytes.HasSuffix(bytes.TrimRight(t, " "), []byte(")"))
		case bytes.HasPrefix(t, prefixState):
			return !jvmStateWhole(bytes.TrimSpace(t[len(prefixState):]))
		case bytes.HasPrefix(t, []byte("Full thread dump ")):
			return !bytes.HasSuffix(bytes.TrimRight(t, " "), []byte(":"))
		case jvmFixedCut(t):
			return true
		case len(t) > 2 && bytes.HasPrefix(prefixState, t):
			return true // "java.lang.Thread.St": the state line cut in its label
		case len(t) > 0 && t[0] == '"':
			// A thread header cut before its nid (a long name): none of
			// HotSpot's, ThreadInfo's or IntelliJ's fields after the name.
			if i := bytes.Index(t, []byte(" nid=")); i > 0 {
				v := bytes.TrimRight(t[i+len(" nid="):], " ")
				switch {
				case bytes.HasPrefix(v, []byte("NA ")):
					return intellijCut(v[3:]) // IntelliJ's
				case len(v) < 2 || bytes.HasPrefix([]byte("NA"), v) || bytes.Equal(v, []byte("0x")):
					return true // cut in the nid: "nid=", "nid=N", "nid=NA", "nid=0x"
				}
			}
			return !isHotSpotHeader(t) && !isThreadInfoHeader(t) && !isToolThreadHeader(t) && !bytes.Contains(t, []byte(" nid=")) && !hasTAt(t)
		}
		return false
	},
	rest: func(l []byte) bool {
		if len(l) > 3 && l[0] == '"' && l[1] == ' ' && l[2] == '#' && isDigit(l[3]) {
			return true // a header cut in its name's closing quote: `" #134 daemon prio=5 ...`
		}
		if len(l) == 0 || l[0] == '"' || l[0] == '\t' {
			return false
		}
		if l[0] != ' ' {
			return true
		}
		// HotSpot writes a header in pieces, so a rest may start with a
		// space (" #142 daemon prio=5 ..."); an indented line of its own
		// is not one.
		t := bytes.TrimLeft(l, " ")
		return len(t) > 0 && !bytes.HasPrefix(t, []byte("at ")) && !bytes.HasPrefix(t, []byte("- ")) &&
			!bytes.HasPrefix(t, prefixState) && !bytes.HasPrefix(t, []byte("Locked ownable synchronizers:"))
	},
}
