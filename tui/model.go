package tui

import (
	"errors"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/dumpdiff/dumpdiff/analyze"
)

// loadedMsg carries the analyses and their indexes (one per captured
// target), all computed in a command.
type loadedMsg struct {
	ixs []*index
	err error
}

// Model is the root of the TUI: a stack of panes (components), the one on
// top on screen, and what every screen shares — the filter, the status
// line and the footer generated from the pane's keys. The analysis (in ix)
// is read-only.
type Model struct {
	opt    Options
	keys   *keyMap
	st     styles
	width  int
	height int

	loading bool
	load    func() ([]*analyze.Result, error)
	spinner spinner.Model
	err     error

	// targets are the analyses shown, one per captured target, cycled by
	// `t`; ix is targets[target], the one on screen.
	targets []*index
	target  int
	ix      *index
	// stack are the panes opened, the bottom one the overview; never
	// empty once loaded.
	stack []pane
	help  help.Model

	filter  textinput.Model
	editing bool   // the filter input has the keys
	query   string // the filter in force
	status  string // last export, copy or error, shown in the footer
}

func base(opt Options) Model {
	if opt.Width == 0 || opt.Height == 0 {
		opt.Width, opt.Height = 80, 24
	}
	m := Model{
		opt:    opt,
		keys:   newKeyMap(),
		st:     newStyles(opt.NoColor),
		width:  opt.Width,
		height: opt.Height,
		help:   help.New(),
		filter: textinput.New(),
	}
	m.help.ShortSeparator = "  "
	m.help.SetWidth(m.width)
	m.filter.Prompt = "/"
	m.filter.Placeholder = "thread name, frame or state"
	m.filter.CharLimit = 200
	// Wide enough for the placeholder: a zero width cuts it to one letter.
	m.filter.SetWidth(40)
	// A cursor that does not blink: no timer runs while the filter is
	// open, and every command the TUI returns answers at once.
	fs := m.filter.Styles()
	if opt.NoColor {
		m.help.Styles = help.Styles{}
		fs = textinput.Styles{}
	}
	fs.Cursor.Blink = false
	m.filter.SetStyles(fs)
	return m
}

// newLoading is the model Run starts with: a spinner while load runs.
func newLoading(load func() ([]*analyze.Result, error), opt Options) Model {
	m := base(opt)
	m.load = load
	m.loading = true
	m.spinner = spinner.New(spinner.WithSpinner(spinner.Dot))
	return m
}

// New returns the TUI showing the overview of r (for tests and callers that
// already hold the analysis). It builds the index synchronously.
func New(r *analyze.Result, opt Options) Model { return NewMany([]*analyze.Result{r}, opt) }

// NewMany returns the TUI showing the overview of rs[0], one analysis per
// captured target; `t` shows the next. rs must not be empty.
func NewMany(rs []*analyze.Result, opt Options) Model {
	m := base(opt)
	return m.loaded(newIndexes(rs))
}

// newIndexes indexes each analysis and numbers them for the header.
func newIndexes(rs []*analyze.Result) []*index {
	ixs := make([]*index, len(rs))
	for i, r := range rs {
		ixs[i] = newIndex(r)
		ixs[i].nth, ixs[i].of = i+1, len(rs)
	}
	return ixs
}

func (m Model) loaded(ixs []*index) Model {
	m.targets, m.target = ixs, 0
	m.loading = false
	// `t` answers, and the help lists it, only with several targets.
	m.keys.Target.SetEnabled(len(ixs) > 1)
	m.ix = ixs[0]
	m.stack = []pane{newOverviewPane(m.common())}
	return m
}

// common is what the bottom pane of the stack starts from.
func (m Model) common() common {
	return common{ix: m.ix, st: m.st, keys: m.keys, width: m.width, height: m.bodyHeight(), query: m.query}
}

// Init starts the spinner and the load.
func (m Model) Init() tea.Cmd {
	if !m.loading {
		return nil
	}
	load := m.load
	return tea.Batch(m.spinner.Tick, func() tea.Msg {
		rs, err := load()
		if err != nil {
			return loadedMsg{err: err}
		}
		if len(rs) == 0 {
			return loadedMsg{err: errors.New("no analysis to show")}
		}
		return loadedMsg{ixs: newIndexes(rs)}
	})
}

// bodyHeight is the height left to a pane above the two footer lines.
func (m Model) bodyHeight() int { return max(3, m.height-2) }

// top is the pane on screen.
func (m Model) top() pane { return m.stack[len(m.stack)-1] }

