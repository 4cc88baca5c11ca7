package watch

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/capture"
	"github.com/dumpdiff/dumpdiff/internal/testwait"
)

// logBuf is a Config.Log the test reads while watch writes it.
type logBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// count is how many lines hold s.
func (l *logBuf) count(s string) int {
	n := 0
	for _, line := range strings.Split(l.String(), "\n") {
		if strings.Contains(line, s) {
			n++
		}
	}
	return n
}

// running is one Run of watch in the test's process.
type running struct {
	cfg     Config
	log     *logBuf
	metrics string // base URL of the metrics server
	cancel  context.CancelFunc
	done    chan error
}

// start runs watch with cfg (Dir, Log and a metrics listener on
// 127.0.0.1 filled in when empty) until the test ends or stop is called.
func start(t *testing.T, cfg Config) *running {
	t.Helper()
	if cfg.Dir == "" {
		cfg.Dir = t.TempDir()
	}
	lb := &logBuf{}
	if cfg.Log == nil {
		cfg.Log = lb
	} else {
		cfg.Log = io.MultiWriter(cfg.Log, lb)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Listener = l
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{cfg: cfg, log: lb, metrics: "http://" + l.Addr().String(), cancel: cancel, done: make(chan error, 1)}
	go func() { r.done <- Run(ctx, cfg) }()
	t.Cleanup(func() { r.stop(t) })
	return r
}

// stop ends the run and returns Run's error; a run that does not stop
// within 20 s fails the test.
func (r *running) stop(t *testing.T) error {
	t.Helper()
	r.cancel()
	select {
	case err, ok := <-r.done:
		if ok {
			close(r.done)
		}
		return err
	case <-time.After(20 * time.Second):
		t.Fatalf("watch did not stop within 20 s; log:\n%s", r.log)
	}
	return nil
}

// waitLog waits until the log holds s n times.
func (r *running) waitLog(t *testing.T, s string, n int, within time.Duration) {
	t.Helper()
	testwait.Eventually(t, within, func() error {
		if got := r.log.count(s); got < n {
			return fmt.Errorf("%d× %q in the log, want %d; log:\n%s", got, s, n, r.log)
		}
		return nil
	})
}

// waitMoments waits until the ring of target holds at least n moments.
func (r *running) waitMoments(t *testing.T, target string, n int, within time.Duration) *capture.Manifest {
	t.Helper()
	var m *capture.Manifest
	testwait.Eventually(t, within, func() error {
		var err error
		m, err = capture.ReadManifest(filepath.Join(r.cfg.Dir, target))
		if err == nil && len(m.Moments) < n {
			err = fmt.Errorf("%d moments", len(m.Moments))
		}
		if err != nil {
			return fmt.Errorf("the ring of %s has not %d moments (%v); log:\n%s", target, n, err, r.log)
		}
		return nil
	})
	return m
}

// lastIndex is the index of the newest moment of target's ring.
func lastIndex(t *testing.T, r *running, target string) int {
	t.Helper()
	m := r.waitMoments(t, target, 1, 10*time.Second)
	return m.Moments[len(m.Moments)-1].Index
}

// waitIndex waits until target's ring has taken the moment of index i
// (moments counted since the ring began, evicted ones too).
func (r *running) waitIndex(t *testing.T, target string, i int, within time.Duration) {
	t.Helper()
	testwait.Eventually(t, within, func() error {
		m, err := capture.ReadManifest(filepath.Join(r.cfg.Dir, target))
		if err == nil && len(m.Moments) > 0 && m.Moments[len(m.Moments)-1].Index >= i {
			return nil
		}
		return fmt.Errorf("the ring of %s has not taken moment %d (%v); log:\n%s", target, i, err, r.log)
	})
}

// scrape reads the metrics page.
func (r *running) scrape(t *testing.T) string {
	t.Helper()
	resp, err := http.Get(r.metrics + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// waitMetric waits until the series has the value on the metrics page.
func (r *running) waitMetric(t *testing.T, series string, want float64, within time.Duration) {
	t.Helper()
	testwait.Eventually(t, within, func() error {
		if got := metricValue(r.scrape(t), series); got != want {
			return fmt.Errorf("%s is %v, not %v; log:\n%s", series, got, want, r.log)
		}
		return nil
	})
}

// pprofServer is a real net/http/pprof server of this test process on
// 127.0.0.1 (its goroutines are the test's).
func pprofServer(t *testing.T, l net.Listener) *http.Server {
	t.Helper()
	if l == nil {
		var err error
		if l, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
			t.Fatal(err)
		}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	srv := &http.Server{Handler: mux, Addr: l.Addr().String()}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return srv
}

// ringFiles are the names in a ring's folder.
func ringFiles(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}
