package analyze

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/dumpdiff/dumpdiff/parse"
)

// Thresholds of the verdicts, tuned on the real scenarios in
// testdata/scenarios and documented in README.md ("How verdicts are made").
const (
	// MinRise: a waiting state must rise by at least this many threads over
	// its first count to be a finding...
	MinRise = 5
	// RiseFactor: ...and to at least this many times its first count.
	RiseFactor = 2
	// RecoveredShare: a state is recovered when its last count is within
	// this share of the rise above its first count.
	RecoveredShare = 0.25
	// ExplosionFactor and ExplosionMin: the process (or a pool) multiplied
	// its threads by at least ExplosionFactor and grew by at least
	// ExplosionMin threads.
	ExplosionFactor = 3
	ExplosionMin    = 100
	// GoExplosionMin: goroutines below this many are never an explosion.
	GoExplosionMin = 10000
	// ContentionMin threads waiting on one lock held by one owner.
	ContentionMin = 5
	// SaturatedMin: a pool smaller than this is never called saturated.
	SaturatedMin = 10
	// SaturatedWaiting: share of a saturated pool's threads that must be
	// waiting (not running) at that moment.
	SaturatedWaiting = 0.8
)

// knownMax are default maximum sizes of well-known pools, by pool name
// prefix and suffix.
var knownMax = []struct {
	prefix, suffix string
	max            int
	what           string
}{
	{"http-nio-", "-exec-*", 200, "Tomcat maxThreads default"},
	{"https-jsse-nio-", "-exec-*", 200, "Tomcat maxThreads default"},
	{"http-nio2-", "-exec-*", 200, "Tomcat maxThreads default"},
	{"https-openssl-nio-", "-exec-*", 200, "Tomcat maxThreads default"},
}

// knownLimit returns the default maximum size of a well-known pool, and
// what it is; 0 when unknown.
func knownLimit(pool string) (int, string) {
	for _, k := range knownMax {
		if strings.HasPrefix(pool, k.prefix) && strings.HasSuffix(pool, k.suffix) {
			return k.max, k.what
		}
	}
	return 0, ""
}

func findings(r *Result) {
	var fs []Finding
	// A DB connection pool's own finding says more than the timeline of its
	// waiters: it replaces their not-recovered/recovered finding.
	dbPools := connectionPools(r)
	covered := map[*Group]bool{}
	for _, f := range dbPools {
		covered[f.group] = true
	}
	for _, p := range r.Pools {
		if p.Internal {
			continue
		}
		for _, g := range p.States {
			if covered[g] {
				continue
			}
			if f, ok := timelineFinding(r, p, g); ok {
				fs = append(fs, f)
			}
		}
		if f, ok := saturated(r, p); ok {
			fs = append(fs, f)
		}
		if f, ok := goPoolGrowing(r, p, fs); ok {
			fs = append(fs, f)
		}
	}
	for _, f := range dbPools {
		fs = append(fs, f.Finding)
	}
	fs = append(fs, explosion(r)...)
	fs = append(fs, deadlocks(r)...)
	fs = append(fs, contention(r)...)
	fs = append(fs, leaked(r, fs)...)
	sort.SliceStable(fs, func(i, j int) bool {
		if fs[i].Severity != fs[j].Severity {
			return fs[i].Severity > fs[j].Severity
		}
		return kindOrder(fs[i].Kind) < kindOrder(fs[j].Kind)
	})
	r.Findings = fs
}

func kindOrder(k string) int {
	for i, x := range Kinds {
		if x == k {
			return i
		}
	}
	return 99
}

