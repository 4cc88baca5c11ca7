package tui

import (
	"cmp"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/internal/words"
	"github.com/dumpdiff/dumpdiff/parse"
	"github.com/dumpdiff/dumpdiff/report"
)

// stateSorts are the orders of the thread list, cycled by `s`.
var stateSorts = []string{"dump order", "name", "id"}

// statePane is one group (a pool in one state): its culprit and entry
// points, its identical-stack groups, the threads in it at the selected
// moment (and which of them are in it at the other moments), and the stack
// of the selected thread; or, with `c`, the selected thread's stacks at two
// moments, in whatever state it is at each (the group's representative
// stacks when threads have no identity), side by side (wide) or as a diff
// (narrow).
type statePane struct {
	common
	gi      *groupInfo
	moment  int
	sortBy  int
	threads []*parse.Thread // at moment, filtered and sorted by refresh
	weight  int             // goroutines the threads stand for (aggregated records weigh more), set by refresh
	// same[k] is how many threads of the group at moment are in the group
	// at moment k too (by identity); -1 when identity is unknown.
	same []int
	list cursorList
	// groups are the group's identical-stack groups at moment, largest
	// first (report.StackGroups: the reports describe them the same way).
	groups []report.StackGroup
	// groupsFor is the moment (+1; 0 for none) groups and same were
	// computed for (momentGroups).
	groupsFor int
	// focusStack sends the cursor keys to the stack (tab), whose selected
	// line y copies; in a comparison the cursor keys scroll it.
	focusStack bool
	stack      stackView
	compare    bool
	cmpFrom    int // left moment of the comparison
	// follow is set when the comparison follows one thread (the one
	// selected when c was pressed) through the moments, in whatever state
	// it is at each: cmpKey is its identity. Otherwise the group's
	// representative stacks are compared.
	follow  bool
	cmpKey  threadKey
	diff    []report.DiffOp // representative stacks at cmpFrom and moment
	diffOff int             // first line of the comparison shown
}

// newStatePane opens gi at moment, or at its largest moment when it has no
// thread there.
func newStatePane(c common, gi *groupInfo, moment int) *statePane {
	cs := gi.g.Counts
	if moment < 0 || moment >= len(cs) || cs[moment] == 0 {
		moment = 0
		for i := range cs {
			if cs[i] >= cs[moment] {
				moment = i
			}
		}
	}
	s := &statePane{common: c, gi: gi, moment: moment}
	s.refresh()
	return s
}

func (s *statePane) kind() screen     { return screenState }
func (s *statePane) backName() string { return "state" }
func (s *statePane) clone() pane      { c := *s; return &c }

func (s *statePane) SetSize(w, h int) {
	s.width, s.height = w, h
	s.list.scroll(len(s.threads), s.listHeight())
	s.showSelected()
}

func (s *statePane) SetFilter(q string) {
	if q != s.query {
		s.query = q
		s.refresh()
	}
}

// refresh filters and sorts the threads at the moment and counts the same
// threads at the other moments: one pass over the group's threads there.
func (s *statePane) refresh() {
	var keep *parse.Thread
	if s.list.cursor < len(s.threads) {
		keep = s.threads[s.list.cursor]
	}
	g := s.gi.g
	var all []*parse.Thread
	if s.moment < len(g.Threads) {
		all = g.Threads[s.moment]
	}
	mt := newMatcher(s.query)
	s.threads = s.threads[:0:0]
	if mt.all() || mt.text(s.gi.own) {
		s.threads = append(s.threads, all...)
	} else {
		for _, t := range all {
			if mt.thread(t) {
				s.threads = append(s.threads, t)
			}
		}
	}
	// The representative thread first, so the stack shown on opening is it.
	rep := s.stackAt(s.moment)
	switch stateSorts[s.sortBy] {
	case "name":
		slices.SortStableFunc(s.threads, func(a, b *parse.Thread) int {
			return cmp.Or(words.NaturalCompare(a.Name(), b.Name()), cmp.Compare(a.ID, b.ID))
		})
	case "id":
		slices.SortStableFunc(s.threads, func(a, b *parse.Thread) int { return cmp.Compare(a.ID, b.ID) })
	default:
		if i := slices.Index(s.threads, rep); i > 0 {
			s.threads = slices.Insert(slices.Delete(s.threads, i, i+1), 0, rep)
		}
	}

	s.weight = weight(s.threads) // View prints it on every frame
	if s.groupsFor != s.moment+1 {
		s.momentGroups(g, all)
	}

	s.list.cursor = 0
	if keep != nil {
		if i := slices.Index(s.threads, keep); i >= 0 {
			s.list.cursor = i
		}
	}
	s.list.scroll(len(s.threads), s.listHeight())
	s.showSelected()
	if s.compare {
		s.diff = report.DiffStacks(s.cmpStack(s.cmpFrom), s.cmpStack(s.moment))
	}
}

