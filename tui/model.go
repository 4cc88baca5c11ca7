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

// screen is what the root model shows; it routes every message by it.
//
//	loading  → overview (loadedMsg) or quit (load error)
//	overview → pool (enter on a pool or finding), state (enter on a finding
//	           about one state), help (?), the next target's overview (t)
//	pool     → state (enter), overview (esc), help (?), the same pool in
//	           the next target, else its overview (t)
//	state    → pool (esc), help (?), the same state in the next target,
//	           else its pool or overview (t)
//	help     → the screen it was opened from (esc, ?, q)
type screen int

const (
	screenLoading screen = iota
	screenOverview
	screenPool
	screenState
	screenHelp
)

// loadedMsg carries the analyses and their indexes (one per captured
// target), all computed in a command.
type loadedMsg struct {
	ixs []*index
	err error
}

// Model is the root of the TUI. Panes are components; the analysis (in ix)
// is read-only.
type Model struct {
	opt    Options
	keys   keyMap
	st     styles
	screen screen
	back   screen // where help returns to
	width  int
	height int

	load    func() ([]*analyze.Result, error)
	spinner spinner.Model
	err     error

	// targets are the analyses shown, one per captured target, cycled by
	// `t`; ix is targets[target], the one on screen.
	targets  []*index
	target   int
	ix       *index
	overview overviewPane
	pool     poolPane
	state    statePane
	help     help.Model

	filter  textinput.Model
	editing bool   // the filter input has the keys
	query   string // the filter in force
	status  string // last export or error, shown in the footer
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
	m.filter.Prompt = "/"
	m.filter.Placeholder = "thread name, frame or state"
	m.filter.CharLimit = 200
	// Wide enough for the placeholder: a zero width cuts it to one letter.
	m.filter.SetWidth(40)
	if opt.NoColor {
		m.help.Styles = help.Styles{}
		m.filter.SetStyles(textinput.Styles{})
	}
	return m
}

// newLoading is the model Run starts with: a spinner while load runs.
func newLoading(load func() ([]*analyze.Result, error), opt Options) Model {
	m := base(opt)
	m.load = load
	m.screen = screenLoading
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
	// `t` answers, and the help lists it, only with several targets.
	m.keys.Target.SetEnabled(len(ixs) > 1)
	m.ix = ixs[0]
	m.screen = screenOverview
	m.overview = newOverviewPane(m.ix, m.st)
	m.overview.refresh(m.query, m.width, m.bodyHeight())
	return m
}

// Init starts the spinner and the load.
func (m Model) Init() tea.Cmd {
	if m.screen != screenLoading {
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

// Update routes msg by screen.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = max(20, msg.Width), max(6, msg.Height)
		m.help.SetWidth(m.width)
		m.refresh()
		return m, nil
	case loadedMsg:
		if msg.err != nil {
			m.err = msg.err
			return m, tea.Quit
		}
		return m.loaded(msg.ixs), nil
	case spinner.TickMsg:
		if m.screen != screenLoading {
			return m, nil
		}
		var cmd tea.Cmd
		m.spinner, cmd = m.spinner.Update(msg)
		return m, cmd
	case tea.KeyPressMsg:
		return m.key(msg)
	}
	if m.editing {
		var cmd tea.Cmd
		m.filter, cmd = m.filter.Update(msg)
		return m, cmd
	}
	return m, nil
}

// refresh rebuilds the pane on screen for the filter and size in force.
func (m *Model) refresh() {
	h := m.bodyHeight()
	switch m.screen {
	case screenOverview:
		m.overview.refresh(m.query, m.width, h)
	case screenPool:
		m.pool.refresh(m.query, m.width, h)
	case screenState:
		m.state.refresh(m.query, m.width, h)
	case screenHelp:
		m.help.SetWidth(m.width)
	}
}

func (m Model) key(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	if msg.String() == "ctrl+c" {
		return m, tea.Quit
	}
	if m.screen == screenLoading {
		if key.Matches(msg, m.keys.Quit) {
			return m, tea.Quit
		}
		return m, nil
	}
	if m.editing {
		return m.editKey(msg)
	}
	k := m.keys
	switch {
	case key.Matches(msg, k.Quit):
		if m.screen == screenHelp {
			m.screen = m.back
			return m, nil
		}
		return m, tea.Quit
	case key.Matches(msg, k.Help):
		if m.screen == screenHelp {
			m.screen = m.back
		} else {
			m.back, m.screen = m.screen, screenHelp
		}
		return m, nil
	}
	if m.screen == screenHelp {
		if key.Matches(msg, k.Back) {
			m.screen = m.back
		}
		return m, nil
	}
	switch {
	case key.Matches(msg, k.Filter):
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
		m.status = ""
		return m.goBack(), nil
	}
	switch m.screen {
	case screenOverview:
		return m.overviewKey(msg), nil
	case screenPool:
		return m.poolKey(msg), nil
	case screenState:
		return m.stateKey(msg), nil
	}
	return m, nil
}

