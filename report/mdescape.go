package report

import "strings"

// Exported Markdown escaping, for the TUI's own Markdown export: the same
// rules as this package's Markdown report, so that a name from a dump
// ("a|b", "`x`", "<script>") is written the same way in both.

// MarkdownText escapes s as one line of Markdown inline text (a heading, a
// list item, a table cell): HTML-significant characters become entities,
// Markdown punctuation and "|" get a backslash, control characters become
// spaces.
func MarkdownText(s string) string { return mdText(s) }

// MarkdownCode renders s as a code span whose delimiter is longer than any
// backtick run in s; inTable writes "|" as "\|" so that a table cell stays
// one cell. A blank s gives "" (write a dash instead when a cell must not
// be empty).
func MarkdownCode(s string, inTable bool) string { return mdCode(s, inTable) }

// MarkdownFence returns the fence for a fenced code block holding body
// (lines separated by "\n"): a backtick run of at least three, longer than
// any run in body, so that no line of body can close the block.
func MarkdownFence(body string) string { return codeFence(strings.Split(body, "\n")) }
