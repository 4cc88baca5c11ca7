package main

import (
	"math"
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

// TestLoadGC checks the collector's settings while loading: off under a
// memory limit of loadLimitFactor times the input (a gzip file counted
// gzipRatio times, a folder's files counted) or loadLimitFloor; GOGC=400
// for an input of unknown size; the settings before it back after; a
// GOGC the user set left alone.
func TestLoadGC(t *testing.T) {
	t.Setenv("GOGC", "")
	os.Unsetenv("GOGC")
	t.Setenv("GOMEMLIMIT", "")
	os.Unsetenv("GOMEMLIMIT")
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	beforeLimit := debug.SetMemoryLimit(math.MaxInt64)
	defer debug.SetMemoryLimit(beforeLimit)
	dir := t.TempDir()
	big := filepath.Join(dir, "big.txt")
	if err := os.WriteFile(big, make([]byte, 300<<20/1024), 0o644); err != nil { // 300 KiB
		t.Fatal(err)
	}
	// A sparse file of 400 MiB: its size, not its bytes, is what counts.
	huge := filepath.Join(dir, "huge.txt")
	if f, err := os.Create(huge); err != nil || f.Truncate(400<<20) != nil || f.Close() != nil {
		t.Fatal("making a sparse file")
	}
	sub := filepath.Join(dir, "capture", "target")
	os.MkdirAll(sub, 0o755)
	os.WriteFile(filepath.Join(sub, "m1.txt.gz"), append([]byte{0x1f, 0x8b}, make([]byte, 1<<20-2)...), 0o644)
	// A folder of links to the dumps, and a link to that folder: counted
	// as the files they lead to (the loader follows them).
	links := filepath.Join(dir, "links")
	os.Mkdir(links, 0o755)
	if os.Symlink(huge, filepath.Join(links, "a.txt")) != nil || os.Symlink(big, filepath.Join(links, "b.txt")) != nil ||
		os.Symlink(links, filepath.Join(dir, "linked")) != nil {
		t.Fatal("making links")
	}
	for _, c := range []struct {
		args  []string
		limit int64
	}{
		{[]string{big}, loadLimitFloor},
		{[]string{huge, big}, loadLimitFactor * (400<<20 + 300<<10)},
		{[]string{filepath.Join(dir, "capture")}, loadLimitFloor},
		{[]string{filepath.Join(dir, "capture"), huge}, loadLimitFactor * (400<<20 + gzipRatio<<20)},
		{[]string{filepath.Join(dir, "links")}, loadLimitFactor * (400<<20 + 300<<10)},
		{[]string{filepath.Join(dir, "linked")}, loadLimitFactor * (400<<20 + 300<<10)},
	} {
		restore := loadGC(c.args)
		if got := debug.SetGCPercent(-1); got != -1 {
			t.Errorf("%v: GC percent %d while loading, want -1 (off)", c.args, got)
		}
		if got := debug.SetMemoryLimit(-1); got != c.limit {
			t.Errorf("%v: memory limit %d while loading, want %d", c.args, got, c.limit)
		}
		restore()
		if got := debug.SetGCPercent(100); got != 100 {
			t.Errorf("%v: GC percent %d after loading, want 100 back", c.args, got)
		}
		if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
			t.Errorf("%v: memory limit %d after loading, want none back", c.args, got)
		}
	}
	restore := loadGC([]string{big, "-"})
	if got := debug.SetGCPercent(loadGCPercent); got != loadGCPercent {
		t.Errorf("standard input: GC percent %d while loading, want %d", got, loadGCPercent)
	}
	restore()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("after loading standard input: GC percent %d, want 100 back", got)
	}
	t.Setenv("GOGC", "50")
	debug.SetGCPercent(50)
	restore = loadGC([]string{big})
	if got := debug.SetGCPercent(50); got != 50 {
		t.Errorf("with GOGC=50 set: GC percent %d while loading, want 50 kept", got)
	}
	restore()
}
