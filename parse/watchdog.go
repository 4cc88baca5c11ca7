package parse

import (
	"bytes"
	"fmt"
	"time"
)

// A game server's watchdog report: Spigot's WatchdogThread (and the
// servers built on its code: Paper, Purpur, Nukkit, Krypton...) logs,
// when the server thread has not finished a tick for its timeout, the
// ThreadInfo of the server thread and then of every thread
// (ThreadMXBean.dumpAllThreads), each line one log record:
//
//	[21:26:42] [Paper Watchdog Thread/ERROR]: The server has stopped responding! This is (probably) not a Paper bug.   heading (Spigot, Paper's crash)
//	[00:00:00] [Paper Watchdog Thread/ERROR]: The server has not responded for 10 seconds! Creating thread dump        heading (Paper's early warning)
//	[21:26:42] [Paper Watchdog Thread/ERROR]: If you see a plugin in the Server thread dump below, ...                   advice, version: the report's header
//	[21:26:42] [Paper Watchdog Thread/ERROR]: Server thread dump (Look for plugins here before reporting to Paper!):    section: the server thread
//	[21:26:43] [Paper Watchdog Thread/ERROR]: ------------------------------                                            separator
//	[21:26:43] [Paper Watchdog Thread/ERROR]: Current Thread: Server thread                                             thread: its name
//	[21:26:43] [Paper Watchdog Thread/ERROR]: 	PID: 27 | Suspended: false | Native: false | State: RUNNABLE           id, state
//	[14:36:31] [Spigot Watchdog Thread/ERROR]: 	Thread is waiting on monitor(s):                                       (it means: holds)
//	[14:36:31] [Spigot Watchdog Thread/ERROR]: 		Locked on:java.base@17.0.1/java.io.BufferedInputStream.read(BufferedInputStream.java:263)
//	[21:26:43] [Paper Watchdog Thread/ERROR]: 	Stack:
//	[21:26:43] [Paper Watchdog Thread/ERROR]: 		app//com.example.plugin.Task.run(Task.java:42)                    frame: StackTraceElement.toString
//	[21:26:43] [Paper Watchdog Thread/ERROR]: Entire Thread Dump:                                                       section: every thread
//
// The log's prefix is undone by the prefix stages (prefix_learn.go): the
// logger's layout varies ("[12:41:04 ERROR]: ", "2019-10-22 18:33:44
// [ERROR] ", a panel's "22.12 04:06:20 [Server] ERROR "), and other
// threads' records come between the watchdog's. A paste may have lost the
// TABs (a rendered page) or escaped the bars ("PID: 72 \| Suspended"):
// both are read.
//
// What the format does not print: a thread's daemon flag, priority and
// native id; the lock it waits for and that lock's owner (only the frames
// at which it holds monitors, "Locked on:", with no object: nothing joins
// a waiter to a holder, so they are not made locks: each is a
// Dump.Partial; Dump.NoMonitors). The heading says why the report
// exists: the server thread has not finished a tick for N seconds (Paper's "has not
// responded for N seconds", kept as that thread's JVM.BlockedFor, as a
// blocked-thread checker's warning is); Spigot's "has stopped responding"
// prints no time (its timeout-time is configured).
//
// Paper prints the server thread twice (its own section, then again in
// the entire dump, a moment later): the second print is skipped, counted,
// so the thread is one thread. A report whose heading asks for the
// server thread alone (the early warning) holds one thread: Excerpt says
// the others were not printed.
//
// States: from: a heading (header lines to the first thread, at most
// watchdogHeaderMax, else no dump) or a thread line; to: PID, monitors,
// Stack:, frames (after Stack: only), separator, section, thread, end (a
// line of none of these shapes, or a heading: unread).

// formatWatchdog names the watchdog's reports in the detection chain only:
// a dump read from them is a FormatJVMText dump that says what it is.
const formatWatchdog Format = "jvm-watchdog"

// watchdogHeaderMax bounds the header lines between a heading and its
// first thread: Paper's advice, version and chunk-wait lines are about 20;
// a heading quoted in prose with no thread after it reads no further.
const watchdogHeaderMax = 48

var (
	wdThread    = []byte("Current Thread: ")
	wdStopped   = []byte("The server has stopped responding!")
	wdNotResp   = []byte("The server has not responded for ")
	wdServerSec = []byte("Server thread dump (")
	wdEntireSec = []byte("Entire Thread Dump:")
	wdMonitors  = []byte("Thread is waiting on monitor(s):")
	wdLockedOn  = []byte("Locked on:")
	wdStack     = []byte("Stack:")
	wdNull      = []byte("Attempted to dump a null thread!")
)

