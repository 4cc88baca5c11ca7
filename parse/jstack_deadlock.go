package parse

import "bytes"

// The deadlock report HotSpot prints after the threads:
//
//	Found one Java-level deadlock:
//	=============================
//	"transfer-checking-to-savings":
//	  waiting to lock monitor 0x00007f...(object 0x000000069ec1bdd0, a corpusgen.Deadlock$Account),
//	  which is held by "transfer-savings-to-checking"
//	...
//	Java stack information for the threads listed above:
//	===================================================
//	"transfer-checking-to-savings":
//		at corpusgen.Deadlock.transfer(Deadlock.java:40)
//		- waiting to lock <0x000000069ec1bdd0> (a corpusgen.Deadlock$Account)
//	...
//	Found 1 deadlock.
//
// The `"name":` lines name threads already listed; they are not threads.
// The stack copies are passed over: the threads' own entries hold them.
//
// A report pasted alone (an excerpt: jstack_excerpt.go) has no thread
// entries around it; there the report is all there is, and its names and
// stack copies are read as the threads (excerptEdge, excerptStack).

// startDeadlock begins a report at its "Found one X deadlock:" line.
func (s *jstackScanner) startDeadlock(t []byte) {
	s.endThread()
	s.finishReport()
	if s.reportOnly() {
		s.excerpt.newReport()
	}
	kind := bytes.TrimSuffix(bytes.TrimPrefix(unheading(t), []byte("Found one ")), []byte("deadlock:"))
	s.d.Deadlocks = append(s.d.Deadlocks, Deadlock{
		Line: s.p.ls.lineNo(),
		Kind: string(bytes.TrimSpace(kind)),
	})
	s.dl = &s.d.Deadlocks[len(s.d.Deadlocks)-1]
	s.edge = nil
	s.state = stDeadlock
}

// deadlockLine handles a line inside a deadlock report.
func (s *jstackScanner) deadlockLine(line, t []byte) bool {
	indented := len(t) < len(line)
	switch {
	case t[0] == '=':
		return true
	case isDeadlockStacks(t): // its title, Markdown marks and all (unheading)
		s.state = stDeadlockStacks
		return true
	case bytes.HasPrefix(t, []byte("Found ")) && (bytes.HasSuffix(t, []byte("deadlock.")) || bytes.HasSuffix(t, []byte("deadlocks."))):
		s.endThread()
		s.finishReport()
		s.state = stTrailer
		if s.sa {
			s.state = stPreamble // the agent's threads come after its report (jstack_sa.go)
		}
		s.dl, s.edge = nil, nil
		return true
	case s.state == stDeadlock && isOneLineEdge(t):
		// An entry the paste joined on one line (jstack_excerpt.go).
		name, waiting, holder := splitOneLineEdge(t)
		s.dl.Cycle = append(s.dl.Cycle, DeadlockEdge{Thread: s.p.in.bytes(name), Waiting: string(waiting), Holder: s.p.in.bytes(holder)})
		s.edge = &s.dl.Cycle[len(s.dl.Cycle)-1]
		if s.reportOnly() {
			s.excerptEdge(s.edge.Thread)
		}
		return true
	case !indented && len(t) >= 4 && t[0] == '"' && bytes.HasSuffix(t, []byte(`":`)): // `"name":`, not a bare `":` nor a name-less `"":`
		if s.state == stDeadlock {
			s.dl.Cycle = append(s.dl.Cycle, DeadlockEdge{Thread: s.p.in.bytes(t[1 : len(t)-2])})
			s.edge = &s.dl.Cycle[len(s.dl.Cycle)-1]
			if s.reportOnly() {
				s.excerptEdge(s.edge.Thread)
			}
		} else if s.reportOnly() {
			s.excerptStack(s.p.in.bytes(t[1 : len(t)-2]))
		}
		return true
	case s.state == stDeadlockStacks && s.reportOnly() && s.t != nil && isThreadBodyLine(t):
		// A stack copy of a report pasted alone: the thread's own.
		st := s.state
		ok := s.threadLine(line, t)
		s.state = st
		if ok {
			return true
		}
	case s.state == stDeadlockStacks && (bytes.HasPrefix(t, []byte("at ")) || bytes.HasPrefix(t, []byte("- "))):
		return true
	case s.state == stDeadlock && s.edge != nil && (indented || isEdgeLine(t)):
		// The edge's lines are indented under its name; a paste that lost
		// the indentation still begins them with these words.
		if h, ok := bytes.CutPrefix(t, []byte("which is held by ")); ok {
			h = bytes.TrimSpace(h)
			if len(h) > 1 && h[0] == '"' && h[len(h)-1] == '"' {
				h = h[1 : len(h)-1]
			}
			s.edge.Holder = s.p.in.bytes(h)
			return true
		}
		if s.edge.Waiting != "" {
			s.edge.Waiting += " " + string(t)
		} else {
			s.edge.Waiting = string(t)
		}
		return true
	}
	if !indented && (t[0] == '"' || bytes.HasPrefix(t, []byte("JNI global ref"))) {
		// The report was cut short: the dump goes on.
		s.state = stThread
		if bytes.HasPrefix(t, []byte("JNI")) {
			s.state = stTrailer
		}
		s.p.ls.unread()
		return true
	}
	if len(s.pending) == 0 && !s.reportOnly() {
		s.p.skip(s.d, line, "unrecognized line in a deadlock report")
		return true
	}
	return s.foreign(line)
}
