package analyze

import "testing"

// TestRecoveredBeforeRaised: a pool-exhausted finding its detector left at
// warning (its waiters came back) stays recovered when the critical
// finding it causes raises it to critical.
func TestRecoveredBeforeRaised(t *testing.T) {
	r := &Result{Moments: make([]Moment, 3)}
	fs := conclude(r, []Finding{
		{ID: "db-pool-exhausted hikari", Kind: KindDBPoolExhausted, Severity: Warning, Counts: []int{0, 90, 2}},
		{ID: "stuck http", Kind: KindStuck, Severity: Critical, Counts: []int{0, 100, 100}, CausedBy: "db-pool-exhausted hikari"},
	})
	for _, f := range fs {
		if f.Kind != KindDBPoolExhausted {
			continue
		}
		if f.Severity != Critical || !f.Recovered {
			t.Errorf("pool-exhausted: severity %v, recovered %v; want critical (raised by what it caused) and recovered", f.Severity, f.Recovered)
		}
		return
	}
	t.Fatal("the pool-exhausted finding is gone")
}
