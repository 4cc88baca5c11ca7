package parse

import (
	"bytes"
	"time"
)

// The prefix shapes of prefix.go: each reads its prefix off a line
// (split) and its time (time). One pass over the prefix's bytes, no
// regexp: split runs on every line of a prefixed dump.

// splitIndent: the leading spaces and tabs.
func splitIndent(line []byte, pl *prefixLine) bool {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	*pl = prefixLine{text: line[i:], source: line[:i], buf: pl.buf}
	return i > 0
}

// splitQuote: "> ", ">> ", "> > " (each '>' with at most one space after it).
func splitQuote(line []byte, pl *prefixLine) bool {
	i := 0
	for i < len(line) && line[i] == '>' {
		i++
		if i < len(line) && line[i] == ' ' {
			i++
		}
	}
	*pl = prefixLine{text: line[i:], source: line[:i], buf: pl.buf}
	return i > 0
}

// splitKubectl: `kubectl logs --timestamps`, an RFC 3339 time and a space:
//
//	2026-12-01T10:38:11.089203512Z goroutine 1 [running]:
func splitKubectl(line []byte, pl *prefixLine) bool {
	n := rfc3339Len(line)
	if n == 0 || n >= len(line) || line[n] != ' ' {
		return false
	}
	*pl = prefixLine{text: line[n+1:], stamp: line[:n], buf: pl.buf}
	return true
}

// splitCRI: the container runtime's log file (what kubelet reads and
// collectors tail), time, stream, tag (F full, P partial) and the text:
//
//	2026-12-01T10:38:11.089203512Z stderr F goroutine 1 [running]:
func splitCRI(line []byte, pl *prefixLine) bool {
	n := rfc3339Len(line)
	if n == 0 || n >= len(line) || line[n] != ' ' {
		return false
	}
	rest := line[n+1:]
	var stream []byte
	switch {
	case bytes.HasPrefix(rest, []byte("stdout ")), bytes.HasPrefix(rest, []byte("stderr ")):
		stream, rest = rest[:6], rest[7:]
	default:
		return false
	}
	sp := bytes.IndexByte(rest, ' ')
	tag := rest
	if sp >= 0 {
		tag, rest = rest[:sp], rest[sp+1:]
	} else {
		rest = rest[len(rest):]
	}
	if len(tag) == 0 || tag[0] != 'F' && tag[0] != 'P' {
		return false
	}
	*pl = prefixLine{text: rest, stamp: line[:n], source: stream, partial: tag[0] == 'P', buf: pl.buf}
	return true
}

// splitDocker: one record of docker's json-file log driver; a line cut by
// docker (16 KiB pieces) has no "\n" at the end of its "log":
//
//	{"log":"goroutine 1 [running]:\n","stream":"stderr","time":"2026-12-01T10:38:11.089203512Z"}
func splitDocker(line []byte, pl *prefixLine) bool {
	if len(line) < 10 || line[0] != '{' {
		return false
	}
	var log, stream, stamp []byte
	haveLog := false
	ok := scanJSONObject(line, func(key, val []byte) {
		switch string(key) {
		case "log":
			log, haveLog = val, true
		case "stream":
			stream = val
		case "time":
			stamp = val
		}
	})
	if !ok || !haveLog || stamp == nil || rfc3339Len(stamp) != len(stamp) {
		return false
	}
	buf, ok := unescapeJSON(pl.buf[:0], log)
	if !ok {
		return false
	}
	partial := true
	if n := len(buf); n > 0 && buf[n-1] == '\n' {
		buf, partial = buf[:n-1], false
		if n := len(buf); n > 0 && buf[n-1] == '\r' {
			buf = buf[:n-1]
		}
	}
	*pl = prefixLine{text: buf, stamp: stamp, source: stream, partial: partial, buf: buf}
	return true
}

