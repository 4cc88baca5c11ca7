package parse

import (
	"bytes"
	"strconv"
	"unicode/utf8"
)

// The escape stages: a dump that reached the reader escaped.
//
//	{"level":"warn","msg":"thread dump","dump":"goroutine 1 [running]:\nmain.main()\n\t..."}     one JSON string field of a log line
//	<pre class="console-output">goroutine 1 [running]:                                          HTML-escaped, from a CI console
//	&quot;main&quot; #1 prio=5 os_prio=0 tid=0x1 nid=0x2 waiting on condition                    HTML-escaped, from a wiki's source
//
// (Each line in a JSON record of its own, as docker writes them, is the
// docker json-file prefix shape of prefix.go; CR before LF is dropped by
// the line source.)
//
// Rules, applied by parseText to a line that starts no dump as it is and
// under no prefix (so never inside a dump, and never on a line of a dump
// as the runtime writes it):
//
//  1. JSON: a line that is a JSON object with a string value holding a
//     line break, one of whose lines starts a dump once unescaped, is
//     replaced by the lines of that value (jsonFieldDump). They are read as
//     lines of the input, all numbered by the JSON line's number: a
//     position inside the dump is that record's line.
//  2. HTML: a line with a <pre> tag, or whose HTML entities undone start a
//     dump, turns the HTML stage on (htmlStart): from that line (the text
//     after the tag) every line is given with its entities undone (&lt;,
//     &gt;, &amp;, &quot;, &#39;, &#NN;, &nbsp; as a no-break space),
//     across dumps, up to the line holding </pre>, which is given cut
//     there. The entities are undone on the line as read, before a
//     prefix is looked for or taken off (an HTML-escaped log of records). The JVM parser also turns it on at a thread header that
//     begins with &quot; or &#34; (a dump whose "Full thread dump" line had
//     nothing to escape).
//
// Cost: one byte compare a line outside dumps ('{'), an IndexByte for '&'
// and '<' on the lines that start nothing; inside an HTML block, one
// IndexByte a line and a copy of the lines holding '&'.

// jsonFieldDump returns the unescaped string value of the JSON object line
// that holds a dump (rule 1), or nil.
//
// A line cut inside that string (a logger's or a collector's limit on a
// line) gives what the string holds up to the cut, and cut is true: its
// last line has lost its end.
func jsonFieldDump(line []byte) (text []byte, cut bool) {
	i := skipSpace(line, 0)
	if i >= len(line) || line[i] != '{' {
		return nil, false
	}
	for ; i < len(line); i++ {
		if line[i] != '"' {
			continue
		}
		raw, j, ok := jsonStringAt(line, i)
		if !ok {
			// Cut inside the string: up to the cut, without an escape it
			// cut in two.
			raw, cut = line[i+1:], true
			if k := bytes.LastIndexByte(raw, '\\'); k >= 0 && k >= len(raw)-6 {
				if _, ok := unescapeJSON(nil, raw[k:]); !ok {
					raw = raw[:k]
				}
			}
			j = len(line)
		}
		i = j - 1
		if !bytes.Contains(raw, []byte(`\n`)) {
			continue
		}
		text, ok := unescapeJSON(nil, raw)
		if ok && startsDumpInside(text) {
			return text, cut
		}
	}
	return nil, false
}

