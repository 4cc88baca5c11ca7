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

// overviewSorts are the orders of the pool list, cycled by `s`.
// "moved" is how many threads of a pool moved between two moments (a
// state entered, or a thread new): a pool that rose and came back moved as
// much as one that rose and stayed, and a pool whose 8 threads went from
// idle to stuck moved 8 (movedOf).
var overviewSorts = []string{"moved", "last moment", "largest", "name"}

// rowKind tells what an overview row shows.
type rowKind int

const (
	rowText     rowKind = iota // a header or a note; not selectable
	rowFinding                 // one finding
	rowPool                    // one pool
	rowInternal                // the folded internal pools
)

// ovRow is one rendered overview row. body and styled are the same text
// without and with colour; the cursor mark is added by View.
type ovRow struct {
	kind   rowKind
	f      *analyze.Finding
	p      *poolInfo
	name   string // pool rows: the name shown
	counts []int  // pool rows: threads per moment
	body   string
	styled string
}

// overviewPane is the first screen: findings, then pools with their counts
// at each moment and a sparkline, the internal pools folded into one line.
type overviewPane struct {
	common
	sortBy int
	unfold bool    // show the internal pools one by one
	rows   []ovRow // built by refresh for query, sort, unfold and width
	list   cursorList
	// tab lays out the pool rows and their header (layoutTable); kindW
	// is the width of the findings' kinds.
	tab   *table
	kindW int
	// top is the count the sparklines of the pools shown share as their
	// highest bar: the largest count of any of them.
	top int
}

func newOverviewPane(c common) *overviewPane {
	o := &overviewPane{common: c}
	o.refresh()
	return o
}

func (o *overviewPane) kind() screen { return screenOverview }
func (o *overviewPane) clone() pane  { c := *o; return &c }

// backName is "findings" when a finding is selected (its detail goes back
// to the list of findings), else "overview".
func (o *overviewPane) backName() string {
	if r := o.selected(); r != nil && r.kind == rowFinding {
		return "findings"
	}
	return "overview"
}

func (o *overviewPane) SetSize(w, h int) {
	o.width, o.height = w, h
	o.refresh()
}

func (o *overviewPane) SetFilter(q string) {
	if q != o.query {
		o.query = q
		o.refresh()
	}
}

// refresh rebuilds the rows. It costs one substring search per pool and
// finding; the analysis is not touched.
func (o *overviewPane) refresh() {
	var keep *ovRow
	if o.list.cursor < len(o.rows) {
		keep = &o.rows[o.list.cursor]
	}
	mt := newMatcher(o.query)
	o.rows = o.rows[:0:0]

	var findings []*analyze.Finding
	for i := range o.ix.r.Findings {
		f := &o.ix.r.Findings[i]
		if o.findingMatches(mt, f) {
			findings = append(findings, f)
		}
	}
	title := "FINDINGS (" + itoa(len(findings)) + ")"
	o.text(o.st.header, title)
	if len(findings) == 0 {
		if len(o.ix.r.Findings) == 0 {
			o.text(o.st.dim, "  no finding")
		} else {
			o.text(o.st.dim, "  no finding matches the filter")
		}
	}
	o.kindW = 0
	for _, f := range findings {
		o.kindW = max(o.kindW, width(f.Kind))
	}
	for _, f := range findings {
		o.rows = append(o.rows, o.findingRow(f))
	}
	o.notableRows()

	var pools, internal []*poolInfo
	for _, pi := range o.ix.pools {
		if !mt.text(pi.hay) {
			continue
		}
		if pi.p.Internal {
			internal = append(internal, pi)
		} else {
			pools = append(pools, pi)
		}
	}
	o.sortPools(pools)
	o.sortPools(internal)
	o.top = 0
	for _, pi := range pools {
		o.top = max(o.top, pi.p.Max)
	}
	internalCounts := make([]int, len(o.ix.labels))
	for _, pi := range internal {
		for i, c := range pi.p.Counts {
			if i < len(internalCounts) {
				internalCounts[i] += c
			}
		}
		if o.unfold {
			o.top = max(o.top, pi.p.Max)
		}
	}
	if len(internal) > 0 {
		o.top = max(o.top, maxOf(internalCounts))
	}
	o.layout(pools, internal, internalCounts)
	var note []string
	if o.top > 0 {
		note = append(note, "bars share one scale: █ = "+words.Plural(o.top, o.ix.unit))
	}
	if n := o.tab.moments.hidden(); n > 0 {
		note = append(note, words.Plural(n, "moment")+" hidden at …: a pool shows them (←/→)")
	} else if o.tab.moments.shortened {
		note = append(note, "short labels: full in a pool (←/→)")
	}
	if len(note) > 0 {
		o.text(o.st.dim, cut("  "+strings.Join(note, " · "), o.width))
	} else {
		o.text(o.st.dim, "")
	}
	head := o.tab.header()
	o.rows = append(o.rows, ovRow{kind: rowText, body: head, styled: o.st.header.Render(head)})
	if len(pools) == 0 && len(internal) == 0 {
		if o.query == "" {
			o.text(o.st.dim, "  no pools")
		} else {
			o.text(o.st.dim, "  no pool matches the filter")
		}
	}
	for _, pi := range pools {
		o.rows = append(o.rows, o.poolRow(pi, pi.p.Name, pi.p.Counts, rowPool))
	}
	if len(internal) > 0 {
		counts := internalCounts
		mark := "+ "
		if o.unfold {
			mark = "- "
		}
		o.rows = append(o.rows, o.poolRow(nil, mark+o.ix.internalName+" ("+words.Plural(len(internal), "pool")+")", counts, rowInternal))
		if o.unfold {
			for _, pi := range internal {
				o.rows = append(o.rows, o.poolRow(pi, "  "+pi.p.Name, pi.p.Counts, rowPool))
			}
		}
	}

	// Keep the cursor on the same finding or pool when it is still shown.
	o.list.cursor = 0
	if keep != nil {
		for i, r := range o.rows {
			if r.kind == keep.kind && r.kind != rowText && r.f == keep.f && r.p == keep.p {
				o.list.cursor = i
			}
		}
	}
	o.list.move(0, len(o.rows), o.selectable)
	o.list.scroll(len(o.rows), o.listHeight())
}

