package tui

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dumpdiff/dumpdiff/internal/words"
)

// pane is one screen of the TUI, in the shape of soft-serve's
// pkg/ui/common.Component: it answers messages, draws itself at the size it
// is given and names its keys (help.KeyMap: the footer and the help screen
// are generated from them). It is not a tea.Model: its View is a part of
// the screen (the lines above the footer), which the root frames into the
// program's tea.View, and it needs no Init.
//
// The root keeps the panes opened as a stack (overview → finding → state
// …), routes each message to the one on top, once, and pops it on esc.
// Panes open other panes by returning an openMsg; they never touch the
// root. Panes are pointers updated in place: the root clones the stack
// before each Update (clone), so that a Model value stays what it was.
type pane interface {
	// Update answers a key, mouse or pane message; the pane returned is
	// the one to keep (the receiver, updated).
	Update(msg tea.Msg) (pane, tea.Cmd)
	// View is the pane's lines, at most the height given to SetSize.
	View() string
	// SetSize gives the pane its room: the terminal's width, and its
	// height less the footer.
	SetSize(width, height int)
	// SetFilter applies the filter in force ("" for none).
	SetFilter(query string)
	help.KeyMap

	// kind names the screen (the footer's esc, tests).
	kind() screen
	// base is the pane's common (promoted from the embedded common).
	base() common
	// backName is how the esc of a pane opened from this one calls it
	// ("findings", "pool").
	backName() string
	clone() pane
}

// screen tells which pane is on top.
//
//	loading  → overview (loadedMsg) or quit (load error)
//	overview → finding (enter on a finding), pool (enter on a pool),
//	           help (?), the next target's overview (t)
//	finding  → state (enter), or cycle (enter on a deadlock with a cycle)
//	cycle    → back to its finding (esc)
//	pool     → state (enter)
//	state    → back to where it was opened from (esc)
//	help     → the screen it was opened from (esc, ?, q)
//
// esc pops the pane; on the overview it clears the filter in force.
type screen int

const (
	screenLoading screen = iota
	screenOverview
	screenFinding
	screenCycle
	screenPool
	screenState
	screenHelp
)

// name is how the help calls screen s.
func (s screen) name() string {
	return [...]string{"loading", "overview", "finding", "cycle", "pool", "state", "help"}[s]
}

// common is what every pane embeds (soft-serve's common.Common): the
// analysis it reads, styles and keys, its size, the filter in force and
// what esc goes back to.
type common struct {
	ix    *index
	st    styles
	keys  *keyMap
	width int
	// height is the pane's room above the footer.
	height int
	query  string
	// back is where esc goes from this pane ("findings", "pool"); "" for
	// the pane at the bottom of the stack.
	back string
}

// child is the common of a pane opened from this one: same analysis, size
// and filter; esc comes back here, called back.
func (c common) child(back string) common {
	c.back = back
	return c
}

// filters reports whether the filter applies on screen s (its lists of
// findings, pools, states and threads); / edits it there only.
func (s screen) filters() bool {
	return s == screenOverview || s == screenPool || s == screenState
}

// backKey is esc as the footer names it on a pane: what it does there
// (root.back does the same). It goes back to the pane this one was opened
// from; on the overview, at the bottom, it clears the filter in force.
func (c *common) backKey() key.Binding {
	b := c.keys.Back
	switch {
	case c.back != "":
		b.SetHelp("esc", c.back)
	case c.query != "":
		b.SetHelp("esc", "clear filter")
	default:
		b.SetEnabled(false)
	}
	return b
}

func (c *common) base() common { return *c }

// globalKeys are the keys the root answers on a pane of screen s, as the
// footer names them (the filter only where it applies; y where the pane
// copies something).
func (c *common) globalKeys(s screen, copyOK bool) []key.Binding {
	k := c.keys
	var out []key.Binding
	if s.filters() {
		out = append(out, short(k.Filter, "filter"))
	}
	if copyOK {
		out = append(out, short(k.Copy, "copy"))
	}
	// quit before help: the footer drops keys from its end, help last.
	return append(out, short(k.Export, "export"), short(k.Quit, "quit"), short(k.Help, "help"))
}

// short is b with a shorter description, for the one-line footer.
func short(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}

// openMsg asks the root to push a pane (built by the pane that asks).
type openMsg struct{ p pane }

func open(p pane) tea.Cmd { return func() tea.Msg { return openMsg{p} } }

// statusMsg sets the status line.
type statusMsg string

func status(s string) tea.Cmd { return func() tea.Msg { return statusMsg(s) } }

// copyCmd puts text on the clipboard through OSC 52 (tea.SetClipboard; the
// terminal must allow it, tmux with set-clipboard on) and says what was
// copied in the status line.
func copyCmd(text, what string) tea.Cmd {
	n := 1
	for _, c := range text {
		if c == '\n' {
			n++
		}
	}
	return tea.Batch(tea.SetClipboard(text), status("copied "+what+" ("+words.Plural(n, "line")+") to the clipboard (OSC 52)"))
}

// wheelStep is how many rows one notch of the mouse wheel moves.
const wheelStep = 3

// wheelDelta is the rows a wheel message moves (up negative); 0 for other
// buttons.
func wheelDelta(m tea.MouseWheelMsg) int {
	switch m.Button {
	case tea.MouseWheelUp:
		return -wheelStep
	case tea.MouseWheelDown:
		return wheelStep
	}
	return 0
}

// leftClick returns the row of a left click; ok is false for other
// messages.
func leftClick(msg tea.Msg) (y, x int, ok bool) {
	c, isClick := msg.(tea.MouseClickMsg)
	if !isClick || c.Button != tea.MouseLeft {
		return 0, 0, false
	}
	return c.Y, c.X, true
}
