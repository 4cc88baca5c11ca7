package analyze

import (
	"cmp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/dumpdiff/dumpdiff/parse"
)

// The builder files every thread of every moment into a pool, a group (a
// pool's threads in one state) and a shape (a group's threads with one
// stack). It is the analysis's hot loop: 3 moments of 1M goroutines are
// 3M threads, in a few hundred distinct stacks.
//
// Each moment is built on its own (all side by side)
// into moment-local pools and groups, which are then merged in moment
// order: pools and groups are created in the order of their first thread,
// as one pass over the moments would create them. The threads' identities
// are not kept in maps: each moment lists (identity, slot) pairs, sorted
// once, and one merge over the sorted moments counts the threads that
// stayed (Group.Same, Always, Stayed) and their CPU.

// builder accumulates threads into pools and groups.
type builder struct {
	r      *Result
	opt    Options
	n      int // moments
	sigs   []Signature
	pools  map[string]*Pool
	groups map[groupKey]*Group
	ms     []*momentBuild
	// goLocks are each moment's Go lock waiters, for the contention
	// detector; nil for the JVM.
	goLocks []goMomentLocks
	// classes are the moments' classifications, kept for the detectors.
	classes *classes
}

func newBuilder(r *Result, opt Options) *builder {
	return &builder{sigs: signatureTable(opt.Extensions), r: r, opt: opt, n: len(r.Moments), pools: map[string]*Pool{},
		groups: map[groupKey]*Group{}}
}

type classified struct {
	id      int // the distinct stack's number in its moment, in order of first sight
	sig     *Signature
	via     string
	holds   string // resource held (Via.Holds), whatever the state
	rest    bool   // the state is a rest for this caller (Signature.Rest, Via.Rest)
	top     string
	culprit string
	entry   entryKey
	// task: the stack runs a task of a pool (taskFrames under its top):
	// its wait is the task's, not its own thread's loop.
	task bool
	// work: what a goroutine's wait is under (goWork): its own loop, a
	// call its body made, or a unit of work a server or runner gave it.
	work workLevel
}

// entryKey is an entry point and whether it is a health check.
type entryKey struct {
	fn    string
	probe bool
}

// threadID is a thread's identity across moments: a goroutine's id, or a
// JVM thread's name with its native id; the zero value when the format
// aggregates threads (no identity).
type threadID struct {
	n int64
	s string
}

// identity follows a thread across moments: JVM name and native id (or
// tid), goroutine id. Empty when the format aggregates threads.
func identity(rt parse.Runtime, t *parse.Thread) threadID {
	if t.Weight != 1 {
		return threadID{}
	}
	if rt == parse.RuntimeGo {
		// The goroutine id itself: no string per goroutine.
		return threadID{n: t.ID}
	}
	j := t.Java()
	switch {
	case j.NativeID != "":
		return threadID{s: t.Name() + "\x00" + j.NativeID}
	case j.TID != "":
		return threadID{s: t.Name() + "\x00" + j.TID}
	case t.ID != 0:
		return threadID{s: t.Name(), n: t.ID}
	}
	return threadID{s: t.Name()}
}

// momentBuild is one moment's part of the build.
type momentBuild struct {
	b *builder
	m int
	// fast finds the slot of a goroutine by its stack's address (see
	// slotKey); nil for the JVM, whose parsers do not share stacks.
	dump     *parse.Dump
	fast     map[**parse.Frame][]fastSlot
	labelKey string // --pool-by label:KEY's KEY; "" when not pooling by label
	lastKey  slotKey
	lastSlot *slot                  // the slot of lastKey; nil before the first goroutine
	classes  map[string]*classified // stack key (JVM detail and locks too) → classification
	shapes   map[string]int         // stack key → the stack's number (classified.id)
	key      []byte                 // reused buffer for stack keys
	pools    map[string]*localPool
	porder   []*localPool
	groups   map[groupKey]*localGroup
	gorder   []*localGroup
	slots    map[slotID]*slot
	// ids are the threads' identities in dump order: goroutine ids, or
	// for the JVM numbers given in merge (jids holds the identity).
	ids  []idEntry
	jids []threadID
	// cpus are the JVM threads' CPU times, by idEntry.pos, up to the last
	// identity with one; nil for goroutines (16 bytes an identity instead
	// of 24, sorted and kept).
	cpus   []time.Duration
	table  []*slot // slots by number (identities)
	sorted bool    // ids are sorted already
	locks  goMomentLocks
	// weights is the moment's thread count, weights included
	// (parse.Dump.ThreadCount).
	weights int
}

type localPool struct {
	name     string
	internal bool
	count    int
}

// localGroup is a group's threads at one moment, before the merge.
type localGroup struct {
	key                   groupKey
	cat                   Category
	explain, holds, resrc string
	rest                  bool
	count                 int
	nthreads              int // threads (not weights): len(threads) once filled
	threads               []*parse.Thread
	samples               []string
	shapes                []Shape
	shapeOf               map[int]int // classified.id → index in shapes
	waits                 longWaits
	parents               map[int64]bool // of waits
	minutes               map[int]int    // of waits: printed minutes → goroutines
	// lastMinutes and lastN are the latest run of goroutines printing one
	// wait, not yet in minutes: goroutines of a stack mostly print the
	// same (half of a 1M-goroutine dump prints minutes; one map
	// increment a run, not a goroutine).
	lastMinutes, lastN int
	marked             int
	markedSamples      []string
	workWaits          workWaits // of waits: those whose wait is under a call or a unit of work
	inTask             int       // threads (weights included) whose stack runs a pool's task
	pool               *localPool
	g                  *Group // after merge
}

