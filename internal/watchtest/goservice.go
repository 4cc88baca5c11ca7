// Package watchtest starts the real services that tests of dumpdiff watch
// capture, healthy until the test starts an incident. This file: the Go
// service testdata/watch/goservice, built once per test binary and run on
// 127.0.0.1 until the test ends; its main.go says what each phase does and
// what dumpdiff must conclude from it. Tests only import this package; a
// machine without the go command skips the Go service's tests, with the
// reason.
package watchtest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
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

// goServicePkg is the service's package, relative to the module root.
const goServicePkg = "./testdata/watch/goservice"

// goReadyWithin bounds the wait for the service's listening line (it prints
// it once its in-process clients have had an answer, about a second): a
// service that hangs fails the test instead of holding it until go test's
// own timeout.
const goReadyWithin = 15 * time.Second

// goRebindWithin bounds how long Restart tries the old port again: the
// killed process's listener is gone at once on Linux (Go listens with
// SO_REUSEADDR), but another system may need a moment.
const goRebindWithin = 3 * time.Second

// The build, once per test binary: package-level because a sync.Once is
// what makes it once (STYLE.md's "no package-level mutable state" yields
// to that; nothing else is kept here). No hook runs when a test binary
// exits, so its build folder stays behind; the next build removes those
// whose test binary is gone (goSweep).
var (
	goBuildOnce sync.Once
	goBuildBin  string // the executable; "" if the build failed or was skipped
	goBuildErr  error  // why it failed
	goBuildSkip string // why it was skipped: no go command
)

// goServiceBinary builds the service, once, and returns the executable;
// it skips the test without a go command and fails it if the build fails.
func goServiceBinary(t testing.TB) string {
	t.Helper()
	goBuildOnce.Do(func() {
		goBin, err := exec.LookPath("go")
		if err != nil {
			goBuildSkip = "go not on PATH: the watch tests build and run a real Go service (testdata/watch/goservice)"
			return
		}
		root, err := goModuleRoot()
		if err != nil {
			goBuildErr = err
			return
		}
		goSweep()
		dir, err := os.MkdirTemp("", goBuildPrefix+strconv.Itoa(os.Getpid())+"-")
		if err != nil {
			goBuildErr = err
			return
		}
		bin := filepath.Join(dir, "goservice")
		cmd := exec.Command(goBin, "build", "-o", bin, goServicePkg)
		cmd.Dir = root
		cmd.Env = os.Environ() // the test's GOFLAGS, GOCACHE, GOTOOLCHAIN...
		if out, err := cmd.CombinedOutput(); err != nil {
			goBuildErr = fmt.Errorf("go build %s: %v\n%s", goServicePkg, err, out)
			return
		}
		goBuildBin = bin
	})
	switch {
	case goBuildSkip != "":
		t.Skip(goBuildSkip)
	case goBuildErr != nil:
		t.Fatal(goBuildErr)
	}
	return goBuildBin
}

// goBuildPrefix starts the name of a build folder in the system's
// temporary folder, followed by the test binary's pid and a dash.
const goBuildPrefix = "watchtest-goservice-"

// goSweep removes the build folders of test binaries that have exited (no
// process has their pid); one whose pid was reused stays until later.
// Best effort: an error leaves the folder.
func goSweep() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), goBuildPrefix+"*"))
	for _, dir := range dirs {
		pid, _, ok := strings.Cut(strings.TrimPrefix(filepath.Base(dir), goBuildPrefix), "-")
		n, err := strconv.Atoi(pid)
		if !ok || err != nil || n == os.Getpid() || alive(n) {
			continue
		}
		os.RemoveAll(dir)
	}
}

// alive reports whether a process has this pid: signal 0 checks without
// sending anything.
func alive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM)
}

// goModuleRoot is the folder above the working directory (a test runs in
// its package's folder) that holds the service's source.
func goModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, goServicePkg, "main.go")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no %s/main.go above the working directory", goServicePkg)
		}
		dir = parent
	}
}

// GoService is a running testdata/watch/goservice. Its methods may be
// called from any goroutine.
type GoService struct {
	bin  string
	args []string // the service's flags beyond -addr

	mu   sync.Mutex
	url  string // http://127.0.0.1:PORT, the same after Restart
	addr string // 127.0.0.1:PORT
	proc *goProcess
}

// goProcess is one run of the service.
type goProcess struct {
	cmd    *exec.Cmd
	stdin  io.Closer
	stderr *goTail
	exited chan struct{} // closed once Wait returned
	err    error         // Wait's, once exited is closed
}

// StartGoService builds the service (once per test binary), starts it on
// 127.0.0.1 with a port of the system's choosing and returns once it is
// listening and steady (healthy). The test's cleanup stops it; the
// service also exits by itself when its stdin closes (the test binary
// died) and after 10 minutes.
//
// args are the service's flags beyond -addr ("-flight": serve package
// handler's flight recorder).
func StartGoService(t testing.TB, args ...string) *GoService {
	t.Helper()
	s := &GoService{bin: goServiceBinary(t), args: args}
	p, base, err := startGoProcess(s.bin, "127.0.0.1:0", args...)
	if err != nil {
		t.Fatal(err)
	}
	s.proc, s.url = p, base
	s.addr = strings.TrimPrefix(base, "http://")
	t.Cleanup(s.Stop)
	return s
}

