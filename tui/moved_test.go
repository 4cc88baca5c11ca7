package tui

import (
	"math/rand/v2"
	"testing"

	"github.com/dumpdiff/dumpdiff/analyze"
)

// TestMovedProperty: over generated pools, moved is never less than the
// count's spread nor more than the largest count; k threads of a pool of n
// that go from one state to another between two moments moved k, whatever
// n, though the count did not move.
func TestMovedProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for trial := range 2000 {
		moments, states := 1+rng.IntN(6), 1+rng.IntN(5)
		p := &analyze.Pool{Counts: make([]int, moments)}
		for range states {
			g := &analyze.Group{Counts: make([]int, moments)}
			for m := range g.Counts {
				g.Counts[m] = rng.IntN(30)
				p.Counts[m] += g.Counts[m]
			}
			p.States = append(p.States, g)
		}
		hi := 0
		for _, c := range p.Counts {
			hi = max(hi, c)
		}
		if got := movedOf(p); got < spread(p.Counts) || got > hi {
			t.Fatalf("trial %d: moved %d, spread %d, largest %d: %+v", trial, got, spread(p.Counts), hi, p.Counts)
		}
		n := 1 + rng.IntN(300)
		k := rng.IntN(n + 1)
		idle := &analyze.Group{State: "idle", Counts: []int{n, n - k}}
		stuck := &analyze.Group{State: "socket-read", Counts: []int{0, k}}
		q := &analyze.Pool{Counts: []int{n, n}, States: []*analyze.Group{idle, stuck}}
		if got := movedOf(q); got != k {
			t.Fatalf("%d of %d threads went from idle to socket-read: moved %d", k, n, got)
		}
	}
}
