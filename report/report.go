// Package report renders an analysis as text for a terminal, as Markdown for
// an issue tracker, or as JSON for tools. Renderers are pure functions of the
// analysis and the options: they only read the Result and write to w.
//
// The text and Markdown views show the same rows (see rows.go), computed
// once per call, in two syntaxes. The JSON view has its own versioned
// protocol types (json.go, documented in SCHEMA.md).
package report

import (
	"fmt"
	"io"

	"github.com/dumpdiff/dumpdiff/analyze"
)

// Options tunes a rendering.
type Options struct {
	// Format is "text" (the default when empty), "markdown" or "json".
	Format string
	// Color allows ANSI colour in the text view. The caller decides (a
	// terminal and no NO_COLOR); when false the output holds no escape byte.
	// Markdown and JSON ignore it.
	Color bool
	// Width is the text view's width in terminal cells; 0 means 100. No line
	// of the text view is wider.
	Width int
	// MaxPools is how many pools without a finding the text and Markdown
	// tables show; 0 means 10. Pools with a finding are always shown; the
	// rest are folded into one "more pools" line.
	MaxPools int
	// MaxStates is how many states the text and Markdown views show under
	// a flagged pool; 0 means 5. States named by a finding are always shown.
	MaxStates int
	// Verbose shows the states of every pool (not only flagged ones) and
	// lifts MaxPools and MaxStates.
	Verbose bool
}

const (
	defaultWidth     = 100
	defaultMaxPools  = 10
	defaultMaxStates = 5
	minWidth         = 40 // below this the tables cannot be read; Width is raised to it
)

// withDefaults returns opt with zero fields set to their defaults.
func (opt Options) withDefaults() Options {
	if opt.Format == "" {
		opt.Format = "text"
	}
	if opt.Width <= 0 {
		opt.Width = defaultWidth
	}
	if opt.Width < minWidth {
		opt.Width = minWidth
	}
	if opt.MaxPools <= 0 {
		opt.MaxPools = defaultMaxPools
	}
	if opt.MaxStates <= 0 {
		opt.MaxStates = defaultMaxStates
	}
	if opt.Verbose {
		opt.MaxPools = int(^uint(0) >> 1)
		opt.MaxStates = int(^uint(0) >> 1)
	}
	return opt
}

// Formats lists the values Options.Format accepts, for flag help.
func Formats() []string { return []string{"text", "markdown", "json"} }

// Generate writes r to w in opt.Format.
func Generate(w io.Writer, r *analyze.Result, opt Options) error {
	if r == nil {
		return fmt.Errorf("report: no analysis to render")
	}
	opt = opt.withDefaults()
	switch opt.Format {
	case "text":
		return Text(w, r, opt)
	case "markdown", "md":
		return Markdown(w, r, opt)
	case "json":
		return JSON(w, r, opt)
	}
	return fmt.Errorf("report: unknown format %q (want text, markdown or json)", opt.Format)
}
