package parse

import (
	"strconv"
	"strings"

	"github.com/google/pprof/profile"
)

// CockroachDB's goroutine?debug=3, from its fork of the Go runtime (its
// `debug zip` writes these since 26.1 instead of debug=2, which stops the
// world for as long as it prints): the debug=0 proto, with one sample of
// value 1 per goroutine instead of one per stack, and the goroutine's own
// facts as labels beside the program's pprof labels:
//
//	go::goroutine               the goroutine id                     (number)
//	go::goroutine_created_by    the id of the goroutine that started it (number; absent or 0 for none)
//	go::goroutine_state         the wait reason, as debug=2 prints it  ("chan receive", "running")
//	go::goroutine_wait_minutes  minutes blocked, as debug=2 prints them (number; absent when not printed)
//
// The numbers may come as numeric labels or as strings: both are read.
// A sample with go::goroutine is read as the goroutine debug=2 would
// print: Thread.ID, State, WaitMinutes, and CreatedBy with its Parent (the
// creator's function is not in the labels: Func is empty), and the four
// labels are taken off Labels (they are the runtime's, not the program's).
//
// As the fork writes them (cockroachdb/go pull request 9; real files in
// testdata/formats/cockroach-go-debug3.pb.gz, made with that fork's
// runtime): the numbers are numeric labels, go::goroutine_created_by is
// absent for goroutine 1 only, go::goroutine_wait_minutes only when over 0,
// and a goroutine created but not yet run has no frames. The stacks keep
// the runtime frames a traceback hides (runtime.gopark...), as debug=0's
// do; a call's arguments and the creator's function are not carried.

// Label keys of debug=3.
const (
	goLabelID        = "go::goroutine"
	goLabelCreatedBy = "go::goroutine_created_by"
	goLabelState     = "go::goroutine_state"
	goLabelWait      = "go::goroutine_wait_minutes"
)

// goroutineLabels reads a debug=3 sample's goroutine labels into t; false
// when s has none (an ordinary debug=0 sample).
func goroutineLabels(t *Thread, s *profile.Sample, in *interner) bool {
	id, ok := protoLabelInt(s, goLabelID)
	if !ok {
		return false
	}
	t.ID = id
	if st := s.Label[goLabelState]; len(st) > 0 {
		t.State = in.str(st[0])
	}
	// No call arguments, so no lock address: the frame that takes the
	// lock names it (lockSite), as in an execution trace.
	if t.WaitAddr == "" && t.Weight == 1 {
		t.WaitAddr = lockSite(t.Frames)
	}
	if w, ok := protoLabelInt(s, goLabelWait); ok {
		t.WaitMinutes = int(w)
	}
	if p, ok := protoLabelInt(s, goLabelCreatedBy); ok && p != 0 {
		t.CreatedBy = &Creator{Parent: p}
	}
	for _, k := range []string{goLabelID, goLabelCreatedBy, goLabelState, goLabelWait} {
		delete(t.Labels, k)
	}
	if len(t.Labels) == 0 {
		t.Labels = nil
	}
	return true
}

// protoLabelInt reads the label key of s as a whole number: a numeric
// label, or a string label holding one ("5", "5.0" for minutes).
func protoLabelInt(s *profile.Sample, key string) (int64, bool) {
	if v := s.NumLabel[key]; len(v) > 0 {
		return v[0], true
	}
	if v := s.Label[key]; len(v) > 0 {
		if n, err := strconv.ParseInt(v[0], 10, 64); err == nil {
			return n, true
		}
		if f, err := strconv.ParseFloat(strings.TrimSpace(v[0]), 64); err == nil {
			return int64(f), true
		}
	}
	return 0, false
}
