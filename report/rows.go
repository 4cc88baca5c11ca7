package report

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/parse"
)

// rows is what every view but JSON shows, computed once from a Result:
// the text view writes them, the other formats the document built from
// them (document.go). Slices indexed by moment have len(moments) entries.
type rows struct {
	runtime  parse.Runtime // empty when the analysis did not name one
	moments  []momentRow
	findings []findingRow // most severe first; analysis order within a severity
	// pools are the pools shown: flagged ones first (in finding order), then
	// the others in analysis order, up to Options.MaxPools of them.
	pools []poolRow
	// more folds the non-internal pools left out by MaxPools; nil if none.
	more *poolRow
	// internal folds the JVM-internal or Go runtime pools; nil if none.
	internal *poolRow
	totals   []int // threads per moment, all pools
	warnings []string
	// cautions are the warnings that say the comparison itself is unsound
	// (analyze.Result.Cautions): said beside the verdict too.
	cautions []string
	// notable are the last moment's notable threads, each as one line of
	// words (notableLine), the most unusual first.
	notable []string
}

// momentRow is one moment of the header.
type momentRow struct {
	label  string
	target string // "" for a single process
	file   string // file name without its directory, ":line" when the dump starts after line 1
	base   string // file name without its directory
	path   string // file as given by the user
	line   int    // 1-based line where the dump starts; 0 for binary formats
	format parse.Format
	time   string // "2006-01-02 15:04:05"; "" when the dump prints no time
	delta  string // "+1m30s" from the first moment with a time; "" for it or when unknown
	// sinceLoad is the moment's time from the capture's load start ("+10s
	// after the load began"); "" when no load is known.
	sinceLoad string
	threads   int
	skipped   int // lines the parser did not understand
	// tests are the tests go test was running when it timed out at this
	// moment (parse.Dump.RunningTests: "TestTransfer (2s)"); nil otherwise.
	tests []string
	// headline is the dump's panic line ("panic: test timed out after 2s");
	// empty when none.
	headline string
}

// findingRow is one verdict.
type findingRow struct {
	num      int    // 1-based position in story order: "finding 2"
	id       string // analyze.Finding.ID
	severity analyze.Severity
	kind     string
	pool     string // "" for process-wide findings
	state    string
	via      string
	counts   []int // may be shorter than moments or empty
	// told is how many of the group's the finding is about when the
	// analysis says fewer than its count (Go's printed waits: those
	// stuck in their work, beside others of the same state); 0 if all.
	told    int
	summary string
	// head is the summary's first clause, the finding's claim (headClause).
	head    string
	frame   string
	culprit string
	entries []analyze.FrameCount // entry points at the finding's moment, most first
	limit   analyze.Limit
	at      int // index of the moment the finding is about; valid when counts is not empty
	// causedBy is the ID of the finding this one follows from; "" for a
	// root cause (then the rows after it with its ID are its consequences).
	causedBy string
	// causedByNum is the num of that finding; 0 for a root cause.
	causedByNum int
	recovery    recovery
	series      []series // what its chart draws; empty with one moment
	// groups are the identical-stack groups of its state at its moment;
	// nil when it names no state of a known pool.
	groups   []StackGroup
	evidence []evidenceRow
	// remedy is what to do, from the remedy table (remedyOf); "" when no
	// row's proof is in the frames.
	remedy string
	// since is the moment the finding began (analyze.Finding.Since).
	since int
	// fromStart is analyze.Finding.FromStart: there at the first moment.
	fromStart bool
	// labels are the pprof label values most of its goroutines carry
	// (findingLabels); nil when none.
	labels []labelCount
	// holder is the lock's holder and what it does, for a finding on a
	// lock whose holder is printed (holderLead); "" otherwise.
	holder string
	// owners is, for a leak of thread owners (analyze.Finding.Owners), the
	// lead's words for its count and state: "100 executors created and
	// never shut down"; "" otherwise.
	owners string
	// explain is its state's sentence from the signature table ("blocked
	// reading from a socket: waiting for the peer to answer"); "" when it
	// names no state.
	explain string
}

// evidenceRow is what one moment shows for a finding.
type evidenceRow struct {
	moment  string // moment label
	count   int
	threads []string // sample names or goroutine ids
}

