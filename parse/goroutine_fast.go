package parse

import "bytes"

// The frame fast path. In a dump of many goroutines most frames are the
// one the builder already guesses (the stack trie's: stackNode), and
// their two lines differ from the guess's only in the arguments. So
// before the next line is read, fastFrames checks the reader's buffer
// directly for the guessed frame:
//
//	<guess's function>(<any arguments>)\n<guess's whole file line>\n
//
// and, when both lines are there and whole, consumes them as one frame:
// one short IndexByte over the arguments and two comparisons, instead of
// two line reads, a classification, an argsParen and fileLine's checks.
//
// When the guess's function is not the line's, the node's other children
// (up to maxKidScan) are tried the same way, by their functions.
//
// It gives what the line-by-line path gives, for these reasons:
//   - the guess's function (or a child's) came from argsParen on a line
//     classified as a function line (funcLine; only those make frames).
//     It holds no space and each '(' in it follows a '.', so a line that
//     starts with it and '(' and ends in ')' is classified glFunc with its
//     arguments at the same index: no other kind's test can pass on that
//     start (a header, "created by", an origin and "runtime: " hold a
//     space where the function has none; a "0x..:" diagnostic ends its hex
//     digits inside the function name, as it did on the line that made the
//     frame);
//   - the file line is byte for byte the one the guess (or the child the
//     frame is taken as) was read from, so it classifies as a file line
//     again and fileLine would take that location at its first check (or
//     find the same location by its "path:line": a function and a
//     location make one goLoc, whichever way found);
//   - syncWaitAddr reads a line that starts "sync.(*" or
//     "internal/sync.(*"; a line that starts with the guess's function
//     and '(' does so exactly when the function does (goLoc.lock), as a
//     function name does not end in '.';
//   - CR before LF is dropped as next drops it; a line longer than the
//     limit, a line not yet whole in the buffer, and a given-back, queued
//     or prefixed line source leave the frame to the line-by-line path.
//
// Between stacks it also takes, on the same terms, a "created by" line
// and its file line equal to a remembered creator's (fastCreator), and
// the blank line that ends a goroutine with the next header (fastHeader).
// A stack left to the line-by-line path costs that path for every line
// after it too, up to the next frame: the creator table is what keeps a
// dump of several pools on the fast path.
//
// The line source's numbers are advanced as the next calls would.
// TestFastFramesSame compares both paths on the corpus and on edge cases,
// FuzzFastFrames on anything.
//
// When the guess fails, the trie node's few children are compared before
// the line-by-line path's caches are asked.
//
// Measured on a 100,000-goroutine dump (bench/gen100k) with cachegrind
// and GOGC=off (instructions, which do not vary from run to run as time
// does here): 1.27G instructions line by line, 0.99G with the frames'
// path, 0.97G with the creator's and header's too, 0.82G with the trie's
// guess and children, 0.66G with the creator table (the last creator
// alone had matched one goroutine in five), 0.62G comparing 32 children
// instead of 8, 0.54G finding a child by its function, unclassified.
var goFastFrames = true

// goFastCounted, when set (by tests), is given the number of frames each
// Go text dump's fast path consumed, so that a test can tell the path ran.
var goFastCounted func(frames int)

