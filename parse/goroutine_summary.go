package parse

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
)

// Hand-summarised goroutine dumps (issue 33): a maintainer who cannot
// paste a dump of thousands of goroutines writes its groups by hand, a
// count and the runtime's state over the functions that matter, without
// files, lines or arguments:
//
//	1234 goroutines [sync.RWMutex.Lock, 11 minutes]:      group: count [state, wait]
//	  -> sync.(*RWMutex).Lock                              one function a line, after an arrow
//	  -> example.com/cache.(*Store).Put
//	512 goroutines [chan receive]:
//	    example.com/q.(*Queue).Pop                         or indented, no arrow
//	40 goroutines [select]: example.com/rpc.(*Conn).loop -> example.com/rpc.(*Conn).Call
//	goroutine 12 [chan receive]: main.worker -> main.main  one goroutine, its chain on the line
//	  created by main.startWorkers                         a group's creator, as the runtime says it
//
// Each group is read as Weight goroutines with its state and wait; its
// frames are the functions named. A chain ("a -> b -> c") is read top
// first as written, unless it ends where a goroutine waits (a runtime,
// sync or syscall function) and begins elsewhere: then the writer went
// from caller to callee, and it is turned round.
//
// A summary is claimed only when every function it names is one: a
// qualified Go name ("pkg.F", "pkg.(*T).m", with no spaces), so that an
// arrow in a sentence ("the cache -> the store") or a Markdown list is
// prose, and the header must name a state the runtime prints
// (goWaitReasons).

// summaryHeader reads "N goroutines [state(, M minutes)]:" or
// "goroutine K [state(, M minutes)]:", with the rest of the line after
// the colon (a chain, or empty). ok false for any other line.
func summaryHeader(line []byte) (n int, id int64, state string, minutes int, rest []byte, ok bool) {
	t := bytes.TrimSpace(line)
	var num []byte
	switch {
	case bytes.HasPrefix(t, []byte("goroutine ")):
		t = t[len("goroutine "):]
		sp := bytes.IndexByte(t, ' ')
		if sp <= 0 || !allDigits(t[:sp]) {
			return
		}
		num, t = t[:sp], t[sp+1:]
		id, n = int64(atoiBytes(num)), 1
	default:
		i := bytes.Index(t, infixGoroutines)
		if i <= 0 || !allDigits(t[:i]) {
			return
		}
		n, t = atoiBytes(t[:i]), t[i+len(infixGoroutines)-1:]
	}
	if len(t) == 0 || t[0] != '[' {
		return
	}
	e := bytes.Index(t, []byte("]:"))
	if e < 0 {
		return
	}
	st := t[1:e]
	rest = bytes.TrimSpace(t[e+2:])
	if c := bytes.LastIndex(st, []byte(", ")); c > 0 && bytes.HasSuffix(st, []byte(" minutes")) {
		m := st[c+2 : len(st)-len(" minutes")]
		if !allDigits(m) {
			return
		}
		minutes, st = atoiBytes(m), st[:c]
	}
	if !goWaitReasons[string(st)] || n <= 0 {
		return
	}
	return n, id, string(st), minutes, rest, true
}

// isGoFuncName reports whether s is a qualified Go function name as a
// summary writes it: "pkg.F", "example.com/x.(*T).m", "main.main.func1",
// with "()" or "(...)" after it allowed; never a word of prose.
func isGoFuncName(s []byte) bool {
	s = bytes.TrimSuffix(bytes.TrimSuffix(s, []byte("(...)")), []byte("()"))
	if len(s) < 3 {
		return false
	}
	c := s[0]
	if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_') {
		return false
	}
	slash := bytes.LastIndexByte(s, '/')
	dot := bytes.IndexByte(s[slash+1:], '.')
	if dot <= 0 || slash+1+dot == len(s)-1 {
		return false // no package qualifier, or a sentence's full stop
	}
	if bytes.HasSuffix(s, []byte(".go")) {
		return false // a file name: no function is named "go" (a keyword)
	}
	depth := 0
	for _, c := range s {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '.', c == '/', c == '-', c == '*', c == '~', c == '[', c == ']', c == ',':
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth < 0 {
				return false
			}
		default:
			return false // a space, a quote, a colon: prose or a file line
		}
	}
	return depth == 0 && !bytes.Contains(s, []byte("..")) && s[len(s)-1] != '.'
}

