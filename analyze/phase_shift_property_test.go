package analyze

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// The phases of one pool's work (bottom frame main.work), as a Go 1.26
// debug=1 profile prints them (frames from
// testdata/verdicts/shapes-body-stream-debug1-healthy): a body read under
// io.Copy (socket-read via http-client), a wait for a response's head
// (http-client-wait, its select hidden) and a mutex wait.
var phaseStacks = [][]string{
	{"internal/poll.runtime_pollWait", "internal/poll.(*pollDesc).wait", "internal/poll.(*pollDesc).waitRead", "internal/poll.(*FD).Read",
		"net.(*netFD).Read", "net.(*conn).Read", "net/http.(*persistConn).Read", "bufio.(*Reader).fill", "bufio.(*Reader).ReadSlice",
		"net/http/internal.readChunkLine", "net/http/internal.(*chunkedReader).beginChunk", "net/http/internal.(*chunkedReader).Read",
		"net/http.(*body).readLocked", "net/http.(*body).Read", "net/http.(*bodyEOFSignal).Read", "io.copyBuffer", "io.Copy", "main.proxyStream", "main.work"},
	{"net/http.(*persistConn).roundTrip", "net/http.(*Transport).roundTrip", "net/http.(*Transport).RoundTrip", "net/http.send",
		"net/http.(*Client).send", "net/http.(*Client).do", "net/http.(*Client).Do", "net/http.(*Client).Get", "main.work"},
	{"internal/sync.runtime_SemacquireMutex", "internal/sync.(*Mutex).lockSlow", "internal/sync.(*Mutex).Lock", "sync.(*Mutex).Lock",
		"main.(*cache).get", "main.work"},
}

// phaseHidden is how many runtime PCs debug=1 prints above each phase's
// first printed frame (gopark and what parks: none printed as frames).
var phaseHidden = []int{2, 2, 3}

// writeD1Record writes one debug=1 record of n goroutines with frames
// (top first), hidden runtime PCs above them; base keeps stacks apart.
func writeD1Record(b *strings.Builder, n int, frames []string, hidden int, base uint64) {
	fmt.Fprintf(b, "%d @", n)
	for i := range hidden {
		fmt.Fprintf(b, " %#x", 0x487a8e+uint64(i)*0x1f0)
	}
	for i := range frames {
		fmt.Fprintf(b, " %#x", base+uint64(i)*0x100+1)
	}
	b.WriteString(" 0x48f001\n")
	for i, f := range frames {
		fmt.Fprintf(b, "#\t%#x\t%s+0x%x\t/src/%d.go:%d\n", base+uint64(i)*0x100, f, 0x20+i, base%97, 10+i)
	}
	b.WriteString("\n")
}

// d1Moment writes one debug=1 profile: the pool's phases and a steady
// other pool (a server's idle connections).
func d1Moment(t *testing.T, name string, phases []int, others int) Input {
	t.Helper()
	var b strings.Builder
	total := others
	for _, c := range phases {
		total += c
	}
	fmt.Fprintf(&b, "goroutine profile: total %d\n", total)
	for i, c := range phases {
		if c > 0 {
			writeD1Record(&b, c, phaseStacks[i], phaseHidden[i], 0x6a0000+uint64(i)*0x10000)
		}
	}
	if others > 0 {
		writeD1Record(&b, others, serverIdle, 2, 0x640000)
	}
	ds, err := parse.Parse(name, strings.NewReader(b.String()))
	if err != nil || len(ds) != 1 {
		t.Fatalf("parse %s: %v\n%s", name, err, b.String())
	}
	return Input{Dump: ds[0]}
}

// split draws a phase shift of n goroutines over the three phases, none
// holding cap or more of them (a population spread over its work).
func split(rng *rand.Rand, n int, cap float64) []int {
	for {
		a, b := rng.IntN(n+1), rng.IntN(n+1)
		lo, hi := min(a, b), max(a, b)
		c := []int{lo, hi - lo, n - hi}
		if float64(slices.Max(c)) < cap*float64(n) {
			return c
		}
	}
}

// TestPhaseShiftProperty (issue 33 via debug=1): in profiles that print no
// goroutine ids, a constant population moving at random between the
// phases of its work (no phase ever holding PhaseFullShare of the pool)
// (and no two moments alike: a pool that moved) never raises a timeline,
// leak or stuck finding, over two to four moments, while a real leak (the pool's total grows by its size at each
// moment, into one phase) and a real stall (from some moment on, the pool
// all but a tenth in one phase, to the last) still do. Seeded.
func TestPhaseShiftProperty(t *testing.T) {
	raised := func(r *Result) []Finding {
		var out []Finding
		for _, f := range r.Findings {
			if f.Pool == "main.work" && (f.Kind == KindGrowing || f.Kind == KindNotRecovered || f.Kind == KindRecovered || f.Kind == KindLeaked || f.Kind == KindStuck) {
				out = append(out, f)
			}
		}
		return out
	}
	for seed := range uint64(150) {
		rng := rand.New(rand.NewPCG(seed, 33))
		n := []int{20, 60, 200, 600}[rng.IntN(4)]
		moments := 2 + rng.IntN(3)
		others := []int{0, 40, 1000}[rng.IntN(3)]
		world := func(kind string) []Input {
			var in []Input
			stallFrom := 1 + rng.IntN(moments-1)
			var prev []int
			for m := range moments {
				ph := split(rng, n, 0.45)
				for slices.Equal(ph, prev) {
					ph = split(rng, n, 0.45) // a shift moves: the same split twice is a pool that did not
				}
				prev = ph
				switch {
				case kind == "leak":
					ph[1] += n * m // the pool's total grows: the new ones wait for a head
				case kind == "stall" && m >= stallFrom:
					k := rng.IntN(n/10 + 1) // a few still move
					ph = []int{k / 2, n - k, k - k/2}
				}
				in = append(in, d1Moment(t, fmt.Sprintf("%d.txt", m+1), ph, others))
			}
			return in
		}
		shift := Analyze(world("shift"), Options{})
		for _, f := range raised(shift) {
			t.Errorf("seed %d (n %d, moments %d, others %d): phase shifts raised %s %s %v (pool %v, basis %s)", seed, n, moments, others, f.Kind, f.State, f.Counts, f.PoolCounts, f.Basis)
		}
		for _, kind := range []string{"leak", "stall"} {
			r := Analyze(world(kind), Options{})
			got := false
			for _, f := range raised(r) {
				if f.State == "http-client-wait" && f.Kind != KindRecovered && f.Severity >= Warning {
					got = true
				}
			}
			if !got {
				var g *Group
				for _, pl := range r.Pools {
					for _, x := range pl.States {
						if pl.Name == "main.work" && x.State == "http-client-wait" {
							g = x
						}
					}
				}
				t.Errorf("seed %d (n %d, moments %d): a %s raised nothing (%v of %v)", seed, n, moments, kind, g.Counts, r.Totals)
			}
		}
	}
}
