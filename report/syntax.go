package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/internal/words"
)

// syntax is how a ticket format (Markdown, Jira, Slack, HTML) writes the
// pieces of its lines. The pieces themselves (a finding's title, its
// numbers, its entry points...) are built once, by the methods below, from
// the same facts and in the same words; a format differs only in its
// syntax value, kept beside its renderer (mdSyntax, jiraSyntax,
// slackSyntax, htmlSyntax).
type syntax struct {
	// text escapes a run of plain text: a name from a dump or a fixed
	// phrase ("(health check)", ", +3"), which it must show as typed.
	text func(string) string
	// code is s as inline code: a pool, a frame, a thread name. culprit
	// and entry are code for a culprit frame and an entry point (HTML
	// marks them; the other formats write plain code).
	code, culprit, entry func(string) string
	// tag is a finding's severity and kind as its title starts:
	// "critical not-recovered"; kind is not escaped yet.
	tag func(sev analyze.Severity, kind string) string
	// strong marks escaped text a list item leads with, where the format
	// does so (HTML's <b>); the others leave it as it is.
	strong func(string) string
	// probe marks a health check after the frame it is, its leading
	// space included: " (health check)".
	probe string
}

// plainSyntax writes the pieces as they are, for the text view and for
// the places a format escapes a whole line at once (an HTML <title>).
func plainSyntax() syntax {
	same := func(s string) string { return s }
	return syntax{text: same, code: same, culprit: same, entry: same, strong: same, probe: " (health check)",
		tag: func(sev analyze.Severity, kind string) string { return sev.String() + " " + kind }}
}

// paren is escaped text in parentheses, as the format writes them.
func (sx syntax) paren(escaped string) string { return sx.text("(") + escaped + sx.text(")") }

// findingTitle names a finding for a title or a heading: "critical
// not-recovered in `pool` (socket-read via http-client)", and how it ended
// when recovery is set and its kind does not say it.
func (sx syntax) findingTitle(f *findingRow, recovery bool) string {
	kind, state := findingWhat(f)
	s := sx.tag(f.severity, kind)
	if f.pool != "" {
		s += " in " + sx.code(f.pool)
	}
	if state != "" {
		s += " " + sx.paren(sx.text(state))
	}
	if recovery && f.recovery.known && kind != analyze.KindRecovered && kind != analyze.KindNotRecovered {
		s += ", " + sx.text(f.recovery.short())
	}
	return s
}

// numbers are a finding's counts with their moments and unit, the other
// series of its chart (the pool's idle threads...) and the pool's limit:
// "db-pool-wait: before 0 → during-1 93 threads; idle 10 → 11; limit 200".
func (sx syntax) numbers(rs *rows, f *findingRow) string {
	if len(f.series) == 0 {
		if len(f.counts) == 0 {
			return ""
		}
		return sx.text(rs.labelledCounts(f.counts)) + " " + sx.text(rs.unit())
	}
	var parts []string
	for i, s := range f.series {
		switch {
		case s.role == "limit":
			parts = append(parts, sx.text(s.name))
		case i == 0:
			parts = append(parts, sx.strong(sx.text(s.name))+": "+sx.text(rs.labelledCounts(s.counts))+" "+sx.text(rs.unit()))
		default:
			parts = append(parts, sx.text(s.name)+" "+sx.text(arrowCounts(s.counts)))
		}
	}
	return strings.Join(parts, "; ")
}

