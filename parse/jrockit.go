package parse

import (
	"bytes"
	"strconv"
	"strings"
	"time"
)

// BEA/Oracle JRockit thread dumps (Ctrl-Break, kill -3, jrcmd
// print_threads), R24 to R28, as Oracle's JRockit Diagnostics Guide
// ("Using Thread Dumps") describes them and real dumps print them:
//
//	===== FULL THREAD DUMP ===============                             start
//	Sun Jul 20 17:03:48 2014                                           the time
//	BEA JRockit(R) R27.6.5-32_o-121899-1.6.0_14-...-linux-x86_64       the version ("Oracle JRockit(R) R28...")
//
//	"Main Thread" id=1 idx=0x4 tid=27878 prio=5 alive, in native, waiting    thread header (R25+)
//	"Main Thread" prio=5 id=0x80 tid=0xf7c waiting                           thread header (1.4-era)
//	    -- Waiting for notification on: java/lang/UNIXProcess@0x7b483a0[fat lock]   Object.wait
//	    -- Blocked trying to get lock: java/lang/Object@0x0095C8D0[thin lock]    entering a monitor
//	    -- Parking to wait for: java/util/concurrent/locks/AbstractQueuedSynchronizer$ConditionObject@0x..
//	    at jrockit/vm/Threads.waitForNotifySignal(JLjava/lang/Object;)Z(Native Method)   frame, '/' in classes
//	    at weblogic/Server.main(Server.java:32)@0x111B0584                       frame (1.4-era: its pc after it)
//	    ^-- Holding lock: java/lang/Object@0x0095C8C8[thin lock]                 held by the frame above
//	    ^-- Lock released while waiting: java/lang/UNIXProcess@0x7b483a0[fat lock]   the monitor waited on
//	    -- end of trace                                                          ("--- End of stack trace", 1.4)
//
//	Circular (deadlocked) lock chains          also "Blocked lock chains", "Open lock chains"
//	=================================
//	Chain 2:
//	"Thread-0" id=10 idx=0x14 tid=5628 waiting for java/lang/Object@0x0095C8D0 held by:
//	"Thread-1" id=11 idx=0x16 tid=3264 waiting for java/lang/Object@0x0095C8C8 held by:
//	"Thread-0" id=10 idx=0x14 tid=5628
//
//	===== END OF THREAD DUMP ===============   end
//
// Read into the model as HotSpot's: frames with '.' for '/' and without
// the method signature, JRockit's own frames on top taken off (endThread), the lock lines as Locks (a wait for notification
// is "waiting on", placed at the frame that released the monitor; a
// blocked thread's "waiting to lock", whose Owner is the holder a lock
// chain names), each circular chain a Deadlock. The header's state words
// become a Thread.State: blocked BLOCKED, waiting or parked WAITING,
// sleeping TIMED_WAITING, anything else RUNNABLE (a thread "in native" is
// RUNNABLE to HotSpot too). JRockit's own threads ("(GC Main Thread)",
// "(Code Generation Thread 1)") print no stack; the analysis knows their
// names (analyze's roles).
//
// States of the scanner: header lines (time, version) -> threads ->
// chains -> end. A line no rule knows right after a header or a frame
// that it completes is the rest of that line, cut by a console's width
// ("alive, in native, waiting, d" then "aemon"); any other is skipped and
// counted (a WebLogic log line between threads). A dump ends at its END
// line, at the next dump's start, or after jrockitForeignMax lines no
// rule knows in a row (a log after a dump that lost its END line).

var (
	jrockitStart = []byte("===== FULL THREAD DUMP ===============")
	jrockitEnd   = []byte("===== END OF THREAD DUMP ===============")
)

// jrockitForeignMax bounds the lines of other text in a row inside a
// JRockit dump: a WebLogic server logs a few between threads; more is the
// log after a dump cut before its END line.
const jrockitForeignMax = 16

// formatJRockit names JRockit's dumps in the detection chain; they are
// read into Dumps of FormatJVMText (the analysis reads one JVM model).
const formatJRockit Format = "jvm-jrockit"

