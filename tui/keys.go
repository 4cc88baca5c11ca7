package tui

import "charm.land/bubbles/v2/key"

// keyMap is every key the TUI answers; the help screen is generated from it.
type keyMap struct {
	Up, Down, PageUp, PageDown, Home, End key.Binding
	Enter, Back                           key.Binding
	Left, Right, Moment, Compare          key.Binding
	Filter, Sort, Export, Help, Quit      key.Binding
}

func newKeyMap() keyMap {
	b := func(keys []string, k, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, desc))
	}
	return keyMap{
		Up:       b([]string{"up", "k"}, "↑/k", "up"),
		Down:     b([]string{"down", "j"}, "↓/j", "down"),
		PageUp:   b([]string{"pgup", "ctrl+u"}, "pgup", "page up"),
		PageDown: b([]string{"pgdown", "ctrl+d", "space"}, "pgdn", "page down"),
		Home:     b([]string{"home", "g"}, "g/home", "first row"),
		End:      b([]string{"end", "G"}, "G/end", "last row"),
		Enter:    b([]string{"enter"}, "enter", "open / fold"),
		Back:     b([]string{"esc", "backspace"}, "esc", "back"),
		Left:     b([]string{"left", "h"}, "←/h", "previous moment"),
		Right:    b([]string{"right", "l"}, "→/l", "next moment"),
		Moment:   b([]string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}, "1-9", "go to moment"),
		Compare:  b([]string{"c"}, "c", "compare stacks"),
		Filter:   b([]string{"/"}, "/", "filter"),
		Sort:     b([]string{"s"}, "s", "change sort"),
		Export:   b([]string{"m"}, "m", "export Markdown"),
		Help:     b([]string{"?"}, "?", "help"),
		Quit:     b([]string{"q", "ctrl+c"}, "q", "quit"),
	}
}

// ShortHelp is the one-line help under every screen.
func (k keyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Enter, k.Back, k.Left, k.Right, k.Compare, k.Filter, k.Sort, k.Export, k.Help, k.Quit}
}

// FullHelp is the help screen, one column per group.
func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End},
		{k.Enter, k.Back, k.Left, k.Right, k.Moment, k.Compare},
		{k.Filter, k.Sort, k.Export, k.Help, k.Quit},
	}
}