// goPoolGrowing: goroutines of one Go pool that rose at every moment and
// never fell, whatever they wait on. Goroutines parked in time.Sleep or
// on an idle connection are "idle" for capacity, but a pool of them that
// only ever grows is a leak all the same. Said once per pool, and only
// when no waiting state of the pool already said it.
func goPoolGrowing(r *Result, p *Pool, already []Finding) (Finding, bool) {
	c := p.Counts
	n := len(c)
	if r.Runtime != parse.RuntimeGo || n < 3 || c[n-1]-c[0] < MinRise {
		return Finding{}, false
	}
	for i := 1; i < n; i++ {
		if c[i] <= c[i-1] {
			return Finding{}, false
		}
	}
	for _, f := range already {
		if f.Pool == p.Name && (f.Kind == KindGrowing || f.Kind == KindNotRecovered) {
			return Finding{}, false
		}
	}
	// The state that grew most carries the evidence.
	var g *Group
	for _, x := range p.States {
		if g == nil || x.Counts[n-1]-x.Counts[0] > g.Counts[n-1]-g.Counts[0] {
			g = x
		}
	}
	f := Finding{Kind: KindGrowing, Severity: Warning, Pool: p.Name, State: g.State, Via: g.Via, Counts: c,
		Frame: g.TopFrame, Culprit: g.Culprit, Evidence: evidence(g)}
	f.Summary = fmt.Sprintf("%s goroutines rose at every moment and never fell: %s; most %s", p.Name, series(r, c), stateText(g))
	if g.Same > 0 {
		f.Summary += stillThere(g.Same, momentName(r, firstRise(g.Counts)), momentName(r, n-1))
	}
	if g.Culprit != "" {
		f.Summary += "; culprit " + g.Culprit
	}
	return f, true
}

// timelineFinding judges one waiting group over the moments: growing,
// not-recovered or recovered.
func timelineFinding(r *Result, p *Pool, g *Group) (Finding, bool) {
	c := g.Counts
	n := len(c)
	if n < 2 || g.Category != Waiting && g.State != "unclassified" {
		return Finding{}, false
	}
	base := c[0]
	peak, peakAt := base, 0
	for i, x := range c {
		if x > peak {
			peak, peakAt = x, i
		}
	}
	rise := peak - base
	if rise < MinRise || peak < RiseFactor*base {
		return Finding{}, false
	}
	last := c[n-1]
	f := Finding{Pool: p.Name, State: g.State, Via: g.Via, Counts: c, Frame: g.TopFrame, Culprit: g.Culprit,
		Evidence: evidence(g)}
	what := stateText(g)
	lbl := func(i int) string { return momentName(r, i) }
	strictly := n >= 3
	for i := 1; i < n; i++ {
		if c[i] <= c[i-1] {
			strictly = false
		}
	}
	switch {
	case strictly:
		f.Kind, f.Severity = KindGrowing, Critical
		f.Summary = fmt.Sprintf("%s %s rose at every moment and never fell: %s", p.Name, what, series(r, c))
		if g.Same > 0 {
			f.Summary += stillThere(g.Same, lbl(firstRise(c)), lbl(n-1))
		}
	case float64(last-base) > RecoveredShare*float64(rise):
		f.Kind = KindNotRecovered
		f.Severity = Warning
		if last >= 10 || (p.Counts[n-1] > 0 && 2*last >= p.Counts[n-1]) {
			f.Severity = Critical
		}
		if peakAt == n-1 && n >= 3 && c[n-2] < last {
			f.Summary = fmt.Sprintf("%s %s rose from %d at %s to %d at %s, the last moment, and is still rising",
				p.Name, what, base, lbl(0), last, lbl(n-1))
		} else {
			f.Summary = fmt.Sprintf("%d of %d %s %s %s at %s (%d at %s); still %d at %s",
				peak, p.Counts[peakAt], p.Name, unit(r), what, lbl(peakAt), base, lbl(0), last, lbl(n-1))
		}
		if g.Same > 0 {
			f.Summary += fmt.Sprintf("; %d are the same %s stuck there from %s to %s", g.Same, unit(r), lbl(firstRise(c)), lbl(n-1))
		}
		if g.CPUThreads > 0 {
			per := g.CPU / time.Duration(g.CPUThreads)
			busy := "waiting, not working"
			if per > 100*time.Millisecond {
				busy = "busy"
			}
			f.Summary += fmt.Sprintf("; CPU used meanwhile: %s per thread (%s)", per.Round(time.Microsecond), busy)
		}
		if n == 2 {
			f.Summary += " (only two moments: take one more after the load to tell a stall from load)"
		}
	default:
		f.Kind, f.Severity = KindRecovered, Info
		f.Summary = fmt.Sprintf("%s %s rose from %d at %s to %d at %s and came back to %d at %s",
			p.Name, what, base, lbl(0), peak, lbl(peakAt), last, lbl(n-1))
	}
	if g.Culprit != "" {
		f.Summary += "; culprit " + g.Culprit + alsoFrom(g)
	}
	return f, true
}

