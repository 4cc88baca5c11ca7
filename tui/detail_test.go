package tui

import (
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/report"
)

// sized is New at a terminal size.
func sized(t testing.TB, r *analyze.Result, w, h int) Model {
	t.Helper()
	m := New(r, Options{NoColor: true})
	nm, _ := m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return nm.(Model)
}

// screenText is what the whole detail document says, scrolled through:
// every line from the top to the bottom, ANSI stripped.
func detailText(t *testing.T, m Model) string {
	t.Helper()
	d := paneOf[*detailPane](t, m)
	return trailingSpace.ReplaceAllString(ansi.Strip(strings.Join(d.doc, "\n")), "")
}

// squash drops all white space: a sentence wrapped over lines squashes to
// the same text as the sentence.
func squash(s string) string { return strings.Join(strings.Fields(s), "") }

// TestFindingDetailFlow opens the HikariCP finding from the overview: its
// whole sentence, its facts (the health check marked) and its stack; enter
// opens the state, esc comes back to the finding, esc again to the
// findings with the cursor where it was (not to the pool screen).
func TestFindingDetailFlow(t *testing.T) {
	r := hikari(t)
	m := sized(t, r, 80, 24)
	m = send(t, m, "enter")
	if m.screen() != screenFinding {
		t.Fatalf("enter on the finding opened screen %d, want its detail:\n%s", m.screen(), text(m))
	}
	s := text(m)
	contains(t, "detail", s, "WARN db-pool-exhausted · http-nio-18080-exec-* › db-pool-wait", "FACTS", "enter state", "esc findings")
	doc := detailText(t, m)
	contains(t, "detail facts", squash(doc),
		squash("0 → 93 → 96 → 0 threads (before → after) · recovered: yes: 0 at after, the last moment"),
		squash("Numbers db-pool-wait: before 0 → during-1 93 → during-2 96 → after 0 threads; idle 10 → 11 → 8 → 114"),
		squash("Entry points com.example.shop.OrderServlet.doGet(OrderServlet.java:22) 93 · com.example.shop.HealthServlet.doGet(HealthServlet.java:26) 3 (health check)"),
		squash("Holders 10 in socket-read via jdbc org.postgresql at com.example.shop.OrderRepository.recentOrderSummary(OrderRepository.java:27)"),
		squash("In pool before 10 · during-1 114 · [during-2 114] · after 114"))
	contains(t, "detail stack", doc, "STACK of http-nio-18080-exec-1",
		"  com.example.shop.OrderRepository.recentOrderSummary(OrderRepository.java:23)\n      ◀ culprit",
		"  com.example.shop.OrderServlet.doGet(OrderServlet.java:22)  ◀ entry")

	// The sentence is whole: no "…" in it, every word there in order.
	summary := report.Summary(r, &r.Findings[0])
	head := doc[:strings.Index(doc, "\n\n")] // the numbers line follows after a blank line
	if squash(head) != squash(summary) {
		t.Errorf("the detail's sentence is not report.Summary whole:\n%s\nwant:\n%s", head, summary)
	}

	// The document scrolls to its end: the stack's last frame.
	m = send(t, m, "G")
	contains(t, "detail end", text(m), "java.lang.Thread.run(Thread.java:840)")
	if strings.Contains(text(m), "more line") {
		t.Errorf("at the end of the detail a note of more lines is left:\n%s", text(m))
	}

	m = send(t, m, "enter")
	if m.screen() != screenState {
		t.Fatalf("enter on the detail opened screen %d, want the state", m.screen())
	}
	contains(t, "state from the finding", text(m), "http-nio-18080-exec-* › db-pool-wait", "[3:during-2 96]", "esc finding")
	m = send(t, m, "esc")
	if m.screen() != screenFinding {
		t.Fatalf("esc from the state went to screen %d, want the finding", m.screen())
	}
	m = send(t, m, "esc")
	if m.screen() != screenOverview {
		t.Fatalf("esc from the finding went to screen %d, want the findings", m.screen())
	}
	if r := overviewOf(t, m).selected(); r == nil || r.kind != rowFinding {
		t.Errorf("back on the overview the cursor is not on the finding:\n%s", text(m))
	}
}

