package parse

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"golang.org/x/exp/trace"
)

// readTraceWhole is the reading the per-generation one must equal: one
// x/exp/trace reader over the whole stream, every event replayed into one
// table as it comes, a moment at every Sync after a change. It returns the
// moments and whether the stream ended in an error.
func readTraceWhole(t *testing.T, data []byte) ([]*Dump, bool) {
	t.Helper()
	r, err := trace.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, true
	}
	tab := &traceTable{gs: make(map[int64]*traceG)}
	ms := &traceMoments{in: newInterner()}
	var clock *trace.ClockSnapshot
	var start, last trace.Time
	events, changed, failed := 0, false, false
	for {
		ev, err := r.ReadEvent()
		if err != nil {
			failed = err != io.EOF
			break
		}
		if events == 0 {
			start = ev.Time()
		}
		events++
		last = ev.Time()
		switch ev.Kind() {
		case trace.EventSync:
			if s := ev.Sync(); s.ClockSnapshot != nil {
				c := *s.ClockSnapshot
				clock = &c
			}
			if changed && len(tab.gs) > 0 {
				ms.take(tab, ev.Time(), clock)
				changed = false
			}
		case trace.EventStackSample:
			if g := tab.gs[int64(ev.Goroutine())]; g != nil && g.state == trace.GoRunning {
				g.sampled, changed = traceStack{x: ev.Stack()}, true
			}
		case trace.EventStateTransition:
			if st := ev.StateTransition(); st.Resource.Kind == trace.ResourceGoroutine {
				applyTransition(tab, xStep(ev, st))
				changed = true
			}
		}
	}
	if changed && len(tab.gs) > 0 {
		ms.take(tab, last, clock)
	}
	return traceDumps("t.trace", start, ms.moments, ""), failed
}

// momentsJSON is dumps as JSON without the reader's note (the two readings
// count events differently where a stream breaks).
func momentsJSON(t *testing.T, dumps []*Dump) string {
	t.Helper()
	for _, d := range dumps {
		d.Skipped = nil
	}
	b, err := json.Marshal(dumps)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// traceDamageSlack is how far apart the two readings may put a moment of a
// damaged stream: where a batch's time or generation is damaged, the two
// raise the times after it by different nanoseconds (each reader keeps its
// own times rising). An intact stream's moments are compared exactly.
const traceDamageSlack = time.Millisecond

// alignDamagedTimes checks that got's moments and waits are within
// traceDamageSlack of want's, then gives them want's times, so that the
// rest is compared exactly.
func alignDamagedTimes(t *testing.T, got, want []*Dump) {
	t.Helper()
	if len(got) != len(want) {
		return
	}
	near := func(a, b time.Duration) bool { return (a - b).Abs() <= traceDamageSlack }
	for i, d := range got {
		if !near(d.Time.Sub(want[i].Time), 0) || len(d.Threads) != len(want[i].Threads) {
			return
		}
		d.Time = want[i].Time
		for j, th := range d.Threads {
			w := want[i].Threads[j]
			if th.GoExtra != nil && w.GoExtra != nil && near(th.Waited, w.Waited) {
				th.Waited, th.WaitMinutes = w.Waited, w.WaitMinutes
			}
		}
	}
}

// traceFixtures is the committed flight recorder snapshots (Go 1.25's
// format, which ends a generation where the next begins, and Go 1.26's,
// which ends it with its own byte).
func traceFixtures(t testing.TB) map[string][]byte {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(gotraceDir, "*-go1.*", "flight.trace"))
	if len(files) < 12 {
		t.Fatalf("found %d traces in %s, want 12", len(files), gotraceDir)
	}
	out := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(filepath.Dir(f))] = b
	}
	return out
}

// traceVariants is how many damaged variants of each snapshot are drawn.
var traceVariants = 20

