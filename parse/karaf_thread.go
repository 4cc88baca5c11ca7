package parse

import (
	"bytes"
	"fmt"
)

// Apache Karaf's `threads ID` (the openHAB console's `threads 553`; Karaf's
// ThreadsAction given a thread id) prints one thread's ThreadInfo its own
// way: a line of id, name and state, "Stacktrace:", then each frame as
// StackTraceElement's class and method and its line number, unindented, the
// number -2 for a native method and -1 where none is known:
//
//	Thread 553 OH-thingHandler-1 WAITING                              thread: "Thread" ID NAME STATE
//	Stacktrace:                                                       its frames follow
//	jdk.internal.misc.Unsafe.park line: -2                            a frame: CLASS.METHOD line: N
//	java.util.concurrent.CompletableFuture.get line: 2072
//	org.openhab.binding.network.internal.PresenceDetection$$Lambda$2072/0x000000010119e000.run line: -1
//
// No lock, owner, daemon flag or module is printed. A person pastes one
// such thread, or several (a command each, a prompt or a blank line
// between them): an excerpt, cut by its reader. The name is what lies
// between the id and the last word (a name may hold spaces); the state is
// one of Thread.State's names, which is what tells the line from prose
// that starts with "Thread 3".
//
// States: from: a thread line followed by "Stacktrace:"; to: frame, blank,
// prompt (a line ending in "threads ID"), thread, end (a line of none of
// these shapes: unread).

// formatKarafThread names Karaf's one-thread form in the detection chain
// only: a dump read from it is a FormatJVMText excerpt.
const formatKarafThread Format = "jvm-karaf-thread"

// karafStates are Thread.State's names, the last word of a thread line.
var karafStates = []string{"NEW", "RUNNABLE", "BLOCKED", "WAITING", "TIMED_WAITING", "TERMINATED"}

// karafThread reads "Thread 553 OH-thingHandler-1 WAITING" (trimmed): its
// id, name and state.
func karafThread(t []byte) (id int64, name, state []byte, ok bool) {
	rest, ok := bytes.CutPrefix(bytes.TrimRight(t, " \t\r"), []byte("Thread "))
	if !ok {
		return 0, nil, nil, false
	}
	sp := bytes.IndexByte(rest, ' ')
	last := bytes.LastIndexByte(rest, ' ')
	if sp <= 0 || last <= sp+1 || !allDigits(rest[:sp]) || sp > 18 {
		return 0, nil, nil, false
	}
	st := rest[last+1:]
	for _, s := range karafStates {
		if string(st) == s {
			return int64(atoiBytes(rest[:sp])), rest[sp+1 : last], st, true
		}
	}
	return 0, nil, nil, false
}

// karafFrame reads "java.util.concurrent.CompletableFuture.get line: 2072"
// (trimmed): a class and method with a dot between them, then a line
// number (-2: a native method; -1 or less: none printed).
func karafFrame(t []byte, in *interner) *Frame {
	t = bytes.TrimRight(t, " \t\r")
	k := bytes.LastIndex(t, []byte(" line: "))
	if k <= 0 {
		return nil
	}
	fn, num := t[:k], t[k+len(" line: "):]
	if bytes.IndexByte(fn, '.') <= 0 || bytes.IndexByte(fn, ' ') >= 0 || bytes.IndexByte(fn, '(') >= 0 {
		return nil
	}
	neg := false
	if len(num) > 0 && num[0] == '-' {
		neg, num = true, num[1:]
	}
	if !allDigits(num) {
		return nil
	}
	line, note := atoiBytes(num), ""
	if neg {
		if line == 2 {
			note = "Native Method" // StackTraceElement.isNativeMethod's -2
		}
		line = 0
	}
	if in == nil {
		return &Frame{} // a check only (karafWhole)
	}
	return in.frame(in.bytes(fn), "", line, "", note)
}

