package tui

import (
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/internal/words"
	"github.com/dumpdiff/dumpdiff/parse"
	"github.com/dumpdiff/dumpdiff/report"
)

// detailPane is one finding, whole: its sentence (report.Summary, wrapped,
// never cut), its facts (counts per moment, culprits, entry points with the
// health check marked, holders, the lock and its owner, the deadlock cycle
// with each member's lock and holder, what it follows from and what
// follows from it) and the stack of a representative thread. It scrolls as
// one document; enter opens its state, or the cycle of a deadlock.
type detailPane struct {
	common
	f *analyze.Finding
	// gi is the finding's state (its pool, state and via), or for a
	// process-wide finding the state of its first sample thread; nil when
	// none is found.
	gi *groupInfo
	// rep is the representative thread shown, at moment repAt; nil when
	// none is found.
	rep   *parse.Thread
	repAt int
	mk    marks
	// doc is the document under the title, styled, built by refresh for
	// the width; stackAt is the line where the stack starts.
	doc     []string
	stackAt int
	off     int
}

func newDetailPane(c common, f *analyze.Finding) *detailPane {
	d := &detailPane{common: c, f: f, repAt: f.At}
	ix := c.ix
	if pi := ix.poolByName(f.Pool); pi != nil && f.State != "" {
		d.gi = pi.groupOf(f.State, f.Via)
	}
	if d.gi == nil {
		// A process-wide finding: the state of its first sample thread.
		for _, e := range f.Evidence {
			if e.Moment == f.At && len(e.Threads) > 0 {
				d.gi = ix.groupOfThread(e.Moment, e.Threads[0])
			}
		}
	}
	if d.gi != nil {
		d.mk = marksOf(d.gi.g, f.At)
		d.rep = stackNear(d.gi.g, f.At, &d.repAt)
	}
	if len(f.Cycle) > 0 {
		// A deadlock: the first thread of the cycle, as it waits.
		if t := ix.threadNamed(f.At, f.Cycle[0].Name); t != nil {
			d.rep, d.repAt = t, f.At
			d.mk = marks{culprits: []string{f.Cycle[0].Culprit}}
		}
	}
	if f.Culprit != "" && !slices.Contains(d.mk.culprits, f.Culprit) {
		d.mk.culprits = append([]string{f.Culprit}, d.mk.culprits...)
	}
	for _, e := range f.Entries {
		fn, _, _ := strings.Cut(e.Func, " ← ")
		d.mk.entries = append(d.mk.entries, fn)
	}
	d.refresh()
	return d
}

// stackNear is g's representative thread at moment m, else at the nearest
// moment that has one (which *at is set to); nil when none.
func stackNear(g *analyze.Group, m int, at *int) *parse.Thread {
	for d := 0; d < len(g.Stacks); d++ {
		for _, k := range []int{m - d, m + d} {
			if k >= 0 && k < len(g.Stacks) && g.Stacks[k] != nil {
				*at = k
				return g.Stacks[k]
			}
		}
	}
	return nil
}

func (d *detailPane) kind() screen     { return screenFinding }
func (d *detailPane) backName() string { return "finding" }
func (d *detailPane) clone() pane      { c := *d; return &c }

func (d *detailPane) SetSize(w, h int) {
	d.width, d.height = w, h
	d.refresh()
}

// SetFilter keeps the query for the footer: a finding is shown whole.
func (d *detailPane) SetFilter(q string) { d.query = q }

// room is the number of document lines under the title.
func (d *detailPane) room() int { return max(1, d.height-1) }

func (d *detailPane) title() string {
	f := d.f
	s := sevTag(f.Severity) + " " + f.Kind
	if f.Pool != "" {
		s += " · " + f.Pool
	}
	if f.State != "" {
		s += " › " + stateName(f.State, f.Via)
	}
	return d.ix.titlePrefix(true) + s
}

// sevTag is the four-letter tag of a severity, as the overview lists it.
func sevTag(s analyze.Severity) string {
	return map[analyze.Severity]string{analyze.Critical: "CRIT", analyze.Warning: "WARN", analyze.Info: "INFO"}[s]
}

// factW is the width of the facts' label column: the reports' longest
// label ("Entry points", "Follows from") and two spaces.
const factW = 15

