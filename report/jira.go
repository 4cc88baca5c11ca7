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
	bw := bufio.NewWriter(w)
	writeOne(r, opt.withDefaults(), jiraWriter(bw))
	return bw.Flush()
}

func (jiraRenderer) many(w io.Writer, rs []*analyze.Result, opt Options) error {
	bw := bufio.NewWriter(w)
	writeMany(rs, opt.withDefaults(), jiraWriter(bw))
	return bw.Flush()
}

func jiraWriter(bw *bufio.Writer) func(*document, int) ticketWriter {
	return func(d *document, level int) ticketWriter { return newJiraView(bw, d, level) }
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

func (j *jiraView) h(d int, escaped string) {
	j.p("h%d. %s\n\n", min(6, j.level+d), escaped)
}

func (j *jiraView) heading(d int, _ string, text inline) { j.h(d, j.sx.render(text)) }

func (j *jiraView) para(_, text string) { j.p("%s\n\n", jiraText(text)) }

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

// jiraSyntax is Jira's syntax for the inline pieces; coloured makes the
// severity a {color} span, for headings.
func jiraSyntax(coloured bool) syntax {
	sev := func(s analyze.Severity) string { return s.String() }
	if coloured {
		sev = jiraSeverity
	}
	return syntax{text: jiraText, code: jiraCode, culprit: jiraCode, entry: jiraCode,
		strong: func(s string) string { return s }, probe: " " + jiraText("(health check)"),
		bold: func(s string) string { return "*" + s + "*" },
		tag:  func(s analyze.Severity, kind string) string { return sev(s) + " " + jiraText(kind) }}
}

// factList writes a list of facts; tag writes the severity and kind a root
// cause or consequence names.
func (j *jiraView) factList(fs []fact, tag func(analyze.Severity, string) string) {
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

func (j *jiraView) verdict(d *document) {
	f := d.lead.root
	if f == nil {
		j.para("", d.noFinding)
		return
	}
	j.p("{panel:title=Verdict|borderColor=%s}\n", severityColors[f.severity])
	j.factList(d.verdict, j.coloured.tag) // the verdict's severities in colour
	j.p("{panel}\n\n")
}

func (j *jiraView) finding(f *findingBlock) {
	j.h(2, fmt.Sprintf("%d. %s", f.num, j.coloured.render(f.title)))
}

func (j *jiraView) endFinding(*findingBlock) {}

// chart is the sparkline rows in {noformat}.
func (j *jiraView) chart(f *findingBlock) {
	if f.sameChart > 0 {
		j.para("note", fmt.Sprintf(sameChartFmt, f.sameChart))
		return
	}
	j.p("{noformat}\n%s\n{noformat}\n\n", strings.Join(jiraNoformat(sparkRows(j.rows, f.series)), "\n"))
}

func (j *jiraView) facts(fs []fact) {
	j.factList(fs, j.sx.tag)
	if len(fs) > 0 {
		j.p("\n")
	}
}

// table writes t: a ||header|| row, then a |cell| row each, then a blank
// line. An empty cell is a space (an empty one would make "||", a header).
func (j *jiraView) table(t tableBlock) {
	head := make([]string, len(t.head))
	for i, h := range t.head {
		head[i] = jiraCell(j.sx.render(h))
	}
	j.p("||%s||\n", strings.Join(head, "||"))
	for _, r := range t.rows {
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = jiraCell(j.sx.render(c))
		}
		j.p("|%s|\n", strings.Join(cells, "|"))
	}
	j.p("\n")
}

func (j *jiraView) momentTable(d *document) { j.table(d.momentTable()) }

func (j *jiraView) poolTable(d *document) { j.table(d.poolTable()) }

func (j *jiraView) stacks(d *document) { d.writeTicketStacks(j, j.stackGroup) }

// stackGroup is a group in a panel: its threads, then its stack in
// {noformat}, culprit and entry point marked.
func (j *jiraView) stackGroup(pool string, g stackGroupBlock) {
	j.p("{panel:title=%s|borderStyle=dashed}\n", jiraParam(g.heading))
	j.p("%s %s\n", jiraText("Pool:"), jiraCode(pool))
	if len(g.samples) > 0 {
		j.p("%s: %s\n", capitalize(j.unit()), j.sx.render(g.samples))
	}
	j.p("{noformat}\n%s\n{noformat}\n{panel}\n\n", strings.Join(jiraNoformat(g.lines()), "\n"))
}

func (j *jiraView) list(items []string) {
	for _, it := range items {
		j.p("* %s\n", jiraText(it))
	}
	j.p("\n")
}
