package parse

import (
	"bytes"
	"fmt"
)

// Eclipse's Java debugger stacks, as its Debug view copies them ("Copy
// Stack" on a thread, or on the whole target): a thread line, the
// monitors the thread owns and waits for (when the view shows monitors),
// then its frames, each line indented by a TAB more than the thread and
// ended by a TAB:
//
//	Main [Java Application]                                        the target: prose, passed over
//		Main at localhost:46321
//			Thread [main] (Suspended)                              thread: [Daemon ][System ]Thread [NAME] (STATUS)
//				owns: Object  (id=20)                              a monitor it holds (the debugger's object id)
//				waiting for: Object  (id=21)                       the one it waits to enter, or waits on in wait()
//				Deadlock.lambda$main$0() line: 8                   a frame: simple class names, parameter types
//				DirectByteBuffer(MappedByteBuffer).force() line: 205   receiver(declaring class).method
//				Object.wait(long) line: not available [native method]
//			Daemon System Thread [Reference Handler] (Running)     no frames while running
//
// The format is JDT's (org.eclipse.jdt.debug.ui: JDIModelPresentation
// labels); no Eclipse runs here, so it is read as public pastes of it
// show it (testdata/formats/README.md) and the fixtures are written from
// it. The status in parentheses is the debugger's (Suspended, Running,
// "Suspended (breakpoint at line 25 in Foo)"), not the JVM's: a thread's
// state is read from its monitors (waiting for one: BLOCKED, or WAITING
// on it when its top frame is Object.wait), else left unknown. A frame's
// function is its declaring class and method; the class is printed
// without its package. A monitor's address is the debugger's object id
// ("id=21"), the same object in every thread, so an owner's "owns" and
// a waiter's "waiting for" meet in the lock model as jstack's addresses
// do.
//
// States: from: a thread line; to: monitor, frame, thread, end (a line
// of none of these shapes: unread).

// formatEclipse names Eclipse's stacks in the detection chain only: a
// dump read from them is a FormatJVMText dump that says what it lacks.
const formatEclipse Format = "jvm-eclipse"

// eclipseEnd is what ends each line: the TAB JDT writes, or the
// no-break spaces a rendered page made of it.
const eclipseEnd = " \t\r\u00a0"

// eclipseThread reads a thread line (indentation and the trailing TAB
// removed): "Daemon Thread [pool-1-thread-3] (Suspended)"; its name,
// status and daemon flag.
func eclipseThread(t []byte) (name, status []byte, daemon, ok bool) {
	t = bytes.TrimRight(t, eclipseEnd)
	rest := t
	if r, ok := bytes.CutPrefix(rest, []byte("Daemon ")); ok {
		rest, daemon = r, true
	}
	rest = bytes.TrimPrefix(rest, []byte("System "))
	rest, ok = bytes.CutPrefix(rest, []byte("Thread ["))
	if !ok || len(rest) < 4 || rest[len(rest)-1] != ')' {
		return nil, nil, false, false
	}
	k := bytes.LastIndex(rest, []byte("] ("))
	if k < 0 {
		return nil, nil, false, false
	}
	return rest[:k], rest[k+3 : len(rest)-1], daemon, true
}

// eclipseFrame reads a frame line (trimmed): "ParserCommand.compilePart(int)
// line: 150", "Object.wait(long) line: not available [native method]".
func eclipseFrame(t []byte, in *interner) *Frame {
	t = bytes.TrimRight(t, eclipseEnd)
	k := bytes.LastIndex(t, []byte(" line: "))
	if k <= 0 {
		return nil
	}
	sig, loc := t[:k], t[k+len(" line: "):]
	if len(sig) < 3 || sig[len(sig)-1] != ')' {
		return nil
	}
	o := bytes.IndexByte(sig, '(')
	if o <= 0 {
		return nil
	}
	fn := sig[:o]
	// "DirectByteBuffer(MappedByteBuffer).force(…)": the receiver's class,
	// then the declaring class, whose method runs.
	if c := bytes.Index(sig[o:], []byte(").")); c > 0 && bytes.IndexByte(sig[o+1:o+c], '(') < 0 && bytes.IndexByte(sig[o+1:o+c], ',') < 0 {
		decl := sig[o+1 : o+c]
		rest := sig[o+c+2:]
		p := bytes.IndexByte(rest, '(')
		if p <= 0 || len(decl) == 0 {
			return nil
		}
		fn = append(append(append([]byte(nil), decl...), '.'), rest[:p]...)
	}
	if bytes.IndexByte(fn, '.') <= 0 || bytes.IndexByte(fn, ' ') >= 0 {
		return nil
	}
	line, note := 0, []byte(nil)
	switch {
	case allDigits(loc):
		line = atoiBytes(loc)
	case bytes.HasPrefix(loc, []byte("not available")):
		if bytes.Contains(loc, []byte("[native method]")) {
			note = []byte("Native Method")
		}
	default:
		return nil
	}
	return in.frame(in.bytes(fn), "", line, "", in.bytes(note))
}

