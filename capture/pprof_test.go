package capture

import (
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"net/http/pprof"
	"os"
	"path/filepath"
	"runtime"
	rpprof "runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// A fixed schedule against a real pprof server whose goroutines change
// between moments: the dumps must show the change.
func TestPprofFixedSchedule(t *testing.T) {
	t.Parallel()
	s := newPprofServer(t, nil)
	dir := filepath.Join(t.TempDir(), "new", "out") // created by Run
	var p *parked
	m, out, err := run(t, context.Background(), Plan{
		Targets: []Target{PprofTarget("api", s.URL)},
		Count:   3,
		Every:   5e6, // 5ms
		OutDir:  dir,
	}, func(e Event) {
		if e.Kind != EventNext {
			return
		}
		switch e.Moment {
		case "2":
			p = startParked(3, parkedBetweenMoments)
		case "3":
			p.stopAndWait()
		}
	})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	checkOutDir(t, dir, m)
	if got, want := labels(m), []string{"1", "2", "3"}; !slices.Equal(got, want) {
		t.Fatalf("labels = %v, want %v", got, want)
	}
	dumps := m.Dumps("api")
	if len(dumps) != 3 {
		t.Fatalf("Dumps(api) = %d files, want 3: %+v", len(dumps), m.Files)
	}
	for i, wantParked := range []int{0, 3, 0} {
		text := readFile(t, dir, dumps[i].Path)
		if got := strings.Count(text, "capture.parkedBetweenMoments("); got != wantParked {
			t.Errorf("moment %s: %d goroutines parked, want %d", dumps[i].Moment, got, wantParked)
		}
		if !strings.HasPrefix(text, "goroutine ") {
			t.Errorf("moment %s: dump starts %q", dumps[i].Moment, text[:min(len(text), 40)])
		}
	}
	protos := filesOf(m, "api", FileGoroutineProto)
	if len(protos) != 3 {
		t.Fatalf("%d proto files, want 3", len(protos))
	}
	for _, f := range protos {
		if f.Primary || !strings.HasSuffix(f.Path, ".pb.gz") {
			t.Errorf("proto file %+v: want beside (not primary), .pb.gz", f)
		}
		zr, err := gzip.NewReader(strings.NewReader(readFile(t, dir, f.Path)))
		if err != nil {
			t.Fatal(err)
		}
		if b, err := io.ReadAll(zr); err != nil || len(b) == 0 {
			t.Errorf("%s: %d bytes, %v", f.Path, len(b), err)
		}
	}
	// Before Go 1.27 pprof has no goroutineleak profile: 404, absent, not an
	// error. From 1.27 it is served beside each dump.
	wantLeak, wantLeakFiles := "absent", 0
	if rpprof.Lookup("goroutineleak") != nil {
		wantLeak, wantLeakFiles = "served", 3
	}
	if got := m.Targets[0].GoroutineLeak; got != wantLeak {
		t.Errorf("goroutineleak = %q, want %s with %s", got, wantLeak, runtime.Version())
	}
	if n := len(filesOf(m, "api", FileGoroutineLeak)); n != wantLeakFiles || m.Failed() != 0 {
		t.Errorf("%d leak files and %d failures, want %d and none", n, m.Failed(), wantLeakFiles)
	}
	if !containsAll(out, "next 2 at", "ok   api 1 goroutine api__1.txt", "done: 3 moments, "+strconv.Itoa(6+wantLeakFiles)+" files, 0 failed") {
		t.Errorf("progress lines miss next/ok/done lines:\n%s", out)
	}
}

// A server that serves goroutineleak (as Go 1.27 does) gets a -leak.txt
// beside each dump. The handler is the real goroutine profile, served at the
// leak path, so the bytes are a real runtime's.
func TestPprofGoroutineLeakServed(t *testing.T) {
	t.Parallel()
	s := newPprofServer(t, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/debug/pprof/goroutineleak" {
				pprof.Handler("goroutine").ServeHTTP(w, r)
				return
			}
			next.ServeHTTP(w, r)
		})
	})
	dir := t.TempDir()
	// The goroutine URL form of the target, with a query to drop.
	m, _, err := run(t, context.Background(), Plan{
		Targets: []Target{PprofTarget("", s.URL+"/debug/pprof/goroutine?debug=1")},
		Count:   2, Every: 1e6, OutDir: dir,
	}, nil)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	checkOutDir(t, dir, m)
	name := m.Targets[0].Name
	if !strings.HasPrefix(name, "127.0.0.1_") {
		t.Errorf("derived name %q, want host_port", name)
	}
	if m.Targets[0].GoroutineLeak != "served" {
		t.Errorf("goroutineleak = %q, want served", m.Targets[0].GoroutineLeak)
	}
	leaks := filesOf(m, name, FileGoroutineLeak)
	if len(leaks) != 2 {
		t.Fatalf("%d leak files, want 2: %+v", len(leaks), m.Files)
	}
	for _, f := range leaks {
		if !strings.HasSuffix(f.Path, "-leak.txt") || f.Primary {
			t.Errorf("leak file %+v", f)
		}
		if text := readFile(t, dir, f.Path); !strings.HasPrefix(text, "goroutine ") {
			t.Errorf("%s starts %q", f.Path, text[:min(40, len(text))])
		}
	}
}

// Several targets are taken at the same moments.
func TestPprofSeveralTargets(t *testing.T) {
	t.Parallel()
	a, b := newPprofServer(t, nil), newPprofServer(t, nil)
	dir := t.TempDir()
	m, _, err := run(t, context.Background(), Plan{
		Targets: []Target{PprofTarget("svc", a.URL), PprofTarget("svc", b.URL+"/debug/pprof/")},
		Count:   2, Every: 1e6, OutDir: dir,
	}, nil)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	checkOutDir(t, dir, m)
	if m.Targets[0].Name != "svc" || m.Targets[1].Name != "svc-2" {
		t.Errorf("names %q %q, want svc svc-2", m.Targets[0].Name, m.Targets[1].Name)
	}
	for _, name := range []string{"svc", "svc-2"} {
		var got []string
		for _, f := range m.Dumps(name) {
			got = append(got, f.Moment)
		}
		if !slices.Equal(got, []string{"1", "2"}) {
			t.Errorf("%s dumps at %v, want [1 2]", name, got)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "svc-2__2.pb.gz")); err != nil {
		t.Error(err)
	}
}
