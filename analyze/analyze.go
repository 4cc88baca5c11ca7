package analyze

import (
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dumpdiff/dumpdiff/parse"
)

// Analyze computes the analysis of the moments, in the order given. It does
// no I/O and does not modify the dumps.
func Analyze(in []Input, opt Options) *Result {
	if opt.Samples <= 0 {
		opt.Samples = 5
	}
	r := &Result{Version: "1"}
	r.Runtime, r.Warnings = runtimeOf(in)
	for _, x := range in {
		label := x.Label
		if label == "" {
			label = LabelFromFile(x.Dump.Source.File)
			if x.Dump.Source.Index > 0 || countFromFile(in, x.Dump.Source.File) > 1 {
				label = fmt.Sprintf("%s#%d", label, x.Dump.Source.Index+1)
			}
		}
		m := Moment{Label: label, Target: x.Target, Source: x.Dump.Source, Format: x.Dump.Format,
			Time: x.Dump.Time, Threads: x.Dump.ThreadCount(), Skipped: len(x.Dump.Skipped), Dump: x.Dump}
		if m.Time.IsZero() {
			m.Time = x.Taken
		}
		r.Moments = append(r.Moments, m)
		r.Totals = append(r.Totals, m.Threads)
		r.Warnings = append(r.Warnings, skippedWarnings(label, x.Dump.Skipped)...)
		if m.Threads == 0 {
			r.Warnings = append(r.Warnings, fmt.Sprintf("%s: the dump holds no threads", label))
		}
	}
	dedupeLabels(r.Moments)
	if r.Runtime == parse.RuntimeGo && mixesCreators(in) {
		opt.byEntry = true
		r.Warnings = append(r.Warnings, "the moments mix goroutine dumps that print creators (debug=2) with profiles that do not "+
			"(debug=1, proto): goroutines are pooled by their entry function in every moment")
	}
	b := newBuilder(r, opt)
	for i, x := range in {
		labels := auxLabels(x.Aux)
		for _, t := range x.Dump.Threads {
			if labels != nil && len(t.Labels) == 0 {
				if l, ok := labels[funcKey(t)]; ok {
					t = withLabels(t, l)
				}
			}
			b.add(i, t)
		}
	}
	b.finish()
	if key, ok := strings.CutPrefix(opt.PoolBy, "label:"); ok && !anyPoolPrefixed(r.Pools, key+"=") {
		r.Warnings = append(r.Warnings, fmt.Sprintf("no goroutine carries the pprof label %q: pooled by creator instead "+
			"(Go text dumps print labels only from Go 1.27, or 1.26 with GODEBUG=tracebacklabels=1; put the debug=1 or "+
			"proto profiles beside the debug=2 dumps in one folder to join their labels)", key))
	}
	runDetectors(r, opt)
	return r
}

func anyPoolPrefixed(ps []*Pool, prefix string) bool {
	for _, p := range ps {
		if strings.HasPrefix(p.Name, prefix) {
			return true
		}
	}
	return false
}

// mixesCreators reports whether some moments print goroutine creators
// (Go text) and others do not (debug=1, proto).
func mixesCreators(in []Input) bool {
	text, aggregated := false, false
	for _, x := range in {
		switch x.Dump.Format {
		case parse.FormatGoText:
			text = true
		case parse.FormatGoDebug1, parse.FormatGoProto:
			aggregated = true
		}
	}
	return text && aggregated
}

// skippedWarnings says what the parser could not read in a dump: lines
// skipped (how many, the first with its reason), and notes about the dump
// as a whole (no line: an input cut in transfer).
func skippedWarnings(label string, skipped []parse.Skipped) []string {
	var out []string
	lines := 0
	var first *parse.Skipped
	for i, s := range skipped {
		if s.Line == 0 && s.Text == "" {
			out = append(out, fmt.Sprintf("%s: %s", label, s.Reason))
			continue
		}
		lines++
		if first == nil {
			first = &skipped[i]
		}
	}
	if first != nil {
		out = append([]string{fmt.Sprintf("%s: %d line(s) not understood and skipped, first at line %d (%s): %q",
			label, lines, first.Line, first.Reason, first.Text)}, out...)
	}
	return out
}

