package tui

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/parse"
	"github.com/dumpdiff/dumpdiff/report"
)

// Every screen is a pane (the component contract).
var (
	_ pane = (*overviewPane)(nil)
	_ pane = (*detailPane)(nil)
	_ pane = (*cyclePane)(nil)
	_ pane = (*poolPane)(nil)
	_ pane = (*statePane)(nil)
	_ pane = (*helpPane)(nil)
)

// TestMouseOverview: a click selects the row under the pointer (and not a
// header), the wheel moves the cursor, the view asks for mouse reports.
func TestMouseOverview(t *testing.T) {
	m := sized(t, hikari(t), 80, 24)
	if got := m.View().MouseMode; got != tea.MouseModeCellMotion {
		t.Errorf("MouseMode = %v, want cell motion", got)
	}
	// Rows: 0 title, 1 warnings, 2 FINDINGS, 3 the finding, 4 the scale,
	// 5 the POOLS header, 6 the first pool.
	m, _ = step(t, m, click(10, 6))
	if r := overviewOf(t, m).selected(); r == nil || r.kind != rowPool || r.p.p.Name != "http-nio-18080-exec-*" {
		t.Fatalf("a click on the first pool row selected %+v:\n%s", r, text(m))
	}
	m, _ = step(t, m, click(10, 5)) // the header: nothing changes
	if r := overviewOf(t, m).selected(); r == nil || r.p == nil || r.p.p.Name != "http-nio-18080-exec-*" {
		t.Errorf("a click on the header moved the cursor to %+v", r)
	}
	at := overviewOf(t, m).list.cursor
	m, _ = step(t, m, wheel(8, true))
	if got := overviewOf(t, m).list.cursor; got != at+wheelStep {
		t.Errorf("wheel down: cursor at row %d, want %d", got, at+wheelStep)
	}
	m, _ = step(t, m, wheel(8, false))
	m, _ = step(t, m, click(10, 3))
	if r := overviewOf(t, m).selected(); r == nil || r.kind != rowFinding {
		t.Fatalf("a click on the finding selected %+v", r)
	}
	// A click in the footer is not a row.
	before := overviewOf(t, m).list.cursor
	m, _ = step(t, m, click(10, 23))
	if overviewOf(t, m).list.cursor != before {
		t.Errorf("a click on the footer moved the cursor")
	}
	m = send(t, m, "enter")
	if m.screen() != screenFinding {
		t.Errorf("enter after clicking the finding opened screen %d", m.screen())
	}
}

// TestMousePoolAndState: in a pool a click selects a state (two lines
// each); in a state a click selects a thread, and one in the stack selects
// a frame; the wheel over the list moves the cursor, over the stack
// scrolls it; in a finding the wheel scrolls the document.
func TestMousePoolAndState(t *testing.T) {
	m := sized(t, hikari(t), 80, 24)
	m = openPoolNamed(t, m, "http-nio-18080-exec-*")
	p := poolOf(t, m)
	top := len(p.headLines())
	m, _ = step(t, m, click(5, top+2+1)) // the detail line of the second state
	if gi := poolOf(t, m).selected(); gi != p.groups[1] {
		t.Fatalf("a click on the second state selected %v, want %s", gi.g.State, p.groups[1].g.State)
	}

	m = openStateNamed(t, m, "db-pool-wait")
	s := stateOf(t, m)
	listTop := len(s.headLines()) + 1
	m, _ = step(t, m, click(5, listTop+2))
	s = stateOf(t, m)
	if s.list.cursor != 2 || s.focusStack {
		t.Fatalf("a click on the third thread: cursor %d, stack focused %v", s.list.cursor, s.focusStack)
	}
	contains(t, "third thread", text(m), "STACK of "+threadRow(s.threads[2]))

	stackTop := listTop + s.listHeight() + 1
	m, _ = step(t, m, click(5, stackTop+3))
	s = stateOf(t, m)
	if !s.focusStack || s.stack.cur != 3 {
		t.Fatalf("a click on the fourth stack line: focused %v, line %d", s.focusStack, s.stack.cur)
	}
	m, _ = step(t, m, wheel(stackTop+1, true))
	if got := stateOf(t, m).stack.off; got != wheelStep {
		t.Errorf("the wheel over the stack scrolled it to %d, want %d", got, wheelStep)
	}
	m, _ = step(t, m, wheel(listTop, true))
	if got := stateOf(t, m).list.cursor; got != 2+wheelStep {
		t.Errorf("the wheel over the threads moved the cursor to %d, want %d", got, 2+wheelStep)
	}

	m = send(t, m, "esc", "esc", "g", "enter") // the finding
	m, _ = step(t, m, wheel(5, true))
	if got := paneOf[*detailPane](t, m).off; got != wheelStep {
		t.Errorf("the wheel scrolled the finding to %d, want %d", got, wheelStep)
	}
}