// cmpStack is the stack a comparison shows at moment k: the followed
// thread's, wherever it is, or the group's representative one.
func (s *statePane) cmpStack(k int) *parse.Thread {
	if s.follow {
		return s.ix.threadAt(k, s.cmpKey).t
	}
	return s.stackAt(k)
}

// showSelected puts the selected thread's stack in the stack view.
func (s *statePane) showSelected() {
	s.stack.show(s.selected(), marksOf(s.gi.g, s.moment))
}

// stackAt is the group's representative thread at moment m; nil if none.
func (s *statePane) stackAt(m int) *parse.Thread {
	if m >= 0 && m < len(s.gi.g.Stacks) {
		return s.gi.g.Stacks[m]
	}
	return nil
}

// listHeight is the number of thread rows: a third of what is left under
// the header lines, at least three, fewer when fewer threads are shown
// (the stack gets the rest).
func (s *statePane) listHeight() int {
	return min(max(3, (s.height-len(s.headLines())-2)/3), max(1, len(s.threads)))
}

// stackRoom is the number of stack lines under the stack's header.
func (s *statePane) stackRoom() int {
	return max(0, s.height-len(s.headLines())-1-s.listHeight()-1)
}

// maxGroupLines is how many identical-stack groups the state view lists:
// two on a small screen, four from 30 lines.
func (s *statePane) maxGroupLines() int {
	if s.height >= 30 {
		return 4
	}
	return 2
}

// groupLines say how the threads at the moment split by identical stack:
// one line when they share one stack, else a header and a line per group
// (count, culprit, entry point), the largest first.
func (s *statePane) groupLines() []string {
	sgs := s.groups
	if len(sgs) == 0 {
		return nil
	}
	head := func(rest string) string {
		return "IDENTICAL STACKS at " + s.ix.nameIn(s.moment, s.width-width("IDENTICAL STACKS at "+rest)) + rest
	}
	if len(sgs) == 1 {
		if sgs[0].Count == 1 {
			return []string{head(": one " + s.ix.unit)}
		}
		return []string{head(": one stack, all " + itoa(sgs[0].Count) + " identical")}
	}
	lines := []string{head(": " + itoa(len(sgs)) + " groups")}
	w := len(itoa(sgs[0].Count))
	for i, sg := range sgs {
		if i == s.maxGroupLines() && len(sgs) > i+1 {
			rest := 0
			for _, o := range sgs[i:] {
				rest += o.Count
			}
			lines = append(lines, "  … "+words.Plural(len(sgs)-i, "more group")+" ("+itoa(rest)+")")
			break
		}
		l := sg.Label()
		if l == "" {
			l = "no application frame"
		}
		lines = append(lines, "  "+strings.Repeat(" ", w-len(itoa(sg.Count)))+itoa(sg.Count)+"  "+l)
	}
	return lines
}

// culpritLine names the state's culprit and its entry points at the
// moment, shortened, so that they are on the first screen whatever the
// stack's length: "culprit Repo.query:23 · entry OrderServlet.doGet:22
// (93), HealthServlet.doGet:26 (3, health check)". "" when the state has
// neither.
func (s *statePane) culpritLine() string {
	g := s.gi.g
	var parts []string
	culprit := ""
	if g.Culprit != "" {
		culprit = report.ShortFrame(g.Culprit)
		parts = append(parts, "culprit "+culprit)
	}
	if s.moment < len(g.Entries) && len(g.Entries[s.moment]) > 0 {
		es0 := g.Entries[s.moment]
		if fn, _, ok := strings.Cut(es0[0].Func, " ← "); len(es0) == 1 && !ok && report.ShortFrame(fn) == culprit {
			return parts[0] + ", also the entry point"
		}
		var es []string
		for _, e := range es0 {
			fn, creator, ok := strings.Cut(e.Func, " ← ")
			x := report.ShortFrame(fn)
			if x == culprit {
				x = "the culprit"
			}
			if after, isCreator := strings.CutPrefix(fn, "created by "); isCreator {
				x = "created by " + report.ShortFunc(after)
			}
			if ok {
				x += " ← " + report.ShortFunc(creator)
			}
			x += " (" + itoa(e.Count)
			if e.Probe {
				x += ", health check"
			}
			es = append(es, x+")")
		}
		parts = append(parts, "entry "+strings.Join(es, ", "))
	}
	return strings.Join(parts, " · ")
}

