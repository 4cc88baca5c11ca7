package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/dumpdiff/dumpdiff/analyze"
)

// markdownRenderer is GitHub/GitLab Markdown.
type markdownRenderer struct{}

func (markdownRenderer) one(w io.Writer, r *analyze.Result, opt Options) error {
	return Markdown(w, r, opt)
}

// many writes one document: a title, the instances compared (captured
// targets), then each analysis with its headings one level down.
func (markdownRenderer) many(w io.Writer, rs []*analyze.Result, opt Options) error {
	bw := bufio.NewWriter(w)
	if targeted(rs) {
		fmt.Fprintf(bw, "# dumpdiff: %d captured targets compared\n\n", len(rs))
		labels, rows := instanceRows(rs)
		head := append(append([]string{"Instance"}, labels...), "Verdict")
		m := &mdView{bw: bw}
		m.tableHead(mdCells(head), func(i int) bool { return i > 0 && i <= len(labels) })
		for _, r := range rows {
			cells := []string{mdCode(r.target, true)}
			for _, t := range r.totals {
				cells = append(cells, instanceCount(t))
			}
			m.tableRow(append(cells, mdText(instanceVerdict(r)))...)
		}
		bw.WriteString("\n")
	} else {
		fmt.Fprintf(bw, "# dumpdiff: %d analyses\n\n", len(rs))
	}
	for _, r := range rs {
		m := newMDView(bw, buildDocument(r, opt.withDefaults()), 2)
		m.p("## %s\n\n", mdText(title(r)))
		m.body()
	}
	return bw.Flush()
}

// Markdown writes r as GitHub-flavoured Markdown to paste in an issue. It
// leads with the answer: a title line and at most ten lines of verdict
// (root cause, consequence, recovered or not, numbers, culprit, entry
// points); then one short block per finding with its sentence, a chart
// of its counts (Mermaid xychart-beta, and sparklines for renderers
// without Mermaid) and its identical-stack groups; then the evidence: the
// moments, a narrow pools × states table, and the stacks in <details>.
func Markdown(w io.Writer, r *analyze.Result, opt Options) error {
	opt = opt.withDefaults()
	bw := bufio.NewWriter(w)
	m := newMDView(bw, buildDocument(r, opt), 1)
	m.p("# %s\n\n", m.title())
	m.body()
	return bw.Flush()
}

// mdView writes a document in Markdown.
type mdView struct {
	*document
	sx syntax
	bw *bufio.Writer
	// level is the level of the document's title; sections are one below.
	level int
	// headers are the moment columns of the tables: the labels, or #1, #2
	// when a label is too long for a narrow table.
	headers  []string
	numbered bool
}

func newMDView(bw *bufio.Writer, d *document, level int) *mdView {
	m := &mdView{document: d, sx: mdSyntax(), bw: bw, level: level}
	for _, mo := range d.moments {
		if cells(mo.label) > 12 {
			m.numbered = true
		}
	}
	for i, mo := range d.moments {
		if m.numbered {
			m.headers = append(m.headers, fmt.Sprintf("#%d", i+1))
		} else {
			m.headers = append(m.headers, mdText(mo.label))
		}
	}
	return m
}

func (m *mdView) p(format string, args ...any) { fmt.Fprintf(m.bw, format, args...) }

// h writes a heading d levels below the document's title.
func (m *mdView) h(d int, format string, args ...any) {
	m.p("%s %s\n\n", strings.Repeat("#", min(6, m.level+d)), fmt.Sprintf(format, args...))
}

func (m *mdView) body() {
	m.leadSection()
	m.findingSection()
	m.h(1, headEvidence)
	m.momentTable()
	m.poolTable()
	m.stackSection()
	m.warningSection()
}

// tableRow writes cells as one table row; cells must be escaped already.
func (m *mdView) tableRow(cells ...string) {
	m.p("| %s |\n", strings.Join(cells, " | "))
}

// tableHead writes a header row and its delimiter row; right lists the
// columns aligned right (numbers).
func (m *mdView) tableHead(head []string, right func(i int) bool) {
	m.tableRow(head...)
	d := make([]string, len(head))
	for i := range d {
		d[i] = "---"
		if right(i) {
			d[i] = "--:"
		}
	}
	m.tableRow(d...)
}

// title is the document's first line.
func (m *mdView) title() string {
	if m.lead.root == nil {
		return m.noFindingsTitle()
	}
	return "dumpdiff: " + m.sx.render(m.document.title)
}

// mdSyntax is Markdown's syntax for the inline pieces.
func mdSyntax() syntax {
	code := func(s string) string { return mdCode(s, false) }
	return syntax{text: mdText, code: code, culprit: code, entry: code, strong: func(s string) string { return s }, probe: " (health check)",
		tag: func(sev analyze.Severity, kind string) string { return sev.String() + " " + mdText(kind) }}
}

// facts writes a list of facts, a sentence ending with a period.
func (m *mdView) facts(fs []fact) {
	for _, it := range fs {
		key := mdText(it.key)
		switch {
		case it.of != nil:
			m.p("- **%s** (%s): %s", key, m.sx.tag(it.of.severity, it.of.kind), m.sx.render(it.value))
		case it.phrase:
			m.p("- **%s** %s", key, m.sx.render(it.value))
		default:
			m.p("- **%s:** %s", key, m.sx.render(it.value))
		}
		if it.sentence {
			m.p(".")
		}
		m.p("\n")
	}
	if len(fs) > 0 {
		m.p("\n")
	}
}

