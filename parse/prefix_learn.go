package parse

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"time"
)

// The learned prefix. The shapes of prefix_shapes.go are the collectors
// dumpdiff knows; every other tool puts its own text before each line:
//
//	[info] goroutine 1 [running]:                               a build tool (sbt)
//	api-1  | goroutine 1 [running]:                             docker compose
//	  12 | goroutine 1 [running]:                               an editor's copy with line numbers
//	2026-12-01 10:38:11,089 INFO  [main] App - "main" #1 ...    a logger's layout, line by line
//	\x1b[36mapi-1  |\x1b[0m goroutine 1 [running]:              the same, coloured
//
// A person sees the dump at a glance: a dump's first line, after some
// text. The reader does the same (rules, after prefix.go's):
//
//  1. A line outside a dump in which a dump's first line starts after
//     some text (peel: every place after a word's end where a text
//     format's starts claims the rest, and claims it by a line only a dump
//     starts with: a goroutine header, "Full thread dump", a HotSpot
//     header, not a date or a number) makes that text a candidate prefix.
//  2. The candidate's shape is learned (learnShape): literal runs, and
//     variable fields where lines of one source differ: digits (counters,
//     times), long hex words (ids), runs of spaces (padding), ANSI colour.
//     A word glued to a name ("api-1", "web.1", "orders[4242]") stays
//     literal: it is which source the line is from.
//  3. The shape is confirmed on the lines after it (learnConfirm: at least
//     learnConfirmNeed of the next learnLook lines carry it), else the
//     line is passed over as it is.
//  4. The dump is then read as a collector's (prefix.go rules 2 and 3):
//     lines of the shape lose it, lines of other shapes are held,
//     recorded in the dump's Skipped with their position, and read again
//     after the dump; the next dump learns its own prefix.
//  5. A time in the prefix (RFC 3339, "2006-01-02 15:04:05,000",
//     "2006/01/02 15:04:05", syslog's) is the dump's Time when the dump
//     prints none, as a collector's.
//  6. Prefixes nest, to learnDepth layers in any order (peel): a known
//     shape at the start of the text a layer leaves (a docker record, a
//     kubectl time, a CRI line), or learned text before a dump's start or
//     before a JSON record ("[info] {\"log\":\"2026-...Z goroutine 1
//     [running]:\n\",...}": a tool's prefix over a docker record over a
//     kubectl time). A time or a known shape's text in the middle of a
//     learned prefix is absorbed in it (times and digits are fields).
//     Each layer's source (a stream, a process) is pinned; the time is
//     the innermost layer's.
//  7. Padding beside a field of varying width may vanish ("9999 | " then
//     "10000| "), and a weekday's or month's name is a field (a time
//     turns at midnight).
//  8. A collector's known shape is confirmed as a learned one is (rule
//     3, with its source); when it is not (a syslog shape that reads a
//     counter as the process), a learned prefix that is confirmed wins.
//
// Cost: nothing on a line inside a dump, and nothing on a dump read as it
// is. On a line outside a dump, one pass over its first learnMaxPrefix
// bytes, calling the formats' starts at each word boundary; lines are
// read ahead (lineSource.peek) only for a candidate.

// learnMaxPrefix bounds the prefix a line may carry, in bytes, ANSI
// colour codes included: a log layout with a time, a level, a thread and
// a logger name fits, and one nested in another tool's with its own time
// and a CRI line's (each layer is bounded alone); a longer run of text
// before a dump's first line is a sentence, not a prefix. It bounds the
// cost of a line outside a dump too (see Cost above).
const learnMaxPrefix = 256

// learnLook and learnConfirmNeed: a candidate prefix is a prefix when at
// least learnConfirmNeed of the learnLook raw lines after it carry its
// shape. Two, so that one log line of the same layout that happens to
// name a goroutine is not a dump; within eight, so that another service's
// lines interleaved between the dump's do not hide it.
const (
	learnLook        = 8
	learnConfirmNeed = 2
)

// ptokKind is the kind of one token of a learned prefix.
type ptokKind uint8

const (
	ptLit    ptokKind = iota // these bytes
	ptSpace                  // one or more spaces; none too as the first token or as padding; exactly lit as the last, or fewer before a tab
	ptDigits                 // one or more ASCII digits
	ptHex                    // one or more hex digits
	ptANSI                   // any number of ANSI CSI sequences ("\x1b[36m"), none too
	ptStamp                  // a time read by the shape's stampLen (a fraction's digits vary, RFC 3339 drops a zero one)
	ptDay                    // a weekday's name, "Mon" to "Sun": a time's, which turns at midnight
	ptMonth                  // a month's name, "Jan" to "Dec": a time's ("02/Jan/2006:15:04:05")
)

type ptok struct {
	kind ptokKind
	lit  []byte // ptLit, and ptSpace as learned
	// pad is true for spaces beside a field of varying width (digits,
	// hex): padding, which a wider value eats ("%4d | " prints "9999 | "
	// then "10000| "), so none is one too.
	pad bool
}