// watchdogTrim is a line as the watchdog wrote it, its indent (TABs,
// spaces, a page's no-break spaces) and a CR removed.
func watchdogTrim(line []byte) []byte {
	return bytes.TrimRight(trimIndentNBSP(line), " \r")
}

// isWatchdogHeading reports whether t (trimmed) is a report's heading.
func isWatchdogHeading(t []byte) bool {
	return bytes.HasPrefix(t, wdStopped) || bytes.HasPrefix(t, wdNotResp) && bytes.Contains(t, []byte(" seconds!"))
}

// isWatchdogSeparator is the watchdog's separator: a run of dashes (30).
func isWatchdogSeparator(t []byte) bool {
	if len(t) < 10 {
		return false
	}
	for _, c := range t {
		if c != '-' {
			return false
		}
	}
	return true
}

// watchdogPID reads "PID: 27 | Suspended: false | Native: false | State:
// RUNNABLE" (bars maybe escaped "\|"): the thread id and state.
func watchdogPID(t []byte) (id int64, state []byte, ok bool) {
	rest, ok := bytes.CutPrefix(t, []byte("PID: "))
	if !ok {
		return 0, nil, false
	}
	i := 0
	for i < len(rest) && isDigit(rest[i]) {
		id = id*10 + int64(rest[i]-'0')
		i++
	}
	if i == 0 {
		return 0, nil, false
	}
	k := bytes.LastIndex(rest, []byte("State: "))
	if k < 0 || !bytes.Contains(rest[i:k], []byte("Suspended: ")) {
		return 0, nil, false
	}
	state = rest[k+len("State: "):]
	if !isThreadStateName(state) {
		return 0, nil, false
	}
	return id, state, true
}

// isThreadStateName reports whether s is a java.lang.Thread.State name.
func isThreadStateName(s []byte) bool {
	switch string(s) {
	case "NEW", "RUNNABLE", "BLOCKED", "WAITING", "TIMED_WAITING", "TERMINATED":
		return true
	}
	return false
}

// startsWatchdog claims a report's heading or a thread line of one.
func startsWatchdog(line, _ []byte) bool {
	t := watchdogTrim(line)
	if len(t) < 17 {
		return false
	}
	switch t[0] {
	case 'C':
		return bytes.HasPrefix(t, wdThread)
	case 'T':
		return isWatchdogHeading(t)
	}
	return false
}

// watchdogSecs reads N of "The server has not responded for N seconds!";
// 0 when the heading prints none.
func watchdogSecs(t []byte) int {
	rest, ok := bytes.CutPrefix(t, wdNotResp)
	if !ok {
		return 0
	}
	n := 0
	for i := 0; i < len(rest) && isDigit(rest[i]); i++ {
		n = n*10 + int(rest[i]-'0')
	}
	return n
}

