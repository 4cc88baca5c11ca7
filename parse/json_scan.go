package parse

import (
	"unicode/utf16"
	"unicode/utf8"
)

// Small JSON scanning helpers for JSON met line by line (docker's
// json-file records, prefix_shapes.go), where encoding/json would
// allocate for every line.

// skipSpace returns the index of the first byte at or after i that is not
// JSON white space.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// jsonStringAt returns the raw bytes of the JSON string starting with the
// quote at b[i] (escapes left in) and the index after its closing quote.
func jsonStringAt(b []byte, i int) ([]byte, int, bool) {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return b[i+1 : j], j + 1, true
		}
	}
	return nil, 0, false
}

// skipJSONValue returns the index after the JSON number, literal, object
// or array starting at b[i], or -1. Strings inside are skipped whole.
func skipJSONValue(b []byte, i int) int {
	depth := 0
	for j := i; j < len(b); j++ {
		switch c := b[j]; c {
		case '"':
			_, k, ok := jsonStringAt(b, j)
			if !ok {
				return -1
			}
			j = k - 1
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return j
			}
			depth--
			if depth == 0 {
				return j + 1
			}
		case ',':
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// unescapeJSON appends the JSON string content raw (without quotes) to dst
// with its escapes undone; false on a bad escape.
func unescapeJSON(dst, raw []byte) ([]byte, bool) {
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' {
			dst = append(dst, c)
			continue
		}
		i++
		if i >= len(raw) {
			return dst, false
		}
		switch raw[i] {
		case '"', '\\', '/':
			dst = append(dst, raw[i])
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, ok := hex4(raw[i+1:])
			if !ok {
				return dst, false
			}
			i += 4
			if utf16.IsSurrogate(r) {
				d := utf8.RuneError
				if i+6 < len(raw) && raw[i+1] == '\\' && raw[i+2] == 'u' {
					if r2, ok := hex4(raw[i+3:]); ok {
						if d = utf16.DecodeRune(r, r2); d != utf8.RuneError {
							i += 6
						}
					}
				}
				r = d
			}
			dst = utf8.AppendRune(dst, r)
		default:
			return dst, false
		}
	}
	return dst, true
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
