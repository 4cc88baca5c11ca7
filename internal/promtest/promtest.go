// Package promtest runs a real Prometheus server (Debian's
// /usr/bin/prometheus, 2.42) for tests: it scrapes the test's own
// 127.0.0.1 endpoints once a second, and the test reads what it stored
// through the HTTP API. Tests only import it; on a machine without a
// prometheus binary on PATH the tests that need one skip, with the reason.
// Standard library only: the API's JSON is decoded here, not by
// client_golang.
package promtest

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/internal/testwait"
)

// Server is a running Prometheus, stopped when the test that started it
// ends.
type Server struct {
	// URL is where its web API listens: "http://127.0.0.1:PORT".
	URL string

	cmd    *exec.Cmd
	exited chan struct{} // closed once cmd.Wait has returned
	stderr *tail
	client *http.Client
}

// readyWithin bounds Start: a Prometheus that cannot open its storage or
// never scrapes fails the test instead of holding it until go test's own
// timeout.
const readyWithin = 30 * time.Second

// stopWithin is how long Prometheus has to exit on SIGTERM before it is
// killed; 2.42 on an empty storage exits in a few milliseconds.
const stopWithin = 5 * time.Second

// bindAttempts: the free port is found by listening on 127.0.0.1:0 and
// closing, so another process may take it before Prometheus binds it;
// then Start tries again with a new port.
const bindAttempts = 5

// Start runs Prometheus scraping /metrics on each target, an
// "127.0.0.1:PORT" address, once a second, and returns once it is ready
// and has scraped every target once. Its configuration and storage live in
// the test's temporary folder; the test is skipped when no prometheus is
// on PATH.
//
// Prometheus 2.42 hands a configuration's targets to its scrapers only on
// its discovery manager's 5-second tick, so the first scrape comes about
// 5 s after /-/ready, whatever scrape_interval says. Start pays that wait
// once, so that a test's WaitFor can be bounded by scrape intervals.
func Start(t testing.TB, targets ...string) *Server {
	t.Helper()
	return StartWith(t, Config{Targets: targets})
}

// Config is what StartWith runs Prometheus with.
type Config struct {
	// Targets are the "127.0.0.1:PORT" addresses scraped each second.
	Targets []string
	// Rules is a rule file's YAML (groups:), evaluated each second; empty
	// for none.
	Rules string
	// Alertmanager is the "127.0.0.1:PORT" address alerts are sent to;
	// empty for none.
	Alertmanager string
}

// StartWith is Start with rules and an Alertmanager.
func StartWith(t testing.TB, cfg Config) *Server {
	t.Helper()
	targets := cfg.Targets
	bin, err := exec.LookPath("prometheus")
	if err != nil {
		t.Skip("prometheus not on PATH (Debian: apt-get install prometheus): this is tested against a real Prometheus only")
	}
	for _, target := range targets {
		// An IP, never a name: Prometheus would resolve a name, and
		// tests do not use DNS.
		host, _, err := net.SplitHostPort(target)
		if err != nil || net.ParseIP(host) == nil {
			t.Fatalf("promtest: target %q is not an IP:PORT address", target)
		}
	}
	// The folder is asked for before the stop is registered: cleanups run
	// last-first, so it is removed only after Prometheus has exited.
	dir := t.TempDir()
	config := filepath.Join(dir, "prometheus.yml")
	yml := configYAML(targets)
	if cfg.Rules != "" {
		rules := filepath.Join(dir, "rules.yml")
		if err := os.WriteFile(rules, []byte(cfg.Rules), 0o644); err != nil {
			t.Fatal(err)
		}
		yml += "rule_files: [" + strconv.Quote(rules) + "]\n"
	}
	if cfg.Alertmanager != "" {
		yml += "alerting:\n  alertmanagers:\n    - static_configs:\n        - targets: [" + strconv.Quote(cfg.Alertmanager) + "]\n"
	}
	if err := os.WriteFile(config, []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	s := launch(t, bin, config, filepath.Join(dir, "data"))
	attempt := 1
	testwait.Eventually(t, readyWithin, func() error {
		select {
		case <-s.exited:
			if strings.Contains(s.stderr.String(), "address already in use") && attempt < bindAttempts {
				attempt++
				s = launch(t, bin, config, filepath.Join(dir, "data"))
				return errors.New("promtest: prometheus's port was taken: launched again")
			}
			t.Fatalf("promtest: prometheus exited before it was ready (%v); its last lines:\n%s", s.cmd.ProcessState, s.stderr.lastLines(20))
		default:
		}
		if err := s.ready(); err != nil {
			return fmt.Errorf("promtest: prometheus at %s not ready: %v; its last lines:\n%s", s.URL, err, s.stderr.lastLines(20))
		}
		// Each target scraped once, up or down.
		if got, err := s.targets(); err != nil || !scrapedAll(got, targets) {
			return fmt.Errorf("promtest: prometheus at %s did not scrape %v (targets: %v, err: %v); its last lines:\n%s", s.URL, targets, got, err, s.stderr.lastLines(20))
		}
		return nil
	})
	return s
}

// configYAML is a prometheus.yml with one job, dumpdiff, scraping every
// target each second. The timeout cannot exceed the interval (Prometheus
// refuses such a configuration), and a local target answers well within it.
func configYAML(targets []string) string {
	var b strings.Builder
	b.WriteString("global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n  evaluation_interval: 1s\n")
	b.WriteString("scrape_configs:\n  - job_name: dumpdiff\n    static_configs:\n      - targets: [")
	for i, target := range targets {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(target)) // a YAML double-quoted string
	}
	b.WriteString("]\n")
	return b.String()
}

