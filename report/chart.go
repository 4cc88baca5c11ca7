package report

import (
	"fmt"
	"strings"
)

// A finding's chart without a chart library: the series' colours by role,
// their sparklines, and the end of an axis. Markdown draws the series as
// a Mermaid chart and sparklines, Jira as sparklines, HTML as SVG
// (svgchart.go); the TUI draws its trends with the same Sparkline.

// seriesColors are the chart's line colours, by role, with the word the
// legend uses: the Mermaid palette is set to them so that the legend is
// exact.
var seriesColors = map[string][2]string{
	"finding": {"#d62728", "red"},
	"idle":    {"#1f77b4", "blue"},
	"total":   {"#ff7f0e", "orange"},
	"limit":   {"#7f7f7f", "grey"},
}

// seriesSignature tells two charts apart: the same signature draws the
// same chart.
func seriesSignature(ss []series) string {
	var b strings.Builder
	for _, s := range ss {
		fmt.Fprintf(&b, "%s=%v;", s.name, s.counts)
	}
	return b.String()
}

// sparkLevels are the bars of a sparkline, lowest first.
var sparkLevels = []rune("▁▂▃▄▅▆▇█")

// Sparkline draws counts as block characters scaled to top, shared by the
// sparklines drawn side by side so that a constant 1 does not look like a
// saturated 200 (top ≤ 0: the largest of counts; a count above top is
// drawn as top). 0 is the lowest bar, any other count at least the second
// ("▁▇█▁"). Every view draws its sparklines with it.
func Sparkline(c []int, top int) string {
	if top <= 0 {
		for _, v := range c {
			top = max(top, v)
		}
	}
	var b strings.Builder
	for _, v := range c {
		i := 0
		if v > 0 && top > 0 {
			v = min(v, top)
			i = max(1, min(len(sparkLevels)-1, (v*(len(sparkLevels)-1)+top-1)/top))
		}
		b.WriteRune(sparkLevels[i])
	}
	return b.String()
}

func sparkline(c []int, top int) string { return Sparkline(c, top) }

// seriesTop is the largest count of ss, at least 1.
func seriesTop(ss []series) int {
	top := 1
	for _, s := range ss {
		for _, v := range s.counts {
			top = max(top, v)
		}
	}
	return top
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
