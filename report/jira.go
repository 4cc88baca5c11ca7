package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/dumpdiff/dumpdiff/analyze"
)

// jiraRenderer is Jira wiki markup: headings h1.–h6., ||header|| tables,
// {panel} blocks where Markdown has <details>, {noformat} for stacks and
// sparklines, {color} for severities. Jira renders neither Mermaid nor
// HTML: the chart is its sparkline rows.
type jiraRenderer struct{}

func (jiraRenderer) one(w io.Writer, r *analyze.Result, opt Options) error {
	opt = opt.withDefaults()
	bw := bufio.NewWriter(w)
	j := newJiraView(bw, buildDocument(r, opt), 1)
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
		j := newJiraView(bw, buildDocument(r, opt.withDefaults()), 2)
		j.p("h2. %s\n\n", jiraText(title(r)))
		j.body()
	}
	return bw.Flush()
}

// jiraView writes a document in Jira wiki markup.
type jiraView struct {
	*document
	sx, coloured syntax // coloured writes severities in their colour (headings, the verdict)
	bw           *bufio.Writer
	level        int
}

func newJiraView(bw *bufio.Writer, d *document, level int) *jiraView {
	return &jiraView{document: d, sx: jiraSyntax(false), coloured: jiraSyntax(true), bw: bw, level: level}
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
	if j.lead.root == nil {
		return j.noFindingsTitle()
	}
	return "dumpdiff: " + j.sx.render(j.document.title)
}

// jiraSyntax is Jira's syntax for the inline pieces; coloured makes the
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
	j.h(1, headEvidence)
	j.momentTable()
	j.poolTable()
	j.stackSection()
	j.warningSection()
}

// facts writes a list of facts; tag writes the severity and kind a root
// cause or consequence names.
func (j *jiraView) facts(fs []fact, tag func(analyze.Severity, string) string) {
	for _, it := range fs {
		key := jiraText(it.key)
		switch {
		case it.of != nil:
			j.p("* *%s* (%s): %s\n", key, tag(it.of.severity, it.of.kind), j.sx.render(it.value))
		case it.phrase:
			j.p("* *%s* %s\n", key, j.sx.render(it.value))
		default:
			j.p("* *%s:* %s\n", key, j.sx.render(it.value))
		}
	}
}

func (j *jiraView) leadSection() {
	f := j.lead.root
	if f == nil {
		j.p("%s\n\n", jiraText(j.noFinding))
		return
	}
	j.p("{panel:title=Verdict|borderColor=%s}\n", severityColors[f.severity])
	j.facts(j.verdict, j.coloured.tag) // the verdict's severities in colour
	j.p("{panel}\n\n")
}

func (j *jiraView) findingSection() {
	if len(j.findings) == 0 {
		return
	}
	j.h(1, headFindings)
	for i := range j.findings {
		f := &j.findings[i]
		j.h(2, fmt.Sprintf("%d. %s", f.num, j.coloured.render(f.title)))
		if f.counts != "" {
			j.p("%s\n\n", jiraText(f.counts))
		}
		if f.summary != "" {
			j.p("%s\n\n", jiraText(strings.TrimSpace(f.summary)))
		}
		if len(f.series) > 0 {
			if f.sameChart > 0 {
				j.p("%s\n\n", jiraText(fmt.Sprintf(sameChartFmt, f.sameChart)))
			} else {
				j.p("{noformat}\n%s\n{noformat}\n\n", strings.Join(jiraNoformat(sparkRows(j.rows, f.series)), "\n"))
			}
		}
		j.facts(f.facts, j.sx.tag)
		if len(f.facts) > 0 {
			j.p("\n")
		}
	}
}

func (j *jiraView) momentTable() {
	if len(j.moments) == 0 {
		return
	}
	j.h(2, headMoments)
	skipped := j.anySkipped()
	j.p("||Moment||File||Time||%s||", capitalize(j.unit()))
	if skipped {
		j.p("Skipped lines||")
	}
	j.p("\n")
	for _, mo := range j.moments {
		label, tm := momentCells(mo)
		j.p("|%s|%s|%s|%d|", jiraCell(jiraText(label)), jiraCell(jiraCode(mo.file)), jiraText(tm), mo.threads)
		if skipped {
			j.p("%d|", mo.skipped)
		}
		j.p("\n")
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
	j.h(2, headPools)
	head := []string{headPoolCol}
	for _, mo := range j.moments {
		head = append(head, jiraCell(jiraText(mo.label)))
	}
	j.p("||%s||\n", strings.Join(append(head, headChange), "||"))
	for _, l := range j.tableLines {
		var name string
		switch l.kind {
		case linePool:
			name = jiraCode(l.name)
			if l.flagged {
				name = "*" + name + "* " + jiraText("("+l.severity.String()+")")
			}
		case lineState:
			name = jiraText(l.name)
			if l.flagged {
				name = "*" + name + "*"
			}
			name = "↳ " + name
		case lineMoreStates:
			name = "↳ " + jiraText(l.name)
		case lineMorePools, lineInternal:
			name = jiraText(l.name)
		case lineTotal:
			name = "*" + l.name + "*"
		}
		j.p("|%s|\n", strings.Join(append([]string{jiraCell(name)}, jiraCounts(l.counts)...), "|"))
	}
	j.p("\n")
}

// stackSection writes each identical-stack group of the flagged states in
// a panel: its threads, then its stack in {noformat}, culprit and entry
// point marked.
func (j *jiraView) stackSection() {
	for k, st := range j.stacks {
		if k == 0 {
			j.h(2, headStacks)
		}
		for _, g := range st.groups {
			j.p("{panel:title=%s|borderStyle=dashed}\n", jiraParam(g.heading))
			j.p("%s %s\n", jiraText("Pool:"), jiraCode(st.pool))
			if len(g.samples) > 0 {
				j.p("%s: %s\n", capitalize(j.unit()), j.sx.render(g.samples))
			}
			j.p("{noformat}\n%s\n{noformat}\n{panel}\n\n", strings.Join(jiraNoformat(g.lines), "\n"))
		}
		if st.more != "" {
			j.p("%s\n\n", jiraText(st.more))
		}
	}
}

func (j *jiraView) warningSection() {
	if len(j.warnings) == 0 {
		return
	}
	j.h(1, headWarnings)
	for _, w := range j.warnings {
		j.p("* %s\n", jiraText(w))
	}
	j.p("\n")
}