// screen is the screen on top.
func (m Model) screen() screen {
	if m.loading || len(m.stack) == 0 {
		return screenLoading
	}
	return m.top().kind()
}

// Update routes msg: what every screen shares here (size, load, status,
// navigation, the global keys), the rest once to the pane on top.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	// Copy on write: the panes are updated in place, the Model value the
	// caller holds keeps its own.
	m.stack = cloneStack(m.stack)
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = max(20, msg.Width), max(6, msg.Height)
		m.help.SetWidth(m.width)
		if len(m.stack) > 0 {
			m.top().SetSize(m.width, m.bodyHeight())
		}
		return m, nil
	case loadedMsg:
		if msg.err != nil {
			m.err = msg.err
			return m, tea.Quit
		}
		return m.loaded(msg.ixs), nil
	case spinner.TickMsg:
		if !m.loading {
			return m, nil
		}
		var cmd tea.Cmd
		m.spinner, cmd = m.spinner.Update(msg)
		return m, cmd
	case statusMsg:
		m.status = string(msg)
		return m, nil
	case openMsg:
		m.stack = append(m.stack, msg.p)
		return m, nil
	case tea.KeyPressMsg:
		return m.key(msg)
	case tea.MouseClickMsg, tea.MouseWheelMsg:
		if m.loading || m.editing || msg.(tea.MouseMsg).Mouse().Y >= m.bodyHeight() {
			return m, nil
		}
		return m.route(msg)
	}
	if m.editing {
		var cmd tea.Cmd
		m.filter, cmd = m.filter.Update(msg)
		return m, cmd
	}
	return m, nil
}

// footer is the one-line help of keys: when it is wider than the screen
// it drops keys from its end, but the last one (help, which lists them
// all), instead of cutting one.
func (m Model) footer(keys []key.Binding) string {
	h := m.help
	h.SetWidth(0)
	for len(keys) > 2 && width(h.ShortHelpView(keys)) > m.width {
		keys = append(keys[:len(keys)-2:len(keys)-2], keys[len(keys)-1])
	}
	return cut(h.ShortHelpView(keys), m.width)
}

func cloneStack(s []pane) []pane {
	out := make([]pane, len(s))
	for i, p := range s {
		out[i] = p.clone()
	}
	return out
}

// route gives msg to the pane on top.
func (m Model) route(msg tea.Msg) (tea.Model, tea.Cmd) {
	p, cmd := m.top().Update(msg)
	m.stack[len(m.stack)-1] = p
	return m, cmd
}

func (m Model) key(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := m.keys
	if key.Matches(msg, k.ForceQuit) {
		return m, tea.Quit
	}
	if m.loading {
		if key.Matches(msg, k.Quit) {
			return m, tea.Quit
		}
		return m, nil
	}
	if m.editing {
		return m.editKey(msg)
	}
	m.status = ""
	s := m.screen()
	if s == screenHelp {
		if key.Matches(msg, k.Back, k.Help, k.Quit) {
			m = m.pop()
		}
		return m, nil
	}
	switch {
	case key.Matches(msg, k.Quit):
		return m, tea.Quit
	case key.Matches(msg, k.Help):
		c := m.top().base().child("close")
		m.stack = append(m.stack, newHelpPane(c, m.top(), m.help))
		return m, nil
	case key.Matches(msg, k.Filter) && s.filters():
		m.editing = true
		m.filter.SetValue(m.query)
		m.filter.CursorEnd()
		return m, m.filter.Focus()
	case key.Matches(msg, k.Export):
		m.status = m.export()
		return m, nil
	case key.Matches(msg, k.Target):
		return m.nextTarget(), nil
	case key.Matches(msg, k.Back):
		return m.back(), nil
	}
	return m.route(msg)
}

// back is esc: it closes the pane on top; on the overview, at the bottom,
// it clears the filter in force. As backKey says.
func (m Model) back() Model {
	if len(m.stack) == 1 && m.query != "" {
		m.query = ""
		m.filter.SetValue("")
		m.top().SetFilter("")
		return m
	}
	return m.pop()
}

// pop closes the pane on top (never the bottom one); the pane below takes
// the size and filter in force.
func (m Model) pop() Model {
	if len(m.stack) < 2 {
		return m
	}
	m.stack = m.stack[:len(m.stack)-1]
	m.top().SetFilter(m.query)
	m.top().SetSize(m.width, m.bodyHeight())
	return m
}

