package parse

import (
	"bytes"
	"encoding/binary"
	"slices"
	"strings"
	"unsafe"
)

// The Go text scanner (goroutine_text.go) reads and classifies lines and
// decides where a dump ends; the builder here turns what it found into
// threads and frames. The scanner hands it small steps: goOps through
// apply, frame lines and headers by direct calls. (A builder goroutine
// beside the scanner, fed batches of steps, was taken out once the
// scanner's fast path, goroutine_fast.go, read most frames itself: with
// GOMAXPROCS 4 on 2 cores, scanner and builder each on a core, `dumpdiff
// parse --stats` on 1M goroutines took 2.38 s wall and 4.09 CPU-s,
// against 1.81 s and 1.85 CPU-s on the fast path.)

// goOp is one step from the scanner to the builder.
type goOp uint8

const (
	opHeader      goOp = iota + 1 // data: the header line
	opFunc                        // data: the function name of a function line
	opFile                        // data: the file line completing opFunc
	opOrphan                      // the last opFunc got no file line
	opEnd                         // the goroutine ends (blank line, prologue, end of dump)
	opCreatedBy                   // data: the "created by" line
	opCreatorFile                 // data: the file line of "created by"
	opWaitAddr                    // data: the first argument of a sync lock frame ("0xc000012345")
	opElided                      // data: "...N frames elided..."
	opOrigin                      // data: "[originating from goroutine N]:"
	opNoStack                     // goroutine running on other thread; stack unavailable
)

// goBuilder turns ops into threads. While a dump is parsed it is the only
// user of the interner.
type goBuilder struct {
	in *interner
	// slabs are the thread slabs in the order taken, each full but the
	// last (threadSlab is its unused rest); the goroutines read are their
	// first nthreads threads, in dump order. The Dump's slice of them is
	// made once, at its size, by threads: appended one by one, a million
	// goroutines' slice was copied on every growth, 43 MB allocated for
	// 8 MB kept, and the collector is off while dumpdiff reads (issue 31).
	slabs    [][]Thread
	nthreads int
	skipped  []Skipped
	partial  []Skipped // function lines read without their file line (orphan)

	cur *Thread   // goroutine being built; nil when none
	anc *Ancestor // ancestor block receiving frames; nil if none
	// pend is the creator read for cur, awaiting its file line, while
	// pending: creators are shared (equal ones are one *Creator, kept in
	// creators; lastC is the latest), so one is complete before it is
	// looked up.
	pend     Creator
	pending  bool
	creators map[Creator]*Creator
	lastC    *Creator

	// recv is the first argument of the function line awaiting its file
	// line, when it is an address ("0xc000123400"; 0 otherwise), kept
	// for the frame's receiver (GoExtra.Receivers) while the dump holds
	// at most parse.ReceiversMax goroutines.
	recv uint64
	// args are the address arguments of that function line (lockArgs),
	// kept for GoExtra.LockArgs while the goroutine waits on a printed
	// lock address; reused.
	args []uint64

	frames  []*Frame // scratch for a stack read from the trie (stackNode.path)
	funcKey []byte   // "func\x00" of the function line awaiting its file line; empty if none
	funcLn  int      // line number of that function line
	// cache maps the "path:line" of a file line to its frame; a frame whose
	// function differs from the cached one (two closures on one line) is
	// found in cache2 under "func\x00path:line".
	cache  map[string]*goLoc
	cache2 map[string]*goLoc
	// stacks holds each distinct stack (its frames, in order) once, by a
	// hash of its frame pointers: goroutines with identical stacks share
	// one Frames slice. At 1M goroutines in a few hundred stacks this saves
	// a slice of ~18 pointers per goroutine (150 MB a moment) and lets the
	// analysis tell identical stacks by their first element's address.
	stacks map[uint64][][]*Frame

	// root is the trie of the frame sequences read (see stackNode); node
	// is where the frames read so far in this stack lead, &root at its
	// start.
	root  stackNode
	node  *stackNode
	nodes map[nodeKey]*stackNode

	// The last "created by" function and file line read, kept to skip
	// interning them again: goroutines of one pool share them.
	lastCreator     string
	lastCreatorLine []byte
	lastCreatorFile string
	lastCreatorLn   int
	// lastCreatedBy is the last "created by" line read whole, the one
	// pend comes from; creatorLines are the last creators read whole, by
	// the lengths of their two lines (creatorSlot: a dump's few pools'
	// creators differ in one or the other), for the fast path
	// (fastCreator).
	lastCreatedBy []byte
	creatorLines  [64]creatorLines

	// statuses are the last headers' statuses that gave only a state and
	// a wait time, by their length (a dump's few common statuses differ
	// in length: "[select]:", "[chan receive]:", "[IO wait, 2 minutes]:"),
	// for sameStatus.
	statuses [32]goStatus

	threadSlab  []Thread
	slabSize    int // the last slab's length
	creatorSlab []Creator
	frameSlab   []*Frame
	creatorSize int // the last creator slab's length
	frameSize   int // the last frame slab's length
}