// unit is what a runtime's threads are called in sentences.
func unit(r *Result) string {
	if r.Runtime == parse.RuntimeGo {
		return "goroutines"
	}
	return "threads"
}

// alsoFrom names the group's other culprits, if any: "(also from
// com.example.HealthServlet.doGet(HealthServlet.java:26): 2)".
func alsoFrom(g *Group) string {
	if len(g.Culprits) < 2 {
		return ""
	}
	var parts []string
	for i, c := range g.Culprits[1:] {
		if i == 2 {
			parts = append(parts, fmt.Sprintf("%d more", len(g.Culprits)-3))
			break
		}
		parts = append(parts, fmt.Sprintf("%s: %d", c.Func, c.Count))
	}
	return " (also from " + strings.Join(parts, ", ") + ")"
}

// dbFinding is a db-pool-exhausted finding and the group it is about.
type dbFinding struct {
	Finding
	group *Group
}

// connectionPools: a DB connection pool exhausted. Threads wait in the
// pool (db-pool-wait) while the connections' holders wait for the database
// (socket-read via jdbc); every other caller of the pool, a health check
// among them, waits behind them. It rose like any timeline finding.
func connectionPools(r *Result) []dbFinding {
	var fs []dbFinding
	for _, p := range r.Pools {
		for _, g := range p.States {
			if g.State != "db-pool-wait" || p.Internal {
				continue
			}
			peak, at := 0, 0
			for i, c := range g.Counts {
				if c > peak {
					peak, at = c, i
				}
			}
			base := g.Counts[0]
			if peak-base < MinRise || peak < RiseFactor*base {
				continue
			}
			holders := 0
			var holder *Group
			for _, q := range r.Pools {
				for _, h := range q.States {
					if strings.HasPrefix(h.Via, "jdbc") && h.Counts[at] > 0 {
						holders += h.Counts[at]
						if holder == nil || h.Counts[at] > holder.Counts[at] {
							holder = h
						}
					}
				}
			}
			n := len(g.Counts)
			f := Finding{Kind: KindDBPoolExhausted, Severity: Warning, Pool: p.Name, State: g.State, Counts: g.Counts,
				Frame: g.TopFrame, Culprit: g.Culprit, Evidence: evidence(g)}
			last := g.Counts[n-1]
			if float64(last-base) > RecoveredShare*float64(peak-base) {
				f.Severity = Critical
			}
			f.Summary = fmt.Sprintf("DB connection pool exhausted at %s: %d %s threads wait for a connection",
				momentName(r, at), peak, p.Name)
			if holder != nil {
				f.Summary += fmt.Sprintf(" while %d hold one and wait for the database (%s", holders, holder.Via)
				if holder.Culprit != "" {
					f.Summary += ", " + holder.Culprit
				}
				f.Summary += fmt.Sprintf("): the pool has about %d connections", holders)
			}
			f.Summary += "; waiting from " + culpritList(g)
			for _, c := range g.Culprits {
				if strings.Contains(strings.ToLower(c.Func), "health") {
					f.Summary += fmt.Sprintf("; the health check %s waits too: a probe on it fails under load and takes a healthy instance out", c.Func)
					break
				}
			}
			if f.Severity == Critical {
				f.Summary += fmt.Sprintf("; not recovered: %d still waiting at %s", last, momentName(r, n-1))
			} else {
				f.Summary += fmt.Sprintf("; recovered: %d waiting at %s", last, momentName(r, n-1))
			}
			fs = append(fs, dbFinding{f, g})
		}
	}
	return fs
}

