package capture

import "strings"

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
