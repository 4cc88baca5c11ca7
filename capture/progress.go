package capture

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// Progress receives what a Run is doing. Run never calls Event concurrently,
// and calls it after the manifest on disk already reflects the event.
type Progress interface {
	Event(Event)
}

// ProgressFunc adapts a function to Progress.
type ProgressFunc func(Event)

// Event calls f(e).
func (f ProgressFunc) Event(e Event) { f(e) }

// EventKind says which fields of an Event are set.
type EventKind int

const (
	// EventMoment: a moment starts. Moment, Time, Late.
	EventMoment EventKind = iota
	// EventFile: a file was written or failed. Moment, Target, File (File.Error on failure).
	EventFile
	// EventNext: the next moment is planned. Moment (its label), Due; Load
	// while a load runs (a "during" moment is taken only if
	// the load still runs then).
	EventNext
	// EventTick: still waiting; Due is when the wait ends. For countdowns.
	EventTick
	// EventLoadStart: the load command started. Load, Time.
	EventLoadStart
	// EventLoadExit: the load command exited (or was stopped). Load, Time.
	EventLoadExit
	// EventLoadOutput: the load command printed a line. Line, Time.
	EventLoadOutput
	// EventDone: the run ended. Err (nil on success), Manifest.
	EventDone
)

// Event is one thing that happened during a Run.
type Event struct {
	Kind     EventKind
	Time     time.Time     // when it happened
	Moment   string        // moment label; empty for EventTick, EventLoad*, EventDone
	Target   string        // EventFile: target name
	File     *File         // EventFile
	Load     *LoadRecord   // EventLoadStart, EventLoadExit, EventNext during a load
	Late     time.Duration // EventMoment: how late it started (0 or more)
	Due      time.Time     // EventNext, EventTick: when the next moment is due
	Line     string        // EventLoadOutput: one line of the load's output, secrets scrubbed
	Err      error         // EventDone
	Manifest *Manifest     // EventDone: the final manifest
}

// NewProgress returns a terminal progress (a live status line) when w is a
// terminal, plain lines otherwise.
func NewProgress(w io.Writer) Progress {
	if IsTerminal(w) {
		return &TerminalProgress{W: w}
	}
	return &LineProgress{W: w}
}

// IsTerminal reports whether w is a character device (a terminal), with only
// the standard library: good enough to choose between redrawn and plain lines.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// LineProgress prints one plain line per event (no ticks, no escapes): for
// logs, CI and pipes.
//
//	17:30:00.120 moment 1
//	17:30:00.141 ok   api 1 goroutine api__1.txt 18.2 KiB 17ms
//	17:30:00.150 FAIL api at 1: goroutine debug=2: HTTP 401 Unauthorized from ...
//	17:30:00.151 next 2 at 17:30:01.120 (in 969ms)
type LineProgress struct {
	W    io.Writer
	seen failMemory
}

// Event implements Progress.
func (p *LineProgress) Event(e Event) {
	if line := p.seen.said(e, describe(e)); line != "" {
		fmt.Fprintf(p.W, "%s %s\n", e.Time.Format("15:04:05.000"), line)
	}
}

// failMemory shortens a failure said before: a target failing again the
// same way (the same file, the same error, at another moment) is one short
// line, "FAIL api at 3: as at 2 (refused)", never the whole error again.
type failMemory struct {
	last map[string]failSeen // target and file → its last failure
}

type failSeen struct{ moment, body string }