// TestCopy: y puts the selected stack on the clipboard through
// tea.SetClipboard (OSC 52) and says so; after tab it copies the selected
// frame; on the findings it copies a finding's whole sentence; in a
// finding, its stack.
func TestCopy(t *testing.T) {
	r := hikari(t)
	m := sized(t, r, 80, 24)
	m, out := sendOut(t, m, "y")
	got, ok := clipboard(out)
	if !ok || got == "" {
		t.Fatalf("y on the finding produced no clipboard command: %v", out)
	}
	if want := analyzeSummary(r, 0); got != want {
		t.Errorf("y on the finding copied %q, want its sentence %q", got, want)
	}
	contains(t, "status", text(m), "copied the finding (1 line) to the clipboard (OSC 52)")

	m = send(t, m, "enter")
	m, out = sendOut(t, m, "y")
	got, _ = clipboard(out)
	contains(t, "finding's stack", got, "http-nio-18080-exec-1  #17 nid=0x3199  TIMED_WAITING (parking)\n  jdk.internal.misc.Unsafe.park(Native Method)\n",
		"\n  com.example.shop.OrderRepository.recentOrderSummary(OrderRepository.java:23)\n")
	if strings.Contains(got, "◀") {
		t.Errorf("the copied stack holds the screen's marks:\n%s", got)
	}

	m = send(t, m, "enter")
	m, out = sendOut(t, m, "y")
	got, _ = clipboard(out)
	s := stateOf(t, m)
	lines, _ := stackLines(s.selected(), marksOf(s.gi.g, s.moment))
	if want := stackText(s.selected(), lines); got != want {
		t.Errorf("y in the state copied\n%s\nwant\n%s", got, want)
	}
	contains(t, "status", text(m), "copied the stack of http-nio-18080-exec-1 ("+itoa(len(lines)+1)+" lines) to the clipboard (OSC 52)")

	m, out = sendOut(t, m, "tab", "down", "down", "y")
	got, _ = clipboard(out)
	if got != "java.util.concurrent.locks.LockSupport.parkNanos(LockSupport.java:252)" {
		t.Errorf("y on the third stack line copied %q", got)
	}
	contains(t, "status", text(m), "copied the frame (1 line) to the clipboard (OSC 52)")
}

func analyzeSummary(r *analyze.Result, i int) string { return report.Summary(r, &r.Findings[i]) }

// TestCopyOSC52 runs the real program: y writes the OSC 52 sequence that
// sets the system clipboard to the stack.
func TestCopyOSC52(t *testing.T) {
	r := hikari(t)
	in, keys := io.Pipe()
	out := &syncBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- Run(context.Background(), func() (*analyze.Result, error) { return r, nil },
			Options{Input: in, Output: out, NoColor: true})
	}()
	waitFor(t, out, "FINDINGS")
	if _, err := keys.Write([]byte("y")); err != nil {
		t.Fatal(err)
	}
	want := ansi.SetSystemClipboard(report.Summary(r, &r.Findings[0]))
	waitFor(t, out, want)
	if _, err := keys.Write([]byte("q")); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after q")
	}
}

// TestExportCreatesFolder: m creates a missing export folder and shows the
// file's whole absolute path, wrapped; a folder that cannot be made shows
// its whole error.
func TestExportCreatesFolder(t *testing.T) {
	r := goScenario(t)
	dir := filepath.Join(t.TempDir(), "a-rather-long-folder-name-for-exports", "incident-2026-11-29", "dumps")
	m := New(r, Options{NoColor: true, ExportDir: dir, Now: fixedNow})
	m = send(t, m, "enter", "m")
	want := filepath.Join(dir, "dumpdiff-finding-20261129-173000.md")
	if m.status != "wrote "+want {
		t.Fatalf("status = %q, want %q", m.status, "wrote "+want)
	}
	md := readFile(t, want)
	contains(t, "finding export", md, "# CRIT not-recovered · main.(\\*server).handleSearch › chan-send", "- **Culprit:**", "## Stack of goroutine")
	s := text(m)
	checkSize(t, s, 80, 24)
	if !strings.Contains(squash(s), squash("wrote "+want)) {
		t.Errorf("the screen does not show the whole path %s:\n%s", want, s)
	}

	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	m = New(r, Options{NoColor: true, ExportDir: filepath.Join(file, "exports"), Now: fixedNow})
	m = send(t, m, "m")
	if !strings.HasPrefix(m.status, "export failed: mkdir ") || !strings.HasSuffix(m.status, "not a directory") {
		t.Fatalf("status = %q, want the mkdir error", m.status)
	}
	s = text(m)
	checkSize(t, s, 80, 24)
	if !strings.Contains(squash(s), squash(m.status)) {
		t.Errorf("the screen cuts the error %q:\n%s", m.status, s)
	}
}

