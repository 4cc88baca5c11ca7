package parse

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"
	"time"

	"golang.org/x/exp/trace"
)

// Our own reader of one generation of a Go execution trace, for what a
// moment needs: goroutines' changes of state, their stacks and the
// generation's strings, CPU samples, the clock.
//
// x/exp/trace orders every event of every thread into one sequence and
// checks each against the state of every goroutine, processor and thread
// (most of the cost of reading a trace). A moment needs less: each
// goroutine's own changes in their order. Within a thread's batches the
// events are in order; across threads, an event that names another
// goroutine (GoStart, GoUnblock) carries that goroutine's sequence number,
// and waits until the goroutine is in the state the event leaves and its
// number is the next. So the threads' event streams are walked by time
// (the one that is ready comes first), and only goroutines are checked.
//
// The format (Go's src/internal/trace/tracev2: the event table and
// spec) is the same from Go 1.22 to 1.27 for these events: a type byte,
// then uvarint arguments, the first a time delta from the event before in
// the batch (the batch's header gives the base). A generation holds
// string, stack and CPU-sample batches, and a sync batch (Go 1.25+: the
// frequency and a clock snapshot; before, a lone frequency batch).
//
// Times are the trace's own, to its clock's tick: x/exp/trace, keeping
// the one sequence's times rising, puts an event that shares its tick with
// the event before it (on any thread) a nanosecond later; ours does not
// (ownTimeSlack). An event or a batch this reader does not know ends its
// generation's reading here: the generation is read again by x/exp/trace
// (ownTraceChunk's caller), and the moments say how many were.

// Event types of the format (tracev2; the same numbers since Go 1.22).
const (
	ownEvStacks          = 2
	ownEvStack           = 3
	ownEvStrings         = 4
	ownEvString          = 5
	ownEvCPUSamples      = 6
	ownEvCPUSample       = 7
	ownEvFrequency       = 8
	ownEvGoCreate        = 14
	ownEvGoCreateSyscall = 15
	ownEvGoStart         = 16
	ownEvGoDestroy       = 17
	ownEvGoDestroySys    = 18
	ownEvGoStop          = 19
	ownEvGoBlock         = 20
	ownEvGoUnblock       = 21
	ownEvGoSyscallBegin  = 22
	ownEvGoSyscallEnd    = 23
	ownEvGoSyscallEndBlk = 24
	ownEvGoStatus        = 25
	ownEvGoSwitch        = 45
	ownEvGoSwitchDestroy = 46
	ownEvGoCreateBlocked = 47
	ownEvGoStatusStack   = 48
	ownEvSync            = 50
	ownEvClockSnapshot   = 51
)

// ownArgs is, for each timed event of a thread's batch, how many uvarints
// follow its type byte (its time delta first), as the spec lists them; 0
// for a type this reader does not know. Coroutine switches (GoSwitch,
// GoSwitchDestroy: one event, two goroutines' changes) are left to
// x/exp/trace.
var ownArgs = [...]uint8{
	9: 3, 10: 3, 11: 1, 12: 4, 13: 3, // ProcsChange, ProcStart, ProcStop, ProcSteal, ProcStatus
	14: 4, 15: 2, 16: 3, 17: 1, 18: 1, // GoCreate, GoCreateSyscall, GoStart, GoDestroy, GoDestroySyscall
	19: 3, 20: 3, 21: 4, 22: 3, 23: 1, 24: 1, 25: 4, // GoStop, GoBlock, GoUnblock, GoSyscallBegin/End/EndBlocked, GoStatus
	26: 3, 27: 1, // STWBegin, STWEnd
	28: 2, 29: 3, 30: 2, 31: 2, 32: 2, 33: 3, 34: 2, 35: 2, 36: 1, 37: 2, 38: 2, // GC, sweep, assist, heap
	39: 2, 40: 5, 41: 3, 42: 4, 43: 4, 44: 5, // GoLabel, user tasks, regions, logs
	45: 3, 46: 3, // GoSwitch, GoSwitchDestroy (Go 1.23+): read, then left to x/exp/trace
	47: 4, 48: 5, // GoCreateBlocked, GoStatusStack (Go 1.23+)
}