// startsDumpInside reports whether one of the lines of text starts a dump,
// as it is or under a prefix shape (a go test -json stream in a field).
func startsDumpInside(text []byte) bool {
	var prev []byte
	var pl prefixLine
	for len(text) > 0 {
		line, rest, _ := bytes.Cut(text, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		if startsText(line, prev) {
			return true
		}
		for i := range prefixShapes {
			if prefixShapes[i].split(line, &pl) && !pl.partial && startsText(pl.text, nil) {
				return true
			}
		}
		prev, text = line, rest
	}
	return false
}

// startsText reports whether line starts a dump of a text format.
func startsText(line, prev []byte) bool {
	for i := range textFormats {
		if textFormats[i].starts(line, prev) {
			return true
		}
	}
	return false
}

// queueText makes next return the lines of text, each numbered no, before
// the lines after the one last read. With cut, the last line is given as
// one without its line ending (lineSource.partial).
func (s *lineSource) queueText(no int, text []byte, cut bool) {
	if !cut {
		text = bytes.TrimSuffix(text, []byte("\n"))
	}
	var lines []rawLine
	for len(text) > 0 || lines == nil {
		line, rest, _ := bytes.Cut(text, []byte("\n"))
		lines = append(lines, rawLine{no: no, text: bytes.TrimSuffix(line, []byte("\r"))})
		text = rest
	}
	lines[len(lines)-1].partial = cut
	s.queue = append(lines, s.queue...)
}

// htmlStart turns the HTML stage on at line, the line last read, when it
// opens a <pre> block or its entities undone start a dump (rule 2). The
// line is then given again by next, from the tag on and unescaped.
func (s *lineSource) htmlStart(line []byte) bool {
	pre := -1
	if i := bytes.Index(line, []byte("<pre")); i >= 0 && i+4 < len(line) && (line[i+4] == '>' || line[i+4] == ' ') {
		if j := bytes.IndexByte(line[i:], '>'); j >= 0 {
			pre = i + j + 1
		}
	}
	if pre < 0 {
		if bytes.IndexByte(line, '&') < 0 {
			return false
		}
		text := unescapeHTML(nil, line)
		if bytes.Equal(text, line) || !startsDumpInside(text) {
			return false
		}
		pre = 0
	}
	h := &htmlStage{}
	s.addStage(h)
	s.line = s.stages.undo(h.undoHTML(line[pre:]))
	s.back = true
	return true
}

// learnHTML turns the HTML stage on for the line last returned, and
// returns it unescaped.
func (s *lineSource) learnHTML() []byte {
	h := &htmlStage{}
	s.addStage(h)
	s.line = s.stages.undo(h.undoHTML(s.line))
	return s.line
}

// htmlStage is rule 2's stage (stage.go, rank -3): every line with its
// entities undone, on the line as read, before a prefix is looked for or
// taken off; it lasts past a dump, and ends at </pre>.
type htmlStage struct {
	hbuf  []byte // the last line unescaped
	ended bool   // </pre> was read: later lines are as read
}

func (h *htmlStage) rank() int   { return rankHTML }
func (h *htmlStage) lasts() bool { return true }
func (h *htmlStage) over() bool  { return h.ended }

func (h *htmlStage) read(s *lineSource, below lineReader) ([]byte, bool) {
	line, ok := below.next()
	if !ok || h.ended {
		return line, ok
	}
	return h.undoHTML(line), true
}

// undoHTML is line with its entities undone, cut at </pre> (which ends the
// stage).
func (h *htmlStage) undoHTML(line []byte) []byte {
	if i := bytes.Index(line, []byte("</pre>")); i >= 0 {
		line = line[:i]
		h.ended = true
	}
	if bytes.IndexByte(line, '&') < 0 {
		return line
	}
	h.hbuf = unescapeHTML(h.hbuf[:0], line)
	return h.hbuf
}

// isEscapedQuote reports whether b begins with a quote HTML-escaped:
// &quot;, &#34; (Go's html.EscapeString) or &#x22;.
func isEscapedQuote(b []byte) bool {
	return bytes.HasPrefix(b, []byte("&quot;")) || bytes.HasPrefix(b, []byte("&#34;")) || bytes.HasPrefix(b, []byte("&#x22;"))
}

// htmlEntities are the named entities a dump's text escapes to.
var htmlEntities = map[string]string{
	"lt": "<", "gt": ">", "amp": "&", "quot": `"`, "apos": "'", "nbsp": "\u00a0",
}

// unescapeHTML appends b to dst with its character references undone;
// an '&' that starts none is kept.
func unescapeHTML(dst, b []byte) []byte {
	for {
		i := bytes.IndexByte(b, '&')
		if i < 0 {
			return append(dst, b...)
		}
		dst = append(dst, b[:i]...)
		b = b[i:]
		end := bytes.IndexByte(b[:min(len(b), 12)], ';')
		if end < 2 {
			dst = append(dst, '&')
			b = b[1:]
			continue
		}
		name := b[1:end]
		if name[0] == '#' {
			var n uint64
			var err error
			if len(name) > 1 && (name[1] == 'x' || name[1] == 'X') {
				n, err = strconv.ParseUint(string(name[2:]), 16, 32)
			} else {
				n, err = strconv.ParseUint(string(name[1:]), 10, 32)
			}
			if err == nil && utf8.ValidRune(rune(n)) {
				dst = utf8.AppendRune(dst, rune(n))
				b = b[end+1:]
				continue
			}
		} else if v, ok := htmlEntities[string(name)]; ok {
			dst = append(dst, v...)
			b = b[end+1:]
			continue
		}
		dst = append(dst, '&')
		b = b[1:]
	}
}
