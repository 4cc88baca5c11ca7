package tui

import (
	"path"
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// frameText is one frame on one line: the JVM way "pkg.Class.m(File.java:42)"
// or "pkg.Class.m(Native Method)", the Go way "pkg.f (file.go:42)".
func frameText(f *parse.Frame) string {
	loc := f.Note
	if f.File != "" {
		loc = path.Base(f.File)
		if f.Line > 0 {
			loc += ":" + itoa(f.Line)
		}
	}
	if loc == "" {
		return f.Func
	}
	if strings.HasSuffix(f.File, ".go") {
		return f.Func + " (" + loc + ")"
	}
	return f.Func + "(" + loc + ")"
}

// isCulprit reports whether f is the group's culprit frame, which the
// analysis writes as "func(File:line)" or as the bare function.
func isCulprit(f *parse.Frame, culprit string) bool {
	if culprit == "" {
		return false
	}
	return culprit == f.Func || culprit == frameText(f) ||
		strings.HasPrefix(culprit, f.Func+"(") || strings.HasPrefix(culprit, f.Func+" ")
}

// stackLines renders t's frames (with JVM lock lines under their frame);
// culpritAt is the index in the returned lines of the culprit frame, -1
// when none. Only the first culprit frame is marked.
func stackLines(t *parse.Thread, culprit string) (lines []string, culpritAt int) {
	culpritAt = -1
	if t == nil {
		return nil, -1
	}
	if t.NoStack || len(t.Frames) == 0 {
		return []string{"(no stack printed)"}, -1
	}
	locks := make(map[int][]parse.Lock)
	for _, l := range t.Locks {
		locks[l.Frame] = append(locks[l.Frame], l)
	}
	for i, f := range t.Frames {
		if culpritAt < 0 && isCulprit(f, culprit) {
			culpritAt = len(lines)
			lines = append(lines, frameText(f)+"  ◀ culprit")
		} else {
			lines = append(lines, frameText(f))
		}
		for _, l := range locks[i] {
			s := "  - " + string(l.Kind)
			if l.Address != "" {
				s += " <" + l.Address + ">"
			}
			if l.Class != "" {
				s += " (a " + l.Class + ")"
			}
			lines = append(lines, s)
		}
	}
	if t.FramesElided {
		lines = append(lines, "...frames elided by the runtime")
	}
	return lines, culpritAt
}

// diffOp is one line of a stack comparison.
type diffOp struct {
	kind        byte   // ' ' in both, '-' only left, '+' only right
	left, right string // frame texts; empty on the missing side
}

// diffStacks aligns two stacks from the top on their functions (longest
// common subsequence; stacks are a few dozen frames, so O(n·m) is cheap).
// Frames with the same function but another line count as the same, and
// show both texts.
func diffStacks(a, b *parse.Thread) []diffOp {
	var fa, fb []*parse.Frame
	if a != nil {
		fa = a.Frames
	}
	if b != nil {
		fb = b.Frames
	}
	n, m := len(fa), len(fb)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if fa[i].Func == fb[j].Func {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var ops []diffOp
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && fa[i].Func == fb[j].Func:
			ops = append(ops, diffOp{' ', frameText(fa[i]), frameText(fb[j])})
			i, j = i+1, j+1
		case j == m || (i < n && lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, diffOp{'-', frameText(fa[i]), ""})
			i++
		default:
			ops = append(ops, diffOp{'+', "", frameText(fb[j])})
			j++
		}
	}
	return ops
}
