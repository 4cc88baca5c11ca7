package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/dumpdiff/dumpdiff/analyze"
)

// instanceRow is one captured process in the comparison of instances.
type instanceRow struct {
	target   string
	totals   []int // threads per moment label of the first instance
	critical int
	warning  int
	top      string // the most severe finding, one line; "" when none
}

// instanceRows lines up several analyses of the same capture (one per
// target) by moment label, so that instances behind a load balancer can be
// compared at the same moments.
func instanceRows(rs []*analyze.Result) (labels []string, out []instanceRow) {
	if len(rs) == 0 {
		return nil, nil
	}
	for _, m := range rs[0].Moments {
		labels = append(labels, m.Label)
	}
	for _, r := range rs {
		row := instanceRow{totals: make([]int, len(labels))}
		if len(r.Moments) > 0 {
			row.target = r.Moments[0].Target
		}
		if row.target == "" {
			row.target = string(r.Runtime) + " dumps"
		}
		for i, l := range labels {
			row.totals[i] = -1
			for j, m := range r.Moments {
				if m.Label == l && j < len(r.Totals) {
					row.totals[i] = r.Totals[j]
				}
			}
		}
		for _, f := range r.Findings {
			switch f.Severity {
			case analyze.Critical:
				row.critical++
			case analyze.Warning:
				row.warning++
			}
			if row.top == "" && f.Severity > analyze.Info {
				row.top = f.Kind
				if f.Pool != "" {
					row.top += " " + f.Pool
				}
				if f.State != "" {
					row.top += " · " + stateName(f.State, f.Via)
				}
			}
		}
		out = append(out, row)
	}
	return labels, out
}

// instanceVerdict is an instance's findings in a few words.
func instanceVerdict(r instanceRow) string {
	if r.critical+r.warning == 0 {
		return "no alarm"
	}
	return fmt.Sprintf("%d critical, %d warning: %s", r.critical, r.warning, r.top)
}

// instanceCount prints a count of the comparison; "—" where the target has
// no such moment.
func instanceCount(n int) string {
	if n < 0 {
		return "—"
	}
	return fmt.Sprint(n)
}

// instancesText writes the comparison of several captured instances (one
// analysis each, same moments) before their own reports: threads per moment
// and the verdict of each.
func instancesText(w io.Writer, rs []*analyze.Result, opt Options) error {
	labels, rows := instanceRows(rs)
	nameW := len("INSTANCES")
	for _, r := range rows {
		nameW = max(nameW, len(r.target))
	}
	nameW = min(nameW, 30)
	var sb strings.Builder
	sb.WriteString(padRight("INSTANCES", nameW))
	for _, l := range labels {
		sb.WriteString("  " + padLeft(truncateMiddle(l, 10), max(len(truncateMiddle(l, 10)), 5)))
	}
	sb.WriteString("  verdict")
	fmt.Fprintln(w, truncate(sb.String(), opt.Width))
	for _, r := range rows {
		sb.Reset()
		sb.WriteString(padRight(truncateMiddle(r.target, nameW), nameW))
		for i, t := range r.totals {
			l := truncateMiddle(labels[i], 10)
			sb.WriteString("  " + padLeft(instanceCount(t), max(len(l), 5)))
		}
		sb.WriteString("  " + instanceVerdict(r))
		fmt.Fprintln(w, truncate(sb.String(), opt.Width))
	}
	_, err := fmt.Fprintln(w)
	return err
}

// instanceTable is the comparison of captured targets as the ticket
// formats write it: a row per target, its threads per moment, its verdict.
func instanceTable(rs []*analyze.Result) tableBlock {
	labels, rows := instanceRows(rs)
	t := tableBlock{head: heads(append(append([]string{"Instance"}, labels...), "Verdict")...)}
	t.right = make([]bool, len(t.head))
	for i := range labels {
		t.right[i+1] = true
	}
	for _, r := range rows {
		cells := []inline{{code(r.target)}}
		for _, n := range r.totals {
			cells = append(cells, inline{txt(instanceCount(n))})
		}
		t.rows = append(t.rows, append(cells, inline{txt(instanceVerdict(r))}))
	}
	return t
}
