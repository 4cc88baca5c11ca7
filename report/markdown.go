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
	writeMany(rs, opt.withDefaults(), mdWriter(bw))
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
	bw := bufio.NewWriter(w)
	writeOne(r, opt.withDefaults(), mdWriter(bw))
	return bw.Flush()
}

func mdWriter(bw *bufio.Writer) func(*document, int) ticketWriter {
	return func(d *document, level int) ticketWriter { return newMDView(bw, d, level) }
}

// mdView writes a document in Markdown.
type mdView struct {
	*document
	sx syntax
	bw *bufio.Writer
	// level is the level of the document's title; sections are one below.
	level int
	// numbered is set when a label is too long for a narrow table: the
	// moment columns are #1, #2 then, and the moments table says which.
	numbered bool
}

func newMDView(bw *bufio.Writer, d *document, level int) *mdView {
	m := &mdView{document: d, sx: mdSyntax(), bw: bw, level: level}
	for _, mo := range d.moments {
		if cells(mo.label) > 12 {
			m.numbered = true
		}
	}
	return m
}

func (m *mdView) p(format string, args ...any) { fmt.Fprintf(m.bw, format, args...) }

// heading writes a heading d levels below the document's title.
func (m *mdView) heading(d int, _ string, text inline) {
	m.p("%s %s\n\n", strings.Repeat("#", min(6, m.level+d)), m.sx.render(text))
}

func (m *mdView) para(_, text string) { m.p("%s\n\n", mdText(text)) }

// column is a moment's number as a column's name: "#2", as it is.
func column(s string) span { return span{kind: spanRaw, text: s} }

// table writes t as a GFM table, then a blank line.
func (m *mdView) table(t tableBlock) {
	row := func(cells []string) { m.p("| %s |\n", strings.Join(cells, " | ")) }
	head := make([]string, len(t.head))
	for i, h := range t.head {
		head[i] = m.sx.render(h)
	}
	row(head)
	for i := range head {
		head[i] = "---"
		if t.right[i] {
			head[i] = "--:"
		}
	}
	row(head)
	cell := m.sx
	cell.code = func(s string) string { return mdCode(s, true) } // "|" escaped in a table
	for _, r := range t.rows {
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = cell.render(c)
		}
		row(cells)
	}
	m.p("\n")
}

// mdSyntax is Markdown's syntax for the inline pieces.
func mdSyntax() syntax {
	code := func(s string) string { return mdCode(s, false) }
	return syntax{text: mdText, code: code, culprit: code, entry: code, strong: func(s string) string { return s }, probe: " (health check)",
		bold: func(s string) string { return "**" + s + "**" },
		tag:  func(sev analyze.Severity, kind string) string { return sev.String() + " " + mdText(kind) }}
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

// verdict is the lead in at most ten lines.
func (m *mdView) verdict(d *document) {
	if d.lead.root == nil {
		m.para("", d.noFinding)
		return
	}
	m.facts(d.verdict)
}

func (m *mdView) finding(f *findingBlock) {
	m.p("%s %d. %s\n\n", strings.Repeat("#", min(6, m.level+2)), f.num, capitalize(m.sx.render(f.title)))
}

func (m *mdView) endFinding(*findingBlock) {}

// chart draws a finding's series twice: first as sparklines with their
// colour, name and counts (the chart wherever Mermaid is off: GitLab and
// Bitbucket previews, mail notifications, Confluence imports, where a
// Mermaid block shows as its source), then as a Mermaid xychart, one line
// per series. Its colours are set by a one-line init directive rather
// than a front-matter config block (six lines of YAML that read as noise
// where the block is not drawn), so that the sparklines' colour words
// name the chart's lines.
func (m *mdView) chart(f *findingBlock) {
	if f.sameChart > 0 {
		m.para("note", fmt.Sprintf(sameChartFmt, f.sameChart))
		return
	}
	top := seriesTop(f.series)
	lines := legendLines(f.series, top)
	fence := codeFence(lines)
	m.p("%stext\n%s\n%s\n\n", fence, strings.Join(lines, "\n"), fence)
	var labels, palette []string
	for _, mo := range m.moments {
		labels = append(labels, `"`+mermaidText(mo.label)+`"`)
	}
	for _, s := range f.series {
		palette = append(palette, seriesColors[s.role][0])
	}
	m.p("```mermaid\n%%%%{init: {\"themeVariables\": {\"xyChart\": {\"plotColorPalette\": \"%s\"}}}}%%%%\nxychart-beta\n", strings.Join(palette, ", "))
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
}

// momentTable numbers the moments when a label is too long for a narrow
// table: the pools table's columns are #1, #2 then.
func (m *mdView) momentTable(d *document) {
	t := d.momentTable()
	if m.numbered {
		t.head, t.right = append([]inline{{column("#")}}, t.head...), append([]bool{false}, t.right...)
		for i := range t.rows {
			t.rows[i] = append([]inline{{column(fmt.Sprintf("#%d", i+1))}}, t.rows[i]...)
		}
	}
	m.table(t)
}

// poolTable is the pools × moments table with the states of flagged pools
// under them: names in the first column, one narrow column per moment.
func (m *mdView) poolTable(d *document) {
	t := d.poolTable()
	if m.numbered {
		for i := range d.moments {
			t.head[i+1] = inline{column(fmt.Sprintf("#%d", i+1))}
		}
	}
	m.table(t)
}

func (m *mdView) stacks(d *document) { d.writeTicketStacks(m, m.stackGroup) }

// stackGroup is a group's stack in a <details> block, culprit and entry
// point marked.
func (m *mdView) stackGroup(pool string, g stackGroupBlock) {
	m.p("<details><summary>%s (%s)</summary>\n\n", mdHTML(g.heading), mdHTML(pool))
	if len(g.samples) > 0 {
		m.p("%s: %s\n\n", capitalize(m.unit()), m.sx.render(g.samples))
	}
	lines := g.lines()
	fence := codeFence(lines)
	m.p("%s\n%s\n%s\n\n</details>\n\n", fence, strings.Join(lines, "\n"), fence)
}

func (m *mdView) list(items []string) {
	for _, it := range items {
		m.p("- %s\n", mdText(it))
	}
	m.p("\n")
}
