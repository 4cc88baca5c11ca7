package parse

import "bytes"

// A debug=1 profile as a person pastes it. The runtime writes a frame line
// with TABs between its columns, and more TABs to align them:
//
//	#	0x523d1a	main.(*held).lockMutex+0x1a			/src/main.go:209
//
// On its way to a reader the line is mangled in three ways, each seen in
// tickets and chats:
//
//	#    0x523d1a    main.(*held).lockMutex+0x1a    /src/main.go:209     TABs as spaces (or no-break spaces)
//	# 0x523d1a main.(*held).lockMutex+0x1a /src/main.go:209              runs of white space collapsed (HTML outside <pre>)
//	#	0x523d1a	main.(*held).lockMutex+0x1a                             wrapped by a terminal, a mail client
//	/src/main.go:209
//
// Rules (debug1Wrap.whole, on each record, labels and frame line):
//
//  1. A frame line is read by its columns, any run of white space between
//     them (debug1Canonical), and given to the parser as the runtime wrote
//     it, one TAB each.
//  2. A line that no rule of the profile knows (not a record, labels,
//     frame, blank or header line), right after a record, labels or frame
//     line, is the rest of that line when the two joined read as one line
//     of its kind: joined as they are first (a wrap in the middle of a
//     word, or one that kept the white space), else with one space or TAB
//     between (a wrap that dropped it). A frame whose location ends
//     before its line number is whole only with the piece that holds it
//     ("main.go:16" then "4"): the join that reads wins over the line
//     alone. Up to debug1WrapMax pieces are joined; pieces that join into
//     nothing are recorded as skipped.
//
// Cost: one copy of each such line and one look at the line after it.

// debug1WrapMax bounds the pieces one line is joined from: a record of 64
// program counters (the runtime's most) wrapped at 40 columns is 24; a
// frame line of 200 bytes, five. The joins tried are bounded too (64):
// a record's are pruned as they grow (pcsSoFar), a frame's are two to a
// piece.
const debug1WrapMax = 32

// skipWhite returns b without its leading spaces, TABs and no-break
// spaces.
func skipWhite(b []byte) []byte {
	for len(b) > 0 {
		switch {
		case b[0] == ' ' || b[0] == '\t':
			b = b[1:]
		case bytes.HasPrefix(b, nbsp):
			b = b[len(nbsp):]
		default:
			return b
		}
	}
	return b
}

// whiteAt returns the index of the first space, TAB or no-break space in
// b, or len(b).
func whiteAt(b []byte) int {
	for i := 0; i < len(b); i++ {
		if b[i] == ' ' || b[i] == '\t' || bytes.HasPrefix(b[i:], nbsp) {
			return i
		}
	}
	return len(b)
}

// debug1LabelText is the label set of a labels line: what follows
// "# labels: ", with any white space around "labels:".
func debug1LabelText(line []byte) []byte {
	rest := debug1Hashless(line)
	return skipWhite(rest[len("labels:"):])
}

// debug1Hashless is line past its '#' and the white space after it; a
// line whose '#' is gone is taken as it is, past its white space. A page
// that renders Markdown makes "#\t0x523d1a\tmain.f+0x1a\t/src/main.go:9"
// a heading of the rest: pasted from it, the frame and label lines lose
// their '#' (an ATX heading is '#' and a space or TAB).
func debug1Hashless(line []byte) []byte {
	if len(line) > 0 && line[0] == '#' {
		return skipWhite(line[1:])
	}
	return skipWhite(line)
}

// debug1Canonical appends to dst the frame line as the runtime writes it,
// "#\t<pc>\t<func>+<off>\t<file>:<line>", read from line with any white
// space between its columns (rule 1); false when line is no whole frame
// line: a column missing, or the location without its line number.
// strict refuses white space inside the location, for a line joined from
// pieces (a space there is the wrap's).
func debug1Canonical(dst, line []byte, strict bool) ([]byte, bool) {
	if len(line) == 0 {
		return dst, false
	}
	rest := debug1Hashless(line)
	n := whiteAt(rest)
	pc := rest[:n]
	if _, ok := parseHex(pc); !ok {
		return dst, false
	}
	rest = skipWhite(rest[n:])
	n = whiteAt(rest)
	fn := rest[:n]
	if bytes.Index(fn, []byte("+0x")) <= 0 {
		return dst, false
	}
	loc := bytes.TrimRight(skipWhite(rest[n:]), " \t")
	if strict && whiteAt(loc) < len(loc) {
		return dst, false
	}
	colon := bytes.LastIndexByte(loc, ':')
	if colon <= 0 {
		return dst, false
	}
	if _, ok := parseInt(loc[colon+1:], 0); !ok {
		return dst, false
	}
	dst = append(dst, "#\t"...)
	dst = append(dst, pc...)
	dst = append(dst, '\t')
	dst = append(dst, fn...)
	dst = append(dst, '\t')
	return append(dst, loc...), true
}