// Update answers the overview's keys: enter opens a finding's detail or a
// pool (or folds the internal pools); a click selects a row, the wheel
// moves the cursor; y copies a finding's whole sentence.
func (o *overviewPane) Update(msg tea.Msg) (pane, tea.Cmd) {
	k := o.keys
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if d, ok := k.move(msg, o.listHeight()); ok {
			o.moveBy(d)
			return o, nil
		}
		switch {
		case key.Matches(msg, k.Sort):
			o.cycleSort()
		case key.Matches(msg, k.Enter):
			return o, o.enter()
		case key.Matches(msg, k.Copy):
			r := o.selected()
			if r == nil || r.kind != rowFinding {
				return o, status("y copies a finding's text here, or a stack in a state")
			}
			return o, copyCmd(report.Summary(o.ix.r, r.f), "the finding")
		}
	case tea.MouseWheelMsg:
		o.moveBy(wheelDelta(msg))
	case tea.MouseClickMsg:
		if y, _, ok := leftClick(msg); ok && y >= 2 {
			start, end := o.list.window(len(o.rows), o.listHeight())
			if i := start + y - 2; i < end && o.selectable(i) {
				o.list.cursor = i
			}
		}
	}
	return o, nil
}

func (o *overviewPane) enter() tea.Cmd {
	r := o.selected()
	if r == nil {
		return nil
	}
	switch r.kind {
	case rowInternal:
		o.toggleFold()
	case rowPool:
		return open(newPoolPane(o.child(o.backName()), r.p))
	case rowFinding:
		return open(newDetailPane(o.child(o.backName()), r.f))
	}
	return nil
}

// ShortHelp is the overview's footer; with several targets it names t.
func (o *overviewPane) ShortHelp() []key.Binding {
	k := o.keys
	b := []key.Binding{short(k.Enter, "open")}
	if o.query != "" {
		b = append(b, o.backKey())
	}
	b = append(b, short(k.Sort, "sort"))
	if o.ix.of > 1 {
		b = append(b, short(k.Target, "target"))
	}
	return append(b, o.globalKeys(o.kind(), false)...)
}

// FullHelp is the help screen of the overview.
func (o *overviewPane) FullHelp() [][]key.Binding {
	k := o.keys
	return [][]key.Binding{k.moves(), {k.Enter, k.Sort}, k.global()}
}

