package capture

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/pprof"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/handler"
	"github.com/dumpdiff/dumpdiff/internal/testwait"
)

func TestPprofWalks(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		size  int64
		walks int
	}{{0, 1}, {1<<20 - 1, 1}, {1 << 20, 2}, {3 << 20, 3}, {9 << 20, 5}, {63 << 20, 7}, {64 << 20, 7}, {900 << 20, 7}} {
		if got := pprofWalks(tt.size); got != tt.walks {
			t.Errorf("pprofWalks(%d MiB) = %d, want %d", tt.size>>20, got, tt.walks)
		}
	}
	// 100k goroutines, a 90 MB dump: pprof walks them 7 times.
	g := &goSide{}
	if got := g.estimate(debug1Shape{total: 100000}, pprofWalks(90<<20)); got != 7*100000*stopPerGoroutine {
		t.Errorf("estimate = %v", got)
	}
}

// The debug=1 shape estimates the debug=2 size of the same goroutines:
// within a third, on this process's real profiles (fine for counting
// pprof's walks, which double). Not parallel: both profiles must see the
// same goroutines.
func TestShapeDebug1(t *testing.T) {
	p := startParked(200, parkedForShape)
	defer p.stopAndWait()
	var debug1 string
	var b []byte
	testwait.Eventually(t, 30*time.Second, func() error { // until the 200 are parked, not merely started
		debug1 = writeProfile(t, 1)
		if b, _ = os.ReadFile(debug1); bytes.Contains(b, []byte("200 @ ")) && bytes.Contains(b, []byte("parkedForShape")) {
			return nil
		}
		return errors.New("the 200 goroutines are not parked in parkedForShape")
	})
	debug2 := writeProfile(t, 2)
	var total int
	fmt.Sscanf(string(b), "goroutine profile: total %d", &total)
	sh, err := shapeDebug1(debug1, total)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(debug2)
	if ratio := float64(sh.bytes) / float64(st.Size()); ratio < 0.67 || ratio > 1.5 || sh.total < 200 || sh.frames < 3*200 {
		t.Errorf("shape %+v of a %d-byte debug=2 dump (ratio %.2f)", sh, st.Size(), ratio)
	}
}

func parkedForShape(p *parked) { p.wait() }

// Above the pause budget a moment takes debug=0 as its dump (with debug=1
// beside) and never asks for the full dump; the manifest and progress say
// why. No budget takes the full dump.
func TestPauseBudgetSwitch(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	asked := map[string]int{}
	s := newPprofServer(t, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			asked[r.URL.Path+"?"+r.URL.RawQuery]++
			mu.Unlock()
			next.ServeHTTP(w, r)
		})
	})
	dir := t.TempDir()
	m, out, err := run(t, context.Background(), Plan{
		Targets: []Target{PprofTarget("api", s.URL)}, Count: 2, Every: time.Millisecond, OutDir: dir,
		MaxPause: time.Nanosecond, // any real target is over it
	}, nil)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	checkOutDir(t, dir, m)
	dumps := m.Dumps("api")
	if len(dumps) != 2 {
		t.Fatalf("dumps %+v", m.Files)
	}
	for _, d := range dumps {
		if d.Kind != FileGoroutineProto || d.Path != "api__"+d.Moment+".pb.gz" || d.Goroutines == 0 ||
			!strings.HasPrefix(d.Note, fmt.Sprintf("over the pause budget: %d goroutines, a full dump would stop the target about ", d.Goroutines)) ||
			!strings.HasSuffix(d.Note, "> max-pause 1ns: took debug=0 and debug=1 instead") {
			t.Errorf("dump %+v: want the proto, with the budget's note", d)
		}
		if b := m.Beside("api", d.Moment); len(b) != 1 || b[0].Kind != FileGoroutineDebug1 {
			t.Errorf("beside %s: %+v, want the debug=1 profile", d.Moment, b)
		}
	}
	if m.MaxPause != "1ns" || !strings.Contains(out, "over the pause budget: ") {
		t.Errorf("manifest max_pause %q; progress:\n%s", m.MaxPause, out)
	}
	for path := range asked {
		if strings.Contains(path, "debug=2") || strings.Contains(path, HandlerPath) {
			t.Errorf("asked for %s over the budget", path)
		}
	}

	m, _, err = run(t, context.Background(), Plan{Targets: []Target{PprofTarget("api", s.URL)}, Count: 1, MaxPause: -1}, nil)
	if err != nil || len(m.Dumps("api")) != 1 || m.Dumps("api")[0].Kind != FileGoroutine || m.MaxPause != "none" {
		t.Errorf("no budget: %v, %+v", err, m.Files)
	}
}

