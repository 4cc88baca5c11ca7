package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/capture"
)

// A capture whose dump the runtime cut (a debug=2 body of pprof's 64 MiB
// cap, kept partial) is counted from the complete encoding beside it: the
// real go-slow-upstream-leak "after" moment, its text cut in half, counts
// the proto's 904 goroutines, and the report says why. A moment whose full
// dump failed counts its debug=1 instead.
func TestManifestCountsFromCompleteEncoding(t *testing.T) {
	dir := t.TempDir()
	cp := func(from, to string, cut bool) int64 {
		b, err := os.ReadFile(filepath.Join(goScenario, from))
		if err != nil {
			t.Fatal(err)
		}
		if cut {
			b = b[:len(b)/2]
		}
		if err := os.WriteFile(filepath.Join(dir, to), b, 0o644); err != nil {
			t.Fatal(err)
		}
		return int64(len(b))
	}
	now := time.Date(2026, 11, 29, 18, 3, 49, 0, time.UTC)
	m := capture.Manifest{Version: capture.ManifestVersion, Started: now,
		Targets: []capture.TargetRecord{{Name: "api", Kind: capture.KindPprof, Source: "http://127.0.0.1:6060/debug/pprof"}},
		Moments: []capture.Moment{{Label: "during", Index: 0, Started: now}, {Label: "after", Index: 1, Started: now}},
		Files: []capture.File{
			{Target: "api", Moment: "during", Kind: capture.FileGoroutineDebug1, Path: "api__during-debug1.txt", Size: cp("during-2-debug1.txt", "api__during-debug1.txt", false), Started: now},
			{Target: "api", Moment: "during", Kind: capture.FileGoroutine, Primary: true, Started: now,
				Error: "api at during: goroutine debug=2: GET http://127.0.0.1:6060/debug/pprof/goroutine?debug=2: no complete answer within 10s (per-request timeout)"},
			{Target: "api", Moment: "after", Kind: capture.FileGoroutineDebug1, Path: "api__after-debug1.txt", Size: cp("after-debug1.txt", "api__after-debug1.txt", false), Started: now},
			{Target: "api", Moment: "after", Kind: capture.FileGoroutine, Primary: true, Path: "api__after.txt", Size: cp("after.txt", "api__after.txt", true),
				Started: now, Partial: true, Goroutines: 450, Warning: "cut by the runtime's 64 MiB limit: 450 of 904 goroutines"},
			{Target: "api", Moment: "after", Kind: capture.FileGoroutineProto, Path: "api__after.pb.gz", Size: cp("after.pb.gz", "api__after.pb.gz", false), Started: now},
		}}
	b, _ := json.Marshal(m)
	if err := os.WriteFile(filepath.Join(dir, capture.ManifestName), b, 0o644); err != nil {
		t.Fatal(err)
	}
	doc := jsonReport(t, dir)
	if len(doc.Moments) != 2 || doc.Moments[0].Threads != 630 || doc.Moments[1].Threads != 904 {
		t.Fatalf("moments %+v, want during 630 (debug=1) and after 904 (the proto)", doc.Moments)
	}
	code, text, errs := runArgs(t, dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	text = strings.Join(strings.Fields(text), " ") // the report wraps its warnings
	for _, want := range []string{
		"api__after.txt cut by the runtime's 64 MiB limit: 450 of 904 goroutines; counts from api__after.pb.gz (complete)",
		"the full dump failed (api at during: goroutine debug=2: ", "counts from api__during-debug1.txt",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q:\n%s", want, text)
		}
	}
}
