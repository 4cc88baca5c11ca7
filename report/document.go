package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/internal/words"
	"github.com/dumpdiff/dumpdiff/parse"
)

// The document: what a report says, built once per analysis from the rows
// and the verdict, in no format. It is a few sections of blocks (the
// lead's facts, a finding with its numbers, chart and facts, the moments
// and pools tables, the stack groups of a state, the warnings) whose
// words are all here; a format is a small writer per block with its own
// escaper (markdown.go, jira.go, html.go, slack.go), called by one walk
// (document.write); the TUI's finding pane reads the same words through
// Document.Finding (findingtext.go). As goldmark renders one AST through
// a renderer per output, or pprof's report hands the same items to each
// printer.

// spanKind is what a piece of inline text is, for the writer that escapes
// and marks it.
type spanKind uint8

const (
	spanText    spanKind = iota // plain text: a name from a dump or a fixed phrase, shown as typed
	spanCode                    // inline code: a pool, a frame, a thread name
	spanCulprit                 // a culprit frame as code (HTML marks it)
	spanEntry                   // an entry point as code (HTML marks it)
	spanStrong                  // text a list item leads with (HTML's <b>)
	spanProbe                   // the health-check mark after an entry point
	spanTag                     // a finding's severity and kind (text is the kind)
	spanRef                     // a reference to finding num, whose words are text (HTML links it)
	spanRaw                     // a writer's own markup, written as it is (Markdown's "#1" column)
)

// span is one piece of inline text: 24 bytes, as a document holds
// thousands.
type span struct {
	text string
	// n is the finding's number of a spanRef, the severity of a spanTag.
	n    int32
	kind spanKind
	// bold is emphasis the ticket formats write (a flagged row of a
	// table); syntax.bold writes it, where the format has it.
	bold bool
}

func (s span) sev() analyze.Severity { return analyze.Severity(s.n) }

// inline is a run of text in pieces; syntax.render writes it in a format.
type inline []span

func txt(s string) span     { return span{kind: spanText, text: s} }
func code(s string) span    { return span{kind: spanCode, text: s} }
func culprit(s string) span { return span{kind: spanCulprit, text: s} }
func entry(s string) span   { return span{kind: spanEntry, text: s} }
func strong(s string) span  { return span{kind: spanStrong, text: s} }
func probe() span           { return span{kind: spanProbe} }
func tag(sev analyze.Severity, kind string) span {
	return span{kind: spanTag, n: int32(sev), text: kind}
}
func ref(num int, words string) span { return span{kind: spanRef, n: int32(num), text: words} }

// emphasized is s in bold when on is set.
func emphasized(s span, on bool) span {
	s.bold = on
	return s
}

// plain is in without markup, as the text view and the tests read it.
func (in inline) plain() string { return plainSyntax().render(in) }

// fact is one labelled fact of a list: the lead's "Root cause
// (critical not-recovered): ...", a finding's "Seen: ...".
type fact struct {
	key string // "Root cause", "Seen", "Identical stacks at during-2"; plain text
	// of is the finding a root cause or consequence names, whose tag
	// (severity and kind) is written with the key; nil otherwise.
	of       *findingRow
	value    inline
	sentence bool // value is a sentence (Markdown ends it with a period)
	// phrase joins key and value without a colon: "Follows from finding 1.".
	phrase bool
}

// document is the report of one analysis, in no format.
type document struct {
	*rows
	lead lead
	// title is the document's first line: "dumpdiff: " and the most
	// severe root cause with how it ended, or that there is none.
	title inline
	// headline is the root cause in the title; empty with no finding.
	headline inline
	// meta says where the report comes from: "JVM · 4 moments (before
	// 2026-11-29 17:55:30 → after +56s) · 1 finding".
	meta inline
	// verdict is the lead's facts; empty with no finding, when noFinding
	// says so.
	verdict    []fact
	noFinding  string
	findings   []findingBlock
	tableLines []poolLine // the pools and states table
}

