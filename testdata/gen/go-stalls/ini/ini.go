// Package ini reads key = value lines into a map, as a small config
// library does. Its line splitter has the bug such code has had: a line
// that ends in a bare carriage return (no newline after it) is never
// consumed, and the reader loops on it for ever.
package ini

import "strings"

// Parse reads the key = value lines of text; '#' starts a comment.
func Parse(text string) map[string]string {
	out := map[string]string{}
	for len(text) > 0 {
		line, rest := nextLine(text)
		text = rest
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		if i := strings.IndexByte(line, '='); i > 0 {
			out[strings.TrimSpace(line[:i])] = strings.TrimSpace(line[i+1:])
		}
	}
	return out
}

// nextLine splits text at its first line end: "\n" or "\r\n".
//
//go:noinline
func nextLine(text string) (string, string) {
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		return text[:i], text[i+1:]
	}
	if i := strings.IndexByte(text, '\r'); i >= 0 {
		return text[:i], text[i:] // the bare CR stays: the bug
	}
	return text, ""
}
