package watch

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/capture"
	"github.com/dumpdiff/dumpdiff/parse"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestBundleReadsAsRing: the moments of an incident bundle, written from
// the ring and read back by a watch started again (resumeIncident), are
// the ring's moments as the ring read them: the same record, files, bytes
// and parsed dumps (one reader, readMoment, for both; only the moment's
// index is the bundle's own, and the files' path on disk the bundle's).
// The ring is a real Recorder's, its target a command printing the Java
// service's real dumps (testdata/libs/jvm-saturated-recovers: healthy,
// then stuck, which opens an incident), with the moments taken by hand on
// an injected clock: no timer.
func TestBundleReadsAsRing(t *testing.T) {
	dir := t.TempDir()
	src := absPath(t, "../testdata/libs/jvm-saturated-recovers")
	counter := filepath.Join(t.TempDir(), "n")
	script := `n=$(cat ` + counter + ` 2>/dev/null || echo 0); n=$((n+1)); echo $n > ` + counter + `; cat ` + src + `/$n.txt`
	rec, err := capture.NewRecorder(capture.Plan{Targets: []capture.Target{capture.ExecTarget("cmd", script)}, OutDir: filepath.Join(dir, "cmd"), Every: 15 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close(nil)
	log := &logBuf{}
	clock := time.Date(2026, 12, 6, 5, 0, 0, 0, time.UTC)
	cfg := Config{Dir: dir, Every: 15 * time.Second, Log: log, MinFree: -1, Alert: analyze.Critical, IncidentMax: 40, now: func() time.Time { return clock }}
	cfg.defaults()
	w := &watcher{cfg: cfg, metrics: newMetrics(Build{}), sem: make(chan struct{}, 1)}
	tw := &target{w: w, name: "cmd", rec: rec, ring: newRing(rec, 40, 1<<30, cfg.Analysis)}
	ctx := context.Background()
	for range 3 {
		clock = clock.Add(15 * time.Second)
		l := label(clock, cfg.Every)
		if _, err := rec.Take(ctx, l, clock); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.ring.add(l); err != nil {
			t.Fatalf("moment %s: %v", l, err)
		}
		tw.incidents(ctx, tw.ring.analyze(), l, nil)
	}
	if tw.incident == nil {
		t.Fatalf("no incident opened on the stuck moments; log:\n%s", log)
	}
	tw.stop() // as at watch's stop: the bundle left open
	ringMoments := tw.ring.snapshot()
	if len(tw.incident.moments) != 3 || len(ringMoments) != 3 {
		t.Fatalf("%d moments in the bundle, %d in the ring, want 3", len(tw.incident.moments), len(ringMoments))
	}

	again := &target{w: w, name: "cmd", rec: rec, ring: newRing(rec, 40, 1<<30, cfg.Analysis)}
	again.resumeIncident()
	if again.incident == nil {
		t.Fatalf("the bundle was not continued; log:\n%s", log)
	}
	got := again.incident.moments
	if len(got) != len(ringMoments) {
		t.Fatalf("read back %d moments, the ring had %d", len(got), len(ringMoments))
	}
	for i := range got {
		want := ringMoments[i]
		if got[i].moment.Index != i {
			t.Errorf("moment %s: index %d in the bundle, want %d", want.label, got[i].moment.Index, i)
		}
		want.moment.Index = got[i].moment.Index
		if diff := cmp.Diff(want, got[i], cmp.AllowUnexported(ringMoment{}), cmpopts.IgnoreUnexported(parse.Dump{}, parse.Thread{}),
			cmpopts.IgnoreFields(parse.Source{}, "File")); diff != "" {
			t.Errorf("moment %s read back from the bundle (-ring +bundle):\n%s", want.label, diff)
		}
		if got[i].input.Dump == nil || got[i].input.Dump.Source.File != filepath.Join(again.incident.dir, got[i].files[0].Path) {
			t.Errorf("moment %s not read from the bundle: %+v", want.label, got[i].input.Dump)
		}
	}
	if want := tw.verdict; !cmp.Equal(again.verdict, want, cmp.AllowUnexported(verdictState{}, story{})) {
		t.Errorf("state continued %+v, want %+v", again.verdict, want)
	}
}
