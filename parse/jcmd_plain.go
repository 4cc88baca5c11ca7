package parse

import (
	"bytes"
	"strconv"
	"time"
)

// jcmd PID Thread.dump_to_file FILE, plain text form (JDK 21+), also
// written by HotSpotDiagnosticMXBean.dumpThreads(..., TEXT_PLAIN):
//
//	3862                                   process id
//	2026-01-25T15:46:04.439828Z            time (Instant.toString)
//	21.0.10+7-LTS                          Runtime.version()
//	                                       blank
//	#1 "main"                              JDK 21: tid, name, " virtual" for virtual threads
//	      java.base/java.lang.Thread.sleep0(Native Method)
//	      ...
//	#22 "" virtual WAITING 2025-09-16T10:00:00.123Z      JDK 25: state and time added
//	    at java.base/jdk.internal.misc.Unsafe.park(Native Method)
//	    - parking to wait for <java.util.concurrent.locks.ReentrantLock$NonfairSync@1b6d3586>
//	    - locked <java.lang.Object@4c873330>
//
// Threads of every container are printed one after the other (root
// container first); the text form does not name the containers, so
// Thread.Container stays empty.
//
// States: header lines (pid, time, version) -> threads. A thread ends at
// the next "#N" header; blank lines are passed over; any other line that is
// not a frame or a lock is recorded in Dump.Skipped.

// startsJVMPlain reports whether line is the time line of a plain
// dump_to_file dump, right after the process id line.
func startsJVMPlain(line, prev []byte) bool {
	return isInstantLine(line) && isProcessIDLine(prev)
}

// isProcessIDLine is true for "3862" and "-1" (ProcessHandle unsupported).
func isProcessIDLine(b []byte) bool {
	if bytes.Equal(b, []byte("-1")) {
		return true
	}
	return len(b) > 0 && len(b) <= 10 && allDigits(b)
}

// isInstantLine reports whether b is an Instant.toString() value:
// "2026-01-25T15:46:04.439828Z", "2026-01-25T15:46:04Z".
func isInstantLine(b []byte) bool {
	if len(b) < 20 || b[len(b)-1] != 'Z' || b[10] != 'T' {
		return false
	}
	_, err := time.Parse(time.RFC3339Nano, string(b))
	return err == nil
}

func parseJVMPlain(p *textParser) *Dump {
	line, ok := p.ls.next()
	if !ok {
		return nil
	}
	d := &Dump{}
	d.Time, _ = time.Parse(time.RFC3339Nano, string(line))
	if pid, err := strconv.Atoi(string(p.prev)); err == nil && pid > 0 {
		d.ProcessID = pid
	}
	if line, ok = p.ls.next(); !ok {
		return d
	}
	if len(line) > 0 && line[0] != '#' {
		d.Version = string(bytes.TrimSpace(line))
	} else {
		p.ls.unread()
	}
	frames := make(map[string]*Frame)
	var t *Thread
	for {
		line, ok := p.ls.next()
		if !ok {
			break
		}
		tl := trimIndent(line)
		switch {
		case len(tl) == 0:
			continue
		case line[0] == '#':
			if th := parsePlainHeader(line, p.in); th != nil {
				th.Line = p.ls.lineNo()
				d.Threads = append(d.Threads, th)
				t = th
				continue
			}
		case t != nil && len(tl) > 1 && tl[0] == '-' && tl[1] == ' ':
			if l, ok := parseLockLine(tl[2:], p.in, false); ok {
				l.Frame = len(t.Frames) - 1
				t.JVM.Locks = append(t.JVM.Locks, l)
				continue
			}
		case t != nil:
			text := tl
			if bytes.HasPrefix(text, []byte("at ")) {
				text = text[3:]
			}
			f, ok := frames[string(text)]
			if !ok {
				f = parseFrame(text, p.in)
				frames[string(text)] = f
			}
			if f != nil {
				t.Frames = append(t.Frames, f)
				continue
			}
		}
		if t == nil && (isProcessIDLine(line) || bytes.HasPrefix(line, prefixFullDump)) {
			// Another dump begins before any thread: this one was empty.
			p.ls.unread()
			return d
		}
		p.skip(d, line, "not a thread header, frame or lock of a dump_to_file text dump")
	}
	return d
}

// parsePlainHeader reads `#22 "name" virtual WAITING 2025-...Z`; nil if line
// is not one.
func parsePlainHeader(line []byte, in *interner) *Thread {
	sp := bytes.IndexByte(line, ' ')
	if sp < 2 || !allDigits(line[1:sp]) {
		return nil
	}
	rest := line[sp+1:]
	q := bytes.LastIndexByte(rest, '"')
	if len(rest) < 2 || rest[0] != '"' || q < 1 {
		return nil
	}
	id, _ := strconv.ParseInt(string(line[1:sp]), 10, 64)
	th := &Thread{ID: id, Weight: 1, JVM: &JVM{Name: in.bytes(rest[1:q])}}
	for _, w := range bytes.Fields(rest[q+1:]) {
		switch {
		case bytes.Equal(w, []byte("virtual")):
			th.Virtual = true
		case isUpperWord(w):
			th.State = in.bytes(w)
		}
	}
	return th
}
