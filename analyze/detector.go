package analyze

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// Finding kinds. They are part of the JSON contract.
const (
	KindDeadlock     = "deadlock"
	KindStuck        = "stuck"
	KindNotRecovered = "not-recovered"
	KindGrowing      = "growing"
	KindLeaked       = "leaked"
	KindSaturated    = "saturated"
	// KindDBPoolExhausted: threads queue for a DB connection while the
	// pool's connections are all lent (PoolExhaustedKind("db-connection")).
	KindDBPoolExhausted = "db-pool-exhausted"
	KindContention      = "contention"
	// KindEventLoopBlocked: an event loop thread (Netty, Vert.x) blocks in
	// a wait: every connection it serves waits with it.
	KindEventLoopBlocked = "event-loop-blocked"
	// KindCommonPoolStarved: every ForkJoinPool common pool worker blocks:
	// parallel streams and CompletableFuture.*Async without an executor
	// wait behind them.
	KindCommonPoolStarved = "common-pool-starved"
	KindExplosion         = "explosion"
	KindRecovered         = "recovered"
)

// Detector is one row of the table of verdicts, in the shape of
// golang.org/x/tools/go/analysis's Analyzer: a name, a line of doc, what
// must run before it, and a Run over the analysis. One file per detector.
type Detector struct {
	// Name is the detector's name (the kind it makes, or its family).
	Name string
	// Kinds are the finding kinds its findings may have.
	Kinds []string
	// Doc is one line for README.md's table.
	Doc string
	// Requires names detectors that must run first: their findings are in
	// Pass.Found, and the groups and threads they explain are claimed.
	Requires []string
	// Folds says what this detector folds into its own story instead of
	// letting it stand alone (README.md's table).
	Folds string
	Run   func(*Pass) []Finding
}

// Detectors is the table, in listing order. Run order follows Requires.
func Detectors() []*Detector {
	return []*Detector{
		deadlockDetector,
		eventLoopDetector,
		contentionDetector,
		poolExhaustedDetector,
		timelineDetector,
		stuckDetector,
		leakedDetector,
		saturatedDetector,
		commonPoolDetector,
		explosionDetector,
	}
}

// Kinds are every finding kind, in the order findings of one severity are
// listed.
var Kinds = append(append([]string{KindDeadlock, KindEventLoopBlocked, KindStuck, KindNotRecovered, KindGrowing, KindLeaked,
	KindSaturated, KindCommonPoolStarved}, poolExhaustedKinds()...), KindContention, KindExplosion, KindRecovered)

// Pass is what a detector sees: the analysis so far, the findings of the
// detectors it requires, and what they claimed.
type Pass struct {
	R *Result
	// found are the findings made so far, by detector name; ran is the
	// names in the order they ran.
	found map[string][]Finding
	ran   []string
	// groups claimed by a finding's ID: the finding explains them.
	groups map[*Group]string
	// threads claimed per moment by a finding's ID (a deadlock's cycle and
	// the threads blocked on it).
	threads []map[*parse.Thread]string
	// classes are the build's classification of every moment's stacks;
	// key is room for a stack's key.
	classes *classes
	key     []byte
	// sigs is the signature table (a signatures file's rows first); ext the
	// extensions, nil when none.
	sigs []Signature
	ext  *Extensions
	// opt are the analysis's options: a detector names pools as the
	// builder did (--pool-by label:, by entry point).
	opt Options
	// goLocks are each moment's Go lock waiters, as the build gathered
	// them; nil for the JVM.
	goLocks []goMomentLocks
}

// knownLimit returns the maximum size of a pool as a signatures file
// ("configured") or a well-known default ("default") gives it, and what it
// is; 0 when unknown.
func (p *Pass) knownLimit(pool string) (max int, what, source string) {
	if p.ext != nil {
		for _, l := range p.ext.Pools {
			if globMatch(l.Pattern, pool) {
				what := l.What
				if what == "" {
					what = "from the signatures file"
				}
				return l.Max, what, "configured"
			}
		}
	}
	max, what = knownLimit(pool)
	return max, what, "default"
}

// info returns t's pool, state, culprit and entry point at moment m, as
// the build classified its stack.
func (p *Pass) info(m int, t *parse.Thread) stackInfo { return p.classes.info(m, t, &p.key) }

// Found returns the findings of a detector that ran before.
func (p *Pass) Found(name string) []Finding { return p.found[name] }

// FoundAll returns every finding made so far.
func (p *Pass) FoundAll() []Finding {
	var out []Finding
	for _, name := range p.ran {
		out = append(out, p.found[name]...)
	}
	return out
}