// refresh builds the document for the width.
func (d *detailPane) refresh() {
	w := d.width
	var doc []string
	add := func(style interface{ Render(...string) string }, s string) { doc = append(doc, style.Render(s)) }
	plain := func(s string) { doc = append(doc, s) }

	summary := report.Summary(d.ix.r, d.f)
	for _, l := range wrap(summary, w-2, "") {
		plain("  " + l)
	}
	if ft, ok := d.ix.document().Finding(d.f.ID); ok && ft.Counts != "" {
		// Its numbers line, as every report writes it under its heading.
		plain("")
		for _, l := range wrap(ft.Counts, w-2, "") {
			plain("  " + l)
		}
	}
	plain("")
	add(d.st.header, "FACTS")
	for _, fct := range d.facts() {
		label := fit(fct.label, factW-2)
		for i, v := range fct.values {
			for j, l := range wrap(v, w-factW, "  ") {
				switch {
				case i == 0 && j == 0:
					doc = append(doc, "  "+d.st.dim.Render(label)+fct.style.Render(l))
				default:
					doc = append(doc, strings.Repeat(" ", factW)+fct.style.Render(l))
				}
			}
		}
	}
	plain("")
	d.stackAt = len(doc)
	if d.rep == nil {
		add(d.st.dim, "no representative "+d.ix.unit+" found in the dumps")
	} else {
		head := "STACK of " + threadRow(d.rep) + " at " + d.ix.full[d.repAt]
		if d.gi != nil && d.repAt < len(d.gi.g.Stacks) && d.gi.g.Stacks[d.repAt] == d.rep {
			head += " (representative)"
		}
		for _, l := range wrap(head, w, "  ") {
			add(d.st.header, l)
		}
		// Frames wrap too: a frame's end (its line, its mark) is what
		// tells it apart.
		lines, _ := stackLines(d.rep, d.mk)
		for _, l := range lines {
			style := d.st.plain
			switch l.mark {
			case "culprit":
				style = d.st.culprit
			case "entry":
				style = d.st.header
			}
			wl := wrap(l.text, w-2, "    ")
			if l.mark != "" {
				// The mark stays on the frame's last line when it fits.
				if last := wl[len(wl)-1]; width(last)+width("  ◀ "+l.mark) <= w-2 {
					wl[len(wl)-1] = last + "  ◀ " + l.mark
				} else {
					wl = append(wl, "    ◀ "+l.mark)
				}
			}
			for _, x := range wl {
				add(style, "  "+x)
			}
		}
	}
	d.doc = doc
	d.off = min(d.off, max(0, len(d.doc)-d.room()))
}

// fact is one row of the facts: a label and its values, one a line.
type fact struct {
	label  string
	values []string
	style  interface{ Render(...string) string }
}

