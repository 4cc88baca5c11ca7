package analyze

import (
	"path/filepath"
	"testing"
)

// TestProgressFixtures (issue 33, "nothing healthy was flagged", and its
// mirror): real Java 17 and Temurin 25 programs (testdata/gen/verdicts-progress), three
// jstack dumps each. A throttle whose permits rotate, a fixed pool sleeping
// in one short task after another, and a pool idle at the last dump after
// a busy spell are quiet (the last at most an info); the throttle whose
// holders hang stays stuck; two polite threads backing off for each other
// forever are a livelock, their twin that takes turns is quiet.
func TestProgressFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	info := func(t *testing.T, f Finding) {
		eq(t, "severity", f.Severity, Info)
	}
	livelock := func(t *testing.T, f Finding) {
		eq(t, "basis", f.Basis, "livelock")
		eq(t, "threads", f.Counts[len(f.Counts)-1], 2)
	}
	all := []string{"1", "2", "3"}
	runFixtureCases(t, dir, []fixtureCase{
		{"progress-throttle-healthy", all, nil},
		{"progress-throttle-healthy", []string{"2", "3"}, nil},
		// The README allows "a contention/latch finding naming the
		// holders": the two permit holders, the same at every dump, by
		// the stacks' structure (permits.go), the stuck waiters following.
		{"progress-throttle-stuck", all, []want{{KindContention, "job-*", "semaphore-wait", func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, "permit-holders")
			eq(t, "holders", len(f.Lock.Holders), 2)
			eq(t, "holder state", f.Lock.Owner.State, "latch-wait")
		}}, {KindStuck, "job-*", "semaphore-wait", nil}, {KindSaturated, "job-*", "semaphore-wait", nil}}},
		{"progress-batch-healthy", all, []want{{KindSaturated, "pool-1-thread-*", "sleep", info}}},
		{"progress-recovered-healthy", all, []want{{KindSaturated, "pool-1-thread-*", "sleep", info}}},
		{"progress-livelock-yield-stuck", all, []want{{KindSpinning, "polite-*", "running", livelock}}},
		{"progress-livelock-yield-healthy", all, nil},
		// Temurin 25: the same programs.
		{"jdk25-progress-throttle-healthy", all, nil},
		{"jdk25-progress-batch-healthy", all, []want{{KindSaturated, "pool-1-thread-*", "sleep", info}}},
		{"jdk25-progress-livelock-yield-stuck", all, []want{{KindSpinning, "polite-*", "running", livelock}}},
	})
}
