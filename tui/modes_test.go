//go:build unix

package tui

import (
	"path/filepath"
	"testing"

	"github.com/dumpdiff/dumpdiff/internal/modetest"
)

// TestExportModes: the m key's Markdown holds thread names and stacks, so
// the export is readable by its owner only (0600), and the folders the
// export makes for --export-dir, parents included, are 0700. Under a
// umask of 0, nothing hides a wider mode.
func TestExportModes(t *testing.T) {
	modetest.Umask(t, 0)
	root := filepath.Join(t.TempDir(), "exports")
	dir := filepath.Join(root, "team", "today") // three folders the export makes
	m := New(goScenario(t), Options{NoColor: true, ExportDir: dir, Now: fixedNow})
	exported := 0
	export := func() {
		t.Helper()
		m = send(t, m, "m")
		exported++
		if got, _ := filepath.Glob(filepath.Join(dir, "dumpdiff-*.md")); len(got) != exported {
			t.Fatalf("after %d exports %s holds %v:\n%s", exported, dir, got, text(m))
		}
	}
	export() // the overview
	m = send(t, m, "enter")
	if m.screen() == screenOverview {
		t.Fatalf("enter opened nothing:\n%s", text(m))
	}
	export() // the pane enter opened
	if files, dirs := modetest.Check(t, root); files != 2 || dirs != 3 {
		t.Errorf("walked %d files and %d folders under %s, want the 2 exports in 3 folders", files, dirs, root)
	}
}
