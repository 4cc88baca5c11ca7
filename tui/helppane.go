package tui

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// helpPane lists the keys of the pane it was opened from, generated from
// that pane's key map (FullHelp), one column per group.
type helpPane struct {
	common
	of    string // the screen it is the help of ("state")
	full  [][]key.Binding
	model help.Model
}

func newHelpPane(c common, of pane, m help.Model) *helpPane {
	return &helpPane{common: c, of: of.kind().name(), full: of.FullHelp(), model: m}
}

func (h *helpPane) kind() screen       { return screenHelp }
func (h *helpPane) backName() string   { return "help" }
func (h *helpPane) clone() pane        { c := *h; return &c }
func (h *helpPane) SetFilter(q string) { h.query = q }

func (h *helpPane) SetSize(w, ht int) {
	h.width, h.height = w, ht
	h.model.SetWidth(w)
}

// Update does nothing: the root closes the help (esc, ?, q).
func (h *helpPane) Update(tea.Msg) (pane, tea.Cmd) { return h, nil }

// ShortHelp is the help's footer.
func (h *helpPane) ShortHelp() []key.Binding {
	k := h.keys
	return []key.Binding{key.NewBinding(key.WithKeys("esc", "?", "q"), key.WithHelp("esc/?/q", "close")), short(k.ForceQuit, "quit")}
}

// FullHelp is what the help shows.
func (h *helpPane) FullHelp() [][]key.Binding { return h.full }

func (h *helpPane) View() string {
	lines := []string{h.st.title.Render("dumpdiff · keys on the " + h.of + " screen"), ""}
	lines = append(lines, strings.Split(h.model.FullHelpView(h.full), "\n")...)
	lines = append(lines, "")
	for _, l := range wrap("esc goes back to the screen this one was opened from (on the overview it clears the filter; / then esc clears it anywhere); the mouse wheel scrolls and a click selects a row; y copies through the terminal (OSC 52)", h.width, "") {
		lines = append(lines, h.st.dim.Render(l))
	}
	return strings.Join(lines, "\n")
}
