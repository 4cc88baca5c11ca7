package parse

import (
	"bytes"
	"fmt"
	"slices"
	"time"
)

// Dumps are often read from where a collector or a person put them, with
// something in front of every line:
//
//	2026-12-01T10:38:11.089203Z goroutine 1 [running]:                    kubectl logs --timestamps
//	2026-12-01T10:38:11.089203Z stderr F goroutine 1 [running]:           CRI log file (/var/log/pods)
//	{"log":"goroutine 1 [running]:\n","stream":"stderr","time":"..."}      docker json-file
//	{"Time":"...","Action":"output","Test":"TestX","Output":"goroutine 1 [running]:\n"}   go test -json
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
//
// States of lineSource (its prefix stage, stage.go) and their edges:
//
//	raw        lines as read                  -> prefixed (parseText: findPrefix, beginPrefix)
//	prefixed   lines without the pin          -> raw (end of the dump: endPrefix;
//	           (prefixStage.read; rules 2, 3)      a paste's end: pasteGoesOn false, rule 4)
//	           partial records joined         -> prefixed
//
// Cost: nothing in raw mode past one nil check per line; in prefixed mode
// one split per line (no allocation but docker's unescaped text, written
// into a reused buffer). findPrefix runs only on lines outside dumps.

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
	// record, when set, reports a line of the collector's own record
	// around the messages (a journal entry's other fields, its header,
	// the blank line between entries): passed over inside the dump, as
	// docker's other keys on a message's line are. nil: no such lines.
	record func(line []byte) bool
}

// prefixLine is a line split by a prefix shape.
type prefixLine struct {
	text    []byte // the line without its prefix
	stamp   []byte // the time as written in the prefix; nil if none
	source  []byte // what every line of one dump repeats (see rule 1)
	partial bool   // docker, CRI: a piece of a longer line, continued by the next record
	// col is where the message starts in the line, for a shape whose
	// tool prints a message's later lines under it (journalctl's short
	// outputs: spaces to that column, no prefix); 0 for other shapes.
	col int
	buf []byte // scratch for text that needs decoding (docker's JSON string)
	src []byte // scratch for a source made of two fields (test2json)
	// memo is findPrefix's, in the scratch it is given for the previous
	// line (which it splits nothing into); nil elsewhere.
	memo *prefixMemo
}

