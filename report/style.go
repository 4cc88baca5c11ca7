package report

import (
	"github.com/dumpdiff/dumpdiff/analyze"
)

// styles colours pieces of the text view with plain ANSI SGR sequences:
// the basic colours, which follow the user's terminal palette. No styling
// library: report writes bytes for any writer (deps_test keeps it so).
// Every piece is fitted to its width before it is styled. The zero value
// (no colour) returns pieces unchanged, so a view without colour holds no
// escape byte.
type styles struct {
	color bool
}

// SGR parameters of each style.
const (
	sgrCrit = "1;91" // bold bright red
	sgrWarn = "1;33" // bold yellow
	sgrInfo = "36"   // cyan
	sgrHead = "1"    // bold
	sgrDim  = "90"   // bright black
	sgrBold = "1"
)

// newStyles returns the styles of the text view; colour only when color.
func newStyles(color bool) styles { return styles{color: color} }

func (s styles) render(sgr, text string) string {
	if !s.color || text == "" {
		return text
	}
	return "\x1b[" + sgr + "m" + text + "\x1b[0m"
}

func (s styles) Head(text string) string { return s.render(sgrHead, text) }
func (s styles) Dim(text string) string  { return s.render(sgrDim, text) }
func (s styles) Bold(text string) string { return s.render(sgrBold, text) }

// Severity colours text by sev.
func (s styles) Severity(sev analyze.Severity, text string) string {
	switch sev {
	case analyze.Critical:
		return s.render(sgrCrit, text)
	case analyze.Warning:
		return s.render(sgrWarn, text)
	}
	return s.render(sgrInfo, text)
}