// goLoc is a "path:line" as printed and the frame first seen there.
type goLoc struct {
	loc string
	f   *Frame
	// raw is the whole file line it was first read from (tab, offset and
	// all): the same call site prints the same line.
	raw string
	// lock is true for a sync lock's frame ("sync.(*Mutex).Lock",
	// "internal/sync.(*Mutex).lockSlow"), whose first argument
	// syncWaitAddr reads: its function line starts the same way.
	lock bool
	// method is true for a pointer receiver's method ("pkg.(*T).m",
	// its closures too), whose first argument is the receiver.
	method bool
}

// stackNode is a node of the trie of the frame sequences read in a dump:
// the path from the root to a node spells one sequence, top frame first,
// one location per edge. A pool's goroutines print the same few stacks,
// so the child taken last (next) is the best guess for a stack's next
// frame: its whole prefix agrees. (A guess from the last frame alone, the
// location that followed it last time, was wrong wherever several
// callers share a callee; the trie replaced it and the previous
// goroutine's frame at the same depth.) A node where a goroutine's stack
// ended keeps that stack, shared, so it is interned without hashing.
//
// Where stacks part (a middleware chain picks its next layer), the guess
// fails; the few children (kids) are then compared before the location
// caches are asked: a scan of a handful of lines costs less than a hash.
type stackNode struct {
	loc   *goLoc
	next  *stackNode   // the child taken last; nil if none yet
	kids  []*stackNode // every child, in the order made
	stack []*Frame     // the shared stack of the frames to here, once a stack ended here
	up    *stackNode   // the parent; nil at the root
	depth int          // frames from the root to here
}

// path appends the frames from the root to n, top first, to fs.
func (n *stackNode) path(fs []*Frame) []*Frame {
	at := len(fs)
	fs = slices.Grow(fs, n.depth)[:at+n.depth]
	for i := at + n.depth - 1; n.up != nil; n, i = n.up, i-1 {
		fs[i] = n.loc.f
	}
	return fs
}

// maxKidScan is the most children the fast path compares one by one
// (a comparison of file lines of another length is a few instructions)
// before it leaves the frame to the line-by-line path (a classification,
// argsParen and two hashed lookups, ~500 instructions). The root's
// children are every top frame: 10 in gen100k's 100,000-goroutine dump,
// so at 8 the first frame of 82% of its goroutines went that way;
// at 32, 657M -> 622M instructions for the dump (cachegrind). Past 32
// (a node with children of many kinds) the scan would cost more than it
// saves when it misses.
const maxKidScan = 32

// nodeKey finds a child: its parent and the location on the edge.
type nodeKey struct {
	parent *stackNode
	loc    *goLoc
}

func newGoBuilder(in *interner) *goBuilder {
	b := &goBuilder{in: in, cache: make(map[string]*goLoc), cache2: make(map[string]*goLoc), stacks: make(map[uint64][][]*Frame),
		nodes: make(map[nodeKey]*stackNode)}
	b.node = &b.root
	return b
}

// restart begins a new sequence of frames: a goroutine's or an ancestor's.
func (b *goBuilder) restart() {
	b.node = &b.root
}