// slot is where threads of one stack (and pool) go: a group and a shape.
type slot struct {
	lg *localGroup
	si int         // index in lg.shapes
	c  *classified // its stack's classification (culprit, entry point)
	ci int32       // culprit number (merge), for identity comparisons
	gi int32       // group number (merge)
	n  int32       // the slot's number in its moment (idEntry.slot)
}

// slotID is what decides a slot once the stack is classified.
type slotID struct {
	pool  string
	group *localGroup
	class int
}

// slotKey is what a goroutine's slot depends on, compared cheaply: the
// parser shares one Frames slice among goroutines with identical stacks,
// so the address of its first element stands for the frames; the state,
// creator and (with --pool-by label:) the label value complete it.
type slotKey struct {
	frames     **parse.Frame
	n          int
	state      string
	creator    string
	hasCreator bool
	main       bool // goroutine 1 (poolName's "main")
	label      string
	hasLabel   bool
}

// goSlotKey is a goroutine's slotKey; labelKey is --pool-by label:KEY's
// KEY ("" when not pooling by label).
func goSlotKey(t *parse.Thread, labelKey string) slotKey {
	k := slotKey{n: len(t.Frames), state: t.State, main: t.ID == 1}
	if len(t.Frames) > 0 {
		k.frames = &t.Frames[0]
	}
	if t.CreatedBy != nil {
		k.creator, k.hasCreator = t.CreatedBy.Func, true
	}
	if labelKey != "" {
		k.label, k.hasLabel = t.Labels[labelKey]
	}
	return k
}

// idEntry is one thread's identity at a moment and its slot.
type idEntry struct {
	id int64
	// pos is its position among the moment's identities. The sort is
	// stable, so equal ids stay in this order and the later one wins, as
	// in a map; pos is the entry's index in momentBuild.cpus, and lets
	// TestSortIDs see the order.
	pos  int32
	slot int32
}

// build files the threads of every moment, side by side, and merges them.
// Every moment is built at once, not GOMAXPROCS at a time: three moments
// on two cores took two rounds, the second on one core. All the builds
// are kept until the merge anyway, so this holds no more memory.
//
// With Options.Cache, a moment built by the last analysis under the same
// settings is taken from it instead (cache.go).
func (b *builder) build(in []Input) {
	b.ms = make([]*momentBuild, len(in))
	c := b.opt.Cache
	var keys []string
	if c != nil {
		keys = make([]string, len(in))
	}
	var wg sync.WaitGroup
	for i := range in {
		if c != nil {
			keys[i] = b.buildKey(in[i])
			if mb, ok := c.get(b, i, in[i], keys[i]); ok {
				b.ms[i] = mb
				continue
			}
		}
		wg.Go(func() { b.ms[i] = b.buildMoment(i, in[i]) })
	}
	wg.Wait()
	if c != nil {
		// Copies taken before the merge and the identities let go of
		// what they hold.
		frozen := make([]momentBuild, len(in))
		for i, mb := range b.ms {
			frozen[i] = *mb
			if mb.jids != nil { // numbered and sorted in place by identities
				frozen[i].ids = slices.Clone(mb.ids)
			}
			// What only the build itself reads is not kept (a ring of
			// small dumps held more in these maps than in its threads).
			f := &frozen[i]
			f.shapes, f.pools, f.groups, f.slots, f.key, f.lastSlot = nil, nil, nil, nil, nil, nil
		}
		c.keep(in, keys, frozen)
	}
	if b.r.Runtime == parse.RuntimeGo {
		b.goLocks = make([]goMomentLocks, len(in))
	}
	b.classes = &classes{rt: b.r.Runtime, sigs: b.sigs, opt: b.opt, moments: make([]momentClasses, len(in))}
	for i, mb := range b.ms {
		if b.goLocks != nil {
			b.goLocks[i] = mb.locks
		}
		// Taken before the merge lets go of them: what the detectors read
		// of a stack is what the build decided, not decided again.
		b.classes.moments[i] = momentClasses{fast: mb.fast, labelKey: mb.labelKey, byStack: mb.classes}
		b.merge(mb)
	}
}

