package tui

import (
	"cmp"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/internal/words"
	"github.com/dumpdiff/dumpdiff/report"
)

// poolSorts are the orders of the state list, cycled by `s`.
var poolSorts = []string{"count at moment", "moved", "name"}

// poolPane is one pool: its states × moments table, each state with its top
// frame and culprit on a second line.
type poolPane struct {
	common
	pi     *poolInfo
	moment int // selected moment (column), moved with ←/→ and 1-9
	sortBy int
	groups []*groupInfo // shown, filtered and sorted by refresh
	list   cursorList   // over groups; each takes two lines
	tab    *table       // the states' table, laid out by refresh
}

// newPoolPane opens pi at the moment where it holds most threads (the
// latest such moment).
func newPoolPane(c common, pi *poolInfo) *poolPane {
	m := 0
	for i, n := range pi.p.Counts {
		if n >= pi.p.Counts[m] {
			m = i
		}
	}
	p := &poolPane{common: c, pi: pi, moment: m}
	p.refresh()
	return p
}

func (p *poolPane) kind() screen     { return screenPool }
func (p *poolPane) backName() string { return "pool" }
func (p *poolPane) clone() pane      { c := *p; return &c }

func (p *poolPane) SetSize(w, h int) {
	p.width, p.height = w, h
	p.refresh()
}

func (p *poolPane) SetFilter(q string) {
	if q != p.query {
		p.query = q
		p.refresh()
	}
}

func (p *poolPane) refresh() {
	var keep *groupInfo
	if p.list.cursor < len(p.groups) {
		keep = p.groups[p.list.cursor]
	}
	mt := newMatcher(p.query)
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
	p.layout()
	p.list.scroll(len(p.groups), p.listHeight())
}

// layout lays the states' table out for the width: the state, its
// category, the trend and a count column per moment, each as wide as its
// header and its widest cell among the states of the pool (layoutTable).
func (p *poolPane) layout() {
	n := len(p.ix.labels)
	sparkW := min(max(n, 5), 24)
	cellWs := make([]int, n)
	nameW, catW := 0, 0
	for _, gi := range p.pi.groups {
		g := gi.g
		nameW = max(nameW, width(stateName(g.State, g.Via)))
		catW = max(catW, width(string(g.Category)))
		for k := range cellWs {
			if k < len(g.Counts) {
				cellWs[k] = max(cellWs[k], widest(g.Counts[k]))
			}
		}
	}
	cols := []column{
		// The state keeps 21 cells (or its longest state) before the
		// moments have theirs, and takes at most 39.
		{kind: colName, head: "STATE", cellW: nameW, min: 21, floor: 9, max: 39},
		{kind: colText, head: "CATEGORY", cellW: catW, lead: 1},
		{kind: colText, head: "trend", cellW: sparkW, min: sparkW, lead: 1},
		// Two spaces set the last bar of the trend apart from the counts.
		{kind: colMoments, cellWs: cellWs, min: minMomentW, lead: 2},
	}
	p.tab = layoutTable(cols, 2, p.width, p.ix.full, p.ix.labels, p.moment)
}

// headLines are the title (wrapped: its limit is never cut), the subtitle
// and the table's header.
func (p *poolPane) headLines() []string {
	var lines []string
	for _, l := range wrap(p.ix.titlePrefix(true)+p.title(), p.width, "  ") {
		lines = append(lines, p.st.title.Render(l))
	}
	lines = append(lines, p.st.dim.Render(cut(p.subtitle(), p.width)))
	return append(lines, p.st.header.Render(cut(p.tab.header(), p.width)))
}

// listHeight is how many states fit under the head lines.
func (p *poolPane) listHeight() int { return max(1, (p.height-len(p.headLines()))/2) }

func (p *poolPane) moveBy(delta int) {
	p.list.move(delta, len(p.groups), nil)
	p.list.scroll(len(p.groups), p.listHeight())
}

func (p *poolPane) setMoment(m int) {
	if m < 0 || m >= len(p.ix.labels) {
		return
	}
	p.moment = m
	p.refresh()
}

func (p *poolPane) cycleSort() {
	p.sortBy = (p.sortBy + 1) % len(poolSorts)
	p.refresh()
}

func (p *poolPane) selected() *groupInfo {
	if p.list.cursor < len(p.groups) {
		return p.groups[p.list.cursor]
	}
	return nil
}

// Update answers the pool's keys; a click selects a state, the wheel
// moves the cursor.
func (p *poolPane) Update(msg tea.Msg) (pane, tea.Cmd) {
	k := p.keys
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if d, ok := k.move(msg, p.listHeight()); ok {
			p.moveBy(d)
			return p, nil
		}
		if m, ok := k.moment(msg, p.moment, len(p.ix.labels)); ok {
			p.setMoment(m)
			return p, nil
		}
		switch {
		case key.Matches(msg, k.Sort):
			p.cycleSort()
		case key.Matches(msg, k.Enter):
			if gi := p.selected(); gi != nil {
				return p, open(newStatePane(p.child(p.backName()), gi, p.moment))
			}
		case key.Matches(msg, k.Copy):
			gi := p.selected()
			if gi == nil || p.moment >= len(gi.g.Stacks) || gi.g.Stacks[p.moment] == nil {
				return p, status("no stack to copy at " + p.ix.full[p.moment])
			}
			t := gi.g.Stacks[p.moment]
			lines, _ := stackLines(t, marksOf(gi.g, p.moment))
			return p, copyCmd(stackText(t, lines), "the representative stack of "+stateName(gi.g.State, gi.g.Via))
		}
	case tea.MouseWheelMsg:
		p.moveBy(wheelDelta(msg))
	case tea.MouseClickMsg:
		if y, _, ok := leftClick(msg); ok && y >= len(p.headLines()) {
			top := len(p.headLines())
			start, end := p.list.window(len(p.groups), p.listHeight())
			if i := start + (y-top)/2; i < end {
				p.list.cursor = i
			}
		}
	}
	return p, nil
}