// findingBlock is one finding of the Findings section.
type findingBlock struct {
	*findingRow
	title inline // the heading after "N. ": severity, kind, pool, state
	// counts are its numbers in a line: "0 → 93 → 96 → 0 threads (before
	// → after) · recovered: yes: 0 at after, the last moment"; "" without
	// counts.
	counts string
	// sameChart is the finding whose chart draws the very same series;
	// 0 when this one draws its own (or has none).
	sameChart int
	facts     []fact
}

// poolLine is one row of the pools and states table.
type poolLine struct {
	kind lineKind
	name string // the pool, the state with its via, or the folded row's words
	// cell is the row's first cell as the ticket tables write it: "↳ "
	// before a state, a flagged row in bold, a flagged pool's severity.
	cell     inline
	flagged  bool
	severity analyze.Severity // a flagged pool's
	category analyze.Category // a state's
	counts   []int
}

type lineKind uint8

const (
	linePool       lineKind = iota
	lineState               // a state under its pool
	lineMoreStates          // the states of a pool left out, folded
	lineMorePools           // the pools left out, folded
	lineInternal            // the runtime-internal pools, folded
	lineTotal
)

// tableBlock is a table: its header cells, which columns
// hold numbers (aligned right), and its rows of inline cells.
type tableBlock struct {
	head  []inline
	right []bool
	rows  [][]inline
}

// heads are header cells of plain text.
func heads(hs ...string) []inline {
	out := make([]inline, len(hs))
	for i, h := range hs {
		out[i] = inline{txt(h)}
	}
	return out
}

// momentTable is the moments: label (and target), file, time (and delta),
// threads, and the lines skipped when a moment skipped some.
func (rs *rows) momentTable() tableBlock {
	skipped := rs.anySkipped()
	t := tableBlock{head: heads("Moment", "File", "Time", capitalize(rs.unit())), right: []bool{false, false, false, true}}
	if skipped {
		t.head, t.right = append(t.head, inline{txt("Skipped lines")}), append(t.right, true)
	}
	for _, mo := range rs.moments {
		label, tm := momentCells(mo)
		row := []inline{{txt(label)}, {code(mo.file)}, {txt(tm)}, {txt(fmt.Sprint(mo.threads))}}
		if skipped {
			row = append(row, inline{txt(fmt.Sprint(mo.skipped))})
		}
		t.rows = append(t.rows, row)
	}
	return t
}

// poolTable is the pools and states × moments, with the change from the
// first moment to the last.
func (d *document) poolTable() tableBlock {
	t := tableBlock{head: heads(headPoolCol), right: []bool{false}}
	for _, mo := range d.moments {
		t.head, t.right = append(t.head, inline{txt(mo.label)}), append(t.right, true)
	}
	t.head, t.right = append(t.head, inline{txt(headChange)}), append(t.right, true)
	// One backing array for the number cells of the table, one for its
	// rows: a cell each count, and no allocation each.
	n := len(d.moments) + 1
	spans := make([]span, 0, len(d.tableLines)*n)
	cells := make([]inline, 0, len(d.tableLines)*(n+1))
	t.rows = make([][]inline, 0, len(d.tableLines))
	for _, l := range d.tableLines {
		start := len(cells)
		cells = append(cells, l.cell)
		for _, v := range l.counts {
			spans = append(spans, txt(strconv.Itoa(v)))
			cells = append(cells, spans[len(spans)-1:len(spans):len(spans)])
		}
		spans = append(spans, txt(change(l.counts)))
		cells = append(cells, spans[len(spans)-1:len(spans):len(spans)])
		t.rows = append(t.rows, cells[start:len(cells):len(cells)])
	}
	return t
}

// stackBlock is a state whose identical-stack groups the ticket formats
// show with their stacks (rows.ticketStacks), up to maxStackGroups.
type stackBlock struct {
	pool   string
	groups []stackGroupBlock
	more   string // "2 more identical-stack groups of ... (5 threads)."; "" when all are shown
}

// stackGroupBlock is one group: a heading in plain words, its threads and
// its stack (lines).
type stackGroupBlock struct {
	heading string
	samples inline // "`exec-1`, `exec-2`, +91"; empty when the dump names none
	group   StackGroup
	rt      parse.Runtime
}

// lines are the group's stack, culprit and entry point marked; made by the
// writer that shows it (the Slack message and the HTML page do not).
func (g stackGroupBlock) lines() []string { return markedStack(g.group, g.rt) }

