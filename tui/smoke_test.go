package tui

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/internal/testwait"
)

// TestSmokeTmux builds the real binary, runs `dumpdiff tui` on the Go
// scenario in a detached tmux session of 100×30, and reads the screen: the
// overview, a finding's detail and back, the copy of its stack (OSC 52,
// which tmux keeps as a paste buffer), a pool, a state, a comparison and
// its export.
func TestSmokeTmux(t *testing.T) {
	if testing.Short() {
		t.Skip("smoke test builds the binary; skipped with -short")
	}
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux not installed (apt-get install -y tmux): smoke test skipped")
	}
	dir := filepath.Join(scenarios, "go-slow-upstream-leak")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("scenario %s not available: %v", dir, err)
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "dumpdiff")
	build := exec.Command("go", "build", "-o", bin, "./cmd/dumpdiff")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/dumpdiff: %v\n%s", err, out)
	}
	// Until the tui command exists, `dumpdiff tui --help` fails or prints
	// the root command's usage.
	if out, err := exec.Command(bin, "tui", "--help").CombinedOutput(); err != nil || !strings.Contains(string(out), "dumpdiff tui") {
		t.Skipf("`dumpdiff tui` is not wired into the command yet (dumpdiff tui --help: err=%v, no \"dumpdiff tui\" usage line)", err)
	}
	var files []string
	for _, m := range goMoments {
		f, err := filepath.Abs(filepath.Join(dir, m+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}

	// A private tmux server, killed at the end: nothing else is touched.
	sock := "dumpdiff-smoke-" + strconv.Itoa(os.Getpid())
	run := func(args ...string) string {
		t.Helper()
		out, err := exec.Command(tmux, append([]string{"-L", sock}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	cmdline := "NO_COLOR=1 XDG_STATE_HOME=" + filepath.Join(tmp, "state") + " " + bin + " tui " + strings.Join(files, " ") + "; sleep 30"
	run("new-session", "-d", "-x", "100", "-y", "30", "-c", tmp, "-s", "smoke", cmdline)
	run("set-option", "-g", "set-clipboard", "on")
	t.Cleanup(func() { exec.Command(tmux, "-L", sock, "kill-server").Run() })

	screen := func() string { return run("capture-pane", "-p", "-t", "smoke") }
	waitScreen := func(want string) string {
		t.Helper()
		var s string
		testwait.Eventually(t, 30*time.Second, func() error {
			if s = screen(); !strings.Contains(s, want) {
				return fmt.Errorf("screen never showed %q:\n%s", want, s)
			}
			return nil
		})
		return s
	}
	keys := func(k ...string) { run(append([]string{"send-keys", "-t", "smoke"}, k...)...) }

	s := waitScreen("FINDINGS")
	// One scale for every sparkline: the largest pool draws the top bar.
	contains(t, "overview", s, "net/http server connections", "before", "after", "▂▄▇█▂")

	// The first finding, whole; esc comes back to the findings.
	keys("Enter")
	s = waitScreen("FACTS")
	contains(t, "finding detail", s, "150 of 150 main.(*server).handleSearch goroutines in chan-send", "culprit", "enter state", "esc findings")
	if strings.Contains(s, "POOL ") {
		t.Errorf("enter on a finding opened a pool:\n%s", s)
	}
	// y puts its stack on the clipboard with OSC 52, which tmux (with
	// set-clipboard on) keeps as a paste buffer.
	keys("y")
	waitScreen("to the clipboard (OSC 52)")
	testwait.Eventually(t, 20*time.Second, func() error {
		out, err := exec.Command(tmux, "-L", sock, "show-buffer").CombinedOutput()
		if err == nil && strings.Contains(string(out), "main.(*server).handleSearch.func1 (main.go:97)") {
			return nil
		}
		return fmt.Errorf("tmux has no paste buffer with the stack after y (OSC 52): %v %q", err, out)
	})
	keys("Escape")
	s = waitScreen("bars share one scale")
	contains(t, "back on the findings", s, "› CRIT not-recovered")
	keys("/", "handleSearch.func1", "Enter")
	waitScreen("filter: handleSearch.func1")
	keys("G", "Enter")
	waitScreen("POOL main.(*server).handleSearch")
	keys("Enter")
	s = waitScreen("THREADS at after-2 (150")
	contains(t, "state", s, "◀ culprit")
	keys("Left")
	waitScreen("THREADS at after (150")
	keys("Left")
	waitScreen("[3:during-2 99]")
	keys("c")
	waitScreen("COMPARE goroutine")
	keys("m")
	s = waitScreen("wrote ")
	matches, _ := filepath.Glob(filepath.Join(tmp, "state", "dumpdiff", "exports", "dumpdiff-compare-*.md"))
	if len(matches) != 1 {
		t.Fatalf("export wrote %v in %s, want one dumpdiff-compare-*.md; screen:\n%s", matches, tmp, s)
	}
	contains(t, "exported file", readFile(t, matches[0]), "## Stacks of goroutine ")
	keys("q")
	testwait.Eventually(t, 20*time.Second, func() error {
		if s := screen(); strings.Contains(s, "COMPARE") {
			return fmt.Errorf("q did not leave the TUI:\n%s", s)
		}
		return nil
	})
}
