package parse

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"

	"golang.org/x/exp/trace"
)

// Reading a Go execution trace one generation per reader, several at once.
//
// The stream is a 16-byte header and then batches, each framed the same way
// in every format since Go 1.22: a type byte (an event batch, or an
// experimental batch with one more byte naming its experiment), then the
// generation, the thread, the base time and the size as uvarints, then
// size bytes. A generation's batches are contiguous; Go 1.26's format ends
// each with a one-byte end-of-generation batch, earlier ones end it where
// the next generation's first batch begins. That framing is all this file
// reads: what is inside a batch is x/exp/trace's to decode.

// Batch framing bytes (x/exp/trace's internal/tracev2 event types, the
// same in every format since Go 1.22).
const (
	traceEvEventBatch        = 1
	traceEvExperimentalBatch = 49 // Go 1.23+
	traceEvEndOfGeneration   = 52 // Go 1.26+
	traceHeaderLen           = 16 // "go 1.26 trace\x00\x00\x00"
	// traceMaxBatch is the largest batch the runtime writes (64 KiB); a
	// larger size is a damaged stream, handed to the decoder to be said.
	traceMaxBatch = 64 << 10
)

// traceGenerations cuts a trace's stream into its generations.
type traceGenerations struct {
	r      *bufio.Reader
	header []byte
	minor  int
	// held is a batch read past the end of the last generation (formats
	// before Go 1.26 end a generation where the next one's first batch
	// begins), and heldGen its generation.
	held    []byte
	heldGen uint64
	done    bool
	// off is the offset in the stream of the next generation's first
	// byte, and start that of the generation next returned last.
	off, start int64
	// checked reads every generation with x/exp/trace (Options.checkedTrace).
	checked bool
	// free is buffers of generations already decoded, for the next ones:
	// x/exp/trace copies what it keeps of a batch.
	free chan []byte
}

// newTraceGenerations reads the header of the stream r.
func newTraceGenerations(r io.Reader) (*traceGenerations, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	header := make([]byte, traceHeaderLen)
	if _, err := io.ReadFull(br, header); err != nil {
		return nil, fmt.Errorf("the header is cut: %w", err)
	}
	if !isGoTrace(header) {
		return nil, errors.New("the header does not read as a Go execution trace's")
	}
	return &traceGenerations{r: br, header: header, minor: goTraceVersion(header), off: traceHeaderLen, free: make(chan []byte, 4)}, nil
}

// next returns the next generation as a stream of its own: the header,
// then its batches. At the end of the stream it returns io.EOF. A stream
// whose framing does not read (cut inside a batch, a batch of another
// type or too large) ends with its rest appended to the generation it was
// in, for the decoder to say what is wrong where; an error reading the
// input itself (too large, I/O) is returned as it is.
func (s *traceGenerations) next() ([]byte, error) {
	if s.done {
		return nil, io.EOF
	}
	s.start = s.off
	data, err := s.cut()
	s.off = s.start + int64(max(0, len(data)-traceHeaderLen))
	return data, err
}

// cut is next's work: the generation's bytes behind the header.
func (s *traceGenerations) cut() ([]byte, error) {
	var buf []byte
	select {
	case buf = <-s.free:
	default:
		buf = make([]byte, 0, 1<<20)
	}
	buf = append(buf[:0], s.header...)
	var gen uint64
	if s.held != nil {
		buf, gen = append(buf, s.held...), s.heldGen
		s.held = nil
	}
	for {
		at := len(buf)
		var g uint64
		var kind traceFrame
		var err error
		buf, g, kind, err = readTraceBatch(s.r, buf)
		switch kind {
		case traceFrameEOF:
			s.done = true
			if len(buf) == traceHeaderLen {
				return nil, io.EOF
			}
			return buf, nil
		case traceFrameEnd:
			return buf, nil
		case traceFrameBad:
			s.done = true
			if err != nil {
				return nil, err
			}
			return buf, nil
		}
		if s.minor < 26 && gen != 0 && g != gen {
			// The first batch of the next generation ends this one.
			s.held, s.heldGen = append([]byte(nil), buf[at:]...), g
			return buf[:at], nil
		}
		gen = g
	}
}

// traceFrame is what readTraceBatch found.
type traceFrame int

const (
	traceFrameBatch traceFrame = iota // a whole batch
	traceFrameEnd                     // Go 1.26's end of a generation
	traceFrameEOF                     // the end of the stream, between batches
	traceFrameBad                     // framing that does not read: the rest of the stream is appended
)