// editKey feeds the filter input; the filter applies at every keystroke.
func (m Model) editKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	switch msg.String() {
	case "enter":
		m.editing = false
		m.filter.Blur()
		return m, nil
	case "esc":
		m.editing = false
		m.filter.Blur()
		m.filter.SetValue("")
		m.query = ""
		m.refresh()
		return m, nil
	}
	var cmd tea.Cmd
	m.filter, cmd = m.filter.Update(msg)
	if v := m.filter.Value(); v != m.query {
		m.query = v
		m.refresh()
	}
	return m, cmd
}

func (m Model) goBack() Model {
	switch m.screen {
	case screenState:
		m.screen = screenPool
	case screenPool:
		m.screen = screenOverview
	case screenOverview:
		if m.query != "" {
			m.query = ""
			m.filter.SetValue("")
		}
	}
	m.refresh()
	return m
}

// moves handles the cursor keys every list shares.
func (m Model) moves(msg tea.KeyPressMsg, page int, move func(int)) bool {
	k := m.keys
	switch {
	case key.Matches(msg, k.Up):
		move(-1)
	case key.Matches(msg, k.Down):
		move(1)
	case key.Matches(msg, k.PageUp):
		move(-page)
	case key.Matches(msg, k.PageDown):
		move(page)
	case key.Matches(msg, k.Home):
		move(-1 << 30)
	case key.Matches(msg, k.End):
		move(1 << 30)
	default:
		return false
	}
	return true
}

// momentKey returns the moment a key picks (←/→ relative to cur, 1-9
// absolute); ok is false for other keys.
func (m Model) momentKey(msg tea.KeyPressMsg, cur int) (int, bool) {
	switch {
	case key.Matches(msg, m.keys.Left):
		return max(0, cur-1), true
	case key.Matches(msg, m.keys.Right):
		return min(len(m.ix.labels)-1, cur+1), true
	case key.Matches(msg, m.keys.Moment):
		return int(msg.String()[0] - '1'), true
	}
	return 0, false
}

func (m Model) overviewKey(msg tea.KeyPressMsg) Model {
	o := &m.overview
	if m.moves(msg, o.listHeight(), o.moveBy) {
		return m
	}
	switch {
	case key.Matches(msg, m.keys.Sort):
		o.cycleSort()
	case key.Matches(msg, m.keys.Enter):
		r := o.selected()
		if r == nil {
			return m
		}
		switch r.kind {
		case rowInternal:
			o.toggleFold()
		case rowPool:
			m = m.openPool(r.p)
		case rowFinding:
			m = m.openFinding(r.f)
		}
	}
	return m
}

// nextTarget shows the next target's analysis, at the same pool, state and
// moment (by label) when it has them, else at its overview; the status says
// which target is shown, or what it lacks.
func (m Model) nextTarget() Model {
	if len(m.targets) < 2 {
		return m
	}
	from := m.screen
	if from == screenHelp {
		from = m.back
	}
	var pool, state, via, label string
	switch from {
	case screenPool:
		pool, label = m.pool.pi.p.Name, m.ix.labels[m.pool.moment]
	case screenState:
		g := m.state.gi.g
		pool, state, via, label = g.Pool, g.State, g.Via, m.ix.labels[m.state.moment]
	}
	sortBy, unfold := m.overview.sortBy, m.overview.unfold
	m.target = (m.target + 1) % len(m.targets)
	m.ix = m.targets[m.target]
	m.overview = newOverviewPane(m.ix, m.st)
	m.overview.sortBy, m.overview.unfold = sortBy, unfold
	m.screen = screenOverview
	m.refresh()
	m.status = "showing " + m.ix.targetName() + " (" + itoa(m.ix.nth) + " of " + itoa(m.ix.of) + ")"
	if pool == "" {
		return m
	}
	pi := m.ix.poolByName(pool)
	if pi == nil {
		m.status = m.ix.targetName() + " has no pool " + pool
		return m
	}
	m = m.openPool(pi)
	moment := m.ix.momentNamed(label)
	if moment >= 0 {
		m.pool.setMoment(moment)
	}
	if state == "" {
		return m
	}
	gi := pi.groupOf(state, via)
	if gi == nil {
		m.status = m.ix.targetName() + " has no " + stateName(state, via) + " in " + pool
		return m
	}
	m = m.openState(gi, moment)
	m.pool.moment = m.state.moment
	return m
}