func (b *builder) buildMoment(m int, x Input) *momentBuild {
	mb := &momentBuild{b: b, m: m, dump: x.Dump, classes: map[string]*classified{}, shapes: map[string]int{}, pools: map[string]*localPool{},
		groups: map[groupKey]*localGroup{}, slots: map[slotID]*slot{}}
	if b.r.Runtime == parse.RuntimeGo {
		mb.fast = map[**parse.Frame][]fastSlot{}
		mb.labelKey, _ = strings.CutPrefix(b.opt.PoolBy, "label:")
	}
	labels := auxLabels(x.Aux)
	ts := x.Dump.Threads
	// Two passes: the first files each thread and counts each group's
	// threads, the second fills Group.Threads, allocated at their size
	// (appending to a million-thread slice copied it twenty times).
	in := make([]int32, len(ts)) // slot number of each thread
	mb.ids = make([]idEntry, 0, len(ts))
	// Go lock waiters are gathered here, in dump order, while the thread
	// is at hand (a second visit of a million threads is a cache miss
	// each).
	var lw *lockWaits
	if b.r.Runtime == parse.RuntimeGo {
		lw = &lockWaits{byKey: map[lockKey]*lockAcc{}}
	}
	var relabeled map[int]*parse.Thread
	for i, t := range ts {
		if labels != nil && len(t.Labels) == 0 {
			if l, ok := labels[funcKey(t)]; ok {
				t = withLabels(t, l)
				if relabeled == nil {
					relabeled = map[int]*parse.Thread{}
				}
				relabeled[i] = t
			}
		}
		s := mb.add(t)
		in[i] = s.n
		mb.weights += t.Weight
		if lw != nil && s.lg.resrc == "lock" {
			lw.add(s, t)
		}
	}
	mb.table = make([]*slot, len(mb.slots))
	for _, s := range mb.slots {
		mb.table[s.n] = s
	}
	for _, lg := range mb.gorder {
		lg.threads = make([]*parse.Thread, 0, lg.nthreads)
	}
	for i, t := range ts {
		if relabeled != nil && relabeled[i] != nil {
			t = relabeled[i]
		}
		lg := mb.table[in[i]].lg
		lg.threads = append(lg.threads, t)
	}
	if lw != nil {
		mb.locks = lw.done(ts, in, mb.table)
	}
	if mb.jids == nil {
		// Goroutine ids are final: sorted here, side by side with the other
		// moments (JVM identities are numbered across moments first).
		mb.ids = sortIDs(mb.ids)
		mb.sorted = true
	}
	return mb
}

// slotOf finds t's slot: by its stack's address for goroutines, else by
// classifying its stack (cached by the stack's text).
func (mb *momentBuild) slotOf(t *parse.Thread) *slot {
	var k slotKey
	if mb.fast != nil {
		k = goSlotKey(t, mb.labelKey)
		if mb.lastSlot != nil && k == mb.lastKey { // goroutines come in runs of one stack
			return mb.lastSlot
		}
		// By the stack's address (a pointer hashes cheaply), then the few
		// slots of that stack (its states, creators, labels) compared.
		for _, e := range mb.fast[k.frames] {
			if e.key == k {
				mb.lastKey, mb.lastSlot = k, e.s
				return e.s
			}
		}
	}
	s := mb.slowSlot(t)
	if mb.fast != nil {
		mb.fast[k.frames] = append(mb.fast[k.frames], fastSlot{k, s})
		mb.lastKey, mb.lastSlot = k, s
	}
	return s
}

// fastSlot is a slot found for a slotKey.
type fastSlot struct {
	key slotKey
	s   *slot
}

func (mb *momentBuild) slowSlot(t *parse.Thread) *slot {
	b := mb.b
	rt := b.r.Runtime
	pname, internal := poolName(rt, t, b.opt)
	lp := mb.pools[pname]
	if lp == nil {
		lp = &localPool{name: pname, internal: internal}
		mb.pools[pname] = lp
		mb.porder = append(mb.porder, lp)
	}
	c := mb.classify(t)
	state, cat, explain := "unclassified", Other, "no known signature: see the top frame"
	switch {
	case c.sig != nil:
		state, cat, explain = c.sig.ID, c.sig.Category, c.sig.Explain
	case rt == parse.RuntimeGo && t.State == "" && b.r.Moments[mb.m].Format == parse.FormatGoDebug1:
		// debug=1 prints neither the wait reason nor the runtime frames: a
		// stack whose own frames name no known wait says nothing of its state.
		state, explain = "unknown", "the debug=1 profile prints no wait state and no known frame here: take debug=2 or the proto"
		if parse.HiddenRuntimeFrames(t) > 0 {
			// Its record's PCs hold frames above the first printed one:
			// the runtime's, which debug=1 hides; parked there.
			explain = "parked in the runtime under its first frame, which the debug=1 profile hides (a channel operation or a select, most often): take debug=2 or the proto to tell which"
		}
	}
	gk := groupKey{pname, state, c.via}
	lg := mb.groups[gk]
	if lg == nil {
		lg = &localGroup{key: gk, cat: cat, explain: explain, holds: c.holds, rest: c.rest, pool: lp, shapeOf: map[int]int{}}
		if c.sig != nil {
			lg.resrc = c.sig.Resource
		}
		mb.groups[gk] = lg
		mb.gorder = append(mb.gorder, lg)
	}
	id := slotID{pname, lg, c.id}
	if s := mb.slots[id]; s != nil {
		return s
	}
	si, ok := lg.shapeOf[c.id]
	if !ok {
		si = len(lg.shapes)
		lg.shapeOf[c.id] = si
		lg.shapes = append(lg.shapes, Shape{Stack: t, Culprit: c.culprit, Entry: FrameCount{Func: c.entry.fn, Probe: c.entry.probe}, top: c.top})
	}
	s := &slot{lg: lg, si: si, c: c, n: int32(len(mb.slots))}
	mb.slots[id] = s
	return s
}

