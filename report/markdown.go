package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/parse"
)

// Markdown writes r as GitHub-flavoured Markdown to paste in an issue: a
// summary paragraph with the verdicts, the moments, the findings, the
// pools × moments table, for each flagged pool its states and top frames
// per moment with representative stacks in <details> blocks, a Mermaid
// chart of the flagged pools over the moments, and the warnings. It shows
// the same rows as the text view.
func Markdown(w io.Writer, r *analyze.Result, opt Options) error {
	opt = opt.withDefaults()
	m := &mdView{rows: buildRows(r, opt), bw: bufio.NewWriter(w)}
	m.summary()
	m.momentTable()
	m.findingTable()
	m.poolTable()
	m.flaggedPools()
	m.chart()
	m.warningSection()
	return m.bw.Flush()
}

type mdView struct {
	*rows
	bw *bufio.Writer
}

func (m *mdView) p(format string, args ...any) { fmt.Fprintf(m.bw, format, args...) }

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

func (m *mdView) summary() {
	m.p("## dumpdiff: %s of a %s process\n\n", plural(len(m.moments), "moment"), runtimeName(m.runtime))
	var b strings.Builder
	if len(m.moments) > 0 {
		fmt.Fprintf(&b, "Across %s (%s", plural(len(m.moments), "moment"), mdText(m.moments[0].label))
		if len(m.moments) > 1 {
			b.WriteString(" → " + mdText(m.moments[len(m.moments)-1].label))
		}
		b.WriteString("), ")
	}
	if len(m.findings) == 0 {
		b.WriteString("dumpdiff has no findings.")
	} else {
		fmt.Fprintf(&b, "dumpdiff has %s:", plural(len(m.findings), "finding"))
		for _, f := range m.findings {
			fmt.Fprintf(&b, " **%s %s**", f.severity, mdText(f.kind))
			if f.pool != "" {
				b.WriteString(" in " + mdCode(f.pool, false))
			}
			if f.summary != "" {
				s := strings.TrimSpace(f.summary)
				b.WriteString(": " + mdText(strings.TrimSuffix(s, ".")))
			}
			b.WriteString(".")
		}
	}
	m.p("%s\n\n", b.String())
}

func (m *mdView) momentTable() {
	if len(m.moments) == 0 {
		return
	}
	m.tableHead([]string{"Moment", "File", "Format", "Time", capitalize(m.unit()), "Skipped lines"},
		func(i int) bool { return i >= 4 })
	for _, mo := range m.moments {
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
		m.tableRow(label, mdCode(mo.file, true), mdText(string(mo.format)), tm,
			fmt.Sprint(mo.threads), fmt.Sprint(mo.skipped))
	}
	m.p("\n")
}

func (m *mdView) findingTable() {
	if len(m.findings) == 0 {
		return
	}
	m.p("### Findings\n\n")
	m.tableHead([]string{"Severity", "Finding", "Pool", "State", capitalize(m.unit()), "Top frame", "Culprit", "Seen"},
		func(int) bool { return false })
	for _, f := range m.findings {
		var ev []string
		for _, e := range f.evidence {
			s := fmt.Sprintf("%s: %d", mdText(e.moment), e.count)
			if len(e.threads) > 0 {
				var names []string
				for _, t := range e.threads[:min(3, len(e.threads))] {
					names = append(names, mdCode(t, true))
				}
				s += " (" + strings.Join(names, ", ")
				if more := e.count - min(3, len(e.threads)); more > 0 {
					s += fmt.Sprintf(", +%d", more)
				}
				s += ")"
			}
			ev = append(ev, s)
		}
		m.tableRow(f.severity.String(), mdText(f.kind), mdCode(f.pool, true), mdCode(stateName(f.state, f.via), true),
			findingCounts(f, m.unit()), mdCode(f.frame, true), mdCode(f.culprit, true), strings.Join(ev, "; "))
	}
	m.p("\n")
}

// countHead is the header of a pools or states table: first columns, one
// column per moment, then the change from the first moment to the last.
func (m *mdView) countHead(first ...string) {
	head := append([]string{}, first...)
	for _, mo := range m.moments {
		head = append(head, mdText(mo.label))
	}
	head = append(head, "Change")
	k := len(first)
	m.tableHead(head, func(i int) bool { return i >= k })
}

func countCells(c []int) []string {
	out := make([]string, 0, len(c)+1)
	for _, v := range c {
		out = append(out, fmt.Sprint(v))
	}
	return append(out, change(c))
}