func (m Model) openPool(pi *poolInfo) Model {
	m.pool = newPoolPane(m.ix, m.st, pi)
	m.screen = screenPool
	m.refresh()
	return m
}

// openFinding opens the finding's state at its last moment with threads, or
// its pool when it is not about one state.
func (m Model) openFinding(f *analyze.Finding) Model {
	moment := -1
	var sample string
	for _, e := range f.Evidence {
		if e.Count > 0 {
			moment = e.Moment
			if len(e.Threads) > 0 {
				sample = e.Threads[0]
			}
		}
	}
	pi := m.ix.poolByName(f.Pool)
	if pi == nil {
		// A process-wide finding: open the state of its first sample
		// thread, found by name or goroutine id.
		if gi := m.ix.groupOfThread(moment, sample); gi != nil {
			m = m.openPool(gi.pool)
			return m.openState(gi, moment)
		}
		m.status = "this finding is about the whole process: no pool to open"
		return m
	}
	m = m.openPool(pi)
	gi := pi.groupOf(f.State, f.Via)
	if gi == nil {
		return m
	}
	return m.openState(gi, moment)
}

func (m Model) openState(gi *groupInfo, moment int) Model {
	m.state = newStatePane(m.ix, m.st, gi, moment)
	m.screen = screenState
	m.refresh()
	return m
}

func (m Model) poolKey(msg tea.KeyPressMsg) Model {
	p := &m.pool
	if m.moves(msg, p.listHeight(), p.moveBy) {
		return m
	}
	if k, ok := m.momentKey(msg, p.moment); ok {
		p.setMoment(k)
		return m
	}
	switch {
	case key.Matches(msg, m.keys.Sort):
		p.cycleSort()
	case key.Matches(msg, m.keys.Enter):
		if gi := p.selected(); gi != nil {
			m = m.openState(gi, p.moment)
		}
	}
	return m
}

func (m Model) stateKey(msg tea.KeyPressMsg) Model {
	s := &m.state
	if m.moves(msg, s.listHeight(), s.moveBy) {
		return m
	}
	if k, ok := m.momentKey(msg, s.moment); ok {
		s.setMoment(k)
		m.pool.moment = s.moment // esc returns to the same column
		return m
	}
	switch {
	case key.Matches(msg, m.keys.Sort):
		s.cycleSort()
	case key.Matches(msg, m.keys.Compare):
		s.toggleCompare()
	case key.Matches(msg, m.keys.Focus):
		s.toggleFocus()
	}
	return m
}

// View draws the screen on screen: the pane, then the filter or status
// line, then the short help. It reads precomputed rows only.
func (m Model) View() tea.View {
	var lines []string
	switch m.screen {
	case screenLoading:
		lines = []string{"", "  " + m.spinner.View() + " reading and analyzing the dumps…"}
	case screenOverview:
		lines = m.overview.view()
	case screenPool:
		lines = m.pool.view()
	case screenState:
		lines = m.state.view()
	case screenHelp:
		lines = append([]string{m.st.title.Render("dumpdiff · keys"), ""}, strings.Split(m.help.FullHelpView(m.keys.FullHelp()), "\n")...)
	}
	body := m.bodyHeight()
	if len(lines) > body {
		lines = lines[:body]
	}
	for len(lines) < body {
		lines = append(lines, "")
	}
	for i, l := range lines {
		lines[i] = cut(l, m.width)
	}
	var foot string
	switch {
	case m.editing:
		foot = m.filter.View()
	case m.status != "":
		foot = m.st.status.Render(cutStatus(m.status, m.width))
	case m.query != "":
		foot = m.st.dim.Render(cut("filter: "+m.query+"  (/ edits, esc clears)", m.width))
	}
	lines = append(lines, foot, cut(m.help.ShortHelpView(m.keys.shortFor(m.screen, len(m.targets) > 1)), m.width))
	v := tea.NewView(strings.Join(lines, "\n"))
	v.AltScreen = true
	v.WindowTitle = "dumpdiff"
	return v
}
