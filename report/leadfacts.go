package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/parse"
)

// What the lead says of a finding beyond its kind and numbers: since when,
// as a time and a moment, and the pprof labels its goroutines carry (the
// endpoint: route=/api/search).

// sinceParts is when a finding began: its first moment's clock time
// ("17:53:18", "" when no dump of it says a time) and the moment with how
// long after the first dump ("during-1, +10s"). already is true when it
// was there at the first moment given: nothing says when it began.
func (rs *rows) sinceParts(f *findingRow) (clock, where string, already bool) {
	if f.since < 0 || f.since >= len(rs.moments) || len(f.counts) == 0 {
		return "", "", false
	}
	m := rs.moments[f.since]
	if m.time != "" {
		clock = m.time[strings.LastIndexByte(m.time, ' ')+1:]
	}
	if clock != "" && len(rs.moments) == 1 {
		// One moment: its time says it, the label adds nothing.
		return clock, "", true
	}
	// A label made of a long file name ("samurai__openjdk-17+35__...#1")
	// would push the time off the line; its ends tell the moments apart.
	where = truncateMiddle(m.label, maxSinceLabel)
	switch {
	case m.sinceLoad != "":
		where += ", " + m.sinceLoad
	case m.delta != "":
		where += ", " + m.delta
	}
	return clock, where, f.fromStart || f.since == 0
}

// maxSinceLabel is the widest moment label "since" names in full.
const maxSinceLabel = 24

// sinceWords is when a finding began as the lead says it: "since 17:53:18
// (during-1, +10s)", "since during-1" when the dump prints no time, or
// "already at 17:53:08 (before, the first dump)" when no moment before
// it can say when it began.
func (rs *rows) sinceWords(f *findingRow) string {
	clock, where, already := rs.sinceParts(f)
	lead := "since "
	if already {
		lead = "at "
		if len(rs.moments) > 1 {
			lead, where = "already at ", where+", the first dump"
		}
	}
	switch {
	case clock == "" && where == "":
		return ""
	case clock == "":
		return lead + where
	case where == "":
		return lead + clock
	}
	return lead + clock + " (" + where + ")"
}

// labelCount is one pprof label value and how many of a finding's
// goroutines carry it.
type labelCount struct {
	key, value string
	count, of  int
}

// String is "route=/api/search", with its share when not all carry it:
// "route=/api/search (140 of 150)".
func (l labelCount) String() string {
	if l.count == l.of {
		return l.key + "=" + l.value
	}
	return fmt.Sprintf("%s=%s (%d of %d)", l.key, l.value, l.count, l.of)
}

// findingLabels are the pprof label values most common among the
// goroutines of f's group at its moment: per key, its most common value,
// kept when at least half of the goroutines carry it (a value fewer carry
// names some requests, not the finding: a trace id, one tenant of many);
// most carried first, at most maxLabels. nil when no goroutine carries a
// label (JVM threads, Go dumps without labels).
func findingLabels(r *analyze.Result, f *analyze.Finding) []labelCount {
	g := findingGroup(r, f)
	if g == nil || f.At < 0 || f.At >= len(g.Threads) {
		return nil
	}
	type kv struct{ k, v string }
	counts := map[kv]int{}
	total := 0
	for _, t := range g.Threads[f.At] {
		w := max(t.Weight, 1)
		total += w
		for k, v := range t.Labels {
			counts[kv{k, v}] += w
		}
	}
	best := map[string]labelCount{}
	for x, n := range counts {
		b, ok := best[x.k]
		if !ok || n > b.count || n == b.count && x.v < b.value {
			best[x.k] = labelCount{key: x.k, value: x.v, count: n, of: total}
		}
	}
	var out []labelCount
	for _, b := range best {
		if 2*b.count >= total && total > 0 {
			out = append(out, b)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].count != out[j].count {
			return out[i].count > out[j].count
		}
		return out[i].key < out[j].key
	})
	if len(out) > maxLabels {
		out = out[:maxLabels]
	}
	return out
}

// maxLabels is how many label values the lead names: the endpoint and one
// more (a tenant, a job) say where; more is a table's job.
const maxLabels = 2

// labelsText is the labels for a line: "route=/api/search, tenant=a".
func labelsText(ls []labelCount) string {
	parts := make([]string, len(ls))
	for i, l := range ls {
		parts[i] = l.String()
	}
	return strings.Join(parts, ", ")
}

// oneDumpHint is the verdict of one dump without findings: what one
// moment shows (a deadlock, a pool exhausted now, a spinning thread) and
// what it cannot (a rise, a leak, threads that never came back: every one
// of them is a comparison); captureHint is the command it ends on.
func (rs *rows) oneDumpHint(command bool) string {
	// What the detectors still judge on one moment (README, "Judged on
	// what you give it").
	// A named wait that every thread of a paste, or of the whole process,
	// is in speaks on one dump too (analyze's heldWaits).
	n, shows := "threads", "a deadlock, an exhausted or saturated pool, lock contention, a thread spinning, a wait most of a paste or every thread is in"
	if rs.runtime == parse.RuntimeGo {
		// Go prints no CPU time: spinning needs two moments to tell; a
		// leak shows in the wait the runtime prints.
		n, shows = "goroutines", "a deadlock, an exhausted or saturated pool, lock contention, goroutines the runtime shows leaked, a wait every goroutine is in"
	}
	end := "."
	if command {
		end = ", or let dumpdiff take them:"
	}
	return fmt.Sprintf("No finding in this one dump: none of what one moment shows alone (%s). "+
		"One moment cannot show what changes: %s piling up in a state, a rise that stays, a pool that never recovers. "+
		"Take another dump %s later (or while the problem shows) and give both%s",
		shows, n, oneDumpInterval, end)
}

// oneDumpInterval is the gap suggested between two dumps: long enough for
// stuck requests to stand out from passing ones (a request of a few
// hundred ms is gone by then), short enough to catch an incident.
const oneDumpInterval = "15s"

// captureHint is the command that takes dumps oneDumpInterval apart, for
// the runtime of the dump at hand; the target is a placeholder, which the
// dump does not name.
func captureHint(rt parse.Runtime) string {
	target := "--pid PID" // a JVM: jcmd or jstack by pid
	if rt == parse.RuntimeGo {
		target = "HOST:PORT" // net/http/pprof (http:// is understood)
	}
	return "dumpdiff capture " + target + " --every " + oneDumpInterval + " --count 3 --out dumps/"
}

// remedyOf is f's remedy (analyze's remedy table) with its culprit
// written in: "set a read timeout on the client (UpstreamClient.fetch:25)".
func remedyOf(f *analyze.Finding) string {
	if f.Remedy == "" {
		return ""
	}
	c := "the culprit"
	if f.Culprit != "" {
		c = ShortFrame(f.Culprit)
	}
	return strings.ReplaceAll(f.Remedy, "{culprit}", c)
}