// learnedShape is the shape of a prefix learned from one line.
type learnedShape struct {
	toks []ptok
	// stampLen reads the time's length (findStamp), and stampLayout is how
	// it is read ("syslog": syslogTime); "" when the prefix holds no time.
	stampLen    func([]byte) int
	stampLayout string
	pattern     string // the shape as text, for Dump.Prefix
}

// isWordByte reports whether c is part of a word of a prefix.
func isWordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// ansiLen returns the length of the ANSI CSI sequence at the start of b
// ("\x1b[0m", "\x1b[1;36m"), or 0.
func ansiLen(b []byte) int {
	if len(b) < 3 || b[0] != 0x1b || b[1] != '[' {
		return 0
	}
	for i := 2; i < len(b) && i < 32; i++ {
		c := b[i]
		switch {
		case c >= 0x30 && c <= 0x3f, c >= 0x20 && c <= 0x2f: // parameters, intermediates
		case c >= 0x40 && c <= 0x7e:
			return i + 1
		default:
			return 0
		}
	}
	return 0
}

// learnShape learns the shape of prefix (rule 2); nil when prefix is no
// prefix: empty, white space alone (the indent shape's), or ending inside
// a word.
func learnShape(prefix []byte) *learnedShape {
	if len(bytes.TrimLeft(prefix, " \t")) == 0 || len(prefix) > learnMaxPrefix {
		return nil
	}
	prefix = bytes.Clone(prefix) // the tokens alias it; the line is the reader's
	sh := &learnedShape{}
	sa, sb, stampLen, layout := findStamp(prefix)
	var lit []byte
	flush := func() {
		if len(lit) > 0 {
			sh.toks = append(sh.toks, ptok{kind: ptLit, lit: lit})
			lit = nil
		}
	}
	add := func(t ptok) {
		flush()
		sh.toks = append(sh.toks, t)
	}
	i := 0
	for i < len(prefix) {
		if i == sa && sb > sa {
			add(ptok{kind: ptStamp})
			sh.stampLen, sh.stampLayout = stampLen, layout
			i = sb
			continue
		}
		c := prefix[i]
		if n := ansiLen(prefix[i:]); n > 0 {
			for n > 0 {
				i += n
				n = ansiLen(prefix[i:])
			}
			if k := len(sh.toks); len(lit) > 0 || k == 0 || sh.toks[k-1].kind != ptANSI {
				add(ptok{kind: ptANSI})
			}
			continue
		}
		if c == ' ' {
			j := i
			for j < len(prefix) && prefix[j] == ' ' && (j == i || j != sa || sb == sa) {
				j++
			}
			add(ptok{kind: ptSpace, lit: prefix[i:j]})
			i = j
			continue
		}
		if !isWordByte(c) {
			lit = append(lit, c)
			i++
			continue
		}
		j := i
		for j < len(prefix) && isWordByte(prefix[j]) {
			j++
		}
		for _, t := range wordTokens(prefix, i, j) {
			if t.kind == ptLit {
				lit = append(lit, t.lit...)
			} else {
				add(t)
			}
		}
		i = j
	}
	flush()
	for k := range sh.toks {
		t := &sh.toks[k]
		if t.kind != ptSpace || k == len(sh.toks)-1 {
			continue
		}
		t.pad = k > 0 && (sh.toks[k-1].kind == ptDigits || sh.toks[k-1].kind == ptHex) ||
			sh.toks[k+1].kind == ptDigits || sh.toks[k+1].kind == ptHex
	}
	if isWordByte(prefix[len(prefix)-1]) && sh.toks[len(sh.toks)-1].kind == ptLit {
		return nil // "xgoroutine 1 [": the start word is glued to another
	}
	sh.pattern = sh.describe()
	return sh
}

// wordTokens classifies the word prefix[a:b] (rule 2):
//
//	1234, 01               digits
//	7f3a9c2e, 0x7f3a9c     hex: an id (six or more hex digits, letters and digits both)
//	01T10, 089203512Z      digits around single letters: a time's parts
//	api-1, web.1, s[42]    a number glued to a name: literal (the source)
//	Mon, Dec               a weekday's or a month's name: a time's part
//	info, INFO             literal
func wordTokens(p []byte, a, b int) []ptok {
	w := p[a:b]
	// The letter before is a name's, not the final byte of an ANSI
	// sequence ("\x1b[35m[9359]": a counter in brackets after a colour).
	glued := a >= 2 && bytes.IndexByte([]byte("-_.#/["), p[a-1]) >= 0 && isLetter(p[a-2]) &&
		!(p[a-2] == 'm' && bytes.LastIndexByte(p[max(0, a-18):a-1], 0x1b) >= 0 && ansiLen(p[bytes.LastIndexByte(p[:a-1], 0x1b):]) == a-1-bytes.LastIndexByte(p[:a-1], 0x1b))
	if glued {
		return []ptok{{kind: ptLit, lit: w}}
	}
	digits, letters, hex := 0, 0, true
	for _, c := range w {
		switch {
		case isDigit(c):
			digits++
		default:
			letters++
			if !isHex(c) {
				hex = false
			}
		}
	}
	switch {
	case letters == 0:
		return []ptok{{kind: ptDigits}}
	case digits == 0 && len(w) == 3 && dayIndex(w) >= 0:
		return []ptok{{kind: ptDay}}
	case digits == 0 && len(w) == 3 && monthIndex(w) >= 0:
		return []ptok{{kind: ptMonth}}
	case digits == 0:
		return []ptok{{kind: ptLit, lit: w}}
	case len(w) > 2 && w[0] == '0' && w[1] == 'x' && allHex(w[2:]):
		return []ptok{{kind: ptLit, lit: w[:2]}, {kind: ptHex}}
	case hex && len(w) >= 6:
		return []ptok{{kind: ptHex}}
	}
	// Digits around single letters ("01T10", "11Z"): each digit run a field.
	if !isDigit(w[0]) {
		return []ptok{{kind: ptLit, lit: w}}
	}
	for k := 1; k < len(w); k++ {
		if isLetter(w[k]) && isLetter(w[k-1]) {
			return []ptok{{kind: ptLit, lit: w}}
		}
	}
	var out []ptok
	for k := 0; k < len(w); {
		if isDigit(w[k]) {
			for k < len(w) && isDigit(w[k]) {
				k++
			}
			out = append(out, ptok{kind: ptDigits})
			continue
		}
		out = append(out, ptok{kind: ptLit, lit: w[k : k+1]})
		k++
	}
	return out
}