func (o *overviewPane) findingMatches(mt *matcher, f *analyze.Finding) bool {
	if mt.all() {
		return true
	}
	if mt.text(strings.ToLower(strings.Join([]string{f.Kind, f.Pool, f.State, f.Via, report.Summary(o.ix.r, f), f.Frame, f.Culprit}, "\x00"))) {
		return true
	}
	if pi := o.ix.poolByName(f.Pool); pi != nil && mt.text(pi.hay) {
		return true
	}
	return false
}

// layout lays the pool table out for the width: the name, the trend,
// a count column per moment and how much the pool moved, each as wide as
// its header and its widest cell among the pools shown (layoutTable).
func (o *overviewPane) layout(pools, internal []*poolInfo, internalCounts []int) {
	n := len(o.ix.labels)
	sparkW := min(max(n, 5), 24)
	cellWs := make([]int, n)
	nameW, movedW := 0, 0
	add := func(name string, counts []int, moved int) {
		nameW = max(nameW, width(name))
		movedW = max(movedW, widest(moved))
		for k := range cellWs {
			if k < len(counts) {
				cellWs[k] = max(cellWs[k], widest(counts[k]))
			}
		}
	}
	for _, pi := range pools {
		add(pi.p.Name, pi.p.Counts, pi.moved)
	}
	if len(internal) > 0 {
		add("+ "+o.ix.internalName+" ("+words.Plural(len(internal), "pool")+")", internalCounts, spread(internalCounts))
		if o.unfold {
			for _, pi := range internal {
				add("  "+pi.p.Name, pi.p.Counts, pi.moved)
			}
		}
	}
	cols := []column{
		// The name keeps 20 cells (or its widest name) before the moments
		// have theirs, and takes at most 48.
		{kind: colName, head: "POOLS (" + itoa(len(pools)) + ") · sort: " + overviewSorts[o.sortBy], cellW: nameW, min: 20, floor: 10, max: 48},
		{kind: colText, head: "trend", cellW: sparkW, min: sparkW, lead: 1},
		{kind: colMoments, cellWs: cellWs, min: minMomentW, lead: 1},
		// Six cells at least: "moved" and a count to 99999 line up
		// whatever the pools shown.
		{kind: colCount, head: "moved", cellW: movedW, min: 6, lead: 1},
	}
	o.tab = layoutTable(cols, 2, o.width, o.ix.full, o.ix.labels, -1)
}

// overviewNotable is how many notable threads the overview names: the
// most unusual few (a main thread waiting, a thread blocked outside any
// pool), each a line; more would push the pools off an 80×24 screen.
const overviewNotable = 3

// notableRows names the last moment's notable threads under the findings
// (the reports' notable lines, cut to the width), the rest counted;
// nothing while a filter is typed (they are not filtered) or when there
// are none.
func (o *overviewPane) notableRows() {
	ns := o.ix.r.Notable
	if len(ns) == 0 || o.query != "" {
		return
	}
	at := ""
	if m := ns[0].Moment; m >= 0 && m < len(o.ix.labels) {
		at = " at " + o.ix.labels[m]
	}
	o.text(o.st.header, "NOTABLE THREADS"+at)
	for i, nt := range ns {
		if i == overviewNotable {
			o.text(o.st.dim, cut("  "+words.Plural(len(ns)-overviewNotable, "more")+" in the report", o.width))
			break
		}
		o.text(o.st.plain, cut("  "+report.NotableLine(o.ix.r, nt), o.width))
	}
}

func (o *overviewPane) text(style interface{ Render(...string) string }, s string) {
	o.rows = append(o.rows, ovRow{kind: rowText, body: s, styled: style.Render(s)})
}

func (o *overviewPane) findingRow(f *analyze.Finding) ovRow {
	tag := map[analyze.Severity]string{analyze.Critical: "CRIT", analyze.Warning: "WARN", analyze.Info: "INFO"}[f.Severity]
	what := report.Summary(o.ix.r, f)
	if what == "" {
		what = strings.TrimSpace(f.Pool + " " + f.State)
	}
	head := tag + " " + fit(f.Kind, o.kindW) + " "
	rest := cut(what, o.width-2-width(head))
	sev := o.st.sevStyle(f.Severity)
	return ovRow{kind: rowFinding, f: f, body: head + rest, styled: sev.Render(head) + rest}
}

