package captured

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/capture"
	"github.com/dumpdiff/dumpdiff/parse"
)

// A JDK 24+ moment's scheduler joins its dump (a real capture,
// testdata/verdicts/vthread-sched-pinned); a line of it that was not read
// is the moment's skipped line, naming the file; a scheduler file that
// does not read is said, and the moment keeps its dump.
func TestInputScheduler(t *testing.T) {
	src := filepath.Join("..", "..", "testdata", "verdicts", "vthread-sched-pinned")
	m, err := capture.ReadManifest(src)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range m.Files {
		b, err := os.ReadFile(filepath.Join(src, f.Path))
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case f.Kind == capture.FileVThreadScheduler && f.Moment == "2":
			b = append(b, "Something new: 7\n"...)
		case f.Kind == capture.FileVThreadScheduler && f.Moment == "3":
			b = []byte("4242:\nnot a scheduler\n")
		}
		if err := os.WriteFile(filepath.Join(dir, f.Path), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func(path string, _ bool) ([]*parse.Dump, error) { return parse.ParseFile(filepath.Join(dir, path)) }
	target := m.Targets[0].Name
	var notes []string
	note := func(n string) { notes = append(notes, n) }
	for label, want := range map[string]int64{"1": 705, "2": 1694, "3": -1} {
		x, ok, err := Input(m, target, label, read, note)
		if err != nil || !ok {
			t.Fatalf("moment %s: %v", label, err)
		}
		s := x.Dump.Scheduler
		switch {
		case want < 0 && s != nil:
			t.Errorf("moment %s: a scheduler %+v from a file that does not read", label, s)
		case want >= 0 && (s == nil || s.Queued != want):
			t.Errorf("moment %s: scheduler %+v, want queued %d", label, s, want)
		}
		if len(x.Aux) != 0 {
			t.Errorf("moment %s: the scheduler read as an encoding of the dump: %d aux", label, len(x.Aux))
		}
		skipped := ""
		for _, sk := range x.Dump.Skipped {
			skipped += sk.Reason + " " + sk.Text + "\n"
		}
		if wantSkip := label == "2"; strings.Contains(skipped, "-vthread-scheduler.txt line 3: virtual-thread scheduler: a line after the scheduler's not read Something new: 7") != wantSkip {
			t.Errorf("moment %s: skipped %q", label, skipped)
		}
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "__3-vthread-scheduler.txt") || !strings.Contains(notes[0], "kept out of the analysis") {
		t.Errorf("notes %q: want the unreadable scheduler file said once", notes)
	}
}