// startsJRockit claims the "===== FULL THREAD DUMP" line, as JRockit
// writes it, at the line's start: an indented one is a paste's (the indent
// shape's), and a learned prefix ends where the line starts.
func startsJRockit(line, _ []byte) bool {
	return bytes.HasPrefix(line, jrockitStart)
}

// jrockitScan is one dump being read.
type jrockitScan struct {
	p    *textParser
	d    *Dump
	t    *Thread // the thread being read; nil between threads
	last []byte  // the last header or frame line, for a cut line's rest (a copy)
	kind byte    // 'h' header, 'f' frame: what last holds
	buf  []byte
	// chain is the lock chain being read: its kind and its entries.
	chainKind string
	chain     []DeadlockEdge
	chainIDs  []int64 // each entry's thread id; 0 where not printed
	chainAt   int     // the line of the chain's first entry
	inChains  bool
	// waitOn is the index in t's locks of its wait for notification; -1.
	waitOn  int
	foreign int // lines of other text in a row
}

func parseJRockit(p *textParser) *Dump {
	ls := p.ls
	line, ok := ls.next()
	if !ok || !bytes.HasPrefix(bytes.TrimSpace(line), jrockitStart) {
		return nil
	}
	s := &jrockitScan{p: p, d: &Dump{Format: FormatJVMText}, waitOn: -1}
	ended := false
	for !ended {
		line, ok := ls.next()
		if !ok {
			break
		}
		t := bytes.TrimSpace(line)
		switch {
		case bytes.HasPrefix(t, jrockitEnd):
			ended = true
			continue
		case bytes.HasPrefix(t, jrockitStart):
			ls.unread() // the next dump's
			s.endThread()
			s.endChain()
			return s.finish(false)
		}
		if s.line(line, t) {
			s.foreign = 0
			continue
		}
		if s.foreign++; s.foreign > jrockitForeignMax {
			// The dump is over: what was skipped in a row is the log after it.
			s.d.Skipped = s.d.Skipped[:len(s.d.Skipped)-(s.foreign-1)]
			ls.unread()
			break
		}
		s.p.skip(s.d, line, "line not understood in a JRockit thread dump")
	}
	s.endThread()
	s.endChain()
	return s.finish(!ended)
}

// finish ends the dump; cut says it had no END line.
func (s *jrockitScan) finish(cut bool) *Dump {
	if cut && len(s.d.Threads) > 0 {
		s.d.Skipped = append(s.d.Skipped, Skipped{Line: s.p.ls.lastKept(), Reason: "JRockit dump ends without its END OF THREAD DUMP line: truncated?"})
	}
	return s.d
}

