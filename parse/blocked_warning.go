package parse

import (
	"bytes"
	"fmt"
	"strings"
	"time"
)

// A blocked-thread checker's warning: Vert.x's BlockedThreadChecker (and
// Quarkus, which runs Vert.x's) logs, for a thread that has run one task
// longer than its limit, its Thread.toString, how long, and the stack as
// an exception's:
//
//	Jan 13, 2019 4:18:24 PM io.vertx.core.impl.BlockedThreadChecker                         (java.util.logging: two lines)
//	WARNUNG: Thread Thread[vert.x-worker-thread-1,5,main] has been blocked for 5644 ms, time limit is 0
//	io.vertx.core.VertxException: Thread blocked
//		at sun.misc.Unsafe.park(Native Method)
//	13:12:01.907 [vertx-blocked-thread-checker] WARN  i.v.c.i.BlockedThreadChecker - Thread Thread[vert.x-worker-thread-4,5,main] has been blocked for 61988 ms, time limit is 60000
//	... (Quarkus) Thread Thread[vert.x-eventloop-thread-1,5,main]=Thread[vert.x-eventloop-thread-1,5,main] has been blocked for 4486 ms, time limit is 2000 ms: io.vertx.core.VertxException: Thread blocked
//	... Thread Thread[#33,vert.x-eventloop-thread-0,5,main] has been blocked for 3266 ms, time limit is 2000 ms     (JDK 19+ Thread.toString)
//		at io.vertx.ext.web.impl.RouteImpl.matches(RouteImpl.java:229) ~[mesh-server-0.10.4.jar:na]              (logback's packaging data)
//
// Each warning is one thread with its stack: the checker's own dump of
// it (vert.x issues 2296, 2598, 2798, 5162; gentics/mesh#205,
// quarkiverse/quarkus-mcp-server#293). The checker warns again every
// interval while the task runs on, the same thread with a longer time:
// a thread warned again starts the next moment, so several warnings of
// one thread over time are moments of the same blocked thread. The
// thread's state is not printed (the stack says what it does); its wait
// "blocked for N ms" is kept in StateDetail.
//
// States: from: a warning line; to: the exception line, a frame, a blank
// line (a log that spaces its lines), "... N more", the next warning
// (this moment, or the next when the thread is in it already), end (any
// other line: unread).

// formatBlockedWarning names the warnings in the detection chain only: a
// dump read from them is a FormatJVMText dump that says what it is.
const formatBlockedWarning Format = "jvm-blocked-thread-warning"

var (
	vertxException = []byte("io.vertx.core.VertxException: Thread blocked")
	warnThread     = []byte("Thread Thread[")
	warnBlocked    = []byte(" has been blocked for ")
	warnLimit      = []byte("time limit is ")
)

// blockedWarning is one warning line read.
type blockedWarning struct {
	name  []byte
	id    int64  // JDK 19+ "#33"; 0 if not printed
	ms    int64  // how long the thread has been blocked
	limit []byte // "2000 ms", "60000"; nil if not printed
}

// readBlockedWarning reads a checker's warning line; ok false for any other.
// The name is Thread.toString's: "Thread[" [#id,] name "," prio ","
// group "]", read from the right (a name may hold commas and brackets).
func readBlockedWarning(line []byte) (w blockedWarning, ok bool) {
	i := bytes.Index(line, warnThread)
	if i < 0 {
		return w, false
	}
	j := bytes.Index(line[i:], warnBlocked)
	if j < 0 {
		return w, false
	}
	spec := line[i+len(warnThread)-len("Thread[") : i+j] // "Thread[...]" or "Thread[...]=Thread[...]"
	if k := bytes.Index(spec, []byte("]=Thread[")); k > 0 {
		spec = spec[:k+1]
	}
	if len(spec) < len("Thread[]") || spec[len(spec)-1] != ']' {
		return w, false
	}
	inner := spec[len("Thread[") : len(spec)-1]
	c := bytes.LastIndexByte(inner, ',')
	if c < 0 {
		return w, false
	}
	inner = inner[:c] // the group
	c = bytes.LastIndexByte(inner, ',')
	if c < 0 || !allDigits(inner[c+1:]) || c+1 == len(inner) {
		return w, false
	}
	inner = inner[:c] // the priority
	if len(inner) > 1 && inner[0] == '#' {
		if k := bytes.IndexByte(inner, ','); k > 1 && allDigits(inner[1:k]) {
			w.id = int64(atoiBytes(inner[1:k]))
			inner = inner[k+1:]
		}
	}
	if len(inner) == 0 {
		return w, false
	}
	w.name = inner
	rest := line[i+j+len(warnBlocked):]
	n := 0
	for n < len(rest) && isDigit(rest[n]) {
		n++
	}
	if n == 0 || !bytes.HasPrefix(rest[n:], []byte(" ms")) {
		return w, false
	}
	w.ms = int64(atoiBytes(rest[:n]))
	if k := bytes.Index(rest, warnLimit); k >= 0 {
		l := rest[k+len(warnLimit):]
		if e := bytes.IndexByte(l, ':'); e >= 0 {
			l = l[:e]
		}
		w.limit = bytes.TrimSpace(l)
	}
	return w, true
}

