package report

import (
	"charm.land/lipgloss/v2"

	"github.com/dumpdiff/dumpdiff/analyze"
)

// styles colours pieces of the text view. Every piece is fitted to its
// width before it is styled. The zero value (no colour) returns pieces
// unchanged, so a view without colour holds no escape byte.
type styles struct {
	color bool
	crit  lipgloss.Style
	warn  lipgloss.Style
	info  lipgloss.Style
	head  lipgloss.Style
	dim   lipgloss.Style
	bold  lipgloss.Style
}

// newStyles returns the styles of the text view; colour only when color.
// Basic ANSI colours: they follow the user's terminal palette.
func newStyles(color bool) styles {
	if !color {
		return styles{}
	}
	s := lipgloss.NewStyle()
	return styles{
		color: true,
		crit:  s.Foreground(lipgloss.BrightRed).Bold(true),
		warn:  s.Foreground(lipgloss.Yellow).Bold(true),
		info:  s.Foreground(lipgloss.Cyan),
		head:  s.Bold(true),
		dim:   s.Foreground(lipgloss.BrightBlack),
		bold:  s.Bold(true),
	}
}

func (s styles) render(st lipgloss.Style, text string) string {
	if !s.color || text == "" {
		return text
	}
	return st.Render(text)
}

func (s styles) Head(text string) string { return s.render(s.head, text) }
func (s styles) Dim(text string) string  { return s.render(s.dim, text) }
func (s styles) Bold(text string) string { return s.render(s.bold, text) }

// Severity colours text by sev.
func (s styles) Severity(sev analyze.Severity, text string) string {
	switch sev {
	case analyze.Critical:
		return s.render(s.crit, text)
	case analyze.Warning:
		return s.render(s.warn, text)
	}
	return s.render(s.info, text)
}