// Goroutine statuses of GoStatus (tracev2.GoStatus) as x/exp/trace's states.
var ownGoStatus = [...]trace.GoState{0: trace.GoUndetermined, 1: trace.GoRunnable, 2: trace.GoRunning, 3: trace.GoSyscall, 4: trace.GoWaiting}

// ownTimeSlack bounds how much later x/exp/trace may put a time of an
// intact trace than the trace's own: it puts an event a nanosecond after
// the one before it (on any thread) when their ticks say otherwise, so a
// run of events at one tick (64 ns on linux/amd64) ends a nanosecond an
// event later. A microsecond is a thousand events at one tick; measured: at
// most 1 ns on the 96 generations of the committed traces, 0 on the 11 of
// a 25 MB snapshot of 4.9 million events (TestOwnTraceReader).
const ownTimeSlack = time.Microsecond

// ownFrame is a frame of the generation's stack table, by its PC: the
// first stack that names a PC gives its frame, as x/exp/trace reads it.
type ownFrame struct {
	fn, file uint64 // string ids
	line     uint64
}

// ownStacks is a generation's stack and string tables.
type ownStacks struct {
	strings map[uint64]string
	stacks  map[uint64][]uint64 // PCs, innermost first
	frames  map[uint64]ownFrame
	// maxID is the largest stack id in the table, and maxRef the largest
	// an event named: the runtime numbers a generation's stacks from 1
	// without gaps, so a table of maxID stacks holds every id up to it
	// (checked once at the end of the generation, not at every event).
	maxID, maxRef uint64
}

// each yields the frames of stack id, innermost first.
func (t *ownStacks) each(id uint64, yield func(fn, file string, line int) bool) {
	for _, pc := range t.stacks[id] {
		f := t.frames[pc]
		if !yield(t.strings[f.fn], t.strings[f.file], int(f.line)) {
			return
		}
	}
}

// stack is the handle of stack id; none for id 0.
func (t *ownStacks) stack(id uint64) traceStack {
	if id == 0 {
		return traceStack{}
	}
	t.maxRef = max(t.maxRef, id)
	return traceStack{own: t, id: id}
}

// ownFreq is nanoseconds a tick, as x/exp/trace computes it (the same
// float expression, so that times agree to the nanosecond).
type ownFreq float64

func (f ownFreq) mul(t uint64) trace.Time { return trace.Time(float64(t) * float64(f)) }

// ownCursor walks one thread's batches of the generation, event by event.
type ownCursor struct {
	m       uint64
	batches []ownBatch
	bi, off int
	last    trace.Time // the time of the event before in the batch
	// The current event: its type, arguments after the time, and time.
	typ  byte
	args [4]uint64
	at   trace.Time
	ok   bool  // an event is current
	g    int64 // the goroutine running on the thread; -1 when none
	// gp is g's entry in the table: only an event on this thread ends g
	// (GoDestroy, GoDestroySyscall, which clear g), so it stays g's.
	gp *traceG
}

type ownBatch struct {
	time uint64
	data []byte
}

// ownUnknown is a generation this reader leaves to x/exp/trace: an event or
// batch it does not know, or framing or an order it cannot read (the
// checked reader then says what is wrong, where).
type ownUnknown struct{ why string }

func (e *ownUnknown) Error() string { return e.why }

func ownFail(format string, args ...any) *ownUnknown {
	return &ownUnknown{why: fmt.Sprintf(format, args...)}
}

