// Package testwait holds Eventually, the one way a test waits for what
// another goroutine or process does: it polls the condition it waits for
// and never sleeps a fixed time as synchronization. For tests only.
package testwait

import (
	"testing"
	"time"
)

// maxPause caps the pause between two calls of a condition. Pauses start
// at a millisecond and double: a condition that holds soon is seen soon,
// one that takes seconds (a JVM, a ring of moments, a scrape over HTTP)
// is not asked for more than twenty times a second.
const maxPause = 50 * time.Millisecond

// Eventually calls cond until it returns nil; when within passes first,
// the test fails with cond's last error, which should say what was seen
// ("2 of 3 moments in the ring; log: ...").
//
// within only bounds a broken program, so that it fails instead of
// hanging: it is never what the test waits for. Give it room (a loaded
// machine is slow; a condition that holds sooner costs nothing more).
//
// cond runs on the caller's goroutine, at least once and once more after
// within has passed, so it may call t.Fatal itself: an invariant that
// must hold all along the wait, or a failure that no waiting can mend.
func Eventually(t testing.TB, within time.Duration, cond func() error) {
	t.Helper()
	deadline := time.Now().Add(within)
	pause := time.Millisecond
	for {
		err := cond()
		if err == nil {
			return
		}
		left := time.Until(deadline)
		if left <= 0 {
			t.Fatalf("not within %v: %v", within, err)
			return // a testing.TB whose Fatalf returns
		}
		time.Sleep(min(pause, left))
		pause = min(2*pause, maxPause)
	}
}
