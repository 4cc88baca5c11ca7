// Package report renders an analysis for people and tools: text for a
// terminal, Markdown for GitHub and GitLab, Jira wiki markup, a Slack
// message, a self-contained HTML page, and JSON. Renderers are pure
// functions of the analysis and the options: they only read the Result and
// write to w.
//
// Every view but JSON shows the same rows (rows.go), computed once per call.
// The ticket formats write one document built from them (document.go: the
// verdict's facts, the findings with their numbers and facts, the tables,
// the stacks), each through a small writer with its own escaper; they
// differ in syntax, never in words. The JSON view has its own versioned
// protocol types (json.go, documented in SCHEMA.md).
package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/dumpdiff/dumpdiff/analyze"
)

// Format names an output; the zero value is text. ParseFormat is the one
// place a user's spelling is read, rendererFor the one switch over them.
type Format string

// The formats. A new format is one file with its renderer and one row in
// formatTable and rendererFor.
const (
	FormatText     Format = "text"
	FormatMarkdown Format = "markdown"
	FormatJira     Format = "jira"
	FormatSlack    Format = "slack"
	FormatHTML     Format = "html"
	FormatJSON     Format = "json"
)

// formatInfo is a format's row: the names a user may type for it and the
// extension of a file holding it.
type formatInfo struct {
	format  Format
	aliases []string
	ext     string
	doc     string
}

// formatTable lists every format, in the order help and tests list them.
func formatTable() []formatInfo {
	return []formatInfo{
		{FormatText, nil, "txt", "the terminal report (coloured on a terminal)"},
		{FormatMarkdown, []string{"md"}, "md", "GitHub/GitLab Markdown for an issue"},
		{FormatJira, nil, "jira.txt", "Jira wiki markup for a ticket"},
		{FormatSlack, nil, "slack.txt", "one Slack message (mrkdwn): the verdict and its numbers"},
		{FormatHTML, nil, "html", "one self-contained HTML page to attach"},
		{FormatJSON, nil, "json", "the versioned JSON report (SCHEMA.md)"},
	}
}

// Formats lists every format, for flag help and tests.
func Formats() []Format {
	var out []Format
	for _, f := range formatTable() {
		out = append(out, f.format)
	}
	return out
}

// FormatNames is the formats as a user types them: "text, markdown, ...".
func FormatNames() string {
	var s []string
	for _, f := range Formats() {
		s = append(s, string(f))
	}
	return strings.Join(s, ", ")
}

// ParseFormat reads a format as a user types it ("md" for markdown; case
// is ignored). The empty string is text.
func ParseFormat(s string) (Format, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return FormatText, nil
	}
	for _, f := range formatTable() {
		if s == string(f.format) {
			return f.format, nil
		}
		for _, a := range f.aliases {
			if s == a {
				return f.format, nil
			}
		}
	}
	return "", fmt.Errorf("unknown format %q (want %s)", s, FormatNames())
}

// Ext is the extension of a file holding f ("md", "html"), without the dot.
func (f Format) Ext() string {
	for _, fi := range formatTable() {
		if fi.format == f {
			return fi.ext
		}
	}
	return "txt"
}

// Doc is one line saying what f is for.
func (f Format) Doc() string {
	for _, fi := range formatTable() {
		if fi.format == f {
			return fi.doc
		}
	}
	return ""
}

// Options tunes a rendering.
type Options struct {
	// Format is the output; empty means text. Aliases ParseFormat accepts
	// ("md") are accepted here too.
	Format Format
	// Color allows ANSI colour in the text view. The caller decides (a
	// terminal and no NO_COLOR); when false the output holds no escape byte.
	// The other formats ignore it.
	Color bool
	// Width is the text view's width in terminal cells: the terminal's when
	// writing to one, else 0, which means 100 (a stable width for files and
	// pipes). No line of the text view is wider. Other formats ignore it.
	Width int
	// MaxPools is how many pools without a finding the tables show; 0 means
	// 10. Pools with a finding are always shown; the rest are folded into
	// one "more pools" line.
	MaxPools int
	// MaxStates is how many states the views show under a flagged pool; 0
	// means 5. States named by a finding are always shown.
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

// withDefaults returns opt with zero fields set to their defaults and the
// format normalised (an unknown format is kept, for the error).
func (opt Options) withDefaults() Options {
	if f, err := ParseFormat(string(opt.Format)); err == nil {
		opt.Format = f
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

// renderer writes one format: one analysis as a document, or several
// analyses (captured targets, or Go and JVM dumps given together) as one
// document of that format.
type renderer interface {
	one(w io.Writer, r *analyze.Result, opt Options) error
	many(w io.Writer, rs []*analyze.Result, opt Options) error
}

// rendererFor is the one switch that picks a renderer.
func rendererFor(f Format) (renderer, error) {
	switch f {
	case FormatText:
		return textRenderer{}, nil
	case FormatMarkdown:
		return markdownRenderer{}, nil
	case FormatJira:
		return jiraRenderer{}, nil
	case FormatSlack:
		return slackRenderer{}, nil
	case FormatHTML:
		return htmlRenderer{}, nil
	case FormatJSON:
		return jsonRenderer{}, nil
	}
	return nil, fmt.Errorf("report: unknown format %q (want %s)", f, FormatNames())
}

// Generate writes r to w in opt.Format.
func Generate(w io.Writer, r *analyze.Result, opt Options) error {
	if r == nil {
		return fmt.Errorf("report: no analysis to render")
	}
	opt = opt.withDefaults()
	rd, err := rendererFor(opt.Format)
	if err != nil {
		return err
	}
	return rd.one(w, r, opt)
}

// GenerateMany writes several analyses (one per captured target, or Go and
// JVM dumps given together) as one document in opt.Format; each format
// decides how (the instances compared side by side when they are captured
// targets, then each analysis under its own heading; one JSONAnalyses
// document for JSON). One analysis is written exactly as Generate writes it.
func GenerateMany(w io.Writer, rs []*analyze.Result, opt Options) error {
	for _, r := range rs {
		if r == nil {
			return fmt.Errorf("report: no analysis to render")
		}
	}
	if len(rs) == 1 {
		return Generate(w, rs[0], opt)
	}
	opt = opt.withDefaults()
	rd, err := rendererFor(opt.Format)
	if err != nil {
		return err
	}
	return rd.many(w, rs, opt)
}