// poolRow is one line of the pools × moments table.
type poolRow struct {
	name     string
	internal bool
	folded   int // number of pools folded into this row; 0 for one pool
	flagged  bool
	severity analyze.Severity // most severe finding about the pool; meaningful when flagged
	counts   []int
	// states are shown under the pool: for flagged pools, and for every
	// pool when Verbose. Empty otherwise.
	states []stateRow
	// moreStates folds the states left out by MaxStates; nil if none.
	moreStates *stateRow
	// dominant is, per moment, the state holding most of the pool's
	// threads; zero-valued where the pool has no thread.
	dominant []frameCount
}

// stateRow is one state of a pool, per moment.
type stateRow struct {
	state    string
	via      string
	category analyze.Category
	explain  string
	flagged  bool // named by a finding
	folded   int  // number of states folded into this row; 0 for one state
	counts   []int
	frame    string
	culprit  string
	same     int
	group    *analyze.Group // nil for a folded row
	// groups are its identical-stack groups at moment groupsAt: the
	// moment of the finding naming it, else the moment it holds most
	// threads. nil for a folded row.
	groups   []StackGroup
	groupsAt int
}

// frameCount is the top frame of the largest state of a pool at one moment.
type frameCount struct {
	state string
	frame string
	count int
}

// buildRows computes the shared rows of r under opt (defaults applied).
func buildRows(r *analyze.Result, opt Options) *rows {
	n := len(r.Moments)
	rs := &rows{runtime: r.Runtime, totals: fitCounts(r.Totals, n), warnings: r.Warnings, cautions: r.Cautions}
	for _, nt := range r.Notable {
		rs.notable = append(rs.notable, notableLine(r, nt))
	}
	rs.moments = momentRows(r.Moments, r.LoadStarted)

	// Findings in the analysis's story order: root causes most severe
	// first, each followed by its consequences.
	fs := r.Findings
	type key struct{ state, via string }
	flaggedPools := map[string]analyze.Severity{}
	flaggedStates := map[string]map[key]int{} // pool → state → the finding's moment
	var order []string                        // flagged pools in finding order
	nums := map[string]int{}
	for i, f := range fs {
		nums[f.ID] = i + 1
	}
	for i := range fs {
		f := &fs[i]
		fr := findingRowOf(r, f)
		fr.num = i + 1
		if f.CausedBy != "" {
			fr.causedByNum = nums[f.CausedBy]
		}
		rs.findings = append(rs.findings, fr)
		if f.Pool == "" {
			continue
		}
		if sev, ok := flaggedPools[f.Pool]; !ok || f.Severity > sev {
			if !ok {
				order = append(order, f.Pool)
			}
			flaggedPools[f.Pool] = f.Severity
		}
		if f.State != "" {
			if flaggedStates[f.Pool] == nil {
				flaggedStates[f.Pool] = map[key]int{}
			}
			if _, ok := flaggedStates[f.Pool][key{f.State, f.Via}]; !ok {
				flaggedStates[f.Pool][key{f.State, f.Via}] = f.At
			}
		}
	}

	byName := map[string]*analyze.Pool{}
	for _, p := range r.Pools {
		byName[p.Name] = p
	}
	// stateFlagged returns the moment of the finding naming g, and
	// whether one does.
	stateFlagged := func(pool string, g *analyze.Group) (int, bool) {
		st := flaggedStates[pool]
		// A finding that names a state but no via covers every via.
		if at, ok := st[key{g.State, g.Via}]; ok {
			return at, true
		}
		at, ok := st[key{g.State, ""}]
		return at, ok
	}
	poolRowOf := func(p *analyze.Pool, flagged bool) poolRow {
		pr := poolRow{name: p.Name, internal: p.Internal, flagged: flagged, counts: fitCounts(p.Counts, n)}
		pr.severity = flaggedPools[p.Name]
		pr.dominant = dominant(p, n)
		// One dump alone is a snapshot: what each pool is doing is the
		// summary, so its states are shown even without a finding.
		if !flagged && !opt.Verbose && (n > 1 || p.Internal) {
			return pr
		}
		for _, g := range p.States {
			sr := stateRowOf(g, n)
			if at, ok := stateFlagged(p.Name, g); ok {
				sr.flagged = true
				sr.groupsAt = at
				sr.groups = StackGroups(g, at)
			}
			if len(pr.states) < opt.MaxStates || sr.flagged {
				pr.states = append(pr.states, sr)
				continue
			}
			if pr.moreStates == nil {
				pr.moreStates = &stateRow{counts: make([]int, n)}
			}
			pr.moreStates.folded++
			addCounts(pr.moreStates.counts, sr.counts)
		}
		return pr
	}

	for _, name := range order {
		if p := byName[name]; p != nil {
			rs.pools = append(rs.pools, poolRowOf(p, true))
		} else {
			// A finding about a pool the analysis does not list: show the
			// name so that the verdict is not without its row.
			rs.pools = append(rs.pools, poolRow{name: name, flagged: true, severity: flaggedPools[name], counts: make([]int, n)})
		}
	}
	shown := 0
	for _, p := range r.Pools {
		if _, ok := flaggedPools[p.Name]; ok {
			continue
		}
		if p.Internal {
			if rs.internal == nil {
				rs.internal = &poolRow{name: internalName(r.Runtime), internal: true, counts: make([]int, n)}
			}
			rs.internal.folded++
			addCounts(rs.internal.counts, fitCounts(p.Counts, n))
			continue
		}
		if shown < opt.MaxPools {
			rs.pools = append(rs.pools, poolRowOf(p, false))
			shown++
			continue
		}
		if rs.more == nil {
			rs.more = &poolRow{counts: make([]int, n)}
		}
		rs.more.folded++
		addCounts(rs.more.counts, fitCounts(p.Counts, n))
	}
	return rs
}