// buildDocument builds the document of r under opt (defaults applied).
func buildDocument(r *analyze.Result, opt Options) *document {
	return documentOf(buildRows(r, opt))
}

func documentOf(rs *rows) *document {
	d := &document{rows: rs, lead: leadOf(rs)}
	d.meta = rs.metaLine()
	if f := d.lead.root; f != nil {
		d.headline = findingTitle(f, true)
		d.title = append(inline{txt("dumpdiff: ")}, d.headline...)
		d.verdict = leadFacts(rs, d.lead)
		if hung := rs.hungSentence(); hung != "" {
			d.verdict = append([]fact{{key: "Hung", value: inline{txt(strings.TrimSuffix(hung, "."))}, sentence: true}}, d.verdict...)
		}
	} else {
		d.noFinding = rs.noFindingSentence()
		d.title = inline{txt(rs.noFindingsTitle())}
		if hung := rs.hungSentence(); hung != "" {
			d.noFinding = hung + " " + d.noFinding
			d.title = inline{txt("dumpdiff: go test timed out running " + rs.hungTitle() + "; no findings")}
		}
	}
	charted := map[string]int{} // chart signature → finding that drew it
	for i := range rs.findings {
		f := &rs.findings[i]
		fb := findingBlock{findingRow: f, title: findingTitle(f, false), facts: findingFacts(rs, f)}
		if len(f.counts) > 0 {
			fb.counts = fmt.Sprintf("%s %s (%s)", arrowCounts(f.counts), rs.unit(), rs.momentSpan())
			if f.recovery.known {
				fb.counts += " · recovered: " + f.recovery.String()
			}
		}
		if len(f.series) > 0 {
			sig := seriesSignature(f.series)
			if k, ok := charted[sig]; ok {
				fb.sameChart = k
			} else {
				charted[sig] = f.num
			}
		}
		d.findings = append(d.findings, fb)
	}
	d.tableLines = poolLines(rs)
	return d
}

// metaLine is where the report comes from, in a line.
func (rs *rows) metaLine() inline {
	in := inline{txt(runtimeName(rs.runtime) + " · " + words.Plural(len(rs.moments), "moment"))}
	if len(rs.moments) > 0 {
		first, last := rs.moments[0], rs.moments[len(rs.moments)-1]
		in = append(in, txt(" ("), txt(first.label))
		if first.time != "" {
			in = append(in, txt(" "+first.time))
		}
		if len(rs.moments) > 1 {
			in = append(in, txt(" → "), txt(last.label))
			if last.delta != "" {
				in = append(in, txt(" "+last.delta))
			}
		}
		in = append(in, txt(")"))
	}
	return append(in, txt(" · "+words.Plural(len(rs.findings), "finding")))
}

// noFindingsTitle is the title of an analysis without findings, in plain
// words: "dumpdiff: no findings in 4 moments of a JVM process".
func (rs *rows) noFindingsTitle() string {
	return fmt.Sprintf("dumpdiff: no findings in %s of a %s process", words.Plural(len(rs.moments), "moment"), runtimeName(rs.runtime))
}

// noFindingSentence is the verdict of an analysis without findings, in
// plain words, with the moments it spans when there are any.
func (rs *rows) noFindingSentence() string {
	if len(rs.moments) == 1 {
		return rs.oneDumpHint(true) + " " + captureHint(rs.runtime)
	}
	span := ""
	if len(rs.moments) > 0 {
		span = " (" + rs.momentSpan() + ")"
	}
	return fmt.Sprintf("No finding across %s%s: no pool rose into a wait and stayed, none is saturated, stuck, deadlocked or leaking.",
		words.Plural(len(rs.moments), "moment"), span)
}

// findingTitle names a finding for a title or a heading: "critical
// not-recovered in `pool` (socket-read via http-client)", and how it ended
// when recovery is set and its kind does not say it.
func findingTitle(f *findingRow, recovery bool) inline {
	kind, state := findingWhat(f)
	in := inline{tag(f.severity, kind)}
	if f.pool != "" {
		in = append(in, txt(" in "), code(f.pool))
	}
	if state != "" {
		in = append(in, txt(" "), txt("("), txt(state), txt(")"))
	}
	if recovery && f.recovery.known && kind != analyze.KindRecovered && kind != analyze.KindNotRecovered {
		in = append(in, txt(", "), txt(f.recovery.short()))
	}
	return in
}