// facts are the finding's facts, in the order a reader asks for them:
// how many and when, where (culprit, entry points), who holds what, why
// (cause, consequences), then what was seen. Those the reports give are
// in their words and under their labels (report.Document); the others
// are the TUI's own.
func (d *detailPane) facts() []fact {
	f, ix := d.f, d.ix
	var out []fact
	plain := d.st.plain
	addf := func(label string, vs ...string) {
		if len(vs) > 0 {
			out = append(out, fact{label, vs, plain})
		}
	}
	ft, _ := ix.document().Finding(f.ID)
	doc := map[string]string{}
	for _, x := range ft.Facts {
		doc[x.Label] = x.Value
	}
	addDoc := func(label string, style interface{ Render(...string) string }, more ...string) {
		if v, ok := doc[label]; ok {
			out = append(out, fact{label, append([]string{v}, more...), style})
		}
	}
	addDoc("Numbers", plain)
	if len(f.PoolCounts) > 0 {
		addf("In pool", d.counts(f.PoolCounts))
	}
	if len(f.Totals) > 0 {
		addf("In process", d.counts(f.Totals))
	}
	when := "about " + ix.full[f.At]
	if f.Since >= 0 && f.Since < len(ix.labels) && f.Since != f.At {
		when = "since " + ix.full[f.Since] + " · " + when
	}
	if f.FromStart {
		when += " · already at the first moment"
	}
	addf("When", when)
	addDoc("Top frame", plain)
	addDoc("Culprit", d.st.culprit)
	addDoc("Entry points", plain)
	for _, h := range f.Holders {
		s := itoa(h.Count) + " in " + stateName(h.State, h.Via)
		if h.Pool != "" && h.Pool != f.Pool {
			s += " of " + h.Pool
		}
		if h.Culprit != "" {
			s += " at " + h.Culprit
		}
		addf("Holders", s)
	}
	if l := f.Lock; l != nil && (l.Address != "" || l.Owner != nil) {
		s := lockName(l.Address, l.Class)
		if o := l.Owner; o != nil && o.Name != "" {
			s += " held by " + refText(*o)
			if l.OwnerInferred {
				s += " (inferred: the dump prints no owner)" // Go never does; a JVM dump without -l, a read lock
			}
		} else {
			s += " (owner not printed)"
		}
		addf("Lock", s)
	}
	if len(f.Cycle) > 0 {
		var vs []string
		for _, c := range f.Cycle {
			vs = append(vs, cycleText(c))
		}
		out = append(out, fact{"Cycle", vs, d.st.errText})
	}
	if len(f.Blocked) > 0 {
		var names []string
		for i, b := range f.Blocked {
			if i == 10 {
				names = append(names, itoa(len(f.Blocked)-10)+" more")
				break
			}
			names = append(names, b.Name)
		}
		what := " more wait on the cycle without being in it: "
		if f.Kind == analyze.KindSpinning {
			what = " wait for it: " // its lock, its futures, its latch
		}
		addf("Blocked", itoa(len(f.Blocked))+what+strings.Join(names, ", "))
	}
	if f.Limit.Size > 0 || f.Idle > 0 || f.Waiting > 0 {
		var parts []string
		if f.Limit.Size > 0 {
			parts = append(parts, report.LimitText(f.Limit))
		}
		parts = append(parts, "idle "+itoa(f.Idle), "waiting "+itoa(f.Waiting))
		addf("Pool size", strings.Join(parts, " · "))
	}
	if len(f.Starved) > 0 {
		addf("Starved", frameCounts(f.Starved)...)
	}
	if w := f.Wait; w != nil && w.Goroutines > 0 {
		s := itoa(w.MinMinutes) + "–" + itoa(w.MaxMinutes) + " minutes"
		if w.MinMinutes == w.MaxMinutes {
			s = words.Plural(w.MinMinutes, "minute")
		}
		addf("Waited", s+", as printed by "+words.Plural(w.Goroutines, "goroutine"))
	}
	if f.Parents > 0 {
		addf("Creators", words.Plural(f.Parents, "goroutine")+" created them")
	}
	if f.Same > 0 {
		addf("Same", itoa(f.Same)+" are the very same "+ix.unit+"s from "+ix.full[max(0, f.Since)]+" to "+ix.full[len(ix.full)-1])
	}
	if f.Always > 0 {
		addf("Always", itoa(f.Always)+" were there at every moment")
	}
	if f.CPUThreads > 0 {
		per := f.CPU / time.Duration(f.CPUThreads)
		addf("CPU", per.Round(time.Microsecond).String()+" per thread meanwhile, on "+words.Plural(f.CPUThreads, "thread"))
	}
	if f.Headline != "" {
		addf("Runtime", f.Headline)
	}
	if f.Basis != "" {
		addf("Basis", f.Basis)
	}
	addDoc("Seen", plain)
	// The findings it follows from and leads to, by their number in the
	// reports, each with its heading: the overview does not number them.
	titleOf := func(id string) []string {
		if x, ok := ix.document().Finding(id); ok {
			return []string{itoa(x.Num) + ". " + x.Title}
		}
		return nil
	}
	addDoc("Follows from", plain, titleOf(f.CausedBy)...)
	var causes []string
	for i := range ix.r.Findings {
		if c := &ix.r.Findings[i]; c.CausedBy != "" && c.CausedBy == f.ID {
			causes = append(causes, titleOf(c.ID)...)
		}
	}
	addDoc("Leads to", plain, causes...)
	return out
}

// counts are counts per moment with their labels, the finding's moment in
// brackets: "before 0 · during-1 93 · [during-2 96] · after 0". The labels
// are the compact ones, as in the tables (the "when" fact names the
// finding's moments in full).
func (d *detailPane) counts(c []int) string {
	var parts []string
	for i, n := range c {
		l := "#" + itoa(i+1)
		if i < len(d.ix.labels) {
			l = d.ix.labels[i]
		}
		cell := l + " " + itoa(n)
		if i == d.f.At {
			cell = "[" + cell + "]"
		}
		parts = append(parts, cell)
	}
	return strings.Join(parts, " · ")
}

// frameCounts are frames with their counts, one a line, a health check
// said first: "health check HealthServlet.doGet(HealthServlet.java:26) (3)".
func frameCounts(fcs []analyze.FrameCount) []string {
	var vs []string
	for _, e := range fcs {
		s := e.Func + " (" + itoa(e.Count) + ")"
		if e.Probe {
			s = "health check " + s
		}
		vs = append(vs, s)
	}
	return vs
}