// line reads one line of the dump; false when no rule knows it.
func (s *jrockitScan) line(line, t []byte) bool {
	switch {
	case len(t) == 0:
		s.last = s.last[:0]
		return true
	case s.inChains && t[0] == '"':
		s.chainLine(t)
		return true
	case t[0] == '"':
		s.endThread()
		return s.header(t)
	case bytes.HasSuffix(t, []byte("lock chains")):
		s.endThread()
		s.endChain()
		s.inChains, s.chainKind = true, string(t)
		return true
	case s.inChains && (bytes.HasPrefix(t, []byte("Chain ")) || len(bytes.Trim(t, "=")) == 0):
		s.endChain()
		return true
	case s.d.Version == "" && len(s.d.Threads) == 0 && bytes.Contains(t, []byte("JRockit(R)")):
		s.d.Version = string(t)
		return true
	case s.d.Time.IsZero() && len(s.d.Threads) == 0:
		for _, layout := range [...]string{"Mon Jan _2 15:04:05 2006", "Mon Jan 02 15:04:05 2006"} {
			if tm, err := time.Parse(layout, string(t)); err == nil {
				s.d.Time = tm // local time, no zone: read in UTC as HotSpot's date line
				return true
			}
		}
	}
	if s.t == nil {
		return s.rest(t)
	}
	switch {
	case bytes.HasPrefix(t, []byte("at ")):
		return s.frame(t[3:])
	case bytes.HasPrefix(t, []byte("-- end of trace")), bytes.HasPrefix(t, []byte("--- End of stack trace")):
		s.endThread()
		return true
	case bytes.HasPrefix(t, []byte("-- Waiting for notification on: ")):
		s.lock(LockWaitingOn, t[len("-- Waiting for notification on: "):], 0)
		s.waitOn = len(s.t.JVM.Locks) - 1
		return true
	case bytes.HasPrefix(t, []byte("-- Blocked trying to get lock: ")):
		s.lock(LockWaitingTo, t[len("-- Blocked trying to get lock: "):], 0)
		return true
	case bytes.HasPrefix(t, []byte("-- Parking to wait for: ")):
		s.lock(LockParking, t[len("-- Parking to wait for: "):], 0)
		return true
	case bytes.HasPrefix(t, []byte("^-- Holding lock: ")):
		s.lock(LockHeld, t[len("^-- Holding lock: "):], len(s.t.Frames)-1)
		return true
	case bytes.HasPrefix(t, []byte("^-- Lock released while waiting: ")):
		// The monitor waited on, released by the frame above: the wait's
		// place in the stack, as HotSpot's "- waiting on" under Object.wait.
		if s.waitOn >= 0 {
			s.t.JVM.Locks[s.waitOn].Frame = max(0, len(s.t.Frames)-1)
		} else {
			s.lock(LockWaitingOn, t[len("^-- Lock released while waiting: "):], len(s.t.Frames)-1)
		}
		return true
	}
	return s.rest(t)
}

// rest joins t, a line no rule knows, to the header or frame line before
// it when it is that line's rest, cut by a console's width.
func (s *jrockitScan) rest(t []byte) bool {
	if len(s.last) == 0 || s.t == nil {
		return false
	}
	switch s.kind {
	case 'h':
		// The state words' rest: letters, '_', ',' and spaces only.
		for _, c := range t {
			if !(c >= 'a' && c <= 'z' || c == '_' || c == ',' || c == ' ') {
				return false
			}
		}
		s.buf = append(append(s.buf[:0], s.last...), t...)
		s.states(s.buf)
		s.last = append(s.last[:0], s.buf...)
		return true
	case 'f':
		if _, whole := jrockitFrameText(s.last); whole {
			return false // the frame was whole: t is no rest of it
		}
		s.buf = append(append(s.buf[:0], s.last...), t...)
		f := jrockitFrame(s.buf, s.p.in)
		if f == nil {
			f = &Frame{Func: string(s.buf)} // cut again: more of it on the next line
		}
		s.t.Frames[len(s.t.Frames)-1] = f
		s.last = append(s.last[:0], s.buf...)
		return true
	}
	return false
}

// header reads a thread header.
func (s *jrockitScan) header(t []byte) bool {
	q := bytes.LastIndex(t, []byte(`" `))
	if q <= 0 {
		return false
	}
	th := &Thread{Weight: 1, Line: s.p.ls.lineNo(), JVM: &JVM{Name: string(t[1:q])}}
	s.t, s.waitOn = th, -1
	s.d.Threads = append(s.d.Threads, th)
	s.last, s.kind = append(s.last[:0], t...), 'h'
	s.states(t)
	return true
}

// states reads a header's fields and state words into s.t.
func (s *jrockitScan) states(t []byte) {
	q := bytes.LastIndex(t, []byte(`" `))
	rest := t[q+2:]
	j := s.t.JVM
	for len(rest) > 0 {
		sp := bytes.IndexByte(rest, ' ')
		word := rest
		if sp >= 0 {
			word = rest[:sp]
		}
		k, v, isField := bytes.Cut(word, []byte("="))
		if !isField {
			break
		}
		switch string(k) {
		case "id":
			if n, err := strconv.ParseInt(string(v), 10, 64); err == nil {
				s.t.ID = n // "id=?" (a GC worker) and 1.4's "id=0x80" (an index) are no thread id
			}
		case "tid":
			j.TID = string(v)
		case "prio":
			j.Priority, _ = strconv.Atoi(string(v))
		}
		if sp < 0 {
			rest = nil
			break
		}
		rest = rest[sp+1:]
	}
	state := "RUNNABLE"
	j.Daemon = false
	for _, w := range bytes.Split(rest, []byte(",")) {
		switch string(bytes.TrimSpace(w)) {
		case "daemon":
			j.Daemon = true
		case "blocked":
			state = "BLOCKED"
		case "waiting", "parked":
			if state != "BLOCKED" {
				state = "WAITING"
			}
		case "sleeping":
			if state == "RUNNABLE" {
				state = "TIMED_WAITING"
			}
		}
	}
	s.t.State = state
	j.StateDetail = string(bytes.TrimSpace(rest))
}