// leadFacts are the verdict's lines for a lead with a root: the root
// cause, up to two consequences, whether it recovered, its numbers,
// culprit and entry points, and up to three other root causes, each
// named by its number.
func leadFacts(rs *rows, l lead) []fact {
	f := l.root
	out := []fact{{key: "Root cause", of: f, value: inline{txt(f.head)}, sentence: true}}
	for i, c := range l.consequences {
		if i == 2 {
			out = append(out, fact{key: "Also caused", value: inline{txt(words.Plural(len(l.consequences)-2, "more finding"))}, sentence: true})
			break
		}
		out = append(out, fact{key: "Consequence", of: c, value: inline{txt(c.head)}, sentence: true})
	}
	if since := rs.sinceWords(f); since != "" {
		out = append(out, fact{key: "Since", value: inline{txt(strings.TrimPrefix(since, "since "))}, sentence: true})
	}
	out = append(out, fact{key: "Recovered", value: inline{txt(f.recovery.String())}, sentence: true})
	if len(f.labels) > 0 {
		out = append(out, fact{key: "Labels", value: inline{code(labelsText(f.labels))}})
	}
	if n := numbers(rs, f); len(n) > 0 {
		out = append(out, fact{key: "Numbers", value: n, sentence: true})
	}
	if f.culprit != "" {
		out = append(out, fact{key: "Culprit", value: inline{culprit(f.culprit)}})
	}
	if e := entryList(f.entries); len(e) > 0 {
		out = append(out, fact{key: "Entry points", value: e})
	}
	if f.remedy != "" {
		out = append(out, fact{key: "What to do", value: inline{txt(f.remedy)}, sentence: true})
	}
	if len(l.others) > 0 {
		var os inline
		for i, o := range l.others {
			if i > 0 {
				os = append(os, txt("; "))
			}
			if i == 3 {
				os = append(os, txt(fmt.Sprintf("%d more", len(l.others)-3)))
				break
			}
			os = append(os, ref(o.num, fmt.Sprintf("%d.", o.num)), txt(" "))
			os = append(os, findingTitle(o, true)...)
		}
		out = append(out, fact{key: "Also", value: os})
	}
	return out
}

// findingFacts are what the Findings section lists under a finding: its
// top frame and culprit, its identical stacks, what each moment showed,
// and the findings it follows from and leads to.
func findingFacts(rs *rows, f *findingRow) []fact {
	var out []fact
	if f.frame != "" {
		out = append(out, fact{key: "Top frame", value: inline{code(f.frame)}})
	}
	if f.culprit != "" {
		out = append(out, fact{key: "Culprit", value: inline{culprit(f.culprit)}})
	}
	if len(f.groups) > 0 {
		out = append(out, fact{key: "Identical stacks at " + rs.label(f.at), value: groupList(f.groups)})
	}
	if ev := evidence(f.evidence); len(ev) > 0 {
		out = append(out, fact{key: "Seen", value: ev})
	}
	// What to do about it, where the verdict above does not say it
	// already (it says the root cause's).
	if l := leadOf(rs); f.remedy != "" && (l.root == nil || l.root.remedy != f.remedy) {
		out = append(out, fact{key: "What to do", value: inline{txt(f.remedy)}, sentence: true})
	}
	if f.causedByNum > 0 {
		out = append(out, fact{key: "Follows from", phrase: true,
			value: inline{ref(f.causedByNum, fmt.Sprintf("finding %d", f.causedByNum)), txt(".")}})
	}
	var leads inline
	for _, c := range rs.findings {
		if c.causedBy != "" && c.causedBy == f.id {
			if len(leads) > 0 {
				leads = append(leads, txt(", "))
			}
			leads = append(leads, ref(c.num, fmt.Sprint(c.num)))
		}
	}
	if len(leads) > 0 {
		out = append(out, fact{key: "Leads to", phrase: true, value: append(append(inline{txt("finding ")}, leads...), txt("."))})
	}
	return out
}