func (o *overviewPane) poolRow(pi *poolInfo, name string, counts []int, kind rowKind) ovRow {
	moved := spread(counts) // the folded JVM-internal row: its count's spread
	if pi != nil {
		moved = pi.moved
	}
	texts := []string{name, sparkline(counts, o.top), "", itoa(moved)}
	body := o.tab.row(texts, counts, nil)
	styled := o.tab.row(texts, counts, func(i int, s string) string {
		if i == 1 {
			return o.st.spark.Render(s)
		}
		return s
	})
	return ovRow{kind: kind, p: pi, name: name, counts: counts, body: body, styled: styled}
}

func (o *overviewPane) sortPools(ps []*poolInfo) {
	last := len(o.ix.labels) - 1
	at := func(pi *poolInfo, i int) int {
		if i < 0 || i >= len(pi.p.Counts) {
			return 0
		}
		return pi.p.Counts[i]
	}
	slices.SortStableFunc(ps, func(a, b *poolInfo) int {
		var c int
		switch overviewSorts[o.sortBy] {
		case "moved":
			c = cmp.Or(cmp.Compare(b.moved, a.moved), cmp.Compare(b.p.Max, a.p.Max))
		case "last moment":
			c = cmp.Compare(at(b, last), at(a, last))
		case "largest":
			c = cmp.Compare(b.p.Max, a.p.Max)
		}
		// Pools with a finding first, the most severe first, as the report does.
		return cmp.Or(cmp.Compare(b.severity, a.severity), c, strings.Compare(a.p.Name, b.p.Name))
	})
}

func (o *overviewPane) selectable(i int) bool { return o.rows[i].kind != rowText }

// listHeight is the number of rows shown under the title lines.
func (o *overviewPane) listHeight() int { return max(1, o.height-2) }

// selected returns the row under the cursor; nil when none is selectable.
func (o *overviewPane) selected() *ovRow {
	if o.list.cursor < len(o.rows) && o.selectable(o.list.cursor) {
		return &o.rows[o.list.cursor]
	}
	return nil
}

func (o *overviewPane) moveBy(delta int) {
	o.list.move(delta, len(o.rows), o.selectable)
	o.list.scroll(len(o.rows), o.listHeight())
}

func (o *overviewPane) cycleSort() {
	o.sortBy = (o.sortBy + 1) % len(overviewSorts)
	o.refresh()
}

func (o *overviewPane) toggleFold() {
	o.unfold = !o.unfold
	o.refresh()
}

// title is the first line: runtime, moments, threads at the last moment.
func (o *overviewPane) title() string {
	r := o.ix.r
	// With a target its name comes first, in place of "dumpdiff" (the
	// short help names the t key), so that the counts fit 80 columns.
	s := "dumpdiff"
	switch {
	case o.ix.of > 1:
		s = o.ix.targetName() + " (" + itoa(o.ix.nth) + " of " + itoa(o.ix.of) + ")"
	case o.ix.target != "":
		s = o.ix.target
	}
	if r.Runtime != "" {
		s += " · " + string(r.Runtime)
	}
	s += " · " + words.Plural(len(r.Moments), "moment")
	switch n := len(o.ix.full); {
	case n == 1:
		s += " (" + o.ix.full[0] + ")"
		if len(r.Totals) == 1 {
			s += " · " + words.Plural(r.Totals[0], o.ix.unit)
		}
	case n > 1:
		s += " (" + o.ix.full[0] + " → " + o.ix.full[n-1] + ")"
		if len(r.Totals) == n {
			s += " · " + words.Plural(r.Totals[n-1], o.ix.unit) + " at the last"
		}
	}
	return s
}

func (o *overviewPane) View() string {
	lines := []string{o.st.title.Render(cut(o.title(), o.width))}
	if n := len(o.ix.r.Warnings); n > 0 {
		lines = append(lines, o.st.errText.Render(cut("⚠ "+itoa(n)+" warning(s): "+o.ix.r.Warnings[0], o.width)))
	} else {
		lines = append(lines, "")
	}
	start, end := o.list.window(len(o.rows), o.listHeight())
	for i := start; i < end; i++ {
		r := o.rows[i]
		switch {
		case r.kind == rowText:
			lines = append(lines, r.styled)
		case i == o.list.cursor:
			lines = append(lines, o.st.selected.Render(fit("› "+r.body, o.width)))
		default:
			lines = append(lines, "  "+r.styled)
		}
	}
	return strings.Join(lines, "\n")
}