// frame reads the text after "at ".
func (s *jrockitScan) frame(text []byte) bool {
	s.last, s.kind = append(append(s.last[:0], "at "...), text...), 'f'
	f := jrockitFrame(s.last, s.p.in)
	if f == nil {
		// Cut by the console's width: its rest is on the next line (rest).
		f = &Frame{Func: string(text)}
	}
	s.t.Frames = append(s.t.Frames, f)
	return true
}

// jrockitFrame reads "at java/lang/Object.wait(J)V(Native Method)" (with a
// 1.4-era "@0x111B0584" after it): the class with '.', the signature
// dropped (parseFrame); nil when the line is no whole frame.
func jrockitFrame(line []byte, in *interner) *Frame {
	text, ok := jrockitFrameText(line)
	if !ok {
		return nil
	}
	return parseFrame(text, in)
}

// jrockitFrameText is a frame line's text after "at " as parseFrame reads
// it, the class with '.' for '/'; false when the line is no whole frame:
// its last parentheses hold a location ("Native Method",
// "Object.java:485"), not a signature's ("(J)", "(...;)"), which ends a
// line cut right after the signature.
func jrockitFrameText(line []byte) ([]byte, bool) {
	text := bytes.TrimPrefix(bytes.TrimSpace(line), []byte("at "))
	if at := bytes.LastIndex(text, []byte(")@0x")); at > 0 {
		text = text[:at+1]
	}
	if len(text) == 0 || text[len(text)-1] != ')' {
		return nil, false
	}
	fn := bytes.IndexByte(text, '(')
	if fn <= 0 {
		return nil, false
	}
	loc := text[bytes.LastIndexByte(text, '(')+1 : len(text)-1]
	if bytes.IndexByte(loc, ';') >= 0 || !bytes.ContainsAny(loc, ". ") {
		return nil, false
	}
	dotted := bytes.Clone(text)
	for i := 0; i < fn; i++ {
		if dotted[i] == '/' {
			dotted[i] = '.'
		}
	}
	return dotted, true
}

// lock adds a lock line's lock ("java/lang/Object@0x0095C8D0[thin lock]")
// to s.t, at frame.
func (s *jrockitScan) lock(kind LockKind, obj []byte, frame int) {
	class, addr := jrockitObject(obj)
	s.t.JVM.Locks = append(s.t.JVM.Locks, Lock{Kind: kind, Class: s.p.in.bytes(class), Address: s.p.in.bytes(addr), Frame: max(0, frame)})
}

// jrockitObject splits "java/lang/Object@0x0095C8D0[thin lock]" into
// "java.lang.Object" and "0x0095C8D0".
func jrockitObject(obj []byte) (class, addr []byte) {
	if b := bytes.IndexByte(obj, '['); b >= 0 {
		obj = obj[:b]
	}
	obj = bytes.TrimSpace(obj)
	at := bytes.LastIndexByte(obj, '@')
	if at < 0 {
		return bytes.ReplaceAll(obj, []byte("/"), []byte(".")), nil
	}
	return bytes.ReplaceAll(obj[:at], []byte("/"), []byte(".")), obj[at+1:]
}