// classify classifies t's stack once per distinct stack (state, frames
// and creator) in the moment.
func (mb *momentBuild) classify(t *parse.Thread) *classified {
	var shape int
	mb.key, shape = appendClassKey(mb.key[:0], t)
	if c, ok := mb.classes[string(mb.key)]; ok { // no allocation on a hit
		return c
	}
	id, ok := mb.shapes[string(mb.key[:shape])]
	if !ok {
		id = len(mb.shapes)
		mb.shapes[string(mb.key[:shape])] = id
	}
	rt := mb.b.r.Runtime
	c := &classified{id: id, sig: classifyIn(mb.b.sigs, rt, t)}
	c.via, c.holds, c.rest = viaFor(mb.b.sigs, c.sig, t)
	c.entry.fn, c.entry.probe = entryPoint(rt, t)
	if len(t.Frames) > 0 {
		c.top = normalizeGeneric(t.Frames[0].Func)
	}
	c.culprit = FrameString(culprit(rt, t))
	if c.culprit == "" {
		c.culprit = FrameString(jdkLockCaller(rt, t, c.sig)) // the JDK taking its own lock: who took it
	}
	if c.culprit == "" && c.sig != nil && !c.rest && mb.dump != nil && mb.dump.Cut {
		c.culprit = FrameString(cutCaller(rt, t)) // a paste cut above the application: the call it shows
	}
	c.task = rt == parse.RuntimeJVM && inPoolTask(t)
	if rt == parse.RuntimeGo {
		c.work = goWork(t, mb.b.opt.roleTable().GoWork)
		// A known client's request called straight from the goroutine's
		// own function (a refresh loop calling net/rpc's Call) is a call
		// its function made, as under a helper: the request waits for its
		// peer. A goroutine with no frame of the application (a client's
		// own reader) stays in its own loop.
		if c.work == ownLoop && c.sig != nil && !c.rest && c.sig.Resource == "peer-reply" && c.via != "" && c.culprit != "" {
			c.work = underCall
		}
		// A stack a person's cut ended above its goroutine's own function
		// (grep's context, a paste: no "created by", and not main's): the
		// frame that waits may be under a call the cut took away, so it
		// is not read as the goroutine's own loop.
		if c.work == ownLoop && mb.dump != nil && mb.dump.Cut && t.CreatedBy == nil && t.ID != 1 && len(t.Frames) > 0 {
			c.work = underCall
		}
		// The same stack in a paste that lost its tail in a copy (not a
		// cut of the person's: Cut is false) whose goroutines they chose
		// (no goroutine 1: pastedDump) is under a call only where the
		// frames kept show one: a library's wait called by another
		// library (a codec decoding a reply from a multiplexed stream),
		// not its own loop (consumerBelow).
		if c.work == ownLoop && mb.dump != nil && !mb.dump.Cut && t.CreatedBy == nil && t.ID > 1 && consumerBelow(t) && pastedDump(mb.dump) {
			c.work = underCall
		}
	}
	mb.classes[string(mb.key)] = c
	return c
}

// appendClassKey appends the key a stack is classified by to dst: its
// state and frames, its creator, and what a JVM thread's classification
// reads beyond them. The shape (identical stacks) is the stack's and
// creator's, dst[:shape] of the result.
func appendClassKey(dst []byte, t *parse.Thread) (key []byte, shape int) {
	dst = appendStackKey(dst, t)
	if t.CreatedBy != nil {
		// The entry point names the creator when it is the application's:
		// one stack started by two creators is two classifications.
		dst = append(append(dst, '\n', 'c'), t.CreatedBy.Func...)
	}
	shape = len(dst)
	return appendJVMKey(dst, t), shape
}

// appendStackKey appends the identity of a stack for caching (state and
// frames) to dst. It reuses the caller's buffer and formats with strconv.
func appendStackKey(dst []byte, t *parse.Thread) []byte {
	dst = append(dst, t.State...)
	for _, f := range t.Frames {
		dst = append(dst, '\n')
		dst = append(dst, f.Func...)
		if f.Line > 0 {
			dst = append(dst, ':')
			dst = strconv.AppendInt(dst, int64(f.Line), 10)
		}
	}
	return dst
}

// appendJVMKey appends what a JVM thread's classification reads beyond its
// stack: the state detail and the lock lines' kinds and classes (not their
// addresses). Signature rows (Details, LockKinds) and vias (the monitor's
// class) read them; a cache keyed without them classified a stack by
// whichever thread came first.
func appendJVMKey(dst []byte, t *parse.Thread) []byte {
	if t.JVM != nil && t.StateDetail != "" {
		dst = append(append(dst, "\nd "...), t.StateDetail...)
	}
	for _, l := range t.Locks() {
		dst = append(append(append(dst, "\nl "...), l.Kind...), ' ')
		dst = append(dst, l.Class...)
	}
	return dst
}

// add files t and returns its slot.
func (mb *momentBuild) add(t *parse.Thread) *slot {
	rt := mb.b.r.Runtime
	s := mb.slotOf(t)
	w := t.Weight
	if w <= 0 {
		w = 1
	}
	lg := s.lg
	lg.pool.count += w
	lg.count += w
	lg.nthreads++
	if s.c.task {
		lg.inTask += w
	}
	sh := &lg.shapes[s.si]
	sh.Count += w
	samples := mb.b.opt.Samples
	if len(sh.Samples) < samples {
		sh.Samples = append(sh.Samples, threadLabel(rt, t))
	}
	if len(lg.samples) < samples {
		lg.samples = append(lg.samples, threadLabel(rt, t))
	}
	if rt == parse.RuntimeGo {
		mb.headerFacts(lg, t, w, s.c.work)
	}
	id := identity(rt, t)
	if id == (threadID{}) {
		return s
	}
	if rt != parse.RuntimeGo {
		mb.jids = append(mb.jids, id)
	}
	if t.JVM != nil && t.CPU != 0 {
		// cpus holds an entry for every identity up to the last one with
		// a CPU time (a JVM thread can come in a Go analysis too, when a
		// caller mixes runtimes).
		mb.cpus = append(mb.cpus, make([]time.Duration, len(mb.ids)-len(mb.cpus))...)
		mb.cpus = append(mb.cpus, t.CPU)
	}
	mb.ids = append(mb.ids, idEntry{id: id.n, pos: int32(len(mb.ids)), slot: s.n})
	return s
}