// dayIndex returns 0 for "Mon" to 6 for "Sun", else -1.
func dayIndex(b []byte) int {
	if len(b) != 3 {
		return -1
	}
	for i, d := range [...]string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"} {
		if string(b) == d {
			return i
		}
	}
	return -1
}

func allHex(b []byte) bool {
	for _, c := range b {
		if !isHex(c) {
			return false
		}
	}
	return len(b) > 0
}

// match returns the length of the prefix of this shape at the start of
// line, and false when line does not carry it. A line that ends where the
// prefix's last spaces or colour codes would be (an empty line of the
// dump, its trailing spaces stripped) carries it with an empty text.
// stamp is the time's bytes in line; nil when the shape has none.
//
// Cost: one pass over the prefix's bytes; this runs on every line of a
// dump read under a learned prefix.
func (sh *learnedShape) match(line []byte) (n int, stamp []byte, ok bool) {
	i := 0
	last := len(sh.toks) - 1
	for ti := range sh.toks {
		t := &sh.toks[ti]
		if i == len(line) && sh.restBlank(ti) {
			return i, stamp, true
		}
		switch t.kind {
		case ptLit:
			if len(line)-i < len(t.lit) || string(line[i:i+len(t.lit)]) != string(t.lit) {
				return 0, nil, false
			}
			i += len(t.lit)
		case ptSpace:
			if ti == last && ti > 0 {
				if len(line)-i >= len(t.lit) && string(line[i:i+len(t.lit)]) == string(t.lit) {
					i += len(t.lit)
					continue
				}
				// The prefix was learned from a line the dump indents with
				// spaces ("[info]   Goroutine 1 - User:", Delve's), so its
				// last spaces hold the dump's own; a line the dump indents
				// with a tab ("[info] \t 0  0x..." its frames) carries fewer
				// of them (none after "api-1 |") before its tab. Those
				// spaces are the prefix's, the tab the dump's.
				j := i
				for j < len(line) && j-i < len(t.lit) && line[j] == ' ' {
					j++
				}
				if j == len(line) || line[j] != '\t' {
					return 0, nil, false
				}
				i = j
				continue
			}
			j := i
			for j < len(line) && line[j] == ' ' {
				j++
			}
			if j == i && ti > 0 && !t.pad {
				return 0, nil, false
			}
			i = j
		case ptDigits:
			j := i
			for j < len(line) && isDigit(line[j]) {
				j++
			}
			if j == i {
				return 0, nil, false
			}
			i = j
		case ptHex:
			j := i
			for j < len(line) && isHex(line[j]) {
				j++
			}
			if j == i {
				return 0, nil, false
			}
			i = j
		case ptANSI:
			for n := ansiLen(line[i:]); n > 0; n = ansiLen(line[i:]) {
				i += n
			}
		case ptDay, ptMonth:
			if len(line)-i < 3 || t.kind == ptDay && dayIndex(line[i:i+3]) < 0 || t.kind == ptMonth && monthIndex(line[i:i+3]) < 0 {
				return 0, nil, false
			}
			i += 3
		case ptStamp:
			n := sh.stampLen(line[i:])
			if n == 0 {
				return 0, nil, false
			}
			stamp = line[i : i+n]
			i += n
		}
	}
	return i, stamp, true
}

// restBlank reports whether the tokens from ti on can all be empty or
// white: an empty line of the dump whose trailing spaces were stripped.
func (sh *learnedShape) restBlank(ti int) bool {
	for _, t := range sh.toks[ti:] {
		if t.kind != ptSpace && t.kind != ptANSI {
			return false
		}
	}
	return true
}