// apply performs one op. It keeps no reference to data.
func (b *goBuilder) apply(op goOp, lineNo int, data []byte) {
	switch op {
	case opHeader:
		b.header(data, lineNo)
	case opFunc:
		b.funcLine(data, lineNo)
	case opFile:
		b.frameFile(data, lineNo)
	case opOrphan:
		if len(b.funcKey) > 0 {
			b.orphan()
			b.funcKey = b.funcKey[:0]
		}
	case opEnd:
		b.endThread()
	case opCreatedBy:
		b.createdBy(data)
	case opCreatorFile:
		if b.pending {
			// Goroutines of one pool share their creator's file line.
			if !bytes.Equal(data, b.lastCreatorLine) {
				b.lastCreatorLine = append(b.lastCreatorLine[:0], data...)
				b.lastCreatorFile, b.lastCreatorLn = b.fileLoc(data)
			}
			b.pend.File, b.pend.Line = b.lastCreatorFile, b.lastCreatorLn
			e := &b.creatorLines[creatorSlot(len(b.lastCreatedBy), data)]
			e.by = append(e.by[:0], b.lastCreatedBy...)
			e.file = append(e.file[:0], data...)
			e.c = b.pend
			b.setCreator()
		}
	case opElided:
		if b.cur != nil && b.anc == nil {
			x := b.cur.extra()
			x.FramesElided = true
			x.ElidedCount = elidedCount(data)
		}
	case opOrigin:
		if b.cur != nil {
			b.flushFrames()
			b.restart()
			id, _ := parseInt(data[len("[originating from goroutine "):], ']')
			x := b.cur.extra()
			x.Ancestors = append(x.Ancestors, Ancestor{ID: id})
			b.anc = &x.Ancestors[len(x.Ancestors)-1]
		}
	case opNoStack:
		if b.cur != nil {
			b.cur.NoStack = true
		}
	case opWaitAddr:
		// The first (topmost) sync frame with an address names the lock.
		if b.cur != nil && b.anc == nil && b.cur.WaitAddr == "" {
			b.cur.WaitAddr = string(data)
		}
	}
}

func (b *goBuilder) skip(lineNo int, line []byte, reason string) {
	if len(line) > 200 {
		line = line[:200]
	}
	b.skipped = append(b.skipped, Skipped{Line: lineNo, Text: string(line), Reason: reason})
}

// orphan keeps the function line awaiting its file line, which did not
// come (a person elided it with "...", or the paste was cut after it), as
// a frame without a file: the frame is often the culprit (the caller of
// the wait the lines above show), and its goroutine keeps it. It is said
// in Dump.Partial, not dropped. A line outside a goroutine is skipped as
// before.
func (b *goBuilder) orphan() {
	fn := b.funcKey[:len(b.funcKey)-1]
	if b.cur == nil {
		b.skip(b.funcLn, fn, "function line without its file line")
		return
	}
	b.orphanAt(b.funcLn, fn, "function line without its file line: read as a frame without its file")
}

// orphanAt is orphan for the line at lineNo, text, said with reason.
func (b *goBuilder) orphanAt(lineNo int, text []byte, reason string) {
	fn := b.funcKey[:len(b.funcKey)-1]
	if len(text) > 200 {
		text = text[:200]
	}
	b.partial = append(b.partial, Skipped{Line: lineNo, Text: string(text), Reason: reason})
	// The key "func\x00" (no location) is no file line's: cache2 holds
	// it apart from every frame read with one.
	l, ok := b.cache2[string(b.funcKey)]
	if !ok {
		f := b.in.frame(b.in.bytes(fn), "", 0, "", "")
		l = &goLoc{f: f, lock: strings.HasPrefix(f.Func, "sync.(*") || strings.HasPrefix(f.Func, "internal/sync.(*"),
			method: strings.Contains(f.Func, ".(*")}
		b.cache2[string(b.funcKey)] = l
	}
	b.found(l)
}

// endThread stores the frames collected for the current goroutine.
func (b *goBuilder) endThread() {
	if b.cur == nil {
		return
	}
	b.flushFrames()
	b.setCreator()
	b.cur = nil
	b.anc = nil
}

// setCreator gives cur its pending creator: the shared *Creator equal to
// it. (A pool's goroutines have one creator and, started by one parent,
// one "in goroutine N": 48 bytes a goroutine saved.)
func (b *goBuilder) setCreator() {
	if !b.pending {
		return
	}
	b.pending = false
	c := b.lastC
	if c == nil || *c != b.pend {
		if c = b.creators[b.pend]; c == nil {
			if len(b.creatorSlab) == 0 {
				b.creatorSize = min(max(2*b.creatorSize, 8), 256) // as threadSlab
				b.creatorSlab = make([]Creator, b.creatorSize)
			}
			c = &b.creatorSlab[0]
			b.creatorSlab = b.creatorSlab[1:]
			*c = b.pend
			if b.creators == nil {
				b.creators = map[Creator]*Creator{}
			}
			b.creators[b.pend] = c
		}
		b.lastC = c
	}
	if b.cur != nil {
		b.cur.CreatedBy = c
	}
}

