package tui

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/dumpdiff/dumpdiff/internal/private"
	"github.com/dumpdiff/dumpdiff/report"
)

// exporter is a pane that `m` writes as Markdown: name goes in the file
// name ("pool"), markdown writes the view as shown.
type exporter interface {
	exportName() string
	markdown(w io.Writer)
}

// DefaultExportDir is where m writes without --export-dir: the user's
// state folder ($XDG_STATE_HOME/dumpdiff/exports, else
// ~/.local/state/dumpdiff/exports), not the current folder (often the
// dumps' own, or a repository), else the temporary folder.
func DefaultExportDir() string {
	if d := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "dumpdiff", "exports")
	}
	if h, err := os.UserHomeDir(); err == nil && h != "" {
		return filepath.Join(h, ".local", "state", "dumpdiff", "exports")
	}
	return filepath.Join(os.TempDir(), "dumpdiff-exports")
}

// export writes the pane on top as Markdown into ExportDir, which it
// creates when missing, and returns the status line that says where (the
// absolute path, whole: the footer wraps it) or why not. The file and the
// folders it makes are the user's only (internal/private): the Markdown
// holds thread names and stacks.
func (m Model) export() string {
	e, ok := m.top().(exporter)
	if !ok {
		return "nothing to export here"
	}
	var buf bytes.Buffer
	name := e.exportName()
	if m.screen() == screenOverview && m.opt.Markdown != nil && m.query == "" {
		if err := m.opt.Markdown(&buf, m.ix.r); err != nil {
			return "export failed: " + err.Error()
		}
	} else {
		e.markdown(&buf)
	}
	now := time.Now
	if m.opt.Now != nil {
		now = m.opt.Now
	}
	dir := m.opt.ExportDir
	if dir == "" {
		dir = DefaultExportDir()
	}
	if m.ix.of > 1 {
		name = slug(m.ix.targetName()) + "-" + name
	}
	if err := os.MkdirAll(dir, private.Dir); err != nil {
		return "export failed: " + err.Error()
	}
	path := filepath.Join(dir, "dumpdiff-"+name+"-"+now().Format("20060102-150405")+".md")
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	if err := os.WriteFile(path, buf.Bytes(), private.File); err != nil {
		return "export failed: " + err.Error()
	}
	return "wrote " + path
}

// slug keeps letters, digits, '.', '-' and '_' of a target name for a
// file name; anything else becomes '_'.
func slug(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			return r
		}
		return '_'
	}, s)
}

// capitalize upper-cases the first letter of an ASCII sentence.
func capitalize(s string) string {
	if s != "" && s[0] >= 'a' && s[0] <= 'z' {
		return string(s[0]-'a'+'A') + s[1:]
	}
	return s
}

// Markdown written by `m` escapes everything that comes from a dump: thread
// and pool names, states, frames and the filter may hold "|", "`", "<" or
// "*". Text goes through report.MarkdownText, frames and the filter become
// code spans (report.MarkdownCode) and stacks sit in a fence longer than any
// backtick run in them (report.MarkdownFence).

// mdRow writes one table row of cells already escaped; an empty cell is
// written "—" so that no cell is blank.
func mdRow(w io.Writer, cells ...string) {
	for i := range cells {
		if strings.TrimSpace(cells[i]) == "" {
			cells[i] = "—"
		}
	}
	fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
}

// mdTextCells escapes each of ss as table cell text.
func mdTextCells(ss ...string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = report.MarkdownText(s)
	}
	return out
}

// mdCodeCell is a frame in a table cell: a code span, or "—" when none.
func mdCodeCell(s string) string {
	if c := report.MarkdownCode(s, true); c != "" {
		return c
	}
	return "—"
}

// mdCodeText is a frame or the filter in running text: a code span, or "—"
// when blank.
func mdCodeText(s string) string {
	if c := report.MarkdownCode(s, false); c != "" {
		return c
	}
	return "—"
}

// mdRule writes the delimiter row of a table: one letter per column, 'l'
// left-aligned (names, frames), 'r' right-aligned (counts).
func mdRule(w io.Writer, align string) {
	cells := make([]string, len(align))
	for i := range cells {
		cells[i] = "---"
		if align[i] == 'r' {
			cells[i] = "---:"
		}
	}
	fmt.Fprintf(w, "|%s|\n", strings.Join(cells, "|"))
}