// describe writes the shape for Dump.Prefix: literals as they are, the
// time as <time>, fields as <n>, <hex>, <ansi>.
func (sh *learnedShape) describe() string {
	var b strings.Builder
	for _, t := range sh.toks {
		switch t.kind {
		case ptStamp:
			b.WriteString("<time>")
		case ptLit, ptSpace:
			b.Write(t.lit)
		case ptDigits:
			b.WriteString("<n>")
		case ptHex:
			b.WriteString("<hex>")
		case ptANSI:
			b.WriteString("<ansi>")
		case ptDay:
			b.WriteString("<day>")
		case ptMonth:
			b.WriteString("<month>")
		}
	}
	return strings.ToValidUTF8(b.String(), "?")
}

// stampReaders are the times a learned prefix reads as times, in the
// order they are tried: the length of one at the start of a line, and
// the layout it is read with.
var stampReaders = []struct {
	n      func([]byte) int
	layout string
}{
	{rfc3339Len, time.RFC3339Nano},                        // 2026-12-01T10:38:11.089203512Z
	{isoCompactLen, "2006-01-02T15:04:05.999999999-0700"}, // 2026-12-01T10:38:11.089+0000
	{syslogStampLen, "syslog"},                            // Dec  1 10:38:11
	{dateTimeLen, "2006-01-02 15:04:05"},                  // 2026-12-01 10:38:11,089
	{slashDateTimeLen, "2006/01/02 15:04:05"},             // 2026/12/01 10:38:11
}

// findStamp finds the first time in prefix that starts after a word's
// end: its bytes prefix[a:b], its reader and its layout.
func findStamp(p []byte) (a, b int, n func([]byte) int, layout string) {
	for i := 0; i < len(p); i++ {
		if i > 0 && isWordByte(p[i-1]) || !isWordByte(p[i]) {
			continue
		}
		for _, r := range stampReaders {
			if k := r.n(p[i:]); k > 0 {
				return i, i + k, r.n, r.layout
			}
		}
	}
	return 0, 0, nil, ""
}

// dateTimeLen returns the length of a logger's local time at the start of
// b, without a zone: "2026-12-01 10:38:11", with ".089" or ",089" after it
// (log4j, logback, Python), or with a 'T'; 0 if none.
func dateTimeLen(b []byte) int { return localTimeLen(b, '-') }

// slashDateTimeLen is dateTimeLen for Go's log package: "2026/12/01 10:38:11.089203".
func slashDateTimeLen(b []byte) int { return localTimeLen(b, '/') }

func localTimeLen(b []byte, sep byte) int {
	if len(b) < 19 || !isClock(b[11:19]) || b[10] != ' ' && b[10] != 'T' || b[4] != sep || b[7] != sep {
		return 0
	}
	for i, c := range b[:10] {
		if i != 4 && i != 7 && !isDigit(c) {
			return 0
		}
	}
	n := 19
	if n+1 < len(b) && (b[n] == '.' || b[n] == ',') && isDigit(b[n+1]) {
		n++
		for n < len(b) && isDigit(b[n]) {
			n++
		}
	}
	return n
}

// learnedTime reads a learned prefix's time; zero if it does not parse.
// A local time without a zone is read in UTC as a stand-in, as JVM date
// lines are.
func (sh *learnedShape) time(stamp []byte, now time.Time) time.Time {
	switch sh.stampLayout {
	case "":
		return time.Time{}
	case "syslog":
		return syslogTime(stamp, now)
	}
	s := string(stamp)
	layout := sh.stampLayout
	if len(s) > 10 && s[10] == 'T' && layout[10] == ' ' {
		layout = layout[:10] + "T" + layout[11:]
	}
	if len(s) > 19 && layout[len(layout)-1] == '5' {
		s = s[:19] + "." + s[20:] // ",089" as ".089"; the layout reads any fraction
	}
	t, err := time.Parse(layout, s)
	if err != nil {
		return time.Time{}
	}
	return t
}

// learnDepth bounds the layers of a nested prefix (rule 6): a tool's
// prefix over a docker record over a kubectl time over another tool's is
// four; a deeper nest is not a log any tool writes.
const learnDepth = 4

// prefixLayer is one layer of a nested prefix: a known shape's (a record,
// a collector's time) or one learned from the line.
type prefixLayer struct {
	known   *prefixShape
	learned *learnedShape
	pl      prefixLine // the layer's scratch: a record's unescaped text lives here
}