// TestFooterEsc: the footer says what esc does on each screen, and esc
// does it.
func TestFooterEsc(t *testing.T) {
	m := sized(t, hikari(t), 100, 30)
	footer := func() string {
		lines := strings.Split(text(m), "\n")
		return lines[len(lines)-1]
	}
	if strings.Contains(footer(), "esc") {
		t.Errorf("the overview without a filter names esc: %q", footer())
	}
	steps := []struct {
		keys   []string
		screen screen
		esc    string
	}{
		{[]string{"enter"}, screenFinding, "esc findings"},
		{[]string{"enter"}, screenState, "esc finding"},
		{[]string{"?"}, screenHelp, "esc/?/q close"},
		{[]string{"esc", "esc", "esc", "down", "enter"}, screenPool, "esc overview"},
		{[]string{"enter"}, screenState, "esc pool"},
		{[]string{"esc", "esc", "/", "exec", "enter"}, screenOverview, "esc clear filter"},
	}
	for _, st := range steps {
		m = send(t, m, st.keys...)
		if m.screen() != st.screen {
			t.Fatalf("after %v: screen %d, want %d:\n%s", st.keys, m.screen(), st.screen, text(m))
		}
		contains(t, "footer", footer(), st.esc)
	}
	m = send(t, m, "esc")
	if m.query != "" || m.screen() != screenOverview {
		t.Errorf("esc on the filtered overview: query %q, screen %d", m.query, m.screen())
	}
}

// TestMiddleEllipsis: names keep both ends.
func TestMiddleEllipsis(t *testing.T) {
	for _, tt := range []struct {
		s    string
		w    int
		want string
	}{
		{"http-nio-127.0.0.1-18080-exec-*", 20, "http-nio-…080-exec-*"},
		{"http-nio-127.0.0.1-18080-Acceptor", 21, "http-nio-1…0-Acceptor"},
		{"short", 10, "short"},
		{"abcdef", 4, "abc…"},
	} {
		if got := cutMiddle(tt.s, tt.w); got != tt.want || width(got) > tt.w {
			t.Errorf("cutMiddle(%q, %d) = %q, want %q", tt.s, tt.w, got, tt.want)
		}
	}
	// At 60 columns the two Tomcat pools that differ at the end stay apart.
	s := text(sized(t, noTimeout(t), 60, 20))
	contains(t, "narrow overview", s, "…0-Acceptor", "…080-Poller")
}

// TestWrapKeepsEverything: wrap never drops or cuts a character.
func TestWrapKeepsEverything(t *testing.T) {
	in := "a com.example.shop.OrderRepository.recentOrderSummary(OrderRepository.java:23) b  c " + strings.Repeat("x", 50)
	for _, w := range []int{10, 20, 33, 80} {
		lines := wrap(in, w, "  ")
		for _, l := range lines {
			if width(l) > w {
				t.Errorf("wrap(%d): line %q is wider", w, l)
			}
		}
		if squash(strings.Join(lines, "")) != squash(in) {
			t.Errorf("wrap(%d) lost text: %q", w, lines)
		}
	}
}

// TestKeysThroughMatches: keys are matched through key.Matches and the key
// map, never by comparing msg.String() (the house rule, gum's pager).
func TestKeysThroughMatches(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(string(b), "\n") {
			if strings.Contains(l, "msg.String()") || strings.Contains(l, ".Code ==") {
				t.Errorf("%s:%d matches a key by hand: %s", f, i+1, strings.TrimSpace(l))
			}
		}
	}
}

// TestStackElidedCount: the TUI prints the runtime's elided-frames line as
// the reports do, with the count Go 1.21+ prints.
func TestStackElidedCount(t *testing.T) {
	th := &parse.Thread{Frames: []*parse.Frame{{Func: "main.deep", File: "/app/main.go", Line: 9}}, GoExtra: &parse.GoExtra{FramesElided: true, ElidedCount: 42}}
	lines, _ := stackLines(th, marks{})
	var got []string
	for _, l := range lines {
		got = append(got, l.text)
	}
	if !slices.Contains(got, "...42 frames elided...") {
		t.Errorf("stack lines %q: want the elided count as the runtime printed it", got)
	}
}
