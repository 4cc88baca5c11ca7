package analyze

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestRanBetweenProperty: on generated CPU sequences, a thread counts as
// having run between the dumps exactly when its cpu= was printed at every
// moment it was in the group (two at least) and rose by CPURanMin or more
// at each step; one still step (a wait that lasted across two dumps) or a
// missing cpu= makes it a wait.
func TestRanBetweenProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 1))
	for i := 0; i < 5000; i++ {
		n := 2 + r.IntN(5)
		sets := make([][]at, n)
		want, seen := true, 0
		cpu := time.Duration(1+r.IntN(50)) * time.Millisecond // printed: above 0
		for m := range sets {
			// Other groups beside, in any moment: never looked at.
			sets[m] = append(sets[m], at{g: 9, cpu: time.Duration(r.IntN(1000)) * time.Millisecond})
			if r.IntN(4) == 0 {
				continue // not in the group at this moment
			}
			step := time.Duration(r.IntN(3)) * CPURanMin / 2 // 0, half, or the minimum
			if r.IntN(2) == 0 {
				step += time.Duration(r.IntN(1000)) * time.Microsecond
			}
			if seen > 0 {
				cpu += step
				if step < CPURanMin {
					want = false
				}
			}
			c := cpu
			if r.IntN(10) == 0 {
				c, want = 0, false // cpu= not printed
			}
			sets[m] = append(sets[m], at{g: 1, cpu: c})
			seen++
		}
		if seen < 2 {
			want = false
		}
		if got := ranBetween(sets, 1); got != want {
			t.Fatalf("case %d: ranBetween = %v, want %v: %+v", i, got, want, sets)
		}
	}
}
