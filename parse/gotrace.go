package parse

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"golang.org/x/exp/trace"
)

// A Go execution trace (runtime/trace.Start, a FlightRecorder's WriteTo,
// go test -trace, /debug/pprof/trace) read as moments.
//
// The trace is a stream of generations, about one a second. At the start of
// each generation the runtime writes every goroutine's state, and for one
// that is blocked its whole stack; between them every change of state is
// an event with its time to the nanosecond, its reason ("chan receive",
// "sync") and the stack where it blocked. The reader replays the events
// into one table of goroutines and copies the table at each generation's
// boundary (a Sync event): each copy is a moment, as if a debug=2 dump had
// been taken then. Waits that began inside the trace have their exact
// start; goroutines created inside it have their creator.
//
// Memory: the table holds the live goroutines, and each moment a Thread per
// goroutine sharing interned frames; a few generations of the stream are
// held at a time (traceGenerations.replay), each decoded by x/exp/trace. The input is capped at
// Options.MaxInflated like any dump, so a huge or hostile trace ends with
// an error, not with the machine's memory.

// goTraceMagic starts every trace: "go 1.26 trace\x00\x00\x00".
var goTraceMagic = []byte("go 1.")

// isGoTrace reports whether head starts a Go execution trace.
func isGoTrace(head []byte) bool {
	if !bytes.HasPrefix(head, goTraceMagic) {
		return false
	}
	i := bytes.Index(head, []byte(" trace\x00"))
	return i > 0 && i < 16
}

