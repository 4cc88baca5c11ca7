package capture

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text from outside the program — a server's error body, status line or
// Location header, a command's stderr, the load command's output — reaches
// the engineer's terminal through progress lines and errors, and is stored
// in manifest.json, which `dumpdiff DIR` shows again. A hostile or broken
// server can put escape sequences in it: `ESC ] 0;…` sets the window title,
// `ESC [ 2K` clears the line, OSC 52 writes the clipboard, and bidi
// controls (U+202E) reorder what is read. So every such text is made inert
// before it is shown or stored: each byte or rune that is not printable is
// written as its Go escape (`\x1b`, `\u202e`), the way %q would, so the
// engineer sees that it was there and the terminal does nothing with it.
// (The TUI drops such sequences instead, keeping its own colours; here there
// are no colours to keep, and a visible escape is evidence.)

// maxServerText is the most of one server's text (an error body's line, a
// status) quoted in a message: enough for "profile busy, retry later" or a
// proxy's one-line error, not a page.
const maxServerText = 200

// maxMessage caps one message written to progress or the manifest: our own
// messages with a quoted server text and two URLs stay well under it; it
// protects against a command whose one stderr line is megabytes long.
const maxMessage = 1000

// inert is s on one line with every control character and escape sequence
// neutralised, cut to at most max bytes (max <= 0: no cut) with "..." at the
// cut. Runs of whitespace (newlines, tabs, carriage returns) become one
// space; other non-printable runes and invalid UTF-8 bytes become Go
// escapes. A string that is already inert comes back as it is.
func inert(s string, max int) string {
	return inertText(s, max, false)
}

// inertLines is inert keeping line breaks: for multi-line output kept whole
// (the load command's output tail). "\r\n" becomes "\n"; a lone "\r" (a
// progress bar redrawn in place) becomes a line break too.
func inertLines(s string) string {
	return inertText(s, 0, true)
}

func inertText(s string, max int, lines bool) string {
	if isInert(s, lines) && (max <= 0 || len(s) <= max) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false // the last byte written is a space from whitespace folding
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
			space = false
		case lines && (r == '\n' || r == '\r'):
			if r == '\r' && strings.HasPrefix(s[i+1:], "\n") {
				n++ // "\r\n": one line break
			}
			b.WriteByte('\n')
			space = false
		case lines && (r == '\t' || r == ' '):
			b.WriteRune(r) // kept as the command printed it
			space = false
		case r == '\n' || r == '\r' || r == '\t' || r == ' ':
			if !space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = true
		case r < 0x80 && (r < 0x20 || r == 0x7f):
			fmt.Fprintf(&b, `\x%02x`, r)
			space = false
		case r >= 0x80 && !unicode.IsPrint(r):
			// C1 controls (U+0080-U+009F: 0x9b is a one-byte CSI), bidi
			// overrides, zero-width and other format characters.
			if r > 0xffff {
				fmt.Fprintf(&b, `\U%08x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
			space = false
		default:
			b.WriteString(s[i : i+n])
			space = false
		}
		i += n
		if max > 0 && b.Len() > max {
			break
		}
	}
	out := b.String()
	if !lines {
		out = strings.TrimRight(out, " ")
	}
	if max > 0 && len(out) > max {
		out = cutRunes(out, max-3) + "..."
	}
	return out
}

// isInert reports whether s holds only printable runes and single spaces
// (and, with lines, line feeds): the common case, returned without a copy.
func isInert(s string, lines bool) bool {
	prevSpace := true // a leading space is folded away
	for _, r := range s {
		switch {
		case r == ' ':
			if prevSpace && !lines {
				return false
			}
			prevSpace = true
			continue
		case (r == '\n' || r == '\t') && lines:
		case r == utf8.RuneError:
			return false // invalid UTF-8 (or a literal U+FFFD: escaped the same)
		case r < 0x20 || r == 0x7f:
			return false
		case r >= 0x80 && !unicode.IsPrint(r):
			return false
		}
		prevSpace = false
	}
	return lines || !strings.HasSuffix(s, " ")
}

// cutRunes is s cut to at most n bytes on a rune boundary (s is inert:
// valid UTF-8, escapes are ASCII).
func cutRunes(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
