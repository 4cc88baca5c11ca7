package parse

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
)

// ParseFile reads every dump in the file at path ("-" for stdin). Gzip is
// undone transparently. The error is a *NoDumpError when the file holds no
// dump, or an I/O error naming the file.
func ParseFile(path string) ([]*Dump, error) {
	if path == "-" {
		return Parse("-", os.Stdin)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(path, f)
}

// Parse reads every dump in r; name is used in positions and errors. The
// format is detected by content: a gzip stream is opened, then the binary
// formats (pprof proto) and JSON (jcmd Thread.dump_to_file) are tried on the
// head of the input, else the input is scanned as text line by line and
// each line that starts a dump hands the scan to that format's parser.
func Parse(name string, r io.Reader) ([]*Dump, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	head, _ := br.Peek(2)
	gz := len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b
	if gz {
		zr, err := gzip.NewReader(br)
		if err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) {
				return nil, fmt.Errorf("%s: truncated gzip stream (cut inside its header): %w", name, err)
			}
			return nil, fmt.Errorf("%s: reading gzip: %w", name, err)
		}
		defer zr.Close()
		br = bufio.NewReaderSize(zr, 1<<20)
	}
	in := newInterner()
	head, _ = br.Peek(4096)
	for _, b := range binaryFormats {
		if !b.claim(head) {
			continue
		}
		data, err := io.ReadAll(br)
		if err != nil {
			if gz && errors.Is(err, io.ErrUnexpectedEOF) {
				return nil, fmt.Errorf("%s: truncated gzip stream: it ends after %d bytes of %s data: %w", name, len(data), b.format, err)
			}
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		dumps, err := b.parse(name, data, in)
		if err == errUnrecognized {
			return parseText(name, bufio.NewReader(bytes.NewReader(data)), in, false)
		}
		return dumps, err
	}
	return parseText(name, br, in, gz)
}

// binaryFormat is a format read whole: pprof proto, jcmd JSON.
type binaryFormat struct {
	format Format
	// claim reports whether head (the first bytes, up to 4 KiB) starts this format.
	claim func(head []byte) bool
	// parse reads all dumps of data; errUnrecognized sends data to the text scan.
	parse func(name string, data []byte, in *interner) ([]*Dump, error)
}

// textFormat is a line-oriented format.
type textFormat struct {
	format Format
	// starts reports whether line begins a dump of this format. prev is the
	// line before it (nil at the start of input), for formats whose first
	// line alone is not enough.
	starts func(line, prev []byte) bool
	// parse reads one dump. On entry the line that starts it has been
	// unread (the next call to p.ls.next returns it) and p.prev holds the line
	// before it. It returns at the end of input or after unreading the first
	// line that is not part of the dump.
	parse func(p *textParser) *Dump
}

// refusal recognises a format dumpdiff does not read, to name it in the
// error instead of the generic "no dump found".
type refusal struct {
	matches func(line []byte) bool
	looks   string // "ibm javacore is not supported yet"
}

// textParser is what a text format's parser works with.
type textParser struct {
	ls   *lineSource
	in   *interner
	name string
	prev []byte // copy of the line before the dump's first line; nil if none
}

// skip records the current line of ls as skipped in d.
func (p *textParser) skip(d *Dump, line []byte, reason string) {
	if len(line) > 200 {
		line = line[:200]
	}
	d.Skipped = append(d.Skipped, Skipped{Line: p.ls.lineNo(), Text: string(line), Reason: reason})
}

// parseText scans the input line by line. Lines outside any dump (log
// output around a kill -3 dump, a console session) are passed over: they
// belong to no dump.
//
// A read error ends the scan; the dumps read so far are returned with it.
// gz tells that r is a gzip stream, whose truncation is named as such.
func parseText(name string, r io.Reader, in *interner, gz bool) ([]*Dump, error) {
	ls := newLineSource(name, r)
	p := &textParser{ls: ls, in: in, name: name}
	var dumps []*Dump
	var prev []byte
	looks := ""
	for {
		line, ok := ls.next()
		if !ok {
			break
		}
		var tf *textFormat
		for i := range textFormats {
			if textFormats[i].starts(line, prev) {
				tf = &textFormats[i]
				break
			}
		}
		if tf == nil {
			if looks == "" && len(dumps) == 0 {
				for _, rf := range refusals {
					if rf.matches(line) {
						looks = rf.looks
						break
					}
				}
			}
			prev = append(prev[:0], line...)
			continue
		}
		start := ls.lineNo()
		ls.unread()
		p.prev = prev
		d := tf.parse(p)
		prev = prev[:0]
		if d == nil {
			// The format looked further and found no dump after all; what it
			// read is passed over. If it gave back the first line, move past it.
			if ls.back && ls.lineNo() == start {
				ls.next()
			}
			continue
		}
		d.Format = tf.format
		d.Source = Source{File: name, Line: start, Index: len(dumps)}
		dumps = append(dumps, d)
	}
	if err := ls.Err(); err != nil {
		if gz && errors.Is(err, io.ErrUnexpectedEOF) {
			where := "after"
			if ls.partial {
				where = "in" // the last line read is cut
			}
			n := fmt.Sprintf("%d dumps", len(dumps))
			if len(dumps) == 1 {
				n = "1 dump"
			}
			return dumps, fmt.Errorf("%s: gzip stream truncated %s line %d (%s read before it): %w", name, where, ls.lineNo(), n, err)
		}
		return dumps, fmt.Errorf("%s:%d: %w", name, ls.lineNo(), err)
	}
	if len(dumps) == 0 {
		return nil, &NoDumpError{File: name, Looks: looks}
	}
	return dumps, nil
}