// flushFrames moves the collected frames to the goroutine or ancestor.
func (b *goBuilder) flushFrames() {
	n := b.node
	if n == &b.root {
		return
	}
	if b.anc != nil {
		b.anc.Frames = n.path(nil)
	} else if b.cur != nil {
		if n.stack == nil {
			b.frames = n.path(b.frames[:0])
			n.stack = b.stack(b.frames)
		}
		b.cur.Frames = n.stack
	}
	b.restart()
}

// stack returns the shared copy of the stack fs (interned frames, so equal
// stacks hold the same pointers). The copy's capacity is its length: an
// append to one goroutine's frames never writes into another's. It runs
// once per trie node a stack ends at (flushFrames); two nodes can spell
// one stack when two printed locations name one frame ("a.go:01" and
// "a.go:1"), and they share it through the hash.
func (b *goBuilder) stack(fs []*Frame) []*Frame {
	h := hashFrames(fs)
	for _, s := range b.stacks[h] {
		if slices.Equal(s, fs) {
			return s
		}
	}
	n := len(fs)
	if len(b.frameSlab) < n {
		b.frameSize = min(max(2*b.frameSize, 64), 1<<12) // as threadSlab
		b.frameSlab = make([]*Frame, max(b.frameSize, n))
	}
	s := b.frameSlab[:n:n]
	b.frameSlab = b.frameSlab[n:]
	copy(s, fs)
	b.stacks[h] = append(b.stacks[h], s)
	return s
}

// hashFrames hashes a stack by its frames' addresses (FNV-1a over the
// pointer values). Frames are interned and Go's heap does not move
// objects, so equal stacks hash alike; the pointers are only hashed, never
// turned back into pointers.
func hashFrames(fs []*Frame) uint64 {
	h := uint64(14695981039346656037)
	for _, f := range fs {
		h ^= uint64(uintptr(unsafe.Pointer(f)))
		h *= 1099511628211
	}
	return h
}

// header starts a goroutine; a malformed header is skipped and the frames
// after it, belonging to no goroutine, are dropped.
func (b *goBuilder) header(line []byte, lineNo int) {
	id, ok := goHeaderID(line)
	b.headerID(line, lineNo, id, ok)
}

// headerID is header with the id already read (goHeaderID's results).
func (b *goBuilder) headerID(line []byte, lineNo int, id int64, idOK bool) {
	b.endThread()
	b.restart()
	t := b.nextThread()
	if !idOK || !b.sameStatus(line, id, t) && !b.parseHeader(line, id, t) {
		*t = Thread{}
		b.skip(lineNo, line, "goroutine header not understood")
		return
	}
	b.threadSlab = b.threadSlab[1:]
	t.Line = lineNo
	t.Weight = 1
	b.nthreads++
	b.cur = t
}

// nextThread is the slab's next free thread, not yet taken (the caller
// moves the slab past it once it is a goroutine). Slabs grow from 8 to 256
// threads: a big dump allocates a slab per 256 goroutines, and a small one
// (a watch ring holds hundreds of them) does not carry 256 empty threads.
func (b *goBuilder) nextThread() *Thread {
	if len(b.threadSlab) == 0 {
		b.slabSize = min(max(2*b.slabSize, 8), 256)
		b.threadSlab = make([]Thread, b.slabSize)
		b.slabs = append(b.slabs, b.threadSlab)
	}
	return &b.threadSlab[0]
}

// headerless begins a goroutine whose header was not printed (grep's
// output, goroutine_grep.go): no id, no state.
func (b *goBuilder) headerless(lineNo int) {
	b.endThread()
	b.restart()
	t := b.nextThread()
	*t = Thread{Line: lineNo, Weight: 1}
	b.threadSlab = b.threadSlab[1:]
	b.nthreads++
	b.cur = t
}

