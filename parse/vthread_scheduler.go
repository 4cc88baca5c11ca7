package parse

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// FormatVThreadScheduler is the JVM's virtual-thread scheduler as `jcmd
// PID Thread.vthread_scheduler` prints it (JDK 24+), read into
// Dump.Scheduler: a dump of no threads, taken beside a moment's thread
// dump (capture's "jvm-vthread-scheduler" file).
const FormatVThreadScheduler Format = "jvm-vthread-scheduler"

// VThreadScheduler is the virtual-thread scheduler at one moment. The
// counts are the scheduler's own, as jcmd prints them (ForkJoinPool's
// toString) or as jdk.management.VirtualThreadSchedulerMXBean's toString
// names them; each but Parallelism is -1 when the output does not print
// it (the MXBean prints "<unavailable>" where virtual threads are
// platform threads underneath).
type VThreadScheduler struct {
	// Pool is the scheduler's class and identity
	// ("java.util.concurrent.ForkJoinPool@32da1d70"); empty in the
	// MXBean's form.
	Pool string
	// State is the pool's run state ("Running", "Shutting down",
	// "Terminating", "Terminated"); empty when not printed.
	State string
	// Parallelism is how many carriers the scheduler keeps running
	// virtual threads at once (jdk.virtualThreadScheduler.parallelism,
	// the cores by default).
	Parallelism int
	// Size is how many carrier threads exist ("size", the MXBean's
	// poolSize): above Parallelism while the pool compensates for pinned
	// carriers blocked in Object.wait or file I/O.
	Size int
	// Mounted is how many carriers run a virtual thread ("active" in
	// jcmd's line: the pool's active count, which is what the MXBean's
	// mountedVirtualThreadCount returns).
	Mounted int
	// Queued is how many virtual threads wait for a carrier: ready to
	// run, not running ("tasks" + "submissions" in jcmd's line: the
	// MXBean's queuedVirtualThreadCount).
	Queued int64
	// Delayed is how many timed wake-ups (sleeps, timed parks) are
	// pending ("delayed", JDK 25; JDK 24's timers' queued tasks summed);
	// -1 when not printed.
	Delayed int64
}

// schedulerKeys maps each printed name to the field it fills: jcmd's
// ForkJoinPool line first, the MXBean's toString's names after.
// Queued sums its names (tasks + submissions). A name not here is kept as
// a skipped item, not dropped.
var schedulerKeys = map[string]string{
	"parallelism": "parallelism", "size": "size", "active": "mounted", "tasks": "queued", "submissions": "queued", "delayed": "delayed",
	"mounted": "mounted", "queued": "queued", "poolSize": "size",
	"running": "", "steals": "", // printed, and not what the scheduler is judged by
}

// claimVThreadScheduler reports whether head is jcmd's scheduler print:
// an optional "PID:" line, then one "Class@hash[...]" line with a
// parallelism.
//
//	4242:
//	java.util.concurrent.ForkJoinPool@32da1d70[Running, parallelism = 4, size = 4, active = 4, running = 0, steals = 2, tasks = 0, submissions = 48]
func claimVThreadScheduler(head []byte) bool {
	line, rest, _ := bytes.Cut(bytes.TrimLeft(head, " \t\r\n"), []byte("\n"))
	if t := bytes.TrimSpace(line); len(t) > 1 && t[len(t)-1] == ':' && isDigits(t[:len(t)-1]) {
		line, _, _ = bytes.Cut(bytes.TrimLeft(rest, " \t\r\n"), []byte("\n"))
	}
	line = bytes.TrimSpace(line)
	open := bytes.IndexByte(line, '[')
	return open >= 0 && line[len(line)-1] == ']' && bytes.Contains(line[open:], []byte("parallelism"))
}

func isDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}

