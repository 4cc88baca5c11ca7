package parse

import (
	"bytes"
	"fmt"
	"sort"
)

// Go goroutine profile, debug=1 text (/debug/pprof/goroutine?debug=1,
// pprof.Lookup("goroutine").WriteTo(w, 1)) and its goroutineleak variant:
//
//	goroutine profile: total 42                                  header
//	3 @ 0x48618e 0x41896e 0x418492 0x689255 0x48da21             record: count @ pcs
//	# labels: {"pool":"ingest", "route":"/api/v1/items[0],[1]"}  optional
//	#	0x689254	main.child+0x94	corpusgen/states/main.go:153    frame
//	                                                             blank line between records
//
// States and edges:
//
//	header -- record line --> record;  record -- "# labels:" --> record
//	record -- "#\t" frame --> record;  record -- blank --> between
//	between -- record line --> record
//	any -- "goroutine profile: total N" --> end of dump, unread (a second profile)
//	any -- a line no rule knows --> peek at the next line: if it is a
//	       record or frame line, the unknown one is recorded in Dump.Skipped;
//	       otherwise the dump ends there.
//
// Each record becomes one Thread with Weight = count and no ID. When the
// weights do not sum to the header's total, a Skipped entry at the header
// says so: the profile was cut.

// startsGoDebug1 claims "goroutine profile: total N" and
// "goroutineleak profile: total N", and a record line ("3 @ 0x48618e
// 0x41896e"): a profile pasted without its header starts there. The
// record is a profile's only if a frame or labels line follows it
// (parseGoDebug1 reads on to see).
func startsGoDebug1(line, prev []byte) bool {
	_, ok := debug1Header(line)
	return ok || isDebug1Record(line)
}

// isDebug1Record reports whether line is a debug=1 record line: a count,
// " @ ", and program counters only ("3 @ 0x48618e 0x41896e 0x418492").
func isDebug1Record(line []byte) bool {
	return len(line) > 0 && line[0] >= '1' && line[0] <= '9' && classifyDebug1Line(line) == d1Record && debug1PCs(line) != nil
}

// headerless says what a profile read from its first record lacks.
const headerless = `no "goroutine profile: total N" line: it starts at a record`

// debug1Header returns the dump kind of a debug=1 header line.
func debug1Header(line []byte) (kind string, ok bool) {
	var rest []byte
	switch {
	case bytes.HasPrefix(line, []byte("goroutine profile: total ")):
		rest = line[len("goroutine profile: total "):]
	case bytes.HasPrefix(line, []byte("goroutineleak profile: total ")):
		rest, kind = line[len("goroutineleak profile: total "):], "goroutineleak"
	default:
		return "", false
	}
	_, ok = parseInt(rest, 0)
	return kind, ok
}

type debug1LineKind uint8

const (
	d1Unknown debug1LineKind = iota
	d1Blank
	d1Record // 3 @ 0x48618e 0x41896e
	d1Labels // # labels: {"k":"v"}
	d1Frame  // #	0x689254	main.child+0x94	corpusgen/states/main.go:153
)

func classifyDebug1Line(line []byte) debug1LineKind {
	switch {
	case len(line) == 0:
		return d1Blank
	case bytes.HasPrefix(line, []byte("#\t")):
		return d1Frame
	case bytes.HasPrefix(line, []byte("# labels: ")):
		return d1Labels
	case line[0] == '#':
		// Pasted: the TABs became spaces or no-break spaces, or ran
		// together into one space (debug1Pasted).
		rest := skipWhite(line[1:])
		switch {
		case len(rest) == len(line)-1:
		case bytes.HasPrefix(rest, []byte("0x")):
			return d1Frame
		case bytes.HasPrefix(rest, []byte("labels:")):
			return d1Labels
		}
	case line[0] >= '0' && line[0] <= '9':
		if i := bytes.Index(line, []byte(" @")); i > 0 {
			if _, ok := parseInt(line, ' '); ok {
				return d1Record
			}
		}
		// A frame line whose '#' a Markdown heading took
		// (debug1Hashless): "0x523d1a main.f+0x1a /src/main.go:9".
		if bytes.HasPrefix(line, []byte("0x")) && bytes.Contains(line, []byte("+0x")) {
			return d1Frame
		}
	case bytes.HasPrefix(line, []byte("labels: {")):
		return d1Labels // its '#' taken by a heading
	}
	return d1Unknown
}

