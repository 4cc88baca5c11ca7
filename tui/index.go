package tui

import (
	"strconv"
	"strings"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/parse"
	"github.com/dumpdiff/dumpdiff/report"
)

// index is what the TUI computes from a Result: in the load command, the
// search text for the filter and how much each pool moved; on the first
// state pane that asks, where every thread is at every moment (placeAt).
// The Result itself is read-only.
type index struct {
	r *analyze.Result
	// full are the moment labels ("#1" when a moment has none): what a
	// sentence, a detail or an export names a moment by. labels are the
	// same without their long common prefix ("app.log#1", "app.log#2" →
	// "#1", "#2"; shortLabels), for lists of every moment and for a
	// table's headers when the full labels do not fit (fitMoments).
	full, labels []string
	pools        []*poolInfo
	byPool       map[*analyze.Pool]*poolInfo
	byName       map[string]*poolInfo
	groups       map[*analyze.Group]*groupInfo
	// Where each identified thread is at each moment (placeAt), made on
	// first use: only a state pane's presence marks read them. named maps
	// JVM threads to their groups per moment; dump and inGroup are id sets
	// of goroutines per moment and per group and moment (3M goroutines in
	// a few megabits instead of 3M map entries). Only the event loop
	// reads the index (Update and View), so nothing is locked.
	named []map[threadKey]*analyze.Group
	// placed[k] finds a thread of moment k by identity, whatever its
	// pool and state (a compare that follows one thread), made on first use.
	placed  []map[threadKey]placement
	dump    []*idSet
	inGroup map[groupAt]*idSet
	// internalName is how the folded internal pools are called.
	internalName string
	// unit is what a thread is called: "goroutine" for Go, else "thread".
	unit string
	// target names the captured process when every moment comes from the
	// same one ("api-1"); "" otherwise. Labels then leave it out.
	target string
	// nth and of place this analysis among the targets the TUI shows
	// (1-based); of is 1 for a single analysis.
	nth, of int
	// doc is the analysis's report in no format, made on first use (a
	// finding's pane reads its words from it): built once, like the
	// reports' own.
	doc *report.Document
}

// poolInfo is a pool with what the overview sorts and filters on.
type poolInfo struct {
	p     *analyze.Pool
	moved int // largest count minus smallest count over the moments
	// severity is the most severe finding about the pool, -1 when none:
	// pools with a finding are listed first whatever the sort.
	severity int
	hay      string // lower-case search text: name and every group's hay
	groups   []*groupInfo
}

// groupInfo is a group with its search text.
type groupInfo struct {
	g    *analyze.Group
	pool *poolInfo
	// own is the lower-case text of the group itself: pool, state, via,
	// category, top frame, culprit. When it matches, every thread matches.
	own string
	// hay is own plus every distinct thread name, thread state and frame
	// function of the group's threads at any moment.
	hay string
}

// threadKey is a thread's identity across dumps: JVM name and nid, or the
// goroutine id.
type threadKey struct {
	name, nid string
	id        int64
}

// keyOf returns t's identity; ok is false when the format prints none
// (aggregated goroutine profiles).
func keyOf(t *parse.Thread) (threadKey, bool) {
	if j := t.JVM; j != nil && (j.Name != "" || j.NativeID != "") {
		return threadKey{name: j.Name, nid: j.NativeID}, true
	}
	if t.ID != 0 {
		return threadKey{id: t.ID}, true
	}
	return threadKey{}, false
}

