//go:build unix

package capture

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/internal/testwait"
)

// A real process running a capture (testdata/sigterm: signal.NotifyContext
// around Run, as a command wires it) gets SIGTERM while one target's dump is
// in flight: it exits non-zero saying what was kept, the manifest is written
// with its error set, the file already written is intact, the one in flight
// leaves no temp file, and the command in flight is killed.
func TestSIGTERMMidCapture(t *testing.T) {
	t.Parallel()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build testdata/sigterm")
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "sigterm")
	if out, err := exec.Command(gobin, "build", "-o", bin, "./testdata/sigterm").CombinedOutput(); err != nil {
		t.Fatalf("building testdata/sigterm: %v\n%s", err, out)
	}

	profile := writeProfile(t, 2)
	want, err := os.ReadFile(profile)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(tmp, "out")
	pidFile := filepath.Join(tmp, "slow.pid")
	// The slow target prints a whole dump (so its temp file holds bytes),
	// says it is running, and never ends.
	slow := fmt.Sprintf("cat '%s'; echo $$ > '%s.tmp'; mv '%[2]s.tmp' '%[2]s'; exec sleep 60", profile, pidFile)

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang fails, not blocks
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, dir, "cat '"+profile+"'", slow)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}

	// Mid-capture: the fast file is written, the slow command runs.
	var progress strings.Builder
	sc := bufio.NewScanner(stderr)
	fastDone := false
	for !fastDone && sc.Scan() {
		fmt.Fprintln(&progress, sc.Text())
		fastDone = strings.Contains(sc.Text(), " ok   fast 1 ")
	}
	if !fastDone {
		cmd.Wait()
		t.Fatalf("child ended before the fast file was written:\n%s", progress.String())
	}
	var slowPID int
	testwait.Eventually(t, 30*time.Second, func() error { // moved into place whole
		b, err := os.ReadFile(pidFile)
		if err == nil {
			slowPID, err = strconv.Atoi(strings.TrimSpace(string(b)))
		}
		return err
	})
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(stderr)
	progress.Write(rest)
	err = cmd.Wait()
	t.Logf("child stderr:\n%s", progress.String())

	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("child exit: %v, want exit status 1", err)
	}
	const cause = "terminated signal received" // signal.NotifyContext's cause
	wantErr := "interrupted after 1 moment: 1 file kept in " + dir + ", 1 discarded: " + cause
	if !strings.HasSuffix(progress.String(), "\ncapture: "+wantErr+"\n") {
		t.Errorf("child's last line is not %q", "capture: "+wantErr)
	}

	m, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	checkOutDir(t, dir, m) // no temp file, nothing unlisted
	if m.Error != wantErr || m.Finished.IsZero() {
		t.Errorf("manifest error %q finished %v, want %q and set", m.Error, m.Finished, wantErr)
	}
	if got := labels(m); len(got) != 1 || got[0] != "1" {
		t.Errorf("moments %v, want [1]", got)
	}
	if d := m.Dumps("fast"); len(d) != 1 || d[0].Size != int64(len(want)) {
		t.Errorf("fast dumps %+v, want one of %d bytes", d, len(want))
	} else if got := readFile(t, dir, d[0].Path); got != string(want) {
		t.Errorf("%s differs from what the command printed", d[0].Path)
	}
	wantSlow := "slow at 1: command: interrupted, nothing kept: " + cause
	if f := filesOf(m, "slow", FileUnknown); len(f) != 1 || f[0].Error != wantSlow {
		t.Errorf("slow files %+v, want one with error %q", f, wantSlow)
	}
	// The command in flight was killed with its process group, and reaped.
	if err := syscall.Kill(slowPID, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("slow command (pid %d) still there after the capture exited: %v", slowPID, err)
	}
}