func (m *mdView) poolTable() {
	if len(m.moments) == 0 {
		return
	}
	m.p("### Pools\n\n")
	m.countHead("Pool")
	for _, p := range m.pools {
		name := mdCode(p.name, true)
		if p.flagged {
			name = "**" + name + "** (" + p.severity.String() + ")"
		}
		m.tableRow(append([]string{name}, countCells(p.counts)...)...)
	}
	if p := m.more; p != nil {
		m.tableRow(append([]string{"… " + plural(p.folded, "more pool")}, countCells(p.counts)...)...)
	}
	if p := m.internal; p != nil {
		m.tableRow(append([]string{fmt.Sprintf("%s (%s)", p.name, plural(p.folded, "pool"))}, countCells(p.counts)...)...)
	}
	m.tableRow(append([]string{"**total**"}, countCells(m.totals)...)...)
	m.p("\n")
}

func (m *mdView) flaggedPools() {
	for _, p := range m.pools {
		if !p.flagged || len(p.states) == 0 {
			continue
		}
		m.p("### Pool %s\n\n", mdCode(p.name, false))
		m.countHead("State", "Category", "Top frame", "Culprit")
		for _, s := range p.states {
			st := mdCode(stateName(s.state, s.via), true)
			if s.flagged {
				st = "**" + st + "**"
			}
			m.tableRow(append([]string{st, mdText(string(s.category)), mdCode(s.frame, true), mdCode(s.culprit, true)},
				countCells(s.counts)...)...)
		}
		if s := p.moreStates; s != nil {
			m.tableRow(append([]string{"… " + plural(s.folded, "more state"), "", "", ""}, countCells(s.counts)...)...)
		}
		m.p("\n")
		var dom []string
		for i, d := range p.dominant {
			if d.count == 0 {
				dom = append(dom, mdText(m.moments[i].label)+": none")
				continue
			}
			f := d.frame
			if f == "" {
				f = d.state
			}
			dom = append(dom, fmt.Sprintf("%s: %s %d", mdText(m.moments[i].label), mdCode(shortFrame(f), false), d.count))
		}
		m.p("Top frame per moment: %s.\n\n", strings.Join(dom, " · "))
		anyFlagged := hasFlaggedState(p)
		for i, s := range p.states {
			// The flagged states' stacks; the largest state's when the
			// findings name no state.
			if s.flagged || (!anyFlagged && i == 0) {
				m.stack(s)
			}
		}
	}
}

func hasFlaggedState(p poolRow) bool {
	for _, s := range p.states {
		if s.flagged {
			return true
		}
	}
	return false
}

// stack writes the representative stack of s at the moment it held most
// threads, in a <details> block.
func (m *mdView) stack(s stateRow) {
	g := s.group
	if g == nil {
		return
	}
	peak := -1
	for i, c := range s.counts {
		if i < len(g.Stacks) && g.Stacks[i] != nil && (peak < 0 || c > s.counts[peak]) {
			peak = i
		}
	}
	if peak < 0 {
		return
	}
	t := g.Stacks[peak]
	lines := stackLines(t, m.runtime)
	for i, l := range lines {
		lines[i] = oneLine(l)
	}
	m.p("<details><summary>%s: %s at %s, one of %d</summary>\n\n",
		mdHTML(stateName(s.state, s.via)), mdHTML(threadTitle(t)), mdHTML(m.moments[peak].label), s.counts[peak])
	fence := codeFence(lines)
	m.p("%s\n%s\n%s\n\n</details>\n\n", fence, strings.Join(lines, "\n"), fence)
}

// chart draws the flagged pools over the moments as a Mermaid xychart. Its
// lines carry no names, so the pools are listed under it in line order.
func (m *mdView) chart() {
	var flagged []poolRow
	for _, p := range m.pools {
		if p.flagged {
			flagged = append(flagged, p)
		}
	}
	if len(flagged) == 0 || len(m.moments) < 2 {
		return
	}
	top := 0
	for _, p := range flagged {
		for _, c := range p.counts {
			top = max(top, c)
		}
	}
	var labels []string
	for _, mo := range m.moments {
		labels = append(labels, `"`+mermaidText(mo.label)+`"`)
	}
	m.p("### %s over time\n\n```mermaid\nxychart-beta\n", capitalize(m.unit()))
	m.p("    title \"%s per flagged pool\"\n", capitalize(m.unit()))
	m.p("    x-axis [%s]\n", strings.Join(labels, ", "))
	m.p("    y-axis \"%s\" 0 --> %d\n", m.unit(), niceCeil(top+top/10))
	for _, p := range flagged {
		var c []string
		for _, v := range p.counts {
			c = append(c, fmt.Sprint(v))
		}
		m.p("    line [%s]\n", strings.Join(c, ", "))
	}
	m.p("```\n\nLines, in order:")
	for i, p := range flagged {
		if i > 0 {
			m.p(",")
		}
		m.p(" %d. %s", i+1, mdCode(p.name, false))
	}
	m.p(".\n\n")
}

func (m *mdView) warningSection() {
	if len(m.warnings) == 0 {
		return
	}
	m.p("### Warnings\n\n")
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