// newIndex walks every thread of r once (the only pass over all threads).
func newIndex(r *analyze.Result) *index {
	ix := &index{
		r:       r,
		byPool:  make(map[*analyze.Pool]*poolInfo, len(r.Pools)),
		byName:  make(map[string]*poolInfo, len(r.Pools)),
		groups:  make(map[*analyze.Group]*groupInfo),
		named:   make([]map[threadKey]*analyze.Group, len(r.Moments)),
		placed:  make([]map[threadKey]placement, len(r.Moments)),
		dump:    make([]*idSet, len(r.Moments)),
		inGroup: map[groupAt]*idSet{},
		nth:     1,
		of:      1,
	}
	if len(r.Moments) > 0 {
		ix.target = r.Moments[0].Target
		for _, m := range r.Moments {
			if m.Target != ix.target {
				ix.target = ""
			}
		}
	}
	ix.internalName, ix.unit = "JVM internal threads", "thread"
	if r.Runtime == parse.RuntimeGo {
		ix.internalName, ix.unit = "Go runtime goroutines", "goroutine"
	}
	for i, m := range r.Moments {
		l := m.Label
		if l == "" {
			l = "#" + itoa(i+1)
		}
		if m.Target != "" && ix.target == "" {
			l = m.Target + "/" + l
		}
		ix.full = append(ix.full, l)
	}
	ix.labels = shortLabels(ix.full)
	worst := map[string]int{}
	for _, f := range r.Findings {
		if s, ok := worst[f.Pool]; !ok || int(f.Severity) > s {
			worst[f.Pool] = int(f.Severity)
		}
	}
	for _, p := range r.Pools {
		pi := &poolInfo{p: p, moved: movedOf(p), severity: -1}
		if s, ok := worst[p.Name]; ok {
			pi.severity = s
		}
		var hay strings.Builder
		hay.WriteString(strings.ToLower(p.Name))
		for _, g := range p.States {
			gi := newGroupInfo(g)
			gi.pool = pi
			pi.groups = append(pi.groups, gi)
			ix.groups[g] = gi
			hay.WriteByte(0)
			hay.WriteString(gi.hay)
		}
		pi.hay = hay.String()
		ix.pools = append(ix.pools, pi)
		ix.byPool[p] = pi
		if _, dup := ix.byName[p.Name]; !dup {
			ix.byName[p.Name] = pi
		}
	}
	return ix
}

// placeAt tells where the thread with identity key is at moment k: in
// group g, and in the dump at all. Goroutines (identified by id) are looked
// up in id sets, JVM threads (by name and nid) in a map; both are made on
// first use.
func (ix *index) placeAt(k int, key threadKey, g *analyze.Group) (inG, inDump bool) {
	if key.name == "" && key.nid == "" {
		inG = ix.groupIDs(g, k).has(key.id)
		return inG, inG || ix.dumpIDs(k).has(key.id)
	}
	at := ix.namedAt(k)[key]
	return at == g, at != nil
}

// placement is where a thread is at one moment: the thread and its group.
type placement struct {
	t *parse.Thread
	g *analyze.Group
}

// threadAt finds the thread of identity key at moment k, in whatever
// group it is; a zero placement when it is not in that moment's dump.
func (ix *index) threadAt(k int, key threadKey) placement {
	if k < 0 || k >= len(ix.placed) {
		return placement{}
	}
	if ix.placed[k] == nil {
		w := map[threadKey]placement{}
		for _, p := range ix.r.Pools {
			for _, g := range p.States {
				if k >= len(g.Threads) {
					continue
				}
				for _, t := range g.Threads[k] {
					if key, ok := keyOf(t); ok {
						w[key] = placement{t, g}
					}
				}
			}
		}
		ix.placed[k] = w
	}
	return ix.placed[k][key]
}

// namedAt returns moment k's map from JVM thread identity (name and nid)
// to group, making it on first use.
func (ix *index) namedAt(k int) map[threadKey]*analyze.Group {
	if ix.named[k] == nil {
		w := map[threadKey]*analyze.Group{}
		for _, p := range ix.r.Pools {
			for _, g := range p.States {
				if k >= len(g.Threads) {
					continue
				}
				for _, t := range g.Threads[k] {
					if key, ok := keyOf(t); ok && (key.name != "" || key.nid != "") {
						w[key] = g
					}
				}
			}
		}
		ix.named[k] = w
	}
	return ix.named[k]
}

// dumpIDs returns the ids of moment k's goroutines (threads identified by
// id), making the set on first use.
func (ix *index) dumpIDs(k int) *idSet {
	if ix.dump[k] == nil {
		var ids []int64
		for _, p := range ix.r.Pools {
			for _, g := range p.States {
				if k < len(g.Threads) {
					ids = appendIDs(ids, g.Threads[k])
				}
			}
		}
		ix.dump[k] = newIDSet(ids)
	}
	return ix.dump[k]
}

// groupIDs returns the ids of g's goroutines at moment k, making the set
// on first use.
func (ix *index) groupIDs(g *analyze.Group, k int) *idSet {
	key := groupAt{g, k}
	if s, ok := ix.inGroup[key]; ok {
		return s
	}
	var ids []int64
	if k < len(g.Threads) {
		ids = appendIDs(nil, g.Threads[k])
	}
	s := newIDSet(ids)
	ix.inGroup[key] = s
	return s
}

