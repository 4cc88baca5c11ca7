package parse

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// eclipseRewrite writes a HotSpot jstack dump as Eclipse's Debug view
// copies the same threads (eclipse.go): the target's two lines, each
// thread as "Thread [NAME] (Suspended)" (Daemon when it is), its
// monitors above its frames ("owns:" for each held one it does not wait
// on, "waiting for:" for the one it waits to enter or waits on, an
// object id per address), its frames with the class's simple name, the
// whole nested by TABs, each line ended by a TAB. It fits one whole
// HotSpot dump without a deadlock report.
func eclipseRewrite(text string, _ Runtime) (string, bool) {
	if strings.Count(text, "Full thread dump ") != 1 || strings.Contains(text, "Found one Java-level deadlock") || strings.Contains(text, " nid=NA ") {
		return "", false // one whole HotSpot dump (a deadlock report is read as a dump of its own), not IntelliJ's
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	var b strings.Builder
	b.WriteString("Main [Java Application]\n\tMain at localhost:46321\n")
	ids := map[string]int{}
	id := func(addr string) int {
		if _, ok := ids[addr]; !ok {
			ids[addr] = 20 + len(ids)
		}
		return ids[addr]
	}
	var mons, frames []string
	waitsOn := map[string]bool{}
	in := newInterner()
	n := 0
	flush := func() {
		for _, m := range mons {
			b.WriteString("\t\t\t" + m + "\t\n")
		}
		for _, f := range frames {
			b.WriteString("\t\t\t" + f + "\t\n")
		}
		mons, frames = mons[:0], frames[:0]
		clear(waitsOn)
	}
	held := []Lock{}
	endThread := func() {
		for _, l := range held {
			if !waitsOn[l.Address] {
				mons = append(mons, fmt.Sprintf("owns: %s  (id=%d)", simpleClass(l.Class), id(l.Address)))
			}
		}
		held = held[:0]
		flush()
	}
	for _, l := range lines {
		t := strings.TrimLeft(l, " \t")
		switch {
		case strings.HasPrefix(l, `"`):
			th := parseThreadHeader([]byte(l), in)
			if th == nil || !isHotSpotHeader([]byte(l)) || strings.Contains(th.Name(), "] (") {
				return "", false
			}
			endThread()
			kind := "Thread"
			if th.Daemon {
				kind = "Daemon Thread"
			}
			fmt.Fprintf(&b, "\t\t%s [%s] (Suspended)\t\n", kind, th.Name())
			n++
		case n == 0:
		case strings.HasPrefix(t, "at "):
			f := parseFrame([]byte(t[3:]), in)
			if f == nil {
				return "", false
			}
			loc := "not available"
			switch {
			case f.Line > 0:
				loc = fmt.Sprint(f.Line)
			case f.Note == "Native Method":
				loc = "not available [native method]"
			}
			frames = append(frames, fmt.Sprintf("%s() line: %s", simpleFunc(f.Func), loc))
		case strings.HasPrefix(t, "- ") && len(frames) > 0:
			lk, ok := parseLockLine([]byte(t[2:]), in, false)
			if !ok || lk.Address == "" {
				continue
			}
			switch lk.Kind {
			case LockHeld:
				held = append(held, lk)
			case LockWaitingTo, LockWaitingOn:
				waitsOn[lk.Address] = true
				mons = append(mons, fmt.Sprintf("waiting for: %s  (id=%d)", simpleClass(lk.Class), id(lk.Address)))
			}
		case strings.HasPrefix(l, "JNI global ref") || isDeadlockStart([]byte(t)):
			endThread()
			return b.String(), n > 0
		}
	}
	endThread()
	return b.String(), n > 0
}

// simpleFunc is a JVM function as Eclipse names it: the class without its
// package, and the method ("java.lang.Thread.sleep" gives "Thread.sleep").
func simpleFunc(fn string) string {
	k := strings.LastIndexByte(fn, '.')
	if k <= 0 {
		return fn
	}
	return simpleClass(fn[:k]) + fn[k:]
}

func simpleClass(c string) string { return c[strings.LastIndexByte(c, '.')+1:] }

// eclipseKeeps is what Eclipse's stacks keep of a dump: each thread's
// name and its frames by simple function and line.
func eclipseKeeps(dumps []*Dump) string {
	var b strings.Builder
	for _, d := range dumps {
		fmt.Fprintf(&b, "dump %s %d threads\n", d.Format, len(d.Threads))
		for _, t := range d.Threads {
			fmt.Fprintf(&b, "  %q\n", t.Name())
			for _, f := range t.Frames {
				fmt.Fprintf(&b, "    %s:%d\n", simpleFunc(f.Func), f.Line)
			}
		}
	}
	return b.String()
}

// TestEclipseFixture: the stacks written from Eclipse's format over the
// Deadlock program (testdata/formats/README.md) read as the threads its
// thread lines name, the deadlock of the two workers from their monitors,
// the waiter WAITING on its monitor, the daemon running without frames.
func TestEclipseFixture(t *testing.T) {
	dumps, err := ParseFile(filepath.Join(formatsDir, "eclipse__written-from-the-format.txt"))
	if err != nil || len(dumps) != 1 {
		t.Fatalf("%d dumps, %v", len(dumps), err)
	}
	var got []string
	for _, th := range dumps[0].Threads {
		s := fmt.Sprintf("%s %s %d", th.Name(), th.State, len(th.Frames))
		for _, l := range th.Locks() {
			s += fmt.Sprintf(" [%s %s %s]", l.Kind, l.Address, l.Owner)
		}
		got = append(got, s)
	}
	want := []string{
		"main  2",
		"worker-1 BLOCKED 3 [locked id=20 ] [waiting to lock id=21 worker-2]",
		"worker-2 BLOCKED 2 [locked id=21 ] [waiting to lock id=20 worker-1]",
		"Reference Handler  0",
		"waiter WAITING 3 [waiting on id=22 ]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("threads:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestEclipseLines(t *testing.T) {
	in := newInterner()
	for _, tt := range []struct {
		line, fn string
		n        int
	}{
		{"ParserCommand.compilePart(int) line: 150\t", "ParserCommand.compilePart", 150},
		{"DirectByteBuffer(MappedByteBuffer).force() line: 205", "MappedByteBuffer.force", 205},
		{"DAGScheduler.runJob(RDD<T>, Function2<TaskContext,Iterator<T>,U>, Seq<Object>) line: 766", "DAGScheduler.runJob", 766},
		{"Object.wait(long) line: not available [native method]", "Object.wait", 0},
		{"ServerConnection$HsqlInResultProcessor.receiveResult(int) line: 2032", "ServerConnection$HsqlInResultProcessor.receiveResult", 2032},
		{"the line: 5 of it", "", 0},
	} {
		f := eclipseFrame([]byte(tt.line), in)
		if tt.fn == "" {
			if f != nil {
				t.Errorf("eclipseFrame(%q) = %+v, want none", tt.line, f)
			}
			continue
		}
		if f == nil || f.Func != tt.fn || f.Line != tt.n {
			t.Errorf("eclipseFrame(%q) = %+v, want %s:%d", tt.line, f, tt.fn, tt.n)
		}
	}
	for _, tt := range []struct {
		line, name string
		ok         bool
	}{
		{"Thread [HSQLDB Connection @79fb12] (Suspended)\t", "HSQLDB Connection @79fb12", true},
		{"Daemon System Thread [Reference Handler] (Running)", "Reference Handler", true},
		{"Thread [main] (Suspended (breakpoint at line 25 in Foo))", "main", true},
		{"Thread[main,5,main]", "", false},
	} {
		name, _, _, ok := eclipseThread([]byte(tt.line))
		if ok != tt.ok || string(name) != tt.name {
			t.Errorf("eclipseThread(%q) = %q, %v", tt.line, name, ok)
		}
	}
	// A thread line in prose, with no frame after it, is no dump.
	if _, err := Parse("p.txt", strings.NewReader("I saw Thread [main] (Suspended) in the view.\nThread [main] (Suspended)\nand nothing else\n")); err == nil {
		t.Error("a thread line without frames read as a dump")
	}
}
