package tui

import "charm.land/bubbles/v2/key"

// keyMap is every key the TUI answers; the help screen is generated from it.
type keyMap struct {
	Up, Down, PageUp, PageDown, Home, End key.Binding
	Enter, Back                           key.Binding
	Left, Right, Moment, Compare, Focus   key.Binding
	Filter, Sort, Export, Target, Help    key.Binding
	Quit                                  key.Binding
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
		Focus:    b([]string{"tab"}, "tab", "thread list / stack"),
		Filter:   b([]string{"/"}, "/", "filter"),
		Sort:     b([]string{"s"}, "s", "change sort"),
		Export:   b([]string{"m"}, "m", "export Markdown"),
		Target:   b([]string{"t"}, "t", "next target"),
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
		{k.Enter, k.Back, k.Left, k.Right, k.Moment, k.Compare, k.Focus},
		{k.Filter, k.Sort, k.Export, k.Target, k.Help, k.Quit},
	}
}

// shortFor is the one-line help of a screen, with short words so that it
// fits in 80 columns; with several targets (many) the overview names `t`
// (the other screens say it in their title).
func (k keyMap) shortFor(s screen, many bool) []key.Binding {
	h := func(b key.Binding, keys, desc string) key.Binding {
		b.SetHelp(keys, desc)
		return b
	}
	enter := h(k.Enter, "enter", "open")
	back := h(k.Back, "esc", "back")
	moment := key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←/→", "moment"))
	filter := h(k.Filter, "/", "filter")
	sort := h(k.Sort, "s", "sort")
	export := h(k.Export, "m", "export")
	help := h(k.Help, "?", "help")
	quit := h(k.Quit, "q", "quit")
	switch s {
	case screenOverview:
		if many {
			return []key.Binding{enter, filter, sort, export, h(k.Target, "t", "target"), help, quit}
		}
		return []key.Binding{enter, filter, sort, export, help, quit}
	case screenPool:
		return []key.Binding{enter, back, moment, filter, sort, export, help, quit}
	case screenState:
		return []key.Binding{back, moment, h(k.Compare, "c", "compare"), filter, sort, export, help, quit}
	case screenHelp:
		return []key.Binding{back, quit}
	}
	return []key.Binding{quit}
}