// leadSection is the verdict in at most ten lines.
func (m *mdView) leadSection() {
	if m.lead.root == nil {
		m.p("%s\n\n", mdText(m.noFinding))
		return
	}
	m.facts(m.verdict)
}

func (m *mdView) findingSection() {
	if len(m.findings) == 0 {
		return
	}
	m.h(1, headFindings)
	for i := range m.findings {
		f := &m.findings[i]
		m.h(2, "%d. %s", f.num, capitalize(m.sx.render(f.title)))
		if f.counts != "" {
			m.p("%s\n\n", mdText(f.counts))
		}
		if f.summary != "" {
			m.p("%s.\n\n", mdText(strings.TrimSuffix(strings.TrimSpace(f.summary), ".")))
		}
		if len(f.series) > 0 {
			if f.sameChart > 0 {
				m.p(sameChartFmt+"\n\n", f.sameChart)
			} else {
				m.chart(f.findingRow)
			}
		}
		m.facts(f.facts)
	}
}

// chart draws a finding's series as a Mermaid xychart (one line per
// series, coloured by a palette set in its front matter), then the same
// series as sparklines with their colour, name and counts: the legend,
// and the chart where Mermaid does not render.
func (m *mdView) chart(f *findingRow) {
	top := seriesTop(f.series)
	var labels, palette []string
	for _, mo := range m.moments {
		labels = append(labels, `"`+mermaidText(mo.label)+`"`)
	}
	for _, s := range f.series {
		palette = append(palette, seriesColors[s.role][0])
	}
	m.p("```mermaid\n---\nconfig:\n  themeVariables:\n    xyChart:\n      plotColorPalette: \"%s\"\n---\nxychart-beta\n", strings.Join(palette, ", "))
	m.p("    x-axis [%s]\n", strings.Join(labels, ", "))
	m.p("    y-axis \"%s\" 0 --> %d\n", m.unit(), niceCeil(top+top/10))
	for _, s := range f.series {
		var c []string
		for _, v := range s.counts {
			c = append(c, fmt.Sprint(v))
		}
		m.p("    line [%s]\n", strings.Join(c, ", "))
	}
	m.p("```\n\n")
	lines := legendLines(f.series, top)
	fence := codeFence(lines)
	m.p("%stext\n%s\n%s\n\n", fence, strings.Join(lines, "\n"), fence)
}

func (m *mdView) momentTable() {
	if len(m.moments) == 0 {
		return
	}
	m.h(2, headMoments)
	skipped := m.anySkipped()
	head := []string{"Moment", "File", "Time", capitalize(m.unit())}
	if m.numbered {
		head = append([]string{"#"}, head...)
	}
	if skipped {
		head = append(head, "Skipped lines")
	}
	k := len(head) - 1
	if skipped {
		k--
	}
	m.tableHead(head, func(i int) bool { return i >= k })
	for i, mo := range m.moments {
		label, tm := momentCells(mo)
		row := []string{mdText(label), mdCode(mo.file, true), mdText(tm), fmt.Sprint(mo.threads)}
		if m.numbered {
			row = append([]string{fmt.Sprintf("#%d", i+1)}, row...)
		}
		if skipped {
			row = append(row, fmt.Sprint(mo.skipped))
		}
		m.tableRow(row...)
	}
	m.p("\n")
}

func countCells(c []int) []string {
	out := make([]string, 0, len(c)+1)
	for _, v := range c {
		out = append(out, fmt.Sprint(v))
	}
	return append(out, change(c))
}

// poolTable is the pools × moments table with the states of flagged pools
// under them: names in the first column, one narrow column per moment.
func (m *mdView) poolTable() {
	if len(m.moments) == 0 {
		return
	}
	m.h(2, headPools)
	head := append(append([]string{headPoolCol}, m.headers...), headChange)
	m.tableHead(head, func(i int) bool { return i > 0 })
	for _, l := range m.tableLines {
		var name string
		switch l.kind {
		case linePool:
			name = mdCode(l.name, true)
			if l.flagged {
				name = "**" + name + "** (" + l.severity.String() + ")"
			}
		case lineState:
			name = mdText(l.name)
			if l.flagged {
				name = "**" + name + "**"
			}
			name = "↳ " + name
		case lineMoreStates:
			name = "↳ " + mdText(l.name)
		case lineMorePools, lineInternal:
			name = mdText(l.name)
		case lineTotal:
			name = "**" + l.name + "**"
		}
		m.tableRow(append([]string{name}, countCells(l.counts)...)...)
	}
	m.p("\n")
}

// stackSection shows, for the states the findings name (the largest state
// of a flagged pool when they name none), each identical-stack group's
// stack in a <details> block, culprit and entry point marked.
func (m *mdView) stackSection() {
	for k, st := range m.stacks {
		if k == 0 {
			m.h(2, headStacks)
		}
		for _, g := range st.groups {
			m.p("<details><summary>%s (%s)</summary>\n\n", mdHTML(g.heading), mdHTML(st.pool))
			if len(g.samples) > 0 {
				m.p("%s: %s\n\n", capitalize(m.unit()), m.sx.render(g.samples))
			}
			fence := codeFence(g.lines)
			m.p("%s\n%s\n%s\n\n</details>\n\n", fence, strings.Join(g.lines, "\n"), fence)
		}
		if st.more != "" {
			m.p("%s\n\n", mdText(st.more))
		}
	}
}

func (m *mdView) warningSection() {
	if len(m.warnings) == 0 {
		return
	}
	m.h(1, headWarnings)
	for _, w := range m.warnings {
		m.p("- %s\n", mdText(w))
	}
	m.p("\n")
}