// headLines are the lines above the thread list, styled: title, moments,
// the state's explanation, culprit and entry points, the same threads at
// the other moments (wrapped, never cut) and the identical-stack groups.
func (s *statePane) headLines() []string {
	g := s.gi.g
	plainBar, bar := s.momentBar()
	if width(plainBar) > s.width {
		bar = cut(plainBar, s.width)
	}
	lines := []string{
		s.st.title.Render(cut(s.ix.titlePrefix(true)+s.title(), s.width)),
		bar,
		s.st.dim.Render(cut(orDash(g.Explain), s.width)),
	}
	if l := s.culpritLine(); l != "" {
		for _, wl := range wrap(l, s.width, "  ") {
			lines = append(lines, s.st.culprit.Render(wl))
		}
	}
	lines = append(lines, wrap(s.sameLine(), s.width, "  ")...)
	if s.compare {
		return lines
	}
	for i, l := range s.groupLines() {
		if i == 0 {
			lines = append(lines, s.st.header.Render(cut(l, s.width)))
		} else {
			lines = append(lines, cut(l, s.width))
		}
	}
	return lines
}

// Update answers the state's keys and the mouse: a click selects a thread
// or a stack line, the wheel moves the thread cursor or scrolls the stack
// under the pointer.
func (s *statePane) Update(msg tea.Msg) (pane, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return s, s.key(msg)
	case tea.MouseWheelMsg:
		if s.compare {
			s.moveDiff(wheelDelta(msg))
		} else if s.onStack(msg.Y) {
			s.stack.move(wheelDelta(msg), s.stackRoom(), false)
		} else {
			s.moveBy(wheelDelta(msg))
		}
	case tea.MouseClickMsg:
		s.click(msg)
	}
	return s, nil
}

func (s *statePane) key(msg tea.KeyPressMsg) tea.Cmd {
	k := s.keys
	page := s.listHeight()
	if s.compare || s.focusStack {
		page = max(1, s.stackRoom()-1)
	}
	if d, ok := k.move(msg, page); ok {
		if s.compare {
			s.moveDiff(d)
		} else if s.focusStack {
			s.stack.move(d, s.stackRoom(), true)
		} else {
			s.moveBy(d)
		}
		return nil
	}
	if m, ok := k.moment(msg, s.moment, len(s.ix.labels)); ok {
		s.setMoment(m)
		return nil
	}
	switch {
	case key.Matches(msg, k.Sort):
		s.cycleSort()
	case key.Matches(msg, k.Compare):
		s.toggleCompare()
	case key.Matches(msg, k.Focus):
		s.focusStack = !s.focusStack
		s.stack.follow(s.stackRoom())
	case key.Matches(msg, k.Copy):
		return s.copy()
	}
	return nil
}

// copy puts the selected stack, or the selected frame when the stack has
// the keys, or the comparison on the clipboard.
func (s *statePane) copy() tea.Cmd {
	if s.compare {
		var lines []string
		for _, op := range s.diff {
			lines = append(lines, op.Text())
		}
		if len(lines) == 0 {
			return status("nothing to copy: " + s.emptySide())
		}
		return copyCmd(strings.Join(lines, "\n"), "the comparison")
	}
	text, what := s.stack.copyText(s.focusStack)
	if text == "" {
		return status("no thread to copy")
	}
	return copyCmd(text, what)
}

// onStack reports whether row y of the pane is in the stack.
func (s *statePane) onStack(y int) bool {
	return y > len(s.headLines())+s.listHeight()
}

func (s *statePane) click(msg tea.MouseClickMsg) {
	if msg.Button != tea.MouseLeft || s.compare {
		return
	}
	top := len(s.headLines()) + 1 // the THREADS header
	start, end := s.list.window(len(s.threads), s.listHeight())
	switch y := msg.Y; {
	case y >= top && y < top+end-start:
		s.focusStack = false
		s.list.cursor = start + y - top
		s.showSelected()
	case y > top+s.listHeight():
		if i, ok := s.stack.at(y-top-s.listHeight()-1, s.stackRoom()); ok {
			s.focusStack = true
			s.stack.cur = i
		}
	}
}