// dedupeLabels makes every moment label unique ("before", "before (2)"), so
// columns and evidence never name two moments alike.
func dedupeLabels(ms []Moment) {
	seen := map[string]int{}
	for i := range ms {
		l := ms[i].Label
		seen[l]++
		if n := seen[l]; n > 1 {
			ms[i].Label = fmt.Sprintf("%s (%d)", l, n)
		}
	}
}

// LabelFromFile derives a moment label from a file name: "dumps/before.txt"
// → "before", "during-1.txt.gz" → "during-1". Only known dump extensions
// are removed, so "jstack.1" and "jstack.2" stay apart.
func LabelFromFile(name string) string {
	if name == "-" {
		return "stdin"
	}
	base := filepath.Base(name)
	for {
		ext := filepath.Ext(base)
		if ext == base || !dumpExts[strings.ToLower(ext)] {
			return base
		}
		base = strings.TrimSuffix(base, ext)
	}
}

// dumpExts are the extensions LabelFromFile removes.
var dumpExts = map[string]bool{".txt": true, ".log": true, ".out": true, ".dmp": true, ".dump": true, ".tdump": true,
	".gz": true, ".pb": true, ".pprof": true, ".prof": true, ".json": true, ".stack": true, ".stacks": true, ".threads": true}

func countFromFile(in []Input, file string) int {
	n := 0
	for _, x := range in {
		if x.Dump.Source.File == file {
			n++
		}
	}
	return n
}

func runtimeOf(in []Input) (parse.Runtime, []string) {
	var rt parse.Runtime
	var warn []string
	for _, x := range in {
		r := x.Dump.Format.Runtime()
		if rt == "" {
			rt = r
		} else if r != rt {
			warn = append(warn, fmt.Sprintf("%s is a %s dump among %s dumps: the moments compare different processes", x.Dump.Source, r, rt))
		}
	}
	return rt, warn
}

// groupKey identifies a group within a pool.
type groupKey struct {
	pool, state, via string
}

// builder accumulates threads into pools and groups, one moment at a time.
type builder struct {
	r       *Result
	opt     Options
	n       int // moments
	pools   map[string]*Pool
	groups  map[groupKey]*Group
	tops    map[*Group][]map[string]int             // per moment: top frame → count
	culps   map[*Group][]map[string]int             // per moment: culprit → count
	ents    map[*Group][]map[entryKey]int           // per moment: entry point → count
	ids     map[*Group][]map[threadID]string        // per moment: identity → culprit
	cpu     map[*Group]map[threadID][]time.Duration // identity → cpu per moment
	classes map[string]classified                   // stack key → classification, computed once
	shapes  map[*Group][]map[int]int                // per moment: stack id (classified.id) → index in Group.Shapes[m]
	key     []byte                                  // reused buffer for stack keys
	sigs    []Signature                             // the signature table: extensions first
}

type classified struct {
	id      int // the distinct stack's number, in order of first sight
	sig     *Signature
	via     string
	holds   string // resource held (Via.Holds), whatever the state
	rest    bool   // the state is a rest for this caller (Signature.Rest, Via.Rest)
	top     string
	culprit string
	entry   entryKey
}

// entryKey is an entry point and whether it is a health check.
type entryKey struct {
	fn    string
	probe bool
}

func newBuilder(r *Result, opt Options) *builder {
	return &builder{sigs: signatureTable(opt.Extensions), r: r, opt: opt, n: len(r.Moments), pools: map[string]*Pool{}, groups: map[groupKey]*Group{},
		tops: map[*Group][]map[string]int{}, culps: map[*Group][]map[string]int{}, ids: map[*Group][]map[threadID]string{},
		ents: map[*Group][]map[entryKey]int{},
		cpu:  map[*Group]map[threadID][]time.Duration{}, classes: map[string]classified{}, shapes: map[*Group][]map[int]int{}}
}