// mdFenced writes lines as a fenced code block of the given info string
// ("diff", or "" for none), fenced so that no line can close it.
func mdFenced(w io.Writer, info string, lines []string) {
	body := strings.Join(lines, "\n")
	fence := report.MarkdownFence(body)
	fmt.Fprintf(w, "%s%s\n%s\n%s\n", fence, info, body, fence)
}

func countStrings(counts []int, n int) []string {
	out := make([]string, n)
	for i := range out {
		v := 0
		if i < len(counts) {
			v = counts[i]
		}
		out[i] = itoa(v)
	}
	return out
}

func (o *overviewPane) exportName() string { return "overview" }

// markdown writes the overview as shown: findings and pools (filtered).
func (o *overviewPane) markdown(w io.Writer) {
	fmt.Fprintf(w, "# %s\n\n", report.MarkdownText(o.title()))
	if o.query != "" {
		fmt.Fprintf(w, "Filter: %s\n\n", mdCodeText(o.query))
	}
	fmt.Fprintf(w, "## Findings\n\n")
	n := 0
	for _, r := range o.rows {
		if r.kind == rowFinding {
			fmt.Fprintf(w, "- **%s** %s: %s\n", report.MarkdownText(r.f.Severity.String()),
				report.MarkdownText(r.f.Kind), report.MarkdownText(report.Summary(o.ix.r, r.f)))
			n++
		}
	}
	if n == 0 {
		fmt.Fprintf(w, "None.\n")
	}
	fmt.Fprintf(w, "\n## Pools (sort: %s)\n\n", overviewSorts[o.sortBy])
	labels := o.ix.full
	fmt.Fprintf(w, "*moved* is how many threads moved between two moments: into a state they were not in, or new (a pool whose threads all went from idle to stuck moved all of them, though its count did not).\n\n")
	mdRow(w, mdTextCells(append(append([]string{"pool", "trend"}, labels...), "moved")...)...)
	mdRule(w, "ll"+strings.Repeat("r", len(labels)+1))
	for _, r := range o.rows {
		if r.kind != rowPool && r.kind != rowInternal {
			continue
		}
		name := strings.TrimSpace(strings.TrimLeft(r.name, "+- "))
		if r.p != nil && r.p.p.Internal {
			name += " (internal)"
		}
		moved := spread(r.counts)
		if r.kind == rowPool && r.p != nil {
			moved = r.p.moved
		}
		mdRow(w, append(append(mdTextCells(name, sparkline(r.counts, o.top)), countStrings(r.counts, len(labels))...), itoa(moved))...)
	}
}

func (p *poolPane) exportName() string { return "pool" }

// markdown writes the pool's states × moments table as shown.
func (p *poolPane) markdown(w io.Writer) {
	fmt.Fprintf(w, "# %s\n\n", report.MarkdownText(p.ix.titlePrefix(false)+p.title()))
	if p.query != "" {
		fmt.Fprintf(w, "Filter: %s\n\n", mdCodeText(p.query))
	}
	labels := p.ix.full
	mdRow(w, mdTextCells(append(append([]string{"state", "category"}, labels...), "top frame", "culprit")...)...)
	mdRule(w, "ll"+strings.Repeat("r", len(labels))+"ll")
	for _, gi := range p.groups {
		g := gi.g
		mdRow(w, append(append(mdTextCells(stateName(g.State, g.Via), string(g.Category)), countStrings(g.Counts, len(labels))...),
			mdCodeCell(g.TopFrame), mdCodeCell(g.Culprit))...)
	}
}

func (s *statePane) exportName() string {
	if s.compare {
		return "compare"
	}
	return "state"
}