// peel finds the layers over a dump's start in text (rules 1 and 6), the
// outermost first, and the format that starts under them; nil when text
// holds no start under at least one layer. At the start of text a known
// shape that is not a paste's is read first; then text before a start,
// or before a JSON record a known shape reads, is learned. A record is
// read whole or not at all: a start found among its escapes and fields
// is never one.
//
// Cost: one pass over text's first learnMaxPrefix bytes per layer,
// calling the formats' starts at each word boundary; the records' splits
// only at a '{'. This runs on lines outside dumps only.
//
// accept, when not nil, is asked about each chain found (rule 3); a chain
// it refuses is passed over and the search goes on (a syslog shape that
// reads a counter as the process: the next lines' differ).
func peel(text []byte, layers []prefixLayer, accept func([]prefixLayer, *textFormat) bool) ([]prefixLayer, *textFormat) {
	if len(layers) > 0 {
		if tf := strongStart(text); tf != nil && (accept == nil || accept(layers, tf)) {
			return layers, tf
		}
	}
	if len(layers) >= learnDepth || len(text) < 4 {
		return nil, nil
	}
	var pl prefixLine
	for i := range prefixShapes {
		sh := &prefixShapes[i]
		if sh.paste || !sh.split(text, &pl) || pl.partial {
			continue
		}
		if out, tf := peel(pl.text, append(layers, prefixLayer{known: sh}), accept); tf != nil {
			return out, tf
		}
		if text[0] == '{' {
			return nil, nil // a record whose text starts no dump
		}
	}
	end := min(len(text), learnMaxPrefix+1)
	for k := 1; k < end; k++ {
		c := text[k]
		if c == ' ' || isWordByte(text[k-1]) && !(text[k-1] == 'm' && bytes.LastIndexByte(text[max(0, k-16):k], 0x1b) >= 0) {
			continue
		}
		rest := text[k:]
		if tf := strongStart(rest); tf != nil {
			if ls := learnShape(text[:k]); ls != nil {
				if out := append(layers, prefixLayer{learned: ls}); accept == nil || accept(out, tf) {
					return out, tf
				}
			}
			continue
		}
		if c != '{' {
			continue
		}
		for i := range prefixShapes {
			sh := &prefixShapes[i]
			if sh.paste || !sh.split(rest, &pl) || pl.partial {
				continue
			}
			ls := learnShape(text[:k])
			if ls == nil {
				return nil, nil
			}
			return peel(pl.text, append(layers, prefixLayer{learned: ls}, prefixLayer{known: sh}), accept)
		}
	}
	return nil, nil
}

// strongStart returns the text format whose dump starts at text with a
// line only a dump starts with (rule 1), or nil: a date, a process id or
// an instant alone starts a JVM dump only as its first line, and a
// goroutine header is one only when it ends like one ("]:"), not inside
// a log message that names a goroutine.
func strongStart(text []byte) *textFormat {
	for i := range textFormats {
		tf := &textFormats[i]
		if !tf.starts(text, nil) {
			continue
		}
		switch tf.format {
		case FormatGoText:
			t := bytes.TrimRight(text, " \r")
			switch {
			case isGoHeader(t):
				if t[len(t)-1] != ':' {
					return nil
				}
			case sigquitAfterText(t):
				return nil
			case isGoStart(t):
			default:
				// A lead-in ("Leaked goroutine: "): only at the start.
				if n := goLeadIn(t); n == 0 || bytes.IndexByte(t[:n], ':') < n-2 {
					return nil
				}
			}
		case FormatJVMText:
			if isDateLine(text) || isPIDLine(text) {
				return nil
			}
		case FormatJVMPlain:
			return nil
		case formatGoLand:
			// "Goroutine 87" is a line of prose as often as GoLand's:
			// read at a line's start or under a known prefix, never
			// learned from. (Delve's headers name a location and a PC.)
			return nil
		case FormatGoDebug1:
			// A record line starts a profile without its header only when
			// a frame follows (goroutine_debug1.go): read at a line's
			// start or under a known prefix, never learned from.
			if isDebug1Record(text) {
				return nil
			}
		case formatGoAggregated:
			// panicparse's group header ("1: running [3 minutes]") is a
			// line any log prints: read at a line's start, or under a
			// known prefix, never learned from. gotraceanalyzer's lines
			// name goroutines.
			if !bytes.Contains(text, []byte("goroutine")) {
				return nil
			}
		}
		return tf
	}
	return nil
}

// startNeedles are the texts one of which every line only a dump starts
// with holds (strongStart): a line without any of them starts no dump
// after any prefix, and is not scanned. Each format's, from its starts:
//
//	goroutine          Go headers, lead-ins, debug=1 "goroutine profile: total"
//	panic: , fatal error: , runtime stack:, SIG   a Go panic's or signal's first line
//	Full thread dump, Threads class SMR info:     HotSpot
//	FULL THREAD DUMP   JRockit
//	jdk.ThreadDump {   jfr print
//	0SECTION, XMTH     javacore: 0SECTION, 1XMTHDINFO, 3XMTHREADINFO
//	1LK                a javacore's LOCKS section pasted alone (javacore_locks.go)
//	Thread.State, deadlock, Java stack information   a JVM excerpt's first
//	                   line (jstack_excerpt.go): a state line, a deadlock report
//	Goroutine          Delve's goroutine headers (delve.go)
//	0  0x              Delve's stack listing: its frame 0 ("0  0x0000000000489b0e in runtime.gopark")
//	Deadlock Detection:, : (state =    the Serviceability Agent's (jstack_sa.go)
//	Thread [           Eclipse's thread line (eclipse.go)
//	Current Thread: , The server has    a game server watchdog's thread line
//	                   and heading (watchdog.go)
//	Type: goroutine, -----------+-----   go tool pprof -traces (pprof_text.go)
//
// and Karaf's one-thread line ("Thread 553 OH-thingHandler-1 WAITING",
// karaf_thread.go), which holds "Thread " and ends in a Thread.State
// name (karafThreadInside), and a quoted thread name's headers (HotSpot, ThreadInfo, IntelliJ, NetBeans t@N), which
// need a '"' and "Id=", " nid=", " t@", `" #` (HotSpot's thread number, a
// header without its ids: mayStartInside) or `" id=` (Dropwizard's page,
// dropwizard.go). TestStartNeedles holds
// the list to strongStart on every line of every committed dump.
var startNeedles = [][]byte{
	[]byte("goroutine"), []byte("panic: "), []byte("fatal error: "), []byte("runtime stack:"), []byte("SIG"),
	[]byte("Full thread dump"), []byte("Threads class SMR info:"), []byte("jdk.ThreadDump {"), []byte("FULL THREAD DUMP"),
	[]byte("0SECTION"), []byte("XMTH"), []byte("1LK"),
	[]byte("Thread.State"), []byte("deadlock"), []byte("Java stack information"),
	[]byte("Goroutine "), []byte("0  0x"),
	[]byte("Deadlock Detection:"), []byte(": (state = "), // the Serviceability Agent's (jstack_sa.go)
	[]byte("Thread ["),                  // Eclipse's thread line (eclipse.go)
	[]byte("LKMON"), []byte("LKREGMON"), // one monitor of a LOCKS section (javacore.go: isMonitorStart)
	[]byte(" is waiting to lock "),                        // a deadlock detector's report (lockreport.go)
	[]byte("Thread Thread["),                              // a blocked-thread checker's warning (blocked_warning.go)
	[]byte("Current Thread: "), []byte("The server has "), // a game server watchdog's report (watchdog.go)
	[]byte("Type: goroutine"), []byte("-----------+-----"), // go tool pprof -traces (pprof_text.go)
}