// parseWatchdog reads one watchdog report (see the top of this file).
func parseWatchdog(p *textParser) *Dump {
	ls, in := p.ls, p.in
	first, ok := ls.next()
	if !ok {
		return nil
	}
	d := &Dump{Format: FormatJVMText, Kind: "watchdog", NoMonitors: true}
	secs := 0
	inServer := false // after the server thread's section line
	if t := watchdogTrim(first); isWatchdogHeading(t) {
		d.Headline = string(t)
		secs = watchdogSecs(t)
		// The header: advice, a version, chunk-wait lines, up to the
		// first thread line.
		found := false
		for n := 0; n < watchdogHeaderMax; n++ {
			line, ok := ls.next()
			if !ok {
				break
			}
			t := watchdogTrim(line)
			if bytes.HasPrefix(t, wdThread) {
				ls.unread()
				found = true
				break
			}
			if bytes.HasPrefix(t, wdServerSec) {
				inServer = true
			}
			if isWatchdogHeading(t) || isGoHeader(line) || bytes.HasPrefix(line, prefixFullDump) || isHotSpotHeader(line) {
				ls.unread() // another report, or another dump: this heading had no thread
				break
			}
		}
		if !found {
			return nil
		}
	} else {
		ls.unread()
	}
	var (
		cur     *Thread
		inStack bool    // after the current thread's "Stack:"
		dup     bool    // the current thread is a second print of one read
		server  *Thread // the first thread of the server thread's section
		entire  bool
		seen    = map[int64]bool{}
		pending []byte // a thread line waiting for its PID line
		pendNo  int
	)
	for {
		line, ok := ls.next()
		if !ok {
			break
		}
		t := watchdogTrim(line)
		if len(t) == 0 {
			continue // a blank line a paste put between records
		}
		if pending != nil {
			id, state, ok := watchdogPID(t)
			if !ok {
				// "Current Thread: X" not followed by its PID line: no
				// thread here. The first line of the dump ends it
				// unread; a later one is skipped.
				if len(d.Threads) == 0 && !dup {
					if d.Headline == "" {
						ls.unread()
						return nil
					}
				}
				d.Skipped = append(d.Skipped, Skipped{Line: pendNo, Text: string(pending), Reason: "a watchdog thread line without its PID line"})
				pending = nil
				cur, inStack, dup = nil, false, false
				// the line is read below as what it is
			} else {
				name := bytes.TrimPrefix(pending, wdThread)
				pending = nil
				inStack = false
				if seen[id] {
					// Paper prints the server thread again in the entire
					// dump: one thread, its first print kept.
					dup, cur = true, nil
					p.skip(d, t, fmt.Sprintf("thread %d printed again by the watchdog (%s): its first print kept", id, name))
					continue
				}
				seen[id] = true
				dup = false
				cur = &Thread{ID: id, State: in.bytes(state), Weight: 1, Line: pendNo, JVM: &JVM{Name: in.bytes(name)}}
				d.Threads = append(d.Threads, cur)
				if server == nil && inServer {
					server = cur
				}
				continue
			}
		}
		switch {
		case bytes.HasPrefix(t, wdThread):
			pending, pendNo = append([]byte(nil), t...), ls.lineNo()
			cur, inStack, dup = nil, false, false
			continue
		case isWatchdogSeparator(t):
			continue
		case bytes.HasPrefix(t, wdServerSec):
			inServer = true
			cur, inStack, dup = nil, false, false
			continue
		case bytes.Equal(t, wdEntireSec):
			entire, inServer = true, false
			cur, inStack, dup = nil, false, false
			continue
		case isWatchdogHeading(t):
			ls.unread() // the next report: the next moment
		case dup:
			p.skip(d, t, "a line of a thread printed again by the watchdog")
			continue
		case cur != nil && bytes.Equal(t, wdMonitors):
			continue
		case cur != nil && bytes.HasPrefix(t, wdLockedOn):
			d.Partial = append(d.Partial, Skipped{Line: ls.lineNo(), Text: string(t[:min(len(t), 200)]),
				Reason: "a monitor held, named by the frame that locked it: no object, so no waiter can be joined to it (not read as a lock)"})
			continue
		case cur != nil && bytes.Equal(t, wdStack):
			inStack = true
			continue
		case bytes.Equal(t, wdNull):
			p.skip(d, t, "the watchdog found no thread to print")
			continue
		default:
			if cur != nil && inStack && !bytes.HasPrefix(t, []byte("at ")) {
				if f := parseFrame(t, in); f != nil {
					cur.Frames = append(cur.Frames, f)
					continue
				}
			}
			if len(d.Threads) > 0 && !ls.staged() && watchdogGoesOn(ls) {
				// Another logger's record between two threads, with no
				// prefix that tells it apart (a report logged as one
				// record, or pasted without its layout): the report goes
				// on after it.
				p.skip(d, t, "a line of another source inside the watchdog's report")
				cur, inStack = nil, false
				continue
			}
			ls.unread()
		}
		break
	}
	if pending != nil {
		d.Skipped = append(d.Skipped, Skipped{Line: pendNo, Text: string(pending), Reason: "a watchdog thread line without its PID line (the input ends)"})
	}
	if len(d.Threads) == 0 {
		if d.Headline == "" {
			return nil
		}
		d.Excerpt = "a watchdog report whose threads could not be read"
		return d
	}
	if server != nil && secs > 0 {
		server.JVM.BlockedFor = time.Duration(secs) * time.Second
	}
	switch {
	case !entire && len(d.Threads) == 1 && server != nil:
		d.Excerpt = fmt.Sprintf("a game server watchdog's report of the server thread alone (%q): the other threads were not printed", server.JVM.Name)
	case !entire && len(d.Threads) < 3:
		d.Excerpt = fmt.Sprintf("a game server watchdog's report of %d threads without its \"Entire Thread Dump\"", len(d.Threads))
	}
	return d
}

// watchdogGoesOn reports whether the next line goes on with a report: a
// separator or a thread line.
func watchdogGoesOn(ls *lineSource) bool {
	next, ok := ls.peek(0)
	if !ok {
		return false
	}
	t := watchdogTrim(next.text)
	return isWatchdogSeparator(t) || bytes.HasPrefix(t, wdThread)
}
