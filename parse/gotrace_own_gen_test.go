package parse

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"golang.org/x/exp/trace"
)

// A generated generation of a Go 1.26 trace: goroutines scheduled at random
// on a few threads, each holding a processor, and written in the format
// with each thread's clock off by a random skew (so that another thread's
// event that must come first may carry a later time) and ticks shared
// between threads. The schedule is the truth the readers must find.

// genTrace is the generator's state.
type genTrace struct {
	rng    *rand.Rand
	clock  uint64          // ticks
	skew   []int64         // each thread's clock offset, ticks
	last   []uint64        // each thread's last event time, ticks
	events [][][]uint64    // each thread's events: type, time, args
	gs     map[int64]*genG // live goroutines
	run    []int64         // each thread's running goroutine; 0 when none
	pseq   []uint64        // each thread's processor's sequence number
	ended  []int64         // goroutines alive at the start that ended
	next   int64           // the next goroutine id
	// coro lets a goroutine switch to a waiting one as a coroutine does
	// (GoSwitch: one event, two goroutines' changes), which our reader
	// leaves to x/exp/trace.
	coro bool
}

// genG is one goroutine of the truth.
type genG struct {
	state  trace.GoState
	seq    uint64
	since  uint64 // ticks; 0 when in its state since the generation began
	reason string
	stack  uint64
	before bool
}

// genReasons are the wait reasons the generator writes (string ids 1..).
var genReasons = []string{"chan receive", "sync", "sleep", "select", "preempted"}

const genStacks = 4 // stack ids 1..genStacks, each of two frames

// emit appends an event on thread m at the thread's clock.
func (s *genTrace) emit(m int, typ uint64, args ...uint64) uint64 {
	t := uint64(max(int64(s.last[m]), int64(s.clock)+s.skew[m]))
	s.last[m] = t
	s.events[m] = append(s.events[m], append([]uint64{typ, t}, args...))
	return t
}