func culpritList(g *Group) string {
	var parts []string
	for i, c := range g.Culprits {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("%d more", len(g.Culprits)-3))
			break
		}
		parts = append(parts, fmt.Sprintf("%s: %d", c.Func, c.Count))
	}
	if len(parts) == 0 {
		return "no application frame"
	}
	return strings.Join(parts, ", ")
}

func firstRise(c []int) int {
	for i := 1; i < len(c); i++ {
		if c[i] > c[0] {
			return i
		}
	}
	return 0
}

// stateText names a group's state for sentences: "in socket-read (jdbc
// org.postgresql)".
func stateText(g *Group) string {
	s := "in " + g.State
	if g.Via != "" {
		s += " (" + g.Via + ")"
	}
	return s
}

// momentName names moment i in a sentence: its label, or "moment 2" when
// the label is a bare number (a fixed-schedule capture labels them 1..N).
func momentName(r *Result, i int) string {
	l := r.Moments[i].Label
	if strings.Trim(l, "0123456789") == "" {
		return "moment " + l
	}
	return l
}

// stillThere says that the threads seen when a state rose are all still in
// it at the end.
func stillThere(n int, from, to string) string {
	if n == 1 {
		return fmt.Sprintf("; the one seen at %s is still there at %s", from, to)
	}
	return fmt.Sprintf("; the %d seen at %s are all still there at %s", n, from, to)
}

func series(r *Result, c []int) string {
	parts := make([]string, len(c))
	for i, x := range c {
		parts[i] = fmt.Sprintf("%d at %s", x, momentName(r, i))
	}
	return strings.Join(parts, ", ")
}

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

// saturated: a pool at its known or observed maximum with no idle thread,
// nearly all of them waiting.
func saturated(r *Result, p *Pool) (Finding, bool) {
	if r.Runtime != parse.RuntimeJVM {
		return Finding{}, false
	}
	limit, why := knownLimit(p.Name)
	// The first moment is the baseline, unless it is the only one: one dump
	// alone can show a saturated pool.
	from := 1
	if len(p.Counts) == 1 {
		from = 0
	}
	for m := from; m < len(p.Counts); m++ {
		total := p.Counts[m]
		if total < SaturatedMin {
			continue
		}
		idle, waiting := 0, 0
		var top *Group
		for _, g := range p.States {
			switch g.Category {
			case Idle:
				idle += g.Counts[m]
			case Waiting:
				waiting += g.Counts[m]
				if top == nil || g.Counts[m] > top.Counts[m] {
					top = g
				}
			}
		}
		// Without a known limit, only a fixed-size pool (as many threads at
		// the first moment as ever) is at its maximum; a pool that grew, like
		// Thread-* per task, has no maximum to be at.
		// Alone, a dump cannot tell a fixed pool from one that happens to be
		// busy: then only a known limit counts.
		atMax := total >= limit && limit > 0 || (limit == 0 && from == 1 && total == p.Max && p.Counts[0] == p.Max)
		if !atMax || idle > 0 || float64(waiting) < SaturatedWaiting*float64(total) {
			continue
		}
		// A fixed pool whose threads wait the same way at every moment (idle
		// workers resting in Object.wait) is not saturated: the wait must
		// have come with the load.
		if limit == 0 && (top == nil || top.Counts[m]-top.Counts[0] < MinRise) {
			continue
		}
		f := Finding{Kind: KindSaturated, Severity: Critical, Pool: p.Name, Counts: p.Counts}
		max := fmt.Sprintf("its observed maximum %d", p.Max)
		if limit > 0 {
			max = fmt.Sprintf("%d (%s)", limit, why)
		}
		f.Summary = fmt.Sprintf("%s saturated at %s: %d threads, none idle, %d waiting", p.Name, momentName(r, m), total, waiting)
		f.Summary += "; pool size " + max
		if top != nil {
			f.State, f.Via, f.Frame, f.Culprit = top.State, top.Via, top.TopFrame, top.Culprit
			f.Summary += fmt.Sprintf("; most %s", stateText(top))
			f.Evidence = []Evidence{{Moment: m, Count: top.Counts[m], Threads: top.Samples[m]}}
		}
		return f, true
	}
	return Finding{}, false
}