// eclipseMonitor reads "owns: Object  (id=20)" or "waiting for: Object
// (id=21)" (trimmed); held is true for owns.
func eclipseMonitor(t []byte, in *interner) (l Lock, held, ok bool) {
	t = bytes.TrimRight(t, eclipseEnd)
	var rest []byte
	switch {
	case bytes.HasPrefix(t, []byte("owns: ")):
		rest, held = t[len("owns: "):], true
	case bytes.HasPrefix(t, []byte("waiting for: ")):
		rest = t[len("waiting for: "):]
	default:
		return l, false, false
	}
	k := bytes.LastIndex(rest, []byte("(id="))
	if k <= 0 || rest[len(rest)-1] != ')' || !allDigits(rest[k+4:len(rest)-1]) {
		return l, false, false
	}
	l.Class = in.bytes(bytes.TrimSpace(rest[:k]))
	l.Address = in.bytes(rest[k+1 : len(rest)-1]) // "id=21"
	return l, held, true
}

// eclipseLine is a line of Eclipse's stacks other than a thread line.
func eclipseLine(t []byte, in *interner) bool {
	if _, _, ok := eclipseMonitor(t, in); ok {
		return true
	}
	return eclipseFrame(t, in) != nil
}

// startsEclipse claims a thread line; the parser checks what follows it.
func startsEclipse(line, _ []byte) bool {
	t := trimIndentNBSP(line)
	if len(t) < 14 || t[0] != 'T' && t[0] != 'D' && t[0] != 'S' {
		return false
	}
	_, _, _, ok := eclipseThread(t)
	return ok
}

// parseEclipse reads one paste of Eclipse's stacks (see the top of this
// file). A thread line starts it only when a monitor or frame line, or
// another thread line, follows.
func parseEclipse(p *textParser) *Dump {
	ls := p.ls
	in := p.in
	first, ok := ls.next()
	if !ok {
		return nil
	}
	start := ls.lineNo()
	first = bytes.Clone(first)
	nx, ok := ls.next()
	if !ok {
		return nil
	}
	nt := trimIndentNBSP(nx)
	if _, _, _, isThread := eclipseThread(nt); !isThread && !eclipseLine(nt, in) {
		ls.unread()
		return nil // "Thread [x] (y)" in prose
	}
	ls.unread()
	d := &Dump{Format: FormatJVMText}
	var cur *Thread
	begin := func(t []byte, no int) {
		name, status, daemon, _ := eclipseThread(t)
		cur = &Thread{Weight: 1, Line: no, JVM: &JVM{Name: in.bytes(name), Daemon: daemon,
			StateDetail: in.bytes(append([]byte("Eclipse: "), status...))}}
		d.Threads = append(d.Threads, cur)
	}
	begin(trimIndentNBSP(first), start)
	for {
		line, ok := ls.next()
		if !ok {
			break
		}
		t := trimIndentNBSP(line) // TABs, or the no-break spaces a page rendered them as
		if len(bytes.TrimSpace(t)) == 0 {
			continue
		}
		if _, _, _, ok := eclipseThread(t); ok {
			begin(t, ls.lineNo())
			continue
		}
		if l, held, ok := eclipseMonitor(t, in); ok {
			l.Kind = LockWaitingTo
			if held {
				l.Kind = LockHeld
			}
			cur.JVM.Locks = append(cur.JVM.Locks, l) // Frame 0: printed above the frames, the top frame's
			continue
		}
		if f := eclipseFrame(t, in); f != nil {
			cur.Frames = append(cur.Frames, f)
			continue
		}
		ls.unread()
		break
	}
	eclipseStates(d)
	d.ShortClasses = true
	d.Excerpt = fmt.Sprintf("Eclipse's debugger stacks (%d threads): no JVM state is printed (read from the monitors), classes without their packages", len(d.Threads))
	return d
}

// eclipseStates gives each thread the state its monitors tell, and each
// wait its owner: the thread that owns the same object id.
func eclipseStates(d *Dump) {
	owner := map[string]string{}
	for _, t := range d.Threads {
		for _, l := range t.JVM.Locks {
			if l.Kind == LockHeld {
				owner[l.Address] = t.JVM.Name
			}
		}
	}
	for _, t := range d.Threads {
		for i := range t.JVM.Locks {
			l := &t.JVM.Locks[i]
			if l.Kind != LockWaitingTo {
				continue
			}
			if len(t.Frames) > 0 && t.Frames[0].Func == "Object.wait" {
				// JDWP's contended monitor is also the one wait() waits
				// on: the thread released it and waits to be notified.
				l.Kind = LockWaitingOn
				t.State = "WAITING"
				continue
			}
			l.Owner = owner[l.Address]
			t.State = "BLOCKED"
		}
	}
}