func (s *statePane) moveBy(delta int) {
	s.list.move(delta, len(s.threads), nil)
	s.list.scroll(len(s.threads), s.listHeight())
	s.showSelected()
}

func (s *statePane) moveDiff(delta int) {
	s.diffOff = min(max(0, s.diffOff+delta), max(0, len(s.diff)-1))
}

// momentGroups computes what depends on the moment only (its identical-
// stack groups, and how many of its threads are in the group at each other
// moment): once per moment, not on every filter key or resize.
func (s *statePane) momentGroups(g *analyze.Group, all []*parse.Thread) {
	s.groupsFor = s.moment + 1
	s.groups = report.StackGroups(g, s.moment)
	s.same = make([]int, len(s.ix.labels))
	for k := range s.same {
		n := 0
		for _, t := range all {
			key, ok := keyOf(t)
			if !ok {
				n = -1
				break
			}
			if in, _ := s.ix.placeAt(k, key, g); in {
				n++
			}
		}
		s.same[k] = n
	}
}

func (s *statePane) setMoment(m int) {
	if m < 0 || m >= len(s.ix.labels) || m == s.moment {
		return
	}
	s.moment = m
	s.list = cursorList{}
	s.threads = nil
	s.stack = stackView{}
	s.diffOff = 0
	s.refresh()
}

func (s *statePane) cycleSort() {
	s.sortBy = (s.sortBy + 1) % len(stateSorts)
	s.refresh()
}

// toggleCompare starts comparing the selected moment (kept on the left) with
// the previous moment that has threads in the group, else the next one; the
// right side then follows ←/→.
func (s *statePane) toggleCompare() {
	s.compare = !s.compare
	if !s.compare {
		return
	}
	s.cmpFrom = s.moment
	s.diffOff = 0
	// The selected thread is followed when its identity is printed (a
	// thread idle at before and stuck at during-1 is the comparison
	// people want); a stack shared by many (aggregated) is not one thread.
	s.follow = false
	if t := s.selected(); t != nil {
		if key, ok := keyOf(t); ok {
			s.follow, s.cmpKey = true, key
		}
	}
	other := -1
	for k := s.moment - 1; k >= 0 && other < 0; k-- {
		if s.cmpStack(k) != nil {
			other = k
		}
	}
	for k := s.moment + 1; k < len(s.ix.labels) && other < 0; k++ {
		if s.cmpStack(k) != nil {
			other = k
		}
	}
	if other < 0 {
		other = (s.moment + 1) % max(1, len(s.ix.labels))
	}
	s.moment = other
	s.list = cursorList{}
	s.stack = stackView{}
	s.refresh()
}

func (s *statePane) selected() *parse.Thread {
	if s.list.cursor < len(s.threads) {
		return s.threads[s.list.cursor]
	}
	return nil
}

func (s *statePane) title() string {
	g := s.gi.g
	return g.Pool + " › " + stateName(g.State, g.Via) + " · " + string(g.Category)
}

// momentBar is "1:before 0 │ [2:during-1 190] │ 3:after 200": each
// moment's key, label and count, the selected one bracketed (and the left
// side of a comparison in <>). It is laid out as the tables are
// (fitMoments): labels shortened only as far as the width asks, then the
// middle moments left out behind "…", the selected one and the last
// kept; the selected one is named in full on the THREADS line.
func (s *statePane) momentBar() (plain, styled string) {
	const sep = " │ "
	count := func(k int) int {
		if k < len(s.gi.g.Counts) {
			return s.gi.g.Counts[k]
		}
		return 0
	}
	key := func(k int) string {
		if k < 9 {
			return itoa(k+1) + ":"
		}
		return ""
	}
	marked := func(k int) bool { return k == s.moment || s.compare && k == s.cmpFrom }
	cost := func(k, lw int) int {
		n := width(sep) + width(key(k)) + lw + 1 + len(itoa(count(k)))
		if marked(k) {
			n += 2
		}
		return n
	}
	must := []int{s.moment}
	if s.compare {
		must = append(must, s.cmpFrom)
	}
	f := fitMoments(s.ix.full, s.ix.labels, must, s.width+width(sep), width(sep)+1, cost)
	var p, st []string
	for _, k := range f.idx {
		if k == gapCol {
			p, st = append(p, "…"), append(st, "…")
			continue
		}
		cell := key(k) + f.labels[k] + " " + itoa(count(k))
		switch {
		case k == s.moment:
			p = append(p, "["+cell+"]")
			st = append(st, s.st.moment.Render("["+cell+"]"))
		case s.compare && k == s.cmpFrom:
			p = append(p, "<"+cell+">")
			st = append(st, s.st.header.Render("<"+cell+">"))
		default:
			p = append(p, cell)
			st = append(st, cell)
		}
	}
	return strings.Join(p, sep), strings.Join(st, sep)
}

