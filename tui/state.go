package tui

import (
	"cmp"
	"slices"
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
	"github.com/dumpdiff/dumpdiff/report"
)

// stateSorts are the orders of the thread list, cycled by `s`.
var stateSorts = []string{"dump order", "name", "id"}

// statePane is one group (a pool in one state): the threads in it at the
// selected moment, which of them are in it at the other moments, and the
// stack of the selected thread; or, with `c`, the group's representative
// stacks at two moments side by side (wide) or as a diff (narrow).
type statePane struct {
	ix      *index
	st      styles
	gi      *groupInfo
	moment  int
	sortBy  int
	query   string
	width   int
	height  int
	threads []*parse.Thread // at moment, filtered and sorted by refresh
	// same[k] is how many threads of the group at moment are in the group
	// at moment k too (by identity); -1 when identity is unknown.
	same []int
	list cursorList
	// groups are the group's identical-stack groups at moment, largest
	// first (report.StackGroups: the reports describe them the same way).
	groups []report.StackGroup
	// focusStack sends the cursor keys to the stack (tab) instead of the
	// thread list; stackOff is the first stack line shown. In a comparison
	// the cursor keys always scroll it.
	focusStack bool
	stackOff   int
	compare    bool
	cmpFrom    int      // left moment of the comparison
	diff       []diffOp // representative stacks at cmpFrom and moment
}

// newStatePane opens gi at moment, or at its largest moment when it has no
// thread there.
func newStatePane(ix *index, st styles, gi *groupInfo, moment int) statePane {
	c := gi.g.Counts
	if moment < 0 || moment >= len(c) || c[moment] == 0 {
		moment = 0
		for i := range c {
			if c[i] >= c[moment] {
				moment = i
			}
		}
	}
	return statePane{ix: ix, st: st, gi: gi, moment: moment}
}

// refresh filters and sorts the threads at the moment and counts the same
// threads at the other moments: one pass over the group's threads there.
func (s *statePane) refresh(query string, w, h int) {
	s.query, s.width, s.height = query, w, h
	var keep *parse.Thread
	if s.list.cursor < len(s.threads) {
		keep = s.threads[s.list.cursor]
	}
	g := s.gi.g
	var all []*parse.Thread
	if s.moment < len(g.Threads) {
		all = g.Threads[s.moment]
	}
	mt := newMatcher(query)
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
	var rep *parse.Thread
	if s.moment < len(g.Stacks) {
		rep = g.Stacks[s.moment]
	}
	switch stateSorts[s.sortBy] {
	case "name":
		slices.SortStableFunc(s.threads, func(a, b *parse.Thread) int {
			return cmp.Or(naturalCompare(a.Name, b.Name), cmp.Compare(a.ID, b.ID))
		})
	case "id":
		slices.SortStableFunc(s.threads, func(a, b *parse.Thread) int { return cmp.Compare(a.ID, b.ID) })
	default:
		if i := slices.Index(s.threads, rep); i > 0 {
			s.threads = slices.Insert(slices.Delete(s.threads, i, i+1), 0, rep)
		}
	}

	s.groups = report.StackGroups(g, s.moment)
	s.same = make([]int, len(s.ix.labels))
	for k := range s.same {
		where := s.ix.where[k]
		n := 0
		for _, t := range all {
			key, ok := keyOf(t)
			if !ok {
				n = -1
				break
			}
			if where[key] == g {
				n++
			}
		}
		s.same[k] = n
	}

	s.list.cursor = 0
	if keep != nil {
		if i := slices.Index(s.threads, keep); i >= 0 {
			s.list.cursor = i
		}
	}
	s.list.scroll(len(s.threads), s.listHeight())
	if s.compare {
		s.diff = diffStacks(s.stackAt(s.cmpFrom), s.stackAt(s.moment))
	}
}

