package analyze

import (
	"math/rand"
	"slices"
	"sort"
	"testing"
)

// argWorld is a generated moment for the argument graph: objects of one
// type laid out side by side (size bytes apart from base, the mutex at off
// in each), and waiters, each holding some objects and waiting for the
// lock of one more, printing the objects it works on among its arguments
// in any order, with ints and far pointers beside them.
type argWorld struct {
	ws    []argWaiter
	holds [][]int // objects each waiter holds (their locks)
	waits []int   // the object each waiter waits for
}

func genArgWorld(rng *rand.Rand, cyclic bool) argWorld {
	size := uint64(16 + 8*rng.Intn(30))
	off := uint64(8 * rng.Intn(int(size/8)))
	base := uint64(0xc000010000) + uint64(rng.Intn(1<<20))*8
	nobj := 3 + rng.Intn(40)
	lock := func(o int) uint64 { return base + uint64(o)*size + off }
	ptr := func(o int) uint64 { return base + uint64(o)*size }
	// Each object is held by at most one waiter; a waiter holds one or two.
	perm := rng.Perm(nobj)
	var w argWorld
	next := 0
	nw := 2 + rng.Intn(min(8, nobj/2))
	for i := 0; i < nw && next < len(perm); i++ {
		h := []int{perm[next]}
		next++
		if rng.Intn(3) == 0 && next < len(perm) {
			h = append(h, perm[next])
			next++
		}
		w.holds = append(w.holds, h)
	}
	nw = len(w.holds)
	// What each waits for: cyclic — a ring through the first k waiters,
	// the others behind anyone; acyclic — waiter i waits only for an
	// object held by a waiter after it, or by nobody.
	k := 2 + rng.Intn(nw-1)
	for i := range nw {
		var o int
		switch {
		case cyclic && i < k:
			hs := w.holds[(i+1)%k]
			o = hs[rng.Intn(len(hs))]
		case cyclic || i+1 < nw && rng.Intn(2) == 0:
			j := rng.Intn(nw)
			if !cyclic {
				j = i + 1 + rng.Intn(nw-i-1)
			}
			if j == i {
				j = (i + 1) % nw
			}
			hs := w.holds[j]
			o = hs[rng.Intn(len(hs))]
		default:
			if next >= len(perm) {
				o = nobj // one past the last: held by nobody
			} else {
				o = perm[next] // held by nobody among the waiters
			}
		}
		w.waits = append(w.waits, o)
		args := []uint64{ptr(o)}
		for _, h := range w.holds[i] {
			args = append(args, ptr(h))
		}
		args = append(args, uint64(rng.Intn(0x10000)), base+uint64(nobj+1000)*size*8) // an int, a far pointer
		rng.Shuffle(len(args), func(a, b int) { args[a], args[b] = args[b], args[a] })
		w.ws = append(w.ws, argWaiter{lock: lock(o), caller: "main.(*account).transfer", args: args})
	}
	return w
}

// trueCycles are the cycles of the world's waits-for graph, each sorted.
func (w argWorld) trueCycles() [][]int {
	holder := map[int]int{}
	for i, hs := range w.holds {
		for _, h := range hs {
			holder[h] = i
		}
	}
	var out [][]int
	seen := map[int]bool{}
	for i := range w.ws {
		path := []int{}
		pos := map[int]int{}
		cur := i
		for {
			if _, ok := pos[cur]; ok {
				c := slices.Clone(path[pos[cur]:])
				sort.Ints(c)
				if !seen[c[0]] {
					seen[c[0]] = true
					out = append(out, c)
				}
				break
			}
			pos[cur] = len(path)
			path = append(path, cur)
			h, ok := holder[w.waits[cur]]
			if !ok {
				break
			}
			cur = h
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a][0] < out[b][0] })
	return out
}

func sortedCycles(cs [][]int) [][]int {
	var out [][]int
	for _, c := range cs {
		c = slices.Clone(c)
		sort.Ints(c)
		out = append(out, c)
	}
	sort.Slice(out, func(a, b int) bool { return out[a][0] < out[b][0] })
	return out
}

// TestArgCyclesProperty: over generated moments (objects of a random size
// with the lock at a random offset, laid side by side so that neighbours'
// pointers land within the window of each other's locks; waiters printing
// their objects in any order among ints and far pointers), the argument
// graph finds exactly the cycles of who holds what — a ring where there
// is one, nothing where the waits are acyclic — and none through a lock
// whose object another goroutine touches.
func TestArgCyclesProperty(t *testing.T) {
	rng := rand.New(rand.NewSource(33))
	found := 0
	for n := range 3000 {
		cyclic := n%2 == 0
		w := genArgWorld(rng, cyclic)
		got := sortedCycles(argCycles(w.ws, nil))
		want := w.trueCycles()
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("case %d (cyclic %v): cycles %v, want %v\nwaiters %+v\nholds %v waits %v", n, cyclic, got, want, w.ws, w.holds, w.waits)
		}
		if !cyclic && len(got) > 0 {
			t.Fatalf("case %d: a cycle %v in acyclic waits", n, got)
		}
		found += len(got)
		// An outsider naming a cycle member's waited object as a receiver:
		// that lock may be its, and the cycle is not taken.
		if len(want) > 0 {
			m := want[0][0]
			touched := map[uint64]bool{}
			for _, a := range w.ws[m].args {
				if a <= w.ws[m].lock && w.ws[m].lock-a < argWindow {
					touched[a] = true // every start the lock may be in: the true one among them
				}
			}
			for _, c := range argCycles(w.ws, touched) {
				if slices.Contains(c, m) {
					t.Fatalf("case %d: cycle %v through waiter %d whose lock's object another goroutine touches", n, c, m)
				}
			}
		}
	}
	if found < 1000 {
		t.Errorf("only %d cycles found in 1500 cyclic worlds", found)
	}
}