// parseGoDebug1 reads one debug=1 profile.
func parseGoDebug1(p *textParser) *Dump {
	ls := p.ls
	line, ok := ls.next()
	if !ok {
		return nil
	}
	kind, ok := debug1Header(line)
	var first *Thread // the record a profile without its header starts at
	if !ok {
		// A record line: the profile's if a frame or labels line follows
		// (a count and addresses alone are a log's as well).
		if !isDebug1Record(line) {
			return nil
		}
		n, _ := parseInt(line, ' ')
		first = &Thread{Weight: int(n), Line: ls.lineNo()}
		if pcs := debug1PCs(line); len(pcs) > 0 {
			first.extra().PCs = pcs
		}
		next, ok := ls.next()
		if !ok {
			return nil
		}
		ls.unread() // read again below, or by the caller
		if k := classifyDebug1Line(next); k != d1Frame && k != d1Labels {
			return nil
		}
	}
	var total int64
	var header string
	headerLn := 0
	d := &Dump{Kind: kind}
	if first == nil {
		total, _ = parseInt(line[bytes.LastIndexByte(line, ' ')+1:], 0)
		header, headerLn = string(line), ls.lineNo()
		d.HeaderTotal = int(total)
	} else {
		d.Excerpt, d.Cut = headerless, true
		d.Threads = append(d.Threads, first)
	}
	cur := first
	var frames []*Frame
	cache := make(map[string]*Frame)
	w := debug1Wrap{in: p.in}
	flush := func() {
		if cur != nil && len(frames) > 0 {
			cur.Frames = append([]*Frame(nil), frames...)
		}
		frames = frames[:0]
	}
	skip := func(n int, text []byte, reason string) {
		if len(text) > 200 {
			text = text[:200]
		}
		d.Skipped = append(d.Skipped, Skipped{Line: n, Text: string(text), Reason: reason})
	}
	// A blank line inside a record (a paste's, an editor's): the record
	// the blank lines ended, and where they are, until the next line says
	// whether the record goes on (a frame or labels line of it: read on,
	// each blank said in d.Gaps) or another begins.
	var ended *Thread
	var gap []int
	for {
		line, ok := ls.next()
		if !ok {
			break
		}
		k := classifyDebug1Line(line)
	again:
		no := ls.lineNo()
		if k == d1Frame || k == d1Labels || k == d1Record {
			line = w.whole(ls, line, k) // may read the line after it and give it back
		}
		if k != d1Blank {
			if cur == nil && ended != nil && (k == d1Frame || k == d1Labels) && goesOnDebug1Record(ended, line, k) {
				cur = ended
				frames = append(frames[:0], cur.Frames...)
				for _, g := range gap {
					d.Gaps = append(d.Gaps, Skipped{Line: g, Reason: fmt.Sprintf("blank line inside the record at line %d, read through: its frames go on after it", cur.Line)})
				}
			}
			ended, gap = nil, gap[:0]
		}
		switch k {
		case d1Blank:
			flush()
			if cur != nil {
				ended = cur
			}
			if ended != nil {
				gap = append(gap, no)
			}
			cur = nil
			continue
		case d1Record:
			flush()
			n, _ := parseInt(line, ' ')
			cur = &Thread{Weight: int(n), Line: no}
			if pcs := debug1PCs(line); len(pcs) > 0 {
				cur.extra().PCs = pcs
			}
			d.Threads = append(d.Threads, cur)
			continue
		case d1Labels:
			if cur == nil {
				skip(no, line, "labels outside a record")
				continue
			}
			labels, rest, ok := parseLabelSet(debug1LabelText(line), p.in)
			if !ok || len(bytes.TrimSpace(rest)) > 0 {
				skip(no, line, "labels not understood")
				continue
			}
			cur.Labels = labels
			continue
		case d1Frame:
			if cur == nil {
				skip(no, line, "frame line outside a record")
				continue
			}
			f := debug1Frame(line, p.in, cache)
			if f == nil {
				skip(no, line, "frame line not understood")
				continue
			}
			frames = append(frames, f)
			if x := cur.GoExtra; x != nil {
				pc, _ := debug1FramePC(line)
				x.FramePCs = append(x.FramePCs, pc)
			}
			continue
		}
		if _, ok := debug1Header(line); ok {
			// A second profile appended to the same file: a new dump.
			ls.unread()
			break
		}
		// Not a profile line: it belongs to the dump only if the dump goes on.
		junk := append([]byte(nil), line...)
		junkLn := ls.lineNo()
		if n := debug1ProseGap(ls, junk); n > 0 {
			// A person's words between the groups of one profile pasted
			// in parts (an issue comment): skipped, counted, and the
			// profile read on.
			const why = "prose between two parts of a goroutine profile pasted in parts"
			skip(junkLn, junk, why)
			for i := 0; i < n; i++ {
				l, _ := ls.next()
				if len(bytes.TrimSpace(l)) > 0 {
					skip(ls.lineNo(), append([]byte(nil), l...), why)
				}
			}
			line, _ = ls.next()
			k = d1Record
			goto again
		}
		next, ok := ls.next()
		if !ok {
			break
		}
		nk := classifyDebug1Line(next)
		if nk != d1Record && nk != d1Frame && nk != d1Labels {
			ls.unread()
			break
		}
		skip(junkLn, junk, "line not understood in a goroutine profile")
		line, k = next, nk
		goto again
	}
	flush()
	if len(w.held) > 0 {
		d.Skipped = append(d.Skipped, w.held...)
		sort.SliceStable(d.Skipped, func(i, j int) bool { return d.Skipped[i].Line < d.Skipped[j].Line })
	}
	// The runtime prints as total the number of goroutines its records
	// count, so a sum that differs is a profile cut short (head, a copy
	// made while it was written) or with records removed. Without the
	// header there is no total to check.
	if sum := d.ThreadCount(); first == nil && int64(sum) != total {
		d.Skipped = append([]Skipped{{Line: headerLn, Text: header,
			Reason: fmt.Sprintf("profile says total %d, records sum to %d: truncated?", total, sum)}}, d.Skipped...)
	}
	return d
}