// pick is a goroutine in state st drawn at random, from the ids in order:
// a map's order changes from run to run, and a seed must give one trace.
func (s *genTrace) pick(st trace.GoState) (int64, bool) {
	var ids []int64
	for id, g := range s.gs {
		if g.state == st {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return 0, false
	}
	slices.Sort(ids)
	return ids[s.rng.IntN(len(ids))], true
}

// step does one random thing on a random thread.
func (s *genTrace) step() {
	s.clock += uint64(s.rng.IntN(3)) // 0: the same tick as the event before
	m := s.rng.IntN(len(s.run))
	cur := s.run[m]
	if cur == 0 {
		id, ok := s.pick(trace.GoRunnable)
		if !ok {
			return
		}
		g := s.gs[id]
		g.seq++
		g.since, g.state, g.reason, g.stack = s.emit(m, ownEvGoStart, uint64(id), g.seq), trace.GoRunning, "", 0
		s.run[m] = id
		return
	}
	g := s.gs[cur]
	switch k := s.rng.IntN(10); {
	case k < 3: // block
		r, st := uint64(1+s.rng.IntN(len(genReasons))), uint64(1+s.rng.IntN(genStacks))
		g.since, g.state, g.reason, g.stack = s.emit(m, ownEvGoBlock, r, st), trace.GoWaiting, genReasons[r-1], st
		s.run[m] = 0
	case k < 4: // yield
		st := uint64(1 + s.rng.IntN(genStacks))
		g.since, g.state, g.reason, g.stack = s.emit(m, ownEvGoStop, 5, st), trace.GoRunnable, "preempted", st
		s.run[m] = 0
	case k < 6: // wake a waiting goroutine
		id, ok := s.pick(trace.GoWaiting)
		if !ok {
			return
		}
		w := s.gs[id]
		w.seq++
		w.since, w.state, w.reason, w.stack = s.emit(m, ownEvGoUnblock, uint64(id), w.seq, 1), trace.GoRunnable, "", 0
	case k < 7: // create one
		id := s.next
		s.next++
		st := uint64(1 + s.rng.IntN(genStacks))
		s.gs[id] = &genG{state: trace.GoRunnable, since: s.emit(m, ownEvGoCreate, uint64(id), st, 2), stack: st}
	case k < 8: // end
		if g.before {
			s.ended = append(s.ended, cur)
		}
		s.emit(m, ownEvGoDestroy)
		delete(s.gs, cur)
		s.run[m] = 0
	case s.coro && k == 8: // switch to a waiting goroutine, as iter.Pull's coroutines do
		id, ok := s.pick(trace.GoWaiting)
		if !ok {
			return
		}
		w := s.gs[id]
		w.seq++
		at := s.emit(m, ownEvGoSwitch, uint64(id), w.seq)
		g.since, g.state, g.reason, g.stack = at, trace.GoWaiting, "coroutine", 0
		w.since, w.state, w.reason, w.stack = at, trace.GoRunning, "", 0
		s.run[m] = id
	default: // a system call, back on the same thread
		s.pseq[m]++
		st := uint64(1 + s.rng.IntN(genStacks))
		g.since, g.state, g.stack = s.emit(m, ownEvGoSyscallBegin, s.pseq[m], st), trace.GoSyscall, st
		s.clock += uint64(s.rng.IntN(2))
		g.since, g.state = s.emit(m, ownEvGoSyscallEnd), trace.GoRunning
	}
}

// genGeneration writes a random schedule of n steps on threads threads as
// a Go 1.26 trace of one generation, and returns it with its truth.
func genGeneration(seed uint64, threads, goroutines, n int, coro bool) ([]byte, *genTrace) {
	s := &genTrace{rng: rand.New(rand.NewPCG(seed, 35)), clock: 1000, gs: map[int64]*genG{}, next: 1, coro: coro}
	s.skew = make([]int64, threads)
	s.last = make([]uint64, threads)
	s.events = make([][][]uint64, threads)
	s.run = make([]int64, threads)
	s.pseq = make([]uint64, threads)
	for m := range threads {
		s.skew[m] = int64(s.rng.IntN(9)) - 4
		s.emit(m, 13, uint64(m), 1) // ProcStatus: its processor running
	}
	for range goroutines {
		id := s.next
		s.next++
		g := &genG{state: trace.GoRunnable, before: true}
		if s.rng.IntN(2) == 0 {
			g.state, g.stack = trace.GoWaiting, uint64(1+s.rng.IntN(genStacks))
			s.emit(0, ownEvGoStatusStack, uint64(id), ^uint64(0), 4, g.stack)
		} else {
			s.emit(0, ownEvGoStatus, uint64(id), ^uint64(0), 1)
		}
		s.gs[id] = g
	}
	for range n {
		s.step()
	}
	out := []byte("go 1.26 trace\x00\x00\x00")
	uv := func(b []byte, v uint64) []byte { return binary.AppendUvarint(b, v) }
	batch := func(m, t uint64, body []byte) {
		out = append(out, traceEvEventBatch)
		out = uv(uv(uv(uv(out, 1), m), t), uint64(len(body)))
		out = append(out, body...)
	}
	special := uint64(1 << 20)
	sync := []byte{ownEvSync, ownEvFrequency}
	sync = uv(sync, 15625000) // 64 ns a tick
	sync = append(sync, ownEvClockSnapshot)
	sync = uv(uv(uv(uv(sync, 0), 5), 1_800_000_000), 123)
	batch(special, 1000, sync)
	strs := []byte{ownEvStrings}
	for i, r := range append(genReasons, "main.f", "main.g", "/x/main.go") {
		strs = uv(uv(append(uv(append(strs, ownEvString), uint64(i+1)), nil...), uint64(len(r))), 0)
		strs = append(strs[:len(strs)-1], []byte(r)...)
	}
	batch(special, 1000, strs)
	stk := []byte{ownEvStacks}
	for id := uint64(1); id <= genStacks; id++ {
		stk = uv(uv(append(stk, ownEvStack), id), 2)
		stk = uv(uv(uv(uv(stk, 0x1000+id*16), 6), 8), 10+id) // main.f, its own line
		stk = uv(uv(uv(uv(stk, 0x2000), 7), 8), 99)          // main.g
	}
	batch(special, 1000, stk)
	for m, evs := range s.events {
		for len(evs) > 0 {
			k := min(len(evs), 1+s.rng.IntN(40)) // batches of a few events
			base := evs[0][1]
			var body []byte
			prev := base
			for _, e := range evs[:k] {
				body = uv(append(body, byte(e[0])), e[1]-prev)
				prev = e[1]
				for _, a := range e[2:] {
					body = uv(body, a)
				}
			}
			batch(uint64(m), base, body)
			evs = evs[k:]
		}
	}
	return append(out, traceEvEndOfGeneration), s
}

// TestOwnTraceGenerated: on 300 generated generations (2 to 4 threads, 3
// to 30 goroutines, up to 600 events, clocks skewed by up to 4 ticks
// between threads), our reader finds the schedule's truth for every
// goroutine (its state, when it entered it to the tick, its reason and
// stack, which ended) and holds what x/exp/trace holds, whose times may be
// later (it puts an event that must wait for another thread's after it).
func TestOwnTraceGenerated(t *testing.T) {
	raised := 0 // generations where x/exp/trace put a time later than the trace's: ticks shared, or an event made to wait by the skew
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 1))
		data, truth := genGeneration(seed, 2+rng.IntN(3), 3+rng.IntN(28), rng.IntN(600), false)
		what := fmt.Sprintf("seed %d", seed)
		own, unknown := ownTraceChunk(data, 26)
		if unknown != nil {
			t.Fatalf("%s: our reader: %s", what, unknown.why)
		}
		ref := replayTraceChunk(data)
		if ref.err != nil {
			t.Fatalf("%s: x/exp/trace: %v", what, ref.err)
		}
		if len(own.tab.gs) != len(truth.gs) {
			t.Fatalf("%s: %d goroutines read, %d scheduled", what, len(own.tab.gs), len(truth.gs))
		}
		for id, w := range truth.gs {
			g := own.tab.gs[id]
			if g == nil {
				t.Fatalf("%s: goroutine %d missing", what, id)
			}
			since := trace.Time(w.since * 64)
			if g.state != w.state || g.since != since || g.reason != w.reason {
				t.Fatalf("%s: goroutine %d read %v since %d (%q), scheduled %v since %d (%q)", what, id, g.state, g.since, g.reason, w.state, since, w.reason)
			}
			if w.stack != 0 && (g.episode == nil || g.episode.raw.id != w.stack) {
				t.Fatalf("%s: goroutine %d (%v) stack %+v is not stack %d", what, id, w.state, g.episode, w.stack)
			}
		}
		if fmt.Sprint(sortedIDs(own.tab.ended)) != fmt.Sprint(sortedIDs(truth.ended)) {
			t.Fatalf("%s: ended %v, scheduled %v", what, own.tab.ended, truth.ended)
		}
		if sameChunks(t, what, own, ref, 1<<40) > 0 { // resolves the stacks: last
			raised++
		}
	}
	if raised < 30 {
		t.Fatalf("only %d of 300 generations had x/exp/trace's times later than the trace's: the ticks and skews do not test the order", raised)
	}
	t.Logf("%d of 300 generations had x/exp/trace's times later than the trace's", raised)
}