// headerFacts counts what the leak detector asks of a goroutine's header:
// its printed wait and the runtime's leaked mark.
func (mb *momentBuild) headerFacts(lg *localGroup, t *parse.Thread, w int, work workLevel) {
	if t.WaitMinutes >= LeakWaitMinutes {
		if work > ownLoop {
			lg.workWaits.add(work, t, w)
		}
		lw := &lg.waits
		if lw.Goroutines == 0 || t.WaitMinutes < lw.MinMinutes {
			lw.MinMinutes = t.WaitMinutes
		}
		lw.MaxMinutes = max(lw.MaxMinutes, t.WaitMinutes)
		lw.Goroutines += w
		if t.WaitMinutes != lg.lastMinutes {
			lg.flushMinutes()
			lg.lastMinutes = t.WaitMinutes
		}
		lg.lastN += w
		if t.CreatedBy != nil && t.CreatedBy.Parent != 0 {
			if lg.parents == nil {
				lg.parents = map[int64]bool{}
			}
			lg.parents[t.CreatedBy.Parent] = true
		}
	}
	if isLeaked(t, mb.dump) {
		lg.marked += w
		if len(lg.markedSamples) < 5 {
			lg.markedSamples = append(lg.markedSamples, threadLabel(parse.RuntimeGo, t))
		}
	}
}

// flushMinutes adds the latest run of one printed wait to lg.minutes.
func (lg *localGroup) flushMinutes() {
	if lg.lastN == 0 {
		return
	}
	if lg.minutes == nil {
		lg.minutes = map[int]int{}
	}
	lg.minutes[lg.lastMinutes] += lg.lastN
	lg.lastN = 0
}

// sortedMinutes is a group's histogram of printed waits, fewest minutes
// first; nil when none is printed.
func sortedMinutes(h map[int]int) []minuteCount {
	if len(h) == 0 {
		return nil
	}
	out := make([]minuteCount, 0, len(h))
	for m, n := range h {
		out = append(out, minuteCount{m, n})
	}
	slices.SortFunc(out, func(a, b minuteCount) int { return a.Minutes - b.Minutes })
	return out
}

// merge adds one moment's pools and groups to the result, creating them in
// the order of their first thread.
func (b *builder) merge(mb *momentBuild) {
	m := mb.m
	for _, lp := range mb.porder {
		p := b.pools[lp.name]
		if p == nil {
			p = &Pool{Name: lp.name, Internal: lp.internal, Counts: make([]int, b.n)}
			b.pools[lp.name] = p
			b.r.Pools = append(b.r.Pools, p)
		}
		p.Counts[m] += lp.count
	}
	for _, lg := range mb.gorder {
		g := b.groups[lg.key]
		if g == nil {
			g = &Group{Pool: lg.key.pool, State: lg.key.state, Category: lg.cat, Via: lg.key.via, Explain: lg.explain,
				Holds: lg.holds, Rest: lg.rest, Resource: lg.resrc,
				Counts: make([]int, b.n), Samples: make([][]string, b.n), Stacks: make([]*parse.Thread, b.n),
				Threads: make([][]*parse.Thread, b.n), Shapes: make([][]Shape, b.n),
				waits: make([]longWaits, b.n), marked: make([]int, b.n), markedSamples: make([][]string, b.n), inTask: make([]int, b.n)}
			b.groups[lg.key] = g
			p := b.pools[lg.key.pool]
			p.States = append(p.States, g)
		}
		g.Counts[m] += lg.count
		g.inTask[m] += lg.inTask
		g.Threads[m] = lg.threads
		g.Shapes[m] = lg.shapes
		g.Samples[m] = lg.samples
		g.waits[m] = lg.waits
		g.waits[m].parents = len(lg.parents)
		lg.flushMinutes()
		g.waits[m].minutes = sortedMinutes(lg.minutes)
		g.marked[m], g.markedSamples[m] = lg.marked, lg.markedSamples
		if lg.workWaits.n > 0 {
			if g.workWaits == nil {
				g.workWaits = make([]workWaits, b.n)
			}
			g.workWaits[m] = lg.workWaits
		}
		if len(lg.threads) > 0 {
			g.Stacks[m] = lg.threads[0]
		}
		lg.g = g
		lg.shapeOf = nil
	}
	mb.fast, mb.classes, mb.shapes, mb.groups, mb.pools = nil, nil, nil, nil, nil
}

// threadLabel names a thread in samples: the JVM name, or "goroutine N";
// an unnamed JVM thread (a virtual thread is unnamed unless the program
// names it) by its thread id: "virtual thread #288", "thread #31".
func threadLabel(rt parse.Runtime, t *parse.Thread) string {
	if rt == parse.RuntimeJVM && t.Name() == "" && t.ID != 0 {
		if t.JVM != nil && t.JVM.Virtual {
			return "virtual thread #" + strconv.FormatInt(t.ID, 10)
		}
		return "thread #" + strconv.FormatInt(t.ID, 10)
	}
	if rt == parse.RuntimeGo || t.Name() == "" {
		if t.ID != 0 {
			return "goroutine " + strconv.FormatInt(t.ID, 10)
		}
		if t.Weight > 1 {
			return strconv.Itoa(t.Weight) + aggregateSuffix
		}
		return "goroutine"
	}
	return t.Name()
}

// aggregateSuffix ends the label of a sample that stands for several
// goroutines (a debug=1 record or a proto sample of weight N).
const aggregateSuffix = " goroutines"