// readTraceBatch appends the next batch of r to buf, as it is in the
// stream, and returns its generation. On framing that does not read it
// appends the rest of the stream (traceFrameBad); an error is returned
// only when reading r itself fails.
func readTraceBatch(r *bufio.Reader, buf []byte) ([]byte, uint64, traceFrame, error) {
	b, err := r.ReadByte()
	if err == io.EOF {
		return buf, 0, traceFrameEOF, nil
	}
	if err != nil {
		return buf, 0, traceFrameBad, err
	}
	buf = append(buf, b)
	switch b {
	case traceEvEndOfGeneration:
		return buf, 0, traceFrameEnd, nil
	case traceEvEventBatch:
	case traceEvExperimentalBatch:
		e, err := r.ReadByte()
		if err != nil {
			return traceRest(r, buf)
		}
		buf = append(buf, e)
	default:
		return traceRest(r, buf)
	}
	var head [4]uint64 // generation, thread, time, size
	for i := range head {
		var ok bool
		if buf, head[i], ok = readTraceUvarint(r, buf); !ok {
			return traceRest(r, buf)
		}
	}
	size := head[3]
	if size > traceMaxBatch {
		return traceRest(r, buf)
	}
	n := len(buf)
	buf = slices.Grow(buf, int(size))[:n+int(size)]
	if got, err := io.ReadFull(r, buf[n:]); err != nil {
		buf = buf[:n+got]
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return buf, head[0], traceFrameBad, nil // cut inside the batch: the decoder says so
		}
		return buf, head[0], traceFrameBad, err
	}
	return buf, head[0], traceFrameBatch, nil
}

// readTraceUvarint reads a uvarint from r, appending its bytes to buf.
func readTraceUvarint(r *bufio.Reader, buf []byte) ([]byte, uint64, bool) {
	var v uint64
	for shift := uint(0); shift < 64; shift += 7 {
		c, err := r.ReadByte()
		if err != nil {
			return buf, 0, false
		}
		buf = append(buf, c)
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return buf, v, true
		}
	}
	return buf, 0, false
}

// traceRest appends what is left of r to buf: the stream's framing did not
// read, and the decoder will say how where it gets to it.
func traceRest(r *bufio.Reader, buf []byte) ([]byte, uint64, traceFrame, error) {
	var rest bytes.Buffer
	_, err := rest.ReadFrom(r)
	return append(buf, rest.Bytes()...), 0, traceFrameBad, err
}

// traceWorkers is how many generations are decoded at once: one a core.
func traceWorkers() int {
	return max(1, runtime.GOMAXPROCS(0))
}

// replay decodes the generations, up to workers at a time, each into a
// traceChunk, and hands them over in stream order: each element of the
// channel is the chunk to come. At most 2*workers+1 generations are held at
// a time (decoding, decoded and not merged yet, being cut), so memory stays
// that of a few generations whatever the trace's length; no more decoders
// run than cores (more would only preempt each other). stop ends the
// reading early; the channel is then closed soon.
func (s *traceGenerations) replay(workers int) (<-chan chan *traceChunk, func()) {
	out := make(chan chan *traceChunk, workers)
	quit := make(chan struct{})
	slots := make(chan struct{}, workers)
	go func() {
		defer close(out)
		for {
			data, err := s.next()
			if err == io.EOF {
				return
			}
			at := s.start
			ch := make(chan *traceChunk, 1)
			select {
			case out <- ch:
			case <-quit:
				return
			}
			if err != nil {
				ch <- &traceChunk{err: err, at: at}
				return
			}
			select {
			case slots <- struct{}{}:
			case <-quit:
				ch <- &traceChunk{}
				return
			}
			go func() {
				var c *traceChunk
				if s.checked {
					c = replayTraceChunk(data)
				} else {
					c = readTraceChunk(data, s.minor)
				}
				c.at = at
				select {
				case s.free <- data:
				default:
				}
				<-slots
				ch <- c
			}()
		}
	}()
	stopped := false
	return out, func() {
		if !stopped {
			stopped = true
			close(quit)
			for range out { // let the splitter see quit; the decoders' sends are buffered
			}
		}
	}
}

// traceChunk is one generation replayed on its own: its goroutines as they
// are at its end (and in tab.ended those alive before it that ended in it),
// and its times.
type traceChunk struct {
	tab         *traceTable
	first, last trace.Time
	end         trace.Time           // the reader's closing Sync; 0 if it did not get there
	clock       *trace.ClockSnapshot // the generation's clock snapshot (Go 1.25+), nil if none
	events      int
	changed     bool  // a goroutine changed state or was sampled
	err         error // what ended the generation's events early; nil at its end
	// checked is why x/exp/trace read the generation rather than our own
	// reader (ownTraceChunk); "" when ours did.
	checked string
	at      int64 // the generation's offset in the stream
}

