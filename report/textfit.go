package report

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Helpers that keep the text view inside its width. Widths are terminal
// cells (a CJK rune takes two), measured on plain text: styles are applied
// after a piece has been fitted, so escape codes never count.

// cells is the width of s in terminal cells, escape codes ignored.
func cells(s string) int { return ansi.StringWidth(s) }

// truncate cuts s to at most w cells, ending with "…" when cut. Control
// characters become spaces (see oneLine).
func truncate(s string, w int) string {
	s = oneLine(s)
	if w <= 0 {
		return ""
	}
	if cells(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// truncateMiddle cuts s to at most w cells by taking out its middle:
// "samurai__openjdk…example#1". Labels and file names of one run differ at
// their ends.
func truncateMiddle(s string, w int) string {
	s = oneLine(s)
	if cells(s) <= w {
		return s
	}
	if w < 5 {
		return truncate(s, w)
	}
	head := (w - 1) / 2
	tail := w - 1 - head
	return ansi.Truncate(s, head, "") + "…" + ansi.TruncateLeft(s, cells(s)-tail, "")
}

// padRight truncates s to w cells and fills it with spaces up to w.
func padRight(s string, w int) string {
	s = truncate(s, w)
	return s + strings.Repeat(" ", max(0, w-cells(s)))
}

// padLeft truncates s to w cells and right-aligns it in w cells.
func padLeft(s string, w int) string {
	s = truncate(s, w)
	return strings.Repeat(" ", max(0, w-cells(s))) + s
}

// wrap breaks text into lines of at most width cells at spaces; the first
// line starts with first and the others with rest (both counted in the
// width). A word longer than a whole line is split across lines, never
// cut: a frame name must stay whole. Newlines and tabs in text are taken
// as spaces: a line of the view never holds a control character.
func wrap(text string, width int, first, rest string) []string {
	text = oneLine(text)
	var lines []string
	line, lineW := first, cells(first)
	empty := true // line holds no word yet
	for _, word := range strings.Fields(text) {
		ww := cells(word)
		if !empty && lineW+1+ww > width {
			lines = append(lines, line)
			line, lineW, empty = rest, cells(rest), true
		}
		if !empty {
			line += " "
			lineW++
		}
		// A word wider than the room left on an empty line goes in pieces.
		for lineW+ww > width && width-lineW > 0 {
			piece := ansi.Truncate(word, width-lineW, "")
			if piece == "" { // a wide rune that does not fit
				break
			}
			lines = append(lines, line+piece)
			word = strings.TrimPrefix(word, piece)
			ww = cells(word)
			line, lineW = rest, cells(rest)
		}
		line += word
		lineW += ww
		empty = false
	}
	if !empty || len(lines) == 0 {
		lines = append(lines, line)
	}
	return lines
}

// oneLine replaces control characters (newlines, tabs, ESC...) by spaces:
// text from a dump must not move the cursor or start an escape sequence.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return ' '
		}
		return r
	}, s)
}
