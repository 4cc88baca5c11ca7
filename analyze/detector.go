package analyze

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/dumpdiff/dumpdiff/parse"
)

// Finding kinds. They are part of the JSON contract.
const (
	KindDeadlock = "deadlock"
	// KindSpinning: threads busy, not waiting: the same thread on CPU in
	// the same loop (a regex backtracking, a retry without back-off, a
	// parser that does not advance), the root of whatever waits for it.
	KindSpinning     = "spinning"
	KindStuck        = "stuck"
	KindNotRecovered = "not-recovered"
	KindGrowing      = "growing"
	KindLeaked       = "leaked"
	KindSaturated    = "saturated"
	// KindDBPoolExhausted: threads queue for a DB connection while the
	// pool's connections are all lent (PoolExhaustedKind("db-connection")).
	KindDBPoolExhausted = "db-pool-exhausted"
	// KindSemaphoreExhausted: every slot of a Go buffered channel used as
	// a semaphore is held (PoolExhaustedKind(slotResource), poolholders.go).
	KindSemaphoreExhausted = "semaphore-pool-exhausted"
	KindContention         = "contention"
	// KindEventLoopBlocked: an event loop thread (Netty, Vert.x) blocks in
	// a wait: every connection it serves waits with it.
	KindEventLoopBlocked = "event-loop-blocked"
	// KindCommonPoolStarved: every ForkJoinPool common pool worker blocks:
	// parallel streams and CompletableFuture.*Async without an executor
	// wait behind them.
	KindCommonPoolStarved = "common-pool-starved"
	KindExplosion         = "explosion"
	// KindKeptAlive: main has returned and non-daemon threads left behind,
	// every one at rest in its pool, keep the JVM from ever exiting.
	KindKeptAlive = "kept-alive"
	KindRecovered = "recovered"
	// KindVThreadSchedulerSaturated: the JVM's virtual-thread scheduler has
	// every carrier mounted while virtual threads queue for one, moment
	// after moment (jcmd Thread.vthread_scheduler beside the dumps, JDK 24+).
	KindVThreadSchedulerSaturated = "vthread-scheduler-saturated"
)

// Detector is one row of the table of verdicts, with the guarantees of
// golang.org/x/tools/go/analysis's Analyzer: what must run before it is
// named by the detectors themselves (a typo does not compile), the run
// order is derived from it and checked (no cycle, no detector outside the
// table, no name twice) before any detector runs, and a detector sees the
// results (findings and claims) of what it requires and of nothing else.
// One file per detector, its thresholds beside it.
type Detector struct {
	// Name is the detector's name (the kind it makes, or its family).
	Name string
	// Kinds are the finding kinds its findings may have.
	Kinds []string
	// Doc is one line for README.md's table.
	Doc string
	// Requires are the detectors that must run first: the only ones whose
	// findings (Pass.Found, FoundAll) and claims (Pass.GroupClaim,
	// ThreadClaim) it sees.
	Requires []*Detector
	// Claims is what its findings claim to explain, a result beside them
	// for the detectors that require it; claiming what is not declared
	// panics.
	Claims Claims
	// Folds says what this detector folds into its own story instead of
	// letting it stand alone (README.md's table).
	Folds string
	// Thresholds are the limits its verdicts use, each with what it
	// protects against (README.md's table is made from them).
	Thresholds []Threshold
	Run        func(*Pass) []Finding
}

// Threshold documents one threshold constant, beside the detector that
// uses it.
type Threshold struct {
	Name  string
	Value float64
	// Doc says what the threshold protects against.
	Doc string
}

// Detectors is the table, in listing order. Run order follows Requires.
func Detectors() []*Detector {
	return []*Detector{
		deadlockDetector,
		spinningDetector,
		eventLoopDetector,
		contentionDetector,
		poolExhaustedDetector,
		timelineDetector,
		stuckDetector,
		leakedDetector,
		saturatedDetector,
		commonPoolDetector,
		executorLeakDetector,
		explosionDetector,
		keptAliveDetector,
		vthreadSchedulerDetector,
	}
}

// Kinds are every finding kind, in the order findings of one severity are
// listed.
var Kinds = append(append([]string{KindDeadlock, KindSpinning, KindEventLoopBlocked, KindStuck, KindNotRecovered, KindGrowing, KindLeaked,
	KindSaturated, KindVThreadSchedulerSaturated, KindCommonPoolStarved}, poolExhaustedKinds()...), KindContention, KindExplosion, KindKeptAlive, KindRecovered)

// table is a checked table of detectors in run order.
type table struct {
	order []*Detector
	index map[*Detector]int // run position
	// scope are, by run position, the run positions of what the detector
	// requires, ascending (the order their claims are asked in);
	// groupClaimers and threadClaimers those of them that make such claims.
	scope, groupClaimers, threadClaimers [][]int
}

// claimersIn returns the run positions of scope whose detectors make
// claims of kind what.
func (t *table) claimersIn(scope []int, what Claims) []int {
	var out []int
	for _, j := range scope {
		if t.order[j].Claims&what != 0 {
			out = append(out, j)
		}
	}
	return out
}

