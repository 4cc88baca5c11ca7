package analyze

import (
	"fmt"

	"github.com/dumpdiff/dumpdiff/parse"
)

// Pass is what one detector sees while it runs: the analysis so far, the
// classification of every moment's stacks, and the results (findings and
// claims) of the detectors it requires, and of no other. Asking for the
// findings of a detector it does not require, or for claims when it
// requires no detector that makes them, panics: the table is code, and
// TestDetectorScope runs it over every fixture.
type Pass struct {
	R *Result
	// d is the detector running, at run position pos of table t.
	d   *Detector
	t   *table
	pos int
	// results are every detector's result by run position, those that
	// have not run yet empty; this pass reads those of scope only.
	results []detectorResult
	scope   []int // run positions this pass may read, ascending
	// groupClaimers and threadClaimers are those of scope that make such
	// claims (Detector.Claims), as the table found them.
	groupClaimers, threadClaimers []int
	// wide: scope is every detector run before (TestDetectorScope's
	// reference run), and reading claims nobody makes is no panic.
	wide bool
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

// detectorResult is what one detector made: its findings and its claims.
type detectorResult struct {
	findings []Finding
	// groups claimed by a finding's ID: the finding explains them; nil
	// unless the detector declares ClaimsGroups.
	groups map[*Group]string
	// threads claimed per moment by a finding's ID (a deadlock's cycle and
	// the threads blocked on it); nil unless the detector declares
	// ClaimsThreads, and a moment's map nil until it claims there.
	threads []map[*parse.Thread]string
}

// Claims is what a detector's findings claim to explain, the result it
// makes beside them: a detector that requires it reads them
// (Pass.GroupClaim, ThreadClaim), so that one cause makes one story.
type Claims uint8

const (
	// ClaimsGroups: groups its findings explain (an event loop's own
	// groups, a pool's waiters and holders).
	ClaimsGroups Claims = 1 << iota
	// ClaimsThreads: threads its findings explain, per moment (a cycle and
	// the threads blocked on it, a lock's waiters).
	ClaimsThreads
)

func (c Claims) String() string {
	switch c {
	case 0:
		return "—"
	case ClaimsGroups:
		return "groups"
	case ClaimsThreads:
		return "threads"
	case ClaimsGroups | ClaimsThreads:
		return "groups, threads"
	}
	return fmt.Sprintf("Claims(%d)", uint8(c))
}

// Found returns the findings of d, which the running detector requires.
func (p *Pass) Found(d *Detector) []Finding {
	i, ok := p.t.index[d]
	if !ok || !p.sees(i) {
		panic(fmt.Sprintf("detector %s reads the findings of %s, which it does not require", p.d.Name, d.Name))
	}
	return p.results[i].findings
}

// sees reports whether the pass may read the result at run position i.
func (p *Pass) sees(i int) bool {
	for _, j := range p.scope {
		if j == i {
			return true
		}
	}
	return false
}

// FoundAll returns the findings of every detector the running one
// requires, in run order.
func (p *Pass) FoundAll() []Finding {
	var out []Finding
	for _, i := range p.scope {
		out = append(out, p.results[i].findings...)
	}
	return out
}

// own is the running detector's result, which its claims go to.
func (p *Pass) own(what Claims) *detectorResult {
	if p.d.Claims&what == 0 {
		panic(fmt.Sprintf("detector %s claims %s but does not declare it (Detector.Claims)", p.d.Name, what))
	}
	return &p.results[p.pos]
}

// ClaimGroup records that finding id explains g. The first claim stands.
func (p *Pass) ClaimGroup(g *Group, id string) {
	r := p.own(ClaimsGroups)
	if _, ok := r.groups[g]; !ok {
		r.groups[g] = id
	}
}

// ClaimThread records that finding id explains thread t at moment m. The
// first claim stands. Moments may be claimed side by side, each by one
// goroutine.
func (p *Pass) ClaimThread(m int, t *parse.Thread, id string) {
	r := p.own(ClaimsThreads)
	if r.threads[m] == nil {
		r.threads[m] = map[*parse.Thread]string{}
	}
	if _, ok := r.threads[m][t]; !ok {
		r.threads[m][t] = id
	}
}

// reserveClaims makes room for n thread claims at moment m before they
// are made (contended locks can have a hundred thousand waiters: growing
// the claims as they came was most of the claiming).
func (p *Pass) reserveClaims(m, n int) {
	r := p.own(ClaimsThreads)
	if r.threads[m] == nil && n > 64 {
		r.threads[m] = make(map[*parse.Thread]string, n)
	}
}

// claimers returns the run positions of the required detectors that make
// claims of the kind asked (ClaimsGroups or ClaimsThreads), in run order;
// it panics when there is none: reading claims nobody in scope can make
// is a missing Requires.
func (p *Pass) claimers(what Claims) []int {
	out := p.threadClaimers
	if what == ClaimsGroups {
		out = p.groupClaimers
	}
	if len(out) == 0 && !p.wide {
		panic(fmt.Sprintf("detector %s reads %s claims but requires no detector that makes them", p.d.Name, what))
	}
	return out
}

// GroupClaim returns the finding that explains g, of the required
// detector that ran first; "" if none.
func (p *Pass) GroupClaim(g *Group) string {
	for _, i := range p.claimers(ClaimsGroups) {
		if id := p.results[i].groups[g]; id != "" {
			return id
		}
	}
	return ""
}

// ThreadClaim returns the finding that explains t at moment m, of the
// required detector that ran first; "" if none.
func (p *Pass) ThreadClaim(m int, t *parse.Thread) string {
	for _, i := range p.claimers(ClaimsThreads) {
		if id := p.results[i].threads[m][t]; id != "" {
			return id
		}
	}
	return ""
}

// ThreadClaimOf returns the finding of d, a required detector, that
// explains t at moment m; "" if none. For a detector that treats one
// claimer's claims apart from another's (contention leaves a deadlocked
// owner to the deadlock, and follows from a spinning one).
func (p *Pass) ThreadClaimOf(d *Detector, m int, t *parse.Thread) string {
	i, ok := p.t.index[d]
	if !ok || !p.sees(i) {
		panic(fmt.Sprintf("detector %s reads the claims of %s, which it does not require", p.d.Name, d.Name))
	}
	if p.results[i].threads == nil {
		return ""
	}
	return p.results[i].threads[m][t]
}

// explainedBy returns the finding that explains most of g's threads at
// moment m (claimed group, or a majority of claimed threads); "" if none.
func (p *Pass) explainedBy(g *Group, m int) string {
	if id := p.GroupClaim(g); id != "" {
		return id
	}
	// The moment's thread claims of the required detectors that made some,
	// in run order: usually one map (a lock's waiters), often none, and
	// then the group's threads are not visited.
	var claims []map[*parse.Thread]string
	for _, i := range p.claimers(ClaimsThreads) {
		if c := p.results[i].threads[m]; len(c) > 0 {
			claims = append(claims, c)
		}
	}
	if len(claims) == 0 {
		return ""
	}
	count := map[string]int{}
	for _, t := range g.Threads[m] {
		for _, c := range claims {
			if id := c[t]; id != "" {
				count[id] += max(t.Weight, 1)
				break
			}
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

// info returns t's pool, state, culprit and entry point at moment m, as
// the build classified its stack.
func (p *Pass) info(m int, t *parse.Thread) stackInfo { return p.classes.info(m, t, &p.key) }

// signature is the signature t is classified by at moment m; nil if none.
func (p *Pass) signature(m int, t *parse.Thread) *Signature { return p.classes.signature(m, t, &p.key) }

// ref describes thread t of moment m for a finding.
func (p *Pass) ref(m int, t *parse.Thread) ThreadRef {
	ref := ThreadRef{Name: threadLabel(p.R.Runtime, t), State: stateOf(p.signature(m, t)), Culprit: FrameString(culprit(p.R.Runtime, t))}
	if fs := ownFrames(t); len(fs) > 0 {
		ref.Frame = FrameString(fs[0]) // a preempted goroutine's own top, not the runtime's preemption
	}
	return ref
}
