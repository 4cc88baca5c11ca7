package tui

import (
	"cmp"
	"slices"
	"strings"
)

// poolSorts are the orders of the state list, cycled by `s`.
var poolSorts = []string{"count at moment", "moved", "name"}

// poolPane is one pool: its states × moments table, each state with its top
// frame and culprit on a second line.
type poolPane struct {
	ix     *index
	st     styles
	pi     *poolInfo
	moment int // selected moment (column), moved with ←/→ and 1-9
	sortBy int
	query  string
	width  int
	height int
	groups []*groupInfo // shown, filtered and sorted by refresh
	list   cursorList   // over groups; each takes two lines
	nameW  int
	colIdx []int
	colW   []int
	sparkW int
}

// newPoolPane opens pi at the moment where it holds most threads (the
// latest such moment).
func newPoolPane(ix *index, st styles, pi *poolInfo) poolPane {
	m := 0
	for i, c := range pi.p.Counts {
		if c >= pi.p.Counts[m] {
			m = i
		}
	}
	return poolPane{ix: ix, st: st, pi: pi, moment: m}
}

func (p *poolPane) refresh(query string, w, h int) {
	p.query, p.width, p.height = query, w, h
	var keep *groupInfo
	if p.list.cursor < len(p.groups) {
		keep = p.groups[p.list.cursor]
	}
	mt := newMatcher(query)
	p.groups = p.groups[:0:0]
	for _, gi := range p.pi.groups {
		if mt.text(gi.hay) || mt.text(strings.ToLower(p.pi.p.Name)) {
			p.groups = append(p.groups, gi)
		}
	}
	at := func(gi *groupInfo) int {
		if p.moment < len(gi.g.Counts) {
			return gi.g.Counts[p.moment]
		}
		return 0
	}
	slices.SortStableFunc(p.groups, func(a, b *groupInfo) int {
		var c int
		switch poolSorts[p.sortBy] {
		case "count at moment":
			c = cmp.Compare(at(b), at(a))
		case "moved":
			c = cmp.Compare(spread(b.g.Counts), spread(a.g.Counts))
		}
		return cmp.Or(c, strings.Compare(a.g.State, b.g.State), strings.Compare(a.g.Via, b.g.Via))
	})
	p.list.cursor = 0
	for i, gi := range p.groups {
		if gi == keep {
			p.list.cursor = i
		}
	}
	p.sparkW = min(max(len(p.ix.labels), 5), 24)
	avail := p.width - 2 - 22 - 9 - (p.sparkW + 1)
	p.colIdx, p.colW = columns(p.ix.labels, p.moment, avail)
	cols := 0
	for _, w := range p.colW {
		cols += w
	}
	p.nameW = min(40, max(10, p.width-2-9-(p.sparkW+1)-cols))
	p.list.scroll(len(p.groups), p.listHeight())
}

// listHeight is how many states fit under the three title lines.
func (p *poolPane) listHeight() int { return max(1, (p.height-3)/2) }

func (p *poolPane) moveBy(delta int) {
	p.list.move(delta, len(p.groups), nil)
	p.list.scroll(len(p.groups), p.listHeight())
}

func (p *poolPane) setMoment(m int) {
	if m < 0 || m >= len(p.ix.labels) {
		return
	}
	p.moment = m
	p.refresh(p.query, p.width, p.height)
}

func (p *poolPane) cycleSort() {
	p.sortBy = (p.sortBy + 1) % len(poolSorts)
	p.refresh(p.query, p.width, p.height)
}

func (p *poolPane) selected() *groupInfo {
	if p.list.cursor < len(p.groups) {
		return p.groups[p.list.cursor]
	}
	return nil
}

func (p *poolPane) title() string {
	pp := p.pi.p
	s := "POOL " + pp.Name + " · max " + itoa(pp.Max) + " · " + plural(len(pp.States), "state")
	if pp.Internal {
		s += " · internal"
	}
	return s
}

// subtitle says what the table holds and, when the width leaves moments
// out (drawn "…"), how many.
func (p *poolPane) subtitle() string {
	if n := hidden(p.ix.labels, p.colIdx); n > 0 {
		return plural(n, "moment") + " hidden at … (←/→ shows them) · sort: " + poolSorts[p.sortBy]
	}
	return p.ix.unit + "s per state · sort: " + poolSorts[p.sortBy] + " · ←/→ picks the moment"
}

// stateName is a group's state with what it waits on.
func stateName(state, via string) string {
	if via != "" {
		return state + " (" + via + ")"
	}
	return state
}

func (p poolPane) view() []string {
	lines := []string{
		p.st.title.Render(cut(p.ix.titlePrefix(true)+p.title(), p.width)),
		p.st.dim.Render(cut(p.subtitle(), p.width)),
	}
	// The name is cut one cell short so that a long state never runs into
	// its category.
	head := "  " + fit("STATE", p.nameW-1) + " " + fit("CATEGORY", 9) + fit("trend", p.sparkW+1) + labelCells(p.ix.labels, p.colIdx, p.colW, p.moment)
	lines = append(lines, p.st.header.Render(cut(head, p.width)))
	if len(p.groups) == 0 {
		if p.query == "" {
			lines = append(lines, p.st.dim.Render("  no states"))
		} else {
			lines = append(lines, p.st.dim.Render("  no state matches the filter"))
		}
	}
	start, end := p.list.window(len(p.groups), p.listHeight())
	for i := start; i < end; i++ {
		g := p.groups[i].g
		name := fit(stateName(g.State, g.Via), p.nameW-1) + " "
		cat := fit(string(g.Category), 9)
		spark := fit(sparkline(g.Counts), p.sparkW+1)
		cells := countCells(g.Counts, p.colIdx, p.colW)
		detail := "    top " + orDash(g.TopFrame) + " · culprit " + orDash(g.Culprit)
		detail = cut(detail, p.width)
		if i == p.list.cursor {
			lines = append(lines, p.st.selected.Render(fit("› "+name+cat+spark+cells, p.width)))
		} else {
			lines = append(lines, "  "+name+p.st.catStyle(g.Category).Render(cat)+p.st.spark.Render(spark)+cells)
		}
		lines = append(lines, p.st.dim.Render(detail))
	}
	return lines
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
