package report

import (
	"fmt"
	"html"
	"strings"

	"github.com/dumpdiff/dumpdiff/analyze"
)

// The HTML report's charts: inline SVG drawn here, no script and no
// library. A finding's chart stacks its pool's threads per moment by
// state (its own state at the bottom, in red), draws the process total or
// the pool's limit as lines, and writes the finding's own count under
// each bar: the numbers the finding's sentence gives.

// svgSlice is one stacked series: a state (or the fold of small ones).
type svgSlice struct {
	name    string
	color   string
	counts  []int
	finding bool // the finding's own state
}

// Colours: the finding's state red; other waits warm; idle blues;
// running greens; the rest greys. Each state of a chart has a colour of
// its own (a chart stacks at most maxSlices states, and each list holds
// as many), so that two idle states, as Go pools often have (a select and
// an idle connection), are told apart by colour as the legend tells them.
var (
	waitColors  = []string{"#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#bcbd22", "#f2a65a"}
	idleColors  = []string{"#8fb8de", "#1f5f99", "#17becf", "#4a90c2", "#b3d4ee", "#2b7bb9"}
	runColors   = []string{"#2ca02c", "#98df8a", "#1b6b1b", "#5cbf5c", "#c2e8b8", "#3f8f3f"}
	otherColors = []string{"#b0b0b0", "#7f7f7f", "#5a5a5a", "#c9c9c9", "#9a9a9a", "#6e6e6e"}
	foldColor   = "#dddddd" // the fold of the states a chart leaves out
)

// maxSlices is how many states a chart stacks; smaller ones are folded
// into "other states".
const maxSlices = 6

// chartSlices are the stacked series of f's chart: its pool's states, the
// finding's first. Without a pool the finding's counts alone.
func chartSlices(r *analyze.Result, f *findingRow, n int) []svgSlice {
	var p *analyze.Pool
	if f.pool != "" {
		p = poolNamed(r, f.pool)
	}
	if p == nil || len(p.States) == 0 {
		return []svgSlice{{name: f.series[0].name, color: seriesColors["finding"][0], counts: fitCounts(f.counts, n), finding: true}}
	}
	var first, waits, rest []svgSlice
	for _, g := range p.States {
		s := svgSlice{name: stateName(g.State, g.Via), counts: fitCounts(g.Counts, n)}
		switch {
		case g.State == f.state && (g.Via == f.via || f.via == "") && len(first) == 0:
			s.color, s.finding = seriesColors["finding"][0], true
			first = append(first, s)
		case g.Category == analyze.Waiting:
			waits = append(waits, s)
		default:
			rest = append(rest, s)
		}
	}
	for i := range waits {
		waits[i].color = waitColors[i%len(waitColors)]
	}
	used := map[analyze.Category]int{} // colours taken, per category
	for i := range rest {
		cat := analyze.Other
		if g := stateGroup(p, rest[i].name); g != nil {
			cat = g.Category
		}
		list := otherColors
		switch cat {
		case analyze.Idle:
			list = idleColors
		case analyze.Running:
			list = runColors
		}
		rest[i].color = list[used[cat]%len(list)]
		used[cat]++
	}
	all := append(append(first, waits...), rest...)
	if len(all) > maxSlices {
		fold := svgSlice{name: fmt.Sprintf("%d other states", len(all)-maxSlices+1), color: foldColor, counts: make([]int, n)}
		for _, s := range all[maxSlices-1:] {
			addCounts(fold.counts, s.counts)
		}
		all = append(all[:maxSlices-1:maxSlices-1], fold)
	}
	return all
}

func stateGroup(p *analyze.Pool, name string) *analyze.Group {
	for _, g := range p.States {
		if stateName(g.State, g.Via) == name {
			return g
		}
	}
	return nil
}