// poolLines are the rows of the pools and states table: each pool shown,
// the states under it, the folded rows, the total.
func poolLines(rs *rows) []poolLine {
	out := make([]poolLine, 0, 3+2*len(rs.pools))
	for _, p := range rs.pools {
		l := poolLine{kind: linePool, name: p.name, flagged: p.flagged, severity: p.severity, counts: p.counts}
		l.cell = inline{emphasized(code(p.name), p.flagged)}
		if p.flagged {
			l.cell = append(l.cell, txt(" ("+p.severity.String()+")"))
		}
		out = append(out, l)
		for _, s := range p.states {
			name := stateName(s.state, s.via)
			out = append(out, poolLine{kind: lineState, name: name, flagged: s.flagged, category: s.category, counts: s.counts,
				cell: inline{txt("↳ "), emphasized(txt(name), s.flagged)}})
		}
		if s := p.moreStates; s != nil {
			name := "… " + words.Plural(s.folded, "more state")
			out = append(out, poolLine{kind: lineMoreStates, name: name, counts: s.counts, cell: inline{txt("↳ "), txt(name)}})
		}
	}
	folded := func(kind lineKind, name string, counts []int) {
		out = append(out, poolLine{kind: kind, name: name, counts: counts, cell: inline{txt(name)}})
	}
	if p := rs.more; p != nil {
		folded(lineMorePools, "… "+words.Plural(p.folded, "more pool"), p.counts)
	}
	if p := rs.internal; p != nil {
		folded(lineInternal, fmt.Sprintf("%s (%s)", p.name, words.Plural(p.folded, "pool")), p.counts)
	}
	return append(out, poolLine{kind: lineTotal, name: "total", counts: rs.totals, cell: inline{emphasized(txt("total"), true)}})
}

// stackBlocks are the ticket formats' stacks: for the states the findings
// name (the largest state of a flagged pool when they name none), each
// identical-stack group's stack, up to maxStackGroups.
func stackBlocks(rs *rows) []stackBlock {
	var out []stackBlock
	for _, st := range rs.ticketStacks() {
		s := st.state
		b := stackBlock{pool: st.pool.name, more: rs.moreGroups(s, maxStackGroups)}
		for i, sg := range s.groups[:min(maxStackGroups, len(s.groups))] {
			g := stackGroupBlock{heading: rs.groupHeading(s, i), group: sg, rt: rs.runtime}
			if len(sg.Samples) > 0 {
				g.samples = sampleList(sg.Samples, sg.Count, len(sg.Samples))
			}
			b.groups = append(b.groups, g)
		}
		out = append(out, b)
	}
	return out
}

// momentCells are a moment's label (with its target) and time (with its
// delta) as the moments table writes them.
func momentCells(mo momentRow) (label, tm string) {
	label = mo.label
	if mo.target != "" {
		label += " (" + mo.target + ")"
	}
	tm = mo.time
	if tm == "" {
		tm = "not in dump"
	}
	if mo.delta != "" {
		tm += " (" + mo.delta + ")"
	}
	return label, tm
}

// anySkipped reports whether a moment has lines its parser skipped: the
// moments table then says how many.
func (rs *rows) anySkipped() bool {
	for _, mo := range rs.moments {
		if mo.skipped > 0 {
			return true
		}
	}
	return false
}

// The headings of the sections, in every format.
const (
	headFindings = "Findings"
	headEvidence = "Evidence"
	headMoments  = "Moments"
	headPools    = "Pools and states"
	headStacks   = "Stacks"
	headWarnings = "Warnings"
	headNotable  = "Notable threads"
	headPoolCol  = "Pool / state"
	headChange   = "Change"
	sameChartFmt = "Chart: the same as finding %d's."
)