// explosion: the process, or one pool, multiplied its threads.
func explosion(r *Result) []Finding {
	if len(r.Totals) < 2 {
		return nil
	}
	// Pools bounded by a known maximum (Tomcat's request threads) grow under
	// load by design, up to their limit: that is saturation, not an
	// explosion, so their growth is left out.
	t := make([]int, len(r.Totals))
	copy(t, r.Totals)
	for _, p := range r.Pools {
		if limit, _ := knownLimit(p.Name); limit > 0 {
			for i := range t {
				t[i] -= p.Counts[i]
			}
		}
	}
	peak, at := 0, 0
	for i, x := range t {
		if x > peak {
			peak, at = x, i
		}
	}
	if peak < ExplosionFactor*t[0] || peak-t[0] < ExplosionMin {
		return nil
	}
	// Goroutines are cheap: many more under load is normal. Only a count
	// that threatens memory is an explosion.
	if r.Runtime == parse.RuntimeGo && peak < GoExplosionMin {
		return nil
	}
	// Name the pool that grew most.
	var top *Pool
	for _, p := range r.Pools {
		if top == nil || p.Counts[at]-p.Counts[0] > top.Counts[at]-top.Counts[0] {
			top = p
		}
	}
	tt := r.Totals
	f := Finding{Kind: KindExplosion, Severity: Critical, Counts: tt}
	f.Summary = fmt.Sprintf(unit(r)+" ×%.1f: %d at %s → %d at %s", float64(tt[at])/float64(max(tt[0], 1)), tt[0], momentName(r, 0), tt[at], momentName(r, at))
	if top != nil {
		f.Pool = top.Name
		f.Summary += fmt.Sprintf("; %s grew %d → %d", top.Name, top.Counts[0], top.Counts[at])
		if g := topWaiting(top, at); g != nil {
			f.State, f.Via, f.Frame, f.Culprit = g.State, g.Via, g.TopFrame, g.Culprit
			f.Summary += fmt.Sprintf(", most %s", stateText(g))
			if g.Culprit != "" {
				f.Summary += " at " + g.Culprit
			}
			f.Evidence = evidence(g)
		}
		if strings.HasPrefix(top.Name, "Thread-") {
			f.Summary += " (unnamed threads created per task: an executor without a bounded pool, e.g. CompletableFuture.supplyAsync with no executor when the common pool's parallelism is 1)"
		}
	}
	last := len(tt) - 1
	if t[last] >= ExplosionFactor*t[0] && last != at {
		f.Summary += fmt.Sprintf("; still %d at %s", tt[last], momentName(r, last))
	}
	return []Finding{f}
}

