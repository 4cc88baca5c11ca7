package tui

import (
	"path/filepath"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestOverviewNamesNotableThreads: the overview names the last moment's
// notable threads under the findings, as the reports do: ForkJoinApp's
// main joins the starved common pool's futures (testdata/libs, its
// README), the thread an engineer looks at first; at 80×24 the pools
// stay on the screen under it.
func TestOverviewNamesNotableThreads(t *testing.T) {
	dir := filepath.Join("..", "testdata", "libs", "jvm-common-pool-starved")
	r := analyzeFiles(t, filepath.Join(dir, "1.txt"), filepath.Join(dir, "2.txt"))
	if len(r.Notable) == 0 {
		t.Fatal("the fixture has no notable thread")
	}
	m := New(r, Options{NoColor: true})
	nm, _ := m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	got := text(nm.(Model))
	contains(t, "overview", got, "NOTABLE THREADS at 2", "main", "main is waiting, not in a pool's loop", "POOLS")
}