// numbers are a finding's counts with their moments and unit, the other
// series of its chart (the pool's idle threads...) and the pool's limit:
// "db-pool-wait: before 0 → during-1 93 threads; idle 10 → 11; limit 200".
func numbers(rs *rows, f *findingRow) inline {
	if len(f.series) == 0 {
		if len(f.counts) == 0 {
			return nil
		}
		return inline{txt(rs.labelledCounts(f.counts)), txt(" "), txt(rs.unit())}
	}
	var out inline
	for i, s := range f.series {
		if i > 0 {
			out = append(out, txt("; "))
		}
		switch {
		case s.role == "limit":
			out = append(out, txt(s.name))
		case i == 0:
			out = append(out, strong(s.name), txt(": "), txt(rs.labelledCounts(s.counts)), txt(" "), txt(rs.unit()))
		default:
			out = append(out, txt(s.name), txt(" "), txt(arrowCounts(s.counts)))
		}
	}
	return out
}

// entryList is up to three entry points with their counts, a health check
// marked: "`OrderServlet.doGet(OrderServlet.java:22)` 93 · ... · 2 more".
func entryList(es []analyze.FrameCount) inline {
	var out inline
	for i, e := range es {
		if i > 0 {
			out = append(out, txt(" · "))
		}
		if i == 3 {
			out = append(out, txt(fmt.Sprintf("%d more", len(es)-3)))
			break
		}
		out = append(out, entry(e.Func), txt(fmt.Sprintf(" %d", e.Count)))
		if e.Probe {
			out = append(out, probe())
		}
	}
	return out
}

// sampleList is up to k names as code, with how many more of count there
// are: "`exec-1`, `exec-2`, `exec-3`, +197".
func sampleList(names []string, count, k int) inline {
	shown := names[:min(k, len(names))]
	out := make(inline, 0, 2*len(shown)+1)
	for i, n := range shown {
		if i > 0 {
			out = append(out, txt(", "))
		}
		out = append(out, code(n))
	}
	// A sample of a format that aggregates goroutines stands for several
	// (a debug=1 record of 5067): they are not "more".
	stands := 0
	for _, n := range shown {
		stands += analyze.SampleWeight(n)
	}
	if more := count - stands; more > 0 {
		out = append(out, txt(fmt.Sprintf(", +%d", more)))
	}
	return out
}

// evidence is what each moment shows of a finding, with up to three sample
// names: "during-1 93 (`exec-2`, `exec-3`, `exec-4`, +90) · during-2 96
// (same samples)".
func evidence(evs []evidenceRow) inline {
	out := make(inline, 0, 14*len(evs))
	var prev []string
	for i, e := range evs {
		if i > 0 {
			out = append(out, txt(" · "))
		}
		out = append(out, txt(e.moment), txt(fmt.Sprintf(" %d", e.count)))
		switch {
		case len(e.threads) == 0:
		case slices.Equal(e.threads, prev):
			// Listing the same sample names again says nothing new.
			out = append(out, txt(" "), txt("("), txt("same samples"), txt(")"))
		default:
			out = append(out, txt(" "), txt("("))
			out = append(out, sampleList(e.threads, e.count, 3)...)
			out = append(out, txt(")"))
		}
		prev = e.threads
	}
	return out
}

// groupList lists identical-stack groups with their counts, largest first,
// up to three: "2 groups: 93 at `Repo.query:23` from
// `OrderServlet.doGet:22`; 3 at `HealthServlet.doGet:26` (health check)".
func groupList(sgs []StackGroup) inline {
	if len(sgs) == 1 {
		return inline{txt(fmt.Sprintf("one stack, all %d identical", sgs[0].Count))}
	}
	out := inline{txt(fmt.Sprintf("%d groups: ", len(sgs)))}
	for i, sg := range sgs {
		if i > 0 {
			out = append(out, txt("; "))
		}
		if i == 3 {
			rest := 0
			for _, o := range sgs[i:] {
				rest += o.Count
			}
			out = append(out, txt(fmt.Sprintf("%d more groups (%d)", len(sgs)-i, rest)))
			break
		}
		out = append(out, strong(fmt.Sprint(sg.Count)))
		if l := sg.label(); len(l) > 0 {
			out = append(out, txt(" "))
			out = append(out, l...)
		}
	}
	return out
}

