package tui

import (
	"math/rand"
	"testing"
)

// TestIDSet checks the id set against a map, dense (a bitset) and sparse
// (a map), with negative and repeated ids.
func TestIDSet(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for _, spread := range []int64{10, 1000, 1 << 40} {
		for _, n := range []int{0, 1, 5, 500} {
			var ids []int64
			want := map[int64]bool{}
			for range n {
				id := rng.Int63n(spread) - spread/4
				ids = append(ids, id)
				want[id] = true
			}
			s := newIDSet(ids)
			if spread == 10 && n >= 5 && s.bits == nil {
				t.Errorf("dense ids (%d in a span of %d) not in a bitset", n, spread)
			}
			for probe := max(-spread, -2000); probe < min(spread, 2000); probe++ {
				if s.has(probe) != want[probe] {
					t.Fatalf("spread %d, %d ids: has(%d) = %v", spread, n, probe, !want[probe])
				}
			}
			for id := range want {
				if !s.has(id) {
					t.Fatalf("spread %d: has(%d) false for a member", spread, id)
				}
			}
		}
	}
}