// SampleWeight is how many goroutines or threads a sample label from
// threadLabel stands for: N for "N goroutines" (a debug=1 record or a proto
// sample aggregates them), else 1. A report counting "+N more" beside the
// samples it shows needs it, so the label's format is read where it is made.
func SampleWeight(label string) int {
	if w, ok := strings.CutSuffix(label, aggregateSuffix); ok {
		if v, err := strconv.Atoi(w); err == nil && v > 0 {
			return v
		}
	}
	return 1
}

func (b *builder) finish() {
	for _, p := range b.r.Pools {
		for _, c := range p.Counts {
			p.Max = max(p.Max, c)
		}
		for _, g := range p.States {
			tops, culps, ents := sumShapes(g)
			g.TopFrame = mostCommonAll(tops)
			g.Culprit = mostCommonAll(culps)
			g.Culprits = ranked(culps[peakAt(g.Counts)])
			for _, shs := range g.Shapes {
				sort.SliceStable(shs, func(i, j int) bool { return shs[i].Count > shs[j].Count })
			}
			g.Entries = make([][]FrameCount, b.n)
			for m, e := range ents {
				g.Entries[m] = rankedEntries(e)
			}
		}
	}
	b.identities()
	b.connectionReaders()
	for _, p := range b.r.Pools {
		sort.SliceStable(p.States, func(i, j int) bool {
			a, c := maxOf(p.States[i].Counts), maxOf(p.States[j].Counts)
			if a != c {
				return a > c
			}
			return p.States[i].State+p.States[i].Via < p.States[j].State+p.States[j].Via
		})
	}
	sort.SliceStable(b.r.Pools, func(i, j int) bool {
		a, c := b.r.Pools[i], b.r.Pools[j]
		if a.Internal != c.Internal {
			return !a.Internal
		}
		da, dc := change(a.Counts), change(c.Counts)
		if da != dc {
			return da > dc
		}
		if a.Max != c.Max {
			return a.Max > c.Max
		}
		return a.Name < c.Name
	})
}

// sumShapes returns g's per-moment top frame, culprit and entry counts,
// summed from its shapes (threads with identical stacks share them).
func sumShapes(g *Group) (tops, culps []map[string]int, ents []map[entryKey]int) {
	n := len(g.Shapes)
	tops, culps, ents = make([]map[string]int, n), make([]map[string]int, n), make([]map[entryKey]int, n)
	for m, shs := range g.Shapes {
		for _, sh := range shs {
			if tops[m] == nil {
				tops[m] = map[string]int{}
			}
			tops[m][sh.top] += sh.Count
			if sh.Culprit != "" {
				if culps[m] == nil {
					culps[m] = map[string]int{}
				}
				culps[m][sh.Culprit] += sh.Count
			}
			if sh.Entry.Func != "" {
				if ents[m] == nil {
					ents[m] = map[entryKey]int{}
				}
				ents[m][entryKey{sh.Entry.Func, sh.Entry.Probe}] += sh.Count
			}
		}
	}
	return tops, culps, ents
}

// at is where one thread is at one moment: its group and culprit (as
// numbers), and its CPU time (0 if not printed).
type at struct {
	g, c int32
	cpu  time.Duration
}

// identities follows every thread across the moments and sets each
// group's Same, Always, Stayed, CPU and CPUThreads. Each moment's
// identities are sorted once; one merge over the sorted moments then
// visits each identity with where it is at every moment. (Maps of
// identities per group and moment were a fifth of the analysis at 3×1M
// goroutines.)
func (b *builder) identities() {
	n := b.n
	var groups []*Group
	gnum := map[*Group]int32{}
	cnum := map[string]int32{}
	jnum := map[threadID]int64{}
	for _, mb := range b.ms {
		for _, s := range mb.table {
			gi, ok := gnum[s.lg.g]
			if !ok {
				gi = int32(len(groups))
				gnum[s.lg.g] = gi
				groups = append(groups, s.lg.g)
			}
			ci, ok := cnum[s.c.culprit]
			if !ok {
				ci = int32(len(cnum))
				cnum[s.c.culprit] = ci
			}
			s.gi, s.ci = gi, ci
		}
		// JVM identities are strings: numbered alike in every moment.
		for i, id := range mb.jids {
			k, ok := jnum[id]
			if !ok {
				k = int64(len(jnum) + 1)
				jnum[id] = k
			}
			mb.ids[i].id = k
		}
		if !mb.sorted {
			mb.ids = sortIDs(mb.ids)
		}
		mb.slots, mb.jids = nil, nil
	}
	start := make([]int, len(groups))
	for i, g := range groups {
		start[i] = sameStart(g.Counts)
	}
	// The merge is split by identity into ranges, merged side by side (at
	// 1M goroutines a moment it was a tenth of a second on one core): an
	// identity's entries in every moment fall in one range, and what the
	// followers count are sums.
	bounds := idRanges(b.ms, idRangeParts(), idRangeMin)
	fs := make([]*follower, len(bounds)-1)
	var wg sync.WaitGroup
	for p := range fs {
		// What a follower writes for every identity is its own, each slice
		// with a cache line's room on either side: the followers' small
		// slices, allocated side by side, shared cache lines, and the
		// merge on two cores took four times the CPU of one and longer.
		g := len(groups)
		f := &follower{n: n, start: start, same: padded[int](g), always: padded[int](g), stayed: padded[int](g), ran: padded[int](g),
			cpu: padded[time.Duration](g), cpuThreads: padded[int](g), sets: padded[[]at](n)}
		for m := range f.sets {
			f.sets[m] = padded[at](8)[:0]
		}
		fs[p] = f
		wg.Go(func() { f.merge(b.ms, bounds[p], bounds[p+1]) })
	}
	wg.Wait()
	for i, g := range groups {
		for _, f := range fs {
			g.Same += f.same[i]
			g.Always += f.always[i]
			g.Stayed += f.stayed[i]
			g.StayedRan += f.ran[i]
			g.CPU += f.cpu[i]
			g.CPUThreads += f.cpuThreads[i]
		}
	}
	for _, mb := range b.ms {
		mb.ids, mb.table, mb.cpus = nil, nil, nil
	}
}

