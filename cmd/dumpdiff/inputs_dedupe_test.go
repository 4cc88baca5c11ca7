package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const hikari = "../../testdata/scenarios/hikari-pool-exhausted"

// TestSameDumpTwice: the same file twice, or a folder and one of its
// files, is one moment with a warning, never two.
func TestSameDumpTwice(t *testing.T) {
	for _, tt := range []struct {
		name    string
		args    []string
		moments int
	}{
		{"file twice", []string{hikari + "/during-1.txt", hikari + "/during-1.txt"}, 1},
		{"file twice by two paths", []string{hikari + "/during-1.txt", hikari + "/../hikari-pool-exhausted/during-1.txt"}, 1},
		{"folder and one of its files", []string{hikari, hikari + "/during-2.txt"}, 4},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := runArgs(t, append([]string{"--format", "json"}, tt.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			if !strings.Contains(errs, "is given twice") || !strings.Contains(errs, "read once") {
				t.Errorf("no warning about the repeated dump:\n%s", errs)
			}
			if n := strings.Count(out, `"file":`); n != tt.moments {
				t.Errorf("%d moments, want %d", n, tt.moments)
			}
		})
	}
}

// TestFolderOfFolders: a folder that holds only folders says so, lists
// them and suggests one.
func TestFolderOfFolders(t *testing.T) {
	dir := t.TempDir()
	for _, sub := range []string{"api-1", "api-2"} {
		os.MkdirAll(filepath.Join(dir, sub), 0o755)
		data, _ := os.ReadFile(hikari + "/during-1.txt")
		os.WriteFile(filepath.Join(dir, sub, "during-1.txt"), data, 0o644)
	}
	code, _, errs := runArgs(t, dir)
	if code == 0 {
		t.Fatal("a folder of folders was accepted")
	}
	for _, want := range []string{"holds only folders", filepath.Join(dir, "api-1"), filepath.Join(dir, "api-2"), "give one of them, e.g. dumpdiff " + filepath.Join(dir, "api-1")} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
}

// TestLoadNotesAreValues: what loading says comes back as values (the TUI
// shows them as warnings of its analysis; the main command prints them).
func TestLoadNotesAreValues(t *testing.T) {
	af := analysisFlags{order: "args"}
	rs, notes, err := af.analyze([]string{hikari + "/during-1.txt", hikari + "/during-1.txt"})
	if err != nil || len(rs) != 1 {
		t.Fatalf("%d analyses, %v", len(rs), err)
	}
	if len(notes) != 1 || !strings.HasPrefix(notes[0], "warning: ") || !strings.Contains(notes[0], "is given twice") {
		t.Errorf("notes = %q", notes)
	}
}