// sameLine says how many of the threads here are the very same threads in
// this state at the other moments, the total first: "same threads here (of
// 96): 0 at before · 76 at during-1 · 0 at after".
func (s *statePane) sameLine() string {
	all := 0
	if s.moment < len(s.gi.g.Threads) {
		all = len(s.gi.g.Threads[s.moment])
	}
	if all == 0 {
		return "no " + s.ix.unit + " in this state at " + s.ix.full[s.moment]
	}
	var parts []string
	for k, n := range s.same {
		if k == s.moment {
			continue
		}
		if n < 0 {
			return "thread identity is not printed in this format: same threads unknown"
		}
		parts = append(parts, itoa(n)+" at "+s.ix.labels[k])
	}
	if len(parts) == 0 {
		return words.Plural(all, s.ix.unit) + " at " + s.ix.full[s.moment]
	}
	return "same " + s.ix.unit + "s in this state (of " + itoa(all) + "): " + strings.Join(parts, " · ")
}

// presence is one mark per moment for thread t: ● in this state, ○ in the
// dump in another state, - not in the dump.
func (s *statePane) presence(t *parse.Thread) string {
	key, ok := keyOf(t)
	if !ok {
		return ""
	}
	var b strings.Builder
	for k := range s.ix.labels {
		switch inG, inDump := s.ix.placeAt(k, key, s.gi.g); {
		case inG:
			b.WriteString("●")
		case inDump:
			b.WriteString("○")
		default:
			b.WriteString("-")
		}
	}
	return b.String()
}

// presenceLegend says what presence's marks mean.
const presenceLegend = "●=here ○=other state -=absent"

// threadName is how a thread is called: its JVM name, "goroutine 42", or
// "goroutines sharing this stack" in aggregated formats.
func threadName(t *parse.Thread) string {
	switch {
	case t.Name() != "" || t.Java().NativeID != "":
		return t.Name()
	case t.ID == 0:
		return "goroutines sharing this stack"
	case t.JVM != nil && t.JVM.Virtual: // unnamed unless the program names it
		return "virtual thread #" + itoa(int(t.ID))
	case t.JVM != nil:
		return "thread #" + itoa(int(t.ID))
	}
	return "goroutine " + itoa(int(t.ID))
}

// threadRest is the rest of a thread's row: ids, state, weight.
func threadRest(t *parse.Thread) string {
	var s string
	j := t.Java()
	switch {
	case t.Name() != "" || j.NativeID != "":
		if t.ID != 0 {
			s += "  #" + itoa(int(t.ID))
		}
		if j.NativeID != "" {
			s += " nid=" + j.NativeID
		}
		if t.State != "" {
			s += "  " + t.State
		}
		if j.StateDetail != "" {
			s += " (" + j.StateDetail + ")"
		}
	case t.State != "":
		s += "  [" + t.State
		if t.WaitMinutes > 0 {
			s += ", " + itoa(t.WaitMinutes) + " minutes"
		}
		s += "]"
	}
	if t.Weight > 1 {
		s += "  ×" + itoa(t.Weight)
	}
	return s
}

// threadRow is the text of one thread in the list.
func threadRow(t *parse.Thread) string { return threadName(t) + threadRest(t) }

// fitThread is t's row in w cells at most: the name loses its middle
// before the rest (ids, state) is cut.
func fitThread(t *parse.Thread, w int) string {
	name, rest := threadName(t), threadRest(t)
	if width(name)+width(rest) <= w {
		return name + rest
	}
	name = cutMiddle(name, max(12, w-width(rest)))
	return cut(name+rest, w)
}