func sortedIDs(ids []int64) []int64 {
	out := append([]int64(nil), ids...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// TestOwnTraceFallback: a generation with coroutine switches (GoSwitch),
// which our reader does not read, is read by x/exp/trace: the moments are
// the checked reading's, and the last one says how many generations were
// and why.
func TestOwnTraceFallback(t *testing.T) {
	switched := 0
	for seed := range uint64(40) {
		data, _ := genGeneration(seed, 2, 12, 400, true)
		if !bytes.Contains(data, []byte{ownEvGoSwitch}) {
			continue
		}
		_, unknown := ownTraceChunk(data, 26)
		if unknown == nil {
			continue // no switch written (the byte is an argument)
		}
		if unknown.why != "a coroutine switch" {
			t.Fatalf("seed %d: %s", seed, unknown.why)
		}
		ref := replayTraceChunk(data)
		if ref.err != nil {
			t.Fatalf("seed %d: x/exp/trace: %v", seed, ref.err)
		}
		got, err := Options{}.Parse("t.trace", bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		want, err := Options{checkedTrace: true}.Parse("t.trace", bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		last := got[len(got)-1]
		if last.Checked != "1 of 1 generations read by x/exp/trace: our reader does not read a coroutine switch" {
			t.Fatalf("seed %d: the reading says %q", seed, last.Checked)
		}
		last.Checked = ""
		if g, w := dumpsJSON(t, got), dumpsJSON(t, want); g != w {
			t.Fatalf("seed %d: the moments differ from x/exp/trace's", seed)
		}
		switched++
	}
	if switched < 5 {
		t.Fatalf("only %d of 40 generations switched", switched)
	}
}