type groupAt struct {
	g *analyze.Group
	k int
}

// appendIDs appends the ids of the threads identified by id alone.
func appendIDs(ids []int64, ts []*parse.Thread) []int64 {
	for _, t := range ts {
		if key, ok := keyOf(t); ok && key.name == "" && key.nid == "" {
			ids = append(ids, key.id)
		}
	}
	return ids
}

// idSet is a set of goroutine ids: a bitset over their span when it is at
// most 64 times their number (a dump's ids are handed out in order, so
// they are dense: a million goroutines in about a megabit), else a map.
type idSet struct {
	lo   int64
	bits []uint64
	m    map[int64]struct{}
}

func newIDSet(ids []int64) *idSet {
	s := &idSet{}
	if len(ids) == 0 {
		return s
	}
	lo, hi := ids[0], ids[0]
	for _, id := range ids {
		lo, hi = min(lo, id), max(hi, id)
	}
	if span := uint64(hi - lo); span/64 <= uint64(len(ids)) {
		s.lo = lo
		s.bits = make([]uint64, span/64+1)
		for _, id := range ids {
			d := uint64(id - lo)
			s.bits[d/64] |= 1 << (d % 64)
		}
		return s
	}
	s.m = make(map[int64]struct{}, len(ids))
	for _, id := range ids {
		s.m[id] = struct{}{}
	}
	return s
}

func (s *idSet) has(id int64) bool {
	if s.m != nil {
		_, ok := s.m[id]
		return ok
	}
	if id < s.lo {
		return false
	}
	d := uint64(id - s.lo)
	return d/64 < uint64(len(s.bits)) && s.bits[d/64]&(1<<(d%64)) != 0
}

func newGroupInfo(g *analyze.Group) *groupInfo {
	own := strings.ToLower(strings.Join([]string{g.Pool, g.State, g.Via, string(g.Category), g.TopFrame, g.Culprit}, "\x00"))
	// Frames are interned per parse, so most threads share frame pointers:
	// dedupe by pointer first, then by text. One pass over the threads.
	seenFrame := make(map[*parse.Frame]bool)
	seenText := make(map[string]bool)
	var hay strings.Builder
	hay.WriteString(own)
	add := func(s string) {
		if s == "" || seenText[s] {
			return
		}
		seenText[s] = true
		hay.WriteByte(0)
		hay.WriteString(strings.ToLower(s))
	}
	// Goroutines with identical stacks share their frames (and come in
	// runs): a stack is visited once, by its first frame's address.
	type stackRef struct {
		first **parse.Frame
		n     int
	}
	seenStack := make(map[stackRef]bool)
	var lastStack stackRef
	lastState := "\x00"
	for _, ts := range g.Threads {
		for _, t := range ts {
			add(t.Name())
			if t.State != lastState {
				lastState = t.State
				add(t.State)
			}
			if len(t.Frames) > 0 {
				ref := stackRef{&t.Frames[0], len(t.Frames)}
				if ref == lastStack {
					continue
				}
				lastStack = ref
				if seenStack[ref] {
					continue
				}
				seenStack[ref] = true
			}
			for _, f := range t.Frames {
				if !seenFrame[f] {
					seenFrame[f] = true
					add(f.Func)
				}
			}
		}
	}
	return &groupInfo{g: g, own: own, hay: hay.String()}
}

// shortLabels drops what every label shares at its start and at its end,
// when that is at least 4 cells and ends (starts) where a word does:
// "samurai__…-example#1", "…#2" → "#1", "#2"; "before-debug1",
// "during-1-debug1" → "before", "during-1". A word or a number is never
// split: "goroutines.debug2", "goroutines.debug2 (2)" become "debug2",
// "debug2 (2)", not "2", "2 (2)", which would name the first moment after
// the second. What is left tells the labels apart, as they were. Labels
// of 12 cells at most (a column of the first layouts) are read whole:
// "dump-1", "dump-2" stay, not "1", "2".
func shortLabels(full []string) []string {
	if len(full) < 2 || widestOf(full) <= 12 {
		return full
	}
	pre := compactPrefix(full)
	if pre < 4 {
		pre = 0
	}
	rest := make([]string, len(full))
	for i, l := range full {
		rest[i] = l[pre:]
	}
	suf := compactSuffix(rest)
	if suf < 4 {
		suf = 0
	}
	if pre == 0 && suf == 0 {
		return full
	}
	for i, l := range rest {
		rest[i] = l[:len(l)-suf]
	}
	return rest
}