// summaryChain reads "a -> b -> c" (or "-> a"): the functions, in the
// order written; ok false unless every element is a function name.
func summaryChain(t []byte) (fns [][]byte, ok bool) {
	t = bytes.TrimSpace(t)
	t = bytes.TrimSpace(bytes.TrimPrefix(t, []byte("->")))
	if len(t) == 0 {
		return nil, false
	}
	for _, part := range bytes.Split(t, []byte("->")) {
		part = bytes.TrimSpace(part)
		if !isGoFuncName(part) {
			return nil, false
		}
		fns = append(fns, part)
	}
	return fns, true
}

// summaryFrames reads a line under a group's header: an arrow line, a
// chain, or an indented function name.
func summaryFrames(line []byte) ([][]byte, bool) {
	t := bytes.TrimSpace(line)
	if bytes.HasPrefix(t, []byte("->")) || bytes.Contains(t, []byte(" -> ")) {
		return summaryChain(t)
	}
	if isIndented(line) && isGoFuncName(t) {
		return [][]byte{t}, true
	}
	return nil, false
}

// isWaitFunc is a function a goroutine waits in: where a stack's top is.
func isWaitFunc(fn string) bool {
	if isRootFunc(fn) {
		return false
	}
	for _, p := range []string{"runtime.", "sync.", "syscall.", "internal/", "time.Sleep", "net.(*netFD)"} {
		if strings.HasPrefix(fn, p) {
			return true
		}
	}
	return false
}

// isRootFunc is a function every goroutine's stack ends in: where a
// stack's bottom is.
func isRootFunc(fn string) bool {
	return fn == "runtime.goexit" || fn == "runtime.main" || fn == "main.main" || strings.Contains(fn, ".gowrap")
}

// callerFirst reports whether a chain was written from caller to callee:
// it begins at a stack's bottom, or ends where a goroutine waits and
// begins elsewhere; never when it ends at a stack's bottom.
func callerFirst(fns []string) bool {
	n := len(fns)
	if n < 2 || isRootFunc(fns[n-1]) {
		return false
	}
	return isRootFunc(fns[0]) || !isWaitFunc(fns[0]) && isWaitFunc(fns[n-1])
}

// startsGoSummary claims a group header under which a summary's frame
// follows on the line itself.
func startsGoSummary(line []byte) bool {
	_, _, _, _, rest, ok := summaryHeader(line)
	if !ok || len(rest) == 0 {
		return false
	}
	_, ok = summaryChain(rest)
	return ok
}

