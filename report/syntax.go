package report

import (
	"strings"

	"github.com/dumpdiff/dumpdiff/analyze"
)

// syntax is how a format (Markdown, Jira, Slack, HTML, plain text) writes
// the pieces of the document's inline text. The pieces themselves (a
// finding's title, its numbers, its entry points...) are built once, in
// document.go, from the same facts and in the same words; a format differs
// only in its syntax value, kept beside its writer (mdSyntax, jiraSyntax,
// slackSyntax, htmlSyntax).
type syntax struct {
	// text escapes a run of plain text: a name from a dump or a fixed
	// phrase ("(health check)", ", +3"), which it must show as typed.
	text func(string) string
	// code is s as inline code: a pool, a frame, a thread name. culprit
	// and entry are code for a culprit frame and an entry point (HTML
	// marks them; the other formats write plain code).
	code, culprit, entry func(string) string
	// tag is a finding's severity and kind as its title starts:
	// "critical not-recovered"; kind is not escaped yet.
	tag func(sev analyze.Severity, kind string) string
	// strong marks escaped text a list item leads with, where the format
	// does so (HTML's <b>); the others leave it as it is.
	strong func(string) string
	// probe marks a health check after the frame it is, its leading
	// space included: " (health check)".
	probe string
	// bold writes escaped text in bold, for a span marked bold; nil
	// leaves it as it is.
	bold func(string) string
	// ref writes a reference to finding num whose words are escaped (HTML
	// links it); nil writes the words.
	ref func(num int, escaped string) string
}

// plainSyntax writes the pieces as they are, for the text view and for
// the places a format escapes a whole line at once (an HTML <title>).
func plainSyntax() syntax {
	same := func(s string) string { return s }
	return syntax{text: same, code: same, culprit: same, entry: same, strong: same, probe: " (health check)",
		tag: func(sev analyze.Severity, kind string) string { return sev.String() + " " + kind }}
}

// render writes in in the format's syntax.
func (sx syntax) render(in inline) string {
	if len(in) == 1 && !in[0].bold {
		return sx.span(in[0]) // most cells and values: no builder
	}
	var b strings.Builder
	for _, s := range in {
		if s.bold && sx.bold != nil {
			b.WriteString(sx.bold(sx.span(s)))
		} else {
			b.WriteString(sx.span(s))
		}
	}
	return b.String()
}

func (sx syntax) span(s span) string {
	switch s.kind {
	case spanCode:
		return sx.code(s.text)
	case spanCulprit:
		return sx.culprit(s.text)
	case spanEntry:
		return sx.entry(s.text)
	case spanStrong:
		return sx.strong(sx.text(s.text))
	case spanProbe:
		return sx.probe
	case spanTag:
		return sx.tag(s.sev(), s.text)
	case spanRef:
		if sx.ref != nil {
			return sx.ref(int(s.n), sx.text(s.text))
		}
	case spanRaw:
		return s.text
	}
	return sx.text(s.text)
}
