package report

import (
	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/parse"
)

// DiffOp is one line of a comparison of two stacks (DiffStacks): the TUI's
// compare view and the MCP server's comparison say the same lines.
type DiffOp struct {
	Kind        byte   // ' ' in both, '-' only left, '+' only right
	Left, Right string // frame texts (analyze.FrameString); empty on the missing side
	// LF and RF are the frames; nil on the missing side.
	LF, RF *parse.Frame
}

// Text is the line as text: "- frame", "+ frame", "  a → b" (the same
// function at another line), "  frame".
func (op DiffOp) Text() string {
	text := op.Left
	if op.Kind == '+' {
		text = op.Right
	} else if op.Kind == ' ' && op.Left != op.Right {
		text = op.Left + " → " + op.Right
	}
	return string(op.Kind) + " " + text
}

// DiffStacks aligns two stacks from the top on their functions (longest
// common subsequence; stacks are a few dozen frames, so O(n·m) is cheap).
// Frames with the same function but another line count as the same, and
// show both texts. A nil thread is a stack with no frame.
func DiffStacks(a, b *parse.Thread) []DiffOp {
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
	var ops []DiffOp
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && fa[i].Func == fb[j].Func:
			ops = append(ops, DiffOp{' ', analyze.FrameString(fa[i]), analyze.FrameString(fb[j]), fa[i], fb[j]})
			i, j = i+1, j+1
		case j == m || (i < n && lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, DiffOp{'-', analyze.FrameString(fa[i]), "", fa[i], nil})
			i++
		default:
			ops = append(ops, DiffOp{'+', "", analyze.FrameString(fb[j]), nil, fb[j]})
			j++
		}
	}
	return ops
}