// entryList is up to three entry points with their counts, a health check
// marked: "`OrderServlet.doGet(OrderServlet.java:22)` 93 · ... · 2 more".
func (sx syntax) entryList(es []analyze.FrameCount) string {
	var parts []string
	for i, e := range es {
		if i == 3 {
			parts = append(parts, sx.text(fmt.Sprintf("%d more", len(es)-3)))
			break
		}
		s := sx.entry(e.Func) + fmt.Sprintf(" %d", e.Count)
		if e.Probe {
			s += sx.probe
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " · ")
}

// sampleList is up to k names as code, with how many more of count there
// are: "`exec-1`, `exec-2`, `exec-3`, +197".
func (sx syntax) sampleList(names []string, count, k int) string {
	shown := names[:min(k, len(names))]
	cs := make([]string, len(shown))
	for i, n := range shown {
		cs[i] = sx.code(n)
	}
	s := strings.Join(cs, ", ")
	if more := count - len(shown); more > 0 {
		s += sx.text(fmt.Sprintf(", +%d", more))
	}
	return s
}

// evidence is what each moment shows of a finding, with up to three sample
// names: "during-1 93 (`exec-2`, `exec-3`, `exec-4`, +90) · during-2 96
// (same samples)".
func (sx syntax) evidence(evs []evidenceRow) string {
	var ev []string
	var prev []string
	for _, e := range evs {
		s := sx.text(e.moment) + fmt.Sprintf(" %d", e.count)
		switch {
		case len(e.threads) == 0:
		case slices.Equal(e.threads, prev):
			// Listing the same sample names again says nothing new.
			s += " " + sx.paren(sx.text("same samples"))
		default:
			s += " " + sx.paren(sx.sampleList(e.threads, e.count, 3))
		}
		prev = e.threads
		ev = append(ev, s)
	}
	return strings.Join(ev, " · ")
}

// groups lists identical-stack groups with their counts, largest first, up
// to three: "2 groups: 93 at `Repo.query:23` from `OrderServlet.doGet:22`; 3
// at `HealthServlet.doGet:26` (health check)".
func (sx syntax) groups(sgs []StackGroup) string {
	if len(sgs) == 1 {
		return sx.text(fmt.Sprintf("one stack, all %d identical", sgs[0].Count))
	}
	var parts []string
	for i, sg := range sgs {
		if i == 3 {
			rest := 0
			for _, o := range sgs[i:] {
				rest += o.Count
			}
			parts = append(parts, sx.text(fmt.Sprintf("%d more groups (%d)", len(sgs)-i, rest)))
			break
		}
		p := sx.strong(fmt.Sprint(sg.Count))
		if l := sg.labelWith(sx); l != "" {
			p += " " + l
		}
		parts = append(parts, p)
	}
	return fmt.Sprintf("%d groups: %s", len(sgs), strings.Join(parts, "; "))
}

// leadItem is one line of the verdict a ticket opens with, in a format's
// syntax: "Root cause" (critical not-recovered): what it says.
type leadItem struct {
	key string // "Root cause", "Recovered", "Numbers"...
	// of is the finding a root cause or consequence line names, whose tag
	// (severity and kind) the format writes with the key; nil otherwise.
	of       *findingRow
	value    string // escaped
	sentence bool   // value is a sentence (Markdown ends it with a period)
}

// leadItems are the verdict's lines for a lead with a root: the root
// cause, up to two consequences, whether it recovered, its numbers,
// culprit and entry points, and up to three other root causes, each
// named by ref (its number, a link to it).
func (sx syntax) leadItems(rs *rows, l lead, ref func(num int) string) []leadItem {
	f := l.root
	out := []leadItem{{key: "Root cause", of: f, value: sx.text(f.head), sentence: true}}
	for i, c := range l.consequences {
		if i == 2 {
			out = append(out, leadItem{key: "Also caused", value: sx.text(words.Plural(len(l.consequences)-2, "more finding")), sentence: true})
			break
		}
		out = append(out, leadItem{key: "Consequence", of: c, value: sx.text(c.head), sentence: true})
	}
	out = append(out, leadItem{key: "Recovered", value: sx.text(f.recovery.String()), sentence: true})
	if n := sx.numbers(rs, f); n != "" {
		out = append(out, leadItem{key: "Numbers", value: n, sentence: true})
	}
	if f.culprit != "" {
		out = append(out, leadItem{key: "Culprit", value: sx.culprit(f.culprit)})
	}
	if e := sx.entryList(f.entries); e != "" {
		out = append(out, leadItem{key: "Entry points", value: e})
	}
	if len(l.others) > 0 {
		var os []string
		for i, o := range l.others {
			if i == 3 {
				os = append(os, sx.text(fmt.Sprintf("%d more", len(l.others)-3)))
				break
			}
			os = append(os, ref(o.num)+" "+sx.findingTitle(o, true))
		}
		out = append(out, leadItem{key: "Also", value: strings.Join(os, "; ")})
	}
	return out
}

// numberRef names finding num by its number: "2.".
func numberRef(num int) string { return fmt.Sprintf("%d.", num) }
