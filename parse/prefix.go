package parse

import (
	"bytes"
	"fmt"
	"time"
	"unicode/utf16"
	"unicode/utf8"
)

// Dumps are often read from where a collector or a person put them, with
// something in front of every line:
//
//	2026-12-01T10:38:11.089203Z goroutine 1 [running]:                    kubectl logs --timestamps
//	2026-12-01T10:38:11.089203Z stderr F goroutine 1 [running]:           CRI log file (/var/log/pods)
//	{"log":"goroutine 1 [running]:\n","stream":"stderr","time":"..."}      docker json-file
//	Dec 01 10:38:11 vm orders[4242]: goroutine 1 [running]:               journalctl, syslog
//	    goroutine 1 [running]:                                            Markdown code block, paste
//	> goroutine 1 [running]:                                              quoted in a mail or an issue
//
// Rules (the prefix pre-pass, one state machine in lineSource):
//
//  1. A prefix is found where a dump starts: a line that starts no dump as
//     it is, but does once a prefix shape (prefixShapes, tried in order) is
//     taken off it, starts a prefixed dump. The shape and its pin (the
//     part every line of this dump must repeat: the indentation or quote
//     itself, the stream for docker and CRI, host and process for syslog)
//     are fixed by that line.
//  2. While the dump is read, each line that carries the pin is given to
//     the parser without it; a blank line is given as blank. Docker's and
//     CRI's partial records (a long line cut into pieces) are joined first.
//  3. A line that does not carry the pin (another process in the journal,
//     the other stream, a line with no prefix) is never given to the
//     parser: it is recorded in the dump's Skipped, with its position.
//  4. A paste ends where its prefix ends: after a line without the pin, up
//     to pasteGap more lines are read ahead; if one of them carries the
//     pin again, the lines between were inside the dump (rule 3); if not,
//     or if one of them starts a dump as it is, the paste is over and those
//     lines are read as they are.
//  5. The dump's Time, when the dump prints none, is the time of its
//     first line's prefix (Dump.Prefix names the shape). Syslog dates
//     without a year get the year that puts them at most a day after
//     Options.Now.
//
// journalctl (without --all) shows a TAB as 8 spaces; at the start of a
// syslog message each run of 8 spaces is given back as a TAB, which Go
// dumps need before their file lines.

// prefixShape is one kind of line prefix.
type prefixShape struct {
	name string // Dump.Prefix
	// paste is true for a prefix a person added (indentation, quote): it
	// ends where the paste ends (rule 4), and it is its own pin.
	paste bool
	// split reads the prefix off line into pl; false when line does not
	// carry this shape. pl.text may alias line or pl.buf.
	split func(line []byte, pl *prefixLine) bool
	// time reads pl.stamp; zero if the shape has no time.
	time func(stamp []byte, now time.Time) time.Time
}

// prefixLine is a line split by a prefix shape.
type prefixLine struct {
	text    []byte // the line without its prefix
	stamp   []byte // the time as written in the prefix; nil if none
	source  []byte // what every line of one dump repeats (see rule 1)
	partial bool   // docker, CRI: a piece of a longer line, continued by the next record
	buf     []byte // scratch for text that needs decoding (docker's JSON string)
}

// prefixShapes is the order in which shapes are tried (read-only). The
// collectors' shapes come first: their prefixes are exact, and a CRI line
// also reads as a kubectl line whose text is "stdout F ...".
var prefixShapes = []prefixShape{
	{name: "docker json-file", split: splitDocker, time: rfc3339Time},
	{name: "cri", split: splitCRI, time: rfc3339Time},
	{name: "kubectl --timestamps", split: splitKubectl, time: rfc3339Time},
	{name: "syslog", split: splitSyslog, time: syslogTime},
	{name: "quote", paste: true, split: splitQuote},
	{name: "indent", paste: true, split: splitIndent},
}

// pasteGap is how many non-blank lines without the prefix a paste may
// hold inside a dump (rule 4), the same bound as log lines inside a JVM
// dump (jstackScanner.resumable); pasteLookMax bounds the lines read ahead.
const (
	pasteGap     = 3
	pasteLookMax = 64
)

// findPrefix looks for a prefix shape under which line starts a dump
// (rule 1). prev is the raw line before line (nil if none); pl and ppl are
// scratch. It returns the shape, with pl holding line split by it, the
// previous line's text under the same shape and source (nil if none), and
// the text format that starts there.
func findPrefix(line, prev []byte, pl, ppl *prefixLine) (*prefixShape, []byte, *textFormat) {
	if len(line) == 0 {
		return nil, nil, nil
	}
	for i := range prefixShapes {
		sh := &prefixShapes[i]
		if !sh.split(line, pl) || pl.partial || len(pl.text) == 0 {
			continue
		}
		var pv []byte
		if len(prev) > 0 && sh.split(prev, ppl) && !ppl.partial && bytes.Equal(ppl.source, pl.source) {
			pv = ppl.text
		}
		for j := range textFormats {
			if textFormats[j].starts(pl.text, pv) {
				return sh, pv, &textFormats[j]
			}
		}
	}
	return nil, nil, nil
}

// prefixMode is the prefix of the dump being read.
type prefixMode struct {
	shape *prefixShape
	pin   []byte // paste: the prefix; collector: the source
	// startsDump reports whether a line, as it is, starts a dump: a dump
	// after a paste ends it (a TAB-indented paste followed by a Go dump,
	// whose file lines begin with a TAB too). A field, not a call of the
	// text formats' table, which refers to the parsers that call next.
	startsDump func(line []byte) bool
	pl         prefixLine
	join       []byte // a line joined from partial records
}

