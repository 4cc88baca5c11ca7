package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/internal/words"
	"github.com/dumpdiff/dumpdiff/parse"
)

// htmlRenderer is one self-contained HTML page to attach to any ticket:
// no network (CSS, the SVG charts and a few lines of script are inline),
// readable at 1000 px, with a print stylesheet. It works without its
// script: the script only adds the thread filter and opens the collapsed
// blocks before printing.
type htmlRenderer struct{}

func (htmlRenderer) one(w io.Writer, r *analyze.Result, opt Options) error {
	opt = opt.withDefaults()
	v := newHTMLView(r, buildDocument(r, opt), "", 1)
	var b strings.Builder
	htmlHead(&b, v.plainTitle())
	fmt.Fprintf(&b, "<h1>%s</h1>\n", v.title())
	v.writeTo(&b)
	htmlFoot(&b)
	_, err := io.WriteString(w, b.String())
	return err
}

func (htmlRenderer) many(w io.Writer, rs []*analyze.Result, opt Options) error {
	var b strings.Builder
	head := fmt.Sprintf("dumpdiff: %d analyses", len(rs))
	if targeted(rs) {
		head = fmt.Sprintf("dumpdiff: %d captured targets compared", len(rs))
	}
	htmlHead(&b, head)
	fmt.Fprintf(&b, "<h1>%s</h1>\n", he(head))
	if targeted(rs) {
		labels, rows := instanceRows(rs)
		b.WriteString(`<div class="table-wrap"><table class="instances"><thead><tr><th>Instance</th>`)
		for _, l := range labels {
			fmt.Fprintf(&b, `<th class="n">%s</th>`, he(l))
		}
		b.WriteString("<th>Verdict</th></tr></thead><tbody>\n")
		for i, r := range rows {
			fmt.Fprintf(&b, `<tr><td><a href="#a%d"><code>%s</code></a></td>`, i+1, he(r.target))
			for _, t := range r.totals {
				fmt.Fprintf(&b, `<td class="n">%s</td>`, instanceCount(t))
			}
			fmt.Fprintf(&b, "<td>%s</td></tr>\n", he(instanceVerdict(r)))
		}
		b.WriteString("</tbody></table></div>\n")
	}
	for i, r := range rs {
		v := newHTMLView(r, buildDocument(r, opt.withDefaults()), fmt.Sprintf("a%d-", i+1), 2)
		fmt.Fprintf(&b, "<section class=\"analysis\" id=\"a%d\">\n<h2>%s: %s</h2>\n", i+1, he(title(r)), v.title())
		v.writeTo(&b)
		b.WriteString("</section>\n")
	}
	htmlFoot(&b)
	_, err := io.WriteString(w, b.String())
	return err
}

// htmlView writes a document as HTML.
type htmlView struct {
	*document
	b     *strings.Builder // where writeTo writes
	r     *analyze.Result  // for the SVG charts, which stack a pool's states
	sx    syntax
	id    string // prefix of element ids, unique per analysis in a document
	level int    // heading level of the analysis' title
}

func newHTMLView(r *analyze.Result, d *document, id string, level int) *htmlView {
	v := &htmlView{document: d, r: r, sx: htmlSyntax(), id: id, level: level}
	v.sx.ref = func(num int, escaped string) string {
		return fmt.Sprintf(`<a href="#%sfinding-%d">%s</a>`, id, num, escaped)
	}
	return v
}

// hn opens and closes a heading d levels under the analysis' title.
func (v *htmlView) hn(b *strings.Builder, d int, attrs, inner string) {
	n := min(6, v.level+d)
	fmt.Fprintf(b, "<h%d%s>%s</h%d>\n", n, attrs, inner, n)
}

// plainTitle is the page's <title>: the root finding without how it
// ended, short enough for a tab.
func (v *htmlView) plainTitle() string {
	f := v.lead.root
	if f == nil {
		return fmt.Sprintf("dumpdiff: no findings in %s", words.Plural(len(v.moments), "moment"))
	}
	return "dumpdiff: " + findingTitle(f, false).plain()
}