// readTraceChunk reads one generation with our own reader, or where it
// does not read it, with x/exp/trace (the checked path), saying why. A
// panic in ours (a bug: FuzzOwnTrace looks for them) is a reason too.
func readTraceChunk(data []byte, minor int) *traceChunk {
	c, unknown := ownTraceChunkSafe(data, minor)
	if unknown == nil {
		return c
	}
	c = replayTraceChunk(data)
	c.checked = unknown.why
	return c
}

// ownTraceChunkSafe is ownTraceChunk with a panic turned into a reason to
// read the generation with x/exp/trace.
func ownTraceChunkSafe(data []byte, minor int) (c *traceChunk, unknown *ownUnknown) {
	defer func() {
		if p := recover(); p != nil {
			c, unknown = nil, ownFail("our reader failed: %v", p)
		}
	}()
	return ownTraceChunk(data, minor)
}

// replayTraceChunk decodes one generation (a stream of its own: the header
// and the generation's batches) and replays its events into a table of its
// own. Every goroutine alive at the generation's start appears in it first
// as a state record (from GoUndetermined): applyTransition marks it as
// there before (traceG.before). A panic in the decoder (a trace the library
// does not expect) ends the chunk with an error instead of the process.
func replayTraceChunk(data []byte) (c *traceChunk) {
	c = &traceChunk{tab: &traceTable{gs: make(map[int64]*traceG)}}
	defer func() {
		if p := recover(); p != nil {
			c.err = fmt.Errorf("the trace decoder failed: %v", p)
		}
	}()
	r, err := trace.NewReader(bytes.NewReader(data))
	if err != nil {
		c.err = err
		return c
	}
	for {
		ev, err := r.ReadEvent()
		if err != nil {
			if err != io.EOF {
				c.err = err
			}
			return c
		}
		if c.events == 0 {
			c.first = ev.Time()
		}
		c.events++
		if ev.Kind() == trace.EventSync && c.events > 1 {
			// The reader's closing Sync, a nanosecond after the last
			// event: the boundary one reader of the whole stream has there
			// is the next generation's first event.
			c.end = ev.Time()
			continue
		}
		c.last = ev.Time()
		switch ev.Kind() {
		case trace.EventSync:
			if s := ev.Sync(); s.ClockSnapshot != nil && c.clock == nil {
				cs := *s.ClockSnapshot
				c.clock = &cs
			}
		case trace.EventStackSample:
			if g := c.tab.gs[int64(ev.Goroutine())]; g != nil && g.state == trace.GoRunning {
				g.sampled = traceStack{x: ev.Stack()}
				c.changed = true
			}
		case trace.EventStateTransition:
			st := ev.StateTransition()
			if st.Resource.Kind != trace.ResourceGoroutine {
				continue
			}
			c.changed = true
			applyTransition(c.tab, xStep(ev, st))
		}
	}
}

// merge joins the next generation c into the table of the generations
// before it. A goroutine new to the table is taken as c has it. One that
// was there before c began either stayed in its state through c (c holds
// only its state record, which may carry a fuller stack of the same stay)
// or changed in c: then its stay is c's, with the exact time c saw it
// begin.
func (tab *traceTable) merge(c *traceChunk) {
	for _, id := range c.tab.ended {
		delete(tab.gs, id)
	}
	for id, l := range c.tab.gs {
		g := tab.gs[id]
		if g == nil || !l.before {
			tab.gs[id] = l
			continue
		}
		if l.since != 0 || l.state != g.state || g.episode == nil {
			// A new stay in c (or a state that does not follow from the
			// last: taken as c says it, its start unknown).
			if l.episode != nil && l.episode.bottom == "" && g.episode != nil {
				l.episode.bottom = g.episode.bottom
			}
			g.state, g.reason, g.since, g.episode = l.state, l.reason, l.since, l.episode
			g.sample, g.sampled = nil, l.sampled
			continue
		}
		if l.episode != nil && !l.episode.raw.none() && !g.episode.recorded {
			// The stay's stack as a state record writes it, the runtime's
			// frames included: the fullest it has. Each generation writes
			// it again, the same; it is read once.
			g.episode.raw, g.episode.recorded = l.episode.raw, true
		}
		if !l.sampled.none() {
			g.sample, g.sampled = nil, l.sampled
		}
	}
}
