package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/internal/testwait"
)

// TestSystemdUnit: deploy/dumpdiff-watch.service passes `systemd-analyze
// verify` with nothing said (it warns, exit 0, about what it ignores), its
// ExecStart pointed at the binary built here (the unit names
// /usr/local/bin/dumpdiff, which this machine has not).
func TestSystemdUnit(t *testing.T) {
	sa, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("no systemd-analyze: the unit is not verified")
	}
	b, err := os.ReadFile("../../deploy/dumpdiff-watch.service")
	if err != nil {
		t.Fatal(err)
	}
	bin := buildDumpdiff(t)
	unit := filepath.Join(t.TempDir(), "dumpdiff-watch.service")
	if err := os.WriteFile(unit, []byte(strings.ReplaceAll(string(b), "/usr/local/bin/dumpdiff", bin)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(sa, "verify", unit).CombinedOutput()
	if err != nil || len(strings.TrimSpace(string(out))) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
}

// TestDeployCommandLines: the watch command lines the unit and the
// Kubernetes sidecar run are ones dumpdiff accepts: each runs (its folder
// and address moved into the test's own, its token a file of the test's)
// until it says it is watching, and exits 0 on SIGTERM.
func TestDeployCommandLines(t *testing.T) {
	bin := buildDumpdiff(t)
	unit, err := os.ReadFile("../../deploy/dumpdiff-watch.service")
	if err != nil {
		t.Fatal(err)
	}
	var fromUnit []string
	for _, l := range strings.Split(string(unit), "\n") {
		if rest, ok := strings.CutPrefix(l, "ExecStart=/usr/local/bin/dumpdiff "); ok {
			fromUnit = strings.Fields(rest)
		}
	}
	side, err := os.ReadFile("../../deploy/kubernetes/sidecar.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var fromPod []string
	in := false
	sc := bufio.NewScanner(strings.NewReader(string(side)))
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		switch {
		case l == "args:":
			in = true
		case in && strings.HasPrefix(l, "- "):
			fromPod = append(fromPod, strings.TrimPrefix(l, "- "))
		case in && !strings.HasPrefix(l, "#"):
			in = false
		}
	}
	if len(fromUnit) == 0 || len(fromPod) == 0 || fromUnit[0] != "watch" || fromPod[0] != "watch" {
		t.Fatalf("command lines not found: unit %q, pod %q", fromUnit, fromPod)
	}
	tmp := t.TempDir()
	token := filepath.Join(tmp, "token")
	os.WriteFile(token, []byte("s3cret\n"), 0o600)
	for name, args := range map[string][]string{"unit": fromUnit, "sidecar": fromPod} {
		t.Run(name, func(t *testing.T) {
			var run []string
			for _, a := range args {
				switch {
				case a == "/var/lib/dumpdiff-watch" || strings.HasPrefix(a, "--out="):
					a = strings.Replace(a, "/var/lib/dumpdiff-watch", filepath.Join(tmp, name), 1)
				case a == "127.0.0.1:9464" || a == "--listen=0.0.0.0:9464":
					a = strings.Replace(strings.Replace(a, "0.0.0.0:9464", "127.0.0.1:0", 1), "127.0.0.1:9464", "127.0.0.1:0", 1)
				case strings.HasPrefix(a, "--token-file="):
					a = "--token-file=" + token
				}
				run = append(run, a)
			}
			cmd := exec.Command(bin, run...)
			stderr := &lockedBuilder{}
			cmd.Stderr = stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			testwait.Eventually(t, 30*time.Second, func() error {
				if !strings.Contains(stderr.String(), "dumpdiff watch: watching ") {
					return fmt.Errorf("%v did not start: %s", run, stderr.String())
				}
				return nil
			})
			cmd.Process.Signal(syscall.SIGTERM)
			if err := cmd.Wait(); err != nil {
				t.Errorf("%v after SIGTERM: %v\n%s", run, err, stderr.String())
			}
		})
	}
}