// blockWriter is a format: one method per block of the document, each
// writing only that block's syntax. document.write walks the sections and
// calls them, so that every format says the same things in the same order.
type blockWriter interface {
	// heading opens a section depth levels under the document's title;
	// id names it for a link (HTML), text is plain.
	heading(depth int, id string, text inline)
	// para is a paragraph of plain text; class says what it is
	// ("counts", "summary", "note") for a format that marks it.
	para(class, text string)
	// verdict is the lead: its facts, or the sentence without findings.
	verdict(d *document)
	// finding opens a finding with its heading; endFinding closes it.
	finding(f *findingBlock)
	endFinding(f *findingBlock)
	// chart draws a finding's series, or says whose chart it is the same as.
	chart(f *findingBlock)
	facts(fs []fact)
	// table writes a table; the HTML page writes its own tables.
	momentTable(d *document)
	poolTable(d *document)
	// stacks writes the stacks: the ticket formats through
	// writeTicketStacks, the HTML page its own way (every state of the
	// flagged pools, with its threads).
	stacks(d *document)
	list(items []string)
}

// write walks the document's sections in their order.
func (d *document) write(w blockWriter) {
	// What makes the verdict unsound comes before it, where it is read.
	for _, c := range d.cautions {
		w.para("note", "Caution: "+c)
	}
	w.verdict(d)
	if len(d.notable) > 0 {
		w.heading(1, "notable", inline{txt(headNotable)})
		w.list(d.notable)
	}
	if len(d.findings) > 0 {
		w.heading(1, "findings", inline{txt(headFindings)})
		for i := range d.findings {
			f := &d.findings[i]
			w.finding(f)
			if f.counts != "" {
				w.para("counts", f.counts)
			}
			if f.summary != "" {
				w.para("summary", sentence(f.summary))
			}
			if len(f.series) > 0 {
				w.chart(f)
			}
			w.facts(f.facts)
			w.endFinding(f)
		}
	}
	w.heading(1, "evidence", inline{txt(headEvidence)})
	if len(d.moments) > 0 {
		w.heading(2, "", inline{txt(headMoments)})
		w.momentTable(d)
		w.heading(2, "", inline{txt(headPools)})
		w.poolTable(d)
	}
	w.stacks(d)
	if len(d.warnings) > 0 {
		w.heading(1, "warnings", inline{txt(headWarnings)})
		w.list(d.warnings)
	}
}

// writeTicketStacks writes the ticket stacks under their heading, each
// group through group, then what is left out. They are made here, once,
// by the formats that show them (not the Slack message nor the HTML page,
// which has its own).
func (d *document) writeTicketStacks(w blockWriter, group func(pool string, g stackGroupBlock)) {
	for k, st := range stackBlocks(d.rows) {
		if k == 0 {
			w.heading(2, "stacks", inline{txt(headStacks)})
		}
		for _, g := range st.groups {
			group(st.pool, g)
		}
		if st.more != "" {
			w.para("note", st.more)
		}
	}
}

// ticketWriter is a ticket format that writes one analysis, or several,
// as one document of headings and blocks (Markdown, Jira).
type ticketWriter interface {
	blockWriter
	table(t tableBlock)
}

// writeOne writes r's document under its title.
func writeOne(r *analyze.Result, opt Options, newWriter func(d *document, level int) ticketWriter) {
	d := buildDocument(r, opt)
	w := newWriter(d, 1)
	w.heading(0, "", d.title)
	d.write(w)
}

// writeMany writes several analyses as one document: a title, the
// instances compared when they are captured targets, then each analysis
// under its heading, its sections one level down.
func writeMany(rs []*analyze.Result, opt Options, newWriter func(d *document, level int) ticketWriter) {
	top := newWriter(&document{rows: &rows{}}, 1)
	if targeted(rs) {
		top.heading(0, "", inline{txt(fmt.Sprintf("dumpdiff: %d captured targets compared", len(rs)))})
		top.table(instanceTable(rs))
	} else {
		top.heading(0, "", inline{txt(fmt.Sprintf("dumpdiff: %d analyses", len(rs)))})
	}
	for _, r := range rs {
		d := buildDocument(r, opt)
		w := newWriter(d, 2)
		w.heading(0, "", inline{txt(title(r))})
		d.write(w)
	}
}

// sentence is s trimmed, ending with one period.
func sentence(s string) string {
	return strings.TrimSuffix(strings.TrimSpace(s), ".") + "."
}
