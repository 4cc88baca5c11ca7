package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// The tables of the TUI (the overview's pools, a pool's states, a state's
// moments) are data: columns, each with its header and the width of its
// widest cell, laid out for the screen's width by layoutTable (moments by
// fitMoments, which the state's moment bar shares), then every row drawn
// through the layout. The width rules, and what each protects:
//
//   - A column is as wide as the widest of its header and its cells, and a
//     count is never cut: 100000 under a label "2" keeps its six digits
//     instead of running into the next count ("100000100000", issue 26).
//   - One space at least before every column but the first (lead): the
//     widest cells of two columns never touch.
//   - Moment labels are shortened only as far as the width asks: whole,
//     then without their common prefix (shortLabels), then cut in their
//     middle (as names are) down to labelFloor cells, each still told apart
//     from the others (distinctCuts).
//   - When the moments do not fit even so, the middle ones are left out
//     behind a gap column "…" (the first ones, the selected one and the
//     last stay); the pane says how many, and ←/→ brings them in view.
//   - The name column (pools, states) keeps its reserve, or its widest name
//     when shorter, before the moments have their room, then takes what is
//     left up to its most: a long name loses its middle, never a number.

// gapCol in fitMoments' idx stands for moments left out: drawn "…" after
// one space (gapW cells) in the header and in every row.
const (
	gapCol = -1
	gapW   = 2
)

// labelFloor is the fewest cells a label is cut to: below it a cut keeps
// too little of either end to tell a moment by (a count column is at
// least as wide anyway, minMomentW).
const labelFloor = 5

// minMomentW is the least width of a moment's count column: columns of
// small counts stay as wide as a short label, so the header does not
// crowd ("before" over "0").
const minMomentW = 5

// momentFit is how a table shows its moments in the room it has.
type momentFit struct {
	// idx are the moments shown, in order, with a gapCol where some are
	// left out; w is each one's width in cells, its lead included.
	idx, w []int
	// labels are the moments' headers as shown, by moment: whole or
	// shortened (labels of moments left out are "").
	labels []string
	// shortened is whether a shown label is not its full label.
	shortened bool
}

// hidden is the number of moments left out.
func (f momentFit) hidden() int {
	n := len(f.labels)
	for _, i := range f.idx {
		if i != gapCol {
			n--
		}
	}
	return n
}

// total is the cells the moments shown take.
func (f momentFit) total() int {
	t := 0
	for _, w := range f.w {
		t += w
	}
	return t
}

// fitMoments picks the labels and the moments a table shows in avail
// cells. cost(k, lw) is the cells moment k takes (its lead included) when
// its label is lw cells wide; a gap costs gap. full are the moments'
// labels, compact the same without their common prefix (shortLabels; the
// same as full when there is none). The moments in must (the selected
// one, a comparison's other side) are never left out. Tiers, the first that fits: the full
// labels; the compact ones; the compact ones cut to the widest budget
// that fits, not below labelFloor; then moments left out from the middle.
func fitMoments(full, compact []string, must []int, avail, gap int, cost func(k, lw int) int) momentFit {
	n := len(full)
	all := make([]bool, n)
	for k := range all {
		all[k] = true
	}
	sum := func(labels []string, budget int, keep []bool) int {
		t, inGap := 0, false
		for k := range labels {
			switch {
			case keep[k]:
				t += cost(k, min(width(labels[k]), budget))
				inGap = false
			case !inGap:
				t += gap
				inGap = true
			}
		}
		return t
	}
	const whole = 1 << 20
	labels, budget := full, whole
	switch {
	case n == 0 || sum(full, whole, all) <= avail:
	case sum(compact, whole, all) <= avail:
		labels = compact
	default:
		labels = compact
		budget = labelFloor
		for b := widestOf(compact) - 1; b > labelFloor; b-- {
			if sum(compact, b, all) <= avail {
				budget = b
				break
			}
		}
	}
	keep := all
	if n > 0 && sum(labels, budget, all) > avail {
		// Keep the last moment and those in must, fill from the start.
		keep = make([]bool, n)
		keep[n-1] = true
		for _, k := range must {
			if k >= 0 && k < n {
				keep[k] = true
			}
		}
		for k := range keep {
			if keep[k] {
				continue
			}
			keep[k] = true
			if sum(labels, budget, keep) > avail {
				keep[k] = false
				break
			}
		}
	}
	// With moments left out, the labels kept may have what the gap left.
	if budget < whole {
		for b := budget + 1; b < widestOf(labels) && sum(labels, b, keep) <= avail; b++ {
			budget = b
		}
	}
	// A label may fill what its counts make of its column: the budget
	// only bounds what it adds.
	room := make([]int, n)
	for k, l := range labels {
		lw := min(width(l), budget)
		c := cost(k, lw)
		for lw < width(l) && cost(k, lw+1) <= c {
			lw++
		}
		room[k] = lw
	}
	cuts := distinctCuts(labels, room)
	f := momentFit{labels: make([]string, n)}
	inGap := false
	for k := range labels {
		switch {
		case keep[k]:
			f.idx = append(f.idx, k)
			f.w = append(f.w, cost(k, room[k]))
			f.labels[k] = cuts[k]
			f.shortened = f.shortened || cuts[k] != full[k]
			inGap = false
		case !inGap:
			f.idx = append(f.idx, gapCol)
			f.w = append(f.w, gap)
			inGap = true
		}
	}
	return f
}