func (v *htmlView) title() string { return v.sx.render(v.document.title) }

func sevClass(s analyze.Severity) string { return "sev-" + s.String() }

// htmlSyntax is HTML's syntax for the inline pieces: culprits and entry
// points marked, severities in their colour.
func htmlSyntax() syntax {
	code := func(class string) func(string) string {
		return func(s string) string { return "<code" + class + ">" + heBreakable(s) + "</code>" }
	}
	return syntax{text: heBreakable, code: code(""), culprit: code(` class="culprit"`), entry: code(` class="entry"`),
		strong: func(s string) string { return "<b>" + s + "</b>" }, probe: ` <span class="tag probe">health check</span>`,
		tag: func(sev analyze.Severity, kind string) string { return htmlSeverity(sev) + " " + he(kind) }}
}

// heBreakable is he with a line-break opportunity (<wbr>) after the
// punctuation inside a long word ("com.example.shop.OrderRepository.
// recentOrderSummary(...)"), so that on a narrow
// screen a frame or pool name breaks where a reader splits it, not
// letter by letter (overflow-wrap:anywhere) nor off the page. Words of up
// to breakableMin bytes stay whole. The text a reader copies is the same:
// <wbr> adds none.
func heBreakable(s string) string {
	s = he(s)
	if len(s) <= breakableMin {
		return s
	}
	var b strings.Builder
	for i, w := range strings.Split(s, " ") {
		if i > 0 {
			b.WriteByte(' ')
		}
		if len(w) <= breakableMin {
			b.WriteString(w)
			continue
		}
		run := 0 // bytes since the last break
		for j := 0; j < len(w); j++ {
			c := w[j]
			b.WriteByte(c)
			run++
			if run > 3 && strings.IndexByte(".-/_$(*:,", c) >= 0 && j+1 < len(w) {
				b.WriteString("<wbr>")
				run = 0
			}
		}
	}
	return b.String()
}

// breakableMin is the longest text heBreakable leaves alone: a word that
// fits a phone's line (400 px at 15 px) needs no break.
const breakableMin = 24

// htmlSeverity is a severity in its colour.
func htmlSeverity(s analyze.Severity) string {
	return fmt.Sprintf(`<span class="sev %s">%s</span>`, sevClass(s), he(s.String()))
}

// writeTo writes the document into b.
func (v *htmlView) writeTo(b *strings.Builder) {
	v.b = b
	v.write(v)
}

func (v *htmlView) heading(d int, id string, text inline) {
	attrs := ""
	if id != "" {
		attrs = ` id="` + v.id + id + `"`
	}
	v.hn(v.b, d, attrs, v.sx.render(text))
}

func (v *htmlView) para(class, text string) {
	if class == "note" {
		class = "muted"
	}
	fmt.Fprintf(v.b, "<p class=\"%s\">%s</p>\n", class, he(text))
}

// verdict is where the report comes from, then the lead's facts.
func (v *htmlView) verdict(d *document) {
	b := v.b
	fmt.Fprintf(b, "<p class=\"meta\">%s</p>\n", v.sx.render(d.meta))
	f := d.lead.root
	if f == nil {
		fmt.Fprintf(b, "<section class=\"verdict\" id=\"%sverdict\"><p>%s</p></section>\n", v.id, he(d.noFinding))
		return
	}
	fmt.Fprintf(b, "<section class=\"verdict %s\" id=\"%sverdict\" aria-label=\"Verdict\">\n<dl>\n", sevClass(f.severity), v.id)
	for _, it := range d.verdict {
		val := v.sx.render(it.value)
		if it.of != nil {
			val = v.sx.tag(it.of.severity, it.of.kind) + ": " + val
		}
		fmt.Fprintf(b, "<dt>%s</dt><dd>%s</dd>\n", he(it.key), val)
	}
	b.WriteString("</dl>\n</section>\n")
}

