package tui

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// export writes the view on screen as Markdown into ExportDir and returns
// the status line that says where.
func (m Model) export() string {
	var buf bytes.Buffer
	var err error
	name := "overview"
	switch m.screen {
	case screenOverview:
		if m.opt.Markdown != nil && m.query == "" {
			err = m.opt.Markdown(&buf, m.ix.r)
		} else {
			m.overview.markdown(&buf)
		}
	case screenPool:
		name = "pool"
		m.pool.markdown(&buf, m.query)
	case screenState:
		name = "state"
		if m.state.compare {
			name = "compare"
		}
		m.state.markdown(&buf)
	default:
		return "nothing to export here"
	}
	if err != nil {
		return "export failed: " + err.Error()
	}
	now := time.Now
	if m.opt.Now != nil {
		now = m.opt.Now
	}
	dir := m.opt.ExportDir
	if dir == "" {
		dir = "."
	}
	path := filepath.Join(dir, "dumpdiff-"+name+"-"+now().Format("20060102-150405")+".md")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return "export failed: " + err.Error()
	}
	return "wrote " + path
}

// mdCell escapes a table cell.
func mdCell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	if s == "" {
		return "—"
	}
	return s
}

func mdRow(w io.Writer, cells ...string) {
	for i := range cells {
		cells[i] = mdCell(cells[i])
	}
	fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
}

func mdRule(w io.Writer, n int, rightFrom int) {
	cells := make([]string, n)
	for i := range cells {
		cells[i] = "---"
		if i >= rightFrom {
			cells[i] = "---:"
		}
	}
	fmt.Fprintf(w, "|%s|\n", strings.Join(cells, "|"))
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

// markdown writes the overview as shown: findings and pools (filtered).
func (o *overviewPane) markdown(w io.Writer) {
	fmt.Fprintf(w, "# %s\n\n", o.title())
	if o.query != "" {
		fmt.Fprintf(w, "Filter: `%s`\n\n", o.query)
	}
	fmt.Fprintf(w, "## Findings\n\n")
	n := 0
	for _, r := range o.rows {
		if r.kind == rowFinding {
			fmt.Fprintf(w, "- **%s** %s: %s\n", r.f.Severity, r.f.Kind, r.f.Summary)
			n++
		}
	}
	if n == 0 {
		fmt.Fprintf(w, "None.\n")
	}
	fmt.Fprintf(w, "\n## Pools (sort: %s)\n\n", overviewSorts[o.sortBy])
	labels := o.ix.labels
	mdRow(w, append(append([]string{"pool", "trend"}, labels...), "change")...)
	mdRule(w, len(labels)+3, 2)
	for _, r := range o.rows {
		if r.kind != rowPool && r.kind != rowInternal {
			continue
		}
		name := strings.TrimSpace(strings.TrimLeft(r.name, "+- "))
		if r.p != nil && r.p.p.Internal {
			name += " (internal)"
		}
		mdRow(w, append(append([]string{name, sparkline(r.counts)}, countStrings(r.counts, len(labels))...), itoa(spread(r.counts)))...)
	}
}

// markdown writes the pool's states × moments table as shown.
func (p *poolPane) markdown(w io.Writer, query string) {
	fmt.Fprintf(w, "# %s\n\n", p.title())
	if query != "" {
		fmt.Fprintf(w, "Filter: `%s`\n\n", query)
	}
	labels := p.ix.labels
	mdRow(w, append(append([]string{"state", "category"}, labels...), "top frame", "culprit")...)
	mdRule(w, len(labels)+4, 2)
	for _, gi := range p.groups {
		g := gi.g
		mdRow(w, append(append([]string{stateName(g.State, g.Via), string(g.Category)}, countStrings(g.Counts, len(labels))...), g.TopFrame, g.Culprit)...)
	}
}

// markdown writes the state at the selected moment: same threads, thread
// list and stack; or the comparison when it is open.
func (s *statePane) markdown(w io.Writer) {
	g := s.gi.g
	fmt.Fprintf(w, "# %s\n\n", s.title())
	if g.Explain != "" {
		fmt.Fprintf(w, "%s\n\n", g.Explain)
	}
	labels := s.ix.labels
	mdRow(w, labels...)
	mdRule(w, len(labels), 0)
	mdRow(w, countStrings(g.Counts, len(labels))...)
	fmt.Fprintf(w, "\nTop frame: `%s`  \nCulprit: `%s`\n\n", orDash(g.TopFrame), orDash(g.Culprit))
	if s.compare {
		fmt.Fprintf(w, "## Representative stacks: %s ⇄ %s\n\n```diff\n", labels[s.cmpFrom], labels[s.moment])
		for _, op := range s.diff {
			text := op.left
			if op.kind == '+' {
				text = op.right
			} else if op.kind == ' ' && op.left != op.right {
				text = op.left + " → " + op.right
			}
			fmt.Fprintf(w, "%c %s\n", op.kind, text)
		}
		fmt.Fprintf(w, "```\n")
		return
	}
	fmt.Fprintf(w, "## Threads at %s (%d)\n\n%s\n\n", labels[s.moment], len(s.threads), s.sameLine())
	if s.query != "" {
		fmt.Fprintf(w, "Filter: `%s`\n\n", s.query)
	}
	for _, t := range s.threads {
		fmt.Fprintf(w, "- %s %s\n", threadRow(t), s.presence(t))
	}
	if t := s.selected(); t != nil {
		lines, _ := stackLines(t, g.Culprit)
		fmt.Fprintf(w, "\n## Stack of %s\n\n```\n%s\n```\n", threadRow(t), strings.Join(lines, "\n"))
	}
}
