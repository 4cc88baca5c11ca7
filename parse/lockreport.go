package parse

import (
	"bytes"
	"fmt"
)

// A deadlock detector's report: the lines a program writes from
// ThreadMXBean (findDeadlockedThreads, then each ThreadInfo's
// getThreadName, getLockInfo and getLockOwnerName), one per blocked
// thread, with no stacks:
//
//	Java-level deadlock has been detected                                    prose (IntelliJ 11's report,
//	...                                                                      mjedynak/builder-generator-idea-plugin#4)
//	ApplicationImpl pooled thread 0 is waiting to lock java.awt.Component$AWTTreeLock@1caee107 which is held by AWT-EventQueue-0 11.1.3#IU-117.499, eap:true
//	AWT-EventQueue-0 11.1.3#IU-117.499, eap:true is waiting to lock java.lang.Object@1d37a147 which is held by ApplicationImpl pooled thread 0
//
// Other writers of the same line: a game server's DeadLockDetector
// ("Java-level deadlock:" then "\tX is waiting to lock L which is held by
// Y", the L2J family), one that adds ". Locked synchronizers:0
// monitors:1" (aionemu), jext's TextThreadDumpWriter ("- X is waiting to
// lock L which is held by Y"). The lock is LockInfo.toString(): its class
// and its identity hash in hex ("java.lang.Object@1d37a147"): not an
// address, but one object's in every line of the report, and read as
// its address. Names are unquoted and may hold spaces and commas: a
// name ends at " is waiting to lock ", an owner at the line's end (or at
// ". Locked synchronizers:").
//
// Each name is a thread without a stack: a waiter BLOCKED on the lock,
// its owner named; an owner holding it. The cycles are the lock graph's
// to find (analyze): the report is not the JVM's, and a detector may
// print threads that only wait on a cycle.
//
// States: from: a report line; to: report line, blank, end (any other
// line: unread).

// formatLockReport names the report in the detection chain only: a dump
// read from it is a FormatJVMText dump that says what it lacks.
const formatLockReport Format = "jvm-lock-report"

// lockReportExcerpt starts what a dump read from a report says of itself.
const lockReportExcerpt = "a deadlock detector's report"

var (
	lockReportWaits = []byte(" is waiting to lock ")
	lockReportHeld  = []byte(" which is held by ")
	lockReportTail  = []byte(". Locked synchronizers:")
)

// lockReportLine reads one line of the report; ok false for any other
// line.
func lockReportLine(line []byte) (waiter, class, hash, owner []byte, ok bool) {
	t := bytes.TrimSpace(trimIndentNBSP(line))
	t = bytes.TrimPrefix(t, []byte("- "))
	w := bytes.Index(t, lockReportWaits)
	if w <= 0 {
		return nil, nil, nil, nil, false
	}
	rest := t[w+len(lockReportWaits):]
	h := bytes.Index(rest, lockReportHeld)
	if h <= 0 {
		return nil, nil, nil, nil, false
	}
	lock, own := rest[:h], rest[h+len(lockReportHeld):]
	if k := bytes.Index(own, lockReportTail); k > 0 {
		own = own[:k]
	}
	at := bytes.LastIndexByte(lock, '@')
	if at <= 0 || bytes.IndexByte(lock, ' ') >= 0 || !isHexDigits(lock[at+1:]) || len(bytes.TrimSpace(own)) == 0 {
		return nil, nil, nil, nil, false
	}
	return t[:w], lock[:at], lock[at+1:], bytes.TrimSpace(own), true
}

func isHexDigits(b []byte) bool {
	if len(b) == 0 || len(b) > 16 {
		return false
	}
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// startsLockReport claims a report line.
func startsLockReport(line, _ []byte) bool {
	_, _, _, _, ok := lockReportLine(line)
	return ok
}

// parseLockReport reads the report's lines (see the top of this file).
func parseLockReport(p *textParser) *Dump {
	ls, in := p.ls, p.in
	d := &Dump{Format: FormatJVMText}
	byName := map[string]*Thread{}
	get := func(name string, no int) *Thread {
		if t, ok := byName[name]; ok {
			return t
		}
		t := &Thread{Weight: 1, NoStack: true, Line: no, JVM: &JVM{Name: name}}
		byName[name] = t
		d.Threads = append(d.Threads, t)
		return t
	}
	for {
		line, ok := ls.next()
		if !ok {
			break
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		w, class, hash, o, ok := lockReportLine(line)
		if !ok {
			ls.unread()
			break
		}
		no := ls.lineNo()
		l := Lock{Class: in.bytes(class), Address: in.bytes(append([]byte("0x"), hash...)), Frame: -1}
		wt := get(in.bytes(w), no)
		ot := get(in.bytes(o), no)
		held := l
		held.Kind = LockHeld
		ot.JVM.Locks = append(ot.JVM.Locks, held)
		l.Kind, l.Owner = LockWaitingTo, ot.JVM.Name
		wt.JVM.Locks = append(wt.JVM.Locks, l)
		wt.State, wt.StateDetail = "BLOCKED", "waiting to lock (a deadlock detector's report)"
	}
	if len(d.Threads) == 0 {
		return nil
	}
	d.Excerpt = fmt.Sprintf(lockReportExcerpt+" (%d threads): the names, the locks and their owners, no stacks", len(d.Threads))
	d.Cut = true
	return d
}
