package testwait

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

// TestEventuallyHolds: the condition is asked again until it holds, and
// Eventually returns as soon as it does.
func TestEventuallyHolds(t *testing.T) {
	calls := 0
	Eventually(t, time.Minute, func() error {
		calls++
		if calls < 5 {
			return fmt.Errorf("call %d", calls)
		}
		return nil
	})
	if calls != 5 {
		t.Errorf("cond called %d times, want 5", calls)
	}
}

// fatalTB records Fatalf instead of ending the test.
type fatalTB struct {
	testing.TB
	msg string
}

func (f *fatalTB) Helper() {}
func (f *fatalTB) Fatalf(format string, args ...any) {
	if f.msg == "" {
		f.msg = fmt.Sprintf(format, args...)
	}
}

// TestEventuallyFails: a condition that never holds fails the test with
// its last error, after being asked once more past the bound.
func TestEventuallyFails(t *testing.T) {
	for _, within := range []time.Duration{0, 20 * time.Millisecond} {
		f := &fatalTB{TB: t}
		calls := 0
		var last time.Time
		start := time.Now()
		Eventually(f, within, func() error {
			calls++
			last = time.Now()
			return errors.New("seen " + fmt.Sprint(calls))
		})
		want := fmt.Sprintf("not within %v: seen %d", within, calls)
		if f.msg != want {
			t.Errorf("within %v: Fatalf %q, want %q", within, f.msg, want)
		}
		if last.Sub(start) < within {
			t.Errorf("within %v: the last call came %v after the start", within, last.Sub(start))
		}
		if within == 0 && calls != 1 {
			t.Errorf("within 0: %d calls, want 1", calls)
		}
	}
}
