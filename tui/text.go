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

// columns picks which moments get a count column in avail cells: all of
// them when they fit, else the first ones, the selected one and the last.
// Each column is as wide as its label (at least 5 cells, with room for
// brackets when a moment is selected) plus a space.
func columns(labels []string, sel, avail int) (idx []int, widths []int) {
	extra := 0
	if sel >= 0 {
		extra = 2 // room for the brackets of the selected moment
	}
	w := func(i int) int { return min(max(5, width(labels[i])+extra), 14) + 1 }
	total := 0
	for i := range labels {
		total += w(i)
	}
	if total <= avail {
		for i := range labels {
			idx = append(idx, i)
			widths = append(widths, w(i))
		}
		return idx, widths
	}
	// Keep the last and the selected moment, fill from the start.
	must := map[int]bool{len(labels) - 1: true}
	if sel >= 0 && sel < len(labels) {
		must[sel] = true
	}
	used := 0
	for i := range must {
		used += w(i)
	}
	keep := map[int]bool{}
	for i := range must {
		keep[i] = true
	}
	for i := range labels {
		if keep[i] {
			continue
		}
		if used+w(i) > avail {
			break
		}
		keep[i] = true
		used += w(i)
	}
	for i := range labels {
		if keep[i] {
			idx = append(idx, i)
			widths = append(widths, w(i))
		}
	}
	return idx, widths
}

// countCells renders counts[idx[k]] right-aligned in widths[k] cells.
func countCells(counts []int, idx, widths []int) string {
	var b strings.Builder
	for k, i := range idx {
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
