package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dumpdiff/dumpdiff/analyze"
)

// The verdict every ticket format leads with: the answer in a few lines
// (root cause, consequence, recovered or not, the numbers, the culprit,
// the entry points), made of the findings' facts. The sentences stay
// Summary's: the lead takes its first clause, and says the rest with
// labelled facts.

// headClause is the first clause of f's Summary: the finding's claim
// ("96 http-nio-8080-exec-* threads wait for a DB connection at during-2"),
// without the details the other clauses add. Summary joins its clauses with
// "; "; a name from a dump holding "; " cuts the head short there, which
// leaves a shorter true statement.
func headClause(r *analyze.Result, f *analyze.Finding) string {
	head, _, _ := strings.Cut(Summary(r, f), "; ")
	return head
}

// recovery says whether a finding's threads came back by the last moment.
type recovery struct {
	known     bool // false with one moment: a snapshot cannot tell
	recovered bool
	last      int    // count at the last moment
	lastLabel string // the last moment's label
}

// recoveryOf reads f's kind and counts the way Summary does: recovered and
// a warning-level pool exhaustion came back; not-recovered, stuck, growing
// and leaked did not; any other kind came back when none is left at the
// last moment.
func recoveryOf(r *analyze.Result, f *analyze.Finding) recovery {
	n := len(r.Moments)
	if n < 2 || len(f.Counts) == 0 {
		return recovery{}
	}
	rc := recovery{known: true, last: f.Counts[len(f.Counts)-1], lastLabel: sentenceMoment(r, n-1)}
	rc.recovered = f.Recovered // the analysis's fact, not a reading of kind and severity
	return rc
}

// String is the recovery in a few words: "no: still 200 at after".
func (rc recovery) String() string {
	switch {
	case !rc.known:
		return "cannot tell from one dump"
	case rc.recovered:
		return fmt.Sprintf("yes: %d at %s, the last moment", rc.last, rc.lastLabel)
	}
	return fmt.Sprintf("no: still %d at %s, the last moment", rc.last, rc.lastLabel)
}

// short is the recovery for a title: "recovered", "not recovered".
func (rc recovery) short() string {
	switch {
	case !rc.known:
		return "one dump"
	case rc.recovered:
		return "recovered"
	}
	return "not recovered"
}

// series is one line of a finding's chart: counts per moment.
type series struct {
	name   string // what it counts: "db-pool-wait", "idle", "all threads of the pool", "limit 200"
	role   string // "finding", "idle", "total" or "limit"
	counts []int
}

// findingSeries are what a finding's chart draws: the finding's counts
// (named after its state when they are the state's), the pool's idle
// threads, the process's threads for an explosion, and the pool's limit
// when it is known. Empty with fewer than two moments.
func findingSeries(r *analyze.Result, f *analyze.Finding) []series {
	n := len(r.Moments)
	if n < 2 || len(f.Counts) == 0 {
		return nil
	}
	unit := r.Runtime.Unit()
	name := f.Kind
	var p *analyze.Pool
	if f.Pool != "" {
		p = poolNamed(r, f.Pool)
	}
	if g := findingGroup(r, f); g != nil && slices.Equal(fitCounts(g.Counts, n), fitCounts(f.Counts, n)) {
		name = stateName(g.State, g.Via)
	} else if len(f.PoolCounts) > 0 && slices.Equal(fitCounts(f.PoolCounts, n), fitCounts(f.Counts, n)) {
		name = "all " + unit + " of the pool"
	} else if f.State != "" {
		name = stateName(f.State, f.Via)
	}
	out := []series{{name: name, role: "finding", counts: fitCounts(f.Counts, n)}}
	if f.Kind == analyze.KindExplosion && len(f.Totals) > 0 {
		out = append(out, series{name: "all " + unit + " of the process", role: "total", counts: fitCounts(f.Totals, n)})
	}
	if p != nil {
		idle := make([]int, n)
		any := false
		for _, g := range p.States {
			if g.Category == analyze.Idle {
				addCounts(idle, g.Counts)
				any = true
			}
		}
		if any {
			out = append(out, series{name: "idle", role: "idle", counts: idle})
		}
	}
	if f.Limit.Size > 0 {
		l := make([]int, n)
		for i := range l {
			l[i] = f.Limit.Size
		}
		out = append(out, series{name: LimitText(f.Limit), role: "limit", counts: l})
	}
	return out
}

// LimitText is a pool's limit and where the number comes from: "limit 200
// (Tomcat maxThreads default)".
func LimitText(l analyze.Limit) string {
	s := fmt.Sprintf("limit %d", l.Size)
	switch {
	case l.What != "":
		s += " (" + l.What + ")"
	case l.Source == "observed":
		s += " (observed: the same size at every moment)"
	case l.Source == "current":
		s += " (its size now; the maximum is not printed)"
	}
	return s
}

// lead is the verdict a ticket opens with.
type lead struct {
	root         *findingRow   // the most severe root cause; nil with no finding
	consequences []*findingRow // the findings that follow from root, in order
	others       []*findingRow // the other root causes, most severe first
}

// leadOf picks the lead of rs: the first root cause (findings come most
// severe root first), its consequences, and the other roots.
func leadOf(rs *rows) lead {
	var l lead
	for i := range rs.findings {
		f := &rs.findings[i]
		switch {
		case l.root == nil && f.causedBy == "":
			l.root = f
		case l.root != nil && f.causedBy != "" && f.causedBy == l.root.id:
			l.consequences = append(l.consequences, f)
		case f.causedBy == "":
			l.others = append(l.others, f)
		}
	}
	if l.root == nil && len(rs.findings) > 0 {
		// Every finding follows from another (a cycle the analysis should
		// not make): lead with the first.
		l.root = &rs.findings[0]
	}
	return l
}

// findingWhat names a finding for a title or a heading: "not-recovered in
// POOL · socket-read via http-client" without the pool (the caller writes
// it in its syntax).
func findingWhat(f *findingRow) (kind, state string) {
	if f.state != "" {
		state = stateName(f.state, f.via)
	}
	return f.kind, state
}

// momentSpan is "before → after" for the header of a series of counts.
func (rs *rows) momentSpan() string {
	if len(rs.moments) == 0 {
		return ""
	}
	if len(rs.moments) == 1 {
		return rs.moments[0].label
	}
	return rs.moments[0].label + " → " + rs.moments[len(rs.moments)-1].label
}

// labelledCounts prints counts with their moments: "before 0 → during-1 200".
func (rs *rows) labelledCounts(c []int) string {
	var parts []string
	for i, v := range c {
		l := fmt.Sprintf("#%d", i+1)
		if i < len(rs.moments) {
			l = rs.moments[i].label
		}
		parts = append(parts, fmt.Sprintf("%s %d", l, v))
	}
	return strings.Join(parts, " → ")
}