// pcsSoFar reports whether a record line joined so far may still read:
// each word after " @ " a program counter, the last perhaps cut.
func pcsSoFar(line []byte) bool {
	i := bytes.Index(line, []byte(" @ "))
	if i < 0 {
		return false
	}
	words := bytes.Fields(line[i+3:])
	for j, f := range words {
		if _, ok := parseHex(f); ok {
			continue
		}
		if j < len(words)-1 || !bytes.HasPrefix([]byte("0x"), f) {
			return false
		}
	}
	return true
}

// debug1Wrap is the scratch of rule 2 for one profile.
type debug1Wrap struct {
	cur   []byte   // the line as read, then as joined
	out   []byte   // the canonical frame line
	cands [][]byte // the joins tried
	held  []Skipped
	in    *interner
}

// debug1Reads reports whether line reads as a whole line of kind k; for a
// frame, w.out holds it as the runtime writes it.
func (w *debug1Wrap) reads(k debug1LineKind, line []byte, joined bool) bool {
	switch k {
	case d1Frame:
		var ok bool
		w.out, ok = debug1Canonical(w.out[:0], line, joined)
		return ok
	case d1Labels:
		if classifyDebug1Line(line) != d1Labels {
			return false
		}
		_, rest, ok := parseLabelSet(debug1LabelText(line), w.in)
		return ok && len(bytes.TrimSpace(rest)) == 0
	case d1Record:
		return classifyDebug1Line(line) == d1Record && debug1PCs(line) != nil
	}
	return false
}

// whole returns line (of kind k, just read) joined with the pieces it was
// wrapped into, and a frame line as the runtime writes it (rules 1 and 2).
// The line after the last piece is given back to ls.
func (w *debug1Wrap) whole(ls *lineSource, line []byte, k debug1LineKind) []byte {
	w.cur = append(w.cur[:0], line...)
	sep := byte(' ')
	if k == d1Frame {
		sep = '\t'
	}
	ok := w.reads(k, w.cur, false)
	w.cands = append(w.cands[:0], w.cur)
	var pieces []Skipped
	for n := 0; n < debug1WrapMax; n++ {
		next, more := ls.next()
		if !more {
			break
		}
		if len(bytes.TrimSpace(next)) == 0 || classifyDebug1Line(next) != d1Unknown {
			ls.unread()
			break
		}
		pieces = append(pieces, Skipped{Line: ls.lineNo(), Text: string(next[:min(len(next), 200)]),
			Reason: "line not understood in a goroutine profile: no rest of the line before it"})
		// Each join tried so far, with the piece as it is and after one
		// separator; the first that reads wins.
		var grown [][]byte
		for _, c := range w.cands {
			for _, g := range [...][]byte{append(bytes.Clone(c), next...), append(append(bytes.Clone(c), sep), skipWhite(next)...)} {
				if k != d1Record || pcsSoFar(g) {
					grown = append(grown, g)
				}
			}
		}
		w.cands = grown[:min(len(grown), 64)]
		found := false
		for _, c := range w.cands {
			if w.reads(k, c, true) {
				w.cur, found, ok, pieces = c, true, true, pieces[:0]
				w.cands = append(w.cands[:0], c)
				break
			}
		}
		if !found && ok && (k != d1Record || len(w.cands) == 0) {
			// The line read whole and this is no rest of it (a record's:
			// nor the start of one): the piece is the profile's to judge
			// (a line not understood).
			ls.unread()
			pieces = pieces[:len(pieces)-1]
			break
		}
	}
	w.held = append(w.held, pieces...)
	if !ok {
		return w.cur
	}
	if k == d1Frame {
		w.reads(k, w.cur, false)
		return w.out
	}
	return w.cur
}