// next reads the cursor's next event; ok false at its end.
func (c *ownCursor) next(freq ownFreq) *ownUnknown {
	for c.bi < len(c.batches) && c.off == len(c.batches[c.bi].data) {
		c.bi++
		c.off = 0
		c.last = 0
	}
	if c.bi == len(c.batches) {
		c.ok = false
		return nil
	}
	b := c.batches[c.bi]
	if c.last == 0 {
		c.last = freq.mul(b.time)
	}
	typ := b.data[c.off]
	if int(typ) >= len(ownArgs) || ownArgs[typ] == 0 {
		return ownFail("event type %d", typ)
	}
	n := c.off + 1
	dt, k := binary.Uvarint(b.data[n:])
	if k <= 0 {
		return ownFail("a cut event of type %d", typ)
	}
	n += k
	for i := range int(ownArgs[typ]) - 1 {
		v, k := binary.Uvarint(b.data[n:])
		if k <= 0 {
			return ownFail("a cut event of type %d", typ)
		}
		c.args[i] = v
		n += k
	}
	c.typ, c.off, c.ok = typ, n, true
	c.at = freq.mul(dt) + c.last
	c.last = c.at
	return nil
}

// ownSample is a CPU sample: its time, goroutine and stack.
type ownSample struct {
	at    trace.Time
	g     int64
	stack uint64
}

// ownTraceChunk reads one generation (the stream's header and the
// generation's batches, as traceGenerations cuts it) into a traceChunk as
// replayTraceChunk does with x/exp/trace, for a trace of Go 1.22's format
// or later (minor). It returns an *ownUnknown when the generation holds
// what it does not read: the caller reads it with x/exp/trace.
func ownTraceChunk(data []byte, minor int) (*traceChunk, *ownUnknown) {
	tabs := &ownStacks{strings: map[uint64]string{}, stacks: map[uint64][]uint64{}, frames: map[uint64]ownFrame{}}
	var curs []*ownCursor
	byM := map[uint64]*ownCursor{}
	var samples []ownSample
	var freq ownFreq
	var minTs uint64
	var clock *trace.ClockSnapshot
	var snapTicks uint64
	var err *ownUnknown
	for p := traceHeaderLen; p < len(data); {
		typ := data[p]
		if typ == traceEvEndOfGeneration {
			if p+1 != len(data) {
				return nil, ownFail("bytes after the end of the generation")
			}
			break
		}
		if typ != traceEvEventBatch && typ != traceEvExperimentalBatch {
			return nil, ownFail("a batch of type %d", typ)
		}
		q := p + 1
		if typ == traceEvExperimentalBatch {
			q++
		}
		var head [4]uint64 // generation, thread, time, size
		for i := range head {
			if q > len(data) {
				return nil, ownFail("a cut batch header")
			}
			v, k := binary.Uvarint(data[q:])
			if k <= 0 {
				return nil, ownFail("a cut batch header")
			}
			head[i], q = v, q+k
		}
		if head[3] > traceMaxBatch || uint64(len(data)-q) < head[3] {
			return nil, ownFail("a batch of %d bytes", head[3])
		}
		body := data[q : q+int(head[3])]
		p = q + int(head[3])
		if minTs == 0 || head[2] < minTs {
			minTs = head[2]
		}
		if typ == traceEvExperimentalBatch || len(body) == 0 {
			continue // experiments' data: nothing a moment reads
		}
		switch body[0] {
		case ownEvStrings:
			err = tabs.addStrings(body)
		case ownEvStacks:
			err = tabs.addStacks(body)
		case ownEvCPUSamples:
			samples, err = addOwnSamples(samples, body)
		case ownEvSync:
			if minor < 25 {
				err = ownFail("a sync batch before Go 1.25")
				break
			}
			freq, clock, snapTicks, err = ownSync(body[1:], head[2], freq, clock)
		case ownEvFrequency:
			if minor >= 25 {
				err = ownFail("a lone frequency batch in Go 1.25+")
				break
			}
			freq, clock, snapTicks, err = ownSync(body, head[2], freq, clock)
		default:
			c := byM[head[1]]
			if c == nil {
				c = &ownCursor{m: head[1], g: -1}
				byM[head[1]] = c
				curs = append(curs, c)
			}
			c.batches = append(c.batches, ownBatch{time: head[2], data: body})
		}
		if err != nil {
			return nil, err
		}
	}
	if freq == 0 {
		return nil, ownFail("no frequency")
	}
	if clock != nil {
		clock.Trace = freq.mul(snapTicks)
	}
	for i := range samples {
		samples[i].at = freq.mul(uint64(samples[i].at))
	}
	slices.SortStableFunc(samples, func(a, b ownSample) int { return cmp.Compare(a.at, b.at) })
	c := &traceChunk{tab: &traceTable{gs: make(map[int64]*traceG)}, clock: clock}
	c.first = freq.mul(minTs)
	c.events = 1 // the generation's Sync
	c.last = c.first
	var live []*ownCursor
	for _, cur := range curs {
		if err := cur.next(freq); err != nil {
			return nil, err
		}
		if cur.ok {
			live = append(live, cur)
		}
	}
	r := ownReplay{c: c, tabs: tabs, byM: byM}
	order := make([]*ownCursor, 0, len(live))
	for len(live) > 0 || len(samples) > 0 {
		// The earliest thread's event (the first of equal times).
		h := -1
		for i, cur := range live {
			if h < 0 || cur.at < live[h].at {
				h = i
			}
		}
		if len(samples) > 0 && (h < 0 || samples[0].at < live[h].at) {
			r.sample(samples[0])
			samples = samples[1:]
			continue
		}
		ready, err := r.apply(live[h])
		if err != nil {
			return nil, err
		}
		if !ready {
			// Another thread's event must come first (the goroutine's
			// GoUnblock before its GoStart): the earliest that is ready.
			order = append(order[:0], live...)
			slices.SortStableFunc(order, func(a, b *ownCursor) int { return cmp.Compare(a.at, b.at) })
			for _, cur := range order {
				if cur == live[h] {
					continue
				}
				if ready, err = r.apply(cur); err != nil {
					return nil, err
				}
				if ready {
					h = slices.Index(live, cur)
					break
				}
			}
			if !ready {
				return nil, ownFail("no thread's next event can follow")
			}
		}
		cur := live[h]
		if err := cur.next(freq); err != nil {
			return nil, err
		}
		if !cur.ok {
			live = slices.Delete(live, h, h+1)
		}
	}
	if tabs.maxRef > tabs.maxID || uint64(len(tabs.stacks)) != tabs.maxID {
		// A stack named and not in the table, or a table with gaps:
		// x/exp/trace checks every id and says which.
		return nil, ownFail("a stack id outside the stack table")
	}
	c.events++ // the closing Sync
	c.end = c.last + 1
	return c, nil
}

