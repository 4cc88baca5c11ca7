package capture

import (
	"context"
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
	// Beside each dump: the debug=1 profile asked first (the count, the
	// labels). Under the pause budget no proto is taken: it would add
	// nothing the text and debug=1 lack.
	counts := filesOf(m, "api", FileGoroutineDebug1)
	if len(counts) != 3 || len(filesOf(m, "api", FileGoroutineProto)) != 0 {
		t.Fatalf("%d debug=1 files and %d protos, want 3 and none: %+v", len(counts), len(filesOf(m, "api", FileGoroutineProto)), m.Files)
	}
	for i, f := range counts {
		text := readFile(t, dir, f.Path)
		if f.Primary || !strings.HasSuffix(f.Path, "-debug1.txt") || f.Goroutines == 0 ||
			!strings.HasPrefix(text, "goroutine profile: total "+strconv.Itoa(f.Goroutines)+"\n") {
			t.Errorf("debug=1 file %+v: want beside, -debug1.txt, its total recorded; starts %.40q", f, text)
		}
		if d := dumps[i]; d.Cost == nil || d.Cost.Goroutines != f.Goroutines || d.Cost.Passes < 1 || d.Cost.EstimatedPauseMS <= 0 {
			t.Errorf("dump %s cost %+v, want the estimate from %d goroutines", d.Path, d.Cost, f.Goroutines)
		}
	}
	// Before Go 1.27 pprof has no goroutineleak profile: 404, absent, not an
	// error. From 1.27 goroutineleak?debug=2 is the dump itself (the same
	// text with leaked goroutines marked), fetched instead of goroutine?debug=2.
	wantLeak, wantTool := "absent", "goroutine?debug=2"
	if rpprof.Lookup("goroutineleak") != nil {
		wantLeak, wantTool = "served", "goroutineleak?debug=2"
	}
	if got := m.Targets[0].GoroutineLeak; got != wantLeak || m.Targets[0].Handler != "absent" {
		t.Errorf("goroutineleak = %q, handler %q, want %s and absent with %s", got, m.Targets[0].Handler, wantLeak, runtime.Version())
	}
	for _, d := range dumps {
		if d.Tool != wantTool {
			t.Errorf("dump %s via %q, want %s", d.Path, d.Tool, wantTool)
		}
	}
	if m.Failed() != 0 {
		t.Errorf("%d failures, want none", m.Failed())
	}
	if !containsAll(out, "next 2 at", "ok   api 1 goroutine api__1.txt", "done: 3 moments, 6 files, 0 failed") {
		t.Errorf("progress lines miss next/ok/done lines:\n%s", out)
	}
}

// A server that serves goroutineleak (as Go 1.27 does) gives the moment's
// dump from goroutineleak?debug=2 (the full dump with leaked goroutines
// marked), fetched once instead of goroutine?debug=2 and then the same
// dump again. The handler is the real goroutine profile, served at the
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
	dumps := m.Dumps(name)
	if len(dumps) != 2 {
		t.Fatalf("%d dumps, want 2: %+v", len(dumps), m.Files)
	}
	for _, f := range dumps {
		if f.Tool != "goroutineleak?debug=2" || f.Path != name+"__"+f.Moment+".txt" {
			t.Errorf("dump %+v, want %s__N.txt via goroutineleak?debug=2", f, name)
		}
		if text := readFile(t, dir, f.Path); !strings.HasPrefix(text, "goroutine ") {
			t.Errorf("%s starts %q", f.Path, text[:min(40, len(text))])
		}
	}
	if n := len(filesOf(m, name, FileGoroutineLeak)) + len(filesOf(m, name, FileGoroutineProto)); n != 0 {
		t.Errorf("%d files beside the dumps besides debug=1, want none: %+v", n, m.Files)
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
	if _, err := os.Stat(filepath.Join(dir, "svc-2__2-debug1.txt")); err != nil {
		t.Error(err)
	}
}