// deadlocks: JVM deadlock reports, lock cycles the JVM did not report,
// and Go's "all goroutines are asleep".
func deadlocks(r *Result) []Finding {
	var fs []Finding
	seen := map[string]int{} // cycle key → index in fs
	addCycle := func(m int, threads []*parse.Thread, how string) {
		names := make([]string, len(threads))
		for i, t := range threads {
			names[i] = t.Name
		}
		sorted := append([]string(nil), names...)
		sort.Strings(sorted)
		key := strings.Join(sorted, "\x00")
		if i, ok := seen[key]; ok {
			// The same cycle seen again: at a later moment, or found both by
			// the JVM's report and by the lock lines.
			if fs[i].Counts[m] == 0 {
				fs[i].Evidence = append(fs[i].Evidence, Evidence{Moment: m, Count: len(names), Threads: names})
				fs[i].Counts[m] = len(names)
			}
			return
		}
		f := Finding{Kind: KindDeadlock, Severity: Critical, Counts: make([]int, len(r.Moments)),
			Summary:  fmt.Sprintf("%s deadlock between %d threads: %s (at %s)", how, len(names), quoteList(names, 6), momentName(r, m)),
			Evidence: []Evidence{{Moment: m, Count: len(names), Threads: names}}}
		f.Summary += cycleDetail(r, r.Moments[m].Dump, threads, &f)
		f.Counts[m] = len(names)
		seen[key] = len(fs)
		fs = append(fs, f)
	}
	for m, mo := range r.Moments {
		d := mo.Dump
		if d == nil {
			continue
		}
		for _, dl := range d.Deadlocks {
			if ts := reportedThreads(d, dl); len(ts) > 0 {
				addCycle(m, ts, "JVM-reported")
			}
		}
		if r.Runtime == parse.RuntimeJVM {
			for _, cyc := range lockCycles(d) {
				addCycle(m, cyc, "lock-cycle")
			}
		}
		if strings.Contains(d.Headline, "all goroutines are asleep") {
			if i, ok := seen["\x00go-asleep"]; ok {
				fs[i].Counts[m] = d.ThreadCount()
				fs[i].Evidence = append(fs[i].Evidence, Evidence{Moment: m, Count: d.ThreadCount()})
				continue
			}
			f := Finding{Kind: KindDeadlock, Severity: Critical, Counts: make([]int, len(r.Moments)),
				Summary:  fmt.Sprintf("the Go runtime stopped the program at %s: %q", momentName(r, m), d.Headline),
				Evidence: []Evidence{{Moment: m, Count: d.ThreadCount()}}}
			f.Counts[m] = d.ThreadCount()
			seen["\x00go-asleep"] = len(fs)
			fs = append(fs, f)
		}
	}
	return fs
}

// reportedThreads finds the threads of a JVM deadlock report. Names are
// not unique (two pools may both have "Worker-A"): of the threads with an
// edge's name, the one blocked on the lock the edge names is taken.
func reportedThreads(d *parse.Dump, dl parse.Deadlock) []*parse.Thread {
	var out []*parse.Thread
	for _, e := range dl.Cycle {
		var pick *parse.Thread
		for _, t := range d.Threads {
			if t.Name != e.Thread {
				continue
			}
			if pick == nil {
				pick = t
			}
			if a, _ := waitsFor(t); a != "" && strings.Contains(e.Waiting, a) {
				pick = t
				break
			}
		}
		if pick == nil {
			pick = &parse.Thread{Name: e.Thread} // not in the dump: the name alone
		}
		out = append(out, pick)
	}
	return out
}

// cycleDetail tells, for each thread of a deadlock, where it is stuck and
// what it waits for: `; "A" at Bank.transfer(Bank.java:20) waits for
// <0x...> (a Account) held by "B"`. It sets f.Frame and f.Culprit from the
// first thread.
func cycleDetail(r *Result, d *parse.Dump, threads []*parse.Thread, f *Finding) string {
	if d == nil {
		return ""
	}
	h := holders(d)
	var sb strings.Builder
	for i, t := range threads {
		if i == 4 {
			break
		}
		c := culprit(r.Runtime, t)
		if f.Frame == "" && len(t.Frames) > 0 {
			f.Frame = t.Frames[0].Func
			f.Culprit = FrameString(c)
		}
		fmt.Fprintf(&sb, "; %q", t.Name)
		if c != nil {
			sb.WriteString(" at " + FrameString(c))
		}
		if a, cl := waitsFor(t); a != "" {
			fmt.Fprintf(&sb, " waits for <%s> (a %s)", a, cl)
			if o := h[a]; o != nil {
				fmt.Fprintf(&sb, " held by %q", o.Name)
			}
		}
	}
	return sb.String()
}

func quoteList(names []string, max int) string {
	var q []string
	for i, n := range names {
		if i == max {
			q = append(q, fmt.Sprintf("and %d more", len(names)-max))
			break
		}
		q = append(q, fmt.Sprintf("%q", n))
	}
	return strings.Join(q, ", ")
}