// markdown writes the state at the selected moment: same threads, thread
// list and stack; or the comparison when it is open.
func (s *statePane) markdown(w io.Writer) {
	g := s.gi.g
	fmt.Fprintf(w, "# %s\n\n", report.MarkdownText(s.ix.titlePrefix(false)+s.title()))
	if g.Explain != "" {
		fmt.Fprintf(w, "%s\n\n", report.MarkdownText(g.Explain))
	}
	labels := s.ix.full
	mdRow(w, mdTextCells(labels...)...)
	mdRule(w, strings.Repeat("r", len(labels)))
	mdRow(w, countStrings(g.Counts, len(labels))...)
	fmt.Fprintf(w, "\nTop frame: %s  \nCulprit: %s\n\n", mdCodeText(g.TopFrame), mdCodeText(g.Culprit))
	if s.compare {
		if s.follow {
			fmt.Fprintf(w, "## Stacks of %s: %s ⇄ %s\n\n", report.MarkdownText(s.cmpName()),
				report.MarkdownText(labels[s.cmpFrom]+s.stateAt(s.cmpFrom)), report.MarkdownText(labels[s.moment]+s.stateAt(s.moment)))
		} else {
			fmt.Fprintf(w, "## Representative stacks: %s ⇄ %s\n\n", report.MarkdownText(labels[s.cmpFrom]), report.MarkdownText(labels[s.moment]))
		}
		if empty := s.emptySide(); empty != "" {
			fmt.Fprintf(w, "%s.\n", report.MarkdownText(capitalize(empty)))
			return
		}
		var lines []string
		for _, op := range s.diff {
			lines = append(lines, op.Text())
		}
		mdFenced(w, "diff", lines)
		return
	}
	fmt.Fprintf(w, "## Threads at %s (%d)\n\n%s\n\n", report.MarkdownText(labels[s.moment]), len(s.threads), report.MarkdownText(s.sameLine()))
	if s.query != "" {
		fmt.Fprintf(w, "Filter: %s\n\n", mdCodeText(s.query))
	}
	for _, t := range s.threads {
		fmt.Fprintf(w, "- %s %s\n", report.MarkdownText(threadRow(t)), s.presence(t))
	}
	if t := s.selected(); t != nil {
		lines, _ := stackLines(t, marksOf(g, s.moment))
		fmt.Fprintf(w, "\n## Stack of %s\n\n", report.MarkdownText(threadRow(t)))
		mdFenced(w, "", shownLines(lines))
	}
}

// shownLines are stack lines as shown, marks included.
func shownLines(ls []stackLine) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l.shown()
	}
	return out
}

func (d *detailPane) exportName() string { return "finding" }

// markdown writes the finding as shown: its sentence whole, its facts and
// the representative stack.
func (d *detailPane) markdown(w io.Writer) {
	fmt.Fprintf(w, "# %s\n\n", report.MarkdownText(d.ix.titlePrefix(false)+strings.TrimPrefix(d.title(), d.ix.titlePrefix(true))))
	fmt.Fprintf(w, "%s\n\n", report.MarkdownText(report.Summary(d.ix.r, d.f)))
	if ft, ok := d.ix.document().Finding(d.f.ID); ok && ft.Counts != "" {
		fmt.Fprintf(w, "%s\n\n", report.MarkdownText(ft.Counts))
	}
	for _, f := range d.facts() {
		fmt.Fprintf(w, "- **%s:** %s\n", report.MarkdownText(f.label), report.MarkdownText(strings.Join(f.values, "; ")))
	}
	if d.rep != nil {
		lines, _ := stackLines(d.rep, d.mk)
		fmt.Fprintf(w, "\n## Stack of %s at %s\n\n", report.MarkdownText(threadRow(d.rep)), report.MarkdownText(d.ix.full[d.repAt]))
		mdFenced(w, "", shownLines(lines))
	}
}

func (p *cyclePane) exportName() string { return "cycle" }

// markdown writes the cycle: each member with its lock and holder, and
// each member's stack.
func (p *cyclePane) markdown(w io.Writer) {
	fmt.Fprintf(w, "# %sDeadlock cycle at %s\n\n", report.MarkdownText(p.ix.titlePrefix(false)), report.MarkdownText(p.ix.full[p.f.At]))
	for _, c := range p.f.Cycle {
		fmt.Fprintf(w, "- %s\n", report.MarkdownText(cycleText(c)))
	}
	for i, t := range p.threads {
		if t == nil {
			continue
		}
		lines, _ := stackLines(t, marks{culprits: []string{p.f.Cycle[i].Culprit}})
		fmt.Fprintf(w, "\n## Stack of %s\n\n", report.MarkdownText(threadRow(t)))
		mdFenced(w, "", shownLines(lines))
	}
}
