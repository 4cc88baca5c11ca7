package capture

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// A folder holding a capture is refused unless appending; appending keeps
// every moment and file, gives the new load moments labels of their own,
// and keeps the earlier run's schedule and load.
func TestAppendAndRefuse(t *testing.T) {
	t.Parallel()
	text := writeProfile(t, 2)
	dir := filepath.Join(t.TempDir(), "out")
	plan := Plan{
		Targets: []Target{ExecTarget("x", "cat "+text)},
		Load:    "echo first", Every: time.Hour, After: -1, OutDir: dir,
	}
	m1, _, err := run(t, context.Background(), plan, nil)
	if err != nil {
		t.Fatalf("first run: %v", err)
	}
	manifest := readFile(t, dir, ManifestName)

	_, err = Run(context.Background(), plan, nil)
	oe, ok := errors.AsType[*OutDirError](err)
	if _, isPlan := errors.AsType[*PlanError](err); !ok || !isPlan || oe.Capture == nil || len(oe.Capture.Moments) != 2 {
		t.Fatalf("second run without Append: %v, want a *PlanError with an *OutDirError naming the capture", err)
	}
	if !strings.Contains(err.Error(), "already holds a capture (2 moments, started ") {
		t.Errorf("error %q", err)
	}
	if got := readFile(t, dir, ManifestName); got != manifest {
		t.Error("the refused run rewrote the manifest")
	}

	plan.Append, plan.Load = true, "echo second"
	m2, _, err := run(t, context.Background(), plan, nil)
	if err != nil {
		t.Fatalf("appended run: %v", err)
	}
	checkOutDir(t, dir, m2)
	if got, want := labels(m2), []string{"before", "after", "run2-before", "run2-after"}; !slices.Equal(got, want) {
		t.Errorf("labels %v, want %v", got, want)
	}
	for i, mo := range m2.Moments {
		if mo.Index != i || mo.Run != i/2 {
			t.Errorf("moment %+v: want index %d, run %d", mo, i, i/2)
		}
	}
	if len(m2.Files) != 2*len(m1.Files) || len(m2.Targets) != 1 || len(m2.Dumps("x")) != 4 {
		t.Errorf("files %d (first run %d), targets %d, dumps %d: want every file kept, one target, 4 dumps",
			len(m2.Files), len(m1.Files), len(m2.Targets), len(m2.Dumps("x")))
	}
	if len(m2.PreviousRuns) != 1 || m2.PreviousRuns[0].Load.OutputTail != "first\n" || m2.Load.OutputTail != "second\n" ||
		!m2.PreviousRuns[0].Started.Equal(m1.Started) {
		t.Errorf("previous runs %+v, load %+v", m2.PreviousRuns, m2.Load)
	}

	// Another process under the same name gets a name of its own.
	plan.Targets, plan.Load = []Target{ExecTarget("x", "cat "+text+" # another")}, ""
	plan.Count = 1
	m3, _, err := run(t, context.Background(), plan, nil)
	if err != nil {
		t.Fatalf("third run: %v", err)
	}
	if len(m3.Targets) != 2 || m3.Targets[1].Name != "x-2" || len(m3.Dumps("x-2")) != 1 || m3.Moments[4].Label != "1" {
		t.Errorf("targets %+v, moments %v", m3.Targets, labels(m3))
	}
}

func TestOutDirRefusals(t *testing.T) {
	t.Parallel()
	text := writeProfile(t, 2)
	tests := []struct {
		name  string
		setup func(dir string)
		want  string // "" to be accepted
	}{
		{"missing", func(dir string) { os.Remove(dir) }, ""},
		{"empty", func(string) {}, ""},
		{"only dotfiles", func(dir string) { os.WriteFile(filepath.Join(dir, ".gitkeep"), nil, 0o644) }, ""},
		{"other files", func(dir string) { os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644) }, "is not empty (1 entry) and holds no capture"},
		{"newer manifest", func(dir string) { os.WriteFile(filepath.Join(dir, ManifestName), []byte(`{"version": 9}`), 0o644) }, "cannot be continued: reading"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			tt.setup(dir)
			_, err := Run(context.Background(), Plan{Targets: []Target{ExecTarget("x", "cat "+text)}, Count: 1, OutDir: dir, Append: true}, nil)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("Run: %v, want accepted", err)
			case tt.want != "":
				checkErr(t, err, tt.want)
				if _, ok := errors.AsType[*OutDirError](err); !ok {
					t.Errorf("%v is not an *OutDirError", err)
				}
			}
		})
	}
}

// A file is never overwritten, even one the manifest does not list.
func TestCommitNeverOverwrites(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("mine"), 0o644)
	af, err := createAtomic(dir, 100)
	if err != nil {
		t.Fatal(err)
	}
	af.Write([]byte("dump"))
	checkErr(t, af.commit("a.txt"), "a.txt: already exists: not overwritten")
	if got := readFile(t, dir, "a.txt"); got != "mine" {
		t.Errorf("a.txt = %q", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d entries left, want only a.txt", len(entries))
	}
}

// The load's output reaches progress line by line as it runs, scrubbed,
// a progress bar redrawn with \r as last drawn.
func TestLoadOutputLines(t *testing.T) {
	t.Parallel()
	text := writeProfile(t, 2)
	var got []string
	_, out, err := run(t, context.Background(), Plan{
		Targets: []Target{ExecTarget("x", "cat "+text)},
		Load:    `printf 'Running 1s test\n'; printf '10%%\r50%%\r100%%\n' >&2; echo token=sekrit-123; printf 'no newline'`,
		Every:   time.Hour, After: -1, Headers: map[string][]string{"X-Token": {"sekrit-123"}},
	}, func(e Event) {
		if e.Kind == EventLoadOutput {
			got = append(got, e.Line)
		}
	})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if want := []string{"Running 1s test", "100%", "token=REDACTED", "no newline"}; !slices.Equal(got, want) {
		t.Errorf("lines %q, want %q", got, want)
	}
	if !strings.Contains(out, " load| Running 1s test\n") {
		t.Errorf("progress lacks the prefixed line:\n%s", out)
	}
}
