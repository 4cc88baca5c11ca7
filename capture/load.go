package capture

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"time"
)

// LoadRecord is the load command as run (manifest "load").
type LoadRecord struct {
	Command string    `json:"command"`
	Started time.Time `json:"started"`
	// Ended is when it exited; zero while it runs.
	Ended time.Time `json:"ended,omitzero"`
	// ExitCode is its exit status; -1 while it runs, when killed by a signal
	// (or interrupted), or when it could not start.
	ExitCode int `json:"exit_code"`
	// Error says why it failed ("exit status 3", "signal: terminated");
	// empty when it exited 0.
	Error string `json:"error,omitempty"`
	// OutputTail is the last 16 KiB of its stdout and stderr, interleaved;
	// when longer output was cut, it starts at a line.
	//
	// Command, Error and OutputTail have the plan's secrets (header values,
	// bearer tokens, URL passwords) replaced by REDACTED.
	OutputTail string `json:"output_tail,omitempty"`
}

// Running reports whether the load had not exited when the record was taken.
func (l *LoadRecord) Running() bool { return l.Ended.IsZero() }

// loadStopped starts LoadRecord.Error when the run's end stopped the load.
const loadStopped = "stopped:"

// loadOutputGrace is how long the load's output is still read after it
// exited, for a child that keeps it open.
const loadOutputGrace = 500 * time.Millisecond

// loadRun is a started load command; done is closed when it has exited and
// rec is final.
type loadRun struct {
	done chan struct{}
	rec  LoadRecord
}

// startLoad starts command with sh -c and returns it with a copy of its
// record as started (l.rec belongs to the waiting goroutine until l.done).
// Both records are scrubbed of sec. Each line the command prints (stdout
// and stderr, as they come) is passed to onLine, scrubbed, before l.done.
// Cancelling ctx sends SIGTERM to its process group, then SIGKILL to the
// shell after 2 s.
func startLoad(ctx context.Context, command string, sec secrets, onLine func(string)) (l *loadRun, started LoadRecord) {
	l = &loadRun{done: make(chan struct{}), rec: LoadRecord{Command: command, Started: time.Now(), ExitCode: -1}}
	out := &tailBuffer{max: loadTailBytes}
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	// The output goes through a pipe of our own, not exec's copying: then
	// Wait returns when the load exits, even if a background child keeps
	// the output open, and "after" counts from the real exit.
	pr, pw, err := os.Pipe()
	if err != nil {
		l.rec.Ended, l.rec.Error = time.Now(), err.Error()
		l.rec = sec.scrubLoad(l.rec)
		close(l.done)
		return l, l.rec
	}
	cmd.Stdout, cmd.Stderr = pw, pw
	stopGroupOnCancel(cmd)
	cmd.WaitDelay = 2 * time.Second
	if err := cmd.Start(); err != nil {
		pr.Close()
		pw.Close()
		l.rec.Ended, l.rec.Error = time.Now(), err.Error()
		l.rec = sec.scrubLoad(l.rec)
		close(l.done)
		return l, l.rec
	}
	pw.Close() // the child holds its own copy
	copied := make(chan struct{})
	// Scrubbed whole, then made inert (the load may print a server's
	// bytes: curl -v), then cut: no cut splits a secret.
	lines := &lineWriter{fn: func(s string) {
		s = inertLines(sec.scrub(s))
		if len(s) > maxShownLine {
			s = cutRunes(s, maxShownLine) + "..."
		}
		onLine(s)
	}}
	go func() {
		// One writer: the tail buffer and the lines are written from here only.
		io.Copy(io.MultiWriter(out, lines), pr)
		lines.flush()
		close(copied)
	}()
	started = sec.scrubLoad(l.rec)
	go func() {
		defer close(l.done)
		defer func() { l.rec = sec.scrubLoad(l.rec) }() // before close(l.done)
		err := cmd.Wait()
		l.rec.Ended = time.Now()
		select {
		case <-copied:
		case <-time.After(loadOutputGrace):
			// A child of the load still holds the output: stop reading it.
			pr.Close()
			<-copied
		}
		pr.Close()
		l.rec.OutputTail = out.scrubbedTail(sec)
		l.rec.ExitCode = cmd.ProcessState.ExitCode()
		var ee *exec.ExitError
		switch {
		case ctx.Err() != nil:
			l.rec.Error = loadStopped + " capture interrupted (" + cmd.ProcessState.String() + ")"
		case errors.As(err, &ee), err != nil:
			l.rec.Error = err.Error()
		}
	}()
	return l, started
}

// maxShownLine caps a load output line passed on to progress.
const maxShownLine = 1 << 10

// lineWriter splits what a command prints into lines for fn. A line
// redrawn with carriage returns (a progress bar) is passed on as it was
// last drawn; at most 4*maxShownLine bytes of a line are kept (fn cuts it
// to maxShownLine once scrubbed).
type lineWriter struct {
	fn      func(string)
	partial []byte
}

func (w *lineWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			if len(w.partial) < 4*maxShownLine { // enough to show; the rest is only in the tail
				w.partial = append(w.partial, p...)
			}
			break
		}
		w.partial = append(w.partial, p[:i]...)
		w.emit()
		p = p[i+1:]
	}
	return n, nil
}

func (w *lineWriter) emit() {
	line := w.partial
	w.partial = w.partial[:0]
	line = bytes.TrimRight(line, "\r")
	if i := bytes.LastIndexByte(line, '\r'); i >= 0 {
		line = line[i+1:]
	}
	if len(bytes.TrimSpace(line)) == 0 {
		return
	}
	w.fn(string(line))
}

// flush passes on a last line without a newline.
func (w *lineWriter) flush() {
	if len(w.partial) > 0 {
		w.emit()
	}
}
