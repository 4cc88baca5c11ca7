package report

import (
	"html"
	"strings"
)

// Escaping for the Markdown view. Names and frames come from dumps: a
// thread may be called "a|b", "<script>", "`x`" or "**boom**". Whatever
// they hold, they must not break a table, open a code span, become markup
// or inject HTML.

// mdText escapes s as Markdown inline text. HTML-significant characters
// become entities; Markdown punctuation gets a backslash; "|" is escaped so
// that a table cell stays one cell; control characters become spaces.
func mdText(s string) string {
	if !needsEscape(s, "&<>\\`*_[]|~#!") {
		return s
	}
	var b strings.Builder
	for _, r := range oneLine(s) {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '\\', '`', '*', '_', '[', ']', '|', '~', '#', '!':
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// needsEscape reports whether s holds a byte of special or a control
// character (or a byte that may start a C1 one): the escapers' fast path
// returns s itself when it holds none, as counts and most names do.
func needsEscape(s, special string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f || c == 0xc2 || strings.IndexByte(special, c) >= 0 {
			return true
		}
	}
	return false
}

// mdCode renders s as a code span. Inside a code span nothing is markup, so
// only three things matter: the span's delimiter must be a backtick run
// longer than any in s; content that starts or ends with a backtick is
// padded with a space; and in a table cell (cell true) "|" must be written
// "\|" because GFM splits cells before it reads code spans. Empty s gives
// "" (an empty cell, not an empty span).
func mdCode(s string, cell bool) string {
	s = oneLine(s)
	if strings.TrimSpace(s) == "" {
		return ""
	}
	if cell {
		if strings.Contains(s, `\|`) {
			// "\\|" is read as an escaped backslash and a cell break by
			// some GFM parsers and as a backslash and an escaped pipe by
			// others; plain escaped text is exact in both.
			return mdText(s)
		}
		s = strings.ReplaceAll(s, "|", `\|`)
	}
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	best, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return best
}

// mdHTML escapes s for HTML inside Markdown (a <summary> line).
func mdHTML(s string) string { return html.EscapeString(oneLine(s)) }

// codeFence returns a fence for a fenced code block holding lines: a run of
// backticks longer than any run in them (at least three), so that no line
// can close the block.
func codeFence(lines []string) string {
	n := 2
	for _, l := range lines {
		n = max(n, longestRun(l, '`'))
	}
	return strings.Repeat("`", n+1)
}

// mermaidText escapes s for a double-quoted Mermaid string. Mermaid
// decodes "#name;" and "#123;" entity codes in every diagram, so the
// characters that could end the string, start an entity, or become HTML are
// written as entity codes (";" too: some diagrams end a statement with it);
// control characters become spaces.
func mermaidText(s string) string {
	var b strings.Builder
	for _, r := range oneLine(s) {
		switch r {
		case '"':
			b.WriteString("#quot;")
		case '#':
			b.WriteString("#35;")
		case '<':
			b.WriteString("#lt;")
		case '>':
			b.WriteString("#gt;")
		case '&':
			b.WriteString("#amp;")
		case '`':
			b.WriteString("#96;")
		case ';':
			b.WriteString("#59;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