// mayStartInside reports whether a dump's first line may start somewhere
// in line (rule 1's necessary condition).
//
// Cost: a dozen bytes.Index over the line, once per line outside a dump;
// the scan of every word boundary it saves cost ten times the parse of a
// log with no dump in it.
func mayStartInside(line []byte) bool {
	for _, n := range startNeedles {
		if bytes.Contains(line, n) {
			return true
		}
	}
	if karafThreadInside(line) {
		return true
	}
	return bytes.IndexByte(line, '"') >= 0 && (bytes.Contains(line, []byte("Id=")) || bytes.Contains(line, []byte(" nid=")) || bytes.Contains(line, []byte(" t@")) || bytes.Contains(line, []byte(`" tid=0x`)) ||
		bytes.Contains(line, []byte(`" #`)) || bytes.Contains(line, []byte(`" id=`)))
}

// learnedPrefix is a prefix shape made of layers (rule 6), of which at
// least one is learned, or of known shapes nested.
type learnedPrefix struct {
	layers []prefixLayer // the outermost first
	// stampAt is the layer whose time dates the dump: the innermost that
	// carries one (a learned prefix inside a docker record: the program's
	// own time; a tool's prefix over a docker record: the record's); -1
	// when none does.
	stampAt int
	src     []byte      // the known layers' sources, each ended by a 0 byte
	shape   prefixShape // the prefix shape the line source reads with
	tmp     prefixLine
}

func newLearnedPrefix(layers []prefixLayer) *learnedPrefix {
	lp := &learnedPrefix{layers: slices.Clone(layers), stampAt: -1}
	var names []string
	for i, l := range lp.layers {
		if l.known != nil {
			names = append(names, l.known.name)
			if l.known.time != nil {
				lp.stampAt = i
			}
			continue
		}
		names = append(names, fmt.Sprintf("learned %q", l.learned.pattern))
		if l.learned.stampLayout != "" {
			lp.stampAt = i
		}
	}
	lp.shape = prefixShape{name: strings.Join(names, " over "), split: lp.split, time: lp.time}
	return lp
}

// split is the prefix shape's split: each layer read off the text the
// layer over it left. A record cut in pieces (docker's partial) is read
// as a piece only as the innermost layer, whose pieces the line source
// joins; with more layers inside it, the line does not carry the shape.
// A line blank under a layer is blank.
//
// Cost: each layer's split once per line of the dump.
func (lp *learnedPrefix) split(line []byte, pl *prefixLine) bool {
	text := line
	var stamp []byte
	partial := false
	lp.src = lp.src[:0]
	for i := range lp.layers {
		l := &lp.layers[i]
		if i > 0 && len(bytes.TrimSpace(text)) == 0 {
			text = text[:0]
			break
		}
		if partial {
			return false
		}
		if l.learned != nil {
			n, st, ok := l.learned.match(text)
			if !ok {
				return false
			}
			text = text[n:]
			if i == lp.stampAt {
				stamp = st
			}
			continue
		}
		if !l.known.split(text, &l.pl) {
			return false
		}
		text, partial = l.pl.text, l.pl.partial
		if i == lp.stampAt {
			stamp = l.pl.stamp
		}
		lp.src = append(append(lp.src, l.pl.source...), 0)
	}
	*pl = prefixLine{text: text, stamp: stamp, source: lp.src, partial: partial, buf: pl.buf, src: pl.src}
	return true
}

