package analyze

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestWokenAtWaitNotARiseProperty: goroutines a first dump shows runnable
// at the very frames where the next dumps show them waiting (woken by a
// message on their channel, not yet run: every goroutine resting in its
// loop is so for a moment after its peer's send) were in that wait then
// too: no rise into it, however many and whatever the wait. Goroutines the
// first dump shows at other frames (at work) and that then wait are still
// the rise they are. Seeded, debug=2 text, 2 to 4 moments.
func TestWokenAtWaitNotARiseProperty(t *testing.T) {
	waits := []struct{ state, frame string }{
		{"select", "main.(*sub).loop"}, {"chan receive", "main.(*sub).recv"}, {"sync.Cond.Wait", "main.(*queue).pop"},
	}
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 34))
		n := 5 + rng.IntN(200)
		w := waits[rng.IntN(len(waits))]
		atWork := rng.IntN(4) == 0 // control: the first dump shows them at work, elsewhere
		woken := 1 + rng.IntN(n)
		if atWork {
			woken = n
		}
		moments := 2 + rng.IntN(3)
		var in []Input
		for m := range moments {
			var b strings.Builder
			b.WriteString("goroutine 1 [IO wait]:\ninternal/poll.runtime_pollWait(0x7f, 0x72)\n\t/usr/local/go/src/runtime/netpoll.go:351 +0x85\nnet.(*netFD).accept(0xc0001)\n\t/usr/local/go/src/net/fd_unix.go:172 +0x29\nmain.main()\n\t/src/main.go:90 +0x1a5\n\n")
			for i := range n {
				state, fn, line := w.state, w.frame, 65
				if m == 0 && i < woken {
					state = "runnable"
					if atWork {
						fn, line = "main.(*sub).handle", 80
					}
				}
				fmt.Fprintf(&b, "goroutine %d [%s]:\n%s(0xc000%x)\n\t/src/main.go:%d +0x72\ncreated by main.start in goroutine 1\n\t/src/main.go:40 +0x127\n\n", 20+i, state, fn, i, line)
			}
			ds, err := parse.Parse(fmt.Sprintf("m%d.txt", m), strings.NewReader(b.String()))
			if err != nil || len(ds) != 1 {
				t.Fatalf("seed %d: %v", seed, err)
			}
			in = append(in, Input{Dump: ds[0]})
		}
		r := Analyze(in, Options{})
		rise := false
		for _, f := range r.Findings {
			if f.Kind == KindNotRecovered || f.Kind == KindGrowing {
				rise = true
			}
		}
		// The rise a timeline needs to see: MinRise threads and RiseFactor
		// times the base (all woken: the base is 0).
		wantRise := atWork && n >= MinRise
		if rise != wantRise {
			t.Errorf("seed %d (n %d, woken %d, %s, at work %v, moments %d): a rise found %v, want %v", seed, n, woken, w.state, atWork, moments, rise, wantRise)
		}
	}
}