// padded returns a slice of n zero values with a cache line's room on
// either side, so that no other object's writes share its cache lines.
func padded[T any](n int) []T {
	var zero T
	pad := 64/max(1, int(unsafe.Sizeof(zero))) + 1
	return make([]T, n+2*pad)[pad : pad+n : pad+n]
}

// idRangeMin is how many identities a range of the merge is worth: fewer
// are merged faster than a goroutine starts. idRangeParts is how many
// ranges at most. Variables for tests.
var (
	idRangeMin   = 1 << 16
	idRangeParts = func() int { return runtime.GOMAXPROCS(0) }
)

// idRanges splits the moments' sorted identities into at most parts
// ranges of at least minPart identities (all moments counted), cut
// between identities: range p is, in every moment m, its entries from
// bounds[p][m] to bounds[p+1][m].
func idRanges(ms []*momentBuild, parts, minPart int) [][]int {
	total, big := 0, 0
	for m, mb := range ms {
		total += len(mb.ids)
		if len(mb.ids) > len(ms[big].ids) {
			big = m
		}
	}
	parts = max(1, min(parts, total/max(minPart, 1)))
	bounds := make([][]int, 0, parts+1)
	bounds = append(bounds, make([]int, len(ms)))
	for p := 1; p < parts; p++ {
		// The range ends before the identity at the largest moment's p-th
		// quantile, in every moment (parts > 1: there is a largest).
		ids := ms[big].ids
		cut := ids[p*len(ids)/parts].id
		b := make([]int, len(ms))
		for m, mb := range ms {
			b[m], _ = slices.BinarySearchFunc(mb.ids, cut, func(e idEntry, id int64) int { return cmp.Compare(e.id, id) })
		}
		bounds = append(bounds, b)
	}
	end := make([]int, len(ms))
	for m, mb := range ms {
		end[m] = len(mb.ids)
	}
	return append(bounds, end)
}

// merge follows every identity whose entries are, in each moment m, from
// from[m] to to[m] of the moment's sorted identities.
func (f *follower) merge(ms []*momentBuild, from, to []int) {
	heads := padded[int](len(from)) // written for every identity: padded too
	copy(heads, from)
	seen := padded[int32](16)[:0]
	for {
		cur, any := int64(0), false
		for m, mb := range ms {
			if heads[m] < to[m] {
				if id := mb.ids[heads[m]].id; !any || id < cur {
					cur, any = id, true
				}
			}
		}
		if !any {
			return
		}
		for m, mb := range ms {
			set := f.sets[m][:0]
			for ; heads[m] < to[m] && mb.ids[heads[m]].id == cur; heads[m]++ {
				e := mb.ids[heads[m]]
				s := mb.table[e.slot]
				var cpu time.Duration
				if int(e.pos) < len(mb.cpus) {
					cpu = mb.cpus[e.pos]
				}
				set = place(set, at{g: s.gi, c: s.ci, cpu: cpu})
			}
			f.sets[m] = set
		}
		seen = f.follow(seen)
	}
}

// CPURanMin is the CPU time a thread must gain between two moments to have
// run between them. It protects a wait from the print's rounding and a
// park's spurious wake-up: HotSpot prints cpu= to the hundredth of a
// millisecond, a thread blocked in one read or park gains none, and a
// wake-up that parks again costs microseconds; a request served between
// two dumps (parse, answer, read the next) costs tens of microseconds and
// more. A variable for tests.
var CPURanMin = 50 * time.Microsecond

// ranBetween: the thread being followed printed its CPU at every moment it
// was in group g (two at least) and gained CPURanMin or more between each
// two of them: it ran between the dumps, left its wait and came back to
// the same place (a server's connection thread answering requests between
// reads), rather than staying in one wait.
func ranBetween(sets [][]at, g int32) bool {
	var prev time.Duration
	steps := 0
	for _, set := range sets {
		x, in := find(set, g)
		if !in {
			continue
		}
		if x.cpu <= 0 {
			return false
		}
		if prev > 0 {
			if x.cpu-prev < CPURanMin {
				return false
			}
			steps++
		}
		prev = x.cpu
	}
	return steps > 0
}

// place records that a thread is at a in one moment's set: a second
// thread with the same identity in the same group replaces the culprit
// (the later wins) and, when it printed one, the CPU time.
func place(set []at, a at) []at {
	for i := range set {
		if set[i].g == a.g {
			set[i].c = a.c
			if a.cpu > 0 {
				set[i].cpu = a.cpu
			}
			return set
		}
	}
	return append(set, a)
}

// sameStart is the moment Group.Same counts from: the first moment a group
// rose above its first count; -1 when it never rose or rose only at the
// last moment (nothing to follow it into).
func sameStart(c []int) int {
	for i := 1; i < len(c); i++ {
		if c[i] > c[0] {
			if i == len(c)-1 {
				return -1
			}
			return i
		}
	}
	return -1
}