func (v *htmlView) finding(f *findingBlock) {
	fmt.Fprintf(v.b, "<article class=\"finding %s\" id=\"%sfinding-%d\" data-kind=\"%s\">\n", sevClass(f.severity), v.id, f.num, he(f.kind))
	v.hn(v.b, 2, "", fmt.Sprintf("%d. %s", f.num, v.sx.render(f.title)))
}

func (v *htmlView) endFinding(*findingBlock) { v.b.WriteString("</article>\n") }

// chart is the SVG chart; the page draws each finding's, a pool's states
// stacked under it.
func (v *htmlView) chart(f *findingBlock) {
	v.b.WriteString("<figure class=\"chart\">")
	svgChart(v.b, v.r, v.rows, f.findingRow, v.id)
	v.b.WriteString("</figure>\n")
}

func (v *htmlView) facts(fs []fact) {
	if len(fs) == 0 {
		return
	}
	v.b.WriteString("<ul class=\"facts\">\n")
	for _, it := range fs {
		sep := ": "
		if it.phrase {
			sep = " "
		}
		fmt.Fprintf(v.b, "<li>%s%s%s</li>\n", he(it.key), sep, v.sx.render(it.value))
	}
	v.b.WriteString("</ul>\n")
}

func (v *htmlView) list(items []string) {
	v.b.WriteString("<ul class=\"warnings\">\n")
	for _, it := range items {
		fmt.Fprintf(v.b, "<li>%s</li>\n", he(it))
	}
	v.b.WriteString("</ul>\n")
}

func (v *htmlView) momentTable(*document) {
	b := v.b
	fmt.Fprintf(b, "<div class=\"table-wrap\"><table class=\"moments\"><thead><tr><th>Moment</th><th>File</th><th>Format</th><th>Time</th><th class=\"n\">%s</th><th class=\"n\">Skipped lines</th></tr></thead><tbody>\n",
		he(capitalize(v.unit())))
	for _, mo := range v.moments {
		label, tm := momentCells(mo)
		fmt.Fprintf(b, "<tr><td>%s</td><td><code>%s</code></td><td>%s</td><td>%s</td><td class=\"n\">%d</td><td class=\"n\">%d</td></tr>\n",
			he(label), he(mo.file), he(string(mo.format)), he(tm), mo.threads, mo.skipped)
	}
	b.WriteString("</tbody></table></div>\n")
}

func htmlCounts(b *strings.Builder, c []int) {
	for _, x := range c {
		fmt.Fprintf(b, `<td class="n">%d</td>`, x)
	}
	fmt.Fprintf(b, `<td class="n">%s</td>`, he(change(c)))
}