// goesOnDebug1Record reports whether a frame or labels line read after
// blank lines goes on with the record t those blank lines ended: labels
// only before its first frame; a frame when its PC is the record's (the
// record line lists the return addresses, one past each frame's printed
// PC; an inlined frame prints its caller's), so a frame line of another
// record whose record line was lost is not taken into this one. A record
// line or a frame line with no PC to read decides nothing against it.
func goesOnDebug1Record(t *Thread, line []byte, k debug1LineKind) bool {
	if k == d1Labels {
		return len(t.Frames) == 0 && t.Labels == nil
	}
	x := t.GoExtra
	if x == nil || len(x.PCs) == 0 || !bytes.HasPrefix(line, []byte("#\t")) {
		return true
	}
	pc, ok := debug1FramePC(line)
	if !ok {
		return true
	}
	for _, p := range x.PCs {
		if p == pc+1 || p == pc {
			return true
		}
	}
	return false
}

// debug1Frame reads "#\t0x689254\tmain.child+0x94\tcorpusgen/states/main.go:153"
// (more tabs may align the columns). The frame cache, keyed by the raw line
// after the pc, saves the interner lookups for repeated frames.
// debug1PCs are the program counters of a record line ("3 @ 0x48618e
// 0x41896e"); nil when one is not hexadecimal.
func debug1PCs(line []byte) []uint64 {
	i := bytes.Index(line, []byte(" @ "))
	if i < 0 {
		return nil
	}
	fields := bytes.Fields(line[i+3:])
	pcs := make([]uint64, 0, len(fields))
	for _, f := range fields {
		pc, ok := parseHex(f)
		if !ok {
			return nil
		}
		pcs = append(pcs, pc)
	}
	return pcs
}

