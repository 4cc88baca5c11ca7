package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/internal/words"
	"github.com/dumpdiff/dumpdiff/parse"
	"github.com/dumpdiff/dumpdiff/report"
)

// cyclePane is a deadlock's cycle: only the threads in it (not those that
// merely wait on it), each with the lock it waits for and the thread that
// holds it, and the selected thread's stack with its lock lines.
type cyclePane struct {
	common
	f       *analyze.Finding
	threads []*parse.Thread // per cycle member; nil when not in the dump
	list    cursorList
	focus   bool // the cursor keys go to the stack
	stack   stackView
}

func newCyclePane(c common, f *analyze.Finding) *cyclePane {
	p := &cyclePane{common: c, f: f}
	for _, m := range f.Cycle {
		p.threads = append(p.threads, c.ix.threadNamed(f.At, m.Name))
	}
	p.showSelected()
	return p
}

func (p *cyclePane) kind() screen     { return screenCycle }
func (p *cyclePane) backName() string { return "cycle" }
func (p *cyclePane) clone() pane      { c := *p; return &c }

func (p *cyclePane) SetSize(w, h int) { p.width, p.height = w, h }

// SetFilter keeps the query for the footer: a cycle is shown whole.
func (p *cyclePane) SetFilter(q string) { p.query = q }

func (p *cyclePane) showSelected() {
	i := p.list.cursor
	p.stack.show(p.threads[i], marks{culprits: []string{p.f.Cycle[i].Culprit}})
}

// headLines are the title, what waits on the cycle besides, and the
// list's header.
func (p *cyclePane) headLines() []string {
	var names []string
	for _, m := range p.f.Cycle {
		names = append(names, m.Name)
	}
	names = append(names, p.f.Cycle[0].Name)
	title := "DEADLOCK CYCLE of " + words.Plural(len(p.f.Cycle), p.ix.unit) + " at " + p.ix.full[p.f.At] + " · " + strings.Join(names, " → ")
	lines := []string{p.st.title.Render(cut(p.ix.titlePrefix(true)+title, p.width))}
	note := "each waits for a lock the next one holds"
	if n := len(p.f.Blocked); n > 0 {
		note += " · " + words.Plural(n, "more "+p.ix.unit) + " wait on the cycle without being in it (not listed)"
	}
	for _, l := range wrap(note, p.width, "  ") {
		lines = append(lines, p.st.dim.Render(l))
	}
	return append(lines, p.st.header.Render(cut("THREADS OF THE CYCLE ("+itoa(len(p.f.Cycle))+")", p.width)))
}

// shown is how many members are listed at once: all of them, unless the
// cycle is so long that the stack would get fewer than six lines.
func (p *cyclePane) shown() int {
	return min(len(p.f.Cycle), max(1, (p.height-len(p.headLines())-7)/2))
}

// rowsHeight is the lines the members listed take: two each.
func (p *cyclePane) rowsHeight() int { return 2 * p.shown() }

// stackRoom is the stack's lines under its header.
func (p *cyclePane) stackRoom() int {
	return max(0, p.height-len(p.headLines())-p.rowsHeight()-1)
}

// memberLines are a member's two lines: who waits for which lock held by
// whom, then the lock's class and where the thread is.
func (p *cyclePane) memberLines(i int) (string, string) {
	m := p.f.Cycle[i]
	rest := ""
	if w := m.WaitsFor; w != nil {
		rest = "  waits for " + parse.LockShown(orDash(w.Address))
		if w.Holder != "" {
			rest += " held by " + w.Holder
		}
	}
	name := cutMiddle(m.Name, max(12, p.width-2-width(rest)))
	var detail []string
	if at := orFirst(m.Culprit, m.Frame); at != "" {
		detail = append(detail, "at "+report.ShortFrame(at))
	}
	if w := m.WaitsFor; w != nil && w.Class != "" {
		detail = append(detail, "the lock: a "+w.Class)
	}
	if p.threads[i] == nil {
		detail = append(detail, "not found in the dump")
	}
	return name + rest, strings.Join(detail, " · ")
}

// Update moves between the members (or in the stack, after tab), copies
// with y, and answers the mouse.
func (p *cyclePane) Update(msg tea.Msg) (pane, tea.Cmd) {
	k := p.keys
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if d, ok := k.move(msg, p.shown()); ok {
			if p.focus {
				p.stack.move(d, p.stackRoom(), true)
			} else {
				p.moveBy(d)
			}
			return p, nil
		}
		switch {
		case key.Matches(msg, k.Focus):
			p.focus = !p.focus
			p.stack.follow(p.stackRoom())
		case key.Matches(msg, k.Copy):
			text, what := p.stack.copyText(p.focus)
			if text == "" {
				return p, status("this thread is not in the dump: nothing to copy")
			}
			return p, copyCmd(text, what)
		}
	case tea.MouseWheelMsg:
		if msg.Y >= len(p.headLines())+p.rowsHeight() {
			p.stack.move(wheelDelta(msg), p.stackRoom(), false)
		} else {
			p.moveBy(wheelDelta(msg))
		}
	case tea.MouseClickMsg:
		if msg.Button != tea.MouseLeft {
			break
		}
		top := len(p.headLines())
		switch y := msg.Y; {
		case y >= top && y < top+p.rowsHeight():
			start, _ := p.list.window(len(p.f.Cycle), p.shown())
			p.focus = false
			p.list.cursor = start + (y-top)/2
			p.showSelected()
		case y > top+p.rowsHeight():
			if i, ok := p.stack.at(y-top-p.rowsHeight()-1, p.stackRoom()); ok {
				p.focus = true
				p.stack.cur = i
			}
		}
	}
	return p, nil
}

func (p *cyclePane) moveBy(d int) {
	p.list.move(d, len(p.f.Cycle), nil)
	p.list.scroll(len(p.f.Cycle), p.shown())
	p.showSelected()
}

// ShortHelp is the cycle's footer.
func (p *cyclePane) ShortHelp() []key.Binding {
	k := p.keys
	b := []key.Binding{p.backKey(), short(k.Down, "thread"), short(k.Focus, "stack")}
	return append(b, p.globalKeys(p.kind(), true)...)
}

// FullHelp is the help screen of the cycle.
func (p *cyclePane) FullHelp() [][]key.Binding {
	k := p.keys
	return [][]key.Binding{k.moves(), {k.Focus}, k.global()}
}

func (p *cyclePane) View() string {
	lines := p.headLines()
	start, end := p.list.window(len(p.f.Cycle), p.shown())
	for i := start; i < end; i++ {
		main, detail := p.memberLines(i)
		if i == p.list.cursor && !p.focus {
			lines = append(lines, p.st.selected.Render(fit("› "+main, p.width)))
		} else {
			lines = append(lines, "  "+main)
		}
		lines = append(lines, p.st.dim.Render(cut("    "+detail, p.width)))
	}
	t := p.threads[p.list.cursor]
	if t == nil {
		return strings.Join(append(lines, p.st.dim.Render("no stack: "+p.f.Cycle[p.list.cursor].Name+" is not in the dump")), "\n")
	}
	what := "STACK of " + threadRow(t)
	if p.focus {
		what = "↕ " + what
	}
	lines = append(lines, p.st.header.Render(cut(what, p.width)))
	lines = append(lines, p.stack.render(p.stackRoom(), p.width, p.focus, p.st)...)
	return strings.Join(lines, "\n")
}