// TestGoTraceChunksAsWhole: reading a trace a generation per reader, in
// parallel, gives the moments one reader of the whole stream gives, to the
// nanosecond and the frame, on every committed snapshot; and on 20 damaged
// variants of each drawn at random (cut at any byte, one byte changed, a
// run of bytes dropped), the moments up to the generation before the
// damaged one are the same (their times within traceDamageSlack). From
// there on the two may differ: the whole stream's reader carries the
// ordering state of the generations before into it, a generation's own
// reader starts without, and x/exp/trace may take a damaged event either
// way.
func TestGoTraceChunksAsWhole(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 1))
	variants, compared := 0, 0
	fixtures := traceFixtures(t)
	for _, name := range slices.Sorted(maps.Keys(fixtures)) {
		b := fixtures[name]
		starts := generationStarts(t, b)
		type variant struct {
			data []byte
			gen  int // the first generation damaged; len(starts) when none
		}
		inputs := []variant{{b, len(starts)}}
		for range traceVariants {
			v := bytes.Clone(b)
			at := traceHeaderLen + rng.IntN(len(v)-traceHeaderLen)
			switch rng.IntN(3) {
			case 0: // cut
				v = v[:at]
			case 1: // one byte changed
				v[at] ^= byte(1 + rng.IntN(255))
			case 2: // a run of bytes dropped
				end := min(len(v), at+1+rng.IntN(4096))
				v = append(v[:at:at], v[end:]...)
			}
			gen := 0
			for gen+1 < len(starts) && starts[gen+1] <= at {
				gen++
			}
			inputs = append(inputs, variant{v, gen})
		}
		for k, in := range inputs {
			want, _ := readTraceWhole(t, in.data)
			got, err := Options{}.Parse("t.trace", bytes.NewReader(in.data))
			if k > 0 {
				variants++
			}
			// Moment m is the table after generation m, taken where
			// generation m+1 begins: the ones before the generation before
			// the damaged one must agree (a damaged batch header may move
			// a batch into the generation before, or its start).
			n := max(0, min(in.gen-1, len(want)))
			if err != nil {
				if n > 0 {
					t.Errorf("%s variant %d: %v, but one reader of the whole stream reads %d moments before the damage", name, k, err, n)
				}
				continue
			}
			if k == 0 {
				if g, w := momentsJSON(t, got), momentsJSON(t, want); g != w {
					t.Errorf("%s: %d moments read a generation at a time, %d by one reader of the whole stream, and they differ", name, len(got), len(want))
				}
				continue
			}
			if len(got) < n {
				t.Errorf("%s variant %d: %d moments read a generation at a time, %d before the damage by one reader of the whole stream", name, k, len(got), n)
				continue
			}
			got, want = got[:n], want[:n]
			alignDamagedTimes(t, got, want)
			if g, w := momentsJSON(t, got), momentsJSON(t, want); g != w {
				t.Errorf("%s variant %d: the %d moments before the damage (in generation %d) differ between the two readings", name, k, n, in.gen)
			}
			if n > 0 {
				compared++
			}
		}
	}
	if compared < variants/4 {
		t.Fatalf("only %d of %d damaged variants had moments before the damage to compare", compared, variants)
	}
}

// generationStarts is where each generation of the stream b begins.
func generationStarts(t *testing.T, b []byte) []int {
	t.Helper()
	s, err := newTraceGenerations(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	at := traceHeaderLen
	for {
		g, err := s.next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, at)
		at += len(g) - traceHeaderLen
	}
}

// TestTraceGenerationsSplit: the generations cut from a stream are the
// stream, byte for byte, each behind its own copy of the header, and each
// holds one generation (Go 1.26's end with their end-of-generation byte):
// on every committed snapshot and on random cuts of them.
func TestTraceGenerationsSplit(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 2))
	fixtures := traceFixtures(t)
	for _, name := range slices.Sorted(maps.Keys(fixtures)) {
		b := fixtures[name]
		for k := range 8 {
			in := b
			if k > 0 {
				in = b[:traceHeaderLen+rng.IntN(len(b)-traceHeaderLen)]
			}
			s, err := newTraceGenerations(bytes.NewReader(in))
			if err != nil {
				t.Fatal(err)
			}
			joined := bytes.Clone(in[:traceHeaderLen])
			gens := 0
			for {
				g, err := s.next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("%s cut %d: %v", name, k, err)
				}
				if !bytes.Equal(g[:traceHeaderLen], in[:traceHeaderLen]) {
					t.Fatalf("%s: a generation without the stream's header", name)
				}
				joined = append(joined, g[traceHeaderLen:]...)
				gens++
			}
			if !bytes.Equal(joined, in) {
				t.Fatalf("%s cut %d: the generations joined are %d bytes, the stream %d", name, k, len(joined), len(in))
			}
			if k == 0 && gens < 4 {
				t.Fatalf("%s: %d generations in a snapshot of 5 s", name, gens)
			}
		}
	}
}