// time reads the time of the first line's prefix (rule 5), by the layer
// that carries it.
func (lp *learnedPrefix) time(stamp []byte, now time.Time) time.Time {
	if lp.stampAt < 0 {
		return time.Time{}
	}
	if l := lp.layers[lp.stampAt]; l.known != nil {
		return l.known.time(stamp, now)
	}
	return lp.layers[lp.stampAt].learned.time(stamp, now)
}

// learnPrefix is rule 1 to 3 on line, the line just returned by next,
// which starts no dump as it is nor under one known shape; prev is the
// line before it (nil if none). On success it returns the shape, line
// split by it into pl, prev's text under it (nil when prev does not
// carry it), and the text format that starts there. line is a copy
// (valid until the next call): lines may have been read ahead.
func (s *lineSource) learnPrefix(line, prev []byte, pl *prefixLine) (sh *prefixShape, pv []byte, tf *textFormat, copyOf []byte) {
	if !mayStartInside(line) {
		return nil, nil, nil, line
	}
	cutAt := -1 // the line read ahead that is line's rest (joinCutStart); -1 if none
	if _, tf := peel(line, nil, nil); tf == nil {
		joined, at := s.joinCutStart(line)
		if at < 0 {
			return nil, nil, nil, line // no candidate: the cost of a line outside a dump
		}
		line, cutAt = joined, at
	}
	// Lines are read ahead from here: line is kept in a buffer of its own.
	s.learnBuf = append(s.learnBuf[:0], line...)
	line = s.learnBuf
	var lp *learnedPrefix
	_, tf = peel(line, nil, func(layers []prefixLayer, _ *textFormat) bool {
		if len(layers) == 1 && layers[0].known != nil {
			return false // one known shape: findPrefix's
		}
		lp = newLearnedPrefix(layers)
		return lp.split(line, pl) && !pl.partial && s.learnConfirm(lp.split, pl.source)
	})
	if tf == nil {
		if cutAt >= 0 {
			return nil, nil, nil, s.lineBeforeJoin // nothing joined: the line as it was
		}
		return nil, nil, nil, line
	}
	if cutAt >= 0 {
		rest := s.queue[cutAt]
		s.queue = slices.Delete(s.queue, cutAt, cutAt+1)
		s.joins = append(s.joins, Skipped{Line: rest.no, Text: string(rest.text[:min(len(rest.text), 200)]),
			Reason: fmt.Sprintf("the rest of line %d, the dump's first, cut by the tool that prefixed it (a line of another source printed between its pieces): joined to it", s.rawN)})
	}
	if len(prev) > 0 && lp.split(prev, &lp.tmp) && !lp.tmp.partial && bytes.Equal(lp.tmp.source, pl.source) {
		pv = append([]byte(nil), lp.tmp.text...)
	}
	lp.split(line, pl)
	pl.buf = nil
	return &lp.shape, pv, tf, line
}

// joinCutStart finds the rest of a dump's first line that the tool which
// prefixed it cut in two (rejoin.go: npm's concurrently ends a line where
// another process's chunk comes between two writes of one line, and the
// Go runtime writes a goroutine header in pieces: "goroutine ", the id,
// " [", the reason, "]:"): line holds, after some text, a piece of a
// start line that ends the line unfinished (cutStartPieces), and one of
// the next rejoinLook lines carries the text before the piece as a prefix
// of the same shape, with the start's rest after it, so that the two
// joined start a dump (strongStart). It returns the joined line and the
// rest's place among the lines read ahead; -1 when there is none. The
// caller takes the rest out only when the prefix is confirmed.
//
// Only the starts that a piece of does not start a dump itself are looked
// for (a piece of "panic: ..." or "Full thread dump ..." does), and a cut
// before the start word ("gorou" / "tine 1 [running]:") is not found.
//
// Cost: on a line outside a dump that holds a start word but starts no
// dump, one check of each place a piece's word starts; the look ahead only
// when the line ends in such a piece (a log line that names a goroutine,
// "goroutine 5 finished", does not).
func (s *lineSource) joinCutStart(line []byte) ([]byte, int) {
	end := min(len(line), learnMaxPrefix+1)
	var at []int // where a piece starts
	for k := 1; k < end; k++ {
		// A word boundary as peel sees one: after a word, or after an
		// ANSI colour code ("\x1b[0mgoroutine").
		switch line[k] {
		case 'g', 'S', 'j', '=', 'F', 'T', 'W': // the first bytes of cutStartPiece's starts (T, W: blocked_warning.go's "Thread Thread[", "WARNING: ")
		default:
			continue
		}
		if isWordByte(line[k-1]) && !(line[k-1] == 'm' && bytes.LastIndexByte(line[max(0, k-16):k], 0x1b) >= 0) {
			continue
		}
		if cutStartPiece(line[k:]) {
			at = append(at, k)
		}
	}
	if len(at) == 0 {
		return nil, -1
	}
	s.lineBeforeJoin = append(s.lineBeforeJoin[:0], line...)
	line = s.lineBeforeJoin // peek may move the reader's buffer under line
	// The spaces before a piece are the prefix's and perhaps the dump's own
	// indent too ("[x]    java.lang.Thread.State: WAI"), which the rest's
	// line does not carry ("[x] TING (parking)"): a shape for each count
	// of them, the most first, so the rest keeps none of the prefix's.
	type cand struct {
		k  int // where the piece starts in line
		sh *learnedShape
	}
	var cands []cand
	for _, k := range at {
		core := k
		for core > 0 && line[core-1] == ' ' {
			core--
		}
		for c := k; c >= core && c > 0; c-- {
			if c < k && c == core {
				break // the prefix keeps at least one of its spaces
			}
			if sh := learnShape(line[:c]); sh != nil {
				cands = append(cands, cand{k, sh})
			}
		}
	}
	for j := 0; j < rejoinLook; j++ {
		m, ok := s.peek(j)
		if !ok {
			break
		}
		for _, cd := range cands {
			n, _, ok := cd.sh.match(m.text)
			if !ok || n == len(m.text) {
				continue
			}
			joined := append(bytes.Clone(line), m.text[n:]...)
			if strongStart(joined[cd.k:]) != nil {
				return joined, j
			}
		}
	}
	return nil, -1
}