// goTraceVersion returns the minor version of the trace header ("go 1.26
// trace" → 26); 0 if it does not read.
func goTraceVersion(head []byte) int {
	rest := head[len(goTraceMagic):]
	n := 0
	for _, c := range rest {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// goTraceOldest is the oldest trace format read: Go 1.22's, the first with
// generations (each goroutine's state and stack written again every
// second). Older traces hold one stream with no periodic states, so no
// moment could be said whole.
const goTraceOldest = 22

// traceEndGap is how far after the last generation's boundary the trace's
// end must be to make a moment of its own: generations are about a second
// apart, and a moment a few milliseconds after the last one repeats it.
const traceEndGap = 100 * time.Millisecond

// traceG is one goroutine of the table the events are replayed into.
//
// Stacks are kept as the trace's own handles and turned into frames only
// for the goroutines alive at a moment (resolve): a busy service starts and
// ends hundreds of thousands of goroutines between two moments (18,000
// requests a second, 3.9 million events in a 10 s snapshot), and most of
// their stacks are never seen by any moment.
type traceG struct {
	id      int64
	state   trace.GoState
	reason  string     // the trace's reason for the current wait ("chan receive"); empty if not said
	episode *traceWait // the current state's stack; shared by the moments that saw it
	since   trace.Time // when it entered the current state; 0 when before the trace
	created *Creator   // nil when created before the trace (or not resolved yet: see creator)
	sample  []*Frame   // the last CPU sample's stack while running; nil if none
	sampled traceStack // a CPU sample's stack not read into sample yet (none when none)
	system  bool       // the runtime's own goroutine (see traceSystem)
	// start and creator are the stacks where the goroutine starts and of
	// its creator's go statement, until resolve reads them; parent is the
	// creating goroutine.
	start, creator traceStack
	parent         int64
	resolved       bool // start and creator read
	systemKnown    bool // system was judged from a stack
	seen           bool // a moment holds it: never reused
	// before is true when the generation it was replayed in (a
	// traceChunk) first saw it in a state record: it was alive before the
	// generation began.
	before bool
	// seq is its sequence number in the generation: our reader
	// (ownTraceChunk) takes an event naming it only as the next.
	seq uint64
}

// traceTable is the goroutines alive at the current point of the trace,
// by id, and the ones that ended unseen by any moment, to be reused: a busy
// service starts hundreds of thousands between two moments.
type traceTable struct {
	gs   map[int64]*traceG
	free []*traceG
	// ended is the goroutines alive before the generation began that ended
	// in it (traceChunk; traceTable.merge takes them out of the table of the
	// generations before).
	ended []int64
}

// traceWait is one stay of a goroutine in one state. Its stack may be filled
// in later in the same stay: a wait's stack as written when it began lacks
// the runtime's frames (runtime.gopark ...) that the generation's state
// record prints, as debug=2 does; every moment of the stay then shows the
// fuller one, so the same wait has one stack at every moment.
type traceWait struct {
	frames []*Frame // as debug=2 shows them (traceShown)
	// byStack is the wait reason the whole stack tells (traceStackStates),
	// runtime frames included; empty when it tells none.
	byStack string
	// raw is the latest stack the trace wrote for the stay, not yet read
	// into frames (none when none is pending). A later record of
	// the same stay (a generation's state record) writes the fuller stack.
	raw traceStack
	// bottom is the outermost function of the fullest stack read: where the
	// goroutine started, runtime frames included; "" when none was read.
	bottom string
	// recorded is true once a generation's state record gave the stack
	// (traceTable.merge).
	recorded bool
	// seen is true once a moment holds the stay: it is shared from then on,
	// and the goroutine's next stay is a new one. Until then the next stay
	// reuses it (most stays of a busy service's goroutines end unseen: one
	// allocation a goroutine instead of one an event, 332 MB less for a
	// 10 s snapshot of 3.9 million events).
	seen bool
}

// resolve reads the pending stack of w into its frames.
func (w *traceWait) resolve(in *interner) {
	if w.raw.none() {
		return
	}
	w.set(traceFrames(w.raw, in))
	w.raw = traceStack{}
}

// set makes full (a stack with the runtime's frames) the stay's stack when
// it says more than the one the stay has.
func (w *traceWait) set(full []*Frame) {
	if len(full) > 0 && w.bottom == "" {
		w.bottom = full[len(full)-1].Func
	}
	shown := traceShown(full)
	if len(shown) < len(w.frames) || len(shown) == len(w.frames) && w.byStack != "" {
		return
	}
	w.frames = shown
	if st := traceStackState(full); st != "" {
		w.byStack = st
	}
}

// traceMoment is a moment taken at a generation boundary.
type traceMoment struct {
	at      trace.Time
	wall    time.Time // zero before Go 1.25 (no clock snapshot)
	threads []traceSeen
}

// traceSeen is one goroutine as a moment saw it.
type traceSeen struct {
	g       *traceG
	run     trace.GoState
	reason  string
	episode *traceWait
	since   trace.Time
	waiting bool
	sample  []*Frame
}

// parseGoTrace reads the trace in br as moments, one a generation.
//
// Generations are read in parallel, each by a reader of its own
// (traceGenerations splits the stream; replayTraceChunk replays one
// generation into a table of its own), and joined in order into one table
// (traceTable.merge) whose copy at each boundary is a moment. Decoding is
// most of the cost (x/exp/trace orders the per-P batches event by event),
// and a generation is self-contained by the format's design (a flight
// recorder starts its snapshot at any generation), so on n cores about n
// generations are decoded at once (bench/flight-cost.sh times it). The
// moments are the ones one reader of the whole stream gives
// (TestGoTraceChunksAsWhole).
func (o Options) parseGoTrace(name string, br *bufio.Reader) ([]*Dump, error) {
	head, _ := br.Peek(16)
	if v := goTraceVersion(head); v < goTraceOldest {
		return nil, &NoDumpError{File: name, Looks: fmt.Sprintf("a Go execution trace of Go 1.%d's format: only Go 1.22 and later write "+
			"a goroutine's state and stack at every generation; record it again with Go 1.22+ (runtime/trace, or /debug/pprof/trace?seconds=5)", v)}
	}
	split, err := newTraceGenerations(&capReader{r: br, max: o.maxInflated(), what: "Go execution trace"})
	if err != nil {
		return nil, fmt.Errorf("%s: a Go execution trace: %w", name, err)
	}
	split.checked = o.checkedTrace
	gens, checked, why := 0, 0, ""
	tab := &traceTable{gs: make(map[int64]*traceG)}
	ms := &traceMoments{in: newInterner()}
	var clock *trace.ClockSnapshot
	var start, last, end trace.Time
	events := 0
	take := func(at trace.Time) { ms.take(tab, at, clock) }
	var readErr error
	pending := false // the generation merged last changed the table: a moment is due at the next boundary
	chunks, stop := split.replay(traceWorkers())
	for ch := range chunks {
		c := <-ch
		if c.events > 0 {
			if events == 0 {
				start = c.first
			}
			// The next generation's first event (its Sync) is the boundary:
			// the moment of the last one is taken there, with its clock, as
			// one reader of the whole stream takes it. That reader keeps
			// event times rising (an event no later than the last is put a
			// nanosecond after it); each generation's reader does so from
			// its own start, so its times are raised to follow the last
			// generation's: its n events end at least n after it.
			at := max(c.first, last+1)
			if c.clock != nil {
				clock = c.clock
			}
			if pending && len(tab.gs) > 0 {
				take(at)
			}
			events += c.events
			n := trace.Time(c.events)
			if c.end != 0 {
				n-- // its closing Sync is not in the whole stream but at its end
			}
			last = max(c.last, last+n)
			end = 0
			if c.end != 0 {
				end = last + 1
			}
		}
		tab.merge(c)
		pending = pending && c.events == 0 || c.changed
		gens++
		if c.checked != "" {
			if checked++; why == "" {
				why = c.checked
			}
		}
		if c.err != nil {
			readErr = fmt.Errorf("in the generation at byte %d: %w", c.at, c.err)
			stop()
			break
		}
	}
	// The stream ends with a Sync of its own: the last generation's moment
	// is taken at the last event.
	if pending && len(tab.gs) > 0 {
		take(max(end, last))
	}
	moments := ms.moments
	if readErr != nil {
		if len(moments) == 0 {
			return nil, fmt.Errorf("%s: a Go execution trace, unreadable after %d events: %w", name, events, readErr)
		}
		// What was read stands, and the reader says where it stopped.
		return sayChecked(traceDumps(name, start, moments, fmt.Sprintf("the trace is unreadable after %d events (%v): the moments before that are read", events, readErr)), gens, checked, why), nil
	}
	if len(moments) == 0 {
		return nil, &NoDumpError{File: name, Looks: "a Go execution trace without any goroutine"}
	}
	return sayChecked(traceDumps(name, start, moments, ""), gens, checked, why), nil
}

// sayChecked says on the last dump how many of the gens generations
// x/exp/trace read for our own reader (checked), and the first reason.
func sayChecked(dumps []*Dump, gens, checked int, why string) []*Dump {
	if checked > 0 && len(dumps) > 0 {
		dumps[len(dumps)-1].Checked = fmt.Sprintf("%d of %d generations read by x/exp/trace: our reader does not read %s", checked, gens, why)
	}
	return dumps
}

// traceMoments is the moments taken so far, and the frames they share.
type traceMoments struct {
	in      *interner
	moments []traceMoment
}

// take copies the table tab as the moment at at, its wall time told by
// clock (nil before Go 1.25: no wall time).
func (ms *traceMoments) take(tab *traceTable, at trace.Time, clock *trace.ClockSnapshot) {
	m := traceMoment{at: at}
	if clock != nil {
		m.wall = clock.Wall.Add(time.Duration(at - clock.Trace)).UTC()
	}
	for _, g := range tab.gs {
		g.resolve(ms.in)
		if g.system {
			continue
		}
		g.seen = true
		if g.episode != nil {
			g.episode.seen = true
		}
		m.threads = append(m.threads, traceSeen{g: g, run: g.state, reason: g.reason, episode: g.episode, since: g.since, waiting: g.state == trace.GoWaiting, sample: g.sample})
	}
	// A boundary right after the last one (the writer's own advance of the
	// generation, then the stream's final Sync) repeats it: the later view
	// replaces it (traceEndGap).
	if n := len(ms.moments); n > 0 && time.Duration(at-ms.moments[n-1].at) < traceEndGap {
		ms.moments[n-1] = m
	} else {
		ms.moments = append(ms.moments, m)
	}
}

// traceStep is one goroutine's change of state, as either reader of the
// trace says it (x/exp/trace's event, or our own: ownTraceChunk).
type traceStep struct {
	id       int64
	from, to trace.GoState
	// stack is the transition's stack: where a new goroutine starts, where
	// one blocked or stopped, or its state record's stack.
	stack traceStack
	// evStack is the event's own stack, and parent the goroutine it ran on:
	// for a creation, the creator's go statement and the creator.
	evStack traceStack
	parent  int64
	reason  string
	at      trace.Time
	// g is id's entry in the table when the reader has it at hand; nil
	// to be looked up.
	g *traceG
}

// xStep is the step an x/exp/trace state transition of a goroutine tells.
func xStep(ev trace.Event, st trace.StateTransition) traceStep {
	from, to := st.Goroutine()
	return traceStep{id: int64(st.Resource.Goroutine()), from: from, to: to, stack: traceStack{x: st.Stack},
		evStack: traceStack{x: ev.Stack()}, parent: int64(ev.Goroutine()), reason: st.Reason, at: ev.Time()}
}

// applyTransition replays one goroutine's change of state into gs.
func applyTransition(tab *traceTable, st traceStep) {
	id, from, to := st.id, st.from, st.to
	g := st.g
	if g == nil {
		g = tab.gs[id]
	}
	if to == trace.GoNotExist {
		if g == nil || g.before {
			tab.ended = append(tab.ended, id)
		}
		if g != nil {
			delete(tab.gs, id)
			if !g.seen {
				tab.free = append(tab.free, g)
			}
		}
		return
	}
	if g == nil {
		if n := len(tab.free); n > 0 {
			g, tab.free = tab.free[n-1], tab.free[:n-1]
			*g = traceG{id: id, state: trace.GoUndetermined}
		} else {
			g = &traceG{id: id, state: trace.GoUndetermined}
		}
		g.before = from != trace.GoNotExist
		tab.gs[id] = g
	}
	if from == trace.GoNotExist {
		// Created inside the trace: the event's own stack is the creator's at
		// its go statement; st.stack is where the new goroutine starts.
		g.start, g.creator, g.parent = st.stack, st.evStack, st.parent
	} else if from == trace.GoUndetermined && g.episode == nil {
		g.start = st.stack // its state record's stack: the start is its last frame
	}
	if from == to && g.state == to && g.episode != nil {
		// A generation's state record: the same stay, its stack in full.
		// Every generation writes it again, the same: it is read once
		// (traceWait.recorded), as traceTable.merge reads it.
		if !st.stack.none() && !g.episode.recorded {
			g.episode.raw, g.episode.recorded = st.stack, true
		}
		return
	}
	g.state = to
	g.reason = st.reason
	g.sample, g.sampled = nil, traceStack{}
	if to == trace.GoRunning && from == trace.GoSyscall && st.stack.none() && g.episode != nil {
		// Back from a system call, it runs in the function that made it:
		// the call's stack is where this run was last seen (a running
		// goroutine's stack is written only by CPU samples).
		prev := *g.episode // a copy: newStay may clear and reuse the stay itself
		g.episode = g.newStay()
		g.episode.frames, g.episode.raw, g.episode.byStack, g.episode.bottom = prev.frames, prev.raw, prev.byStack, prev.bottom
	} else {
		bottom := ""
		if g.episode != nil {
			bottom = g.episode.bottom
		}
		g.episode = g.newStay()
		g.episode.raw, g.episode.bottom = st.stack, bottom
	}
	if from == trace.GoUndetermined || from == to {
		g.since = 0 // in this state since before the trace began
	} else {
		g.since = st.at
	}
}

// newStay is a stay for g's next state: its current one when no moment has
// seen it, cleared, else a new one.
func (g *traceG) newStay() *traceWait {
	if w := g.episode; w != nil && !w.seen {
		*w = traceWait{}
		return w
	}
	return &traceWait{}
}

// resolve reads what a moment shows of g: its stay's stack, and once, its
// start (whether it is the runtime's own) and its creator.
func (g *traceG) resolve(in *interner) {
	if g.episode != nil {
		g.episode.resolve(in)
	}
	if !g.sampled.none() {
		g.sample, g.sampled = traceShown(traceFrames(g.sampled, in)), traceStack{}
	}
	if !g.systemKnown {
		// A goroutine's start never changes: judged once, from the first
		// stack that shows it.
		switch {
		case !g.start.none():
			g.system, g.systemKnown = traceSystem(traceFrames(g.start, in)), true
		case g.episode != nil && g.episode.bottom != "":
			g.system, g.systemKnown = traceSystemStart(g.episode.bottom), true
		}
		g.start = traceStack{}
	}
	if !g.resolved {
		g.resolved = true
		if !g.creator.none() {
			g.created = traceCreator(g.creator, g.parent, in)
		}
		g.creator = traceStack{}
	}
}

// traceCreator is the creator of a goroutine: the creating goroutine
// (parent) and the frame of its go statement, the top of s; nil when not
// said.
func traceCreator(s traceStack, parent int64, in *interner) *Creator {
	var c *Creator
	s.each(func(fn, file string, line int) bool {
		c = &Creator{Func: in.str(fn), File: in.str(file), Line: line}
		if parent > 0 {
			c.Parent = parent
		}
		return false
	})
	return c
}

// traceFrames interns a trace stack, innermost first as dumps print them.
func traceFrames(s traceStack, in *interner) []*Frame {
	var out []*Frame
	s.each(func(fn, file string, line int) bool {
		out = append(out, in.frame(in.str(fn), in.str(file), line, "", ""))
		return true
	})
	return out
}

// traceStack is a stack of the trace, as one of the two readers holds it:
// x/exp/trace's handle, or an id in our own reader's table of the
// generation (ownStacks). The zero value is no stack.
type traceStack struct {
	x   trace.Stack
	own *ownStacks
	id  uint64
}

// none reports whether s is no stack.
func (s traceStack) none() bool { return s.own == nil && s.x == trace.NoStack }

// each yields the frames of s, innermost first, until yield returns false.
func (s traceStack) each(yield func(fn, file string, line int) bool) {
	if s.own != nil {
		s.own.each(s.id, yield)
		return
	}
	if s.x == trace.NoStack {
		return
	}
	for f := range s.x.Frames() {
		if !yield(f.Func, f.File, int(f.Line)) {
			return
		}
	}
}

// traceSystem reports whether a goroutine whose stack is frames (innermost
// first) is the runtime's own: its start function in package runtime,
// runtime.main aside, as debug=2 leaves them out. (runtime/trace's own
// goroutines stay, as a debug=2 dump taken while tracing shows them.)
func traceSystem(frames []*Frame) bool {
	if len(frames) == 0 {
		return false
	}
	return traceSystemStart(frames[len(frames)-1].Func)
}

// traceSystemStart reports whether a goroutine that started in start is
// the runtime's own.
func traceSystemStart(start string) bool {
	return strings.HasPrefix(start, "runtime.") && start != "runtime.main" && !strings.HasPrefix(start, "runtime.goexit")
}

// traceShown is frames as a goroutine dump shows them: the runtime's
// traceback leaves out the unexported functions of package runtime
// (runtime.gopark, runtime.chanrecv1, runtime.goexit) at default
// GOTRACEBACK. The trace keeps them, and keeps them only in some records
// (a generation's state record, not the event where the wait began), so
// the same wait would have two stacks; without them it has one.
func traceShown(frames []*Frame) []*Frame {
	hidden := 0
	for _, f := range frames {
		if traceHidden(f.Func) {
			hidden++
		}
	}
	if hidden == 0 {
		return frames
	}
	out := make([]*Frame, 0, len(frames)-hidden)
	for _, f := range frames {
		if !traceHidden(f.Func) {
			out = append(out, f)
		}
	}
	return out
}

// traceHidden reports whether the runtime's traceback hides fn: a function
// of package runtime whose name is not exported.
func traceHidden(fn string) bool {
	rest, ok := strings.CutPrefix(fn, "runtime.")
	if !ok || rest == "" {
		return false
	}
	c := rest[0]
	return !(c >= 'A' && c <= 'Z') && rest != "main"
}

// traceBlockStates turns the trace's reason for a wait into the wait reason
// debug=2 prints ("network" is "IO wait"). Reasons debug=2 splits further
// ("sync": a Mutex, an RWMutex, a WaitGroup) are told by the stack
// (traceSyncStates); a reason not listed is kept as the trace says it.
var traceBlockStates = map[string]string{
	"network":           "IO wait",
	"sync.(*Cond).Wait": "sync.Cond.Wait",
	"forever":           "select (no cases)",
	"unspecified":       "",
}

// traceStackStates tells a wait's reason from its stack when the trace does
// not say it (a goroutine already waiting when the trace began: its state
// record carries no reason) or says only "sync". The first row whose
// function is in the stack names the state; each row is
// the runtime or library function debug=2's wait reason stands for.
var traceStackStates = []struct{ fn, state string }{
	{"sync.(*Mutex).Lock", "sync.Mutex.Lock"},
	{"sync.(*RWMutex).RLock", "sync.RWMutex.RLock"},
	{"sync.(*RWMutex).Lock", "sync.RWMutex.Lock"},
	{"sync.(*WaitGroup).Wait", "sync.WaitGroup.Wait"},
	{"sync.(*Cond).Wait", "sync.Cond.Wait"},
	{"runtime.chanrecv", "chan receive"},
	{"runtime.chansend", "chan send"},
	{"runtime.selectgo", "select"},
	{"runtime.block", "select (no cases)"},
	{"runtime.netpollblock", "IO wait"},
	{"time.Sleep", "sleep"},
	{"runtime.semacquire1", "semacquire"},
}

// traceStackState is the wait reason the stack full tells, runtime frames
// included; "" when no row of traceStackStates is in it.
func traceStackState(full []*Frame) string {
	for _, row := range traceStackStates { // rows in order: a Mutex's Lock before the semaphore under it
		for _, f := range full {
			if f.Func == row.fn {
				return row.state
			}
		}
	}
	return ""
}

// traceState is the wait reason or run state of s, as debug=2 prints it.
func traceState(s traceSeen) string {
	switch s.run {
	case trace.GoRunning:
		return "running"
	case trace.GoRunnable:
		return "runnable"
	case trace.GoSyscall:
		return "syscall"
	case trace.GoWaiting:
	default:
		return ""
	}
	if st, ok := traceBlockStates[s.reason]; ok && st != "" {
		return st
	}
	if s.reason != "" && s.reason != "sync" && s.reason != "unspecified" {
		return s.reason
	}
	if s.episode != nil && s.episode.byStack != "" {
		return s.episode.byStack
	}
	if s.reason == "sync" {
		return "semacquire"
	}
	return "waiting"
}

// traceDumps turns the moments into dumps, in time order. note, when not
// empty, is said on the last dump (where the reading stopped).
func traceDumps(name string, start trace.Time, moments []traceMoment, note string) []*Dump {
	out := make([]*Dump, 0, len(moments))
	for i, m := range moments {
		d := &Dump{
			Source:  Source{File: name, Index: i},
			Format:  FormatGoTrace,
			Time:    m.wall,
			Threads: make([]*Thread, 0, len(m.threads)),
		}
		for _, s := range m.threads {
			t := &Thread{ID: s.g.id, State: traceState(s), Weight: 1, CreatedBy: s.g.created}
			if s.episode != nil {
				t.Frames = s.episode.frames
			}
			if len(t.Frames) == 0 && len(s.sample) > 0 {
				t.Frames = s.sample
			}
			t.NoStack = len(t.Frames) == 0
			if s.waiting {
				t.WaitAddr = lockSite(t.Frames)
			}
			if s.waiting {
				if s.since != 0 {
					waited := time.Duration(m.at - s.since)
					t.WaitMinutes = int(waited / time.Minute)
					t.GoExtra = &GoExtra{Waited: waited}
				} else {
					// Waiting since before the trace: at least as long as the
					// trace has run up to this moment.
					t.GoExtra = &GoExtra{Waited: time.Duration(m.at - start), WaitedAtLeast: true}
				}
			}
			d.Threads = append(d.Threads, t)
		}
		slices.SortFunc(d.Threads, func(a, b *Thread) int { return cmp.Compare(a.ID, b.ID) })
		out = append(out, d)
	}
	if note != "" && len(out) > 0 {
		last := out[len(out)-1]
		last.Skipped = append(last.Skipped, Skipped{Reason: note})
	}
	return out
}