// parseGoSummary reads a summary from its first header, read by the
// caller (line no). nil when no header has a function under it.
func parseGoSummary(p *textParser, first []byte, no int) *Dump {
	ls := p.ls
	in := p.in
	d := &Dump{Format: FormatGoText}
	var cur *Thread
	var fns []string
	reversed := 0
	end := func() {
		if cur == nil {
			return
		}
		if callerFirst(fns) {
			slices.Reverse(fns)
			reversed++
		}
		var frames []*Frame
		for _, f := range fns {
			frames = append(frames, in.frame(in.str(f), "", 0, "", ""))
		}
		// As the runtime prints a stack: no goexit, a go statement's
		// wrapper ("main.main.gowrap1") said as the creator.
		frames, creator := runtimeView(frames)
		if creator != "" && cur.CreatedBy == nil {
			cur.CreatedBy = &Creator{Func: in.str(creator)}
		}
		cur.Frames = frames
		cur.NoStack = len(frames) == 0
		d.Threads = append(d.Threads, cur)
		cur, fns = nil, nil
	}
	add := func(fs [][]byte) {
		for _, f := range fs {
			f = bytes.TrimSuffix(bytes.TrimSuffix(f, []byte("(...)")), []byte("()"))
			fns = append(fns, string(f))
		}
	}
	for k := 0; ; k++ {
		line, lineNo := first, no
		if k > 0 {
			var ok bool
			if line, ok = ls.next(); !ok {
				break
			}
			lineNo = ls.lineNo()
		}
		if len(bytes.TrimSpace(line)) == 0 {
			end()
			continue
		}
		if n, id, st, m, rest, ok := summaryHeader(line); ok {
			var chain [][]byte
			if len(rest) > 0 {
				if chain, ok = summaryChain(rest); !ok {
					if k == 0 {
						return nil
					}
					ls.unread()
					break
				}
			}
			end()
			cur = &Thread{ID: id, Weight: n, Line: lineNo, State: in.str(st), WaitMinutes: m}
			add(chain)
			continue
		}
		if cur != nil && cur.CreatedBy == nil {
			// "created by main.handleSearch (in goroutine 211)": the
			// group's creator, as the runtime names it.
			if c, ok := bytes.CutPrefix(bytes.TrimSpace(line), []byte("created by ")); ok {
				if i := bytes.Index(c, []byte(" in goroutine ")); i > 0 && allDigits(c[i+len(" in goroutine "):]) {
					c = c[:i]
				}
				if isGoFuncName(c) {
					cur.CreatedBy = &Creator{Func: in.bytes(c)}
					continue
				}
			}
		}
		if cur != nil {
			if fs, ok := summaryFrames(line); ok {
				add(fs)
				continue
			}
		}
		if k == 0 {
			return nil
		}
		ls.unread()
		break
	}
	end()
	withFrames := 0
	for _, t := range d.Threads {
		if len(t.Frames) > 0 {
			withFrames++
		}
	}
	if withFrames == 0 {
		return nil // headers without a function under any: not a summary
	}
	what := fmt.Sprintf("a goroutine summary written by hand: %d goroutines in %d groups, each read as that many goroutines; functions as named (no files, lines or arguments)",
		d.ThreadCount(), len(d.Threads))
	if reversed > 0 {
		what += fmt.Sprintf("; %d chain(s) written caller first, read turned round", reversed)
	}
	d.Excerpt = what
	return d
}

// goSummaryFirst reads a summary whose first header is the runtime's
// ("goroutine 12 [chan receive]:"), with a summary's function under it
// (no file line): the Go text parser's input, given to parseGoSummary.
// ok false, with nothing taken, for any other input. One line is peeked
// at, as read (a summary under a prefix is read from its second header).
func goSummaryFirst(p *textParser) (*Dump, bool) {
	ls := p.ls
	first, ok := ls.next()
	if !ok {
		return nil, false
	}
	ls.unread()
	if _, id, _, _, rest, ok := summaryHeader(first); !ok || id == 0 || len(rest) > 0 || !isGoHeader(first) {
		return nil, false
	}
	nx, ok := ls.peek(0)
	if !ok {
		return nil, false
	}
	if _, ok := summaryFrames(nx.text); !ok {
		return nil, false
	}
	if after, ok := ls.peek(1); ok && isFileLineLike(after.text) {
		return nil, false // "    main.main()" over its file line: a dump pasted indented
	}
	first, _ = ls.next()
	d := parseGoSummary(p, bytes.Clone(first), ls.lineNo())
	return d, d != nil
}

// isFileLineLike is a frame's file line as any dump prints it
// ("\t/usr/lib/go/src/runtime/proc.go:435 +0x9b", "main.go:50"): under a
// function name, it makes that name a dump's frame, not a summary's.
func isFileLineLike(line []byte) bool {
	t := bytes.TrimSpace(line)
	return len(t) > 0 && (t[0] == '/' || bytes.Contains(t, []byte(".go:")) || bytes.Contains(t, []byte(".s:")))
}