// limit is the pool's size as a finding about it tells it (saturated, and
// the stuck finding it folds into); Size 0 when no finding knows it.
func (p *poolPane) limit() analyze.Limit {
	for _, f := range p.ix.r.Findings {
		if f.Pool == p.pi.p.Name && f.Limit.Size > 0 {
			return f.Limit
		}
	}
	return analyze.Limit{}
}

// title says the pool's peak (its largest count) and, when a finding knows
// it, its limit: "POOL http-nio-* · 2 states · peak 200 · limit 200
// (Tomcat maxThreads default)".
func (p *poolPane) title() string {
	pp := p.pi.p
	s := "POOL " + pp.Name + " · " + words.Plural(len(pp.States), "state")
	if pp.Internal {
		s += " · internal"
	}
	s += " · peak " + itoa(pp.Max)
	if l := p.limit(); l.Size > 0 {
		s += " · " + report.LimitText(l)
	}
	return s
}

// subtitle says what the table holds, the scale of its bars (one for all
// states: the pool's peak) and, when the width leaves moments out (drawn
// "…"), how many.
func (p *poolPane) subtitle() string {
	scale := "bars: █ = " + itoa(p.pi.p.Max)
	// The selected moment's label in full, first, when its header is
	// shortened: what the column is, whatever the width.
	at := ""
	if m := p.tab.moments; p.moment < len(m.labels) && m.labels[p.moment] != p.ix.full[p.moment] {
		at = "at " + p.ix.full[p.moment] + " · "
	}
	if n := p.tab.moments.hidden(); n > 0 {
		return at + words.Plural(n, "moment") + " hidden at … (←/→ shows them) · " + scale + " · sort: " + poolSorts[p.sortBy]
	}
	return at + p.ix.unit + "s per state · " + scale + " · sort: " + poolSorts[p.sortBy] + " · ←/→ moment"
}

// stateName is a group's state with what it waits on, in the reports'
// words: "socket-read via http-client".
func stateName(state, via string) string { return report.StateName(state, via) }

// ShortHelp is the pool's footer.
func (p *poolPane) ShortHelp() []key.Binding {
	k := p.keys
	b := []key.Binding{short(k.Enter, "open"), p.backKey(), key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←/→", "moment")), short(k.Sort, "sort")}
	return append(b, p.globalKeys(p.kind(), false)...)
}

// FullHelp is the help screen of the pool.
func (p *poolPane) FullHelp() [][]key.Binding {
	k := p.keys
	return [][]key.Binding{k.moves(), {k.Enter, k.Left, k.Right, k.Moment, k.Sort}, k.global()}
}

func (p *poolPane) View() string {
	lines := p.headLines()
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
		texts := []string{stateName(g.State, g.Via), string(g.Category), sparkline(g.Counts, p.pi.p.Max), ""}
		detail := p.detail(g)
		if i == p.list.cursor {
			lines = append(lines, p.st.selected.Render(fit("› "+p.tab.row(texts, g.Counts, nil), p.width)))
		} else {
			lines = append(lines, "  "+p.tab.row(texts, g.Counts, func(c int, s string) string {
				switch c {
				case 1:
					return p.st.catStyle(g.Category).Render(s)
				case 2:
					return p.st.spark.Render(s)
				}
				return s
			}))
		}
		lines = append(lines, p.st.dim.Render(detail))
	}
	return strings.Join(lines, "\n")
}

// detail is a state's second line: its top frame and culprit, shortened
// (package dropped) when they do not fit, then losing their middle.
func (p *poolPane) detail(g *analyze.Group) string {
	top, culprit := orDash(g.TopFrame), orDash(g.Culprit)
	if g.Culprit != "" && (strings.HasPrefix(g.Culprit, g.TopFrame+"(") || strings.HasPrefix(g.Culprit, g.TopFrame+" (")) {
		// The wait is in the application's own frame (a Go channel).
		return cutMiddle("    top = culprit "+culprit, p.width)
	}
	room := p.width - width("    top ") - width(" · culprit ")
	if width(top)+width(culprit) > room {
		top, culprit = report.ShortFrame(top), report.ShortFrame(culprit)
	}
	if width(top)+width(culprit) > room {
		tw := min(width(top), max(room/2, room-width(culprit)))
		top = cutMiddle(top, tw)
		culprit = cutMiddle(culprit, room-width(top))
	}
	return cut("    top "+top+" · culprit "+culprit, p.width)
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
