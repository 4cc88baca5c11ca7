package capture

import (
	"fmt"
	"strings"
)

// PlanError is Run's error for a Plan it refuses (no targets, no out folder,
// a bad URL, pid or schedule). Run returns it before touching the disk:
// nothing was created, and the Manifest returned with it is nil. Find it
// with errors.As or errors.AsType[*capture.PlanError].
//
//	invalid plan: no targets; count must be at least 1, got 0
type PlanError struct {
	// Problems are every problem found, in the plan's order; at least one.
	Problems []error
}

func (e *PlanError) Error() string {
	msgs := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		msgs[i] = p.Error()
	}
	return "invalid plan: " + strings.Join(msgs, "; ")
}

// Unwrap returns the problems, for errors.Is and errors.As.
func (e *PlanError) Unwrap() []error { return e.Problems }

// OutDirError is why Run refuses an out folder that is not empty: it holds
// a capture and the plan does not append to it, it holds other files, or
// its capture cannot be continued. It arrives inside a *PlanError (find it
// with errors.As), and nothing was written: a capture never overwrites one.
type OutDirError struct {
	Dir string
	// Capture is the manifest found in Dir; nil when Dir holds no capture.
	Capture *Manifest
	// Entries is how many entries Dir holds, dotfiles not counted.
	Entries int
	// Err is why an existing capture cannot be continued (its manifest is
	// corrupt or of a newer version); nil otherwise.
	Err error
}

func (e *OutDirError) Error() string {
	switch {
	case e.Err != nil:
		return fmt.Sprintf("%s holds a capture that cannot be continued: %v", e.Dir, e.Err)
	case e.Capture != nil:
		return fmt.Sprintf("%s already holds a capture (%s, started %s): append to it or give a new folder; nothing was overwritten",
			e.Dir, plural(len(e.Capture.Moments), "moment"), e.Capture.Started.Local().Format("2006-01-02 15:04:05"))
	}
	return fmt.Sprintf("%s is not empty (%s) and holds no capture: give an empty or new folder", e.Dir, plural(e.Entries, "entry"))
}

func (e *OutDirError) Unwrap() error { return e.Err }

// StopReasons are the reasons a file fails that waiting seldom mends:
// nothing listens on the port, the pid is gone or is no JVM. When every
// target's first moment of a run fails for one of them, the run stops
// there (StoppedError) unless Plan.KeepTrying.
var StopReasons = []string{ReasonRefused, ReasonGone}

// StoppedError is Run's error when every target failed its first moment
// for a StopReason: the rest of the schedule (and the load) was not run.
// The failures were reported one by one as they happened (Progress); the
// error only counts them, so no failure is said twice.
type StoppedError struct {
	// Failures are the failed primary files of the first moment, one per
	// target.
	Failures []File
}

func (e *StoppedError) Error() string {
	why := map[string]int{}
	for _, f := range e.Failures {
		why[f.Reason]++
	}
	var parts []string
	if n := why[ReasonRefused]; n > 0 {
		parts = append(parts, plural(n, "target")+" refused the connection")
	}
	if n := why[ReasonGone]; n > 0 {
		parts = append(parts, plural(n, "pid")+" gone or not shown to be a JVM")
	}
	return "stopped after the first moment: " + strings.Join(parts, ", ") +
		"; nothing would change by waiting (--keep-trying runs the whole schedule)"
}