// holders maps lock addresses to the thread holding them (monitors locked
// and ownable synchronizers).
func holders(d *parse.Dump) map[string]*parse.Thread {
	h := map[string]*parse.Thread{}
	for _, t := range d.Threads {
		for _, l := range t.Locks {
			if (l.Kind == parse.LockHeld || l.Kind == parse.LockOwnable) && l.Address != "" {
				// A thread in Object.wait() prints "locked" for a monitor it released; the
				// "waiting on" line for the same address says so.
				if !releasedByWait(t, l.Address) {
					h[l.Address] = t
				}
			}
		}
	}
	return h
}

func releasedByWait(t *parse.Thread, addr string) bool {
	for _, l := range t.Locks {
		if l.Kind == parse.LockWaitingOn && l.Address == addr {
			return true
		}
	}
	return false
}

// waitsFor returns the lock a thread is blocked on: a monitor it waits to
// lock, or a j.u.c lock it parks for; "" if none.
func waitsFor(t *parse.Thread) (addr, class string) {
	for _, l := range t.Locks {
		switch l.Kind {
		case parse.LockWaitingTo, parse.LockReLocking:
			return l.Address, l.Class
		case parse.LockParking:
			if isLockClass(l.Class) {
				return l.Address, l.Class
			}
		}
	}
	return "", ""
}

// isLockClass reports whether a parking blocker is a lock (a thread parks
// behind its owner) rather than a condition, queue or latch (threads park
// there to rest): "java.util.concurrent.locks.ReentrantLock$NonfairSync" is,
// "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject" is not.
func isLockClass(class string) bool {
	simple := class[strings.LastIndexByte(class, '.')+1:]
	for _, notLock := range []string{"Condition", "CountDownLatch", "Semaphore", "CyclicBarrier", "FutureTask", "Phaser", "CompletableFuture"} {
		if strings.Contains(simple, notLock) {
			return false
		}
	}
	return strings.HasPrefix(simple, "ReentrantLock") || strings.HasPrefix(simple, "ReentrantReadWriteLock") ||
		strings.HasPrefix(simple, "StampedLock") || strings.HasSuffix(simple, "Sync") || strings.HasSuffix(simple, "Lock")
}

// lockCycles finds cycles in the waits-for graph of one JVM dump.
func lockCycles(d *parse.Dump) [][]*parse.Thread {
	h := holders(d)
	next := map[*parse.Thread]*parse.Thread{}
	for _, t := range d.Threads {
		if a, _ := waitsFor(t); a != "" {
			if o := h[a]; o != nil && o != t {
				next[t] = o
			}
		}
	}
	var out [][]*parse.Thread
	done := map[*parse.Thread]bool{}
	for _, t := range d.Threads {
		if done[t] {
			continue
		}
		path := map[*parse.Thread]int{}
		var order []*parse.Thread
		for cur := t; cur != nil && !done[cur]; cur = next[cur] {
			if i, ok := path[cur]; ok {
				out = append(out, append([]*parse.Thread(nil), order[i:]...))
				break
			}
			path[cur] = len(order)
			order = append(order, cur)
		}
		for _, x := range order {
			done[x] = true
		}
	}
	return out
}

