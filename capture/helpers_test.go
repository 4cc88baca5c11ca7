package capture

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/pprof"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// newPprofServer is a real Go HTTP server on 127.0.0.1 serving this test
// process's net/http/pprof handlers, wrapped by wrap (nil: none).
func newPprofServer(t *testing.T, wrap func(http.Handler) http.Handler) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	var h http.Handler = mux
	if wrap != nil {
		h = wrap(h)
	}
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	return s
}

// newHandlerServer serves one handler for every path.
func newHandlerServer(t *testing.T, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	return s
}

// parked is a set of goroutines blocked in a named function, started and
// stopped between moments so dumps differ. Each test parks in its own
// function: goroutine dumps show the whole test process, parallel tests included.
type parked struct {
	wg   sync.WaitGroup
	stop chan struct{}
}

func startParked(n int, park func(*parked)) *parked {
	p := &parked{stop: make(chan struct{})}
	for range n {
		p.wg.Add(1)
		go park(p)
	}
	return p
}

// parkedBetweenMoments and parkedDuringLoad are the frames tests look for.
func parkedBetweenMoments(p *parked) { p.wait() }
func parkedDuringLoad(p *parked)     { p.wait() }

func (p *parked) wait() {
	defer p.wg.Done()
	<-p.stop
}

// stopAndWait returns once every goroutine has exited, so the next dump
// cannot show them.
func (p *parked) stopAndWait() {
	close(p.stop)
	p.wg.Wait()
}

// run is Run with a fresh out folder and recorded progress lines.
// testTimeout bounds each request or command of a test's plan that sets
// none. The product's DefaultTimeout (10 s) is for a live incident; a
// test's machine can be far slower: a real JVM's jcmd took 17.8 s to
// attach and Thread.dump_to_file timed out at 10 s during a fresh clone's
// make test beside another (load 35 on 2 cores). A test about the timeout
// sets its own; a hang still ends here.
const testTimeout = 3 * time.Minute

func run(t *testing.T, ctx context.Context, p Plan, on func(Event)) (*Manifest, string, error) {
	t.Helper()
	if p.OutDir == "" {
		p.OutDir = filepath.Join(t.TempDir(), "out")
	}
	if p.Timeout == 0 {
		p.Timeout = testTimeout
	}
	var lines bytes.Buffer
	lp := &LineProgress{W: &lines}
	m, err := Run(ctx, p, ProgressFunc(func(e Event) {
		lp.Event(e)
		if on != nil {
			on(e)
		}
	}))
	t.Logf("progress:\n%s", lines.String())
	return m, lines.String(), err
}

// checkOutDir verifies the folder holds exactly the manifest's files plus
// manifest.json (no temp files, nothing partial), and that the manifest on
// disk equals the one returned.
func checkOutDir(t *testing.T, dir string, m *Manifest) {
	t.Helper()
	want := map[string]bool{ManifestName: true}
	for _, f := range m.Files {
		if f.Path != "" {
			want[f.Path] = true
		}
		if f.Error != "" && (f.Path != "" || f.Size != 0) {
			t.Errorf("failed file keeps path %q size %d: %+v", f.Path, f.Size, f)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !want[e.Name()] {
			t.Errorf("unexpected file in out folder: %s", e.Name())
		}
		delete(want, e.Name())
	}
	for name := range want {
		t.Errorf("manifest lists %s, not in out folder", name)
	}
	onDisk, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(onDisk.Files) != len(m.Files) || len(onDisk.Moments) != len(m.Moments) || onDisk.Error != m.Error {
		t.Errorf("manifest on disk differs from returned: %d/%d files, %d/%d moments, error %q/%q",
			len(onDisk.Files), len(m.Files), len(onDisk.Moments), len(m.Moments), onDisk.Error, m.Error)
	}
}

func readFile(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func labels(m *Manifest) []string {
	var out []string
	for _, mo := range m.Moments {
		out = append(out, mo.Label)
	}
	return out
}

func filesOf(m *Manifest, target string, kind FileKind) []File {
	var out []File
	for _, f := range m.Files {
		if f.Target == target && f.Kind == kind {
			out = append(out, f)
		}
	}
	return out
}

func containsAll(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}