// ownReplay applies a generation's events to its table.
type ownReplay struct {
	c    *traceChunk
	tabs *ownStacks
	byM  map[uint64]*ownCursor
}

// sample applies a CPU sample: the stack of a running goroutine.
func (r *ownReplay) sample(s ownSample) {
	r.c.events++
	r.c.last = max(r.c.last, s.at)
	if g := r.c.tab.gs[s.g]; g != nil && g.state == trace.GoRunning {
		g.sampled = r.tabs.stack(s.stack)
		r.c.changed = true
	}
}

// apply applies cur's current event if it can come now; false if an event
// of another thread must come first.
func (r *ownReplay) apply(cur *ownCursor) (bool, *ownUnknown) {
	a := &cur.args
	step := traceStep{at: cur.at, parent: cur.g}
	tab := r.c.tab
	var bind *ownCursor // a thread the event binds its goroutine to, its entry to be taken after the step
	switch cur.typ {
	case ownEvGoStart, ownEvGoUnblock:
		g := tab.gs[int64(a[0])]
		want := trace.GoRunnable
		if cur.typ == ownEvGoUnblock {
			want = trace.GoWaiting
		}
		if g == nil || g.state != want || a[1] != g.seq+1 {
			return false, nil
		}
		g.seq = a[1]
		step.id, step.from, step.g = int64(a[0]), want, g
		if cur.typ == ownEvGoStart {
			step.to = trace.GoRunning
			cur.g, cur.gp = step.id, g
		} else {
			step.to = trace.GoRunnable
		}
	case ownEvGoCreate, ownEvGoCreateBlocked, ownEvGoCreateSyscall:
		if tab.gs[int64(a[0])] != nil {
			return false, ownFail("goroutine %d created twice", a[0])
		}
		step.id, step.from, step.to = int64(a[0]), trace.GoNotExist, trace.GoRunnable
		switch cur.typ {
		case ownEvGoCreateBlocked:
			step.to = trace.GoWaiting
		case ownEvGoCreateSyscall:
			step.to = trace.GoSyscall
			cur.g, bind = step.id, cur
		}
		if cur.typ != ownEvGoCreateSyscall {
			step.stack, step.evStack = r.tabs.stack(a[1]), r.tabs.stack(a[2])
		}
	case ownEvGoStatus, ownEvGoStatusStack:
		st := a[2]
		if st == 0 || st >= uint64(len(ownGoStatus)) {
			return false, ownFail("goroutine status %d", st)
		}
		step.id, step.to = int64(a[0]), ownGoStatus[st]
		step.from = trace.GoUndetermined
		if g := tab.gs[step.id]; g != nil {
			if g.state != step.to {
				return false, ownFail("goroutine %d's status %d against its state", step.id, st)
			}
			step.from, step.g = step.to, g
			g.seq = 0
		}
		if cur.typ == ownEvGoStatusStack {
			step.stack = r.tabs.stack(a[3])
			step.evStack = step.stack
		}
		switch step.to {
		case trace.GoRunning:
			cur.g, bind = step.id, cur
		case trace.GoSyscall:
			if m := r.byM[a[1]]; m != nil {
				m.g, bind = step.id, m
			}
		}
	case ownEvGoStop, ownEvGoBlock, ownEvGoDestroy, ownEvGoSyscallBegin, ownEvGoSyscallEnd, ownEvGoSyscallEndBlk, ownEvGoDestroySys:
		g := cur.gp
		if cur.g < 0 || g == nil {
			return false, ownFail("event %d without a goroutine on thread %d", cur.typ, cur.m)
		}
		step.id, step.g = cur.g, g
		switch cur.typ {
		case ownEvGoStop, ownEvGoBlock:
			step.from, step.to = trace.GoRunning, trace.GoRunnable
			if cur.typ == ownEvGoBlock {
				step.to = trace.GoWaiting
			}
			s, ok := r.tabs.strings[a[0]]
			if !ok {
				return false, ownFail("string %d not in the table", a[0])
			}
			step.reason = s
			step.stack = r.tabs.stack(a[1])
			step.evStack = step.stack
			cur.g, cur.gp = -1, nil
		case ownEvGoDestroy:
			step.from, step.to = trace.GoRunning, trace.GoNotExist
			cur.g, cur.gp = -1, nil
		case ownEvGoSyscallBegin:
			step.from, step.to = trace.GoRunning, trace.GoSyscall
			step.stack = r.tabs.stack(a[1])
			step.evStack = step.stack
		case ownEvGoSyscallEnd:
			step.from, step.to = trace.GoSyscall, trace.GoRunning
		case ownEvGoSyscallEndBlk:
			step.from, step.to = trace.GoSyscall, trace.GoRunnable
			cur.g, cur.gp = -1, nil
		case ownEvGoDestroySys:
			step.from, step.to = trace.GoSyscall, trace.GoNotExist
			cur.g, cur.gp = -1, nil
		}
		if g.state != step.from {
			return false, ownFail("goroutine %d is not in the state event %d leaves", step.id, cur.typ)
		}
	case ownEvGoSwitch, ownEvGoSwitchDestroy:
		return false, ownFail("a coroutine switch")
	default:
		// Processors, GC, user annotations: nothing a moment reads.
		r.c.events++
		r.c.last = max(r.c.last, cur.at)
		return true, nil
	}
	r.c.events++
	r.c.last = max(r.c.last, cur.at)
	r.c.changed = true
	applyTransition(tab, step)
	if bind != nil {
		bind.gp = tab.gs[bind.g]
	}
	return true, nil
}