// beginPrefix starts reading a prefixed dump whose first line was the
// line just returned by next, split into pl (rule 1): next returns that
// line again, without its prefix.
func (s *lineSource) beginPrefix(sh *prefixShape, pl *prefixLine, startsDump func([]byte) bool) {
	s.mode = &prefixMode{shape: sh, pin: append([]byte(nil), pl.source...), startsDump: startsDump}
	s.first = append(s.first[:0], pl.text...)
	s.line = s.first
	s.back = true
}

// endPrefix ends the prefixed dump: later lines are read as they are.
func (s *lineSource) endPrefix() { s.mode = nil }

// nextPrefixed is next in a prefixed dump (rules 2 to 4).
func (s *lineSource) nextPrefixed() ([]byte, bool) {
	m := s.mode
	for {
		raw, ok := s.read()
		if !ok {
			return nil, false
		}
		if m.shape.paste {
			switch {
			case bytes.HasPrefix(raw, m.pin):
				return raw[len(m.pin):], true
			case isPasteBlank(raw, m.pin):
				return raw[:0], true
			case s.pasteGoesOn(raw):
				continue
			}
			s.mode = nil // the paste is over: the lines read ahead come back as they are
			return s.read()
		}
		if len(bytes.TrimSpace(raw)) == 0 {
			return raw[:0], true
		}
		no := s.rawN
		if !m.shape.split(raw, &m.pl) {
			s.hold(no, raw, fmt.Sprintf("line without the %s prefix of the dump's other lines", m.shape.name))
			continue
		}
		if !bytes.Equal(m.pl.source, m.pin) {
			s.hold(no, raw, fmt.Sprintf("line from %q inside a dump from %q (%s)", m.pl.source, m.pin, m.shape.name))
			continue
		}
		if !m.pl.partial {
			return m.pl.text, true
		}
		// Pieces of one long line (rule 2), read until the last piece.
		m.join = append(m.join[:0], m.pl.text...)
		for m.pl.partial {
			raw, ok = s.read()
			if !ok {
				break
			}
			if !m.shape.split(raw, &m.pl) || !bytes.Equal(m.pl.source, m.pin) {
				s.hold(s.rawN, raw, fmt.Sprintf("line inside a partial %s record", m.shape.name))
				continue
			}
			if len(m.join)+len(m.pl.text) > s.max {
				m.pl.partial = false
				s.hold(no, m.join, fmt.Sprintf("line longer than %s joined from %s records: skipped", byteSize(int64(s.max)), m.shape.name))
				m.join = m.join[:0]
				break
			}
			m.join = append(m.join, m.pl.text...)
		}
		if len(m.join) == 0 {
			continue
		}
		s.rawN = no
		return m.join, true
	}
}

// pasteGoesOn reads ahead after first, a line without the paste's prefix
// (rule 4). When the prefix comes back within pasteGap lines, the lines
// without it are recorded as skipped and the rest is queued to be read
// again: true. Otherwise every line read is queued as it is: false.
func (s *lineSource) pasteGoesOn(first []byte) bool {
	pin := s.mode.pin
	look := []rawLine{{no: s.rawN, text: append([]byte(nil), first...), partial: s.rawPartial}}
	found := false
	for nonBlank := 1; nonBlank <= pasteGap && len(look) < pasteLookMax && !s.mode.startsDump(look[len(look)-1].text); {
		raw, ok := s.read()
		if !ok {
			break
		}
		look = append(look, rawLine{no: s.rawN, text: append([]byte(nil), raw...), partial: s.rawPartial})
		if bytes.HasPrefix(raw, pin) {
			found = true
			break
		}
		if !isPasteBlank(raw, pin) {
			nonBlank++
		}
	}
	if !found {
		s.queue = append(look, s.queue...)
		return false
	}
	keep := look[:0]
	for _, l := range look {
		if bytes.HasPrefix(l.text, pin) || isPasteBlank(l.text, pin) {
			keep = append(keep, l)
			continue
		}
		s.hold(l.no, l.text, fmt.Sprintf("line without the %s %q the dump's other lines begin with", s.mode.shape.name, pin))
	}
	s.queue = append(keep, s.queue...)
	return true
}

// isPasteBlank reports whether raw is a blank line of a paste with prefix
// pin: empty or white, or the quote marks alone (">").
func isPasteBlank(raw, pin []byte) bool {
	t := bytes.TrimRight(raw, " \t")
	return len(t) == 0 || bytes.Equal(t, bytes.TrimRight(pin, " \t"))
}

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
			switch string(key) {
			case "log":
				log, haveLog = val, true
			case "stream":
				stream = val
			case "time":
				stamp = val
			}
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
		if line[i] != '}' || len(bytes.TrimSpace(line[i+1:])) != 0 {
			return false
		}
		break
	}
	if !haveLog || stamp == nil || rfc3339Len(stamp) != len(stamp) {
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
	text, buf = untabJournal(text, buf)
	*pl = prefixLine{text: text, stamp: line[:n], source: rest[:end], buf: buf}
	return true
}

// untabJournal gives back the TABs journalctl shows as 8 spaces at the
// start of a message: "        at x" becomes "\tat x", written into buf
// (the raw line is left as it is).
func untabJournal(text, buf []byte) ([]byte, []byte) {
	k := 0
	for len(text) >= 8*(k+1) && string(text[8*k:8*(k+1)]) == "        " {
		k++
	}
	if k == 0 {
		return text, buf
	}
	buf = buf[:0]
	for i := 0; i < k; i++ {
		buf = append(buf, '\t')
	}
	buf = append(buf, text[8*k:]...)
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
