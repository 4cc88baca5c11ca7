package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/dumpdiff/dumpdiff/internal/words"
)

// TestViewGolden draws each screen of real analyses at 80×24 and 120×40,
// ANSI stripped, against testdata/*.txt (go test -update rewrites them).
func TestViewGolden(t *testing.T) {
	cases := []struct {
		name string
		data func(testing.TB) *analyzeResult
		keys []string
	}{
		{"go-overview", goData, nil},
		{"go-pool", goData, []string{"down", "down", "enter"}},
		{"go-state", goData, []string{"down", "down", "enter", "enter"}},
		{"go-state-before", goData, []string{"down", "down", "enter", "enter", "1"}},
		{"go-compare", goData, []string{"down", "down", "enter", "enter", "c"}},
		{"go-finding", goData, []string{"enter"}},
		{"go-finding-state", goData, []string{"enter", "enter"}},
		{"go-labels-state", goLabels, []string{"enter", "enter"}},
		{"go-filter", goData, []string{"/", "handleSearch", "enter"}},
		{"go-sort", goData, []string{"s", "s", "s"}},
		{"go-help", goData, []string{"?"}},
		{"go-debug1-state", goDebug1, []string{"down", "down", "enter", "enter"}},
		{"go-compare-empty", goData, []string{"down", "down", "enter", "enter", "1", "c"}},
		{"go-one-moment", goOneMoment, nil},
		{"empty", empty, []string{"enter", "down", "s", "/", "x", "enter", "?"}},
		{"empty-overview", empty, nil},
		{"hikari-pool", hikari, []string{"down", "down", "enter", "3"}},
		{"hikari-finding", hikari, []string{"enter"}},
		{"hikari-finding-stack", hikari, []string{"enter", "tab"}},
		{"hikari-state", hikari, []string{"enter", "enter"}},
		{"hikari-state-health", hikari, []string{"enter", "enter", "/", "HealthServlet", "enter"}},
		{"deadlock-finding", deadlock, []string{"enter"}},
		{"deadlock-cycle", deadlock, []string{"enter", "enter"}},
		{"deadlock-cycle-stack", deadlock, []string{"enter", "enter", "down", "tab", "down"}},
		{"saturated-overview", noTimeout, nil},
		{"saturated-pool", noTimeout, []string{"down", "down", "enter"}},
		{"saturated-finding", noTimeout, []string{"down", "enter"}},
		{"jvm-overview", jvmData, []string{"G", "enter"}},
		{"jvm-finding", jvmData, []string{"enter"}},
		{"jvm-help", jvmData, []string{"enter", "enter", "?"}},
		{"jvm-state", jvmData, []string{"down", "enter", "enter", "down"}},
		{"jvm-compare", jvmData, []string{"down", "enter", "enter", "c"}},
	}
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		for _, c := range cases {
			name := fmt.Sprintf("%s-%dx%d", c.name, size[0], size[1])
			t.Run(name, func(t *testing.T) {
				m := New(c.data(t), Options{NoColor: true})
				nm, _ := m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
				m = send(t, nm.(Model), c.keys...)
				got := text(m)
				checkSize(t, got, size[0], size[1])
				golden(t, name+".txt", got)
			})
		}
	}
}

// checkSize asserts the screen has exactly h lines of at most w cells.
func checkSize(t *testing.T, screen string, w, h int) {
	t.Helper()
	lines := strings.Split(screen, "\n")
	if len(lines) != h {
		t.Errorf("screen has %d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if width(l) > w {
			t.Errorf("line %d is %d cells wide, more than %d: %q", i+1, width(l), w, l)
		}
	}
}

// TestViewColor checks that colours are drawn unless NoColor is set.
func TestViewColor(t *testing.T) {
	r := goData(t)
	colored := New(r, Options{}).View().Content
	plain := New(r, Options{NoColor: true}).View().Content
	if !strings.Contains(colored, "\x1b[38;") {
		t.Errorf("coloured view has no foreground colour sequence")
	}
	if strings.Contains(plain, "\x1b[38;") || strings.Contains(plain, "\x1b[48;") {
		t.Errorf("NoColor view has colour sequences: %q", plain)
	}
}

// TestPoolHiddenMoments opens the handleSearch pool of the Go scenario on a
// screen too narrow for its five moments: the hidden ones are drawn "…" and
// counted in the subtitle, and ←/→ brings each into view, its label whole
// in brackets or, when the header shortens it, in full in the subtitle.
func TestPoolHiddenMoments(t *testing.T) {
	m := New(goData(t), Options{NoColor: true})
	nm, _ := m.Update(tea.WindowSizeMsg{Width: 48, Height: 16})
	m = send(t, nm.(Model), "/", "handleSearch.func1", "enter", "G", "enter")
	s := text(m)
	checkSize(t, s, 48, 16)
	golden(t, "go-pool-hidden-48x16.txt", s)
	n := poolOf(t, m).tab.moments.hidden()
	if n == 0 {
		t.Fatalf("at 48 columns no moment is hidden:\n%s", s)
	}
	contains(t, "pool at after-2", s, words.Plural(n, "moment")+" hidden at …", "[after-2]", " … ")
	for k := len(goMoments) - 1; k > 0; k-- {
		m = send(t, m, "left")
		s := text(m)
		if !strings.Contains(s, "["+goMoments[k-1]+"]") && !strings.Contains(s, "\nat "+goMoments[k-1]+" · ") {
			t.Errorf("pool after ← names %s neither in the header nor in the subtitle:\n%s", goMoments[k-1], s)
		}
		if !strings.Contains(s, "[") {
			t.Errorf("pool after ← brackets no moment:\n%s", s)
		}
	}
}

// TestFilterPlaceholder: the filter input shows its whole hint.
func TestFilterPlaceholder(t *testing.T) {
	m := send(t, New(goData(t), Options{NoColor: true}), "/")
	contains(t, "filter input", text(m), "/thread name, frame or state")
}

// TestStateStackGroups: the state view splits the threads at its moment by
// identical stack, the largest group first, each with its culprit and
// entry point; the health check's group says so.
func TestStateStackGroups(t *testing.T) {
	m := New(hikari(t), Options{NoColor: true})
	nm, _ := m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m = send(t, nm.(Model), "enter", "enter") // the db-pool-exhausted finding's state
	contains(t, "state view", text(m), "IDENTICAL STACKS at during-2: 2 groups",
		"  93  at OrderRepository.recentOrderSummary:23 from OrderServlet.doGet:22",
		"   3  at HealthServlet.doGet:26 (health check)")
	m = send(t, m, "2")
	contains(t, "state view at during-1", text(m), "IDENTICAL STACKS at during-1: 2 groups", "  91  at OrderRepository")
	m = send(t, m, "1")
	if s := text(m); strings.Contains(s, "IDENTICAL STACKS") {
		t.Errorf("a moment with no thread in the state lists stack groups:\n%s", s)
	}
}