// threads is the goroutines read, in dump order; nil for none.
func (b *goBuilder) threads() []*Thread {
	if b.nthreads == 0 {
		return nil
	}
	ts := make([]*Thread, 0, b.nthreads)
	for _, slab := range b.slabs {
		for i := range slab[:min(len(slab), b.nthreads-len(ts))] {
			ts = append(ts, &slab[i])
		}
	}
	return ts
}

// parseHeader is parseGoHeader, remembering the status of a header that
// gave nothing but a state and a wait time (most do) for sameStatus.
func (b *goBuilder) parseHeader(line []byte, id int64, t *Thread) bool {
	t.ID = id
	if !parseGoHeaderRest(line, b.in, t) {
		return false
	}
	if t.Labels == nil && t.GoExtra == nil { // (flags are in GoExtra)
		open := bytes.IndexByte(line, '[') // found: parseGoHeader needs one
		st := line[open:]
		e := &b.statuses[len(st)%len(b.statuses)]
		e.text = append(e.text[:0], st...)
		e.state, e.minutes = t.State, t.WaitMinutes
	}
	return true
}

// sameStatus fills t from a header whose status, from its '[' on, is a
// remembered one's ("[IO wait]:", "[chan receive, 5 minutes]:"), and
// reports whether it did. What parseGoHeader reads after the id depends
// on those bytes alone (the "gp=... m=..." before them is not read), so
// it would read the same state and wait time again.
func (b *goBuilder) sameStatus(line []byte, id int64, t *Thread) bool {
	open := bytes.IndexByte(line, '[')
	if open < 0 {
		return false
	}
	st := line[open:]
	e := &b.statuses[len(st)%len(b.statuses)]
	if len(e.text) == 0 || string(st) != string(e.text) {
		return false
	}
	t.ID, t.State, t.WaitMinutes = id, e.state, e.minutes
	return true
}

// goStatus is a header status remembered by parseHeader.
type goStatus struct {
	text    []byte // from '[' on: "[chan receive, 5 minutes]:"
	state   string
	minutes int
}

// funcLine starts a frame: its function, awaiting its file line.
func (b *goBuilder) funcLine(fn []byte, lineNo int) {
	b.recv = 0 // the caller sets it after, from the whole line
	b.args = b.args[:0]
	b.funcKey = append(append(b.funcKey[:0], fn...), 0)
	b.funcLn = lineNo
}

// frameFile completes the frame started by funcLine.
func (b *goBuilder) frameFile(line []byte, lineNo int) {
	b.fileLine(line, lineNo)
	b.funcKey = b.funcKey[:0]
}

// fileLine completes the frame started by opFunc.
//
//	\t/usr/lib/go/src/net/http/server.go:3056 +0x364
//	\tC:/Users/felixge/pprof.go:693 +0x9f
//	\truntime/proc.go:462 +0xce fp=0x25e31a6adc98 sp=0x25e31a6adc78 pc=0x48618e
func (b *goBuilder) fileLine(line []byte, lineNo int) {
	if len(b.funcKey) == 0 || b.cur == nil {
		return // a frame that belongs to no goroutine
	}
	fn := b.funcKey[:len(b.funcKey)-1]
	// The stack trie's guess (see stackNode): most frames are it, found
	// without hashing; most of those by their whole line (offset
	// included), before it is even split.
	var guess *goLoc
	if c := b.node.next; c != nil {
		guess = c.loc
	}
	if l := guess; l != nil && l.raw == string(line) && l.f.Func == string(fn) {
		b.found(l)
		return
	}
	loc, colon := fileLoc(line)
	if colon < 0 {
		// A file line cut before its number (a paste cut in its path):
		// its function is kept, as a function line without a file line.
		b.orphanAt(lineNo, line, "file line without a line number: its function read as a frame without its file")
		return
	}
	if l := guess; l != nil && l.loc == string(loc) && l.f.Func == string(fn) {
		b.found(l)
		return
	}
	l, ok := b.cache[string(loc)]
	if !ok || l.f.Func != string(fn) {
		if _, l = b.slowFrame(fn, loc, colon, l, line); l == nil {
			b.orphanAt(lineNo, line, "file line without a line number: its function read as a frame without its file")
			return
		}
	}
	b.found(l)
}