// ClaimGroup records that finding id explains g.
func (p *Pass) ClaimGroup(g *Group, id string) {
	if _, ok := p.groups[g]; !ok {
		p.groups[g] = id
	}
}

// GroupClaim returns the finding that explains g; "" if none.
func (p *Pass) GroupClaim(g *Group) string { return p.groups[g] }

// ClaimThread records that finding id explains thread t at moment m.
func (p *Pass) ClaimThread(m int, t *parse.Thread, id string) {
	if _, ok := p.threads[m][t]; !ok {
		p.threads[m][t] = id
	}
}

// reserveClaims makes room for n thread claims at moment m before they
// are made (contended locks can have a hundred thousand waiters: growing
// the claims as they came was most of the claiming).
func (p *Pass) reserveClaims(m, n int) {
	if len(p.threads[m]) == 0 && n > 64 {
		p.threads[m] = make(map[*parse.Thread]string, n)
	}
}

// ThreadClaim returns the finding that explains t at moment m; "" if none.
func (p *Pass) ThreadClaim(m int, t *parse.Thread) string { return p.threads[m][t] }

// explainedBy returns the finding that explains most of g's threads at
// moment m (claimed group, or a majority of claimed threads); "" if none.
func (p *Pass) explainedBy(g *Group, m int) string {
	if id := p.groups[g]; id != "" {
		return id
	}
	count := map[string]int{}
	for _, t := range g.Threads[m] {
		if id := p.threads[m][t]; id != "" {
			count[id] += max(t.Weight, 1)
		}
	}
	best, bc := "", 0
	for id, c := range count {
		if c > bc || c == bc && id < best {
			best, bc = id, c
		}
	}
	if 2*bc > g.Counts[m] {
		return best
	}
	return ""
}

// signature is the signature t is classified by at moment m; nil if none.
func (p *Pass) signature(m int, t *parse.Thread) *Signature { return p.classes.signature(m, t, &p.key) }

// ref describes thread t of moment m for a finding.
func (p *Pass) ref(m int, t *parse.Thread) ThreadRef {
	ref := ThreadRef{Name: threadLabel(p.R.Runtime, t), State: stateOf(p.signature(m, t)), Culprit: FrameString(culprit(p.R.Runtime, t))}
	if len(t.Frames) > 0 {
		ref.Frame = FrameString(t.Frames[0])
	}
	return ref
}

// runDetectors runs every detector in Requires order and sets r.Findings:
// root causes first (most severe first, then Kinds order), each followed by
// the findings caused by it.
func runDetectors(r *Result, opt Options, cls *classes, goLocks []goMomentLocks) {
	ext := opt.Extensions
	p := &Pass{R: r, opt: opt, sigs: cls.sigs, ext: ext, found: map[string][]Finding{}, groups: map[*Group]string{},
		threads: make([]map[*parse.Thread]string, len(r.Moments)), classes: cls, goLocks: goLocks}
	for i := range p.threads {
		p.threads[i] = map[*parse.Thread]string{}
	}
	order, err := runOrder(Detectors())
	if err != nil {
		panic(err) // the table is code: TestDetectorTable keeps it sound
	}
	for _, d := range order {
		fs := d.Run(p)
		for i := range fs {
			fs[i].Detector = d.Name
		}
		p.found[d.Name] = fs
		p.ran = append(p.ran, d.Name)
	}
	r.Findings = conclude(r, p.FoundAll())
}

// conclude marks what recovered, raises causes and puts the findings in
// story order. Whether a finding recovered is its own detector's word (a
// pool-exhausted finding left at warning), read before a cause takes the
// severity of what it causes.
func conclude(r *Result, fs []Finding) []Finding {
	for i := range fs {
		fs[i].Recovered = recovered(r, &fs[i])
	}
	return storyOrder(raiseCauses(fs))
}

// recovered tells whether what f is about is gone at the last moment: a
// recovered rise, a pool-exhausted finding of warning severity (its
// waiters came back under PoolWaitMin), a deadlock, contention or blocked
// event loop no longer seen. One moment cannot tell: false.
func recovered(r *Result, f *Finding) bool {
	n := len(r.Moments)
	if n < 2 || len(f.Counts) != n {
		return false
	}
	switch {
	case f.Kind == KindRecovered:
		return true
	case isPoolExhausted(f.Kind):
		return f.Severity != Critical
	case f.Kind == KindDeadlock || f.Kind == KindContention || f.Kind == KindEventLoopBlocked:
		return f.Counts[n-1] == 0
	}
	return false
}