// splitTest2JSON: one output event of `go test -json` (test2json), whose
// Output holds one line of what the test printed (a panic's goroutines
// too); its source is the package and the test, so that the output of
// tests run in parallel is not read into one dump. Other events (run,
// pause, pass) carry no line: inside a dump they are skipped, counted.
//
//	{"Time":"2025-04-01T08:56:08.596399828-03:00","Action":"output","Package":"example.com/svc","Test":"TestX","Output":"goroutine 20 [running]:\n"}
func splitTest2JSON(line []byte, pl *prefixLine) bool {
	if len(line) < 10 || line[0] != '{' {
		return false
	}
	var out, action, pkg, test, stamp []byte
	haveOut := false
	ok := scanJSONObject(line, func(key, val []byte) {
		switch string(key) {
		case "Output":
			out, haveOut = val, true
		case "Action":
			action = val
		case "Package":
			pkg = val
		case "Test":
			test = val
		case "Time":
			stamp = val
		}
	})
	if !ok || !haveOut || string(action) != "output" || stamp == nil || rfc3339Len(stamp) != len(stamp) {
		return false
	}
	buf, ok := unescapeJSON(pl.buf[:0], out)
	if !ok {
		return false
	}
	partial := true
	if n := len(buf); n > 0 && buf[n-1] == '\n' {
		buf, partial = buf[:n-1], false
	}
	// The source aliases the line: package, a NUL, the test.
	src := line[len(line):]
	if len(pkg) > 0 || len(test) > 0 {
		src = append(append(append(pl.src[:0], pkg...), 0), test...)
		pl.src = src
	}
	*pl = prefixLine{text: buf, stamp: stamp, source: src, partial: partial, buf: buf, src: pl.src}
	return true
}

// scanJSONObject calls fn with each string member of the JSON object
// line (its raw value, escapes left in; other values are skipped); false
// when line is not one object.
func scanJSONObject(line []byte, fn func(key, val []byte)) bool {
	i := 1
	for {
		i = skipSpace(line, i)
		if i >= len(line) || line[i] != '"' {
			return false
		}
		key, j, ok := jsonStringAt(line, i)
		if !ok {
			return false
		}
		i = skipSpace(line, j)
		if i >= len(line) || line[i] != ':' {
			return false
		}
		i = skipSpace(line, i+1)
		if i >= len(line) {
			return false
		}
		if line[i] == '"' {
			val, j, ok := jsonStringAt(line, i)
			if !ok {
				return false
			}
			fn(key, val)
			i = j
		} else if i = skipJSONValue(line, i); i < 0 {
			return false
		}
		i = skipSpace(line, i)
		if i >= len(line) {
			return false
		}
		if line[i] == ',' {
			i++
			continue
		}
		return line[i] == '}' && len(bytes.TrimSpace(line[i+1:])) == 0
	}
}

// splitSyslog: journalctl's short outputs and syslog files, a time, the
// host and the process, then the message:
//
//	Dec 01 10:38:11 vm orders[4242]: goroutine 1 [running]:                 journalctl (short)
//	Dec 01 10:38:11.089203 vm orders[4242]: ...                             -o short-precise
//	2026-12-01T10:38:11+0000 vm orders[4242]: ...                           -o short-iso
//	2026-12-01T10:38:11.089203+0000 vm orders[4242]: ...                    -o short-iso-precise
//	Dec  1 10:38:11 vm orders[4242]: ...                                    rsyslog (traditional)
//	2026-12-01T10:38:11.089203+00:00 vm orders[4242]: ...                   rsyslog (RFC 3339)
func splitSyslog(line []byte, pl *prefixLine) bool {
	n := syslogStampLen(line)
	if n == 0 || n >= len(line) || line[n] != ' ' {
		return false
	}
	rest := line[n+1:]
	sp := bytes.IndexByte(rest, ' ')
	if sp <= 0 {
		return false
	}
	// The tag, "orders[4242]:" or "kernel:", ends at the first ':'.
	tagStart := sp + 1
	end := tagStart
	for end < len(rest) && rest[end] != ':' && rest[end] != ' ' && rest[end] != '[' {
		end++
	}
	if end == tagStart || end >= len(rest) {
		return false
	}
	if rest[end] == '[' {
		k := bytes.IndexByte(rest[end:], ']')
		if k < 2 || !allDigits(rest[end+1:end+k]) {
			return false
		}
		end += k + 1
	}
	if end >= len(rest) || rest[end] != ':' {
		return false
	}
	text := rest[end+1:]
	if len(text) > 0 {
		if text[0] != ' ' {
			return false
		}
		text = text[1:]
	}
	buf := pl.buf
	col := len(line) - len(text) // before untabSyslog, which may write text elsewhere
	text, buf = untabSyslog(text, buf)
	*pl = prefixLine{text: text, stamp: line[:n], source: rest[:end], buf: buf, col: col}
	return true
}

// untabSyslog gives back the TABs a syslog writer hid at the start of a
// message: journalctl shows one as 8 spaces, rsyslog (control characters
// escaped on receive, its default) as "#011". "        at x" and
// "#011at x" become "\tat x", written into buf (the raw line is left as it
// is).
func untabSyslog(text, buf []byte) ([]byte, []byte) {
	k, width := 0, 8
	switch {
	case bytes.HasPrefix(text, []byte("#011")):
		width = 4
		for len(text) >= 4*(k+1) && string(text[4*k:4*(k+1)]) == "#011" {
			k++
		}
	default:
		for len(text) >= 8*(k+1) && string(text[8*k:8*(k+1)]) == "        " {
			k++
		}
	}
	if k == 0 {
		return text, buf
	}
	buf = buf[:0]
	for i := 0; i < k; i++ {
		buf = append(buf, '\t')
	}
	buf = append(buf, text[width*k:]...)
	return buf, buf
}