// threadRows are the rows of ts with their presence marks in a column
// right after the longest row, so that each trail sits next to its name.
func (s *statePane) threadRows(ts []*parse.Thread) []string {
	marksW := 0
	if len(ts) > 0 {
		marksW = width(s.presence(ts[0]))
	}
	avail := s.width - 2 - marksW - 2
	rows := make([]string, len(ts))
	col := 0
	for i, t := range ts {
		rows[i] = fitThread(t, avail)
		col = max(col, width(rows[i]))
	}
	for i, t := range ts {
		rows[i] = fit(rows[i], col) + "  " + s.presence(t)
	}
	return rows
}

// ShortHelp is the state's footer.
func (s *statePane) ShortHelp() []key.Binding {
	k := s.keys
	b := []key.Binding{s.backKey(), key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←/→", "moment"))}
	if s.compare {
		b = append(b, short(k.Compare, "close compare"))
	} else {
		b = append(b, short(k.Compare, "compare"), short(k.Focus, "stack"))
	}
	return append(b, s.globalKeys(s.kind(), true)...)
}

// FullHelp is the help screen of the state.
func (s *statePane) FullHelp() [][]key.Binding {
	k := s.keys
	return [][]key.Binding{
		k.moves(),
		{k.Left, k.Right, k.Moment, k.Compare, k.Focus, k.Sort},
		k.global(),
	}
}

func (s *statePane) View() string {
	lines := s.headLines()
	if s.compare {
		return strings.Join(append(lines, s.compareView(s.height-len(lines))...), "\n")
	}
	head := "THREADS at " + s.ix.full[s.moment] + " (" + itoa(len(s.threads))
	if w := s.weight; w != len(s.threads) {
		head = "THREADS at " + s.ix.full[s.moment] + " (" + words.Plural(len(s.threads), "stack") + ", " + itoa(w) + " goroutines"
	}
	if s.query != "" {
		head += " matching " + `"` + s.query + `"`
	}
	head += ") · sort: " + stateSorts[s.sortBy] + " · " + presenceLegend
	lines = append(lines, s.st.header.Render(cut(head, s.width)))
	lh := s.listHeight()
	start, end := s.list.window(len(s.threads), lh)
	for i, row := range s.threadRows(s.threads[start:end]) {
		if start+i == s.list.cursor && !s.focusStack {
			lines = append(lines, s.st.selected.Render(fit("› "+row, s.width)))
		} else {
			lines = append(lines, "  "+row)
		}
	}
	for i := end - start; i < lh; i++ {
		lines = append(lines, "")
	}
	t := s.selected()
	if t == nil {
		return strings.Join(append(lines, s.st.dim.Render("no "+s.ix.unit+" to show")), "\n")
	}
	what := "STACK of " + threadRow(t)
	if t == s.stackAt(s.moment) {
		what += " (representative)"
	}
	if s.focusStack {
		what = "↕ " + what
	}
	lines = append(lines, s.st.header.Render(cut(what, s.width)))
	lines = append(lines, s.stack.render(s.stackRoom(), s.width, s.focusStack, s.st)...)
	return strings.Join(lines, "\n")
}

// frameCell is a frame's text for a column of w cells: whole when it fits,
// else shortened as the reports shorten frames (class or receiver and
// method, and the line: "UpstreamClient.fetch:25"), so the method and its
// line survive a narrow column.
func frameCell(text string, w int) string {
	if width(text) <= w || text == "" {
		return text
	}
	return report.ShortFrame(text)
}

// compareView shows the representative stacks at cmpFrom and moment: side
// by side when the screen is wide enough, else as a diff.
func (s *statePane) compareView(room int) []string {
	// The heading names the sides as the moment bar does; the columns
	// of the side-by-side view by their full labels.
	a, b := s.ix.labels[s.cmpFrom], s.ix.labels[s.moment]
	head := "COMPARE representative stacks: " + a + " (left, fixed) ⇄ " + b + " (←/→) · c closes"
	if s.follow {
		head = "COMPARE " + s.cmpName() + " · " + a + s.stateAt(s.cmpFrom) + " ⇄ " + b + s.stateAt(s.moment) + " (←/→) · c closes"
	}
	lines := []string{s.st.header.Render(cut(head, s.width))}
	if empty := s.emptySide(); empty != "" {
		return append(lines, s.st.dim.Render(cut("  "+empty, s.width)))
	}
	same, left, right := 0, 0, 0
	for _, op := range s.diff {
		switch op.Kind {
		case ' ':
			same++
		case '-':
			left++
		case '+':
			right++
		}
	}
	sum := itoa(same) + " frames in both"
	if left+right == 0 && same > 0 {
		sum = "the same " + words.Plural(same, "frame") + " at both moments"
	} else {
		sum += ", " + itoa(left) + " only at " + a + ", " + itoa(right) + " only at " + b
	}
	lines = append(lines, cut(sum, s.width))
	side := s.width >= 100
	colW := (s.width - 5) / 2
	if side {
		lines = append(lines, s.st.dim.Render("  "+fitMiddle(s.ix.full[s.cmpFrom], colW)+" │ "+cutMiddle(s.ix.full[s.moment], colW)))
	}
	// Each side's culprit is marked ◀, as the stack view marks it: the
	// group's, or the followed thread's group's at that moment.
	lmk, rmk := marksOf(s.gi.g, s.cmpFrom), marksOf(s.gi.g, s.moment)
	if s.follow {
		lmk, rmk = marksOf(s.ix.threadAt(s.cmpFrom, s.cmpKey).g, s.cmpFrom), marksOf(s.ix.threadAt(s.moment, s.cmpKey).g, s.moment)
	}
	culprit := func(f *parse.Frame, mk marks, text string, w int) string {
		if f != nil && matchesAny(f, mk.culprits) {
			return frameCell(text, w-2) + " ◀"
		}
		return frameCell(text, w)
	}
	var ops []string
	for _, op := range s.diff {
		var l string
		if side {
			mark := "  "
			if op.Kind != ' ' {
				mark = string(op.Kind) + " "
			} else if op.Left != op.Right {
				mark = "~ "
			}
			// A frame too long for its column loses its middle, not
			// its end: the file and line stay.
			l = mark + fitMiddle(culprit(op.LF, lmk, op.Left, colW), colW) + " │ " + cutMiddle(culprit(op.RF, rmk, op.Right, colW), colW)
		} else {
			l = cut(op.Text(), s.width)
			if op.RF != nil && matchesAny(op.RF, rmk.culprits) || op.RF == nil && op.LF != nil && matchesAny(op.LF, lmk.culprits) {
				l = cut(op.Text(), s.width-2) + " ◀"
			}
		}
		switch op.Kind {
		case '-':
			l = s.st.removed.Render(l)
		case '+':
			l = s.st.added.Render(l)
		}
		ops = append(ops, l)
	}
	v := stackView{lines: make([]stackLine, len(ops)), off: s.diffOff}
	start, end, more := v.window(room - len(lines))
	lines = append(lines, ops[start:end]...)
	if more > 0 {
		lines = append(lines, s.st.dim.Render("  … "+words.Plural(more, "more line")+" (↓)"))
	}
	return lines
}

// cmpName is the followed thread's name, as the thread list says it.
func (s *statePane) cmpName() string {
	for _, k := range []int{s.cmpFrom, s.moment} {
		if t := s.ix.threadAt(k, s.cmpKey).t; t != nil {
			return threadName(t)
		}
	}
	return "the thread"
}

// stateAt is the followed thread's state at moment k, " socket-read",
// with its pool when not this pane's; "" when it is absent.
func (s *statePane) stateAt(k int) string {
	at := s.ix.threadAt(k, s.cmpKey)
	if at.g == nil {
		return " absent"
	}
	st := report.StateName(at.g.State, at.g.Via)
	if at.g.Pool != s.gi.g.Pool {
		st += " in " + at.g.Pool
	}
	return " " + st
}

// emptySide names the moments of the comparison with no thread in the
// state ("no goroutine in this state at before: nothing to compare"); ""
// when both have a stack to compare.
func (s *statePane) emptySide() string {
	var at []string
	for _, k := range []int{s.cmpFrom, s.moment} {
		if s.cmpStack(k) == nil {
			at = append(at, s.ix.full[k])
		}
	}
	if len(at) == 0 {
		return ""
	}
	if s.follow {
		return s.cmpName() + " is not in the dump at " + strings.Join(at, " nor at ") + ": nothing to compare"
	}
	return "no " + s.ix.unit + " in this state at " + strings.Join(at, " nor at ") + ": nothing to compare"
}

// weight is the number of threads ts stand for (aggregated formats give
// one entry per stack).
func weight(ts []*parse.Thread) int {
	n := 0
	for _, t := range ts {
		n += max(1, t.Weight)
	}
	return n
}
