package tui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

func itoa(n int) string { return strconv.Itoa(n) }

// width is the display width of s (ANSI sequences excluded).
func width(s string) int { return ansi.StringWidth(s) }

// fit cuts s to w cells with an ellipsis, or pads it with spaces to w cells.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if width(s) > w {
		return ansi.Truncate(s, w, "…")
	}
	return s + strings.Repeat(" ", w-width(s))
}

// right pads s on the left to w cells (numbers), cutting it when longer.
func right(s string, w int) string {
	if width(s) >= w {
		return ansi.Truncate(s, w, "…")
	}
	return strings.Repeat(" ", w-width(s)) + s
}

// cut cuts s to at most w cells without padding.
func cut(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if width(s) > w {
		return ansi.Truncate(s, w, "…")
	}
	return s
}

// cutStatus cuts a status line to w cells; the path of "wrote PATH" loses
// its start, not its file name ("wrote …/exports/dumpdiff-pool-….md").
func cutStatus(s string, w int) string {
	path, ok := strings.CutPrefix(s, "wrote ")
	if !ok || width(s) <= w || w < 20 {
		return cut(s, w)
	}
	room := w - width("wrote …")
	return "wrote …" + ansi.TruncateLeft(path, width(path)-room, "")
}

var sparkLevels = []rune("▁▂▃▄▅▆▇█")

// sparkline draws counts scaled to their largest value: a zero is the lowest
// bar, any other count at least the second, so zero stays visible.
func sparkline(counts []int) string {
	hi := 0
	for _, c := range counts {
		hi = max(hi, c)
	}
	var b strings.Builder
	for _, c := range counts {
		lvl := 0
		if c > 0 && hi > 0 {
			lvl = 1 + (c*6+hi-1)/hi // 2..7 of 0..7
			lvl = min(lvl, 7)
		}
		b.WriteRune(sparkLevels[lvl])
	}
	return b.String()
}

// gapCol in the indexes columns returns stands for hidden moments: it is
// drawn " …" (gapW cells) in the header and in every row.
const (
	gapCol = -1
	gapW   = 2
)

// columns picks which moments get a count column in avail cells: all of
// them when they fit, else the first ones, the selected one and the last,
// with a gapCol where moments are left out. Each column is as wide as its
// label (5 to 14 cells) plus a space; the selected moment's (sel, -1 for
// none) two more for its brackets, so that moving the selection keeps the
// total width.
func columns(labels []string, sel, avail int) (idx []int, widths []int) {
	w := func(i int) int {
		n := min(max(5, width(labels[i])), 14) + 1
		if i == sel {
			n += 2
		}
		return n
	}
	// cost is the width of the kept columns and of the gaps between them.
	cost := func(keep map[int]bool) int {
		total, gap := 0, false
		for i := range labels {
			switch {
			case keep[i]:
				total += w(i)
				gap = false
			case !gap:
				total += gapW
				gap = true
			}
		}
		return total
	}
	keep := map[int]bool{}
	for i := range labels {
		keep[i] = true
	}
	if cost(keep) > avail {
		// Keep the last and the selected moment, fill from the start.
		keep = map[int]bool{len(labels) - 1: true}
		if sel >= 0 && sel < len(labels) {
			keep[sel] = true
		}
		for i := range labels {
			if keep[i] {
				continue
			}
			keep[i] = true
			if cost(keep) > avail {
				delete(keep, i)
				break
			}
		}
	}
	gap := false
	for i := range labels {
		switch {
		case keep[i]:
			idx = append(idx, i)
			widths = append(widths, w(i))
			gap = false
		case !gap:
			idx = append(idx, gapCol)
			widths = append(widths, gapW)
			gap = true
		}
	}
	return idx, widths
}

// hidden is the number of moments that columns left out of idx.
func hidden(labels []string, idx []int) int {
	n := len(labels)
	for _, i := range idx {
		if i != gapCol {
			n--
		}
	}
	return n
}

// countCells renders counts[idx[k]] right-aligned in widths[k] cells.
func countCells(counts []int, idx, widths []int) string {
	var b strings.Builder
	for k, i := range idx {
		if i == gapCol {
			b.WriteString(right("…", widths[k]))
			continue
		}
		v := 0
		if i < len(counts) {
			v = counts[i]
		}
		b.WriteString(right(itoa(v), widths[k]))
	}
	return b.String()
}

// labelCells renders the moment labels as column headers; the selected
// moment (sel, -1 for none) is bracketed.
func labelCells(labels []string, idx, widths []int, sel int) string {
	var b strings.Builder
	for k, i := range idx {
		if i == gapCol {
			b.WriteString(right("…", widths[k]))
			continue
		}
		l := labels[i]
		if i == sel {
			l = "[" + cut(l, widths[k]-3) + "]"
		}
		b.WriteString(right(cut(l, widths[k]-1), widths[k]))
	}
	return b.String()
}

// plural is "1 pool", "2 pools".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return itoa(n) + " " + what + "s"
}