// URL is the service's base URL, http://127.0.0.1:PORT: net/http/pprof is
// under /debug/pprof/.
func (s *GoService) URL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.url
}

// Phase switches the service to a phase (healthy, exhaust, leak, recover:
// testdata/watch/goservice/main.go) and returns once it is in effect; the
// test fails if the service refuses or does not get there.
func (s *GoService) Phase(t testing.TB, name string) {
	t.Helper()
	c := &http.Client{Timeout: 15 * time.Second} // the service bounds a change at 5 s
	resp, err := c.Post(s.URL()+"/phase?to="+url.QueryEscape(name), "text/plain", nil)
	if err != nil {
		t.Fatalf("phase %s: %v", name, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("phase %s: %s: %s", name, resp.Status, bytes.TrimSpace(body))
	}
}

// Stop kills the service (SIGKILL: the target dies, nothing is flushed)
// and waits for it to exit. Stopping a stopped service does nothing.
func (s *GoService) Stop() {
	s.mu.Lock()
	p := s.proc
	s.proc = nil
	s.mu.Unlock()
	if p != nil {
		p.kill()
	}
}

// Restart starts the service again on the same port, after stopping it if
// it runs (the target comes back); it tries the port again for a few
// seconds if it is still taken. A restarted service is a new process:
// healthy, with new goroutines.
func (s *GoService) Restart(t testing.TB) {
	t.Helper()
	s.Stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	testwait.Eventually(t, goRebindWithin, func() error {
		p, base, err := startGoProcess(s.bin, s.addr, s.args...)
		if errors.Is(err, errGoAddrInUse) {
			return fmt.Errorf("restart on %s: %w", s.addr, err) // the port is not free yet
		}
		if err != nil {
			t.Fatalf("restart on %s: %v", s.addr, err)
		}
		if base != s.url {
			p.kill()
			t.Fatalf("restart: listening on %s, want %s", base, s.url)
		}
		s.proc = p
		return nil
	})
}

// errGoAddrInUse: the service exited before listening because its port is
// taken.
var errGoAddrInUse = errors.New("address already in use")

// startGoProcess runs the service on addr and waits for its listening
// line; it returns the base URL the service printed.
func startGoProcess(bin, addr string, args ...string) (*goProcess, string, error) {
	cmd := exec.Command(bin, append([]string{"-addr", addr}, args...)...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, "", err
	}
	ready := &goReadyWriter{line: make(chan string, 1)}
	p := &goProcess{cmd: cmd, stdin: stdin, stderr: &goTail{max: 16 << 10}, exited: make(chan struct{})}
	cmd.Stdout = ready
	cmd.Stderr = p.stderr
	cmd.WaitDelay = 2 * time.Second // a stuck pipe does not hold Wait
	if err := cmd.Start(); err != nil {
		return nil, "", err
	}
	go func() {
		p.err = cmd.Wait()
		close(p.exited)
	}()
	select {
	case line := <-ready.line:
		base, ok := strings.CutPrefix(line, "listening ")
		if !ok || !strings.HasPrefix(base, "http://127.0.0.1:") {
			p.kill()
			return nil, "", fmt.Errorf("goservice printed %q, want listening http://127.0.0.1:PORT", line)
		}
		return p, base, nil
	case <-p.exited:
		msg := strings.TrimSpace(p.stderr.String())
		if strings.Contains(msg, "address already in use") {
			return nil, "", fmt.Errorf("%w: %s", errGoAddrInUse, msg)
		}
		return nil, "", fmt.Errorf("goservice exited before listening (%v): %s", p.err, msg)
	case <-time.After(goReadyWithin):
		p.kill()
		return nil, "", fmt.Errorf("goservice not listening within %v: %s", goReadyWithin, strings.TrimSpace(p.stderr.String()))
	}
}

// kill closes the service's stdin, kills it and waits for it.
func (p *goProcess) kill() {
	p.stdin.Close()
	p.cmd.Process.Kill()
	<-p.exited
}

// goReadyWriter is the service's stdout: it hands on its first line and
// drops the rest.
type goReadyWriter struct {
	mu   sync.Mutex
	buf  []byte
	done bool
	line chan string // gets the first line, once
}

func (w *goReadyWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return len(b), nil
	}
	w.buf = append(w.buf, b...)
	if i := bytes.IndexByte(w.buf, '\n'); i >= 0 {
		w.line <- strings.TrimSpace(string(w.buf[:i]))
		w.done, w.buf = true, nil
	} else if len(w.buf) > 4096 {
		w.line <- string(w.buf[:4096]) // no line: startGoProcess refuses it
		w.done, w.buf = true, nil
	}
	return len(b), nil
}

// goTail keeps the last max bytes written: the service's stderr, for
// failure messages.
type goTail struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *goTail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, b...)
	if len(t.b) > t.max {
		t.b = append(t.b[:0], t.b[len(t.b)-t.max:]...)
	}
	return len(b), nil
}

func (t *goTail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}