// raiseCauses gives a cause at least the severity of what it causes: a
// contended lock that keeps a pool stuck is as critical as the stuck pool.
func raiseCauses(fs []Finding) []Finding {
	byID := map[string]int{}
	for i, f := range fs {
		byID[f.ID] = i
	}
	for changed := true; changed; {
		changed = false
		for _, f := range fs {
			if i, ok := byID[f.CausedBy]; ok && f.CausedBy != f.ID && fs[i].Severity < f.Severity {
				fs[i].Severity = f.Severity
				changed = true
			}
		}
	}
	return fs
}

// runOrder sorts the detectors so that each runs after what it requires;
// table order otherwise.
func runOrder(ds []*Detector) ([]*Detector, error) {
	byName := map[string]*Detector{}
	for _, d := range ds {
		byName[d.Name] = d
	}
	var out []*Detector
	state := map[string]int{} // 1 visiting, 2 done
	var visit func(d *Detector) error
	visit = func(d *Detector) error {
		switch state[d.Name] {
		case 1:
			return fmt.Errorf("detector %s: Requires form a cycle", d.Name)
		case 2:
			return nil
		}
		state[d.Name] = 1
		for _, req := range d.Requires {
			rd := byName[req]
			if rd == nil {
				return fmt.Errorf("detector %s requires unknown detector %q", d.Name, req)
			}
			if err := visit(rd); err != nil {
				return err
			}
		}
		state[d.Name] = 2
		out = append(out, d)
		return nil
	}
	for _, d := range ds {
		if err := visit(d); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// storyOrder lists root causes most severe first, each followed by its
// consequences (depth first). A finding whose cause is missing is a root.
func storyOrder(fs []Finding) []Finding {
	ids := map[string]bool{}
	for _, f := range fs {
		ids[f.ID] = true
	}
	children := map[string][]Finding{}
	var roots []Finding
	for _, f := range fs {
		if f.CausedBy != "" && ids[f.CausedBy] && f.CausedBy != f.ID {
			children[f.CausedBy] = append(children[f.CausedBy], f)
		} else {
			f.CausedBy = ""
			roots = append(roots, f)
		}
	}
	less := func(a, b Finding) bool {
		if a.Severity != b.Severity {
			return a.Severity > b.Severity
		}
		return kindOrder(a.Kind) < kindOrder(b.Kind)
	}
	sort.SliceStable(roots, func(i, j int) bool { return less(roots[i], roots[j]) })
	var out []Finding
	seen := map[string]bool{}
	var walk func(f Finding)
	walk = func(f Finding) {
		if seen[f.ID] {
			return
		}
		seen[f.ID] = true
		out = append(out, f)
		kids := children[f.ID]
		sort.SliceStable(kids, func(i, j int) bool { return less(kids[i], kids[j]) })
		for _, k := range kids {
			walk(k)
		}
	}
	for _, f := range roots {
		walk(f)
	}
	return out
}

func kindOrder(k string) int {
	for i, x := range Kinds {
		if x == k {
			return i
		}
	}
	if isPoolExhausted(k) {
		return kindOrder(KindDBPoolExhausted)
	}
	return len(Kinds)
}

// findingID makes a Finding.ID from its parts.
func findingID(parts ...string) string {
	var nonEmpty []string
	for _, s := range parts {
		if s != "" {
			nonEmpty = append(nonEmpty, s)
		}
	}
	return strings.Join(nonEmpty, " ")
}

// evidence lists, per moment with threads, the group's samples.
func evidence(g *Group) []Evidence {
	var ev []Evidence
	for m, c := range g.Counts {
		if c == 0 {
			continue
		}
		ev = append(ev, Evidence{Moment: m, Count: c, Threads: g.Samples[m]})
	}
	return ev
}

// groupFinding fills the facts every finding about one group shares.
func groupFinding(kind string, p *Pool, g *Group, at int) Finding {
	f := Finding{ID: findingID(kind, p.Name, g.State, g.Via), Kind: kind, Pool: p.Name, State: g.State, Via: g.Via,
		Resource: g.Resource, Counts: g.Counts, PoolCounts: p.Counts, At: at, Frame: g.TopFrame, Culprit: g.Culprit,
		Culprits: g.Culprits, Evidence: evidence(g)}
	if at >= 0 && at < len(g.Entries) {
		f.Entries = g.Entries[at]
	}
	if g.CPUThreads > 0 {
		f.CPU, f.CPUThreads = g.CPU, g.CPUThreads
	}
	return f
}
