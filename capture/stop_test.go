package capture

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// closedPort is a 127.0.0.1 address nothing listens on: a listener taken
// and closed.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// TestStopsEarly: a run whose every target fails its first moment for a
// reason waiting seldom mends (nothing listens, the pid is no JVM) stops
// there with a StoppedError, says each failure once and the error no
// failure again; the load is not started against it; the folder it leaves
// holds only the manifest and takes the same command again. A run where
// one target answers, or one kept trying, goes on.
func TestStopsEarly(t *testing.T) {
	sleep := exec.Command("sleep", "30")
	if err := sleep.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sleep.Process.Kill(); sleep.Wait() })
	refused := PprofTarget("down", "http://"+closedPort(t))
	notJVM := JVMTarget("notjvm", sleep.Process.Pid)
	up := PprofTarget("up", newHandlerServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("goroutine profile: total 1\n1 @ 0x1\n#\t0x1\tmain.main+0x1\t/x/main.go:1\n\n"))
	}).URL)

	for _, tt := range []struct {
		name    string
		targets []Target
		load    string
		keep    bool
		stopped bool
	}{
		{"nothing listens", []Target{refused}, "", false, true},
		{"no JVM", []Target{notJVM}, "", false, true},
		{"both", []Target{refused, notJVM}, "", false, true},
		{"nothing listens, load", []Target{refused}, "touch started", false, true},
		{"one answers", []Target{refused, up}, "", false, false},
		{"kept trying", []Target{refused}, "", true, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			p := Plan{Targets: tt.targets, Count: 3, Every: time.Millisecond, OutDir: dir, KeepTrying: tt.keep}
			if tt.load != "" {
				p.Load, p.Every, p.After = "cd "+t.TempDir()+" && "+tt.load, time.Millisecond, time.Millisecond
			}
			m, out, err := run(t, context.Background(), p, nil)
			se, isStop := errors.AsType[*StoppedError](err)
			if isStop != tt.stopped {
				t.Fatalf("stopped %v (err %v), want %v", isStop, err, tt.stopped)
			}
			if !tt.stopped {
				if len(m.Moments) < 2 {
					t.Errorf("moments %v: the schedule did not go on", labels(m))
				}
				// A failure repeated at each moment is said whole once,
				// then as "as at 1", and once more at most by the error.
				for _, f := range m.Files {
					body := strings.TrimPrefix(f.Error, f.Target+" at "+f.Moment+": ")
					if f.Error != "" && strings.Count(out+err.Error(), body) > 2 {
						t.Errorf("%q said %d times:\n%s\nerror: %v", body, strings.Count(out+err.Error(), body), out, err)
					}
				}
				return
			}
			if len(m.Moments) != 1 {
				t.Errorf("moments %v, want the first only", labels(m))
			}
			if len(se.Failures) != len(tt.targets) {
				t.Errorf("%d failures in the error, want one per target", len(se.Failures))
			}
			for _, f := range se.Failures {
				if !slices.Contains(StopReasons, f.Reason) {
					t.Errorf("failure of reason %q stopped the run", f.Reason)
				}
				// Said once: its progress line, never again in the error
				// nor in the done line.
				if n := strings.Count(out+err.Error(), f.Error); n != 1 {
					t.Errorf("%q said %d times:\n%s\nerror: %v", f.Error, n, out, err)
				}
			}
			if strings.Contains(err.Error(), "captured") {
				t.Errorf("the error speaks of a capture: %v", err)
			}
			if tt.load != "" && m.Load != nil {
				t.Errorf("the load was started against targets that cannot answer: %+v", m.Load)
			}
			// The same command again in the same folder: not refused as
			// "already holds a capture".
			if _, _, err2 := run(t, context.Background(), p, nil); !errors.As(err2, &se) {
				t.Errorf("the same command again: %v, want it to run (and stop the same way)", err2)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 || entries[0].Name() != ManifestName {
				t.Errorf("the folder holds %v, want only %s", entries, ManifestName)
			}
		})
	}
}
