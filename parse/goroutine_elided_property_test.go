package parse

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestPersonEditsProperty: 500 generated Go dumps of 1 to 6 goroutines,
// each edited as people paste them (issue 33): a file line left out
// before a "..." line or at a paste's cut end, a frame written on one
// line ("runtime.chansend(...) runtime/chan.go:283"), an id replaced by
// "NNNNN", a "[...]" between goroutines. Every goroutine is read, with
// every function of its stack in order (a frame that lost its file line
// kept without a file), its state and wait; the dump says it is a paste
// (Excerpt; Cut when a person edited it); and an unedited dump reads as
// before, whole.
func TestPersonEditsProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 20))
	states := []string{"chan send, 49 minutes", "semacquire", "select", "IO wait", "sync.WaitGroup.Wait, 3 minutes"}
	for c := range 500 {
		n := 1 + rng.IntN(6)
		type g struct {
			id    string
			state string
			funcs []string
		}
		var gs []g
		edited, cut := false, false
		var b strings.Builder
		for i := range n {
			x := g{id: fmt.Sprint(10 + i), state: states[rng.IntN(len(states))]}
			if rng.IntN(6) == 0 {
				x.id, edited = "NNNNN", true
			}
			depth := 1 + rng.IntN(5)
			for j := range depth {
				x.funcs = append(x.funcs, fmt.Sprintf("github.com/acme/p%d.(*T).f%d", i, j))
			}
			gs = append(gs, x)
			fmt.Fprintf(&b, "goroutine %s [%s]:\n", x.id, x.state)
			for j, fn := range x.funcs {
				last := j == len(x.funcs)-1
				switch r := rng.IntN(8); {
				case r == 0 && last && i == n-1:
					fmt.Fprintf(&b, "%s(0xc000%04x)\n", fn, j) // the paste ends here
					cut = true
				case r == 1 && last:
					fmt.Fprintf(&b, "%s(...)\n...\n", fn) // a person's elision
					edited = true
				case r == 2:
					fmt.Fprintf(&b, "%s(...) /src/p/f.go:%d\n", fn, 10+j) // on one line
					edited = true
				default:
					fmt.Fprintf(&b, "%s(0xc000%04x)\n\t/src/p/f.go:%d +0x1%x\n", fn, j, 10+j, j)
				}
			}
			if cut {
				break
			}
			b.WriteString("\n")
			if i < n-1 && rng.IntN(5) == 0 {
				b.WriteString("[...]\n\n")
				edited = true
			}
		}
		in := b.String()
		ds, err := Parse("p.txt", strings.NewReader(in))
		if err != nil || len(ds) != 1 {
			t.Fatalf("case %d: %d dumps, %v\n%s", c, len(ds), err, in)
		}
		d := ds[0]
		if len(d.Threads) != len(gs) {
			t.Fatalf("case %d: %d goroutines, want %d\n%s", c, len(d.Threads), len(gs), in)
		}
		for i, th := range d.Threads {
			var got []string
			for _, f := range th.Frames {
				got = append(got, f.Func)
			}
			if !slices.Equal(got, gs[i].funcs) {
				t.Fatalf("case %d goroutine %d: frames %v, want %v\n%s", c, i, got, gs[i].funcs, in)
			}
			state, _, _ := strings.Cut(gs[i].state, ",")
			if th.State != state {
				t.Fatalf("case %d goroutine %d: state %q, want %q", c, i, th.State, state)
			}
			if gs[i].id != "NNNNN" && fmt.Sprint(th.ID) != gs[i].id {
				t.Fatalf("case %d goroutine %d: id %d, want %s", c, i, th.ID, gs[i].id)
			}
		}
		switch {
		case edited && (!d.Cut || d.Excerpt == ""):
			t.Fatalf("case %d: edited, but Cut %v Excerpt %q\n%s", c, d.Cut, d.Excerpt, in)
		case !edited && cut && (d.Cut || d.Excerpt == ""):
			t.Fatalf("case %d: cut at its end, but Cut %v Excerpt %q\n%s", c, d.Cut, d.Excerpt, in)
		case !edited && !cut && (d.Cut || d.Excerpt != "" || len(d.Partial) > 0 || len(d.Skipped) > 0):
			t.Fatalf("case %d: a whole dump read as a paste: Cut %v Excerpt %q partial %v skipped %v\n%s", c, d.Cut, d.Excerpt, d.Partial, d.Skipped, in)
		}
	}
}