// TestFindingSummariesWhole opens every finding of every real scenario at
// 80 columns and finds its whole sentence in the detail, wrapped.
func TestFindingSummariesWhole(t *testing.T) {
	sets := map[string]func(testing.TB) *analyze.Result{
		"go": goScenario, "hikari": hikari, "samurai": samurai, "deadlock": deadlock, "no-timeout": noTimeout,
		"mypage": func(t testing.TB) *analyze.Result { return scenario(t, "mypage-pool-stuck") },
		"completablefuture": func(t testing.TB) *analyze.Result {
			return scenario(t, "completablefuture-thread-per-task")
		},
	}
	for name, data := range sets {
		t.Run(name, func(t *testing.T) {
			r := data(t)
			if len(r.Findings) == 0 {
				t.Fatal("no finding")
			}
			for i := range r.Findings {
				f := &r.Findings[i]
				d := newDetailPane(common{ix: newIndex(r), st: newStyles(true), keys: newKeyMap(), width: 80, height: 22}, f)
				doc := ansi.Strip(strings.Join(d.doc, "\n"))
				if !strings.Contains(squash(doc), squash(report.Summary(r, f))) {
					t.Errorf("%s: the sentence is not whole in the detail:\n%s", f.ID, doc)
				}
				for _, l := range d.doc {
					if width(l) > 80 {
						t.Errorf("%s: line wider than 80: %q", f.ID, l)
					}
				}
			}
		})
	}
}

// scenario is a JVM scenario's four moments.
func scenario(t testing.TB, name string) *analyze.Result {
	var files []string
	for _, m := range []string{"before", "during-1", "during-2", "after"} {
		files = append(files, filepath.Join(scenarios, name, m+".txt"))
	}
	return analyzeFiles(t, files...)
}

// TestDeadlockCycle opens the real lock-order deadlock: its detail names
// each member's lock and holder; enter shows the cycle's two threads only
// (not audit nor the tellers that wait on it), each with its lock lines;
// esc returns to the finding.
func TestDeadlockCycle(t *testing.T) {
	m := sized(t, deadlock(t), 80, 24)
	m = send(t, m, "enter")
	doc := detailText(t, m)
	contains(t, "deadlock detail", squash(doc),
		squash("Cycle transfer-1 at com.example.bank.TransferService.transferSynchronized(TransferService.java:32) waits for <0x00000000fc0dfed8> (a com.example.bank.Account) held by transfer-2"),
		squash("transfer-2 at com.example.bank.TransferService.transferSynchronized(TransferService.java:32) waits for <0x00000000fc0dfa80> (a com.example.bank.Account) held by transfer-1"),
		squash("Blocked 9 more wait on the cycle without being in it: audit, teller-1"))
	contains(t, "deadlock detail footer", text(m), "enter cycle")

	m = send(t, m, "enter")
	if m.screen() != screenCycle {
		t.Fatalf("enter on the deadlock opened screen %d, want its cycle:\n%s", m.screen(), text(m))
	}
	s := text(m)
	contains(t, "cycle", s, "DEADLOCK CYCLE of 2 threads at dump · transfer-1 → transfer-2 → transfer-1",
		"› transfer-1  waits for <0x00000000fc0dfed8> held by transfer-2",
		"  transfer-2  waits for <0x00000000fc0dfa80> held by transfer-1",
		"9 more threads wait on the cycle", "STACK of transfer-1  #12",
		"- waiting to lock <0x00000000fc0dfed8> (a com.example.bank.Account)",
		"- locked <0x00000000fc0dfa80> (a com.example.bank.Account)", "esc finding")
	for _, bystander := range []string{"audit", "teller-"} {
		if strings.Contains(s, bystander) {
			t.Errorf("the cycle lists %s, which only waits on it:\n%s", bystander, s)
		}
	}
	m = send(t, m, "down")
	contains(t, "second member", text(m), "› transfer-2", "STACK of transfer-2  #13", "- locked <0x00000000fc0dfed8>")

	// m writes the cycle: its members and their stacks.
	dir := t.TempDir()
	m.opt.ExportDir, m.opt.Now = dir, fixedNow
	m = send(t, m, "m")
	md := readFile(t, filepath.Join(dir, "dumpdiff-cycle-20261129-173000.md"))
	contains(t, "cycle export", md, "# Deadlock cycle at dump",
		"- transfer-1 at com.example.bank.TransferService.transferSynchronized(TransferService.java:32) waits for &lt;0x00000000fc0dfed8&gt; (a com.example.bank.Account) held by transfer-2",
		"## Stack of transfer-2  \\#13", "  - locked <0x00000000fc0dfed8> (a com.example.bank.Account)")
	if strings.Contains(md, "teller") {
		t.Errorf("the cycle export lists a teller:\n%s", md)
	}
	checkMarkdown(t, md)
	m = send(t, m, "esc")
	if m.screen() != screenFinding {
		t.Fatalf("esc from the cycle went to screen %d, want the finding", m.screen())
	}
}

