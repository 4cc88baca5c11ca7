package tui

import (
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/parse"
)

// TestGroupOfGoroutineSample: a finding's sample names a goroutine as the
// analysis does ("goroutine 12"); the TUI finds its group and its thread
// by that name, and by a JVM thread's name.
func TestGroupOfGoroutineSample(t *testing.T) {
	text := "goroutine 12 [chan receive]:\nmain.worker()\n\t/src/main.go:20 +0x2a\ncreated by main.start in goroutine 1\n\t/src/main.go:30 +0x1f\n"
	ds, err := parse.Parse("g.txt", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	ix := newIndex(analyze.Analyze([]analyze.Input{{Dump: ds[0]}}, analyze.Options{}))
	for _, name := range []string{"goroutine 12", "12"} {
		if gi := ix.groupOfThread(0, name); gi == nil || gi.g.Pool != "main.start" {
			t.Errorf("groupOfThread(%q) = %v, want main.start's group", name, gi)
		}
		if th := ix.threadNamed(0, name); th == nil || th.ID != 12 {
			t.Errorf("threadNamed(%q) = %v, want goroutine 12", name, th)
		}
	}
	if gi := ix.groupOfThread(0, "goroutine 13"); gi != nil {
		t.Errorf("groupOfThread(goroutine 13) found a group for a goroutine not in the dump")
	}
}
