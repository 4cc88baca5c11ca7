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
				g.sampled, changed = ev.Stack(), true
			}
		case trace.EventStateTransition:
			if st := ev.StateTransition(); st.Resource.Kind == trace.ResourceGoroutine {
				applyTransition(tab, ev, st)
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
func traceFixtures(t *testing.T) map[string][]byte {
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
// nanosecond and the frame: on every committed snapshot, and on 20
// variants of each drawn at random (cut at any byte, one byte of a batch
// changed, a generation's batches dropped), where both readings keep what
// they read before the damage.
func TestGoTraceChunksAsWhole(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 1))
	variants, damagedRead := 0, 0
	fixtures := traceFixtures(t)
	for _, name := range slices.Sorted(maps.Keys(fixtures)) {
		b := fixtures[name]
		inputs := [][]byte{b}
		for range traceVariants {
			v := bytes.Clone(b)
			switch rng.IntN(3) {
			case 0: // cut anywhere after the header
				v = v[:traceHeaderLen+rng.IntN(len(v)-traceHeaderLen)]
			case 1: // one byte changed
				i := traceHeaderLen + rng.IntN(len(v)-traceHeaderLen)
				v[i] ^= byte(1 + rng.IntN(255))
			case 2: // a run of bytes dropped
				i := traceHeaderLen + rng.IntN(len(v)-traceHeaderLen)
				j := min(len(v), i+1+rng.IntN(4096))
				v = append(v[:i:i], v[j:]...)
			}
			inputs = append(inputs, v)
		}
		for k, in := range inputs {
			want, wholeFailed := readTraceWhole(t, in)
			got, err := Options{}.Parse("t.trace", bytes.NewReader(in))
			if k > 0 {
				variants++
			}
			if err != nil {
				if len(want) > 0 {
					t.Errorf("%s variant %d: %v, but one reader of the whole stream reads %d moments", name, k, err, len(want))
				}
				continue
			}
			if k > 0 && wholeFailed {
				damagedRead++
			}
			if k > 0 {
				alignDamagedTimes(t, got, want)
			}
			if g, w := momentsJSON(t, got), momentsJSON(t, want); g != w {
				t.Errorf("%s variant %d: %d moments read a generation at a time, %d by one reader of the whole stream, and they differ", name, k, len(got), len(want))
			}
		}
	}
	if damagedRead == 0 {
		t.Fatalf("none of %d damaged variants was read in part: the comparison tested nothing past the damage", variants)
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
