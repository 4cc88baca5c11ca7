package tui

import (
	"path"
	"slices"
	"strings"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/internal/words"
	"github.com/dumpdiff/dumpdiff/parse"
	"github.com/dumpdiff/dumpdiff/report"
)

// frameText is one frame on one line as the analysis prints frames (the one
// frame formatter, analyze.FrameString): the JVM way
// "pkg.Class.m(File.java:42)", the Go way "pkg.f (file.go:42)".
func frameText(f *parse.Frame) string { return analyze.FrameString(f) }

// isFrame reports whether f is the frame s names, which the analysis writes
// as "func(File:line)", "func (file.go:line)" or as the bare function.
func isFrame(f *parse.Frame, s string) bool {
	if s == "" {
		return false
	}
	return s == f.Func || s == frameText(f) ||
		strings.HasPrefix(s, f.Func+"(") || strings.HasPrefix(s, f.Func+" (")
}

// stackLine is one line of a stack as the TUI shows it.
type stackLine struct {
	text string // what is shown and copied
	// mark is "culprit" or "entry" for the frame so marked; "" otherwise.
	mark string
}

// shown is the line with its mark.
func (l stackLine) shown() string {
	if l.mark == "" {
		return l.text
	}
	return l.text + "  ◀ " + l.mark
}

// marks are the frames a stack view marks: a thread's culprit is the
// first frame that is one of culprits, its entry point the deepest frame
// that is one of entries ("created by F" marks the creator line).
type marks struct {
	culprits, entries []string
}

// marksOf are the culprits of g and its entry points at moment m.
func marksOf(g *analyze.Group, m int) marks {
	var mk marks
	if g == nil {
		return mk
	}
	if g.Culprit != "" {
		mk.culprits = append(mk.culprits, g.Culprit)
	}
	for _, c := range g.Culprits {
		mk.culprits = append(mk.culprits, c.Func)
	}
	if m >= 0 && m < len(g.Entries) {
		for _, e := range g.Entries[m] {
			fn, _, _ := strings.Cut(e.Func, " ← ")
			mk.entries = append(mk.entries, fn)
		}
	}
	return mk
}

func matchesAny(f *parse.Frame, ss []string) bool {
	for _, s := range ss {
		if isFrame(f, s) {
			return true
		}
	}
	return false
}