// TestPoolHeaderLimit: the saturated Tomcat pool says its peak and its
// limit with where the number comes from; a pool no finding sizes says
// only its peak.
func TestPoolHeaderLimit(t *testing.T) {
	m := sized(t, noTimeout(t), 120, 40)
	m = openPoolNamed(t, m, "http-nio-18080-exec-*")
	contains(t, "saturated pool", text(m), "POOL http-nio-18080-exec-* · 2 states · peak 200 · limit 200 (Tomcat maxThreads default)")
	m = send(t, m, "esc")
	m = openPoolNamed(t, m, "Catalina-utility-*")
	s := text(m)
	contains(t, "unsized pool", s, "POOL Catalina-utility-* · 1 state · peak 2\n")
	if strings.Contains(s, "limit") || strings.Contains(s, "max ") {
		t.Errorf("a pool no finding sizes names a limit:\n%s", s)
	}
}

// TestOneScale: the sparklines of a screen share one scale, so the
// constant single thread of "main" is a low bar where the 200 saturated
// workers reach the top; the scale is written.
func TestOneScale(t *testing.T) {
	m := sized(t, noTimeout(t), 80, 24)
	s := text(m)
	contains(t, "overview", s, "bars share one scale: █ = 200 threads")
	for _, l := range strings.Split(s, "\n") {
		switch {
		case strings.HasPrefix(strings.TrimSpace(l), "http-nio-18080-exec-*"):
			contains(t, "workers' row", l, "▂███")
		case strings.HasPrefix(strings.TrimSpace(l), "main "):
			contains(t, "main's row", l, "▂▂▂▂")
		}
	}
	if got := sparkline([]int{1, 1, 1}, 200); got != "▂▂▂" {
		t.Errorf("sparkline(1,1,1 on 200) = %q, want the lowest bar above zero", got)
	}
	if got := sparkline([]int{1, 1, 1}, 0); got != "███" {
		t.Errorf("sparkline(1,1,1 on its own scale) = %q, want the top bar", got)
	}
	if got := sparkline([]int{0, 100, 200}, 200); got != "▁▅█" {
		t.Errorf("sparkline(0,100,200 on 200) = %q", got)
	}
}

// TestGoStackCreatorAndLabels: a Go stack shows its pprof labels and its
// `created by` line with the parent goroutine, in the TUI and in what y
// copies.
func TestGoStackCreatorAndLabels(t *testing.T) {
	m := sized(t, goLabels(t), 80, 24)
	m = send(t, m, "enter", "enter")
	contains(t, "labelled state", text(m), "labels: pool=producers, state=chan-send",
		"main.(*held).produce (main.go:169)  ◀ culprit", "created by main.group.func1 in goroutine 1 (main.go:108)")
	_, out := sendOut(t, m, "y")
	got, ok := clipboard(out)
	if !ok {
		t.Fatal("y produced no clipboard command")
	}
	contains(t, "copied stack", got, "goroutine 11  [chan send]\n  labels: pool=producers, state=chan-send\n",
		"\n  created by main.group.func1 in goroutine 1 (main.go:108)")
}
