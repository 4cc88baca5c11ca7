package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// ShortFunc drops what a reader of a narrow table can do without: the
// import path of a Go function ("net/http.(*conn).serve" → "http.(*conn).serve")
// or the package of a Java method ("sun.nio.ch.Net.poll" → "Net.poll").
func ShortFunc(fn string) string {
	if i := strings.LastIndexByte(fn, '/'); i >= 0 {
		return fn[i+1:] // Go: the package name stays, its path goes
	}
	if strings.Contains(fn, "(*") {
		return fn // Go method on a pointer receiver with no import path
	}
	last := strings.LastIndexByte(fn, '.')
	if last <= 0 {
		return fn
	}
	prev := strings.LastIndexByte(fn[:last], '.')
	if prev < 0 {
		return fn
	}
	return fn[prev+1:]
}

// ShortFrame shortens a frame as the analysis prints it: a function with an
// optional location in parentheses, "com.example.Upstream.fetch(Upstream.java:42)"
// → "Upstream.fetch:42". A location without a line number is dropped.
func ShortFrame(s string) string {
	fn, loc := s, ""
	if strings.HasSuffix(s, ")") {
		// The location is the last parenthesised part; a Go receiver
		// "(*conn)" is not at the end, so it is never taken for one.
		if i := strings.LastIndexByte(s, '('); i > 0 {
			fn, loc = strings.TrimSpace(s[:i]), s[i+1:len(s)-1]
		}
	}
	out := ShortFunc(fn)
	if i := strings.LastIndexByte(loc, ':'); i >= 0 {
		if _, err := strconv.Atoi(loc[i+1:]); err == nil {
			out += loc[i:]
		}
	}
	return out
}

// frameLine prints one frame on one line, as the runtime would print its
// location: "java.lang.Thread.run(Thread.java:833)" for the JVM,
// "net/http.(*conn).serve /usr/lib/go/src/net/http/server.go:1995" for Go.
func frameLine(f *parse.Frame, rt parse.Runtime) string {
	loc := f.File
	if loc != "" && f.Line > 0 {
		loc += ":" + strconv.Itoa(f.Line)
	}
	if rt == parse.RuntimeGo {
		if loc == "" {
			return f.Func
		}
		return f.Func + " " + loc
	}
	switch {
	case loc != "":
	case f.Note != "":
		loc = f.Note
	default:
		loc = "Unknown Source"
	}
	return f.Func + "(" + loc + ")"
}

// LockText is a JVM lock line as jstack prints it under a frame:
// "- waiting to lock <0x…> (a X) owned by T"; an ownable synchronizer from
// the "Locked ownable synchronizers" list reads "- ownable <0x…> (a X)".
// The text report, the HTML report and the TUI print locks through it.
func LockText(l parse.Lock) string {
	s := "- " + string(l.Kind) // the kinds are jstack's words (parse.LockKind)
	if l.Address != "" {
		s += " " + parse.LockShown(l.Address)
	}
	if l.Class != "" {
		s += " (a " + l.Class + ")"
	}
	if l.Owner != "" {
		s += " owned by " + l.Owner
	}
	return s
}

// ElidedText is the line for the frames the Go runtime left out of a
// stack (t.FramesElided), as Go prints it: with their number when known
// (Go 1.21+ "...N frames elided..."). The reports and the TUI print it.
func ElidedText(t *parse.Thread) string {
	if n := t.Extra().ElidedCount; n > 0 {
		return fmt.Sprintf("...%d frames elided...", n)
	}
	return "...additional frames elided..."
}

// stackLines prints a thread's stack, one frame a line, with the JVM lock
// lines after the frame they follow, as jstack places them.
func stackLines(t *parse.Thread, rt parse.Runtime) []string { return stackLinesMarked(t, rt, nil) }

// stackLinesMarked is stackLines with mark(i) appended to the line of frame
// i (mark may be nil). Control characters in the lines become spaces.
func stackLinesMarked(t *parse.Thread, rt parse.Runtime, mark func(i int) string) []string {
	var out []string
	for i, f := range t.Frames {
		l := oneLine(frameLine(f, rt))
		if mark != nil {
			l += mark(i)
		}
		out = append(out, l)
		for _, l := range t.Locks() {
			if l.Frame == i {
				out = append(out, "    "+LockText(l))
			}
		}
	}
	if t.Extra().FramesElided {
		out = append(out, ElidedText(t))
	}
	for _, l := range t.Locks() {
		if l.Frame < 0 {
			out = append(out, LockText(l))
		}
	}
	if t.CreatedBy != nil {
		s := "created by " + t.CreatedBy.Func
		if t.CreatedBy.Parent != 0 {
			s += fmt.Sprintf(" in goroutine %d", t.CreatedBy.Parent)
		}
		if t.CreatedBy.File != "" {
			s += fmt.Sprintf(" %s:%d", t.CreatedBy.File, t.CreatedBy.Line)
		}
		out = append(out, s)
	}
	if len(out) == 0 && t.NoStack {
		out = append(out, "(no stack printed)")
	}
	for i, l := range out {
		out[i] = oneLine(l)
	}
	return out
}

// threadTitle names a thread for a stack heading: the JVM name, or
// "goroutine 42" for Go.
func threadTitle(t *parse.Thread) string {
	name := t.Name()
	switch {
	case name != "" || t.ID == 0:
	case t.JVM != nil && t.JVM.Virtual: // unnamed unless the program names it
		name = fmt.Sprintf("virtual thread #%d", t.ID)
	case t.JVM != nil:
		name = fmt.Sprintf("thread #%d", t.ID)
	default:
		name = fmt.Sprintf("goroutine %d", t.ID)
	}
	if t.State != "" {
		name += " [" + t.State
		if d := t.Java().StateDetail; d != "" && d != t.State {
			name += ", " + d
		}
		name += "]"
	}
	if t.Weight > 1 {
		name += fmt.Sprintf(" ×%d", t.Weight)
	}
	return name
}

// MarkedStack is a group's stack as every report prints it: one line a
// frame (lock lines under their frame, the creator last), with "◀ culprit"
// and "◀ entry point" after those frames. Control characters are spaces;
// nil when the group has no stack.
func MarkedStack(sg StackGroup, rt parse.Runtime) []string { return markedStack(sg, rt) }

// markedStack is MarkedStack.
func markedStack(sg StackGroup, rt parse.Runtime) []string {
	if sg.Stack == nil {
		return nil
	}
	return stackLinesMarked(sg.Stack, rt, func(i int) string {
		switch {
		case i == sg.CulpritAt && i == sg.EntryAt:
			return "  ◀ culprit, entry point"
		case i == sg.CulpritAt:
			return "  ◀ culprit"
		case i == sg.EntryAt:
			if sg.Probe {
				return "  ◀ entry point (health check)"
			}
			return "  ◀ entry point"
		}
		return ""
	})
}