func (fm *failMemory) said(e Event, line string) string {
	if e.Kind != EventFile || e.File == nil || e.File.Error == "" {
		if e.Kind == EventFile && e.File != nil {
			delete(fm.last, e.File.Target+"\x00"+string(e.File.Kind)) // it answered: the next failure is said whole
		}
		return line
	}
	f := e.File
	// "api at 3: goroutine debug=2: HTTP 401 ..." → its body after the
	// target and moment.
	body := strings.TrimPrefix(f.Error, f.Target+" at "+f.Moment+": ")
	key := f.Target + "\x00" + string(f.Kind)
	if prev, ok := fm.last[key]; ok && prev.body == body {
		return fmt.Sprintf("FAIL %s at %s: as at %s (%s)", f.Target, f.Moment, prev.moment, cmpOr(f.Reason, ReasonOther))
	}
	if fm.last == nil {
		fm.last = map[string]failSeen{}
	}
	fm.last[key] = failSeen{moment: f.Moment, body: body}
	return line
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// TerminalProgress prints the same lines as LineProgress and keeps a status
// line under them (next moment countdown, load state), redrawn in place.
type TerminalProgress struct {
	W      io.Writer
	next   time.Time
	label  string
	load   *LoadRecord
	status bool // a status line is on screen
	seen   failMemory
}

// Event implements Progress.
func (p *TerminalProgress) Event(e Event) {
	switch e.Kind {
	case EventNext:
		p.next, p.label = e.Due, e.Moment
		if e.Load != nil {
			p.load = e.Load
		}
		p.redraw(e.Time)
		return
	case EventTick:
		p.redraw(e.Time)
		return
	case EventLoadStart, EventLoadExit:
		p.load = e.Load
	case EventMoment:
		p.next = time.Time{}
	}
	p.clear()
	if line := p.seen.said(e, describe(e)); line != "" {
		mark := ""
		if e.Kind == EventFile && e.File.Error != "" {
			mark = "\x1b[31m"
		}
		if mark != "" {
			fmt.Fprintf(p.W, "%s %s%s\x1b[0m\n", e.Time.Format("15:04:05"), mark, line)
		} else {
			fmt.Fprintf(p.W, "%s %s\n", e.Time.Format("15:04:05"), line)
		}
	}
	if e.Kind != EventDone {
		p.redraw(e.Time)
	}
}

func (p *TerminalProgress) clear() {
	if p.status {
		fmt.Fprint(p.W, "\r\x1b[K")
		p.status = false
	}
}

func (p *TerminalProgress) redraw(now time.Time) {
	var parts []string
	if !p.next.IsZero() {
		parts = append(parts, fmt.Sprintf("next %s in %s", p.label, roundDur(p.next.Sub(now))))
	}
	if p.load != nil {
		if p.load.Running() {
			parts = append(parts, fmt.Sprintf("load running %s", roundDur(now.Sub(p.load.Started))))
		} else {
			parts = append(parts, "load "+loadStatus(p.load))
		}
	}
	p.clear()
	if len(parts) > 0 {
		fmt.Fprintf(p.W, "\x1b[2m%s\x1b[0m", strings.Join(parts, " · "))
		p.status = true
	}
}

// describe is the one line shared by both printers; empty for ticks.
func describe(e Event) string {
	switch e.Kind {
	case EventMoment:
		if e.Late > 50*time.Millisecond {
			return fmt.Sprintf("moment %s (%s late)", e.Moment, roundDur(e.Late))
		}
		return "moment " + e.Moment
	case EventFile:
		f := e.File
		if f.Error != "" {
			return "FAIL " + f.Error
		}
		extra := ""
		if f.Tool != "" {
			extra = " via " + f.Tool
		}
		if c := f.Cost; c != nil && c.PauseMS > 0 {
			extra += fmt.Sprintf(", stopped %s (%s)", fmtPause(c.PauseMS), c.PauseSource)
		} else if c != nil && c.EstimatedPauseMS > 0 {
			extra += fmt.Sprintf(", ~%s stop estimated", fmtPause(c.EstimatedPauseMS))
		}
		if f.Goroutines > 0 && f.Kind != FileJVM {
			extra += fmt.Sprintf(", %d goroutines", f.Goroutines)
		}
		line := fmt.Sprintf("ok   %s %s %s %s %s %s%s", f.Target, f.Moment, f.Kind, f.Path,
			HumanBytes(f.Size), roundDur(time.Duration(f.DurationMS*float64(time.Millisecond))), extra)
		if f.Warning != "" {
			line += " · WARNING " + f.Warning
		}
		if f.Note != "" {
			line += " · " + f.Note
		}
		return line
	case EventLoadOutput:
		return "load| " + e.Line
	case EventNext:
		return fmt.Sprintf("next %s at %s (in %s)", e.Moment, e.Due.Format("15:04:05.000"), roundDur(e.Due.Sub(e.Time)))
	case EventLoadStart:
		if !e.Load.Running() {
			return "load failed to start: " + e.Load.Error
		}
		return "load started: " + e.Load.Command
	case EventLoadExit:
		if strings.HasPrefix(e.Load.Error, loadStopped) {
			// The run's end stopped it: the run's own line says why.
			return fmt.Sprintf("load stopped after %s", roundDur(e.Load.Ended.Sub(e.Load.Started)))
		}
		return fmt.Sprintf("load %s after %s", loadStatus(e.Load), roundDur(e.Load.Ended.Sub(e.Load.Started)))
	case EventDone:
		if e.Err != nil && (errors.Is(e.Err, context.Canceled) || errors.Is(e.Err, context.DeadlineExceeded)) {
			return e.Err.Error() // "interrupted after 3 moments: 5 files kept in DIR, ..."
		}
		// The failures were each said as they happened, and the caller
		// says the run's error: the line only counts.
		m := e.Manifest
		if m.Failed() == len(m.Files) {
			return fmt.Sprintf("done: %s, nothing kept (%d failed)", plural(len(m.Moments), "moment"), m.Failed())
		}
		return fmt.Sprintf("done: %s, %s, %d failed", plural(len(m.Moments), "moment"), plural(len(m.Files)-m.Failed(), "file"), m.Failed())
	}
	return ""
}

func loadStatus(l *LoadRecord) string {
	switch {
	case l.Running():
		return "running"
	case l.Error != "":
		return "exited: " + l.Error
	}
	return "exited: status 0"
}

// fmtPause shows a pause in milliseconds to a sensible precision.
func fmtPause(ms float64) string {
	d := time.Duration(ms * float64(time.Millisecond))
	if d < time.Millisecond {
		return d.Round(10 * time.Microsecond).String()
	}
	return roundDur(d).String()
}

func roundDur(d time.Duration) time.Duration {
	switch {
	case d < 0:
		return 0
	case d < time.Second:
		return d.Round(time.Millisecond)
	}
	return d.Round(100 * time.Millisecond)
}

// HumanBytes is a byte count for a line: "900 B", "12.0 KiB", "3.3 MiB",
// "1.0 GiB" (progress lines, and watch's).
func HumanBytes(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	case n < 1<<30:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
}