// found appends the frame of location l to the stack being read, and
// moves down the trie.
func (b *goBuilder) found(l *goLoc) {
	b.receiver(l)
	n := b.node
	c := n.next
	if c == nil || c.loc != l {
		k := nodeKey{n, l}
		if c = b.nodes[k]; c == nil {
			c = &stackNode{loc: l, up: n, depth: n.depth + 1}
			b.nodes[k] = c
			n.kids = append(n.kids, c)
		}
		n.next = c
	}
	b.node = c
}

// receiver keeps the receiver of the frame of l being read (b.recv) when
// l is a method's and the goroutine is one of the first ReceiversMax.
func (b *goBuilder) receiver(l *goLoc) {
	if b.recv != 0 && l.method && b.cur != nil && b.anc == nil && b.nthreads <= ReceiversMax {
		x := b.cur.extra()
		x.Receivers = append(x.Receivers, Receiver{Frame: b.node.depth, Addr: b.recv})
	}
	b.recv = 0
	if len(b.args) > 0 && b.cur != nil && b.anc == nil {
		x := b.cur.extra()
		for _, a := range b.args {
			x.LockArgs = append(x.LockArgs, Receiver{Frame: b.node.depth, Addr: a})
		}
	}
	b.args = b.args[:0]
}

// lockArgs keeps the address arguments of a function line (b.args) when
// the goroutine being read waits on a printed lock address and the dump
// holds at most ReceiversMax goroutines; nothing otherwise (one compare a
// frame: most goroutines wait on no lock). paren opens the arguments.
// Read: "0x" and hex digits, ended by ',', ')' or '}' (a '?' after marks
// a value the runtime may have read stale); "...", "{" and the like are
// skipped.
func (b *goBuilder) lockArgs(line []byte, paren int) {
	b.args = b.args[:0]
	if b.cur == nil || b.cur.WaitAddr == "" || b.anc != nil || b.nthreads > ReceiversMax || paren < 0 {
		return
	}
	for i := paren + 1; i+2 < len(line); i++ {
		if line[i] != '0' || line[i+1] != 'x' || line[i-1] != '(' && line[i-1] != ' ' && line[i-1] != '{' {
			continue
		}
		v, j := hexRun(line, i+2)
		if j < len(line) && (line[j] == ',' || line[j] == ')' || line[j] == '}') && v >= 0x10000 && !slices.Contains(b.args, v) {
			b.args = append(b.args, v)
		}
		i = j
	}
}

// argAddr is the first argument of a function line when it is an address
// ("0xc000123400"; a receiver is never 0): 0 otherwise, and when the dump
// holds more than ReceiversMax goroutines (nobody keeps it then). A value
// Go 1.18+ marks with '?' ("0xc000123400?", "0x0?": a register argument
// the runtime found in a stale spill slot) is not taken: the runtime says
// it may be wrong, and a wrong one would name a wrong holder. paren is
// the index of the '(' opening the arguments.
func (b *goBuilder) argAddr(line []byte, paren int) uint64 {
	if b.nthreads > ReceiversMax || paren+3 >= len(line) || line[paren+1] != '0' || line[paren+2] != 'x' {
		return 0
	}
	v, i := hexRun(line, paren+3)
	if i < len(line) && line[i] != ',' && line[i] != ')' {
		return 0
	}
	return v
}

// hexRun reads the lower-case hex digits of line from i, at most 16 (an
// address Go prints after "0x"): their value, and the index after them.
func hexRun(line []byte, i int) (uint64, int) {
	var v uint64
	end := min(len(line), i+16)
	for ; i < end; i++ {
		c := line[i]
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | uint64(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | uint64(c-'a'+10)
		default:
			return v, i
		}
	}
	return v, i
}

// foundKid is found for the location of c, a child of the current node.
func (b *goBuilder) foundKid(c *stackNode) {
	b.receiver(c.loc)
	if n := b.node; n.next != c {
		n.next = c
	}
	b.node = c
}