// poolTable is the pools × states × moments table: a row per pool, its
// states under it (flagged pools, or all with Verbose), a column per moment.
func (v *htmlView) poolTable(*document) {
	b := v.b
	fmt.Fprintf(b, `<div class="table-wrap"><table class="pools"><thead><tr><th>%s</th>`, he(headPoolCol))
	for _, mo := range v.moments {
		fmt.Fprintf(b, `<th class="n" title="%s">%s</th>`, he(mo.label), he(truncateMiddle(mo.label, 14)))
	}
	fmt.Fprintf(b, "<th class=\"n\">%s</th></tr></thead><tbody>\n", he(headChange))
	for _, l := range v.tableLines {
		var cls, name string
		switch l.kind {
		case linePool:
			cls, name = "pool", "<code>"+he(l.name)+"</code>"
			if l.flagged {
				cls += " flagged " + sevClass(l.severity)
				name += fmt.Sprintf(` <span class="sev %s">%s</span>`, sevClass(l.severity), he(l.severity.String()))
			}
		case lineState:
			cls, name = "state", fmt.Sprintf(`↳ %s <span class="muted">%s</span>`, he(l.name), he(string(l.category)))
			if l.flagged {
				cls += " flagged"
			}
		case lineMoreStates:
			cls, name = "state", "↳ "+he(l.name)
		case lineMorePools:
			cls, name = "pool", he(l.name)
		case lineInternal:
			cls, name = "pool internal", he(l.name)
		case lineTotal:
			cls, name = "total", he(l.name)
		}
		fmt.Fprintf(b, `<tr class="%s"><td>%s</td>`, cls, name)
		htmlCounts(b, l.counts)
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody></table></div>\n")
}

// maxHTMLGroups and maxHTMLThreads cap what a state shows: its largest
// identical-stack groups, and the threads listed for the filter.
const (
	maxHTMLGroups  = 10
	maxHTMLThreads = 300
)

// stackSection shows, for every state of the flagged pools, its
// identical-stack groups with their stacks (collapsed), and for the
// states the findings name, their threads: what the filter searches.
func (v *htmlView) stacks(*document) {
	b := v.b
	var shown []poolRow
	for _, p := range v.pools {
		if p.flagged && len(p.states) > 0 {
			shown = append(shown, p)
		}
	}
	if len(shown) == 0 {
		return
	}
	v.hn(b, 2, ` id="`+v.id+`stacks"`, "Threads and identical stacks")
	fmt.Fprintf(b, `<div class="search" id="%ssearch" hidden><label>Filter threads by name or frame <input type="search" class="q" placeholder="name or frame, e.g. exec-1 or Repository"></label> <span class="qcount" aria-live="polite"></span></div>`+"\n", v.id)
	for _, p := range shown {
		// The states the findings name first, then the others.
		for _, flagged := range []bool{true, false} {
			for _, s := range p.states {
				if s.flagged == flagged && len(s.groups) > 0 {
					v.stateBlock(b, p, s)
				}
			}
		}
	}
}

func (v *htmlView) stateBlock(b *strings.Builder, p poolRow, s stateRow) {
	label := v.label(s.groupsAt)
	one := v.unitOne()
	total := 0
	for _, sg := range s.groups {
		total += sg.Count
	}
	cls := "state-block"
	if s.flagged {
		cls += " flagged"
	}
	fmt.Fprintf(b, "<section class=\"%s\">\n", cls)
	v.hn(b, 3, "", fmt.Sprintf("<code>%s</code> › %s at %s: %s in %s", he(p.name), he(stateName(s.state, s.via)), he(label),
		he(words.Plural(total, one)), he(words.Plural(len(s.groups), "identical-stack group"))))
	if s.explain != "" {
		fmt.Fprintf(b, "<p class=\"muted\">%s</p>\n", he(s.explain))
	}
	for i, sg := range s.groups {
		if i == maxHTMLGroups {
			rest := 0
			for _, o := range s.groups[i:] {
				rest += o.Count
			}
			fmt.Fprintf(b, "<p class=\"muted\">%s</p>\n", he(fmt.Sprintf("%d more groups (%s): see the JSON report.", len(s.groups)-i, words.Plural(rest, one))))
			break
		}
		search := strings.ToLower(strings.Join(sg.Samples, " ") + " " + stackSearch(sg.Stack))
		fmt.Fprintf(b, `<details class="group" data-search="%s"><summary><b>%s</b> · %s`, he(search), he(words.Plural(sg.Count, one)), he(groupOrdinal(i, len(s.groups))))
		if l := sg.label(); len(l) > 0 {
			b.WriteString(" · " + v.sx.render(l))
		}
		b.WriteString("</summary>\n")
		if len(sg.Samples) > 0 {
			fmt.Fprintf(b, "<p class=\"samples\">%s: %s</p>\n", he(capitalize(v.unit())), v.sx.render(sampleList(sg.Samples, sg.Count, len(sg.Samples))))
		}
		v.stack(b, sg)
		b.WriteString("</details>\n")
	}
	if s.flagged && s.group != nil && s.groupsAt < len(s.group.Threads) {
		v.threadList(b, s)
	}
	b.WriteString("</section>\n")
}

// stackSearch is what the filter matches in a stack: its functions.
func stackSearch(t *parse.Thread) string {
	if t == nil {
		return ""
	}
	var fs []string
	for _, f := range t.Frames {
		fs = append(fs, f.Func)
	}
	return strings.Join(fs, " ")
}

// stack writes a group's stack as a list of frames, the culprit and the
// entry point highlighted, lock lines under their frame.
func (v *htmlView) stack(b *strings.Builder, sg StackGroup) {
	t := sg.Stack
	if t == nil {
		return
	}
	b.WriteString(`<ol class="stack">`)
	for i, f := range t.Frames {
		cls, tags := "", ""
		if i == sg.CulpritAt {
			cls += " culprit"
			tags += `<span class="tag culprit">culprit</span>`
		}
		if i == sg.EntryAt {
			cls += " entry"
			tags += `<span class="tag entry">entry point</span>`
			if sg.Probe {
				tags += `<span class="tag probe">health check</span>`
			}
		}
		if i == sg.DiffersAt {
			cls += " differs"
			tags += `<span class="tag differs">differs</span>`
		}
		if cls != "" {
			cls = ` class="` + strings.TrimSpace(cls) + `"`
		}
		fmt.Fprintf(b, "<li%s>%s%s", cls, he(frameLine(f, v.runtime)), tags)
		for _, l := range t.Locks() {
			if l.Frame == i {
				fmt.Fprintf(b, `<div class="lock">%s</div>`, he(LockText(l)))
			}
		}
		b.WriteString("</li>")
	}
	b.WriteString("</ol>\n")
	var extra []string
	for _, l := range stackLines(t, v.runtime) {
		if strings.HasPrefix(l, "created by ") || strings.HasPrefix(l, "...") || l == "(no stack printed)" {
			extra = append(extra, l)
		}
	}
	for _, l := range t.Locks() {
		if l.Frame < 0 {
			extra = append(extra, LockText(l))
		}
	}
	if len(extra) > 0 {
		b.WriteString(`<ul class="stack-extra">`)
		for _, e := range extra {
			fmt.Fprintf(b, "<li>%s</li>", he(e))
		}
		b.WriteString("</ul>\n")
	}
}

// threadList lists the threads of a flagged state at its moment (up to
// maxHTMLThreads), each with its top frame and culprit: what the filter
// searches by name.
func (v *htmlView) threadList(b *strings.Builder, s stateRow) {
	ts := s.group.Threads[s.groupsAt]
	if len(ts) == 0 {
		return
	}
	culprits := map[string]bool{}
	for _, sg := range s.groups {
		if sg.Culprit != "" {
			culprits[sg.Culprit] = true
		}
	}
	fmt.Fprintf(b, "<details class=\"threads\"><summary>%s</summary>\n<ul class=\"thread-list\">\n",
		he(fmt.Sprintf("The %s at %s, by name", words.Plural(len(ts), v.unitOne()), v.label(s.groupsAt))))
	for i, t := range ts {
		if i == maxHTMLThreads {
			fmt.Fprintf(b, "<li class=\"muted\">%s</li>\n", he(fmt.Sprintf("%d more not listed: see the JSON report or the TUI.", len(ts)-i)))
			break
		}
		name := threadTitle(t)
		top, cul := "", ""
		if len(t.Frames) > 0 {
			top = analyze.FrameString(t.Frames[0])
		}
		for _, f := range t.Frames {
			if fs := analyze.FrameString(f); culprits[fs] {
				cul = fs
				break
			}
		}
		search := strings.ToLower(name + " " + top + " " + cul)
		fmt.Fprintf(b, `<li data-search="%s"><code>%s</code>`, he(search), he(name))
		if cul != "" {
			fmt.Fprintf(b, ` <span class="muted">at</span> <code class="culprit">%s</code>`, he(ShortFrame(cul)))
		} else if top != "" {
			fmt.Fprintf(b, ` <span class="muted">at</span> <code>%s</code>`, he(ShortFrame(top)))
		}
		b.WriteString("</li>\n")
	}
	b.WriteString("</ul></details>\n")
}

// htmlHead opens the document: the inline stylesheet, screen and print.
func htmlHead(b *strings.Builder, title string) {
	fmt.Fprintf(b, `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="dumpdiff">
<title>%s</title>
<style>
%s</style>
</head>
<body>
<main>
`, he(title), htmlCSS)
}

// htmlFoot closes the document, with the script: the thread filter (a
// search box shown only when the script runs) and, before printing, every
// collapsed block opened.
func htmlFoot(b *strings.Builder) {
	fmt.Fprintf(b, "<footer class=\"muted small\">Written by dumpdiff. Self-contained: no network, no external file.</footer>\n</main>\n<script>\n%s</script>\n</body>\n</html>\n", htmlScript)
}

const htmlCSS = `:root{--crit:#c62828;--warn:#b26a00;--info:#1565c0;--fg:#1f2328;--muted:#59636e;--border:#d1d9e0;--soft:#f6f8fa}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;color:var(--fg);background:#fff;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:960px;margin:0 auto;padding:12px 20px 40px}
h1{font-size:1.45em;line-height:1.25;margin:.3em 0 .2em}
h2{font-size:1.25em;margin:1.2em 0 .4em;border-bottom:1px solid var(--border);padding-bottom:.2em}
h3{font-size:1.08em;margin:1em 0 .3em}
h4,h5{font-size:1em;margin:.9em 0 .3em}
p{margin:.4em 0;overflow-wrap:break-word}
code,.stack{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:.88em}
code{background:var(--soft);border-radius:3px;padding:0 .25em;overflow-wrap:break-word}
.muted{color:var(--muted)}
.small{font-size:.85em}
.meta{color:var(--muted);margin:0 0 .6em}
.sev{font-weight:700;text-transform:uppercase;font-size:.8em;letter-spacing:.03em}
.sev-critical .sev,.sev.sev-critical{color:var(--crit)}
.sev.sev-warning{color:var(--warn)}
.sev.sev-info{color:var(--info)}
.verdict{border-left:6px solid var(--muted);background:var(--soft);padding:8px 14px;margin:.4em 0 1em;border-radius:0 6px 6px 0}
.verdict.sev-critical{border-color:var(--crit);background:#fdf1f1}
.verdict.sev-warning{border-color:var(--warn);background:#fdf6ea}
.verdict.sev-info{border-color:var(--info)}
.verdict dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:3px 14px;margin:0}
.verdict dt{font-weight:600}
.verdict dd{margin:0;overflow-wrap:anywhere}
.finding{border:1px solid var(--border);border-radius:8px;padding:4px 16px 10px;margin:12px 0}
.finding.sev-critical{border-left:5px solid var(--crit)}
.finding.sev-warning{border-left:5px solid var(--warn)}
.finding.sev-info{border-left:5px solid var(--info)}
.counts{font-weight:600}
figure.chart{margin:8px 0}
svg.chart{display:block;width:100%;max-width:720px;height:auto}
svg .grid{stroke:#e5e7eb;stroke-width:1}
svg text{font:11px system-ui,sans-serif;fill:var(--muted)}
svg .value{font-weight:700;fill:#d62728;font-size:12px}
svg .total{fill:var(--fg)}
svg .limit{stroke:#555;stroke-width:1.5;stroke-dasharray:6 4}
svg .limit-label{fill:#333}
svg .total-line{fill:none;stroke:#ff7f0e;stroke-width:2}
.legend{list-style:none;padding:0;margin:4px 0;display:flex;flex-wrap:wrap;gap:2px 18px;font-size:.88em}
.legend li.is-finding{font-weight:600}
.swatch{display:inline-block;width:12px;height:12px;margin-right:6px;vertical-align:-1px;border-radius:2px}
.swatch.limit{height:0;border-top:2px dashed #555;vertical-align:3px}
.swatch.line{height:0;border-top:3px solid #ff7f0e;vertical-align:3px}
ul.facts{margin:.4em 0;padding-left:1.2em}
ul.facts li{overflow-wrap:anywhere}
table{border-collapse:collapse;margin:.4em 0 .8em;font-size:.9em;max-width:100%}
th,td{border:1px solid var(--border);padding:3px 8px;text-align:left;vertical-align:top;overflow-wrap:break-word}
.table-wrap{max-width:100%;overflow-x:auto}
th{background:var(--soft)}
.n{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
tr.state td:first-child{padding-left:20px}
tr.flagged td:first-child{font-weight:600}
tr.total td{font-weight:600;border-top:2px solid var(--border)}
tr.internal td{color:var(--muted)}
details{border:1px solid var(--border);border-radius:6px;padding:4px 10px;margin:6px 0;background:#fff}
details[open]{background:#fcfcfd}
summary{cursor:pointer;overflow-wrap:anywhere}
ol.stack{margin:6px 0;padding-left:3.4em}
ol.stack li{overflow-wrap:anywhere;padding:0 4px;border-radius:3px}
ol.stack li.culprit{background:#fde2e1}
ol.stack li.entry{background:#e1ecfb}
ol.stack li.differs{outline:1px dashed var(--warn)}
.lock{color:var(--muted);padding-left:1.5em}
ul.stack-extra{list-style:none;margin:0 0 6px;padding-left:3.4em;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:.85em;color:var(--muted)}
.tag{display:inline-block;font:600 .75em system-ui,sans-serif;color:#fff;border-radius:3px;padding:0 6px;margin-left:6px;vertical-align:1px}
.tag.culprit{background:var(--crit)}
.tag.entry{background:var(--info)}
.tag.probe{background:var(--warn)}
.tag.differs{background:var(--muted)}
code.culprit{background:#fde2e1}
code.entry{background:#e1ecfb}
ul.thread-list{columns:2 320px;margin:6px 0;padding-left:1.2em}
ul.thread-list li{break-inside:avoid;overflow-wrap:anywhere}
.search{position:sticky;top:0;background:#fff;padding:6px 0;z-index:1;border-bottom:1px solid var(--border)}
.search input{font:inherit;width:22em;max-width:100%;padding:3px 6px;margin-left:6px}
[hidden]{display:none!important}
footer{margin-top:2em}
@media (max-width:600px){
body{font-size:14px}
main{padding:8px 10px 30px}
.verdict{padding:6px 8px}
.verdict dl{grid-template-columns:minmax(0,1fr)}
.verdict dt{margin-top:4px}
.finding{padding:2px 8px 8px}
th,td{padding:2px 4px}
tr.state td:first-child{padding-left:10px}
ol.stack,ul.stack-extra{padding-left:2.2em}
svg text{font-size:20px}
svg .value{font-size:21px}
svg .value-label{display:none}
}
@media print{
body{font-size:10.5pt}
main{max-width:none;padding:0}
.search{display:none!important}
details{break-inside:avoid}
details::details-content{content-visibility:visible;display:block}
.finding,figure.chart,table{break-inside:avoid}
a{color:inherit;text-decoration:none}
.verdict,.finding,ol.stack li.culprit,ol.stack li.entry,.tag{-webkit-print-color-adjust:exact;print-color-adjust:exact}
}
`

// htmlScript filters the threads and stack groups of each analysis by the
// text typed in its search box, and opens every <details> before printing.
const htmlScript = `document.querySelectorAll('.search').forEach(function(box){
  box.hidden = false;
  var scope = box.parentNode, q = box.querySelector('.q'), out = box.querySelector('.qcount');
  q.addEventListener('input', function(){
    var v = q.value.trim().toLowerCase(), n = 0;
    scope.querySelectorAll('[data-search]').forEach(function(e){
      var hit = v === '' || e.getAttribute('data-search').indexOf(v) >= 0;
      e.hidden = !hit;
      if (hit && v !== '') { n++; var d = e.closest('details.threads'); if (d) d.open = true; }
    });
    out.textContent = v === '' ? '' : n + ' match' + (n === 1 ? '' : 'es');
  });
});
window.addEventListener('beforeprint', function(){ document.querySelectorAll('details').forEach(function(d){ d.open = true; }); });
`