// compactSuffix is the length in bytes of the longest common suffix of
// labels that starts with a separator (space . _ - /, dropped with it) and
// leaves every label something; 0 when there is none.
func compactSuffix(labels []string) int {
	n, short := len(labels[0]), len(labels[0])
	for _, l := range labels[1:] {
		i := 0
		for i < n && i < len(l) && labels[0][len(labels[0])-1-i] == l[len(l)-1-i] {
			i++
		}
		n = i
		short = min(short, len(l))
	}
	for i := min(n, short-1); i > 0; i-- {
		if strings.IndexByte(" ._-/", labels[0][len(labels[0])-i]) >= 0 {
			return i
		}
	}
	return 0
}

// compactPrefix is the length in bytes of the longest common prefix of
// labels that can be dropped without splitting a word or a number and
// without emptying a label: it ends after a separator (space . _ - /), or
// before a '#', which stays ("#1" reads as the first dump of a file); 0
// when there is none. A ':' is no place to cut: "10:00:00" and "10:05:00"
// would become "00:00" and "05:00", read as hours.
func compactPrefix(labels []string) int {
	lcp := labels[0]
	short := len(labels[0])
	for _, l := range labels[1:] {
		i := 0
		for i < len(lcp) && i < len(l) && lcp[i] == l[i] {
			i++
		}
		lcp = lcp[:i]
		short = min(short, len(l))
	}
	for i := min(len(lcp), short-1); i > 0; i-- {
		if strings.IndexByte(" ._-/", lcp[i-1]) >= 0 || i < len(lcp) && lcp[i] == '#' {
			return i
		}
	}
	return 0
}

// targetName is how the header names this analysis among several: its
// target, or "target N" when the capture named none.
func (ix *index) targetName() string {
	if ix.target != "" {
		return ix.target
	}
	return "target " + itoa(ix.nth)
}

// titlePrefix names the target at the head of a pool or state title: on
// screen (keys true) with its place and the key to the next one ("api-1 (1
// of 3, t: next) › "), in an export by name only ("api-1 › "); "" for a
// single process.
func (ix *index) titlePrefix(keys bool) string {
	switch {
	case ix.of > 1 && keys:
		return ix.targetName() + " (" + itoa(ix.nth) + " of " + itoa(ix.of) + ", t: next) › "
	case ix.target != "":
		return ix.target + " › "
	}
	return ""
}

// nameIn is moment k's full label when it fits in room cells, else its
// compact one: for a line that says more after it.
func (ix *index) nameIn(k, room int) string {
	if width(ix.full[k]) <= room {
		return ix.full[k]
	}
	return ix.labels[k]
}

// momentNamed returns the index of the moment labelled l; -1 when none.
func (ix *index) momentNamed(l string) int {
	for i, f := range ix.full {
		if f == l {
			return i
		}
	}
	return -1
}

// poolByName returns the pool called name; nil when there is none.
func (ix *index) poolByName(name string) *poolInfo { return ix.byName[name] }

// groupOf returns the group of pi in state (and via, when not empty); nil
// when there is none.
func (pi *poolInfo) groupOf(state, via string) *groupInfo {
	for _, gi := range pi.groups {
		if gi.g.State == state && (via == "" || gi.g.Via == via) {
			return gi
		}
	}
	return nil
}

// groupOfThread returns the group of the thread called name (JVM) or with
// goroutine id name (Go) at moment; nil when there is none. It walks the
// threads of that moment: it runs on enter, not on every key.
func (ix *index) groupOfThread(moment int, name string) *groupInfo {
	if moment < 0 || name == "" {
		return nil
	}
	id, isGo := goroutineID(name)
	for _, pi := range ix.pools {
		for _, gi := range pi.groups {
			if moment >= len(gi.g.Threads) {
				continue
			}
			for _, t := range gi.g.Threads[moment] {
				if named(t, name, id, isGo) {
					return gi
				}
			}
		}
	}
	return nil
}