// endThread ends the thread being read. JRockit's own frames on top of
// its stack (jrockit.vm.Threads, jrockit.vm.Locks: how JRockit waits,
// enters a monitor, parks and sleeps) are taken off, as HotSpot and OpenJ9
// print none of theirs above Object.wait or a monitor enter: the stack
// then starts where theirs do, and the signature table reads it alike.
// The lock lines' frames move with them.
func (s *jrockitScan) endThread() {
	if t := s.t; t != nil {
		n := 0
		for n < len(t.Frames)-1 && strings.HasPrefix(t.Frames[n].Func, "jrockit.vm.") && !strings.HasPrefix(t.Frames[n].Func, "jrockit.vm.RNI.") {
			n++
		}
		if n > 0 {
			t.Frames = t.Frames[n:]
			for i := range t.JVM.Locks {
				t.JVM.Locks[i].Frame = max(0, t.JVM.Locks[i].Frame-n)
			}
		}
	}
	s.t, s.waitOn = nil, -1
	s.last = s.last[:0]
}

// chainLine reads one entry of a lock chain: `"name" id=.. idx=.. tid=..
// waiting for X@0x.. held by:`, then the holder's entry.
func (s *jrockitScan) chainLine(t []byte) {
	q := bytes.LastIndex(t, []byte(`" `))
	if q <= 0 {
		q = len(t) - 1
	}
	e := DeadlockEdge{Thread: string(t[1:q])}
	var id int64
	if i := bytes.Index(t[q:], []byte(" id=")); i >= 0 {
		v := t[q+i+len(" id="):]
		if sp := bytes.IndexByte(v, ' '); sp >= 0 {
			v = v[:sp]
		}
		id, _ = strconv.ParseInt(string(v), 10, 64)
	}
	if w := bytes.Index(t, []byte(" waiting for ")); w > 0 {
		e.Waiting = string(bytes.TrimSuffix(bytes.TrimSpace(t[w+len(" waiting for "):]), []byte(" held by:")))
	}
	if len(s.chain) == 0 {
		s.chainAt = s.p.ls.lineNo()
	}
	if n := len(s.chain); n > 0 && s.chain[n-1].Holder == "" {
		s.chain[n-1].Holder = e.Thread
	}
	s.chain = append(s.chain, e)
	s.chainIDs = append(s.chainIDs, id)
}

// endChain ends the lock chain being read: every chain names the holder of
// what each of its threads waits for (owners), and a circular one is a
// deadlock.
func (s *jrockitScan) endChain() {
	if len(s.chain) == 0 {
		return
	}
	edges, ids := s.chain, s.chainIDs
	s.chain, s.chainIDs = nil, nil
	s.owners(edges, ids)
	if bytes.HasPrefix([]byte(s.chainKind), []byte("Circular")) {
		// The last entry repeats the first: the cycle is the ones before it.
		if n := len(edges); n > 1 && edges[n-1].Thread == edges[0].Thread && edges[n-1].Waiting == "" {
			edges = edges[:n-1]
		}
		s.d.Deadlocks = append(s.d.Deadlocks, Deadlock{Line: s.chainAt, Kind: "JRockit circular lock chain", Cycle: edges})
	}
}

// owners gives each entry's holder (the entry after it) to the waiter's
// lock of that object as its Owner and OwnerID, where the lock line names
// none: JRockit prints a blocked thread's lock without its holder, and the
// chain says who holds it. The waiter is told by its id where the entry
// prints one (threads of one name).
func (s *jrockitScan) owners(edges []DeadlockEdge, ids []int64) {
	for k, e := range edges {
		if e.Holder == "" || e.Waiting == "" || k+1 >= len(edges) {
			continue
		}
		_, addr := jrockitObject([]byte(e.Waiting))
		for _, th := range s.d.Threads {
			if th.Name() != e.Thread || ids[k] != 0 && th.ID != ids[k] {
				continue
			}
			for i := range th.JVM.Locks {
				l := &th.JVM.Locks[i]
				if l.Kind == LockWaitingTo && l.Address == string(addr) && l.Owner == "" {
					l.Owner, l.OwnerID = e.Holder, ids[k+1]
				}
			}
		}
	}
}
