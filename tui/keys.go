package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// keyMap is every key the TUI answers; the footer and the help screen are
// generated from it (each pane's ShortHelp and FullHelp pick from it).
// Every key is matched with key.Matches, as gum's pager does.
type keyMap struct {
	Up, Down, PageUp, PageDown, Home, End key.Binding
	Enter, Back                           key.Binding
	Left, Right                           key.Binding
	// Moment is the help of Moments, which pick moment 1 to 9.
	Moment                               key.Binding
	Moments                              [9]key.Binding
	Compare, Focus, Filter, Sort, Export key.Binding
	Copy, Target, Help, Quit             key.Binding
	// ForceQuit quits from anywhere, the filter input included.
	ForceQuit key.Binding
	// Accept and Cancel end the filter input, keeping or clearing it.
	Accept, Cancel key.Binding
}

func newKeyMap() *keyMap {
	b := func(keys []string, k, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, desc))
	}
	km := &keyMap{
		Up:        b([]string{"up", "k"}, "↑/k", "up"),
		Down:      b([]string{"down", "j"}, "↓/j", "down"),
		PageUp:    b([]string{"pgup", "ctrl+u"}, "pgup", "page up"),
		PageDown:  b([]string{"pgdown", "ctrl+d", "space"}, "pgdn", "page down"),
		Home:      b([]string{"home", "g"}, "g/home", "first row"),
		End:       b([]string{"end", "G"}, "G/end", "last row"),
		Enter:     b([]string{"enter"}, "enter", "open"),
		Back:      b([]string{"esc", "backspace"}, "esc", "back / clear filter"),
		Left:      b([]string{"left", "h"}, "←/h", "previous moment"),
		Right:     b([]string{"right", "l"}, "→/l", "next moment"),
		Moment:    b([]string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}, "1-9", "go to moment"),
		Compare:   b([]string{"c"}, "c", "compare stacks"),
		Focus:     b([]string{"tab"}, "tab", "thread list / stack"),
		Filter:    b([]string{"/"}, "/", "filter"),
		Sort:      b([]string{"s"}, "s", "change sort"),
		Export:    b([]string{"m"}, "m", "export Markdown"),
		Copy:      b([]string{"y"}, "y", "copy stack / frame"),
		Target:    b([]string{"t"}, "t", "next target"),
		Help:      b([]string{"?"}, "?", "help"),
		Quit:      b([]string{"q"}, "q", "quit"),
		ForceQuit: b([]string{"ctrl+c"}, "ctrl+c", "quit"),
		Accept:    b([]string{"enter"}, "enter", "keep the filter"),
		Cancel:    b([]string{"esc"}, "esc", "clear the filter"),
	}
	for i := range km.Moments {
		d := string(rune('1' + i))
		km.Moments[i] = b([]string{d}, d, "moment "+d)
	}
	return km
}

// moves are the cursor keys every list and document shares.
func (k *keyMap) moves() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End}
}

// global are the keys the root answers on every screen.
func (k *keyMap) global() []key.Binding {
	return []key.Binding{k.Back, k.Filter, k.Export, k.Copy, k.Target, k.Help, k.Quit}
}

// move returns how far a cursor key moves in a list or document whose page
// is page rows (±1<<30 for home and end); ok is false for other keys.
func (k *keyMap) move(msg tea.KeyPressMsg, page int) (delta int, ok bool) {
	switch {
	case key.Matches(msg, k.Up):
		return -1, true
	case key.Matches(msg, k.Down):
		return 1, true
	case key.Matches(msg, k.PageUp):
		return -max(1, page), true
	case key.Matches(msg, k.PageDown):
		return max(1, page), true
	case key.Matches(msg, k.Home):
		return -1 << 30, true
	case key.Matches(msg, k.End):
		return 1 << 30, true
	}
	return 0, false
}

// moment returns the moment a key picks among n (←/→ relative to cur, 1-9
// absolute); ok is false for other keys and for a digit past the last
// moment.
func (k *keyMap) moment(msg tea.KeyPressMsg, cur, n int) (int, bool) {
	switch {
	case key.Matches(msg, k.Left):
		return max(0, cur-1), true
	case key.Matches(msg, k.Right):
		return min(n-1, cur+1), true
	}
	for i, b := range k.Moments {
		if key.Matches(msg, b) {
			return i, i < n
		}
	}
	return 0, false
}

// KeysText lists every key the TUI answers, one per line ("  c  compare
// stacks"), from the same key map the footer and the help screen are made
// of, for `dumpdiff tui --help`.
func KeysText() string {
	k := newKeyMap()
	all := append(k.moves(), k.Enter, k.Back, k.Left, k.Right, k.Moment,
		k.Compare, k.Focus, k.Filter, k.Sort, k.Export, k.Copy, k.Target, k.Help, k.Quit, k.ForceQuit)
	width := 0
	for _, b := range all {
		width = max(width, len([]rune(b.Help().Key)))
	}
	var sb strings.Builder
	for _, b := range all {
		h := b.Help()
		sb.WriteString("  " + h.Key + strings.Repeat(" ", width-len([]rune(h.Key))+2) + h.Desc + "\n")
	}
	return sb.String()
}
