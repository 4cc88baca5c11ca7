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

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/capture"
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
	ticks   *tickLog
	metrics string // base URL of the metrics server
	cancel  context.CancelFunc
	done    chan error
}

// tickLog holds what every tick did (Config.tick), for tests that wait
// for a tick, not for time.
type tickLog struct {
	lean bool // results not kept (a test that measures the heap)
	mu   sync.Mutex
	all  []tickReport
	next chan struct{} // closed at the next report
}

func newTickLog() *tickLog { return &tickLog{next: make(chan struct{})} }

// add is Config.tick: called by each target's loop.
func (k *tickLog) add(rep tickReport) {
	if k.lean {
		rep.result = nil
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	k.all = append(k.all, rep)
	close(k.next)
	k.next = make(chan struct{})
}

// of are the reports so far of target ("" all).
func (k *tickLog) of(target string) []tickReport {
	k.mu.Lock()
	defer k.mu.Unlock()
	var out []tickReport
	for _, rep := range k.all {
		if target == "" || rep.target == target {
			out = append(out, rep)
		}
	}
	return out
}

// until waits for the tick after which cond holds over target's reports
// so far: woken by each tick, it never polls. within bounds a hang (a
// watch that stopped ticking), it is no part of the synchronization.
func (r *running) until(t *testing.T, target string, within time.Duration, cond func([]tickReport) error) []tickReport {
	t.Helper()
	hang := time.NewTimer(within)
	defer hang.Stop()
	for {
		r.ticks.mu.Lock()
		next := r.ticks.next
		r.ticks.mu.Unlock()
		reps := r.ticks.of(target)
		err := cond(reps)
		if err == nil {
			return reps
		}
		select {
		case <-next:
		case <-hang.C:
			t.Fatalf("%s: %v (no such tick in %v: watch stopped ticking?); log:\n%s", target, err, within, r.log)
		}
	}
}

// decisions are the incident decisions of reps that match.
func decisions(reps []tickReport, match func(decision) bool) int {
	n := 0
	for _, rep := range reps {
		if rep.decision != nil && match(*rep.decision) {
			n++
		}
	}
	return n
}

// opened, added, closed match incident decisions: an open, a moment added
// to an open incident, a close whose reason starts with why.
func opened(d decision) bool          { return d.open }
func openedOnFinding(d decision) bool { return d.open && len(d.opened) > 0 }
func added(d decision) bool           { return d.add != "" }
func closed(why string) func(decision) bool {
	return func(d decision) bool { return d.close != "" && strings.HasPrefix(d.close, why) }
}

// triggered matches a decision a trigger of that reason took part in (an
// incident it opened or joined).
func triggered(reason string) func(decision) bool {
	return func(d decision) bool { return d.trigger == reason }
}

// waitDecisions waits until target's ticks have made n decisions that
// match.
func (r *running) waitDecisions(t *testing.T, target string, what string, match func(decision) bool, n int, within time.Duration) []tickReport {
	t.Helper()
	return r.until(t, target, within, func(reps []tickReport) error {
		if got := decisions(reps, match); got < n {
			return fmt.Errorf("%d× %s, want %d", got, what, n)
		}
		return nil
	})
}

// takes waits until target's ticks have come to n moments that match
// what the tick's Take came to.
func (r *running) takes(t *testing.T, target, what string, match func(takeDecision) bool, n int, within time.Duration) []tickReport {
	t.Helper()
	return r.until(t, target, within, func(reps []tickReport) error {
		got := 0
		for _, rep := range reps {
			if match(rep.take) {
				got++
			}
		}
		if got < n {
			return fmt.Errorf("%d× %s, want %d", got, what, n)
		}
		return nil
	})
}

// more waits until target's ring has read n more moments than it had
// when called (moments, not time: a loaded machine takes them later).
func (r *running) more(t *testing.T, target string, n int, within time.Duration) {
	t.Helper()
	read := func(reps []tickReport) int {
		k := 0
		for _, rep := range reps {
			if rep.take.read {
				k++
			}
		}
		return k
	}
	from := read(r.ticks.of(target))
	r.until(t, target, within, func(reps []tickReport) error {
		if got := read(reps) - from; got < n {
			return fmt.Errorf("%d more moments read, want %d", got, n)
		}
		return nil
	})
}

// start runs watch with cfg (Dir, Log and a metrics listener on
// 127.0.0.1 filled in when empty) until the test ends or stop is called.
func start(t *testing.T, cfg Config) *running {
	t.Helper()
	return startWith(t, cfg, newTickLog())
}

// startWith is start with the tick log given.
func startWith(t *testing.T, cfg Config, ticks *tickLog) *running {
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
	cfg.tick = ticks.add
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{cfg: cfg, log: lb, ticks: ticks, metrics: "http://" + l.Addr().String(), cancel: cancel, done: make(chan error, 1)}
	go func() { r.done <- Run(ctx, cfg) }()
	t.Cleanup(func() { r.stop(t) })
	return r
}

// stop ends the run and returns Run's error; a run that does not stop
// within two minutes (a hang: each target's moment in flight is abandoned,
// its manifest written and synced; 50 of them took over 20 s under -race
// at load 40) fails the test.
func (r *running) stop(t *testing.T) error {
	t.Helper()
	r.cancel()
	select {
	case err, ok := <-r.done:
		if ok {
			close(r.done)
		}
		return err
	case <-time.After(2 * time.Minute):
		t.Fatalf("watch did not stop within two minutes; log:\n%s", r.log)
	}
	return nil
}

// waitMoments waits for the tick after which the ring of target holds at
// least n moments, and returns its manifest as that tick left it.
func (r *running) waitMoments(t *testing.T, target string, n int, within time.Duration) *capture.Manifest {
	t.Helper()
	r.until(t, target, within, func(reps []tickReport) error {
		for _, rep := range reps {
			if len(rep.ring) >= n {
				return nil
			}
		}
		return fmt.Errorf("the ring has not held %d moments", n)
	})
	m, err := capture.ReadManifest(filepath.Join(r.cfg.Dir, target))
	if err != nil {
		t.Fatal(err)
	}
	return m
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

// threadsIn is how many threads of the last moment of r are in pool and
// state; -1 when r is nil.
func threadsIn(r *analyze.Result, pool, state string) int {
	if r == nil {
		return -1
	}
	n := 0
	for _, p := range r.Pools {
		for _, g := range p.States {
			if p.Name == pool && g.State == state {
				n += g.Counts[len(g.Counts)-1]
			}
		}
	}
	return n
}

// openFindings are r's findings not recovered (none when r is nil).
func openFindings(r *analyze.Result) []*analyze.Finding {
	var out []*analyze.Finding
	if r == nil {
		return nil
	}
	for i := range r.Findings {
		if !r.Findings[i].Recovered {
			out = append(out, &r.Findings[i])
		}
	}
	return out
}