// distinctCuts cuts each label to its room in its middle (cutMiddle). A
// label whose cut reads like another's shows instead the part where it
// differs from that one, after an ellipsis: "2024-01-01 10:00:00" and
// "2024-01-01 10:05:00" in 7 cells are "…:00:00" and "…:05:00", not
// "202…:00" twice. Two moments are not headed alike.
func distinctCuts(labels []string, room []int) []string {
	first := make([]string, len(labels))
	for k, l := range labels {
		first[k] = cutMiddle(l, room[k])
	}
	out := make([]string, len(labels))
	for k, l := range labels {
		out[k] = first[k]
		if first[k] == l {
			continue
		}
		p := 0 // where l differs from the labels its cut is confused with
		for j := range labels {
			if j != k && first[j] == first[k] && labels[j] != l {
				p = max(p, commonPrefixLen(l, labels[j]))
			}
		}
		if p > 0 {
			out[k] = cutAround(l, p, room[k])
		}
	}
	return out
}

// commonPrefixLen is the length in bytes of the common prefix of a and b,
// backed up to a rune's start.
func commonPrefixLen(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	for i > 0 && i < len(a) && a[i]&0xc0 == 0x80 {
		i--
	}
	return i
}

// cutAround cuts s to w cells keeping byte p (where s differs from a
// label like it) in view, with up to two cells before it: "…" + the rest
// (the end kept whole when it can be), or "…" + a part + "…".
func cutAround(s string, p, w int) string {
	if w < 3 {
		return cutMiddle(s, w)
	}
	pc := width(s[:p])
	from := max(0, pc-2)
	if tail := width(s) - (w - 1); tail > from && tail <= pc {
		from = tail
	}
	rest := ansi.TruncateLeft(s, from, "")
	lead := "…"
	if from == 0 {
		lead = ""
	}
	if width(lead)+width(rest) <= w {
		return lead + rest
	}
	return lead + ansi.Truncate(rest, w-width(lead), "…")
}

// colKind is how a column's cells are drawn and sized.
type colKind int

const (
	// colName is text that loses its middle when too long (fitMiddle):
	// pool and state names. It takes the room the others leave.
	colName colKind = iota
	// colText is text padded on the right, as wide as its header and its
	// widest cell (a category, a sparkline).
	colText
	// colCount is a number right-aligned, never cut ("moved").
	colCount
	// colMoments is one count column per moment, right-aligned, headed by
	// the moments' labels: fitMoments lays them out.
	colMoments
)

// column is one column of a table as layoutTable reads it.
type column struct {
	kind colKind
	head string // the header (colMoments: the labels are given apart)
	// cellW is the width of the widest cell; cellWs the same per moment
	// (colMoments).
	cellW  int
	cellWs []int
	// min is the least width (colText, colCount; colMoments: of each
	// moment's column). For colName it is the reserve the moments leave
	// it (or its widest cell when narrower); floor is then the least it
	// gets when the moments take more, and max the most it takes.
	min, floor, max int
	// lead is the spaces before the column (colMoments: before its first
	// moment; one is between its moments). One at least but for the first
	// column.
	lead int
}

// table is a set of columns laid out for a width.
type table struct {
	cols []column
	// prefix is the cells before the first column on every line (the
	// cursor mark "› ").
	prefix int
	w      []int // width of each column, its lead excluded (colMoments: unused)
	// moments is the layout of the colMoments column.
	moments momentFit
	sel     int // the selected moment, bracketed in the header; -1 for none
}