// svgChart writes f's chart: stacked bars, the total and limit lines, the
// axis, and under each bar the moment and the finding's count.
func svgChart(b *strings.Builder, r *analyze.Result, rs *rows, f *findingRow, idPrefix string) {
	n := len(rs.moments)
	slices := chartSlices(r, f, n)
	var lines []series // drawn as lines over the bars
	for _, s := range f.series {
		if s.role == "total" || s.role == "limit" {
			lines = append(lines, s)
		}
	}
	top := 1
	for i := 0; i < n; i++ {
		sum := 0
		for _, s := range slices {
			sum += s.counts[i]
		}
		top = max(top, sum, f.series[0].counts[i])
	}
	for _, s := range lines {
		for _, v := range s.counts {
			top = max(top, v)
		}
	}
	top = niceCeil(top + top/10)

	const (
		W, H          = 720, 270
		left, right   = 48, 12
		plotTop, plot = 14, 180 // plot area height
	)
	base := plotTop + plot
	slot := float64(W-left-right) / float64(n)
	barW := min(70, slot*0.6)
	y := func(v int) float64 { return float64(base) - float64(v)*float64(plot)/float64(top) }
	x := func(i int) float64 { return float64(left) + slot*float64(i) + slot/2 }

	fmt.Fprintf(b, `<svg class="chart" viewBox="0 0 %d %d" role="img" aria-labelledby="%schart-%d-title" data-finding="%d" data-counts="%s">`,
		W, H, idPrefix, f.num, f.num, attrCounts(f.series[0].counts))
	fmt.Fprintf(b, `<title id="%schart-%d-title">%s per moment: %s (%s)</title>`, idPrefix, f.num, he(capitalize(rs.unit())),
		he(f.series[0].name), he(arrowCounts(f.series[0].counts)))
	// Grid and y axis: 0, half, top.
	for _, v := range []int{0, top / 2, top} {
		fmt.Fprintf(b, `<line class="grid" x1="%d" x2="%d" y1="%.1f" y2="%.1f"/>`, left, W-right, y(v), y(v))
		fmt.Fprintf(b, `<text class="tick" x="%d" y="%.1f" text-anchor="end">%d</text>`, left-6, y(v)+4, v)
	}
	for i := 0; i < n; i++ {
		acc := 0
		fmt.Fprintf(b, `<g class="bar" data-moment="%s">`, he(rs.moments[i].label))
		for _, s := range slices {
			v := s.counts[i]
			if v == 0 {
				continue
			}
			cls := "seg"
			if s.finding {
				cls = "seg finding"
			}
			fmt.Fprintf(b, `<rect class="%s" x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s" data-state="%s" data-count="%d"><title>%s at %s: %d</title></rect>`,
				cls, x(i)-barW/2, y(acc+v), barW, y(acc)-y(acc+v), s.color, he(s.name), v, he(s.name), he(rs.moments[i].label), v)
			acc += v
		}
		if acc > 0 {
			fmt.Fprintf(b, `<text class="total" x="%.1f" y="%.1f" text-anchor="middle">%d</text>`, x(i), y(acc)-4, acc)
		}
		fmt.Fprintf(b, `<text class="xlabel" x="%.1f" y="%d" text-anchor="middle">%s</text>`, x(i), base+16, he(truncateMiddle(rs.moments[i].label, 14)))
		fmt.Fprintf(b, `<text class="value" x="%.1f" y="%d" text-anchor="middle" data-moment="%d">%d</text>`, x(i), base+34, i, f.series[0].counts[i])
		b.WriteString(`</g>`)
	}
	for _, s := range lines {
		var pts []string
		for i, v := range s.counts {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(i), y(v)))
		}
		if s.role == "limit" {
			fmt.Fprintf(b, `<line class="limit" x1="%d" x2="%d" y1="%.1f" y2="%.1f" data-limit="%d"/>`, left, W-right, y(s.counts[0]), y(s.counts[0]), s.counts[0])
			fmt.Fprintf(b, `<text class="limit-label" x="%d" y="%.1f">%s</text>`, left+4, y(s.counts[0])-4, he(s.name))
			continue
		}
		fmt.Fprintf(b, `<polyline class="total-line" points="%s"/>`, strings.Join(pts, " "))
	}
	fmt.Fprintf(b, `<text class="value-label" x="%d" y="%d" text-anchor="end">finding</text>`, left-6, base+34)
	b.WriteString(`</svg>`)

	// The legend, in HTML so that it wraps: each stacked state, then the lines.
	b.WriteString(`<ul class="legend">`)
	for _, s := range slices {
		cls := ""
		if s.finding {
			cls = ` class="is-finding"`
		}
		fmt.Fprintf(b, `<li%s><span class="swatch" style="background:%s"></span>%s <span class="muted">%s</span></li>`, cls, s.color, he(s.name), he(arrowCounts(s.counts)))
	}
	for _, s := range lines {
		cls := "swatch line"
		if s.role == "limit" {
			cls = "swatch limit"
		}
		fmt.Fprintf(b, `<li><span class="%s"></span>%s <span class="muted">%s</span></li>`, cls, he(s.name), he(arrowCounts(s.counts)))
	}
	b.WriteString(`</ul>`)
	fmt.Fprintf(b, `<p class="muted small">Bars: the pool's %s per moment, stacked by state. Under each bar: %s, the finding's count.</p>`,
		he(rs.unit()), he(f.series[0].name))
}

func attrCounts(c []int) string {
	var s []string
	for _, v := range c {
		s = append(s, fmt.Sprint(v))
	}
	return strings.Join(s, ",")
}

// he escapes s for HTML text and quoted attributes; control characters
// become spaces.
func he(s string) string { return html.EscapeString(oneLine(s)) }
