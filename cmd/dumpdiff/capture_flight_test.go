package main

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/capture"
	"github.com/dumpdiff/dumpdiff/handler"
)

// TestCaptureFlight: a target serving package handler's flight recorder
// (here a snapshot recorded by testdata/gen/gotrace, served as the endpoint
// would) gives each captured moment the seconds before it: the manifest
// holds the snapshot beside the moment and says the target serves it, and
// the folder analyzes as the snapshot's moments, labelled by how long
// before the moment they are, then the moment itself. A target without the
// endpoint (404) is asked once and recorded as absent.
func TestCaptureFlight(t *testing.T) {
	snap, _ := filepath.Abs("../../testdata/gotrace/mutex-go1.26/flight.trace")
	mux := http.NewServeMux()
	mux.Handle("/debug/pprof/", http.DefaultServeMux)
	mux.HandleFunc(handler.FlightPath, func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, snap) })
	srv := httptest.NewServer(mux)
	defer srv.Close()

	out := filepath.Join(t.TempDir(), "dumps")
	if code, _, errs := runArgs(t, "capture", srv.URL, "--count", "1", "--out", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	m, err := capture.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	traces := 0
	for _, f := range m.Files {
		if f.Kind == capture.FileGoroutineTrace && f.OK() && !f.Primary {
			traces++
		}
	}
	if traces != 1 || m.Targets[0].Flight != "served" {
		t.Fatalf("%d flight snapshots beside the moment, target flight %q; want 1, served", traces, m.Targets[0].Flight)
	}
	doc := jsonReport(t, out)
	var labels []string
	for _, mo := range doc.Moments {
		labels = append(labels, mo.Label)
	}
	if len(labels) != 6 || !strings.HasPrefix(labels[0], "1 −") || labels[5] != "1" {
		t.Errorf("moments %q: want the snapshot's 5 before the moment's dump, then the dump", labels)
	}

	plain := httptest.NewServer(http.DefaultServeMux)
	defer plain.Close()
	out = filepath.Join(t.TempDir(), "plain")
	if code, _, errs := runArgs(t, "capture", plain.URL, "--count", "2", "--every", "10ms", "--out", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if m, err = capture.ReadManifest(out); err != nil {
		t.Fatal(err)
	}
	for _, f := range m.Files {
		if f.Kind == capture.FileGoroutineTrace {
			t.Errorf("a flight snapshot recorded from a target that has none: %+v", f)
		}
	}
	if m.Targets[0].Flight != "absent" {
		t.Errorf("target flight %q, want absent", m.Targets[0].Flight)
	}
}