// syslogStampLen returns the length of the syslog time at the start of b
// ("Dec 01 10:38:11", "Dec  1 10:38:11.089203", an ISO 8601 time with a
// "+0000" or "+00:00" offset), or 0.
func syslogStampLen(b []byte) int {
	if n := rfc3339Len(b); n > 0 {
		return n
	}
	if n := isoCompactLen(b); n > 0 {
		return n
	}
	if len(b) < 15 || monthIndex(b[:3]) < 0 || b[3] != ' ' {
		return 0
	}
	if !(b[4] == ' ' || isDigit(b[4])) || !isDigit(b[5]) || b[6] != ' ' || !isClock(b[7:15]) {
		return 0
	}
	n := 15
	if n < len(b) && b[n] == '.' {
		k := n + 1
		for k < len(b) && isDigit(b[k]) {
			k++
		}
		if k > n+1 {
			n = k
		}
	}
	return n
}

// isoCompactLen returns the length of journalctl's short-iso time at the
// start of b, "2026-12-01T10:38:11+0000" or with ".089203" before the
// offset, or 0.
func isoCompactLen(b []byte) int {
	if len(b) < 24 || !isDate(b[:10]) || b[10] != 'T' || !isClock(b[11:19]) {
		return 0
	}
	n := 19
	if b[n] == '.' {
		k := n + 1
		for k < len(b) && isDigit(b[k]) {
			k++
		}
		n = k
	}
	if n+5 > len(b) || b[n] != '+' && b[n] != '-' {
		return 0
	}
	for _, c := range b[n+1 : n+5] {
		if !isDigit(c) {
			return 0
		}
	}
	return n + 5
}

// rfc3339Len returns the length of the RFC 3339 time at the start of b
// ("2026-12-01T10:38:11.089203512Z", "2026-12-01T11:38:11+01:00"), or 0.
// Shape only: the time package reads it when its value is needed.
func rfc3339Len(b []byte) int {
	if len(b) < 20 || !isDate(b[:10]) || b[10] != 'T' || !isClock(b[11:19]) {
		return 0
	}
	n := 19
	if b[n] == '.' {
		k := n + 1
		for k < len(b) && isDigit(b[k]) {
			k++
		}
		if k == n+1 {
			return 0
		}
		n = k
	}
	switch {
	case n < len(b) && b[n] == 'Z':
		return n + 1
	case n+6 <= len(b) && (b[n] == '+' || b[n] == '-') && isDigit(b[n+1]) && isDigit(b[n+2]) && b[n+3] == ':' &&
		isDigit(b[n+4]) && isDigit(b[n+5]):
		return n + 6
	}
	return 0
}

// isDate reports whether b is "2026-12-01" (digits and dashes).
func isDate(b []byte) bool {
	for i, c := range b {
		if i == 4 || i == 7 {
			if c != '-' {
				return false
			}
		} else if !isDigit(c) {
			return false
		}
	}
	return len(b) == 10
}

// isClock reports whether b is "10:38:11".
func isClock(b []byte) bool {
	return len(b) == 8 && isDigit(b[0]) && isDigit(b[1]) && b[2] == ':' && isDigit(b[3]) && isDigit(b[4]) &&
		b[5] == ':' && isDigit(b[6]) && isDigit(b[7])
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

var months = [...]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}

func monthIndex(b []byte) int {
	for i, m := range months {
		if string(b) == m {
			return i
		}
	}
	return -1
}

// rfc3339Time reads a collector's time; zero if it does not parse.
func rfc3339Time(stamp []byte, _ time.Time) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, string(stamp))
	return t
}

// syslogTime reads a syslog time. Without a year ("Dec 01 10:38:11") it
// gets the year that puts it at most a day after now, and, without a zone,
// the wall clock as printed in UTC as a stand-in zone (as JVM date lines).
func syslogTime(stamp []byte, now time.Time) time.Time {
	s := string(stamp)
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999-0700"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t
		}
	}
	t, err := time.Parse("Jan _2 15:04:05.999999999", s)
	if err != nil {
		return time.Time{}
	}
	t = t.AddDate(now.Year()-t.Year(), 0, 0)
	if t.After(now.Add(24 * time.Hour)) {
		t = t.AddDate(-1, 0, 0)
	}
	return t
}