// stackLines renders t as the runtime printed it: its pprof labels (Go),
// its frames with the JVM lock lines under their frame, the elided note and
// the Go `created by` line with its goroutine. The culprit and the entry
// point (when it is another frame) are marked. culpritAt is the culprit's
// line; -1 if none.
func stackLines(t *parse.Thread, mk marks) (lines []stackLine, culpritAt int) {
	culpritAt = -1
	if t == nil {
		return nil, -1
	}
	if len(t.Labels) > 0 {
		keys := make([]string, 0, len(t.Labels))
		for k := range t.Labels {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		var kv []string
		for _, k := range keys {
			kv = append(kv, k+"="+t.Labels[k])
		}
		lines = append(lines, stackLine{text: "labels: " + strings.Join(kv, ", ")})
	}
	if t.NoStack || len(t.Frames) == 0 {
		return append(lines, stackLine{text: "(no stack printed)"}), -1
	}
	culprit, entryAt := -1, -1
	for i, f := range t.Frames {
		if culprit < 0 && matchesAny(f, mk.culprits) {
			culprit = i
		}
		if matchesAny(f, mk.entries) {
			entryAt = i
		}
	}
	locks := make(map[int][]parse.Lock)
	for _, l := range t.Locks() {
		locks[l.Frame] = append(locks[l.Frame], l)
	}
	for i, f := range t.Frames {
		l := stackLine{text: frameText(f)}
		switch i {
		case culprit:
			culpritAt, l.mark = len(lines), "culprit"
		case entryAt:
			l.mark = "entry"
		}
		lines = append(lines, l)
		for _, lk := range locks[i] {
			lines = append(lines, stackLine{text: "  " + report.LockText(lk)})
		}
	}
	if t.Extra().FramesElided {
		lines = append(lines, stackLine{text: report.ElidedText(t)})
	}
	for _, lk := range locks[-1] {
		lines = append(lines, stackLine{text: report.LockText(lk)})
	}
	if c := t.CreatedBy; c != nil {
		s := "created by " + c.Func
		if c.Parent != 0 {
			s += " in goroutine " + itoa(int(c.Parent))
		}
		if c.File != "" {
			s += " (" + path.Base(c.File)
			if c.Line > 0 {
				s += ":" + itoa(c.Line)
			}
			s += ")"
		}
		l := stackLine{text: s}
		if entryAt < 0 && slices.Contains(mk.entries, "created by "+c.Func) {
			l.mark = "entry"
		}
		lines = append(lines, l)
	}
	return lines, culpritAt
}

// stackText is a thread's stack as copied: its row, then its lines.
func stackText(t *parse.Thread, lines []stackLine) string {
	out := []string{threadRow(t)}
	for _, l := range lines {
		out = append(out, "  "+l.text)
	}
	return strings.Join(out, "\n")
}

// stackView is a stack that scrolls, with a line cursor when it has the
// keys (tab): the state, cycle and finding panes show a thread in one.
type stackView struct {
	t         *parse.Thread
	lines     []stackLine
	culpritAt int
	off       int // first line shown
	cur       int // the selected line, when focused
}

// show puts t in the view, from its top; the same thread keeps its place.
func (v *stackView) show(t *parse.Thread, mk marks) {
	if t == v.t && v.lines != nil {
		return
	}
	v.t = t
	v.lines, v.culpritAt = stackLines(t, mk)
	v.off, v.cur = 0, 0
}

// move moves the cursor (focused) or the view by delta lines in room lines.
func (v *stackView) move(delta, room int, focused bool) {
	n := len(v.lines)
	if n == 0 {
		return
	}
	if !focused {
		v.off = min(max(0, v.off+delta), max(0, n-room))
		return
	}
	v.cur = min(max(0, v.cur+delta), n-1)
	v.follow(room)
}

// follow scrolls so that the cursor is shown in room lines (one of which
// says what is left below, when something is).
func (v *stackView) follow(room int) {
	if v.cur < v.off {
		v.off = v.cur
	}
	for v.off < v.cur {
		_, end, _ := v.window(room)
		if v.cur < end {
			break
		}
		v.off++
	}
}

// window is the part [start, end) shown in room lines; more > 0 when lines
// are left below (the last line of room then says so).
func (v *stackView) window(room int) (start, end, more int) {
	n := len(v.lines)
	if room <= 0 {
		return 0, 0, 0
	}
	start = min(v.off, max(0, n-room))
	end = min(n, start+room)
	if end < n {
		end--
		more = n - end
	}
	return start, end, more
}

// at returns the line drawn on row y of the view (0 is its first line);
// ok is false past the lines.
func (v *stackView) at(y, room int) (int, bool) {
	start, end, _ := v.window(room)
	if y < 0 || start+y >= end {
		return 0, false
	}
	return start + y, true
}

// render draws room lines at most, w wide.
func (v *stackView) render(room, w int, focused bool, st styles) []string {
	var out []string
	start, end, more := v.window(room)
	for i := start; i < end; i++ {
		l := v.lines[i]
		switch {
		case focused && i == v.cur:
			out = append(out, st.selected.Render(fit("› "+l.shown(), w)))
		// A frame too long loses its middle: its method, line and mark
		// stay.
		case l.mark == "culprit":
			out = append(out, st.culprit.Render(cutMiddle("  "+l.shown(), w)))
		case l.mark != "":
			out = append(out, st.header.Render(cutMiddle("  "+l.shown(), w)))
		default:
			out = append(out, cutMiddle("  "+l.shown(), w))
		}
	}
	if more > 0 {
		hint := " (tab, then ↓)"
		if focused {
			hint = " (↓)"
		}
		out = append(out, st.dim.Render(cut("  … "+words.Plural(more, "more line")+hint, w)))
	}
	return out
}

// copyText is what y copies: the selected line when focused, else the
// whole stack; what names it for the status line.
func (v *stackView) copyText(focused bool) (text, what string) {
	if v.t == nil {
		return "", ""
	}
	if focused && v.cur < len(v.lines) {
		return strings.TrimSpace(v.lines[v.cur].text), "the frame"
	}
	return stackText(v.t, v.lines), "the stack of " + threadName(v.t)
}