// identity follows a thread across moments: JVM name and native id (or
// tid), goroutine id. Empty when the format aggregates threads.
func identity(rt parse.Runtime, t *parse.Thread) threadID {
	if t.Weight != 1 {
		return threadID{}
	}
	if rt == parse.RuntimeGo {
		// The goroutine id itself: no string per goroutine (at 1M goroutines
		// a formatted id each was a third of the builder's allocations).
		return threadID{n: t.ID}
	}
	switch {
	case t.NativeID != "":
		return threadID{s: t.Name + "\x00" + t.NativeID}
	case t.TID != "":
		return threadID{s: t.Name + "\x00" + t.TID}
	case t.ID != 0:
		return threadID{s: t.Name, n: t.ID}
	}
	return threadID{s: t.Name}
}

// threadID is a thread's identity across moments: a goroutine's id, or a
// JVM thread's name with its native id; the zero value when the format
// aggregates threads (no identity).
type threadID struct {
	n int64
	s string
}

func (b *builder) classify(t *parse.Thread) classified {
	b.key = appendStackKey(b.key[:0], t)
	if c, ok := b.classes[string(b.key)]; ok { // no allocation on a hit
		return c
	}
	key := string(b.key)
	rt := b.r.Runtime
	c := classified{id: len(b.classes), sig: classifyIn(b.sigs, rt, t)}
	c.via, c.holds, c.rest = viaFor(c.sig, t)
	c.entry.fn, c.entry.probe = entryPoint(rt, t)
	if len(t.Frames) > 0 {
		c.top = normalizeGeneric(t.Frames[0].Func)
	}
	c.culprit = FrameString(culprit(rt, t))
	b.classes[key] = c
	return c
}

// appendStackKey appends the identity of a stack for caching (state and
// frames) to dst. Once per thread: this is the analysis's hot loop, so it
// reuses the caller's buffer and formats with strconv.
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

func (b *builder) add(m int, t *parse.Thread) {
	rt := b.r.Runtime
	pname, internal := poolName(rt, t, b.opt)
	p := b.pools[pname]
	if p == nil {
		p = &Pool{Name: pname, Internal: internal, Counts: make([]int, b.n)}
		b.pools[pname] = p
		b.r.Pools = append(b.r.Pools, p)
	}
	w := t.Weight
	if w <= 0 {
		w = 1
	}
	p.Counts[m] += w
	c := b.classify(t)
	state, cat, explain := "unclassified", Other, "no known signature: see the top frame"
	switch {
	case c.sig != nil:
		state, cat, explain = c.sig.ID, c.sig.Category, c.sig.Explain
	case rt == parse.RuntimeGo && t.State == "" && b.r.Moments[m].Format == parse.FormatGoDebug1:
		// debug=1 prints neither the wait reason nor the runtime frames: a
		// stack whose own frames name no known wait says nothing of its state.
		state, explain = "unknown", "the debug=1 profile prints no wait state and no known frame here: take debug=2 or the proto"
	}
	k := groupKey{pname, state, c.via}
	g := b.groups[k]
	if g == nil {
		g = &Group{Pool: pname, State: state, Category: cat, Via: c.via, Explain: explain, Holds: c.holds, Rest: c.rest,
			Counts: make([]int, b.n), Samples: make([][]string, b.n), Stacks: make([]*parse.Thread, b.n),
			Threads: make([][]*parse.Thread, b.n)}
		b.groups[k] = g
		p.States = append(p.States, g)
		b.tops[g] = make([]map[string]int, b.n)
		b.culps[g] = make([]map[string]int, b.n)
		b.ents[g] = make([]map[entryKey]int, b.n)
		b.ids[g] = make([]map[threadID]string, b.n)
		b.shapes[g] = make([]map[int]int, b.n)
		g.Shapes = make([][]Shape, b.n)
		if c.sig != nil {
			g.Resource = c.sig.Resource
		}
	}
	g.Counts[m] += w
	g.Threads[m] = append(g.Threads[m], t)
	if b.shapes[g][m] == nil {
		b.shapes[g][m] = map[int]int{}
	}
	si, ok := b.shapes[g][m][c.id]
	if !ok {
		si = len(g.Shapes[m])
		b.shapes[g][m][c.id] = si
		g.Shapes[m] = append(g.Shapes[m], Shape{Stack: t, Culprit: c.culprit, Entry: FrameCount{Func: c.entry.fn, Probe: c.entry.probe}, top: c.top})
	}
	sh := &g.Shapes[m][si]
	sh.Count += w
	if len(sh.Samples) < b.opt.Samples {
		sh.Samples = append(sh.Samples, threadLabel(rt, t))
	}
	if g.Stacks[m] == nil {
		g.Stacks[m] = t
	}
	if len(g.Samples[m]) < b.opt.Samples {
		g.Samples[m] = append(g.Samples[m], threadLabel(rt, t))
	}
	// Top frames, culprits and entry points are the stack's: they are
	// summed from the shapes in finish, one map operation per thread here
	// instead of three (this is the hot loop).
	if id := identity(rt, t); id != (threadID{}) {
		if b.ids[g][m] == nil {
			b.ids[g][m] = map[threadID]string{}
		}
		b.ids[g][m][id] = c.culprit
		if t.CPU > 0 {
			if b.cpu[g] == nil {
				b.cpu[g] = map[threadID][]time.Duration{}
			}
			v := b.cpu[g][id]
			if v == nil {
				v = make([]time.Duration, b.n)
				b.cpu[g][id] = v
			}
			v[m] = t.CPU
		}
	}
}

