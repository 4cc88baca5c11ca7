package tui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/dumpdiff/dumpdiff/report"
)

func itoa(n int) string { return strconv.Itoa(n) }

// width is the display width of s (ANSI sequences excluded).
func width(s string) int { return ansi.StringWidth(s) }

// fit cuts s to w cells with an ellipsis, or pads it with spaces to w cells.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if width(s) > w {
		return ansi.Truncate(s, w, "…")
	}
	return s + strings.Repeat(" ", w-width(s))
}

// right pads s on the left to w cells (numbers), cutting it when longer.
func right(s string, w int) string {
	if width(s) >= w {
		return ansi.Truncate(s, w, "…")
	}
	return strings.Repeat(" ", w-width(s)) + s
}

// cut cuts s to at most w cells without padding.
func cut(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if width(s) > w {
		return ansi.Truncate(s, w, "…")
	}
	return s
}

// sparkline is report.Sparkline: every view draws counts with the same
// bars.
func sparkline(counts []int, top int) string { return report.Sparkline(counts, top) }

// maxOf is the largest of counts; 0 when empty.
func maxOf(counts []int) int {
	hi := 0
	for _, c := range counts {
		hi = max(hi, c)
	}
	return hi
}

// fitMiddle is fit that, when s is too long, keeps both ends and drops the
// middle ("http-nio-127…18080-exec-*"): names that differ only at the end
// stay apart.
func fitMiddle(s string, w int) string {
	s = cutMiddle(s, w)
	return s + strings.Repeat(" ", max(0, w-width(s)))
}

// cutMiddle cuts s to at most w cells by dropping its middle; the end
// keeps one cell more than the start (an id, a port, a "-*").
func cutMiddle(s string, w int) string {
	if w <= 0 {
		return ""
	}
	n := width(s)
	if n <= w {
		return s
	}
	if w < 5 {
		return cut(s, w)
	}
	head := (w - 1) / 2
	tail := w - 1 - head
	return ansi.Truncate(s, head, "") + "…" + ansi.TruncateLeft(s, n-tail, "")
}

// wrap breaks s into lines of at most w cells at spaces, a word longer than
// a line split where it must: nothing is cut and nothing is left out.
// Every line but the first starts with indent (counted in w). s is plain
// text (no ANSI sequences).
func wrap(s string, w int, indent string) []string {
	if width(s) <= w {
		return []string{s} // as it is, its inner spaces kept
	}
	iw := width(indent)
	if w < iw+8 {
		indent, iw = "", 0
	}
	w = max(w, 1)
	// Leading spaces (a lock line under its frame) stay, on every line.
	lead := s[:len(s)-len(strings.TrimLeft(s, " "))]
	if width(lead)+8 > w {
		lead = ""
	}
	indent, iw = lead+indent, width(lead)+iw
	var lines []string
	line, lw, empty := lead, width(lead), true
	for _, word := range strings.Fields(s) {
		ww := width(word)
		if !empty {
			if lw+1+ww <= w {
				line, lw = line+" "+word, lw+1+ww
				continue
			}
			lines = append(lines, line)
			line, lw = indent, iw
		}
		for lw+ww > w {
			part := ansi.Truncate(word, w-lw, "")
			if part == "" {
				break // a wide rune wider than the room left: it goes whole
			}
			// Split a frame before its location, else after a dot, slash
			// or dollar, when there is one in the second half of the room.
			if i := strings.LastIndexByte(part, '('); i > len(part)/2 {
				part = part[:i]
			} else if i := strings.LastIndexAny(part, "./$"); i+1 > len(part)/2 && i+1 < len(part) {
				part = part[:i+1]
			}
			lines = append(lines, line+part)
			line, lw = indent, iw
			word = word[len(part):]
			ww = width(word)
		}
		if word == "" {
			empty = true // the split filled its last line exactly
			continue
		}
		line, lw, empty = line+word, lw+ww, false
	}
	if !empty || len(lines) == 0 {
		lines = append(lines, line)
	}
	return lines
}

// inert makes a screen line harmless to the terminal whatever a dump put
// in it: a thread name, a frame or a file name may hold escape sequences
// and control characters (a jstack prints a thread's name as the program
// set it). Colour and weight sequences (SGR: ESC [ ... m), which the
// styles write, are kept; every other escape sequence (window title,
// clipboard, cursor moves, screen clearing; OSC, DCS, APC, PM and SOS
// strings to their end) is dropped, and C0 and C1 control characters but
// the newline become spaces.
func inert(s string) string {
	// Most lines are text and the styles' own SGR: given back as they are,
	// the builder made only from the first byte that changes.
	var b strings.Builder
	built := false
	keep := func(i int) {
		if !built {
			built = true
			b.Grow(len(s))
			b.WriteString(s[:i])
		}
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b:
			n := escapeLen(s[i:])
			if seq := s[i : i+n]; isSGR(seq) {
				if built {
					b.WriteString(seq)
				}
			} else {
				keep(i)
			}
			i += n
			continue
		case c < 0x20 && c != '\n' || c == 0x7f:
			keep(i)
			b.WriteByte(' ')
			i++
			continue
		case c == 0xc2 && i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] < 0xa0: // U+0080-U+009F
			keep(i)
			b.WriteByte(' ')
			i += 2
			continue
		}
		if built {
			b.WriteByte(c)
		}
		i++
	}
	if !built {
		return s
	}
	return b.String()
}

// escapeLen is the length of the escape sequence s starts with (s[0] is
// ESC): a CSI to its final byte, a string sequence to its terminator (BEL
// or ESC \) or the end of s, else ESC and the byte after it.
func escapeLen(s string) int {
	if len(s) < 2 {
		return 1
	}
	switch s[1] {
	case '[':
		j := 2
		for j < len(s) && s[j] >= 0x30 && s[j] <= 0x3f {
			j++
		}
		for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
			j++
		}
		if j < len(s) && s[j] >= 0x40 && s[j] <= 0x7e {
			j++
		}
		return j
	case ']', 'P', '_', '^', 'X':
		for j := 2; j < len(s); j++ {
			if s[j] == 0x07 {
				return j + 1
			}
			if s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\' {
				return j + 2
			}
		}
		return len(s)
	}
	if s[1] < 0x80 {
		return 2
	}
	return 1
}

// isSGR reports whether seq is a Select Graphic Rendition sequence
// (ESC [ digits, ';' or ':' m).
func isSGR(seq string) bool {
	if len(seq) < 3 || seq[1] != '[' || seq[len(seq)-1] != 'm' {
		return false
	}
	for i := 2; i < len(seq)-1; i++ {
		if c := seq[i]; (c < '0' || c > '9') && c != ';' && c != ':' {
			return false
		}
	}
	return true
}