// layoutTable lays cols out in width cells; full and compact are the
// moment labels (see fitMoments), sel the selected moment (-1 for none).
func layoutTable(cols []column, prefix, width int, full, compact []string, sel int) *table {
	t := &table{cols: cols, prefix: prefix, w: make([]int, len(cols)), sel: sel}
	fixed, name := prefix, -1
	for i, c := range cols {
		switch c.kind {
		case colText, colCount:
			t.w[i] = max(c.min, c.cellW, ansi.StringWidth(c.head))
			fixed += c.lead + t.w[i]
		case colName:
			name = i
			fixed += c.lead
		case colMoments:
			fixed += t.lead(i) // fitMoments counts one lead a moment
		}
	}
	reserve := 0
	if name >= 0 {
		c := cols[name]
		reserve = min(c.min, max(c.floor, c.cellW))
	}
	for i, c := range cols {
		if c.kind != colMoments {
			continue
		}
		cost := func(k, lw int) int {
			br := 0
			if k == sel {
				br = 2 // "[" and "]" around the selected label
			}
			cw := 0
			if k < len(c.cellWs) {
				cw = c.cellWs[k]
			}
			return 1 + max(cw, max(c.min, lw)+br)
		}
		t.moments = fitMoments(full, compact, []int{sel}, width-fixed-reserve, gapW, cost)
		fixed += t.moments.total()
		t.w[i] = t.moments.total()
	}
	if name >= 0 {
		c := cols[name]
		t.w[name] = min(c.max, max(c.floor, width-fixed))
	}
	return t
}

// row draws one row, without the prefix (the pane draws the cursor
// there): texts are the cells of the columns but colMoments
// (whose cell is ignored), counts the row's count at each moment. Each
// column's text is given to style (nil: none) with its index before the
// leads join them.
func (t *table) row(texts []string, counts []int, style func(i int, s string) string) string {
	var b strings.Builder
	for i, c := range t.cols {
		var s string
		switch c.kind {
		case colName:
			s = fitMiddle(texts[i], t.w[i])
		case colText:
			s = fit(texts[i], t.w[i])
		case colCount:
			s = right(texts[i], t.w[i])
		case colMoments:
			s = t.countCells(counts)
		}
		if style != nil {
			s = style(i, s)
		}
		b.WriteString(strings.Repeat(" ", t.lead(i)))
		b.WriteString(s)
	}
	return b.String()
}

// header draws the header row, after the prefix's spaces: each column's
// head, the moments' labels (the selected one bracketed).
func (t *table) header() string {
	var b strings.Builder
	b.WriteString(strings.Repeat(" ", t.prefix))
	for i, c := range t.cols {
		b.WriteString(strings.Repeat(" ", t.lead(i)))
		switch c.kind {
		case colName, colText:
			b.WriteString(fit(c.head, t.w[i]))
		case colCount:
			b.WriteString(right(c.head, t.w[i]))
		case colMoments:
			b.WriteString(t.labelCells())
		}
	}
	return b.String()
}

// lead is the spaces drawn before column i: a colMoments column's cells
// hold one each already.
func (t *table) lead(i int) int {
	if t.cols[i].kind == colMoments {
		return max(0, t.cols[i].lead-1)
	}
	return t.cols[i].lead
}

// countCells draws counts right-aligned in the moments' columns; a gap is
// "…".
func (t *table) countCells(counts []int) string {
	var b strings.Builder
	f := t.moments
	for j, k := range f.idx {
		if k == gapCol {
			b.WriteString(right("…", f.w[j]))
			continue
		}
		v := 0
		if k < len(counts) {
			v = counts[k]
		}
		b.WriteString(right(itoa(v), f.w[j]))
	}
	return b.String()
}

// labelCells draws the moments' labels as headers, right-aligned over
// their counts; the selected one is bracketed.
func (t *table) labelCells() string {
	var b strings.Builder
	f := t.moments
	for j, k := range f.idx {
		l := "…"
		if k != gapCol {
			l = f.labels[k]
			if k == t.sel {
				l = "[" + l + "]"
			}
		}
		b.WriteString(right(l, f.w[j]))
	}
	return b.String()
}

// widestOf is the width of the widest of labels; 0 for none.
func widestOf(labels []string) int {
	w := 0
	for _, l := range labels {
		w = max(w, width(l))
	}
	return w
}

// widest is the width of the widest of n as decimal numbers; 0 for none.
func widest(ns ...int) int {
	w := 0
	for _, n := range ns {
		w = max(w, len(itoa(n)))
	}
	return w
}