// stackAt is the group's representative thread at moment m; nil if none.
func (s *statePane) stackAt(m int) *parse.Thread {
	if m >= 0 && m < len(s.gi.g.Stacks) {
		return s.gi.g.Stacks[m]
	}
	return nil
}

// listHeight is the number of thread rows: a third of what is left under
// the five header lines and the stack groups, at least three, fewer when
// fewer threads are shown (the stack gets the rest).
func (s *statePane) listHeight() int {
	return min(max(3, (s.height-6-len(s.groupLines()))/3), max(1, len(s.threads)))
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
	at := s.ix.labels[s.moment]
	if len(sgs) == 1 {
		if sgs[0].Count == 1 {
			return []string{"IDENTICAL STACKS at " + at + ": one " + s.ix.unit}
		}
		return []string{"IDENTICAL STACKS at " + at + ": one stack, all " + itoa(sgs[0].Count) + " identical"}
	}
	lines := []string{"IDENTICAL STACKS at " + at + ": " + itoa(len(sgs)) + " groups"}
	w := len(itoa(sgs[0].Count))
	for i, sg := range sgs {
		if i == s.maxGroupLines() && len(sgs) > i+1 {
			rest := 0
			for _, o := range sgs[i:] {
				rest += o.Count
			}
			lines = append(lines, "  … "+plural(len(sgs)-i, "more group")+" ("+itoa(rest)+")")
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

func (s *statePane) moveBy(delta int) {
	if s.compare || s.focusStack {
		n := len(s.diff)
		if !s.compare {
			lines, _ := stackLines(s.selected(), s.gi.g.Culprit)
			n = len(lines)
		}
		s.stackOff = min(max(0, s.stackOff+delta), max(0, n-1))
		return
	}
	before := s.list.cursor
	s.list.move(delta, len(s.threads), nil)
	s.list.scroll(len(s.threads), s.listHeight())
	if s.list.cursor != before {
		s.stackOff = 0
	}
}

// toggleFocus moves the cursor keys between the thread list and the stack.
func (s *statePane) toggleFocus() { s.focusStack = !s.focusStack }

// window is the part [start, end) of n lines shown in room lines from the
// stack offset; more > 0 when lines are left below (the last line of room
// then says so).
func (s statePane) window(n, room int) (start, end, more int) {
	if room <= 0 {
		return 0, 0, 0
	}
	start = min(s.stackOff, max(0, n-room))
	end = min(n, start+room)
	if end < n {
		end--
		more = n - end
	}
	return start, end, more
}

func (s statePane) moreLine(more int) string {
	return s.st.dim.Render("  … " + plural(more, "more line") + " (tab, then ↓)")
}

func (s *statePane) setMoment(m int) {
	if m < 0 || m >= len(s.ix.labels) || m == s.moment {
		return
	}
	s.moment = m
	s.list = cursorList{}
	s.stackOff = 0
	s.threads = nil
	s.refresh(s.query, s.width, s.height)
}

func (s *statePane) cycleSort() {
	s.sortBy = (s.sortBy + 1) % len(stateSorts)
	s.refresh(s.query, s.width, s.height)
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
	s.stackOff = 0
	other := -1
	for k := s.moment - 1; k >= 0 && other < 0; k-- {
		if s.stackAt(k) != nil {
			other = k
		}
	}
	for k := s.moment + 1; k < len(s.ix.labels) && other < 0; k++ {
		if s.stackAt(k) != nil {
			other = k
		}
	}
	if other < 0 {
		other = (s.moment + 1) % max(1, len(s.ix.labels))
	}
	s.moment = other
	s.list = cursorList{}
	s.refresh(s.query, s.width, s.height)
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

// momentBar is "before 0 │ [during-1 190] │ after 200".
func (s *statePane) momentBar() (plain, styled string) {
	var p, st []string
	for k, l := range s.ix.labels {
		c := 0
		if k < len(s.gi.g.Counts) {
			c = s.gi.g.Counts[k]
		}
		cell := l + " " + itoa(c)
		if k < 9 {
			cell = itoa(k+1) + ":" + cell
		}
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
	return strings.Join(p, " │ "), strings.Join(st, " │ ")
}

// sameLine says how many of the threads here are the very same threads in
// this state at the other moments.
func (s *statePane) sameLine() string {
	all := 0
	if s.moment < len(s.gi.g.Threads) {
		all = len(s.gi.g.Threads[s.moment])
	}
	if all == 0 {
		return "no thread in this state at " + s.ix.labels[s.moment]
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
		return plural(all, s.ix.unit) + " at " + s.ix.labels[s.moment]
	}
	return "same " + s.ix.unit + "s in this state: " + strings.Join(parts, " · ") + " (of " + itoa(all) + ")"
}

// presence is one mark per moment for thread t: ● in this state, ○ in the
// dump in another state, · not in the dump.
func (s *statePane) presence(t *parse.Thread) string {
	key, ok := keyOf(t)
	if !ok {
		return ""
	}
	var b strings.Builder
	for k := range s.ix.labels {
		switch g := s.ix.where[k][key]; {
		case g == s.gi.g:
			b.WriteString("●")
		case g != nil:
			b.WriteString("○")
		default:
			b.WriteString("·")
		}
	}
	return b.String()
}

// threadRow is the text of one thread in the list.
func threadRow(t *parse.Thread) string {
	var s string
	if t.Name != "" || t.NativeID != "" {
		s = t.Name
		if t.ID != 0 {
			s += "  #" + itoa(int(t.ID))
		}
		if t.NativeID != "" {
			s += " nid=" + t.NativeID
		}
		if t.State != "" {
			s += "  " + t.State
		}
		if t.StateDetail != "" {
			s += " (" + t.StateDetail + ")"
		}
	} else if t.ID == 0 {
		s = "goroutines sharing this stack"
		if t.State != "" {
			s += "  [" + t.State + "]"
		}
	} else {
		s = "goroutine " + itoa(int(t.ID))
		if t.State != "" {
			s += "  [" + t.State
			if t.WaitMinutes > 0 {
				s += ", " + itoa(t.WaitMinutes) + " minutes"
			}
			s += "]"
		}
	}
	if t.Weight > 1 {
		s += "  ×" + itoa(t.Weight)
	}
	return s
}

func (s statePane) view() []string {
	g := s.gi.g
	plainBar, bar := s.momentBar()
	if width(plainBar) > s.width {
		bar = cut(plainBar, s.width)
	}
	lines := []string{
		s.st.title.Render(cut(s.ix.titlePrefix(true)+s.title(), s.width)),
		bar,
		s.st.dim.Render(cut(orDash(g.Explain), s.width)),
		cut(s.sameLine(), s.width),
	}
	if s.compare {
		return append(lines, s.compareView(s.height-len(lines))...)
	}
	for i, l := range s.groupLines() {
		if i == 0 {
			lines = append(lines, s.st.header.Render(cut(l, s.width)))
		} else {
			lines = append(lines, cut(l, s.width))
		}
	}
	head := "THREADS at " + s.ix.labels[s.moment] + " (" + itoa(len(s.threads))
	if w := weight(s.threads); w != len(s.threads) {
		head = "THREADS at " + s.ix.labels[s.moment] + " (" + plural(len(s.threads), "stack") + ", " + itoa(w) + " goroutines"
	}
	if s.query != "" {
		head += " matching " + `"` + s.query + `"`
	}
	head += ") · sort: " + stateSorts[s.sortBy] + " · ● here ○ other state · absent"
	lines = append(lines, s.st.header.Render(cut(head, s.width)))
	lh := s.listHeight()
	start, end := s.list.window(len(s.threads), lh)
	for i := start; i < end; i++ {
		t := s.threads[i]
		marks := s.presence(t)
		row := fit(threadRow(t), s.width-2-width(marks)-1) + " " + marks
		if i == s.list.cursor {
			lines = append(lines, s.st.selected.Render("› "+row))
		} else {
			lines = append(lines, "  "+row)
		}
	}
	for i := end - start; i < lh; i++ {
		lines = append(lines, "")
	}
	t := s.selected()
	if t == nil {
		return append(lines, s.st.dim.Render("no thread to show"))
	}
	what := "STACK of " + threadRow(t)
	if t == s.stackAt(s.moment) {
		what += " (representative)"
	}
	if s.focusStack {
		what = "↕ " + what
	}
	lines = append(lines, s.st.header.Render(cut(what, s.width)))
	stack, at := stackLines(t, g.Culprit)
	start, end, more := s.window(len(stack), s.height-len(lines))
	for i := start; i < end; i++ {
		l := cut("  "+stack[i], s.width)
		if i == at {
			l = s.st.culprit.Render(l)
		}
		lines = append(lines, l)
	}
	if more > 0 {
		lines = append(lines, s.moreLine(more))
	}
	return lines
}

// compareView shows the representative stacks at cmpFrom and moment: side
// by side when the screen is wide enough, else as a diff.
func (s statePane) compareView(room int) []string {
	a, b := s.ix.labels[s.cmpFrom], s.ix.labels[s.moment]
	lines := []string{s.st.header.Render(cut("COMPARE representative stacks: "+a+" (left, fixed) ⇄ "+b+" (←/→) · c closes", s.width))}
	if empty := s.emptySide(); empty != "" {
		return append(lines, s.st.dim.Render(cut("  "+empty, s.width)))
	}
	same, left, right := 0, 0, 0
	for _, op := range s.diff {
		switch op.kind {
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
		sum = "the same " + plural(same, "frame") + " at both moments"
	} else {
		sum += ", " + itoa(left) + " only at " + a + ", " + itoa(right) + " only at " + b
	}
	lines = append(lines, cut(sum, s.width))
	side := s.width >= 100
	colW := (s.width - 5) / 2
	if side {
		lines = append(lines, s.st.dim.Render("  "+fit(a, colW)+" │ "+b))
	}
	var ops []string
	for _, op := range s.diff {
		var l string
		if side {
			mark := "  "
			if op.kind != ' ' {
				mark = string(op.kind) + " "
			} else if op.left != op.right {
				mark = "~ "
			}
			l = mark + fit(op.left, colW) + " │ " + cut(op.right, colW)
		} else {
			text := op.left
			if op.kind == '+' {
				text = op.right
			} else if op.kind == ' ' && op.left != op.right {
				text = op.left + " → " + op.right
			}
			l = cut(string(op.kind)+" "+text, s.width)
		}
		switch op.kind {
		case '-':
			l = s.st.removed.Render(l)
		case '+':
			l = s.st.added.Render(l)
		}
		ops = append(ops, l)
	}
	start, end, more := s.window(len(ops), room-len(lines))
	lines = append(lines, ops[start:end]...)
	if more > 0 {
		lines = append(lines, s.moreLine(more))
	}
	return lines
}

// emptySide names the moments of the comparison with no thread in the
// state ("no goroutine in this state at before: nothing to compare"); ""
// when both have a stack to compare.
func (s *statePane) emptySide() string {
	var at []string
	for _, k := range []int{s.cmpFrom, s.moment} {
		if s.stackAt(k) == nil {
			at = append(at, s.ix.labels[k])
		}
	}
	if len(at) == 0 {
		return ""
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

// naturalCompare orders "exec-2" before "exec-10".
func naturalCompare(a, b string) int {
	for a != "" && b != "" {
		da, db := digits(a), digits(b)
		if da > 0 && db > 0 {
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if c := cmp.Or(cmp.Compare(len(na), len(nb)), strings.Compare(na, nb)); c != 0 {
				return c
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return cmp.Compare(a[0], b[0])
		}
		a, b = a[1:], b[1:]
	}
	return cmp.Compare(len(a), len(b))
}

func digits(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}