// launch starts Prometheus on a free port and registers its stop; it does
// not wait for it.
func launch(t testing.TB, bin, config, storage string) *Server {
	t.Helper()
	return spawn(t, bin, func(addr, url string) []string {
		return []string{
			"--config.file=" + config,
			"--storage.tsdb.path=" + storage,
			"--web.listen-address=" + addr,
			// Without it Prometheus builds its external URL from the
			// host's name; this keeps every URL it prints on 127.0.0.1.
			"--web.external-url=" + url + "/",
			"--log.level=warn",
		}
	})
}

// spawn starts bin (Prometheus or Alertmanager) listening on a free
// 127.0.0.1 port, with the flags args makes for that address and URL, and
// registers its stop; it does not wait for it.
func spawn(t testing.TB, bin string, args func(addr, url string) []string) *Server {
	t.Helper()
	addr := freeAddr(t)
	s := &Server{
		URL:    "http://" + addr,
		exited: make(chan struct{}),
		stderr: &tail{},
		// Proxy nil: the API is on 127.0.0.1 and no HTTP_PROXY applies.
		client: &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{Proxy: nil}},
	}
	s.cmd = exec.Command(bin, args(addr, s.URL)...)
	s.cmd.Stderr = s.stderr
	s.cmd.SysProcAttr = dieWithParent()
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("promtest: starting %s: %v", bin, err)
	}
	go func() {
		s.cmd.Wait()
		close(s.exited)
	}()
	t.Cleanup(s.stop)
	return s
}

// freeAddr is a 127.0.0.1 port nobody listened on a moment ago.
func freeAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("promtest: finding a free port: %v", err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// ready asks /-/ready, which answers 503 until the storage is open.
func (s *Server) ready() error {
	resp, err := s.client.Get(s.URL + "/-/ready")
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return errors.New(resp.Status)
	}
	return nil
}

func scrapedAll(got []Target, want []string) bool {
	for _, w := range want {
		found := false
		for _, g := range got {
			if g.Instance == w && g.Health != "unknown" {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// stop sends SIGTERM and kills Prometheus if it has not exited within
// stopWithin. It is a cleanup, so it may run for a process that already
// exited (a retried bind).
func (s *Server) stop() {
	defer s.client.CloseIdleConnections()
	select {
	case <-s.exited:
		return
	default:
	}
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		s.cmd.Process.Kill()
	}
	select {
	case <-s.exited:
	case <-time.After(stopWithin):
		s.cmd.Process.Kill()
		<-s.exited
	}
}

// tail keeps the end of Prometheus's stderr for failure messages. At
// --log.level=warn it is a line or two, but a long test could make more.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

const tailBytes = 16 << 10

func (w *tail) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	if len(w.buf) > 2*tailBytes {
		w.buf = append(w.buf[:0], w.buf[len(w.buf)-tailBytes:]...)
	}
	return len(p), nil
}

func (w *tail) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return string(w.buf)
}

// lastLines is the last n lines written, or "(nothing)".
func (w *tail) lastLines(n int) string {
	lines := strings.Split(strings.TrimRight(w.String(), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	if s := strings.Join(lines, "\n"); s != "" {
		return s
	}
	return "(nothing)"
}