// follower counts, per group number, the threads that stayed.
type follower struct {
	n                    int
	start                []int // sameStart per group
	same, always, stayed []int
	ran                  []int // of stayed, those that ran between every two moments (ranBetween)
	cpu                  []time.Duration
	cpuThreads           []int
	sets                 [][]at // per moment, where the identity being followed is
}

func find(set []at, g int32) (at, bool) {
	for _, a := range set {
		if a.g == g {
			return a, true
		}
	}
	return at{}, false
}

// follow counts one identity, at f.sets; seen is room for the groups it
// was in (returned, to be given again).
func (f *follower) follow(seen []int32) []int32 {
	n, sets := f.n, f.sets
	if n >= 2 {
		// Always: in the group, with one culprit, at every moment.
		for _, a := range sets[0] {
			ok := true
			for m := 1; m < n && ok; m++ {
				x, in := find(sets[m], a.g)
				ok = in && x.c == a.c
			}
			if ok {
				f.always[a.g]++
			}
		}
		// Stayed: at the last two moments with one culprit, and with it at
		// every moment since it first came (it did not leave and return).
		for _, a := range sets[n-1] {
			if x, in := find(sets[n-2], a.g); !in || x.c != a.c {
				continue
			}
			ok := true
			for m := n - 3; m >= 0 && ok; m-- {
				x, in := find(sets[m], a.g)
				if !in {
					for e := m - 1; e >= 0 && ok; e-- {
						_, was := find(sets[e], a.g)
						ok = !was
					}
					break
				}
				ok = x.c == a.c
			}
			if ok {
				f.stayed[a.g]++
				if ranBetween(sets, a.g) {
					f.ran[a.g]++
				}
			}
		}
	}
	// Same: in the group from the moment it rose to the last moment.
	for m := 1; m <= n-2; m++ {
		for _, a := range sets[m] {
			if f.start[a.g] != m {
				continue
			}
			ok := true
			for e := m + 1; e < n && ok; e++ {
				_, ok = find(sets[e], a.g)
			}
			if ok {
				f.same[a.g]++
			}
		}
	}
	// CPU: between the first and the last moment it printed one, in each
	// group it was in.
	seen = seen[:0]
	for _, set := range sets {
		for _, a := range set {
			if slices.Contains(seen, a.g) {
				continue
			}
			seen = append(seen, a.g)
			first, last := -1, -1
			var v0, v1 time.Duration
			for m := range n {
				if x, in := find(sets[m], a.g); in && x.cpu > 0 {
					if first < 0 {
						first, v0 = m, x.cpu
					}
					last, v1 = m, x.cpu
				}
			}
			if first >= 0 && last > first {
				f.cpuThreads[a.g]++
				if v1 > v0 {
					f.cpu[a.g] += v1 - v0
				}
			}
		}
	}
	return seen
}

// ranked returns the entries of m, most common first.
func ranked(m map[string]int) []FrameCount {
	out := make([]FrameCount, 0, len(m))
	for f, c := range m {
		out = append(out, FrameCount{Func: f, Count: c})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Func < out[j].Func
	})
	return out
}

// rankedEntries returns entry points, most common first.
func rankedEntries(m map[entryKey]int) []FrameCount {
	if len(m) == 0 {
		return nil
	}
	out := make([]FrameCount, 0, len(m))
	for e, c := range m {
		out = append(out, FrameCount{Func: e.fn, Count: c, Probe: e.probe})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Func < out[j].Func
	})
	return out
}

// sortIDs sorts a moment's identities by id, keeping equal ids in their
// order (pos): a stable LSD radix sort on the id's bytes, skipping the
// bytes every id shares (goroutine ids fill few), instead of a comparison
// sort (a tenth of the analysis at 1M goroutines). It may return the
// scratch slice instead of ids.
func sortIDs(ids []idEntry) []idEntry {
	if len(ids) < 256 {
		slices.SortStableFunc(ids, func(a, b idEntry) int {
			switch {
			case a.id < b.id:
				return -1
			case a.id > b.id:
				return 1
			}
			return 0
		})
		return ids
	}
	const flip = 1 << 63 // signed order as unsigned
	var or, and uint64 = 0, ^uint64(0)
	inOrder := true
	for i, e := range ids {
		u := uint64(e.id) ^ flip
		or |= u
		and &= u
		if i > 0 && e.id < ids[i-1].id {
			inOrder = false
		}
	}
	// Already in order: JVM identities are numbered in the order first
	// seen, so the first moment's are. (Goroutines are not: the runtime
	// lists them in runs of increasing ids that resume where earlier runs
	// stopped, 25 runs in a 100,000-goroutine dump, too far apart for an
	// insertion sort, which measured slower than the radix sort there.)
	if inOrder {
		return ids
	}
	var tmp []idEntry
	for shift := uint(0); shift < 64; shift += 8 {
		if (or^and)>>shift&0xff == 0 {
			continue // every id has this byte
		}
		if tmp == nil {
			tmp = make([]idEntry, len(ids))
		}
		var count [256]int
		for _, e := range ids {
			count[(uint64(e.id)^flip)>>shift&0xff]++
		}
		sum := 0
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, e := range ids {
			b := (uint64(e.id) ^ flip) >> shift & 0xff
			tmp[count[b]] = e
			count[b]++
		}
		ids, tmp = tmp, ids
	}
	return ids
}