// parseVThreadScheduler reads the scheduler's line into a dump of no
// threads. A line it cannot read is an error with its position; an item
// or a line it does not know is kept in Dump.Skipped.
//
// States, in order: the "PID:" line (ProcessID); the scheduler's line;
// on JDK 24, the timers beside it, a "Delayed task schedulers:" header and
// one "[i] ScheduledThreadPoolExecutor@...[..., queued tasks = N, ...]"
// line each (summed into Delayed: JDK 25 prints that count on the
// scheduler's line). A line after the scheduler's that is neither is
// skipped and kept.
//
//	28569:
//	java.util.concurrent.ForkJoinPool@69a75ffc[Running, parallelism = 16, size = 1, active = 0, running = 0, steals = 3, tasks = 0, submissions = 0]
//
//	Delayed task schedulers:
//	[0] java.util.concurrent.ScheduledThreadPoolExecutor@219727f4[Running, pool size = 0, active threads = 0, queued tasks = 0, completed tasks = 0]
func parseVThreadScheduler(name string, data []byte, _ *interner) ([]*Dump, error) {
	d := &Dump{Format: FormatVThreadScheduler, Source: Source{File: name}}
	n := 0
	var s *VThreadScheduler
	timers := false // inside "Delayed task schedulers:"
	for line := range strings.Lines(string(data)) {
		n++
		line = strings.TrimSpace(line)
		switch {
		case line == "":
			continue
		case s == nil && d.ProcessID == 0 && strings.HasSuffix(line, ":") && isDigits([]byte(line[:len(line)-1])):
			d.ProcessID, _ = strconv.Atoi(line[:len(line)-1])
			continue
		case s != nil && line == "Delayed task schedulers:":
			timers = true
			continue
		case s != nil && timers && strings.HasPrefix(line, "["):
			if q, ok := timerQueued(line); ok {
				s.Delayed = max(s.Delayed, 0) + q
				continue
			}
			d.Skipped = append(d.Skipped, Skipped{Line: n, Text: cut(line, 200), Reason: "virtual-thread scheduler: a timer line without its queued tasks"})
			continue
		case s != nil:
			d.Skipped = append(d.Skipped, Skipped{Line: n, Text: cut(line, 200), Reason: "virtual-thread scheduler: a line after the scheduler's not read"})
			continue
		}
		var err error
		if s, err = schedulerLine(d, name, n, line); err != nil {
			return nil, err
		}
	}
	if s == nil {
		return nil, &SyntaxError{File: name, Msg: "virtual-thread scheduler: no scheduler line"}
	}
	d.Scheduler = s
	return []*Dump{d}, nil
}

// timerQueued reads a JDK 24 timer's queued tasks:
//
//	[2] java.util.concurrent.ScheduledThreadPoolExecutor@3242d43a[Running, pool size = 1, active threads = 0, queued tasks = 0, completed tasks = 1]
func timerQueued(line string) (int64, bool) {
	_, rest, ok := strings.Cut(line, "queued tasks = ")
	if !ok {
		return 0, false
	}
	end := 0
	for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
		end++
	}
	q, err := strconv.ParseInt(rest[:end], 10, 64)
	return q, err == nil
}

// schedulerLine reads "Pool[State, key = value, ...]" (jcmd) or
// "[key=value, ...]" (the MXBean); line n of file name.
func schedulerLine(d *Dump, name string, n int, line string) (*VThreadScheduler, error) {
	bad := func(msg string) error {
		return &SyntaxError{File: name, Line: n, Msg: "virtual-thread scheduler: " + msg}
	}
	open := strings.IndexByte(line, '[')
	if open < 0 || !strings.HasSuffix(line, "]") {
		return nil, bad(fmt.Sprintf("want Pool[key = value, ...], got %q", cut(line, 80)))
	}
	s := &VThreadScheduler{Pool: line[:open], Parallelism: -1, Size: -1, Mounted: -1, Queued: -1, Delayed: -1}
	seen := map[string]bool{}
	for i, item := range strings.Split(line[open+1:len(line)-1], ",") {
		item = strings.TrimSpace(item)
		key, val, ok := strings.Cut(item, "=")
		if !ok {
			if i == 0 {
				s.State = item
				continue
			}
			return nil, bad(fmt.Sprintf("item %q is not key = value", cut(item, 40)))
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		field, known := schedulerKeys[key]
		if !known {
			d.Skipped = append(d.Skipped, Skipped{Line: n, Text: item, Reason: "virtual-thread scheduler item not read"})
			continue
		}
		if field == "" {
			continue
		}
		if val == "<unavailable>" { // the MXBean of a JVM whose virtual threads are platform threads
			continue
		}
		v, err := strconv.ParseInt(val, 10, 64)
		if err != nil || v < 0 {
			return nil, bad(fmt.Sprintf("%s = %q is not a count", key, cut(val, 20)))
		}
		if seen[key] {
			return nil, bad(key + " printed twice")
		}
		seen[key] = true
		switch field {
		case "parallelism":
			s.Parallelism = int(v)
		case "size":
			s.Size = int(v)
		case "mounted":
			s.Mounted = int(v)
		case "queued":
			s.Queued = max(s.Queued, 0) + v
		case "delayed":
			s.Delayed = v
		}
	}
	if s.Parallelism < 0 {
		return nil, bad(fmt.Sprintf("no parallelism in %q", cut(line[open:], 80)))
	}
	return s, nil
}

func cut(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}