// slowFrame finds or makes the frame of fn at loc when the location cache
// has no frame for loc (l is nil) or one of another function. It returns
// the frame and its location entry: the cache's for loc's first function,
// cache2's (by function and location) for the others.
func (b *goBuilder) slowFrame(fn, loc []byte, colon int, l *goLoc, line []byte) (*Frame, *goLoc) {
	nameLen := len(b.funcKey)
	b.funcKey = append(b.funcKey, loc...)
	defer func() { b.funcKey = b.funcKey[:nameLen] }()
	if l2, ok := b.cache2[string(b.funcKey)]; ok {
		return l2.f, l2
	}
	n, ok := parseInt(loc[colon+1:], 0)
	if !ok {
		return nil, nil
	}
	f := b.in.frame(b.in.bytes(fn), b.in.bytes(loc[:colon]), int(n), "", "")
	l2 := &goLoc{loc: string(loc), f: f, raw: string(line),
		lock:   strings.HasPrefix(f.Func, "sync.(*") || strings.HasPrefix(f.Func, "internal/sync.(*"),
		method: strings.Contains(f.Func, ".(*")}
	b.cache2[string(b.funcKey)] = l2
	if l == nil {
		b.cache[l2.loc] = l2
	}
	return f, l2
}

// fileLoc returns "path:line" of a file line, without the tab, the "+0x"
// offset and the fp= sp= pc= suffix, and the index of its last ':' (-1 if
// none). The suffix holds no ':', so the last one ends the path (paths
// may hold spaces and, on Windows, a drive colon).
func fileLoc(line []byte) ([]byte, int) {
	loc := line[1:]
	c := bytes.LastIndexByte(loc, ':')
	if c <= 0 {
		return loc, -1
	}
	e := c + 1
	for e < len(loc) && loc[e] >= '0' && loc[e] <= '9' {
		e++
	}
	if e == c+1 {
		return loc, -1
	}
	return loc[:e], c
}

// fileLoc splits a file line into its interned path and line number.
func (b *goBuilder) fileLoc(line []byte) (string, int) {
	loc, colon := fileLoc(line)
	if colon < 0 {
		return b.in.bytes(loc), 0
	}
	n, _ := parseInt(loc[colon+1:], 0)
	return b.in.bytes(loc[:colon]), int(n)
}

// createdBy reads "created by main.main" or "created by main.start in goroutine 1".
func (b *goBuilder) createdBy(line []byte) {
	b.setCreator() // a second "created by" line (never printed): the last one wins, as before
	if b.anc != nil || b.cur == nil {
		return // an ancestor's creator: the model keeps only its frames
	}
	fn := line[len("created by "):]
	var parent int64
	if i := bytes.Index(fn, []byte(" in goroutine ")); i >= 0 {
		parent, _ = parseInt(fn[i+len(" in goroutine "):], 0)
		fn = fn[:i]
	}
	b.flushFrames()
	if string(fn) != b.lastCreator {
		b.lastCreator = b.in.bytes(fn)
	}
	b.lastCreatedBy = append(b.lastCreatedBy[:0], line...)
	b.pend = Creator{Func: b.lastCreator, Parent: parent}
	b.pending = true
}

// creatorLines are a creator's two lines and what createdBy and
// opCreatorFile read from them.
type creatorLines struct {
	by, file []byte // "created by main.main in goroutine 1", "\t/app/main.go:56 +0x8d2"
	c        Creator
	// ptr is the shared *Creator c was last given (from creators), so
	// that the next goroutine of the pool needs no lookup; nil before.
	ptr *Creator
}

// creatorSlot is the index in goBuilder.creatorLines of a creator whose
// "created by" line is by bytes long and whose file line is file: by
// their lengths and the file line's last 8 bytes (one creator function
// starts several pools from lines of one length: "main.go:56 +0x8d2",
// "main.go:60 +0x9a5").
func creatorSlot(by int, file []byte) int {
	h := uint64(by)*0x9E3779B97F4A7C15 + uint64(len(file))
	if n := len(file); n >= 8 {
		h ^= binary.LittleEndian.Uint64(file[n-8:])
	}
	return int((h * 0x9E3779B97F4A7C15) >> 58) // 6 bits: len(creatorLines) is 64
}

// sameCreator is createdBy and opCreatorFile for lines read before: e.c
// is what they read from them then, e.ptr the shared creator it became
// (checked, as lastC is: then setCreator looks nothing up; goroutines of
// several pools interleave, so lastC alone was another pool's creator
// most of the time).
func (b *goBuilder) sameCreator(e *creatorLines) {
	b.setCreator()
	b.flushFrames()
	b.pend = e.c
	b.pending = true
	if e.ptr != nil && *e.ptr == e.c {
		b.lastC = e.ptr
	}
	b.setCreator()
	e.ptr = b.lastC
}
