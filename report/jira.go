package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/internal/words"
)

// jiraRenderer is Jira wiki markup: headings h1.–h6., ||header|| tables,
// {panel} blocks where Markdown has <details>, {noformat} for stacks and
// sparklines, {color} for severities. Jira renders neither Mermaid nor
// HTML: the chart is its sparkline rows.
type jiraRenderer struct{}

func (jiraRenderer) one(w io.Writer, r *analyze.Result, opt Options) error {
	opt = opt.withDefaults()
	bw := bufio.NewWriter(w)
	j := newJiraView(bw, r, opt, 1)
	j.p("h1. %s\n\n", j.title())
	j.body()
	return bw.Flush()
}

func (jiraRenderer) many(w io.Writer, rs []*analyze.Result, opt Options) error {
	bw := bufio.NewWriter(w)
	if targeted(rs) {
		fmt.Fprintf(bw, "h1. dumpdiff: %d captured targets compared\n\n", len(rs))
		labels, rows := instanceRows(rs)
		head := []string{"Instance"}
		for _, l := range labels {
			head = append(head, jiraText(l))
		}
		fmt.Fprintf(bw, "||%s||\n", strings.Join(append(head, "Verdict"), "||"))
		for _, r := range rows {
			cells := []string{jiraCell(jiraCode(r.target))}
			for _, t := range r.totals {
				cells = append(cells, instanceCount(t))
			}
			cells = append(cells, jiraText(instanceVerdict(r)))
			fmt.Fprintf(bw, "|%s|\n", strings.Join(cells, "|"))
		}
		bw.WriteString("\n")
	} else {
		fmt.Fprintf(bw, "h1. dumpdiff: %d analyses\n\n", len(rs))
	}
	for _, r := range rs {
		j := newJiraView(bw, r, opt, 2)
		j.p("h2. %s\n\n", jiraText(title(r)))
		j.body()
	}
	return bw.Flush()
}

type jiraView struct {
	*rows
	lead  lead
	sx    syntax
	bw    *bufio.Writer
	level int
}

func newJiraView(bw *bufio.Writer, r *analyze.Result, opt Options, level int) *jiraView {
	rs := buildRows(r, opt)
	return &jiraView{rows: rs, lead: leadOf(rs), sx: jiraSyntax(false), bw: bw, level: level}
}

func (j *jiraView) p(format string, args ...any) { fmt.Fprintf(j.bw, format, args...) }

func (j *jiraView) h(d int, text string) {
	j.p("h%d. %s\n\n", min(6, j.level+d), text)
}

// severityColors are the colours of the severities, shared with HTML.
var severityColors = map[analyze.Severity]string{
	analyze.Critical: "#c62828",
	analyze.Warning:  "#b26a00",
	analyze.Info:     "#1565c0",
}

// jiraSeverity is a severity in its colour.
func jiraSeverity(s analyze.Severity) string {
	return fmt.Sprintf("{color:%s}*%s*{color}", severityColors[s], s)
}

func (j *jiraView) title() string {
	f := j.lead.root
	if f == nil {
		return j.noFindingsTitle()
	}
	return "dumpdiff: " + j.sx.findingTitle(f, true)
}

// jiraSyntax is Jira's syntax for the shared pieces; coloured makes the
// severity a {color} span, for headings.
func jiraSyntax(coloured bool) syntax {
	sev := func(s analyze.Severity) string { return s.String() }
	if coloured {
		sev = jiraSeverity
	}
	return syntax{text: jiraText, code: jiraCode, culprit: jiraCode, entry: jiraCode,
		strong: func(s string) string { return s }, probe: " " + jiraText("(health check)"),
		tag: func(s analyze.Severity, kind string) string { return sev(s) + " " + jiraText(kind) }}
}

func (j *jiraView) body() {
	j.leadSection()
	j.findingSection()
	j.h(1, "Evidence")
	j.momentTable()
	j.poolTable()
	j.stackSection()
	j.warningSection()
}

func (j *jiraView) leadSection() {
	f := j.lead.root
	if f == nil {
		j.p("%s\n\n", jiraText(j.noFindingSentence()))
		return
	}
	j.p("{panel:title=Verdict|borderColor=%s}\n", severityColors[f.severity])
	tag := jiraSyntax(true).tag // the verdict's severities in colour
	for _, it := range j.sx.leadItems(j.rows, j.lead, numberRef) {
		if it.of != nil {
			j.p("* *%s* (%s): %s\n", it.key, tag(it.of.severity, it.of.kind), it.value)
		} else {
			j.p("* *%s:* %s\n", it.key, it.value)
		}
	}
	j.p("{panel}\n\n")
}

