package parse

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"golang.org/x/exp/trace"
)

// traceGens cuts the stream b into its generations (traceGenerations).
func traceGens(t testing.TB, b []byte) ([][]byte, int) {
	t.Helper()
	s, err := newTraceGenerations(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for {
		g, err := s.next()
		if err == io.EOF {
			return out, s.minor
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, bytes.Clone(g))
	}
}

// chunkText is what a generation's reading holds for the moments, one
// line a goroutine (by id) and one for the goroutines alive before it that
// ended in it; times are returned apart (times), to be compared within
// ownTimeSlack.
func chunkText(c *traceChunk) (string, []trace.Time) {
	in := newInterner()
	var sb strings.Builder
	var times []trace.Time
	frames := func(s traceStack) string {
		var fs []string
		s.each(func(fn, file string, line int) bool {
			fs = append(fs, fmt.Sprintf("%s@%s:%d", fn, file, line))
			return true
		})
		return strings.Join(fs, " ")
	}
	for _, id := range slices.Sorted(maps.Keys(c.tab.gs)) {
		g := c.tab.gs[id]
		fmt.Fprintf(&sb, "g%d %v %q before=%v parent=%d start=[%s] creator=[%s] sampled=[%s]", id, g.state, g.reason, g.before,
			g.parent, frames(g.start), frames(g.creator), frames(g.sampled))
		if w := g.episode; w != nil {
			w.resolve(in)
			var fs []string
			for _, f := range w.frames {
				fs = append(fs, f.Func)
			}
			fmt.Fprintf(&sb, " stay=[%s] by=%q bottom=%q recorded=%v", strings.Join(fs, " "), w.byStack, w.bottom, w.recorded)
		}
		sb.WriteByte('\n')
		times = append(times, g.since)
	}
	ended := slices.Clone(c.tab.ended)
	slices.Sort(ended)
	fmt.Fprintf(&sb, "ended %v changed=%v clock=%v\n", ended, c.changed, c.clock != nil)
	if c.clock != nil {
		fmt.Fprintf(&sb, "wall %v trace %d\n", c.clock.Wall, c.clock.Trace)
	}
	times = append(times, c.first, c.last, c.end)
	return sb.String(), times
}

// sameChunks compares our reading of a generation with x/exp/trace's: the
// same goroutines, states, reasons, stacks and creators, and times no
// earlier than ours and at most slack later. It returns the largest
// difference of times.
func sameChunks(t testing.TB, what string, own, ref *traceChunk, slack trace.Time) trace.Time {
	t.Helper()
	a, at := chunkText(own)
	b, bt := chunkText(ref)
	if a != b {
		al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
		for i := range min(len(al), len(bl)) {
			if al[i] != bl[i] {
				t.Fatalf("%s: our reader and x/exp/trace differ:\nours: %s\ntheirs: %s", what, al[i], bl[i])
			}
		}
		t.Fatalf("%s: our reader holds %d lines, x/exp/trace %d", what, len(al), len(bl))
	}
	var worst trace.Time
	for i := range at {
		d := bt[i] - at[i]
		if d < 0 || d > slack {
			t.Fatalf("%s: time %d: ours %d, x/exp/trace's %d (outside 0..%d ns)", what, i, at[i], bt[i], slack)
		}
		worst = max(worst, d)
	}
	return worst
}

// TestOwnTraceReader: our reader of a generation holds what x/exp/trace's
// does, goroutine by goroutine (state, reason, the stay's stack, start and
// creator, and which ended), on every generation of every committed trace
// (Go 1.22 to 1.27); their times differ by at most ownTimeSlack (x/exp/
// trace raises a time shared with the event before it), and the moments
// read from the whole trace are the same to the byte. None of the
// generations is left to x/exp/trace.
func TestOwnTraceReader(t *testing.T) {
	var worst trace.Time
	gens := 0
	for name, b := range traceFixtures(t) {
		chunks, minor := traceGens(t, b)
		for i, g := range chunks {
			own, unknown := ownTraceChunk(g, minor)
			if unknown != nil {
				t.Fatalf("%s generation %d: our reader leaves it to x/exp/trace: %s", name, i, unknown.why)
			}
			ref := replayTraceChunk(g)
			if ref.err != nil {
				t.Fatalf("%s generation %d: x/exp/trace: %v", name, i, ref.err)
			}
			worst = max(worst, sameChunks(t, fmt.Sprintf("%s generation %d", name, i), own, ref, trace.Time(ownTimeSlack)))
			gens++
		}
		got, err := Options{}.Parse("t.trace", bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		want, err := Options{checkedTrace: true}.Parse("t.trace", bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if g, w := dumpsJSON(t, got), dumpsJSON(t, want); g != w {
			t.Errorf("%s: the moments of our reader and of x/exp/trace differ", name)
		}
	}
	t.Logf("%d generations; times at most %d ns apart", gens, worst)
}

// dumpsJSON is dumps as JSON, notes included.
func dumpsJSON(t *testing.T, dumps []*Dump) string {
	t.Helper()
	var sb strings.Builder
	for _, d := range dumps {
		fmt.Fprintf(&sb, "%+v\n", d.Skipped)
		d.Skipped = nil
	}
	return sb.String() + momentsJSON(t, dumps)
}

// TestOwnTraceDamaged: on damaged variants of every committed trace drawn
// at random (cut at any byte, a byte changed, a run of bytes dropped), our
// reader (with x/exp/trace for what it does not read) gives the moments
// x/exp/trace alone gives up to the generation before the damaged one, and
// an error names the offset of the generation where the reading stopped.
// It never panics.
func TestOwnTraceDamaged(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 3))
	fixtures := traceFixtures(t)
	variants, compared, stopped := 0, 0, 0
	for _, name := range slices.Sorted(maps.Keys(fixtures)) {
		b := fixtures[name]
		starts := generationStarts(t, b)
		for range traceVariants {
			v := bytes.Clone(b)
			at := traceHeaderLen + rng.IntN(len(v)-traceHeaderLen)
			switch rng.IntN(3) {
			case 0:
				v = v[:at]
			case 1:
				v[at] ^= byte(1 + rng.IntN(255))
			case 2:
				end := min(len(v), at+1+rng.IntN(4096))
				v = append(v[:at:at], v[end:]...)
			}
			gen := 0
			for gen+1 < len(starts) && starts[gen+1] <= at {
				gen++
			}
			variants++
			want, werr := Options{checkedTrace: true}.Parse("t.trace", bytes.NewReader(v))
			got, err := Options{}.Parse("t.trace", bytes.NewReader(v))
			n := max(0, gen-1)
			if err != nil || werr != nil {
				if (err == nil) != (werr == nil) && n > 0 {
					t.Errorf("%s variant %d: ours %v, x/exp/trace's %v", name, variants, err, werr)
				}
				continue
			}
			if last := got[len(got)-1]; len(last.Skipped) > 0 {
				stopped++
				if r := last.Skipped[0].Reason; !strings.Contains(r, "in the generation at byte ") {
					t.Errorf("%s variant %d: the reading stopped without saying where: %s", name, variants, r)
				}
			}
			if len(got) < n || len(want) < n {
				t.Errorf("%s variant %d: %d moments by ours, %d by x/exp/trace, %d generations before the damage", name, variants, len(got), len(want), n)
				continue
			}
			got, want = got[:n], want[:n]
			alignDamagedTimes(t, got, want)
			if g, w := momentsJSON(t, got), momentsJSON(t, want); g != w {
				t.Errorf("%s variant %d: the %d moments before the damage (in generation %d) differ", name, variants, n, gen)
			}
			if n > 0 {
				compared++
			}
		}
	}
	if compared < variants/4 || stopped == 0 {
		t.Fatalf("only %d of %d damaged variants had moments before the damage to compare, %d said where they stopped", compared, variants, stopped)
	}
}

// FuzzOwnTrace: whatever a generation's bytes, our reader returns a
// reading or a reason to leave it to x/exp/trace, never a panic; where
// both read it, they agree (sameChunks; the times of a damaged stream may
// be any later in x/exp/trace's reading, which puts an event that cannot
// come yet after a later one of another thread). Seeded with generations of the
// committed traces, whole and cut.
func FuzzOwnTrace(f *testing.F) {
	for _, b := range traceFixtures(f) {
		chunks, _ := traceGens(f, b)
		for _, g := range chunks[:min(2, len(chunks))] {
			f.Add(g)
			f.Add(g[:len(g)/2])
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < traceHeaderLen || !isGoTrace(data) {
			return
		}
		minor := goTraceVersion(data)
		if minor < goTraceOldest {
			return
		}
		own, unknown := ownTraceChunk(data, minor)
		if unknown != nil {
			return
		}
		ref := replayTraceChunk(data)
		if ref.err != nil {
			return
		}
		sameChunks(t, "fuzzed generation", own, ref, math.MaxInt64)
	})
}

// BenchmarkOwnTraceChunk reads the generations of the healthy busy
// service's snapshot (Go 1.26) with our reader, and BenchmarkXTraceChunk
// with x/exp/trace: the cost of one generation's reading, side by side.
func BenchmarkOwnTraceChunk(b *testing.B) { benchTraceChunks(b, true) }

func BenchmarkXTraceChunk(b *testing.B) { benchTraceChunks(b, false) }

func benchTraceChunks(b *testing.B, own bool) {
	data := traceFixtures(b)["healthy-go1.26"]
	chunks, minor := traceGens(b, data)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		for _, g := range chunks {
			if own {
				if _, u := ownTraceChunk(g, minor); u != nil {
					b.Fatal(u)
				}
			} else if c := replayTraceChunk(g); c.err != nil {
				b.Fatal(c.err)
			}
		}
	}
}
