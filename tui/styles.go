package tui

import (
	"charm.land/lipgloss/v2"

	"github.com/dumpdiff/dumpdiff/analyze"
)

// styles are every style the TUI uses, in one place. With NoColor they keep
// only text attributes (bold, reverse), as NO_COLOR asks.
type styles struct {
	plain    lipgloss.Style // text as it is
	title    lipgloss.Style // screen title line
	header   lipgloss.Style // section headers ("FINDINGS", "POOLS")
	dim      lipgloss.Style // secondary text: moments with no threads, hints
	selected lipgloss.Style // the row under the cursor
	culprit  lipgloss.Style // the culprit frame in a stack
	status   lipgloss.Style // the status line (export written, errors)
	errText  lipgloss.Style
	spark    lipgloss.Style
	moment   lipgloss.Style // the selected moment in the moment bar
	added    lipgloss.Style // a frame only in the right stack of a compare
	removed  lipgloss.Style // a frame only in the left stack of a compare
	sev      map[analyze.Severity]lipgloss.Style
	cat      map[analyze.Category]lipgloss.Style
}

func newStyles(noColor bool) styles {
	s := lipgloss.NewStyle()
	if noColor {
		return styles{
			plain:    s,
			title:    s.Bold(true),
			header:   s.Bold(true),
			dim:      s,
			selected: s.Reverse(true),
			culprit:  s.Bold(true),
			status:   s,
			errText:  s.Bold(true),
			spark:    s,
			moment:   s.Reverse(true),
			added:    s,
			removed:  s,
			sev:      map[analyze.Severity]lipgloss.Style{analyze.Critical: s.Bold(true), analyze.Warning: s, analyze.Info: s},
			cat:      map[analyze.Category]lipgloss.Style{},
		}
	}
	c := lipgloss.Color
	return styles{
		plain:    s,
		title:    s.Bold(true).Foreground(c("#7D56F4")),
		header:   s.Bold(true).Foreground(c("#5FAFFF")),
		dim:      s.Foreground(c("#808080")),
		selected: s.Reverse(true),
		culprit:  s.Bold(true).Foreground(c("#FF5F87")),
		status:   s.Foreground(c("#AFD700")),
		errText:  s.Bold(true).Foreground(c("#FF5F5F")),
		spark:    s.Foreground(c("#5FD7FF")),
		moment:   s.Reverse(true).Bold(true),
		added:    s.Foreground(c("#87D787")),
		removed:  s.Foreground(c("#FF8787")),
		sev: map[analyze.Severity]lipgloss.Style{
			analyze.Critical: s.Bold(true).Foreground(c("#FF5F5F")),
			analyze.Warning:  s.Foreground(c("#FFAF00")),
			analyze.Info:     s.Foreground(c("#87AFD7")),
		},
		cat: map[analyze.Category]lipgloss.Style{
			analyze.Waiting: s.Foreground(c("#FFAF00")),
			analyze.Idle:    s.Foreground(c("#808080")),
			analyze.Running: s.Foreground(c("#87D787")),
			analyze.Other:   s,
		},
	}
}

// sevStyle returns the style of a severity (plain when unknown).
func (st styles) sevStyle(s analyze.Severity) lipgloss.Style { return st.sev[s] }

// catStyle returns the style of a category (plain when unknown).
func (st styles) catStyle(c analyze.Category) lipgloss.Style { return st.cat[c] }
