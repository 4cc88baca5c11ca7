package watchtest

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/internal/javatest"
)

// javaServiceFile is the service's source, from the module's root.
const javaServiceFile = "testdata/watch/JavaService.java"

// Bounds on the JVM, so that a service that hangs fails its test instead of
// holding it until go test's own timeout. The service itself gives up on a
// phase after 30 s and says so, before phaseWithin.
const (
	javaReadyWithin = 30 * time.Second
	phaseWithin     = 45 * time.Second
	quitWithin      = 10 * time.Second
)

// JavaService is testdata/watch/JavaService.java running in a real JVM: a
// pool of 16 threads named req-exec-1 to req-exec-16 serving a stream of
// jobs (one every 50 ms), each calling an upstream inside the same JVM on
// 127.0.0.1 with no read timeout. It starts healthy; Phase switches it (the
// source's opening comment says what each phase does to the threads, and
// the verdict dumpdiff should give).
type JavaService struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string   // stdout lines after "ready"; closed at EOF
	exited chan struct{} // closed once the process was waited for
	stderr *javaStderr
}

// StartJavaService compiles and starts the service, returning once it is
// ready (its pool started, healthy). The test's cleanup sends quit and
// waits for the JVM to exit (killing it after quitWithin). Skipped without
// a JDK on PATH.
func StartJavaService(t testing.TB) *JavaService {
	t.Helper()
	jdk := javatest.OnPath(t)
	dir, class := jdk.Compile(t, javaServiceSource(t))
	// A small heap and the serial collector: a light JVM with few threads
	// of its own, started quickly.
	cmd := exec.Command(jdk.Java, "-Xmx64m", "-XX:+UseSerialGC", "-cp", dir, class)
	s := &JavaService{cmd: cmd, lines: make(chan string, 16), exited: make(chan struct{}), stderr: &javaStderr{}}
	cmd.Stderr = s.stderr
	var err error
	if s.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Every read of stdout comes before Wait, as StdoutPipe requires.
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
		cmd.Wait()
		close(s.exited)
	}()
	t.Cleanup(func() { s.stop(t) })
	select {
	case line, ok := <-s.lines:
		if !ok || line != "ready" {
			t.Fatalf("JavaService: %q before ready (ended: %v)\n%s", line, !ok, s.stderr)
		}
	case <-time.After(javaReadyWithin):
		t.Fatalf("JavaService: not ready within %v\n%s", javaReadyWithin, s.stderr)
	}
	return s
}

// PID is the JVM's process id, for jcmd and dumpdiff capture --pid.
func (s *JavaService) PID() int { return s.cmd.Process.Pid }

// Phase switches the service to healthy, exhaust or recover and returns
// once the service says the phase is in effect: for exhaust, all 16
// req-exec threads are in the upstream read; for healthy and recover,
// every job submitted before the switch has returned. It fails the test
// when the service reports an error, exits, or does not answer within
// phaseWithin.
func (s *JavaService) Phase(t testing.TB, name string) {
	t.Helper()
	if _, err := io.WriteString(s.stdin, name+"\n"); err != nil {
		t.Fatalf("JavaService: sending %s: %v\n%s", name, err, s.stderr)
	}
	select {
	case line, ok := <-s.lines:
		if !ok {
			t.Fatalf("JavaService exited before phase %s\n%s", name, s.stderr)
		}
		if line != "phase "+name {
			t.Fatalf("JavaService: %q, want %q\n%s", line, "phase "+name, s.stderr)
		}
	case <-time.After(phaseWithin):
		t.Fatalf("JavaService: phase %s not in effect within %v\n%s", name, phaseWithin, s.stderr)
	}
}

// stop sends quit and waits for the JVM to exit; it is killed if it does
// not within quitWithin.
func (s *JavaService) stop(t testing.TB) {
	io.WriteString(s.stdin, "quit\n")
	s.stdin.Close()
	go func() { // nothing reads stdout any more; the service prints nothing after quit
		for range s.lines {
		}
	}()
	select {
	case <-s.exited:
		if st := s.cmd.ProcessState; st != nil && !st.Success() {
			t.Errorf("JavaService: %v\n%s", st, s.stderr)
		}
	case <-time.After(quitWithin):
		s.cmd.Process.Kill()
		<-s.exited
		t.Errorf("JavaService: did not exit within %v of quit; killed\n%s", quitWithin, s.stderr)
	}
}

// javaServiceSource finds JavaService.java: beside this file's folder, or
// (when built with -trimpath, which leaves no path to this file) under the
// module root above the working directory.
func javaServiceSource(t testing.TB) string {
	t.Helper()
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		p := filepath.Join(filepath.Dir(file), "..", "..", filepath.FromSlash(javaServiceFile))
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		p := filepath.Join(dir, filepath.FromSlash(javaServiceFile))
		if _, err := os.Stat(p); err == nil {
			return p
		} else if !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatalf("%s not found above the working directory", javaServiceFile)
		}
		dir = up
	}
}

// javaStderr keeps what the JVM writes to stderr, for failure messages;
// written by exec's copying goroutine, read by the test.
type javaStderr struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (e *javaStderr) Write(p []byte) (int, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.buf.Write(p)
}

func (e *javaStderr) String() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.buf.Len() == 0 {
		return "(no stderr)"
	}
	return "stderr:\n" + strings.TrimRight(e.buf.String(), "\n")
}