// threadNamed returns the thread called name (JVM) or "goroutine N" (Go)
// in the dump of moment m; nil when there is none. It walks that dump: it
// runs when a pane opens, not on every key.
func (ix *index) threadNamed(m int, name string) *parse.Thread {
	if m < 0 || m >= len(ix.r.Moments) || ix.r.Moments[m].Dump == nil || name == "" {
		return nil
	}
	id, isGo := goroutineID(name)
	for _, t := range ix.r.Moments[m].Dump.Threads {
		if named(t, name, id, isGo) {
			return t
		}
	}
	return nil
}

// goroutineID reads the goroutine id of a sample name as the analysis
// writes it ("goroutine 32"), or a bare id ("32"), or an unnamed JVM
// thread's id; ok is false for a JVM thread's name.
func goroutineID(name string) (int64, bool) {
	// An unnamed JVM thread is sampled by its thread id (the analysis's
	// threadLabel): "virtual thread #288", "thread #31".
	for _, p := range []string{"goroutine ", "virtual thread #", "thread #"} {
		if rest, ok := strings.CutPrefix(name, p); ok {
			name = rest
			break
		}
	}
	id, err := strconv.ParseInt(name, 10, 64)
	return id, err == nil && id != 0
}

// named reports whether t is the thread called name: by its JVM name, or
// by its goroutine id (id, isGo from goroutineID). No string is made per
// thread: this walks a whole moment.
func named(t *parse.Thread, name string, id int64, isGo bool) bool {
	if t.Name() != "" {
		return t.Name() == name
	}
	return isGo && t.ID == id
}

// document is the analysis's report, in the words of every format.
func (ix *index) document() *report.Document {
	if ix.doc == nil {
		ix.doc = report.NewDocument(ix.r)
	}
	return ix.doc
}

// findingByID returns the finding with that ID; nil for "" or none.
func (ix *index) findingByID(id string) *analyze.Finding {
	if id == "" {
		return nil
	}
	for i := range ix.r.Findings {
		if ix.r.Findings[i].ID == id {
			return &ix.r.Findings[i]
		}
	}
	return nil
}

// spread is the largest minus the smallest value of counts.
// movedOf is how many of a pool's threads moved between two moments: the
// most threads found, at one moment, in a state they were not in at
// another (new threads count, as they are in a state they were not in).
// A pool whose 8 threads all went from idle to stuck moved 8, though its
// count did not; it is never less than the count's spread.
func movedOf(p *analyze.Pool) int {
	moved := spread(p.Counts)
	for a := range p.Counts {
		for b := range p.Counts {
			entered := 0
			for _, g := range p.States {
				if a < len(g.Counts) && b < len(g.Counts) {
					entered += max(0, g.Counts[b]-g.Counts[a])
				}
			}
			moved = max(moved, entered)
		}
	}
	return moved
}

// spread is the largest count minus the smallest.
func spread(counts []int) int {
	if len(counts) == 0 {
		return 0
	}
	lo, hi := counts[0], counts[0]
	for _, c := range counts {
		lo, hi = min(lo, c), max(hi, c)
	}
	return hi - lo
}

// matcher tells which threads match a filter query. It remembers the
// answer for each frame, so a 100,000-thread group costs pointer lookups.
type matcher struct {
	q      string // lower-case query; "" matches everything
	frames map[*parse.Frame]bool
}

func newMatcher(q string) *matcher {
	return &matcher{q: strings.ToLower(strings.TrimSpace(q)), frames: make(map[*parse.Frame]bool)}
}

func (m *matcher) all() bool { return m.q == "" }

func (m *matcher) text(s string) bool { return m.q == "" || strings.Contains(s, m.q) }

// thread reports whether t's name, state or a frame function contains the query.
func (m *matcher) thread(t *parse.Thread) bool {
	if m.q == "" || strings.Contains(strings.ToLower(t.Name()), m.q) || strings.Contains(strings.ToLower(t.State), m.q) {
		return true
	}
	for _, f := range t.Frames {
		ok, seen := m.frames[f]
		if !seen {
			ok = strings.Contains(strings.ToLower(f.Func), m.q)
			m.frames[f] = ok
		}
		if ok {
			return true
		}
	}
	return false
}
