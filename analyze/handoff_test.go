package analyze

import (
	"path/filepath"
	"testing"
)

// TestHandoffFixtures judges the producer side of hand-offs on threads of
// their own (testdata/verdicts/handoff-stuck, a real JDK 17 program with
// H2 and Derby; README.md written from the source before dumpdiff ran):
// producers of a full queue and of a SynchronousQueue nobody takes from
// are stuck, each finding naming its hand-off and that no consumer waits
// on its other side; a full pipe's writer and an embedded database's row
// lock are named waits, not a generic object-wait. The healthy run of the
// same program says nothing, its pipe reader and queue taker at rest.
func TestHandoffFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	noConsumer := func(handoff string) func(t *testing.T, f Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "hand-off", f.Handoff, handoff)
			eq(t, "consumers", len(f.Consumers), 0)
			eq(t, "severity", f.Severity, Critical)
		}
	}
	runFixtureCases(t, dir, []fixtureCase{
		{"handoff-stuck", []string{"1", "2", "3"}, []want{
			{KindStuck, "publisher-*", "queue-put", noConsumer("ArrayBlockingQueue")},
			{KindStuck, "dispatcher-*", "handoff-wait", noConsumer("SynchronousQueue")},
		}},
		{"handoff-healthy", []string{"1", "2", "3"}, nil},
		// The producers inside a pool's tasks (TaskWaitApp): the same
		// queue, the consumer busy in its handler.
		{"task-wait-stuck", []string{"1", "2", "3"}, []want{
			{KindStuck, "upload-worker-*", "park", nil}, {KindSaturated, "upload-worker-*", "park", nil},
			{KindStuck, "event-producer-*", "queue-put", noConsumer("ArrayBlockingQueue")},
			{KindSaturated, "event-producer-*", "queue-put", nil},
			{KindStuck, "batch-worker-*", "latch-wait", nil}, {KindSaturated, "batch-worker-*", "latch-wait", nil},
		}},
	})
	for _, c := range []struct {
		dir, pool, state string
	}{
		{"handoff-stuck", "export-writer", "pipe-write"},
		{"handoff-stuck", "h2-writer-*", "db-row-lock"},
		{"handoff-stuck", "derby-writer-*", "db-row-lock"},
		{"handoff-healthy", "job-worker", "queue-wait"},
		{"handoff-healthy", "export-reader", "pipe-read"},
	} {
		r := Analyze(loadMoments(t, filepath.Join(dir, c.dir), []string{"1", "2", "3"}), Options{})
		found := false
		for _, pl := range r.Pools {
			for _, g := range pl.States {
				if pl.Name == c.pool && g.State == c.state && g.Counts[1] > 0 {
					found = true
				}
			}
		}
		if !found {
			t.Errorf("%s: %s has no thread in %s at moment 2", c.dir, c.pool, c.state)
		}
	}
}
