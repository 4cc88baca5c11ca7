package report

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/internal/words"
)

// textRenderer is the terminal report.
type textRenderer struct{}

func (textRenderer) one(w io.Writer, r *analyze.Result, opt Options) error { return Text(w, r, opt) }

// many writes the instances compared (captured targets), then each
// analysis under a "=== title ===" line.
func (textRenderer) many(w io.Writer, rs []*analyze.Result, opt Options) error {
	if targeted(rs) {
		if err := instancesText(w, rs, opt); err != nil {
			return err
		}
	}
	for i, r := range rs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w, truncate("=== "+title(r)+" ===", opt.Width))
		if err := Text(w, r, opt); err != nil {
			return err
		}
	}
	return nil
}

// Text writes the terminal report of r: a header with the moments, the
// verdict (findings, most severe first, with numbers, frames and
// evidence), the pools × moments table with the states of flagged pools,
// then the warnings. No line is wider than opt.Width cells; colour only
// when opt.Color.
func Text(w io.Writer, r *analyze.Result, opt Options) error {
	opt = opt.withDefaults()
	rs := buildRows(r, opt)
	t := &textView{rows: rs, width: opt.Width, st: newStyles(opt.Color)}
	t.titleLine()
	t.cautionSection()
	t.leadSection()
	t.headerSection()
	t.verdictSection()
	t.notableSection()
	t.poolSection()
	t.warningSection()
	// Longer than a screen: the last line says the lead again, so that
	// what stays on the terminal after the output scrolled is the answer.
	if len(t.lines) > screenLines && t.tail != "" {
		t.add("", t.tail)
	}
	bw := bufio.NewWriter(w)
	for _, l := range t.lines {
		// Every piece was fitted already; this cut is a safety net that
		// keeps the width promise whatever a piece held.
		if cells(l) > t.width {
			l = ansi.Truncate(l, t.width, "…")
		}
		bw.WriteString(strings.TrimRight(l, " "))
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// textView accumulates the lines of the text view.
type textView struct {
	*rows
	width int
	st    styles
	lines []string
	// tail is the line a report longer than a screen ends with: the first
	// finding's lead in one line (tailLine); "" with no finding.
	tail string
}

// screenLines is the terminal height the lead is made for (80×24): its
// lines come first, and a report longer than it ends with the lead again.
const screenLines = 24

func (t *textView) add(l ...string) { t.lines = append(t.lines, l...) }

// indent is the left margin of everything under a section title.
const indent = "  "

// cautionSection says, under the title, what makes the verdict below
// unsound (moments of different processes): a warning at the end of a
// long report is read after the verdict was believed.
func (t *textView) cautionSection() {
	if len(t.cautions) == 0 {
		return
	}
	t.add(t.st.Head("CAUTION"))
	for _, c := range t.cautions {
		t.add(wrap(c, t.width, indent, indent)...)
	}
}

// titleLine is the report's first line.
func (t *textView) titleLine() {
	rt := "unknown runtime"
	switch t.runtime {
	case "jvm":
		rt = "JVM"
	case "go":
		rt = "Go"
	}
	title := fmt.Sprintf("dumpdiff · %s · %s · %s", rt, words.Plural(len(t.moments), "moment"), words.Plural(len(t.findings), "finding"))
	t.add(t.st.Head(truncate(title, t.width)))
}

// headerSection lists the moments: label, file, time, threads.
func (t *textView) headerSection() {
	rt := "unknown runtime"
	switch t.runtime {
	case "jvm":
		rt = "JVM"
	case "go":
		rt = "Go"
	}
	if len(t.findings) > 0 {
		t.add("") // under the lead
	}
	t.add(t.st.Head("MOMENTS") + "  " + rt)
	if len(t.moments) == 0 {
		t.add(indent + "no moments to compare")
		return
	}
	// One file for every moment (several dumps in one log): name it once
	// and give each moment the line its dump starts at.
	file := func(m momentRow) string { return m.file }
	if one := oneFile(t.moments); one != "" {
		t.add(indent + truncate("file: "+one, t.width-len(indent)))
		file = func(m momentRow) string {
			if m.line <= 0 {
				return "" // a binary or JSON record (JFR event, Actuator JSON): no line to give
			}
			return fmt.Sprintf("line %d", m.line)
		}
	}
	if filesAreLabels(t.moments) {
		// before.txt, during-1.txt...: the file says nothing the label does not.
		file = func(momentRow) string { return "" }
	}
	labelW, fileW, timeW, thrW := 0, 0, 0, 0
	for _, m := range t.moments {
		labelW = max(labelW, cells(momentName(m)))
		fileW = max(fileW, cells(file(m)))
		timeW = max(timeW, cells(momentTime(m)))
		thrW = max(thrW, len(fmt.Sprint(m.threads)))
	}
	// Budget: the time and thread count are kept whole; the label and
	// file share what is left, the file giving way first.
	unit := " " + t.unit()
	rest := t.width - len(indent) - timeW - 2 - thrW - len(unit) - 4
	labelW = min(labelW, rest-min(fileW, rest/2))
	fileW = min(fileW, rest-labelW)
	for _, m := range t.moments {
		// Labels and files differ at their ends ("…#1", "…#2"): cut the middle.
		l := indent + padRight(truncateMiddle(momentName(m), labelW), labelW) + "  "
		if fileW >= 8 || (fileW > 0 && fileW == cells(file(m))) {
			l += padRight(truncateMiddle(file(m), fileW), fileW) + "  "
		}
		l += padRight(momentTime(m), timeW) + "  " + padLeft(fmt.Sprint(m.threads), thrW) + unit
		if m.skipped > 0 {
			l += "  " + t.st.Severity(analyze.Warning, truncate(words.Plural(m.skipped, "line")+" skipped", t.width-cells(l)-2))
		}
		t.add(l)
		if len(m.tests) > 0 {
			// The hung tests on a line of their own: names are long.
			t.add(wrap("go test timed out running "+hungTests(m), t.width, indent+"  ", indent+"    ")...)
		}
	}
}

// filesAreLabels reports whether every moment's file is its label with an
// extension ("before.txt" for "before").
func filesAreLabels(ms []momentRow) bool {
	for _, m := range ms {
		if m.base == "" || strings.TrimSuffix(m.base, filepath.Ext(m.base)) != m.label {
			return false
		}
	}
	return true
}

// oneFile returns the file name shared by every moment when there are
// several moments and they all come from one file; "" otherwise.
func oneFile(ms []momentRow) string {
	if len(ms) < 2 {
		return ""
	}
	for _, m := range ms[1:] {
		if m.path != ms[0].path || m.path == "" {
			return ""
		}
	}
	return ms[0].base
}

func momentName(m momentRow) string {
	if m.target != "" {
		return m.label + " [" + m.target + "]"
	}
	return m.label
}

func momentTime(m momentRow) string {
	switch {
	case m.time == "":
		return "no time in dump"
	case m.delta != "":
		return m.time + " " + m.delta
	}
	return m.time
}

// kindWords are the finding kinds in plain words, for the lead.
var kindWords = map[string]string{
	analyze.KindNotRecovered:              "never recovered",
	analyze.KindExplosion:                 "thread explosion",
	analyze.KindSaturated:                 "pool saturated",
	analyze.KindStuck:                     "stuck",
	analyze.KindLeaked:                    "leak",
	analyze.KindGrowing:                   "growing",
	analyze.KindDeadlock:                  "deadlock",
	analyze.KindContention:                "lock contention",
	analyze.KindSpinning:                  "spinning",
	analyze.KindDBPoolExhausted:           "connection pool exhausted",
	analyze.KindSemaphoreExhausted:        "semaphore exhausted",
	analyze.KindEventLoopBlocked:          "event loop blocked",
	analyze.KindCommonPoolStarved:         "common pool starved",
	analyze.KindVThreadSchedulerSaturated: "virtual-thread scheduler saturated",
	analyze.KindKeptAlive:                 "kept alive",
	analyze.KindRecovered:                 "recovered",
}

// kindInWords is a finding's kind in words; the id for a kind the table
// does not name (a pool exhaustion of another library).
func kindInWords(kind string) string {
	if w, ok := kindWords[kind]; ok {
		return w
	}
	return strings.ReplaceAll(kind, "-", " ")
}

// leadSection is the answer first: a block per finding (severity, what
// in words, where, the endpoint its goroutines' labels name, since when,
// the numbers, the culprit once), then what to do, before anything else;
// the whole within the first screen (leadBudget), what does not fit said
// in one line that points below.
func (t *textView) leadSection() {
	if len(t.findings) == 0 {
		return
	}
	const sevW = 8
	pre := indent + strings.Repeat(" ", sevW) + "  "
	var blocks [][]string
	for i := range t.findings {
		blocks = append(blocks, t.leadBlock(&t.findings[i], pre))
	}
	var todo []string
	for _, f := range t.findings {
		if f.remedy != "" && !slices.Contains(todo, f.remedy) {
			todo = append(todo, f.remedy)
		}
	}
	var todoBlocks [][]string
	for _, r := range todo {
		todoBlocks = append(todoBlocks, wrap("→ "+r, t.width, indent, indent+"  "))
	}
	shown, shownTodo := leadFit(blocks, todoBlocks, leadBudget)
	t.add(t.st.Head("VERDICT"))
	// go test's own verdict first: which tests hung (the document views'
	// "Hung" fact).
	if hung := t.hungSentence(); hung != "" {
		t.add(wrap(hung, t.width, indent, indent)...)
	}
	t.tail = t.tailLine(&t.findings[0], sevW)
	for i, b := range blocks[:shown] {
		f := t.findings[i]
		sev := strings.ToUpper(f.severity.String())
		b = slices.Clone(b)
		b[0] = indent + t.st.Severity(f.severity, padRight(sev, sevW)) + "  " + b[0][len(pre):]
		t.add(b...)
	}
	if shownTodo > 0 {
		t.add(t.st.Head("WHAT TO DO"))
		for _, b := range todoBlocks[:shownTodo] {
			t.add(b...)
		}
	}
	var more []string
	if n := len(blocks) - shown; n > 0 {
		more = append(more, words.Plural(n, "more finding"))
	}
	if n := len(todoBlocks) - shownTodo; n > 0 {
		more = append(more, words.Plural(n, "more thing")+" to do")
	}
	if len(more) > 0 {
		t.add(t.st.Dim(truncate(indent+"+ "+strings.Join(more, " and ")+" under FINDINGS", t.width)))
	}
}

// tailLine is f's lead in one line of the width: severity, what, where,
// since when (its clock time alone) and the culprit, each part whole,
// those that do not fit left out from the end.
func (t *textView) tailLine(f *findingRow, sevW int) string {
	sev := strings.ToUpper(f.severity.String())
	parts := []string{kindInWords(f.kind)}
	if f.holder != "" {
		parts = append(parts, f.holder) // as the lead names it, the holder first
	}
	if f.pool != "" {
		parts = append(parts, f.pool)
	}
	clock, where, already := t.sinceParts(f)
	when := clock
	if when == "" {
		when, _, _ = strings.Cut(where, ",")
	}
	switch {
	case when == "":
	case already && len(t.moments) > 1:
		parts = append(parts, "already at "+when)
	case already:
		parts = append(parts, "at "+when)
	default:
		parts = append(parts, "since "+when)
	}
	if f.culprit != "" {
		parts = append(parts, "culprit "+ShortFrame(f.culprit))
	}
	line := indent + padRight(sev, sevW) + "  " + truncate(parts[0], t.width-len(indent)-sevW-2)
	for _, p := range parts[1:] {
		if cells(line)+3+cells(p) > t.width {
			break
		}
		line += " · " + p
	}
	return indent + t.st.Severity(f.severity, padRight(sev, sevW)) + line[len(indent)+sevW:]
}

// leadBudget is how many lines the lead may take: the first screen
// (screenLines) less the title line above it and the blank line under it.
const leadBudget = screenLines - 2

// leadLinesPerFinding caps a finding's lead block: three lines say what,
// where, since when, how many and the culprit at 80 columns; more would
// crowd the other findings off the screen.
const leadLinesPerFinding = 3

// leadFit is how many finding blocks and remedy blocks the lead shows
// within budget lines (its VERDICT and WHAT TO DO headings and the one
// line that says what was left out included): findings in order while
// the first remedy still fits after them, then remedies in order. The
// first finding is always shown.
func leadFit(findings, todo [][]string, budget int) (shown, shownTodo int) {
	used := 1 // VERDICT
	reserve := 0
	if len(todo) > 0 {
		reserve = 1 + len(todo[0]) // WHAT TO DO and the first remedy
	}
	for i, b := range findings {
		more := 0
		if i < len(findings)-1 || len(todo) > 1 {
			more = 1 // the line that says what was left out
		}
		if i > 0 && used+len(b)+reserve+more > budget {
			break
		}
		used += len(b)
		shown++
	}
	if len(todo) == 0 {
		return shown, 0
	}
	used++ // WHAT TO DO
	for i, b := range todo {
		more := 0
		if shown < len(findings) || i < len(todo)-1 {
			more = 1
		}
		if used+len(b)+more > budget {
			break
		}
		used += len(b)
		shownTodo++
	}
	return shown, shownTodo
}

// leadBlock is a finding's lead lines, each starting with pre (the
// severity column, written over it by the caller): its parts kept whole
// where a line has room for them (wrapParts), at most
// leadLinesPerFinding lines, the state's words shortened first when it
// runs over.
func (t *textView) leadBlock(f *findingRow, pre string) []string {
	what := kindInWords(f.kind)
	if f.causedBy != "" {
		what = "↳ " + what
	}
	parts := []string{what}
	if f.holder != "" && len(f.counts) > 0 {
		// The holder first, its waiters after it (issue 33); the state is
		// the lock's, which the kind says.
		who := "threads"
		if f.pool != "" {
			who = f.pool
		}
		n := f.counts[min(max(f.at, 0), len(f.counts)-1)]
		parts = append(parts, f.holder, fmt.Sprintf("%d %s wait for it", n, who))
		if since := t.sinceWords(f); since != "" {
			parts = append(parts, since)
		}
		if f.culprit != "" {
			parts = append(parts, "culprit "+ShortFrame(f.culprit))
		}
		return capLead(wrapParts(parts, t.width, pre, pre), pre, t.width)
	}
	if f.pool != "" {
		parts = append(parts, f.pool)
	}
	if len(f.labels) > 0 {
		parts = append(parts, labelsText(f.labels))
	}
	if since := t.sinceWords(f); since != "" {
		parts = append(parts, since)
	}
	state := -1
	if len(f.counts) > 0 {
		n := f.counts[min(max(f.at, 0), len(f.counts)-1)]
		if f.told > 0 {
			n = f.told
		}
		s := fmt.Sprint(n)
		// The state in words: its sentence's first part ("blocked
		// reading from a socket"), else its id.
		if f.owners != "" {
			s = f.owners // the owners leaked, not their threads' rest
		} else if w, _, _ := strings.Cut(f.explain, ":"); w != "" {
			s += " " + w
		} else if f.state != "" {
			s += " " + stateName(f.state, f.via)
		}
		state = len(parts)
		parts = append(parts, s)
	}
	if f.holder != "" {
		parts = append(parts, f.holder) // the holder first: the waiters follow from it
	}
	if f.culprit != "" {
		parts = append(parts, "culprit "+ShortFrame(f.culprit))
	}
	ls := wrapParts(parts, t.width, pre, pre)
	if len(ls) > leadLinesPerFinding && state >= 0 && f.state != "" {
		// The state's id says in a word what its sentence says in ten.
		parts[state] = fmt.Sprint(f.counts[min(max(f.at, 0), len(f.counts)-1)]) + " " + stateName(f.state, f.via)
		ls = wrapParts(parts, t.width, pre, pre)
	}
	return capLead(ls, pre, t.width)
}

// capLead keeps a lead block within leadLinesPerFinding lines: the lines
// past the cap go onto the last one, cut at the width.
func capLead(ls []string, pre string, width int) []string {
	if len(ls) > leadLinesPerFinding {
		rest := make([]string, 0, len(ls)-leadLinesPerFinding+1)
		for _, l := range ls[leadLinesPerFinding-1:] {
			rest = append(rest, strings.TrimSpace(l))
		}
		ls = append(ls[:leadLinesPerFinding-1], truncate(pre+strings.Join(rest, " · "), width))
	}
	return ls
}

// wrapParts lays parts out as wrap lays words, " · " between them, a part
// kept whole on one line where a line has room for it ("since 17:53:18
// (during-1, +10s)" never split); a part wider than a line is wrapped.
func wrapParts(parts []string, width int, first, rest string) []string {
	var lines []string
	line, empty := first, true
	for _, p := range parts {
		p = strings.Join(strings.Fields(oneLine(p)), " ")
		if p == "" {
			continue
		}
		sep := " · "
		if empty {
			sep = ""
		}
		if cells(line)+cells(sep)+cells(p) <= width {
			line += sep + p
			empty = false
			continue
		}
		if !empty {
			lines = append(lines, line)
			line = rest
		}
		ws := wrap(p, width, line, rest)
		lines = append(lines, ws[:len(ws)-1]...)
		line, empty = ws[len(ws)-1], false
	}
	return append(lines, line)
}

func (t *textView) verdictSection() {
	t.add("")
	hung := t.hungSentence()
	if len(t.findings) == 0 {
		t.add(t.st.Head("VERDICT") + "  no findings")
		if hung != "" {
			t.add(wrap(hung, t.width, indent, indent)...)
		}
		if len(t.moments) == 1 {
			t.add(wrap(t.oneDumpHint(true), t.width, indent, indent)...)
			t.add(truncate(indent+"  "+captureHint(t.runtime), t.width)) // one line, to copy
		}
		return
	}
	t.add(t.st.Head("FINDINGS")) // the hung tests are said in the lead (leadSection)
	const sevW = 8               // "CRITICAL"
	body := strings.Repeat(" ", len(indent)+sevW+2)
	for _, f := range t.findings {
		sev := strings.ToUpper(f.severity.String())
		head := f.kind
		if f.causedBy != "" {
			head = "↳ " + head // a consequence, right under the finding it follows from
		}
		if f.pool != "" {
			head += "  " + f.pool
		}
		if f.state != "" {
			head += " · " + stateName(f.state, f.via)
		}
		if len(f.counts) > 0 {
			head += " · " + arrowCounts(f.counts)
		}
		prefix := indent + padRight(sev, sevW) + "  "
		hl := wrap(head, t.width, prefix, body)
		hl[0] = indent + t.st.Severity(f.severity, padRight(sev, sevW)) + "  " + t.st.Bold(hl[0][len(prefix):])
		t.add(hl...)
		if f.summary != "" {
			t.add(wrap(f.summary, t.width, body, body)...)
		}
		if f.frame != "" || f.culprit != "" {
			var parts []string
			if f.frame != "" {
				parts = append(parts, "at "+ShortFrame(f.frame))
			}
			if f.culprit != "" {
				parts = append(parts, "culprit "+f.culprit)
			}
			t.add(wrap(strings.Join(parts, " · "), t.width, body, body+"  ")...)
		}
		if len(f.evidence) > 0 {
			for _, l := range wrap("Seen: "+evidence(f.evidence).plain(), t.width, body, body+"  ") {
				t.add(t.st.Dim(l))
			}
		}
	}
}

// table is the geometry of the pools × moments table.
type table struct {
	nameW   int
	colW    []int
	headers []string
	changeW int
	legend  string // "#1 before · #2 during" when headers are indices; "" otherwise
}

func (t *textView) tableGeometry() table {
	n := len(t.moments)
	var all [][]int // every row's counts, to size the columns
	names := []int{}
	for _, p := range t.pools {
		all = append(all, p.counts)
		names = append(names, 2+cells(p.name))
		for _, s := range p.states {
			all = append(all, s.counts)
			names = append(names, 5+cells(stateName(s.state, s.via)))
		}
	}
	for _, p := range []*poolRow{t.more, t.internal} {
		if p != nil {
			all = append(all, p.counts)
		}
	}
	all = append(all, t.totals)
	size := func(headers []string) ([]int, int) {
		colW := make([]int, n)
		changeW := len("change")
		for i := range colW {
			colW[i] = max(3, cells(headers[i]))
			for _, c := range all {
				colW[i] = max(colW[i], len(fmt.Sprint(c[i])))
			}
		}
		for _, c := range all {
			changeW = max(changeW, len(change(c)))
		}
		return colW, changeW
	}
	fixed := func(colW []int, changeW int) int {
		f := changeW + 2
		for _, c := range colW {
			f += c + 2
		}
		return f
	}
	tb := table{headers: make([]string, n)}
	for i, m := range t.moments {
		tb.headers[i] = m.label
	}
	tb.colW, tb.changeW = size(tb.headers)
	if t.width-fixed(tb.colW, tb.changeW) < 20 {
		// Labels too long for the width: number the columns and give the
		// labels in a legend.
		var leg []string
		for i, m := range t.moments {
			tb.headers[i] = fmt.Sprintf("#%d", i+1)
			leg = append(leg, tb.headers[i]+" "+m.label)
		}
		tb.legend = strings.Join(leg, " · ")
		tb.colW, tb.changeW = size(tb.headers)
	}
	need := 24
	for _, w := range names {
		need = max(need, w)
	}
	tb.nameW = max(16, min(need, t.width-fixed(tb.colW, tb.changeW)))
	return tb
}

// row prints one table row: a name then counts and change.
func (tb table) row(name string, counts []int) string {
	var b strings.Builder
	b.WriteString(padRight(name, tb.nameW))
	for i, c := range counts {
		b.WriteString("  ")
		b.WriteString(padLeft(fmt.Sprint(c), tb.colW[i]))
	}
	b.WriteString("  ")
	b.WriteString(padLeft(change(counts), tb.changeW))
	// Trimmed here, before a style wraps it, for the same bytes with and
	// without colour.
	return strings.TrimRight(b.String(), " ")
}

func (t *textView) poolSection() {
	if len(t.moments) == 0 {
		return
	}
	tb := t.tableGeometry()
	t.add("")
	var hb strings.Builder
	hb.WriteString(padRight("POOLS", tb.nameW))
	for i, h := range tb.headers {
		hb.WriteString("  ")
		hb.WriteString(padLeft(h, tb.colW[i]))
	}
	hb.WriteString("  ")
	hb.WriteString(padLeft("change", tb.changeW))
	t.add(t.st.Head(hb.String()))
	if tb.legend != "" {
		t.add(wrap(tb.legend, t.width, indent, indent)...)
	}
	for _, p := range t.pools {
		mark := "  "
		if p.flagged {
			mark = "! "
		}
		l := tb.row(mark+p.name, p.counts)
		if p.flagged {
			l = t.st.Severity(p.severity, l[:2]) + t.st.Bold(l[2:])
		}
		t.add(l)
		for _, s := range p.states {
			mark := "   - "
			if s.flagged {
				mark = "   ! "
			}
			t.add(tb.row(mark+stateName(s.state, s.via), s.counts))
			if d := stateDetail(s, t.unit()); d != "" {
				for _, l := range wrap(d, t.width, "       ", "         ") {
					t.add(t.st.Dim(l))
				}
			}
			if s.flagged {
				if gl := groupsLine(s.groups, t.moments[s.groupsAt].label, 3); gl != "" {
					for _, l := range wrap(gl, t.width, "       ", "         ") {
						t.add(t.st.Dim(l))
					}
				}
			}
		}
		if s := p.moreStates; s != nil {
			t.add(t.st.Dim(tb.row("   … "+words.Plural(s.folded, "more state"), s.counts)))
		}
	}
	if p := t.more; p != nil {
		t.add(t.st.Dim(tb.row("  … "+words.Plural(p.folded, "more pool"), p.counts)))
	}
	if p := t.internal; p != nil {
		t.add(t.st.Dim(tb.row(fmt.Sprintf("  %s (%s)", p.name, words.Plural(p.folded, "pool")), p.counts)))
	}
	t.add(tb.row("  total", t.totals))
}

// stateDetail is the line under a state: its top frame, culprit (short:
// the verdict has it in full) and how many of the very same threads stayed
// in it from the moment it rose (analyze.Group.Same).
func stateDetail(s stateRow, unit string) string {
	var parts []string
	if s.frame != "" {
		parts = append(parts, "at "+ShortFrame(s.frame))
	}
	if s.culprit != "" {
		parts = append(parts, "culprit "+ShortFrame(s.culprit))
	}
	if s.same > 0 {
		parts = append(parts, fmt.Sprintf("%d same %s since the rise", s.same, unit))
	}
	return strings.Join(parts, " · ")
}

// notableSection lists the threads to look at first, under the verdict.
func (t *textView) notableSection() {
	if len(t.notable) == 0 {
		return
	}
	t.add("", t.st.Head(strings.ToUpper(headNotable)))
	for _, n := range t.notable {
		t.add(wrap(n, t.width, indent+"- ", indent+"  ")...)
	}
}

func (t *textView) warningSection() {
	if len(t.warnings) == 0 {
		return
	}
	t.add("", t.st.Head("WARNINGS"))
	for _, w := range t.warnings {
		for _, l := range wrap(w, t.width, indent+"- ", indent+"  ") {
			t.add(t.st.Severity(analyze.Warning, l))
		}
	}
}