// startsBlockedWarning claims a warning line that begins with the
// checker's text ("Thread Thread[…"), or with java.util.logging's level
// word before it ("WARNING: ", "WARNUNG: "): the text before any other
// start is a prefix to learn (prefix_learn.go), as a collector's on
// every line. A logger's layout on the warning's line alone (logback's
// "13:12:01.907 [checker] WARN  i.v.c.i.BlockedThreadChecker - ", the
// exception's lines under it bare) is no such prefix: such a line is
// claimed last, when no prefix was learned (startsBlockedWarningInside).
func startsBlockedWarning(line, _ []byte) bool {
	t := bytes.TrimLeft(line, " \t")
	if !bytes.HasPrefix(t, warnThread) {
		c := bytes.Index(t, []byte(": "))
		if c <= 0 || !isLevelWord(t[:c]) || !bytes.HasPrefix(t[c+2:], warnThread) {
			return false
		}
	}
	_, ok := readBlockedWarning(line)
	return ok
}

// startsBlockedWarningInside claims a warning line whatever text is before
// it: asked last (parse.go), after the prefixes.
func startsBlockedWarningInside(line []byte) bool {
	_, ok := readBlockedWarning(line)
	return ok
}

// isLevelWord is a log level as java.util.logging prints it, in any
// language: one word of letters ("WARNING", "WARNUNG", "AVERTISSEMENT").
func isLevelWord(w []byte) bool {
	if len(w) < 3 || len(w) > 20 {
		return false
	}
	for _, c := range w {
		if !('A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

// blockedWarningFormat is the chain's entry for the warnings.
func blockedWarningFormat() *textFormat {
	for i := range textFormats {
		if textFormats[i].format == formatBlockedWarning {
			return &textFormats[i]
		}
	}
	return nil
}

// isBlockedException is the exception line the checker logs the stack
// under ("io.vertx.core.VertxException: Thread blocked"), alone on its
// line when not at the warning's end.
func isBlockedException(t []byte) bool {
	return bytes.HasSuffix(t, []byte("Exception: Thread blocked"))
}

// trimPackagingData cuts logback's packaging data off a frame:
// "at a.B.c(B.java:1) ~[app.jar:na]" or "[app.jar:1.0]".
func trimPackagingData(t []byte) []byte {
	if len(t) == 0 || t[len(t)-1] != ']' {
		return t
	}
	k := bytes.LastIndex(t, []byte(" ~["))
	if k < 0 {
		k = bytes.LastIndex(t, []byte(" ["))
	}
	if k <= 0 || t[k-1] != ')' {
		return t
	}
	return t[:k]
}

// parseBlockedWarning reads warnings (see the top of this file) into one
// moment.
func parseBlockedWarning(p *textParser) *Dump {
	ls, in := p.ls, p.in
	d := &Dump{Format: FormatJVMText}
	byName := map[string]bool{}
	var cur *Thread
	var limits []string
	for {
		line, ok := ls.next()
		if !ok {
			break
		}
		t := bytes.TrimSpace(trimIndentNBSP(line))
		if w, ok := readBlockedWarning(line); ok {
			name := in.bytes(w.name)
			if byName[name] {
				ls.unread() // warned again: the next moment
				break
			}
			byName[name] = true
			cur = &Thread{ID: w.id, Weight: 1, Line: ls.lineNo(), JVM: &JVM{Name: name, BlockedFor: time.Duration(w.ms) * time.Millisecond}}
			cur.StateDetail = fmt.Sprintf("blocked for %d ms (a blocked-thread checker's warning)", w.ms)
			d.Threads = append(d.Threads, cur)
			if len(w.limit) > 0 {
				limits = append(limits, string(w.limit))
			}
			continue
		}
		switch {
		case len(t) == 0:
			continue
		case cur != nil && len(cur.Frames) == 0 && isBlockedException(t):
			continue
		case bytes.HasSuffix(t, []byte(".BlockedThreadChecker")):
			continue // java.util.logging's first line of the next warning ("Jan 13, 2019 4:18:24 PM io.vertx.core.impl.BlockedThreadChecker")
		case cur != nil && bytes.HasPrefix(t, []byte("at ")):
			// A chat's closing fence glued to the last frame ("…(Thread.java:840)```"):
			// the warning's first line, a log's, opened no inline code to close (inline_code.go).
			if f := parseFrame(trimPackagingData(bytes.TrimRight(t[3:], "`")), in); f != nil {
				cur.Frames = append(cur.Frames, f)
				continue
			}
			p.skip(d, line, "frame not understood")
			continue
		case cur != nil && bytes.HasPrefix(t, []byte("... ")) && bytes.HasSuffix(t, []byte(" more")):
			continue // a cause's frames in common: none here, the checker logs no cause
		}
		ls.unread()
		break
	}
	if len(d.Threads) == 0 {
		return nil
	}
	d.Excerpt = fmt.Sprintf("a blocked-thread checker's warning (%d threads): each thread's stack and how long it had been blocked, no other thread", len(d.Threads))
	if len(limits) > 0 {
		d.Excerpt += "; its limit " + strings.Join(dedupStrings(limits), ", ")
	}
	d.Cut = true
	return d
}

func dedupStrings(s []string) []string {
	seen := map[string]bool{}
	out := s[:0]
	for _, v := range s {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// warningPiece reports whether t is a warning line (with or without
// java.util.logging's level before it) cut before its end: at least
// "Thread Th", up to a whole warning that does not end as one.
func warningPiece(t []byte) bool {
	t = bytes.TrimRight(t, " ")
	if c := bytes.Index(t, []byte(": ")); c > 0 && isLevelWord(t[:c]) {
		t = t[c+2:]
	}
	if len(t) < len("Thread Th") {
		return false
	}
	if len(t) < len(warnThread) {
		return bytes.HasPrefix(warnThread, t)
	}
	if !bytes.HasPrefix(t, warnThread) {
		return false
	}
	if _, ok := readBlockedWarning(t); !ok {
		return true
	}
	return !warningEnds(t)
}

// warningEnds: a warning line ends with its time (" ms"), its limit (a
// number), or the exception's "Thread blocked".
func warningEnds(t []byte) bool {
	return bytes.HasSuffix(t, []byte(" ms")) || isDigit(t[len(t)-1]) || bytes.HasSuffix(t, []byte("Thread blocked"))
}

// blockedJoin is the warnings' rules for a line a prefixing tool cut in
// two (rejoin.go): a warning line that does not end as one (its time,
// its limit, or the exception's "Thread blocked"), or java.util.logging's
// level before a piece of "Thread Thread["; the stack's lines as a JVM
// dump's.
var blockedJoin = &lineJoin{
	cut: func(l []byte) bool {
		t := bytes.TrimRight(bytes.TrimLeft(l, " \t"), " ")
		if bytes.Contains(t, warnThread) {
			if _, ok := readBlockedWarning(t); !ok {
				return true
			}
			return !warningEnds(t)
		}
		if c := bytes.Index(t, []byte(": ")); c > 0 && isLevelWord(t[:c]) && len(t) > c+2 && len(t) < c+2+len(warnThread) && bytes.HasPrefix(warnThread, t[c+2:]) {
			return true // "WARNING: Thread Thr"
		}
		if k := bytes.Index(t, []byte("Exception")); k > 0 && len(t) < len(t[:k])+len("Exception: Thread blocked") && bytes.HasPrefix([]byte("Exception: Thread blocked"), t[k:]) {
			return true // "io.vertx.core.VertxException: Thre"
		}
		if len(t) > 3 && len(t) < len(vertxException) && bytes.HasPrefix(vertxException, t) {
			return true // "io.vertx.core.Vert"
		}
		return jvmJoin.cut(l)
	},
	rest: func(l []byte) bool { return jvmJoin.rest(l) },
	// A limit printed without its unit (Vert.x 3: "time limit is 2000")
	// is whole, and may be the piece before " ms".
	mayGoOn: func(l []byte) bool {
		t := bytes.TrimRight(l, " ")
		return len(t) > 0 && isDigit(t[len(t)-1]) && bytes.Contains(t, warnBlocked)
	},
}