// lockName is "<0x…> (a java.lang.Object)".
func lockName(addr, class string) string {
	s := parse.LockShown(orDash(addr))
	if class != "" {
		s += " (a " + class + ")"
	}
	return s
}

// refText is a thread with where it is: "transfer-2 (monitor-blocked at
// TransferService.transfer(TransferService.java:32))".
func refText(t analyze.ThreadRef) string {
	s := t.Name
	var in []string
	if t.State != "" {
		in = append(in, t.State)
	}
	if at := orFirst(t.Culprit, t.Frame); at != "" {
		in = append(in, "at "+at)
	}
	if len(in) > 0 {
		s += " (" + strings.Join(in, " ") + ")"
	}
	return s
}

// cycleText is one member of a deadlock cycle: who, where, the lock it
// waits for and who holds that lock.
func cycleText(c analyze.CycleMember) string {
	s := c.Name
	if at := orFirst(c.Culprit, c.Frame); at != "" {
		s += " at " + at
	}
	if w := c.WaitsFor; w != nil {
		s += " waits for " + lockName(w.Address, w.Class)
		if w.Holder != "" {
			s += " held by " + w.Holder
		}
	}
	return s
}

func orFirst(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// Update scrolls the document (keys and wheel), tab jumps between the top
// and the stack, enter opens the state or the cycle, y copies the stack.
func (d *detailPane) Update(msg tea.Msg) (pane, tea.Cmd) {
	k := d.keys
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if delta, ok := k.move(msg, d.room()-1); ok {
			d.scroll(delta)
			return d, nil
		}
		switch {
		case key.Matches(msg, k.Focus):
			if d.off >= d.stackAt {
				d.off = 0
			} else {
				d.off = 0
				d.scroll(d.stackAt)
			}
		case key.Matches(msg, k.Enter):
			return d, d.enter()
		case key.Matches(msg, k.Copy):
			if d.rep == nil {
				return d, status("no stack to copy")
			}
			lines, _ := stackLines(d.rep, d.mk)
			return d, copyCmd(stackText(d.rep, lines), "the stack of "+threadName(d.rep))
		}
	case tea.MouseWheelMsg:
		d.scroll(wheelDelta(msg))
	}
	return d, nil
}

func (d *detailPane) scroll(delta int) {
	d.off = min(max(0, d.off+delta), max(0, len(d.doc)-d.room()))
}

// enter opens the cycle of a deadlock, else the finding's state at its
// moment.
func (d *detailPane) enter() tea.Cmd {
	if d.f.Kind == analyze.KindDeadlock && len(d.f.Cycle) > 0 {
		return open(newCyclePane(d.child(d.backName()), d.f))
	}
	if d.gi == nil {
		return status("this finding is about the whole process: no state to open")
	}
	return open(newStatePane(d.child(d.backName()), d.gi, d.f.At))
}

// enterWhat is what enter opens, for the footer.
func (d *detailPane) enterWhat() string {
	switch {
	case d.f.Kind == analyze.KindDeadlock && len(d.f.Cycle) > 0:
		return "cycle"
	case d.gi != nil:
		return "state"
	}
	return ""
}

// ShortHelp is the finding's footer.
func (d *detailPane) ShortHelp() []key.Binding {
	k := d.keys
	var b []key.Binding
	if w := d.enterWhat(); w != "" {
		b = append(b, short(k.Enter, w))
	}
	b = append(b, d.backKey(), short(k.Down, "scroll"), short(k.Focus, "stack"))
	return append(b, d.globalKeys(d.kind(), d.rep != nil)...)
}

// FullHelp is the help screen of the finding.
func (d *detailPane) FullHelp() [][]key.Binding {
	k := d.keys
	return [][]key.Binding{k.moves(), {short(k.Enter, "open the state (a deadlock: its cycle)"), short(k.Focus, "the stack / the top")}, k.global()}
}

func (d *detailPane) View() string {
	lines := []string{d.st.title.Render(cut(d.title(), d.width))}
	room := d.room()
	end := min(len(d.doc), d.off+room)
	more := len(d.doc) - end
	if more > 0 {
		end--
		more++
	}
	lines = append(lines, d.doc[d.off:end]...)
	if more > 0 {
		lines = append(lines, d.st.dim.Render(cut("  … "+words.Plural(more, "more line")+" (↓, tab: the stack)", d.width)))
	}
	return strings.Join(lines, "\n")
}