// debug1FramePC is the PC of a frame line ("#\t0x689254\tmain.child+0x94\t...").
func debug1FramePC(line []byte) (uint64, bool) {
	rest := line[2:]
	if i := bytes.IndexByte(rest, '\t'); i >= 0 {
		rest = rest[:i]
	}
	return parseHex(rest)
}

// parseHex reads "0x1f" (lower or upper case digits).
func parseHex(b []byte) (uint64, bool) {
	if len(b) < 3 || b[0] != '0' || b[1] != 'x' && b[1] != 'X' || len(b) > 18 {
		return 0, false
	}
	var n uint64
	for _, c := range b[2:] {
		switch {
		case c >= '0' && c <= '9':
			n = n<<4 | uint64(c-'0')
		case c >= 'a' && c <= 'f':
			n = n<<4 | uint64(c-'a'+10)
		case c >= 'A' && c <= 'F':
			n = n<<4 | uint64(c-'A'+10)
		default:
			return 0, false
		}
	}
	return n, true
}

func debug1Frame(line []byte, in *interner, cache map[string]*Frame) *Frame {
	rest := line[2:]
	i := bytes.IndexByte(rest, '\t')
	if i < 0 {
		return nil
	}
	rest = rest[i+1:]
	if f, ok := cache[string(rest)]; ok {
		return f
	}
	j := bytes.IndexByte(rest, '\t')
	if j < 0 {
		return nil
	}
	fn := rest[:j]
	if k := bytes.LastIndex(fn, []byte("+0x")); k > 0 {
		fn = fn[:k]
	}
	loc := bytes.TrimLeft(rest[j:], "\t")
	colon := bytes.LastIndexByte(loc, ':')
	if colon <= 0 {
		return nil
	}
	n, ok := parseInt(loc[colon+1:], 0)
	if !ok {
		return nil
	}
	f := in.frame(in.bytes(fn), in.bytes(loc[:colon]), int(n), "", "")
	cache[string(rest)] = f
	return f
}

// debug1ProseGap looks past the line just read, a line that is no profile
// line, for the profile going on after a person's words (fence.go's rule
// for a dump pasted in parts, without the fences): at most fenceProseMax
// non-blank lines that start no dump, within fenceLookMax lines, then a
// record line with a frame or labels line under it (or none: a blank
// line, another record, the end). It returns how many lines come
// before that record line (0: none found, or the record is the next
// line, which the caller's one-line look ahead reads). Only lines read
// without a prefix are looked at.
//
// Cost: at most fenceLookMax lines peeked, once per line that ends the
// profile's records.
func debug1ProseGap(ls *lineSource, junk []byte) int {
	if ls.staged() {
		return 0
	}
	prose := 0
	if !isFence(junk) {
		prose = 1 // the line that ended the records is words too
	}
	for k := 0; k < fenceLookMax; k++ {
		l, ok := ls.peek(k)
		if !ok {
			return 0
		}
		t := bytes.TrimRight(l.text, " \r")
		switch classifyDebug1Line(t) {
		case d1Blank:
			continue
		case d1Record:
			if k == 0 {
				return 0
			}
			// Its frames or labels under it, or none (a record whose
			// frames are all the runtime's hidden ones: "1 @ 0x4911c1").
			if next, ok := ls.peek(k + 1); ok {
				if nk := classifyDebug1Line(next.text); nk != d1Frame && nk != d1Labels && nk != d1Blank && nk != d1Record {
					return 0
				}
			}
			return k
		case d1Frame, d1Labels:
			return 0
		}
		if _, ok := debug1Header(t); ok || isGoHeader(t) || bytes.HasPrefix(t, prefixFullDump) || isHotSpotHeader(t) {
			return 0 // another dump starts here
		}
		if prose++; prose > fenceProseMax {
			return 0
		}
	}
	return 0
}