// threadLabel names a thread in samples: the JVM name, or "goroutine N".
func threadLabel(rt parse.Runtime, t *parse.Thread) string {
	if rt == parse.RuntimeGo || t.Name == "" {
		if t.ID != 0 {
			return fmt.Sprintf("goroutine %d", t.ID)
		}
		if t.Weight > 1 {
			return fmt.Sprintf("%d goroutines", t.Weight)
		}
		return "goroutine"
	}
	return t.Name
}

func (b *builder) finish() {
	for _, p := range b.r.Pools {
		for _, c := range p.Counts {
			p.Max = max(p.Max, c)
		}
		for _, g := range p.States {
			b.sumShapes(g)
			g.TopFrame = mostCommonAll(b.tops[g])
			g.Culprit = mostCommonAll(b.culps[g])
			g.Culprits = ranked(b.culps[g][peakAt(g.Counts)])
			g.Same = sameThreads(g, b.ids[g])
			g.Always = alwaysThreads(b.ids[g])
			g.Stayed = stayedThreads(b.ids[g])
			for _, shs := range g.Shapes {
				sort.SliceStable(shs, func(i, j int) bool { return shs[i].Count > shs[j].Count })
			}
			g.Entries = make([][]FrameCount, b.n)
			for m, e := range b.ents[g] {
				g.Entries[m] = rankedEntries(e)
			}
			for _, v := range b.cpu[g] {
				first, last := -1, -1
				for i, c := range v {
					if c > 0 {
						if first < 0 {
							first = i
						}
						last = i
					}
				}
				if first >= 0 && last > first {
					g.CPUThreads++
					if v[last] > v[first] {
						g.CPU += v[last] - v[first]
					}
				}
			}
		}
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

// sumShapes fills the builder's per-moment top frame, culprit and entry
// counts of g from its shapes (threads with identical stacks share them).
func (b *builder) sumShapes(g *Group) {
	for m, shs := range g.Shapes {
		for _, sh := range shs {
			if b.tops[g][m] == nil {
				b.tops[g][m] = map[string]int{}
			}
			b.tops[g][m][sh.top] += sh.Count
			if sh.Culprit != "" {
				if b.culps[g][m] == nil {
					b.culps[g][m] = map[string]int{}
				}
				b.culps[g][m][sh.Culprit] += sh.Count
			}
			if sh.Entry.Func != "" {
				if b.ents[g][m] == nil {
					b.ents[g][m] = map[entryKey]int{}
				}
				b.ents[g][m][entryKey{sh.Entry.Func, sh.Entry.Probe}] += sh.Count
			}
		}
	}
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

// alwaysThreads counts the threads that are in a group at every moment
// with the same culprit (stuck in one place, not passing through); 0 with
// one moment or no identities.
func alwaysThreads(ids []map[threadID]string) int {
	if len(ids) < 2 || ids[0] == nil {
		return 0
	}
	n := 0
	for id, c := range ids[0] {
		ok := true
		for m := 1; m < len(ids); m++ {
			if cm, in := ids[m][id]; !in || cm != c {
				ok = false
				break
			}
		}
		if ok {
			n++
		}
	}
	return n
}

// stayedThreads counts the threads at the last moment that have been in a
// group with one culprit at every moment since they first appeared there,
// and at least at the last two moments (see Group.Stayed).
func stayedThreads(ids []map[threadID]string) int {
	n := len(ids)
	if n < 2 || ids[n-1] == nil {
		return 0
	}
	k := 0
	for id, c := range ids[n-1] {
		if cm, in := ids[n-2][id]; !in || cm != c {
			continue
		}
		ok := true
		for m := n - 3; m >= 0; m-- {
			cm, in := ids[m][id]
			if !in {
				// Before it arrived: it must not have been here earlier either.
				for e := m - 1; e >= 0; e-- {
					if _, was := ids[e][id]; was {
						ok = false
						break
					}
				}
				break
			}
			if cm != c {
				ok = false
				break
			}
		}
		if ok {
			k++
		}
	}
	return k
}

// sameThreads counts the threads that are in g at every moment from the
// first moment g rose above its first count to the last moment.
func sameThreads(g *Group, ids []map[threadID]string) int {
	start := -1
	for i := 1; i < len(g.Counts); i++ {
		if g.Counts[i] > g.Counts[0] {
			start = i
			break
		}
	}
	// A rise at the last moment has nothing to be followed into.
	if start < 0 || start == len(g.Counts)-1 || ids[start] == nil {
		return 0
	}
	n := 0
	for id := range ids[start] {
		ok := true
		for m := start + 1; m < len(ids); m++ {
			if _, in := ids[m][id]; !in {
				ok = false
				break
			}
		}
		if ok {
			n++
		}
	}
	return n
}

func mostCommon(m map[string]int) string {
	best, bc := "", 0
	for k, c := range m {
		if c > bc || (c == bc && k < best) {
			best, bc = k, c
		}
	}
	return best
}

func mostCommonAll(ms []map[string]int) string {
	sum := map[string]int{}
	for _, m := range ms {
		for k, c := range m {
			sum[k] += c
		}
	}
	return mostCommon(sum)
}

// peakAt is the first moment with the largest count.
func peakAt(xs []int) int {
	at := 0
	for i, x := range xs {
		if x > xs[at] {
			at = i
		}
	}
	return at
}

func maxOf(xs []int) int {
	m := 0
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

// change is how much a count series moved: max − min.
func change(xs []int) int {
	if len(xs) == 0 {
		return 0
	}
	lo, hi := xs[0], xs[0]
	for _, x := range xs {
		lo, hi = min(lo, x), max(hi, x)
	}
	return hi - lo
}

// auxLabels maps stacks to pprof labels from the aux dumps of a moment (a
// debug=0 proto beside a debug=2 text). A stack whose goroutines carry
// different label sets is left out: the join must not guess.
func auxLabels(aux []*parse.Dump) map[string]map[string]string {
	if len(aux) == 0 {
		return nil
	}
	out := map[string]map[string]string{}
	ambiguous := map[string]bool{}
	for _, d := range aux {
		for _, t := range d.Threads {
			if len(t.Labels) == 0 {
				continue
			}
			k := funcKey(t)
			if prev, ok := out[k]; ok && !sameLabels(prev, t.Labels) {
				ambiguous[k] = true
			}
			out[k] = t.Labels
		}
	}
	for k := range ambiguous {
		delete(out, k)
	}
	return out
}

// funcKey is a stack by function names only: what a debug=2 goroutine and
// the proto sample of the same goroutine have in common.
func funcKey(t *parse.Thread) string {
	var sb strings.Builder
	for _, f := range t.Frames {
		sb.WriteString(normalizeGeneric(f.Func))
		sb.WriteByte('\n')
	}
	return sb.String()
}

func sameLabels(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func withLabels(t *parse.Thread, l map[string]string) *parse.Thread {
	c := *t
	c.Labels = l
	return &c
}