// fastFrames consumes the frames whose two lines are already whole in
// the buffer, while the scanner is inside a goroutine's stack
// (gsGoroutine), and returns at the first line that is not the start of
// such a frame, unread.
func (s *goTextScan) fastFrames(ls *lineSource) {
	b := s.b
	for {
		rest := ls.buffered()
		if len(rest) == 0 {
			return
		}
		switch rest[0] {
		case '\n':
			if !s.fastHeader(ls, rest) {
				return
			}
			continue
		case 'c':
			if bytes.HasPrefix(rest, []byte("created by ")) {
				if !s.fastCreator(ls, rest) {
					return
				}
				continue
			}
		}
		var l *goLoc
		var kid *stackNode // the trie's node for l
		if b.cur == nil {
			// No goroutine being built (its header was not understood):
			// the builder drops the frame, as it would line by line.
		} else if kid = b.node.next; kid != nil {
			l = kid.loc // the stack trie's guess
		}
		paren := -1
		if l != nil {
			if n := len(l.f.Func); len(rest) > n && rest[n] == '(' && string(rest[:n]) == l.f.Func {
				paren = n
			} else {
				// Another child of the node, found by its function the same
				// way (its name came from argsParen too), so the line is
				// not classified: at the root, whose children are every
				// top frame, the guess misses for most goroutines.
				l, kid = nil, nil
				if n := b.node; len(n.kids) <= maxKidScan {
					for _, k := range n.kids {
						if m := len(k.loc.f.Func); len(rest) > m && rest[m] == '(' && string(rest[:m]) == k.loc.f.Func {
							l, kid, paren = k.loc, k, m
							break
						}
					}
				}
			}
		}
		var i int
		if paren >= 0 {
			i = bytes.IndexByte(rest[paren:], '\n') // the function's name is known to hold none
			if i >= 0 {
				i += paren
			}
		} else {
			i = bytes.IndexByte(rest, '\n')
		}
		if i < 0 || i > ls.maxLine() {
			return
		}
		fl := rest[:i]
		if fl[len(fl)-1] == '\r' {
			fl = fl[:len(fl)-1]
		}
		if len(fl) == 0 {
			return
		}
		if paren < 0 {
			kind, p := classifyGoLineParen(fl)
			if kind != glFunc {
				return
			}
			paren = p
		} else if fl[len(fl)-1] != ')' {
			return
		}
		file := rest[i+1:]
		if len(file) < 2 || file[0] != '\t' || file[1] == 'g' {
			return // "\tgoroutine running on other thread", or a line not yet buffered
		}
		var ln []byte
		j := -1
		if l != nil && len(file) > len(l.raw) && file[len(l.raw)] == '\n' && string(file[:len(l.raw)]) == l.raw {
			j = len(l.raw) // the guess's file line, found without a search
			ln = file[:j]
		} else {
			if j = bytes.IndexByte(file, '\n'); j < 0 || j > ls.maxLine() {
				return
			}
			ln = file[:j]
			if ln[len(ln)-1] == '\r' {
				ln = ln[:len(ln)-1]
			}
			if l != nil && l.raw != string(ln) {
				l, kid = nil, nil
			}
		}
		// Both lines are a frame: consume them as next would.
		ls.took(i+1+j+1, 2, ln)
		s.last = glFile
		s.dropFunc = false
		if l == nil {
			if n := b.node; b.cur != nil && len(n.kids) <= maxKidScan {
				for _, k := range n.kids {
					if k.loc.raw == string(ln) && k.loc.f.Func == string(fl[:paren]) {
						l, kid = k.loc, k
						break
					}
				}
			}
		}
		if l != nil {
			if l.method {
				b.recv = b.argAddr(fl, paren)
			}
			b.lockArgs(fl, paren)
			if l.lock && b.anc == nil && b.cur.WaitAddr == "" {
				if a := syncWaitAddr(fl, paren); a != nil {
					b.cur.WaitAddr = string(a)
				}
			}
			b.foundKid(kid)
			s.fast++
			continue
		}
		s.fast++
		b.funcLine(fl[:paren], ls.prevNo())
		b.recv = b.argAddr(fl, paren)
		b.lockArgs(fl, paren)
		if a := syncWaitAddr(fl, paren); a != nil {
			b.apply(opWaitAddr, ls.prevNo(), a)
		}
		b.frameFile(ln, ls.lineNo())
	}
}

// fastCreator consumes the goroutine's "created by" line and its file
// line when both are a remembered creator's lines again, byte for byte (a
// pool's goroutines print the same two lines), as the line-by-line path
// would: createdBy and opCreatorFile, with what they read from those lines
// last time (sameCreator). Any other creator is left to that path.
func (s *goTextScan) fastCreator(ls *lineSource, rest []byte) bool {
	b := s.b
	if b.cur == nil || b.anc != nil {
		return false
	}
	i := bytes.IndexByte(rest, '\n')
	if i < 0 {
		return false
	}
	f := rest[i+1:]
	j := bytes.IndexByte(f, '\n')
	if j < 0 {
		return false
	}
	e := &b.creatorLines[creatorSlot(i, f[:j])]
	if len(e.by) != i || len(e.file) != j || string(rest[:i]) != string(e.by) || string(f[:j]) != string(e.file) {
		return false // another creator, or CRLF lines (e's have no CR)
	}
	ls.took(i+1+j+1, 2, f[:j])
	s.last = glFile
	s.dropCreator = false
	b.sameCreator(e)
	return true
}

// fastHeader consumes the blank line that ends a goroutine and the next
// goroutine's header, when the header is whole in the buffer and its id
// is new to the dump (a repeated id starts another dump: the
// line-by-line path handles it), as the line-by-line path would: end,
// then header.
func (s *goTextScan) fastHeader(ls *lineSource, rest []byte) bool {
	h := rest[1:]
	if !bytes.HasPrefix(h, []byte("goroutine ")) {
		return false
	}
	i := bytes.IndexByte(h, '\n')
	if i < 0 || i > ls.maxLine() {
		return false
	}
	line := h[:i]
	if line[len(line)-1] == '\r' {
		line = line[:len(line)-1]
	}
	id, ok, header := goHeaderStart(line)
	if !header {
		return false
	}
	if ok && s.seen.has(id) || placeholderID(line) > 0 {
		return false
	}
	s.end()
	ls.took(1+i+1, 2, line)
	s.last = glHeader
	s.headerID(line, id, ok)
	return true
}