// contention: many threads behind one lock held by one owner.
func contention(r *Result) []Finding {
	type key struct{ addr, class string }
	best := map[key]Finding{}
	var order []key
	for m, mo := range r.Moments {
		d := mo.Dump
		if d == nil || r.Runtime != parse.RuntimeJVM {
			continue
		}
		h := holders(d)
		waiters := map[key][]string{}
		for _, t := range d.Threads {
			if a, c := waitsFor(t); a != "" {
				k := key{a, c}
				waiters[k] = append(waiters[k], t.Name)
			}
		}
		for k, ws := range waiters {
			if len(ws) < ContentionMin {
				continue
			}
			owner := h[k.addr]
			if owner == nil {
				continue // no owner printed: nothing to say who blocks them
			}
			f, ok := best[k]
			if !ok {
				order = append(order, k)
				f = Finding{Kind: KindContention, Severity: Warning, Counts: make([]int, len(r.Moments))}
			}
			f.Counts[m] = len(ws)
			f.Evidence = append(f.Evidence, Evidence{Moment: m, Count: len(ws), Threads: firstN(ws, 5)})
			if len(ws) >= maxOf(f.Counts) {
				f.Summary = fmt.Sprintf("%d threads wait for <%s> (a %s) at %s, held by %q", len(ws), k.addr, k.class, momentName(r, m), owner.Name)
				if len(owner.Frames) > 0 {
					f.Frame = owner.Frames[0].Func
					f.Summary += " in " + FrameString(owner.Frames[0])
				}
				if c := culprit(r.Runtime, owner); c != nil {
					f.Culprit = FrameString(c)
				}
			}
			best[k] = f
		}
	}
	var fs []Finding
	for _, k := range order {
		fs = append(fs, best[k])
	}
	return fs
}

func firstN(xs []string, n int) []string {
	if len(xs) > n {
		return xs[:n]
	}
	return xs
}

// leaked: goroutines the Go runtime itself marked leaked (goroutine leak
// profile, Go 1.26+), joined with the timeline.
func leaked(r *Result, others []Finding) []Finding {
	if r.Runtime != parse.RuntimeGo {
		return nil
	}
	type acc struct {
		counts  []int
		samples [][]string
		frame   string
		culprit string
	}
	per := map[string]*acc{}
	var order []string
	for _, p := range r.Pools {
		for _, g := range p.States {
			for m, ts := range g.Threads {
				for _, t := range ts {
					if !isLeaked(t, r.Moments[m].Dump) {
						continue
					}
					a := per[p.Name]
					if a == nil {
						a = &acc{counts: make([]int, len(r.Moments)), samples: make([][]string, len(r.Moments)), frame: g.TopFrame, culprit: g.Culprit}
						per[p.Name] = a
						order = append(order, p.Name)
					}
					a.counts[m] += max(t.Weight, 1)
					if len(a.samples[m]) < 5 {
						a.samples[m] = append(a.samples[m], threadLabel(r.Runtime, t))
					}
				}
			}
		}
	}
	var fs []Finding
	for _, name := range order {
		a := per[name]
		f := Finding{Kind: KindLeaked, Severity: Warning, Pool: name, Counts: a.counts, Frame: a.frame, Culprit: a.culprit}
		total := 0
		for m, c := range a.counts {
			if c > 0 {
				f.Evidence = append(f.Evidence, Evidence{Moment: m, Count: c, Threads: a.samples[m]})
			}
			total = max(total, c)
		}
		f.Summary = fmt.Sprintf("the Go runtime marked %d goroutines of %s as leaked (blocked forever on something unreachable): %s", total, name, series(r, a.counts))
		for _, o := range others {
			if o.Pool == name && (o.Kind == KindGrowing || o.Kind == KindNotRecovered) {
				f.Severity = Critical
				f.Summary += "; and the pool is " + o.Kind + ": the strongest evidence of a leak"
				break
			}
		}
		if a.culprit != "" {
			f.Summary += "; culprit " + a.culprit
		}
		fs = append(fs, f)
	}
	return fs
}

func isLeaked(t *parse.Thread, d *parse.Dump) bool {
	if d != nil && d.Kind == "goroutineleak" {
		return true
	}
	for _, fl := range t.Flags {
		if fl == "leaked" {
			return true
		}
	}
	return false
}

// topWaiting returns the group of p with most threads at moment m,
// preferring waiting groups.
func topWaiting(p *Pool, m int) *Group {
	var best *Group
	for _, g := range p.States {
		if best == nil {
			best = g
			continue
		}
		gw, bw := g.Category == Waiting, best.Category == Waiting
		if gw != bw && gw || gw == bw && g.Counts[m] > best.Counts[m] {
			best = g
		}
	}
	return best
}