// editKey feeds the filter input; the filter applies at every keystroke.
func (m Model) editKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	switch {
	case key.Matches(msg, m.keys.Accept):
		m.editing = false
		m.filter.Blur()
		return m, nil
	case key.Matches(msg, m.keys.Cancel):
		m.editing = false
		m.filter.Blur()
		m.filter.SetValue("")
		m.query = ""
		m.top().SetFilter("")
		return m, nil
	}
	var cmd tea.Cmd
	m.filter, cmd = m.filter.Update(msg)
	if v := m.filter.Value(); v != m.query {
		m.query = v
		m.top().SetFilter(v)
	}
	return m, cmd
}

// nextTarget shows the next target's analysis, at the same pool, state and
// moment (by label), or the same finding, when it has them, else at its
// overview; the status says which target is shown, or what it lacks.
func (m Model) nextTarget() Model {
	if len(m.targets) < 2 {
		return m
	}
	var pool, state, via, label, finding string
	for _, p := range m.stack {
		switch p := p.(type) {
		case *poolPane:
			pool, label = p.pi.p.Name, m.ix.full[p.moment]
		case *statePane:
			g := p.gi.g
			pool, state, via, label = g.Pool, g.State, g.Via, m.ix.full[p.moment]
		case *detailPane:
			finding = p.f.ID
		}
	}
	old := m.stack[0].(*overviewPane)
	m.target = (m.target + 1) % len(m.targets)
	m.ix = m.targets[m.target]
	ov := newOverviewPane(m.common())
	ov.sortBy, ov.unfold = old.sortBy, old.unfold
	ov.refresh()
	m.stack = []pane{ov}
	m.status = "showing " + m.ix.targetName() + " (" + itoa(m.ix.nth) + " of " + itoa(m.ix.of) + ")"
	if pool == "" {
		if f := m.ix.findingByID(finding); f != nil {
			m.stack = append(m.stack, newDetailPane(ov.child("findings"), f))
		} else if finding != "" {
			m.status = m.ix.targetName() + " has no finding " + finding
		}
		return m
	}
	pi := m.ix.poolByName(pool)
	if pi == nil {
		m.status = m.ix.targetName() + " has no pool " + pool
		return m
	}
	pp := newPoolPane(ov.child("overview"), pi)
	m.stack = append(m.stack, pp)
	moment := m.ix.momentNamed(label)
	if moment >= 0 {
		pp.setMoment(moment)
	}
	if state == "" {
		return m
	}
	gi := pi.groupOf(state, via)
	if gi == nil {
		m.status = m.ix.targetName() + " has no " + stateName(state, via) + " in " + pool
		return m
	}
	sp := newStatePane(pp.child("pool"), gi, moment)
	pp.moment = sp.moment
	m.stack = append(m.stack, sp)
	return m
}

// View draws the pane on top, then the filter or status line, then the
// footer generated from the pane's keys. It reads precomputed rows only.
// A status longer than a line (a long path, an error) wraps upward over
// the pane: it is never cut.
func (m Model) View() tea.View {
	var lines []string
	if m.loading {
		lines = []string{"", "  " + m.spinner.View() + " reading and analyzing the dumps…"}
	} else {
		lines = strings.Split(m.top().View(), "\n")
	}
	body := m.bodyHeight()
	if len(lines) > body {
		lines = lines[:body]
	}
	for len(lines) < body {
		lines = append(lines, "")
	}
	for i, l := range lines {
		lines[i] = cut(inert(l), m.width)
	}
	var foot []string
	switch {
	case m.editing:
		foot = []string{m.filter.View()}
	case m.status != "":
		for _, l := range wrap(m.status, m.width, "  ") {
			foot = append(foot, m.st.status.Render(l))
		}
	case m.query != "" && len(m.stack) == 1:
		foot = []string{m.st.dim.Render(cut("filter: "+m.query+"  (/ edits, esc clears)", m.width))}
	case m.query != "" && m.screen().filters():
		foot = []string{m.st.dim.Render(cut("filter: "+m.query+"  (/ edits, / then esc clears)", m.width))}
	case m.query != "":
		foot = []string{m.st.dim.Render(cut("filter: "+m.query+"  (on the lists)", m.width))}
	default:
		foot = []string{""}
	}
	if n := len(foot) - 1; n > 0 {
		lines = lines[:max(0, body-n)]
	}
	for _, l := range foot { // a status or a filter may quote a dump
		lines = append(lines, inert(l))
	}
	var keys []key.Binding
	if !m.loading {
		keys = m.top().ShortHelp()
	} else {
		keys = []key.Binding{short(m.keys.Quit, "quit")}
	}
	lines = append(lines, m.footer(keys))
	v := tea.NewView(strings.Join(lines, "\n"))
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "dumpdiff"
	return v
}