// karafJoin is the form's rules for a line a prefixing tool cut in two
// (rejoin.go): a frame or thread line that is not whole is cut; a frame
// line, whose line number a cut may end early, may go on; a rest is a line
// that is no thread line, "Stacktrace:" or prompt.
var karafJoin = &lineJoin{
	cut: func(l []byte) bool {
		t := bytes.TrimSpace(l)
		return len(t) > 0 && !karafWhole(t)
	},
	// A frame's rest may look like a frame itself ("yedWorkQueue.take
	// line: 1182"): what tells it is that the two joined are one whole
	// line (rejoinCut's check), which a frame after a whole one never is.
	rest: func(l []byte) bool {
		t := bytes.TrimSpace(l)
		if len(t) == 0 || isKarafStacktrace(t) || isKarafPrompt(t) {
			return false
		}
		_, _, _, thread := karafThread(t)
		return !thread
	},
	mayGoOn: func(l []byte) bool {
		return bytes.Contains(l, []byte(" line: "))
	},
}

// karafWhole reports a whole line of the form (trimmed): a thread line,
// "Stacktrace:", a frame, a prompt.
func karafWhole(t []byte) bool {
	if _, _, _, ok := karafThread(t); ok {
		return true
	}
	return isKarafStacktrace(t) || isKarafPrompt(t) || karafFrame(t, nil) != nil
}

// isKarafStacktrace is the line under a thread line.
func isKarafStacktrace(t []byte) bool {
	return string(bytes.TrimRight(t, " \t\r")) == "Stacktrace:"
}

// isKarafPrompt is a console prompt before the command that printed the
// next thread: "openhab> threads 553", "karaf@root()> threads 12".
func isKarafPrompt(t []byte) bool {
	t = bytes.TrimRight(t, " \t\r")
	k := bytes.LastIndex(t, []byte("threads "))
	return k > 0 && bytes.Contains(t[:k], []byte(">")) && allDigits(t[k+len("threads "):])
}

// karafThreadInside reports whether a Karaf thread line may start somewhere
// in line (prefix_learn.go's mayStartInside): it holds "Thread " and, after
// it, a space and a Thread.State name (at the line's end, or before what a
// collector wraps a line in: a docker record's `\n"`). A Contains for
// every line outside a dump, six more for the few that hold "Thread ".
func karafThreadInside(line []byte) bool {
	i := bytes.Index(line, []byte("Thread "))
	if i < 0 {
		return false
	}
	t := line[i:]
	for _, s := range karafStates {
		if k := bytes.Index(t, []byte(s)); k > 0 && t[k-1] == ' ' {
			return true
		}
	}
	return false
}

// startsKarafThread claims a thread line; the parser checks that
// "Stacktrace:" follows it.
func startsKarafThread(line, _ []byte) bool {
	t := trimIndentNBSP(line)
	if len(t) < 16 || t[0] != 'T' {
		return false
	}
	_, _, _, ok := karafThread(t)
	return ok
}

// parseKarafThread reads one paste of Karaf's `threads ID` output, one
// thread or several (see the top of this file).
func parseKarafThread(p *textParser) *Dump {
	ls := p.ls
	in := p.in
	first, ok := ls.next()
	if !ok {
		return nil
	}
	start := ls.lineNo()
	first = bytes.Clone(first)
	nx, ok := ls.next()
	if !ok || !isKarafStacktrace(trimIndentNBSP(nx)) {
		if ok {
			ls.unread()
		}
		return nil // "Thread 3 of 5 WAITING" in prose
	}
	d := &Dump{Format: FormatJVMText, Cut: true}
	var cur *Thread
	begin := func(t []byte, no int) {
		id, name, state, _ := karafThread(t)
		cur = &Thread{Weight: 1, Line: no, ID: id, State: in.bytes(state), JVM: &JVM{Name: in.bytes(name)}}
		d.Threads = append(d.Threads, cur)
	}
	begin(trimIndentNBSP(first), start)
	for {
		line, ok := ls.next()
		if !ok {
			break
		}
		t := trimIndentNBSP(line)
		switch {
		case len(bytes.TrimSpace(t)) == 0, isKarafStacktrace(t), isKarafPrompt(t):
			continue
		}
		if _, _, _, ok := karafThread(t); ok {
			begin(t, ls.lineNo())
			continue
		}
		if f := karafFrame(t, in); f != nil {
			cur.Frames = append(cur.Frames, f)
			continue
		}
		ls.unread()
		break
	}
	d.Excerpt = fmt.Sprintf("Karaf's `threads ID` output (%d threads): no locks, owners or daemon flags are printed", len(d.Threads))
	return d
}