// unit is what the counts count: "goroutines" for Go, else "threads".
func (rs *rows) unit() string { return rs.runtime.Unit() }

// unitOne is the unit of one count: "goroutine", "thread".
func (rs *rows) unitOne() string { return strings.TrimSuffix(rs.unit(), "s") }

// label is the label of moment i; "#3" for a moment the rows do not have.
func (rs *rows) label(i int) string {
	if i >= 0 && i < len(rs.moments) {
		return rs.moments[i].label
	}
	return fmt.Sprintf("#%d", i+1)
}

func momentRows(ms []analyze.Moment, load time.Time) []momentRow {
	out := make([]momentRow, len(ms))
	var first time.Time
	for i, m := range ms {
		mr := momentRow{label: m.Label, target: m.Target, path: m.Source.File, line: m.Source.Line,
			format: m.Format, threads: m.Threads, skipped: m.Skipped}
		if m.Source.File != "" {
			mr.base = filepath.Base(m.Source.File)
			mr.file = mr.base
			if m.Source.Line > 1 {
				mr.file = fmt.Sprintf("%s:%d", mr.file, m.Source.Line)
			}
		}
		if !m.Time.IsZero() {
			mr.time = m.Time.Format(time.DateTime)
			if first.IsZero() {
				first = m.Time
			} else {
				mr.delta = signedDuration(m.Time.Sub(first))
			}
			// Under a capture's load, how long after it began (the
			// moments before it, as long before).
			if !load.IsZero() {
				if d := m.Time.Sub(load); d >= 0 {
					mr.sinceLoad = signedDuration(d) + " after the load began"
				} else {
					mr.sinceLoad = signedDuration(-d)[1:] + " before the load began"
				}
			}
		}
		if mr.label == "" {
			mr.label = fmt.Sprintf("#%d", i+1)
		}
		if m.Dump != nil {
			mr.tests, mr.headline = analyze.RunningTests(m.Dump), m.Dump.Headline
		}
		out[i] = mr
	}
	return out
}

// signedDuration prints d rounded to the second with its sign: "+1m30s".
func signedDuration(d time.Duration) string {
	d = d.Round(time.Second)
	if d < 0 {
		return "-" + (-d).String()
	}
	return "+" + d.String()
}

func findingRowOf(r *analyze.Result, f *analyze.Finding) findingRow {
	ms := r.Moments
	fr := findingRow{id: f.ID, severity: f.Severity, kind: f.Kind, pool: f.Pool, state: f.State, via: f.Via,
		counts: f.Counts, summary: Summary(r, f), head: headClause(r, f), frame: f.Frame, culprit: f.Culprit,
		entries: f.Entries, limit: f.Limit, at: f.At, causedBy: f.CausedBy, recovery: recoveryOf(r, f),
		series: findingSeries(r, f), remedy: remedyOf(f), since: f.Since,
		fromStart: f.FromStart, labels: findingLabels(r, f), holder: holderLead(f)}
	if f.Wait != nil && (f.Basis == "work-wait" || f.Basis == "no-adders" || f.Basis == "held-moments") {
		fr.told = f.Wait.Goroutines
	}
	if g := findingGroup(r, f); g != nil {
		fr.groups = StackGroups(g, f.At)
		fr.explain = g.Explain
	}
	if f.Owners != nil {
		fr.owners = ownersLead(f)
	}
	for _, e := range f.Evidence {
		label := fmt.Sprintf("#%d", e.Moment+1)
		if e.Moment >= 0 && e.Moment < len(ms) && ms[e.Moment].Label != "" {
			label = ms[e.Moment].Label
		}
		fr.evidence = append(fr.evidence, evidenceRow{moment: label, count: e.Count, threads: e.Threads})
	}
	return fr
}