// addStrings reads a strings batch into the table.
func (t *ownStacks) addStrings(b []byte) *ownUnknown {
	for p := 1; p < len(b); {
		if b[p] != ownEvString {
			return ownFail("event %d in a strings batch", b[p])
		}
		p++
		id, k := binary.Uvarint(b[p:])
		if k <= 0 {
			return ownFail("a cut string")
		}
		p += k
		n, k := binary.Uvarint(b[p:])
		if k <= 0 || n > uint64(len(b)-p-k) {
			return ownFail("a cut string")
		}
		p += k
		if _, dup := t.strings[id]; dup {
			return ownFail("string %d twice", id)
		}
		t.strings[id] = string(b[p : p+int(n)])
		p += int(n)
	}
	return nil
}

// ownMaxFrames is the most frames a stack of the format holds
// (tracev2.MaxFramesPerStack).
const ownMaxFrames = 128

// addStacks reads a stacks batch into the table.
func (t *ownStacks) addStacks(b []byte) *ownUnknown {
	var v [4]uint64
	for p := 1; p < len(b); {
		if b[p] != ownEvStack {
			return ownFail("event %d in a stacks batch", b[p])
		}
		p++
		for i := range 2 {
			x, k := binary.Uvarint(b[p:])
			if k <= 0 {
				return ownFail("a cut stack")
			}
			v[i], p = x, p+k
		}
		id, n := v[0], v[1]
		if n > ownMaxFrames {
			return ownFail("a stack of %d frames", n)
		}
		pcs := make([]uint64, 0, n)
		for range n {
			for i := range 4 {
				x, k := binary.Uvarint(b[p:])
				if k <= 0 {
					return ownFail("a cut stack")
				}
				v[i], p = x, p+k
			}
			pcs = append(pcs, v[0])
			if _, ok := t.frames[v[0]]; !ok {
				t.frames[v[0]] = ownFrame{fn: v[1], file: v[2], line: v[3]}
			}
		}
		if _, dup := t.stacks[id]; dup {
			return ownFail("stack %d twice", id)
		}
		t.stacks[id] = pcs
		t.maxID = max(t.maxID, id)
	}
	return nil
}