// detectors is the package's table, checked once, when an analysis first
// runs: a table that does not hold is a panic before any detector runs
// (TestDetectorTable checks it; TestNewTableRefuses, the errors it gives).
var detectors = sync.OnceValue(func() *table {
	t, err := newTable(Detectors())
	if err != nil {
		panic(err)
	}
	return t
})

// newTable checks ds and orders them so that each runs after what it
// requires, in listing order otherwise: every detector has a name, a Run
// and a name of its own, is listed once, and requires detectors of the
// table, each once, with no cycle.
func newTable(ds []*Detector) (*table, error) {
	listed := map[*Detector]bool{}
	names := map[string]bool{}
	for i, d := range ds {
		switch {
		case d == nil:
			return nil, fmt.Errorf("detector %d of the table is nil", i)
		case d.Name == "":
			return nil, fmt.Errorf("detector %d of the table has no name", i)
		case listed[d]:
			return nil, fmt.Errorf("detector %s is listed twice", d.Name)
		case names[d.Name]:
			return nil, fmt.Errorf("two detectors are named %s", d.Name)
		case d.Run == nil:
			return nil, fmt.Errorf("detector %s has no Run", d.Name)
		}
		listed[d], names[d.Name] = true, true
	}
	for _, d := range ds {
		seen := map[*Detector]bool{}
		for _, req := range d.Requires {
			switch {
			case req == nil:
				return nil, fmt.Errorf("detector %s requires a nil detector", d.Name)
			case !listed[req]:
				return nil, fmt.Errorf("detector %s requires %s, which is not in the table", d.Name, req.Name)
			case seen[req]:
				return nil, fmt.Errorf("detector %s requires %s twice", d.Name, req.Name)
			}
			seen[req] = true
		}
	}
	t := &table{index: map[*Detector]int{}}
	state := map[*Detector]int{} // 1 visiting, 2 done
	var path []string
	var visit func(d *Detector) error
	visit = func(d *Detector) error {
		path = append(path, d.Name)
		defer func() { path = path[:len(path)-1] }()
		switch state[d] {
		case 1:
			return fmt.Errorf("detectors require each other in a cycle: %s", strings.Join(path, " → "))
		case 2:
			return nil
		}
		state[d] = 1
		for _, req := range d.Requires {
			if err := visit(req); err != nil {
				return err
			}
		}
		state[d] = 2
		t.index[d] = len(t.order)
		t.order = append(t.order, d)
		return nil
	}
	for _, d := range ds {
		if err := visit(d); err != nil {
			return nil, err
		}
	}
	for _, d := range t.order {
		var sc []int
		for _, req := range d.Requires {
			sc = append(sc, t.index[req])
		}
		slices.Sort(sc)
		t.scope = append(t.scope, sc)
		t.groupClaimers = append(t.groupClaimers, t.claimersIn(sc, ClaimsGroups))
		t.threadClaimers = append(t.threadClaimers, t.claimersIn(sc, ClaimsThreads))
	}
	return t, nil
}

// runDetectors runs the package's detectors and sets r.Findings: root
// causes first (most severe first, then Kinds order), each followed by
// the findings caused by it.
func runDetectors(r *Result, opt Options, cls *classes, goLocks []goMomentLocks) {
	r.Findings = conclude(r, detect(detectors(), r, opt, cls, goLocks))
	handoffConsumers(r, opt, cls)
}

// detect runs t's detectors in run order, each with a pass of its own
// that reads the results of what it requires (of every detector run
// before it when opt.wideScope), and returns every finding in run order.
func detect(t *table, r *Result, opt Options, cls *classes, goLocks []goMomentLocks) []Finding {
	results := make([]detectorResult, len(t.order))
	var all []Finding
	for i, d := range t.order {
		p := &Pass{R: r, d: d, t: t, pos: i, results: results, scope: t.scope[i], groupClaimers: t.groupClaimers[i],
			threadClaimers: t.threadClaimers[i], wide: opt.wideScope, classes: cls, sigs: cls.sigs, ext: opt.Extensions,
			opt: opt, goLocks: goLocks}
		if p.wide {
			p.scope = make([]int, i)
			for j := range p.scope {
				p.scope[j] = j
			}
			p.groupClaimers, p.threadClaimers = t.claimersIn(p.scope, ClaimsGroups), t.claimersIn(p.scope, ClaimsThreads)
		}
		if d.Claims&ClaimsGroups != 0 {
			results[i].groups = map[*Group]string{}
		}
		if d.Claims&ClaimsThreads != 0 {
			results[i].threads = make([]map[*parse.Thread]string, len(r.Moments))
		}
		fs := d.Run(p)
		for j := range fs {
			fs[j].Detector = d.Name
		}
		results[i].findings = fs
		all = append(all, fs...)
	}
	return all
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
// waiters came back under PoolWaitMin), a saturated pool with room again, a deadlock, contention or blocked
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
	case f.Kind == KindSaturated:
		return f.Recovered // runSaturated's word: not saturated at the last moment
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
	// An execution trace measures each wait: the finding carries the
	// longest (detectors that read the runtime's printed minutes replace it).
	if at >= 0 && at < len(g.Threads) {
		if d, atLeast := measuredWait(g.Threads[at]); d > 0 {
			f.Wait = &WaitFact{Measured: d, AtLeast: atLeast}
		}
	}
	return f
}
