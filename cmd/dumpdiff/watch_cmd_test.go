//go:build unix

package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/capture"
	"github.com/dumpdiff/dumpdiff/internal/testwait"
	"github.com/dumpdiff/dumpdiff/internal/watchtest"
)

// TestWatchCommand runs the real binary: `dumpdiff watch` on the real Go
// service (testdata/watch/goservice) while its worker pool is exhausted,
// then SIGTERM. It exits 0, every manifest is written, the incident left
// open says so, and the bundle and the ring open like any capture: with
// `dumpdiff DIR -f json` and in the TUI (`dumpdiff -i`, in tmux).
func TestWatchCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the binary and runs a service")
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "dumpdiff")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	svc := watchtest.StartGoService(t)
	out := filepath.Join(tmp, "ring")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a hang fails, not blocks
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "watch", svc.URL(), "--every", "250ms", "--keep", "12", "--out", out, "--listen", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var log strings.Builder
	waitLine := func(want string) {
		t.Helper()
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("watch ended before %q:\n%s", want, log.String())
				}
				log.WriteString(l + "\n")
				if strings.Contains(l, want) {
					return
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("no %q within 30 s:\n%s", want, log.String())
			}
		}
	}
	name := strings.NewReplacer(":", "_").Replace(strings.TrimPrefix(svc.URL(), "http://"))
	testwait.Eventually(t, time.Minute, func() error {
		if m, err := capture.ReadManifest(filepath.Join(out, name)); err != nil || len(m.Moments) < 4 {
			return fmt.Errorf("the ring %s has not 4 moments (%v)", filepath.Join(out, name), err)
		}
		return nil
	})
	svc.Phase(t, "exhaust")
	waitLine("incident opened: CRITICAL")
	waitLine("incident moment")
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	waitLine("incident left open at stop")
	for l := range lines {
		log.WriteString(l + "\n")
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("watch after SIGTERM: %v (want exit 0)\n%s", err, log.String())
	}
	m, err := capture.ReadManifest(filepath.Join(out, name))
	if err != nil || m.Finished.IsZero() || m.Error != "" {
		t.Fatalf("the ring's manifest after SIGTERM: finished %v, error %q, %v", m.Finished, m.Error, err)
	}
	bundles, _ := filepath.Glob(filepath.Join(out, "incidents", "*"))
	if len(bundles) != 1 {
		t.Fatalf("bundles: %v", bundles)
	}
	for _, dir := range []string{bundles[0], filepath.Join(out, name)} {
		rep := jsonReport(t, dir)
		found := false
		for _, f := range rep.Findings {
			found = found || f.Pool == "main.(*workerPool).start" && f.State == "socket-read" && f.Severity == "critical"
		}
		if !found {
			t.Errorf("dumpdiff %s: no critical finding on the workers' socket-read: %+v", dir, rep.Findings)
		}
	}
	bm, _ := capture.ReadManifest(bundles[0])
	if !strings.Contains(bm.Error, "watch stopped") {
		t.Errorf("the bundle left open does not say so: %q", bm.Error)
	}

	// The TUI opens the bundle like any capture.
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux not installed: the TUI on a bundle is not checked")
	}
	sock := "dumpdiff-watch-" + strconv.Itoa(os.Getpid())
	run := func(args ...string) string {
		t.Helper()
		b, err := exec.Command(tmux, append([]string{"-L", sock}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, b)
		}
		return string(b)
	}
	run("new-session", "-d", "-x", "120", "-y", "32", "-s", "w", "NO_COLOR=1 "+bin+" -i "+bundles[0]+"; sleep 30")
	t.Cleanup(func() { exec.Command(tmux, "-L", sock, "kill-server").Run() })
	testwait.Eventually(t, 30*time.Second, func() error {
		s := run("capture-pane", "-p", "-t", "w")
		if strings.Contains(s, "FINDINGS") && strings.Contains(s, "main.(*workerPool).start") {
			return nil
		}
		return fmt.Errorf("the TUI on the bundle never showed the worker pool's finding:\n%s", s)
	})
}

// TestWatchSIGINT: Ctrl-C (SIGINT) stops the real binary as SIGTERM does:
// exit 0, the ring's manifest finished and readable.
func TestWatchSIGINT(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the binary")
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "dumpdiff")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dump, _ := filepath.Abs("../../testdata/libs/jvm-saturated-stays/1.txt")
	out := filepath.Join(tmp, "ring")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "watch", "--exec", "cat "+dump, "--every", "50ms", "--out", out)
	stderr := &lockedBuilder{} // read while the command writes it
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	testwait.Eventually(t, 30*time.Second, func() error {
		if m, err := capture.ReadManifest(filepath.Join(out, "exec-1")); err != nil || len(m.Moments) < 3 {
			return fmt.Errorf("no 3 moments (%v): %s", err, stderr.String())
		}
		return nil
	})
	// SIGUSR1 triggers a moment now, which opens an incident (or joins the
	// one the dump's findings opened).
	cmd.Process.Signal(syscall.SIGUSR1)
	testwait.Eventually(t, 30*time.Second, func() error {
		if s := stderr.String(); !strings.Contains(s, "incident opened: triggered (SIGUSR1)") && !strings.Contains(s, "trigger (SIGUSR1) joins it") {
			return fmt.Errorf("SIGUSR1 took no triggered moment: %s", s)
		}
		return nil
	})
	cmd.Process.Signal(syscall.SIGINT)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("watch after SIGINT: %v (want exit 0)\n%s", err, stderr.String())
	}
	m, err := capture.ReadManifest(filepath.Join(out, "exec-1"))
	if err != nil || m.Finished.IsZero() {
		t.Fatalf("the ring after SIGINT: %v, finished %v", err, m.Finished)
	}
	if code, _, errs := runArgs(t, filepath.Join(out, "exec-1")); code != 0 {
		t.Errorf("dumpdiff on the ring: exit %d: %s", code, errs)
	}
}

// lockedBuilder is a strings.Builder a command writes while the test
// reads it.
type lockedBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuilder) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuilder) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