// addOwnSamples reads a CPU samples batch; times are in ticks until the
// frequency is known.
func addOwnSamples(out []ownSample, b []byte) ([]ownSample, *ownUnknown) {
	var v [5]uint64 // time, thread, processor, goroutine, stack
	for p := 1; p < len(b); {
		if b[p] != ownEvCPUSample {
			return nil, ownFail("event %d in a CPU samples batch", b[p])
		}
		p++
		for i := range v {
			x, k := binary.Uvarint(b[p:])
			if k <= 0 {
				return nil, ownFail("a cut CPU sample")
			}
			v[i], p = x, p+k
		}
		g := int64(v[3])
		if v[3] == 0 {
			g = -1
		}
		out = append(out, ownSample{at: trace.Time(v[0]), g: g, stack: v[4]})
	}
	return out, nil
}

// ownSync reads a sync batch's events (after its Sync byte from Go 1.25):
// the frequency, and the clock snapshot (Go 1.25+) with its time in ticks.
func ownSync(b []byte, base uint64, freq ownFreq, clock *trace.ClockSnapshot) (ownFreq, *trace.ClockSnapshot, uint64, *ownUnknown) {
	var snap uint64
	for p := 0; p < len(b); {
		ev := b[p]
		p++
		var v [4]uint64
		n := 1
		if ev == ownEvClockSnapshot {
			n = 4
		} else if ev != ownEvFrequency {
			return 0, nil, 0, ownFail("event %d in a sync batch", ev)
		}
		for i := range n {
			x, k := binary.Uvarint(b[p:])
			if k <= 0 {
				return 0, nil, 0, ownFail("a cut sync batch")
			}
			v[i], p = x, p+k
		}
		if ev == ownEvFrequency {
			if freq != 0 || v[0] == 0 {
				return 0, nil, 0, ownFail("a second or zero frequency")
			}
			freq = ownFreq(1.0 / (float64(v[0]) / 1e9))
			continue
		}
		if clock != nil {
			return 0, nil, 0, ownFail("a second clock snapshot")
		}
		snap = base + v[0]
		clock = &trace.ClockSnapshot{Mono: v[1], Wall: time.Unix(int64(v[2]), int64(v[3]))}
	}
	return freq, clock, snap, nil
}