func stateRowOf(g *analyze.Group, n int) stateRow {
	sr := stateRow{state: g.State, via: g.Via, category: g.Category, explain: g.Explain,
		counts: fitCounts(g.Counts, n), frame: g.TopFrame, culprit: g.Culprit, same: g.Same, group: g}
	sr.groupsAt = peakMoment(sr.counts)
	sr.groups = StackGroups(g, sr.groupsAt)
	return sr
}

// peakMoment is the index of the largest count, the first on a tie; 0 for
// no counts.
func peakMoment(c []int) int {
	at := 0
	for i, v := range c {
		if v > c[at] {
			at = i
		}
	}
	return at
}

// findingGroup is the group of f's pool in f's state (its via, or the
// largest via when the finding names none); nil when f names no state of
// a pool the analysis lists.
func findingGroup(r *analyze.Result, f *analyze.Finding) *analyze.Group {
	if f.Pool == "" || f.State == "" {
		return nil
	}
	p := poolNamed(r, f.Pool)
	if p == nil {
		return nil
	}
	for _, g := range p.States {
		if g.State == f.State && (g.Via == f.Via || f.Via == "") {
			return g
		}
	}
	return nil
}

func poolNamed(r *analyze.Result, name string) *analyze.Pool {
	for _, p := range r.Pools {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// dominant returns, per moment, the state of p holding most threads (the
// first one in p.States on a tie).
func dominant(p *analyze.Pool, n int) []frameCount {
	out := make([]frameCount, n)
	for _, g := range p.States {
		for i := 0; i < n && i < len(g.Counts); i++ {
			if g.Counts[i] > out[i].count {
				out[i] = frameCount{state: g.State, frame: g.TopFrame, count: g.Counts[i]}
			}
		}
	}
	return out
}

// fitCounts returns c with exactly n entries: missing ones are 0. The
// analysis promises len(Moments) entries; a renderer must not panic when a
// hand-made Result breaks the promise.
func fitCounts(c []int, n int) []int {
	if len(c) == n {
		return c
	}
	out := make([]int, n)
	copy(out, c)
	return out
}

func addCounts(dst, src []int) {
	for i := range dst {
		if i < len(src) {
			dst[i] += src[i]
		}
	}
}

// change is the last count minus the first, signed ("+190", "-5", "0"); ""
// with fewer than two moments.
func change(c []int) string {
	if len(c) < 2 {
		return ""
	}
	d := c[len(c)-1] - c[0]
	if d > 0 {
		return fmt.Sprintf("+%d", d)
	}
	return fmt.Sprint(d)
}

// arrowCounts prints counts as "10 → 200 → 200".
func arrowCounts(c []int) string {
	s := ""
	for i, v := range c {
		if i > 0 {
			s += " → "
		}
		s += fmt.Sprint(v)
	}
	return s
}

// notableLine says one notable thread in words, the same in every format:
// "main (pool main): main is waiting, not in a pool's loop: future-wait at
// com.example.App.main(App.java:24)"; with "and 4 more of its pool" when
// several share the line.
func notableLine(r *analyze.Result, nt analyze.Notable) string { return NotableLine(r, nt) }

// NotableLine is notableLine, for the TUI's overview.
func NotableLine(_ *analyze.Result, nt analyze.Notable) string {
	s := nt.Thread
	if nt.Count > 1 {
		s += fmt.Sprintf(" and %d more", nt.Count-1)
	}
	if nt.Pool != "" && nt.Pool != nt.Thread {
		s += " (" + nt.Pool + ")"
	}
	s += ": " + nt.Why + ": " + stateName(nt.State, nt.Via)
	if nt.Culprit != "" {
		s += " at " + nt.Culprit
	}
	if nt.Waiters != "" {
		s += "; " + nt.Waiters
	}
	return s
}