// A debug=2 body of exactly the runtime's 64 MiB cap is kept as a partial
// dump, flagged with how much of the moment it holds (the true total from
// the debug=1 of the same moment), and the proto is taken beside it for the
// counts. The server serves this process's real profiles; the cut body is
// its real debug=2 text repeated to the cap (no test process holds the
// ~70k goroutines a real 64 MiB dump needs: bench/capture-cost.sh does).
func TestTruncatedDumpKept(t *testing.T) {
	t.Parallel()
	one := realDump(t)
	perDump := bytes.Count(one, []byte("\ngoroutine ")) + 1
	cut := bytes.Repeat(one, runtimeStackCap/len(one)+1)[:runtimeStackCap]
	copies := runtimeStackCap / len(one)
	total := (copies+1)*perDump + 1000 // more than the cut kept
	debug1 := fmt.Appendf(nil, "goroutine profile: total %d\n%d @ 0x1 0x2\n#\t0x1\tmain.main+0x1\t/src/main.go:1\n\n", total, total)
	s := newHandlerServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Query().Get("debug") == "1":
			w.Write(debug1)
		case r.URL.Query().Get("debug") == "0":
			pprof.Handler("goroutine").ServeHTTP(w, r)
		case r.URL.Path == "/debug/pprof/goroutine":
			w.Write(cut)
		default:
			http.NotFound(w, r)
		}
	})
	dir := t.TempDir()
	m, out, err := run(t, context.Background(), Plan{Targets: []Target{PprofTarget("big", s.URL)}, Count: 1, OutDir: dir, MaxPause: -1}, nil)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	checkOutDir(t, dir, m)
	d := m.Dumps("big")
	if len(d) != 1 || !d[0].Partial || d[0].Size != runtimeStackCap || d[0].Cost == nil || d[0].Cost.Passes != 7 {
		t.Fatalf("dumps %+v, want the cut dump kept, partial, after 7 walks", m.Files)
	}
	want := fmt.Sprintf("cut by the runtime's 64 MiB limit: %d of %d goroutines", d[0].Goroutines, total)
	if d[0].Warning != want || d[0].Goroutines < copies*perDump || !strings.Contains(out, "WARNING "+want) {
		t.Errorf("warning %q (%d goroutines), want %q", d[0].Warning, d[0].Goroutines, want)
	}
	var kinds []FileKind
	for _, f := range m.Beside("big", "1") {
		kinds = append(kinds, f.Kind)
	}
	if fmt.Sprint(kinds) != "[goroutine-debug1 goroutine-proto]" {
		t.Errorf("beside the cut dump: %v, want debug=1 and the proto", kinds)
	}
	if st, _ := os.Stat(filepath.Join(dir, d[0].Path)); st == nil || st.Size() != runtimeStackCap {
		t.Error("the cut dump is not on disk whole")
	}
}

// Package handler's answer is preferred when served (the real handler,
// mounted beside net/http/pprof as its README says): one walk, its measured
// stop in the manifest, no goroutineleak or debug=2 asked.
func TestHandlerPreferred(t *testing.T) {
	t.Parallel()
	if handler.Path != "/debug/pprof"+HandlerPath {
		t.Fatalf("handler.Path %q is not where capture looks: /debug/pprof%s", handler.Path, HandlerPath)
	}
	var mu sync.Mutex
	var asked []string
	h := handler.New()
	s := newPprofServer(t, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			asked = append(asked, r.URL.Path+"?"+r.URL.RawQuery)
			mu.Unlock()
			if r.URL.Path == handler.Path {
				h.ServeHTTP(w, r)
				return
			}
			next.ServeHTTP(w, r)
		})
	})
	dir := t.TempDir()
	m, _, err := run(t, context.Background(), Plan{Targets: []Target{PprofTarget("api", s.URL)}, Count: 2, Every: time.Millisecond, OutDir: dir}, nil)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	checkOutDir(t, dir, m)
	for _, d := range m.Dumps("api") {
		if d.Tool != "handler" || d.Goroutines == 0 || d.Cost == nil || d.Cost.PauseMS <= 0 || d.Cost.PauseSource != "handler" || d.Cost.Passes != 1 {
			t.Fatalf("dump %+v (cost %+v), want the handler's, its stop measured, one walk", d, d.Cost)
		}
		if text := readFile(t, dir, d.Path); !strings.HasPrefix(text, "goroutine ") || !strings.Contains(text, "handler.(*Handler).dump") {
			t.Errorf("%s is not the handler's dump: %.60q", d.Path, text)
		}
	}
	want := "/debug/pprof/goroutine?debug=1 " + handler.Path + "? /debug/pprof/goroutine?debug=1 " + handler.Path + "?"
	if m.Targets[0].Handler != "served" || strings.Join(asked, " ") != want {
		t.Errorf("handler %q, asked %v; want served, %s", m.Targets[0].Handler, asked, want)
	}
}