func (j *jiraView) findingSection() {
	if len(j.findings) == 0 {
		return
	}
	j.h(1, "Findings")
	charted := map[string]int{}
	for i := range j.findings {
		f := &j.findings[i]
		j.h(2, fmt.Sprintf("%d. %s", f.num, jiraSyntax(true).findingTitle(f, false)))
		if len(f.counts) > 0 {
			s := fmt.Sprintf("%s %s (%s)", findingCounts(*f, j.unit()), j.unit(), j.momentSpan())
			if f.recovery.known {
				s += " · recovered: " + f.recovery.String()
			}
			j.p("%s\n\n", jiraText(s))
		}
		if f.summary != "" {
			j.p("%s\n\n", jiraText(strings.TrimSpace(f.summary)))
		}
		if len(f.series) > 0 {
			sig := seriesSignature(f.series)
			if k, ok := charted[sig]; ok {
				j.p("%s\n\n", jiraText(fmt.Sprintf("Chart: the same as finding %d's.", k)))
			} else {
				charted[sig] = f.num
				j.p("{noformat}\n%s\n{noformat}\n\n", strings.Join(jiraNoformat(sparkRows(j.rows, f.series)), "\n"))
			}
		}
		var items []string
		if f.frame != "" || f.culprit != "" {
			var parts []string
			if f.frame != "" {
				parts = append(parts, "*Top frame:* "+jiraCode(f.frame))
			}
			if f.culprit != "" {
				parts = append(parts, "*culprit:* "+jiraCode(f.culprit))
			}
			items = append(items, strings.Join(parts, " · "))
		}
		if len(f.groups) > 0 {
			items = append(items, "*Identical stacks at "+jiraText(j.label(f.at))+":* "+j.sx.groups(f.groups))
		}
		if ev := j.sx.evidence(f.evidence); ev != "" {
			items = append(items, "*Seen:* "+ev)
		}
		if f.causedByNum > 0 {
			items = append(items, fmt.Sprintf("*Follows from* finding %d.", f.causedByNum))
		}
		for _, it := range items {
			j.p("* %s\n", it)
		}
		if len(items) > 0 {
			j.p("\n")
		}
	}
}

// sparkRows are the chart without a chart: the moments, then one row per
// series with its sparkline and counts.
func sparkRows(rs *rows, ss []series) []string {
	top := seriesTop(ss)
	nameW := 0
	for _, s := range ss {
		nameW = max(nameW, cells(s.name))
	}
	var labels []string
	for _, m := range rs.moments {
		labels = append(labels, m.label)
	}
	out := []string{padRight("", nameW) + "  " + strings.Join(labels, " → ")}
	for _, s := range ss {
		out = append(out, padRight(oneLine(s.name), nameW)+"  "+sparkline(s.counts, top)+"  "+arrowCounts(s.counts))
	}
	return out
}

func (j *jiraView) momentTable() {
	if len(j.moments) == 0 {
		return
	}
	j.h(2, "Moments")
	j.p("||Moment||File||Time||%s||\n", capitalize(j.unit()))
	for _, mo := range j.moments {
		label := mo.label
		if mo.target != "" {
			label += " (" + mo.target + ")"
		}
		tm := mo.time
		if tm == "" {
			tm = "not in dump"
		}
		if mo.delta != "" {
			tm += " (" + mo.delta + ")"
		}
		j.p("|%s|%s|%s|%d|\n", jiraCell(jiraText(label)), jiraCell(jiraCode(mo.file)), jiraText(tm), mo.threads)
	}
	j.p("\n")
}

func jiraCounts(c []int) []string {
	out := make([]string, 0, len(c)+1)
	for _, v := range c {
		out = append(out, fmt.Sprint(v))
	}
	return append(out, jiraCell(jiraText(change(c))))
}

func (j *jiraView) poolTable() {
	if len(j.moments) == 0 {
		return
	}
	j.h(2, "Pools and states")
	head := []string{"Pool / state"}
	for _, mo := range j.moments {
		head = append(head, jiraCell(jiraText(mo.label)))
	}
	j.p("||%s||\n", strings.Join(append(head, "Change"), "||"))
	row := func(name string, c []int) {
		j.p("|%s|\n", strings.Join(append([]string{jiraCell(name)}, jiraCounts(c)...), "|"))
	}
	for _, p := range j.pools {
		name := jiraCode(p.name)
		if p.flagged {
			name = "*" + name + "* " + jiraText("("+p.severity.String()+")")
		}
		row(name, p.counts)
		for _, s := range p.states {
			st := jiraText(stateName(s.state, s.via))
			if s.flagged {
				st = "*" + st + "*"
			}
			row("↳ "+st, s.counts)
		}
		if s := p.moreStates; s != nil {
			row("↳ "+jiraText("… "+words.Plural(s.folded, "more state")), s.counts)
		}
	}
	if p := j.more; p != nil {
		row(jiraText("… "+words.Plural(p.folded, "more pool")), p.counts)
	}
	if p := j.internal; p != nil {
		row(jiraText(fmt.Sprintf("%s (%s)", p.name, words.Plural(p.folded, "pool"))), p.counts)
	}
	row("*total*", j.totals)
	j.p("\n")
}

// stackSection writes each identical-stack group of the flagged states in
// a panel: its threads, then its stack in {noformat}, culprit and entry
// point marked.
func (j *jiraView) stackSection() {
	for k, st := range j.ticketStacks() {
		if k == 0 {
			j.h(2, "Stacks")
		}
		s := st.state
		for i, sg := range s.groups[:min(maxStackGroups, len(s.groups))] {
			j.p("{panel:title=%s|borderStyle=dashed}\n", jiraParam(j.groupHeading(s, i)))
			j.p("%s %s\n", jiraText("Pool:"), jiraCode(st.pool.name))
			if len(sg.Samples) > 0 {
				j.p("%s: %s\n", capitalize(j.unit()), j.sx.sampleList(sg.Samples, sg.Count, len(sg.Samples)))
			}
			j.p("{noformat}\n%s\n{noformat}\n{panel}\n\n", strings.Join(jiraNoformat(markedStack(sg, j.runtime)), "\n"))
		}
		if more := j.moreGroups(s, maxStackGroups); more != "" {
			j.p("%s\n\n", jiraText(more))
		}
	}
}

func (j *jiraView) warningSection() {
	if len(j.warnings) == 0 {
		return
	}
	j.h(1, "Warnings")
	for _, w := range j.warnings {
		j.p("* %s\n", jiraText(w))
	}
	j.p("\n")
}