// prefixShapes is the order in which shapes are tried (read-only). The
// collectors' shapes come first: their prefixes are exact, and a CRI line
// also reads as a kubectl line whose text is "stdout F ...".
var prefixShapes = []prefixShape{
	{name: "docker json-file", split: splitDocker, time: rfc3339Time},
	{name: "go test -json", split: splitTest2JSON, time: rfc3339Time},
	{name: "cri", split: splitCRI, time: rfc3339Time},
	{name: "kubectl --timestamps", split: splitKubectl, time: rfc3339Time},
	{name: "syslog", split: splitSyslog, time: syslogTime},
	{name: "journal export", split: splitJournalExport, record: isJournalExportRecord},
	{name: "journal verbose", split: splitJournalVerbose, record: isJournalVerboseRecord},
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
//
// Cost: this runs on every line outside a dump (a log around a dump: every
// line of it). Each shape splits line once; prev, the line of the call
// before, is not split again: its splits are kept in ppl's memo (ppl
// holds nothing else).
func findPrefix(line, prev []byte, pl, ppl *prefixLine) (*prefixShape, []byte, *textFormat) {
	if len(line) == 0 {
		return nil, nil, nil
	}
	m := ppl.memo
	if m == nil {
		m = newPrefixMemo()
		ppl.memo = m
	}
	m.cur, m.prev = m.prev, m.cur
	if !bytes.Equal(m.prev.line, prev) {
		clear(m.prev.tried)
	}
	c := m.cur
	c.line = append(c.line[:0], line...)
	clear(c.tried)
	for i := range prefixShapes {
		sh := &prefixShapes[i]
		c.tried[i], c.ok[i] = true, sh.split(c.line, &c.split[i])
		cl := &c.split[i]
		if !c.ok[i] || cl.partial || len(cl.text) == 0 {
			continue
		}
		var pv []byte
		if len(prev) > 0 {
			pp, ok := m.prev.at(i, prev, &m.scratch)
			if ok && !pp.partial && bytes.Equal(pp.source, cl.source) {
				pv = pp.text
			}
		}
		for j := range textFormats {
			if textFormats[j].starts(cl.text, pv) {
				*pl = *cl
				pl.buf = nil // cl's, not pl's: pl is not split into
				return sh, pv, &textFormats[j]
			}
		}
	}
	return nil, nil, nil
}

// prefixMemo is what findPrefix keeps of the lines it was given: the
// splits of the line of this call (cur) and of the last call (prev).
type prefixMemo struct {
	cur, prev *prefixSplits
	scratch   prefixLine // prev split, when it is not the last call's line
}

// prefixSplits is one line split by each shape, as far as findPrefix
// tried them. The splits alias line (a copy) and their own buffers.
type prefixSplits struct {
	line  []byte
	tried []bool // split[i] holds shape i's split
	ok    []bool // shape i's split returned true
	split []prefixLine
}

func newPrefixMemo() *prefixMemo {
	n := len(prefixShapes)
	mk := func() *prefixSplits {
		return &prefixSplits{tried: make([]bool, n), ok: make([]bool, n), split: make([]prefixLine, n)}
	}
	return &prefixMemo{cur: mk(), prev: mk()}
}

// at returns prev split by shape i: the kept split when it was tried, else
// a fresh split into scratch.
func (p *prefixSplits) at(i int, prev []byte, scratch *prefixLine) (*prefixLine, bool) {
	if p.tried[i] {
		return &p.split[i], p.ok[i]
	}
	ok := prefixShapes[i].split(prev, scratch)
	return scratch, ok
}

// prefixStage is the prefix of the dump being read: a stage (stage.go,
// rank -2) that reads the prefix off each line (rules 2 to 4).
type prefixStage struct {
	shape *prefixShape
	pin   []byte // paste: the prefix; collector: the source
	// startsDump reports whether a line, as it is, starts a dump: a dump
	// after a paste ends it (a TAB-indented paste followed by a Go dump,
	// whose file lines begin with a TAB too). A field, not a call of the
	// text formats' table, which refers to the parsers that call next.
	startsDump func(line []byte) bool
	pl         prefixLine
	join       []byte     // a line joined from partial records
	col        int        // the message's column in the last line split (prefixLine.col)
	cont       []byte     // scratch for a continued line's text
	wrapPL     prefixLine // scratch for rejoinCut's test of a bare line (rule 4)
}

// own returns the text of raw, a whole line of the dump's source under
// the stage's prefix or a later line of its last message (continued);
// false for another source's line or a partial record.
func (m *prefixStage) own(raw []byte) ([]byte, bool) {
	if m.shape.split(raw, &m.pl) {
		if !bytes.Equal(m.pl.source, m.pin) || m.pl.partial {
			return nil, false
		}
		return m.pl.text, true
	}
	return m.continued(raw)
}

// continued reads raw as a later line of the last message, when the
// shape's tool prints one so: journalctl's short outputs print a message
// of several lines (a logger that sent a stack trace as one entry) with
// its later lines under the first, indented by spaces to the message's
// column and without the prefix:
//
//	Dec 07 16:00:01 vm java[4242]: 	at org.apache.http.impl.client.CloseableHttpClient.execute(CloseableHttpClient.java:108)
//	                               	at com.example.http4.InventoryClient.fetch(InventoryClient.java:13)
//
// Such a line is the dump's, from the same process: not foreign.
func (m *prefixStage) continued(raw []byte) ([]byte, bool) {
	c := m.col
	if c == 0 || len(raw) <= c || len(bytes.TrimLeft(raw[:c], " ")) != 0 {
		return nil, false
	}
	var text []byte
	text, m.cont = untabSyslog(raw[c:], m.cont)
	return text, true
}

func (p *prefixStage) rank() int { return rankPrefix }

// beginPrefix starts reading a prefixed dump whose first line was the
// line just returned by next, split into pl (rule 1): next returns that
// line again, without its prefix. The stages already on (an HTML block,
// inline code) go on under it.
func (s *lineSource) beginPrefix(sh *prefixShape, pl *prefixLine, startsDump func([]byte) bool) {
	s.addStage(&prefixStage{shape: sh, pin: append([]byte(nil), pl.source...), startsDump: startsDump, col: pl.col})
	s.first = append(s.first[:0], pl.text...)
	s.line = s.first
	s.back = true
}

// endPrefix ends the dump's stages: later lines are read as they are, but
// for a stage that lasts past the dump (an HTML block, to its </pre>). The
// foreign lines read after the dump's last kept line (the parser read on
// to find its end) are queued to be read again, and are no longer held:
// another process's dump there is a dump, not lines skipped between two.
func (s *lineSource) endPrefix() {
	if s.back && s.prefixOn() != nil && s.raw != nil && s.n == s.rawN {
		// The line given back (the next dump's first line: a second
		// "Full thread dump" in one paste) is given as read, prefix and
		// all, so that the next dump is read under the prefix too.
		s.line = s.raw
	}
	s.raw = nil
	if st := s.stages; st != nil {
		st.keepLasting()
		if len(st.list) == 0 {
			s.stages = nil
		}
	}
	last := s.lastKept()
	var again []rawLine
	for _, l := range s.foreign {
		if l.no > last {
			again = append(again, l)
		}
	}
	s.foreign = s.foreign[:0]
	if len(again) == 0 {
		return
	}
	read := make(map[int]bool, len(again))
	for _, l := range again {
		read[l.no] = true
	}
	k := 0
	for _, h := range s.held {
		if read[h.Line] {
			continue
		}
		s.held[k] = h
		k++
	}
	s.held = s.held[:k]
	s.queue = append(again, s.queue...)
	slices.SortStableFunc(s.queue, func(a, b rawLine) int { return a.no - b.no })
}

// holdForeign holds a line of another source, or of none, inside a
// prefixed dump, and keeps it whole for endPrefix.
func (s *lineSource) holdForeign(no int, raw []byte, reason string) {
	s.hold(no, raw, reason)
	s.foreign = append(s.foreign, rawLine{no: no, text: append([]byte(nil), raw...), partial: s.rawPartial})
}

// read is the stage's: the next line of the dump without its prefix
// (rules 2 to 4), reading the lines as read (HTML undone, if on) below.
func (m *prefixStage) read(s *lineSource, below lineReader) ([]byte, bool) {
	for {
		raw, ok := below.next()
		if !ok {
			return nil, false
		}
		if m.shape.paste {
			switch {
			case bytes.HasPrefix(raw, m.pin):
				return raw[len(m.pin):], true
			case isPasteBlank(raw, m.pin):
				return raw[:0], true
			case m.pasteGoesOn(s, raw):
				continue
			}
			s.stagesOff = true // the paste is over: the lines read ahead come back as they are
			return s.read()
		}
		if m.shape.record != nil && m.shape.record(raw) {
			continue
		}
		if len(bytes.TrimSpace(raw)) == 0 {
			return raw[:0], true
		}
		no := s.rawN
		if !m.shape.split(raw, &m.pl) {
			if text, ok := m.continued(raw); ok {
				return s.rejoinCut(m, text, no), true
			}
			s.holdForeign(no, raw, fmt.Sprintf("line without the %s prefix of the dump's other lines", m.shape.name))
			continue
		}
		if !bytes.Equal(m.pl.source, m.pin) {
			s.holdForeign(no, raw, fmt.Sprintf("line from %q inside a dump from %q (%s)", m.pl.source, m.pin, m.shape.name))
			continue
		}
		m.col = m.pl.col
		if !m.pl.partial {
			return s.rejoinCut(m, m.pl.text, no), true // a line the tool cut (rejoin.go)
		}
		// Pieces of one long line (rule 2), read until the last piece; a
		// line grown past the limit is skipped whole, its later pieces too.
		m.join = append(m.join[:0], m.pl.text...)
		tooLong := false
		for more := true; more; {
			raw, ok = s.read()
			if !ok {
				break
			}
			if !m.shape.split(raw, &m.pl) || !bytes.Equal(m.pl.source, m.pin) {
				s.holdForeign(s.rawN, raw, fmt.Sprintf("line inside a partial %s record", m.shape.name))
				continue
			}
			more = m.pl.partial
			if tooLong {
				continue
			}
			if len(m.join)+len(m.pl.text) > s.max {
				tooLong = true
				s.hold(no, m.join, fmt.Sprintf("line longer than %s joined from %s records: skipped", byteSize(int64(s.max)), m.shape.name))
				m.join = m.join[:0]
				continue
			}
			m.join = append(m.join, m.pl.text...)
		}
		if len(m.join) == 0 {
			continue
		}
		// The joined line is numbered by its first piece; the reader's own
		// count goes on from its last.
		s.joinedAt = no
		s.raw = nil
		return m.join, true
	}
}

// pasteGoesOn reads ahead after first, a line without the paste's prefix
// (rule 4). When the prefix comes back within pasteGap lines, the lines
// without it are recorded as skipped and the rest is queued to be read
// again: true. Otherwise every line read is queued as it is: false.
func (m *prefixStage) pasteGoesOn(s *lineSource, first []byte) bool {
	pin := m.pin
	look := []rawLine{{no: s.rawN, text: append([]byte(nil), first...), partial: s.rawPartial}}
	found := false
	for nonBlank := 1; nonBlank <= pasteGap && len(look) < pasteLookMax && !m.startsDump(look[len(look)-1].text); {
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
		s.hold(l.no, l.text, fmt.Sprintf("line without the %s %q the dump's other lines begin with", m.shape.name, pin))
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
