package report

import "strings"

// Escaping for Jira wiki markup. Jira's renderer takes a backslash before
// any of - # * _ + ? ^ ~ | % { } [ ] ( ) ! @ as that character, plain; two
// backslashes are a line break. A name from a dump ("a|b", "{code}",
// "*x*", "(x)", "[link]") must not become markup, a link, an emoticon, a
// macro or a table cell.

// jiraSpecial are the characters Jira reads as markup and a backslash
// escapes.
const jiraSpecial = `-#*_+?^~|%{}[]()!@`

// zwsp (a zero-width space) separates characters Jira would read together
// and that no backslash escapes: a backslash (two make a line break) and
// a ":" that with the next letter makes an emoticon (":D", ":P").
const zwsp = "\u200b"

// jiraText escapes s as one line of Jira inline text (a paragraph, a list
// item, a table cell, the inside of {{monospace}}). Control characters
// become spaces.
func jiraText(s string) string {
	if !needsEscape(s, jiraSpecial+"\\:") {
		return s
	}
	var b strings.Builder
	rs := []rune(oneLine(s))
	for i, r := range rs {
		switch {
		case r == '\\':
			b.WriteString(`\` + zwsp)
		case strings.ContainsRune(jiraSpecial, r):
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == ':' && i+1 < len(rs) && strings.ContainsRune("DPdp", rs[i+1]):
			b.WriteString(":" + zwsp)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// jiraCode renders s as {{monospace}}; a blank s gives "".
func jiraCode(s string) string {
	if strings.TrimSpace(oneLine(s)) == "" {
		return ""
	}
	return "{{" + jiraText(s) + "}}"
}

// jiraCell is a table cell: escaped text, or a space for an empty cell
// (an empty cell would make "||", a header cell).
func jiraCell(s string) string {
	if s == "" {
		return " "
	}
	return s
}

// jiraParam is s as a macro parameter value (a panel's title): the
// characters that end a parameter or the macro ("|", "=", "{", "}") and
// control characters become spaces; nothing else is markup there.
func jiraParam(s string) string {
	return strings.Map(func(r rune) rune {
		if strings.ContainsRune("|={}", r) {
			return ' '
		}
		return r
	}, oneLine(s))
}

// jiraNoformat makes lines safe inside a {noformat} block, where Jira
// reads nothing but the end of a macro: a zero-width space after every "{"
// keeps a line holding "{noformat}" or "{panel}" from closing a block.
func jiraNoformat(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.ReplaceAll(oneLine(l), "{", "{"+zwsp)
	}
	return out
}
