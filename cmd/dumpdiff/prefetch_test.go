package main

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestPrefetchGivesWhatParseFileGives: a background parse hands back the
// dumps a direct parse reads, for paths started ahead, paths never
// started, and a path asked for again; errors come back to the caller.
func TestPrefetchGivesWhatParseFileGives(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "scenarios", "slow-upstream-no-timeout")
	paths := []string{filepath.Join(dir, "before.txt"), filepath.Join(dir, "during-1.txt"), filepath.Join(dir, "after.txt")}
	missing := filepath.Join(t.TempDir(), "gone.txt")
	p := newPrefetch()
	p.start(append(paths, missing)...)
	for _, path := range append(paths, paths[0], filepath.Join(dir, "during-2.txt")) {
		want, err := parse.ParseFile(path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := p.get(path)
		if err != nil {
			t.Fatalf("get %s: %v", path, err)
		}
		if len(got) != len(want) || len(got[0].Threads) != len(want[0].Threads) || len(got[0].Threads) == 0 {
			t.Errorf("%s: prefetch read %d dumps, %d threads; ParseFile %d, %d", path, len(got), len(got[0].Threads), len(want), len(want[0].Threads))
		}
	}
	if _, err := p.get(missing); err == nil {
		t.Errorf("get %s: no error for a missing file", missing)
	}
}

// TestLoadGC checks that loading runs at loadGCPercent, that the percent
// before it comes back, and that a GOGC the user set is left alone.
func TestLoadGC(t *testing.T) {
	t.Setenv("GOGC", "")
	os.Unsetenv("GOGC")
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	restore := loadGC()
	if got := debug.SetGCPercent(loadGCPercent); got != loadGCPercent {
		t.Errorf("while loading: GC percent %d, want %d", got, loadGCPercent)
	}
	restore()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("after loading: GC percent %d, want 100 back", got)
	}
	t.Setenv("GOGC", "50")
	debug.SetGCPercent(50)
	restore = loadGC()
	if got := debug.SetGCPercent(50); got != 50 {
		t.Errorf("with GOGC=50 set: GC percent %d while loading, want 50 kept", got)
	}
	restore()
}