// cutStartPiece reports whether t, to the end of the line, is a piece of
// a dump's first line cut before its end, of a start whose pieces start
// no dump themselves:
//
//	goroutine 1 [chan rec         a goroutine header before its "]:"
//	goroutine 1 gp=0xc000002380   (GOTRACEBACK=system's fields before the reason)
//	SIGQU, SIGQUIT: qu            a signal's line before its end
//	java.lang.Thread.State: RUNN  a JVM excerpt's first state line before its state's end
//	===== FULL THREAD DUMP ===    JRockit's first line before its end
//	Found one Java-level dead     a deadlock report's title before its ':'
//	WARNING: Thread Thread[vert.  a blocked-thread checker's warning before its end (blocked_warning.go)
func cutStartPiece(t []byte) bool {
	switch {
	case bytes.HasPrefix(t, []byte("goroutine")):
		r := t[len("goroutine"):]
		if len(r) == 0 {
			return true
		}
		if r[0] != ' ' {
			return false
		}
		r = r[1:]
		d := 0
		for d < len(r) && isDigit(r[d]) {
			d++
		}
		if d == len(r) {
			return true // "goroutine 12"
		}
		if d == 0 || r[d] != ' ' {
			return false
		}
		r = r[d+1:]
		// The reason in brackets, or the traceback's fields before it; no
		// "]:" yet, or the header would be whole.
		gp := []byte("gp=")
		return (len(r) == 0 || r[0] == '[' || bytes.HasPrefix(r, gp) || bytes.HasPrefix(gp, r)) && !bytes.Contains(r, []byte("]:"))
	case bytes.HasPrefix(t, []byte("SIG")):
		r := t[3:]
		u := 0
		for u < len(r) && r[u] >= 'A' && r[u] <= 'Z' {
			u++
		}
		if u == len(r) {
			return true // "SIGQU"
		}
		if r[u] != ':' {
			return false
		}
		for _, c := range r[u+1:] {
			if c != ' ' && (c < 'a' || c > 'z') {
				return false // "SIGQUIT: quit" and the like: lower-case words
			}
		}
		return true
	case bytes.HasPrefix(t, prefixState):
		return !jvmStateWhole(bytes.TrimSpace(t[len(prefixState):]))
	case len(t) < len(prefixState) && bytes.HasPrefix(prefixState, t) && bytes.HasSuffix(t, []byte("Thread.State")):
		return true // cut before the label's ':'
	case len(t) < len(jrockitStart) && bytes.HasPrefix(jrockitStart, t) && bytes.Contains(t, []byte("FULL")):
		return true // JRockit's "===== FULL THREAD DUMP ====" before its last '='
	case len(t) < len(deadlockTitle) && bytes.HasPrefix(deadlockTitle, bytes.TrimRight(t, " ")) && bytes.HasPrefix(t, []byte("Found one ")):
		// A deadlock report's title before its ':' (at least "Found one ":
		// "Found" alone is prose as often; jvmFixedCut).
		return true
	case bytes.Contains(t, []byte("Thread Th")):
		return warningPiece(t)
	}
	return false
}

// deadlockTitle is the first line of HotSpot's deadlock report.
var deadlockTitle = []byte("Found one Java-level deadlock:")

// learnConfirm is rule 3: at least learnConfirmNeed of the next learnLook
// lines carry the shape split reads, with text under it and the source
// (source: what a known shape pins, a stream, a process) of the first.
// It confirms the known shapes findPrefix finds too.
func (s *lineSource) learnConfirm(split func([]byte, *prefixLine) bool, source []byte) bool {
	src := append(s.learnSrc[:0], source...) // split reuses the buffer source may be in
	s.learnSrc = src
	got := 0
	for i := 0; i < learnLook && got < learnConfirmNeed; i++ {
		l, ok := s.peek(i)
		if !ok {
			break
		}
		// A line blank under the shape (blank, or blank once an outer
		// layer is read off it) confirms nothing.
		if split(l.text, &s.learnTmp) && len(bytes.TrimSpace(s.learnTmp.text)) > 0 && bytes.Equal(s.learnTmp.source, src) {
			got++
		}
	}
	return got >= learnConfirmNeed
}
