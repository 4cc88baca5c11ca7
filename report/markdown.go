package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/internal/words"
	"github.com/dumpdiff/dumpdiff/parse"
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
		m := newMDView(bw, r, opt, 2)
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
	m := newMDView(bw, r, opt, 1)
	m.p("# %s\n\n", m.title())
	m.body()
	return bw.Flush()
}

type mdView struct {
	*rows
	lead lead
	sx   syntax
	bw   *bufio.Writer
	// level is the level of the document's title; sections are one below.
	level int
	// headers are the moment columns of the tables: the labels, or #1, #2
	// when a label is too long for a narrow table.
	headers  []string
	numbered bool
}

func newMDView(bw *bufio.Writer, r *analyze.Result, opt Options, level int) *mdView {
	rs := buildRows(r, opt)
	m := &mdView{rows: rs, lead: leadOf(rs), sx: mdSyntax(), bw: bw, level: level}
	for _, mo := range rs.moments {
		if cells(mo.label) > 12 {
			m.numbered = true
		}
	}
	for i, mo := range rs.moments {
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
	m.h(1, "Evidence")
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

func runtimeName(rt parse.Runtime) string {
	switch rt {
	case parse.RuntimeJVM:
		return "JVM"
	case parse.RuntimeGo:
		return "Go"
	}
	return "unknown-runtime"
}

// title is the document's first line: the most severe root cause, or that
// there is none.
func (m *mdView) title() string {
	f := m.lead.root
	if f == nil {
		return m.noFindingsTitle()
	}
	return "dumpdiff: " + m.sx.findingTitle(f, true)
}

// mdSyntax is Markdown's syntax for the shared pieces.
func mdSyntax() syntax {
	code := func(s string) string { return mdCode(s, false) }
	return syntax{text: mdText, code: code, culprit: code, entry: code, strong: func(s string) string { return s }, probe: " (health check)",
		tag: func(sev analyze.Severity, kind string) string { return sev.String() + " " + mdText(kind) }}
}

// leadSection is the verdict in at most ten lines.
func (m *mdView) leadSection() {
	f := m.lead.root
	if f == nil {
		m.p("%s\n\n", mdText(m.noFindingSentence()))
		return
	}
	for _, it := range m.sx.leadItems(m.rows, m.lead, numberRef) {
		if it.of != nil {
			m.p("- **%s** (%s): %s", it.key, m.sx.tag(it.of.severity, it.of.kind), it.value)
		} else {
			m.p("- **%s:** %s", it.key, it.value)
		}
		if it.sentence {
			m.p(".")
		}
		m.p("\n")
	}
	m.p("\n")
}

func (m *mdView) findingSection() {
	if len(m.findings) == 0 {
		return
	}
	m.h(1, "Findings")
	charted := map[string]int{} // chart signature → finding that drew it
	for i := range m.findings {
		f := &m.findings[i]
		m.h(2, "%d. %s", f.num, capitalize(m.sx.findingTitle(f, false)))
		if len(f.counts) > 0 {
			m.p("%s %s (%s)", findingCounts(*f, m.unit()), m.unit(), mdText(m.momentSpan()))
			if f.recovery.known {
				m.p(" · recovered: %s", mdText(f.recovery.String()))
			}
			m.p("\n\n")
		}
		if f.summary != "" {
			m.p("%s.\n\n", mdText(strings.TrimSuffix(strings.TrimSpace(f.summary), ".")))
		}
		if len(f.series) > 0 {
			sig := seriesSignature(f.series)
			if k, ok := charted[sig]; ok {
				m.p("Chart: the same as finding %d's.\n\n", k)
			} else {
				charted[sig] = f.num
				m.chart(f)
			}
		}
		var items []string
		if f.frame != "" || f.culprit != "" {
			var parts []string
			if f.frame != "" {
				parts = append(parts, "**Top frame:** "+mdCode(f.frame, false))
			}
			if f.culprit != "" {
				parts = append(parts, "**culprit:** "+mdCode(f.culprit, false))
			}
			items = append(items, strings.Join(parts, " · "))
		}
		if len(f.groups) > 0 {
			items = append(items, "**Identical stacks at "+mdText(m.label(f.at))+":** "+m.sx.groups(f.groups))
		}
		if ev := m.sx.evidence(f.evidence); ev != "" {
			items = append(items, "**Seen:** "+ev)
		}
		if f.causedByNum > 0 {
			items = append(items, fmt.Sprintf("**Follows from** finding %d.", f.causedByNum))
		}
		var leads []string
		for _, c := range m.findings {
			if c.causedBy != "" && c.causedBy == f.id {
				leads = append(leads, fmt.Sprint(c.num))
			}
		}
		if len(leads) > 0 {
			items = append(items, "**Leads to** finding "+strings.Join(leads, ", ")+".")
		}
		for _, it := range items {
			m.p("- %s\n", it)
		}
		if len(items) > 0 {
			m.p("\n")
		}
	}
}

// seriesColors are the chart's line colours, by role, with the word the
// legend uses: the Mermaid palette is set to them so that the legend is
// exact.
var seriesColors = map[string][2]string{
	"finding": {"#d62728", "red"},
	"idle":    {"#1f77b4", "blue"},
	"total":   {"#ff7f0e", "orange"},
	"limit":   {"#7f7f7f", "grey"},
}

func seriesSignature(ss []series) string {
	var b strings.Builder
	for _, s := range ss {
		fmt.Fprintf(&b, "%s=%v;", s.name, s.counts)
	}
	return b.String()
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

// legendLines are one line per series: colour, name, sparkline, counts,
// aligned.
func legendLines(ss []series, top int) []string {
	colW, nameW := 0, 0
	for _, s := range ss {
		colW = max(colW, len(seriesColors[s.role][1]))
		nameW = max(nameW, cells(s.name))
	}
	var out []string
	for _, s := range ss {
		out = append(out, padRight(seriesColors[s.role][1], colW)+"  "+padRight(oneLine(s.name), nameW)+"  "+
			sparkline(s.counts, top)+"  "+arrowCounts(s.counts))
	}
	return out
}

func (m *mdView) momentTable() {
	if len(m.moments) == 0 {
		return
	}
	m.h(2, "Moments")
	skipped := false
	for _, mo := range m.moments {
		skipped = skipped || mo.skipped > 0
	}
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
		label := mdText(mo.label)
		if mo.target != "" {
			label += " (" + mdText(mo.target) + ")"
		}
		tm := mo.time
		if tm == "" {
			tm = "not in dump"
		}
		if mo.delta != "" {
			tm += " (" + mo.delta + ")"
		}
		row := []string{label, mdCode(mo.file, true), tm, fmt.Sprint(mo.threads)}
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
	m.h(2, "Pools and states")
	head := append(append([]string{"Pool / state"}, m.headers...), "Change")
	m.tableHead(head, func(i int) bool { return i > 0 })
	for _, p := range m.pools {
		name := mdCode(p.name, true)
		if p.flagged {
			name = "**" + name + "** (" + p.severity.String() + ")"
		}
		m.tableRow(append([]string{name}, countCells(p.counts)...)...)
		for _, s := range p.states {
			st := mdText(stateName(s.state, s.via))
			if s.flagged {
				st = "**" + st + "**"
			}
			m.tableRow(append([]string{"↳ " + st}, countCells(s.counts)...)...)
		}
		if s := p.moreStates; s != nil {
			m.tableRow(append([]string{"↳ … " + words.Plural(s.folded, "more state")}, countCells(s.counts)...)...)
		}
	}
	if p := m.more; p != nil {
		m.tableRow(append([]string{"… " + words.Plural(p.folded, "more pool")}, countCells(p.counts)...)...)
	}
	if p := m.internal; p != nil {
		m.tableRow(append([]string{fmt.Sprintf("%s (%s)", p.name, words.Plural(p.folded, "pool"))}, countCells(p.counts)...)...)
	}
	m.tableRow(append([]string{"**total**"}, countCells(m.totals)...)...)
	m.p("\n")
}

// stackSection shows, for the states the findings name (the largest state
// of a flagged pool when they name none), each identical-stack group's
// stack in a <details> block, culprit and entry point marked.
func (m *mdView) stackSection() {
	for k, st := range m.ticketStacks() {
		if k == 0 {
			m.h(2, "Stacks")
		}
		s := st.state
		for i, sg := range s.groups[:min(maxStackGroups, len(s.groups))] {
			m.p("<details><summary>%s (%s)</summary>\n\n", mdHTML(m.groupHeading(s, i)), mdHTML(st.pool.name))
			if len(sg.Samples) > 0 {
				m.p("%s: %s\n\n", capitalize(m.unit()), m.sx.sampleList(sg.Samples, sg.Count, len(sg.Samples)))
			}
			lines := markedStack(sg, m.runtime)
			fence := codeFence(lines)
			m.p("%s\n%s\n%s\n\n</details>\n\n", fence, strings.Join(lines, "\n"), fence)
		}
		if more := m.moreGroups(s, maxStackGroups); more != "" {
			m.p("%s\n\n", mdText(more))
		}
	}
}

// markedStack is a group's stack, one line a frame (lock lines under
// their frame, as stackLines), with "◀ culprit" and "◀ entry point" after
// those frames. Control characters are spaces.
func markedStack(sg StackGroup, rt parse.Runtime) []string {
	if sg.Stack == nil {
		return nil
	}
	return stackLinesMarked(sg.Stack, rt, func(i int) string {
		switch {
		case i == sg.CulpritAt && i == sg.EntryAt:
			return "  ◀ culprit, entry point"
		case i == sg.CulpritAt:
			return "  ◀ culprit"
		case i == sg.EntryAt:
			if sg.Probe {
				return "  ◀ entry point (health check)"
			}
			return "  ◀ entry point"
		}
		return ""
	})
}

func (m *mdView) warningSection() {
	if len(m.warnings) == 0 {
		return
	}
	m.h(1, "Warnings")
	for _, w := range m.warnings {
		m.p("- %s\n", mdText(w))
	}
	m.p("\n")
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// niceCeil rounds n up to a multiple of half its leading power of ten
// (220 → 250, 497 → 500, 2206 → 2500), for the end of a chart axis.
func niceCeil(n int) int {
	if n < 10 {
		return max(1, n)
	}
	p := 1
	for p*10 <= n {
		p *= 10
	}
	step := p / 2
	return (n + step - 1) / step * step
}
