//go:build linux

package capture

import (
	"bufio"
	"context"
	"encoding/json"
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
	"unsafe"
)

// The helper processes of the attach tests are this test binary run
// again with helperEnv set to a mode: "nondumpable" (a process that is no
// JVM, made non-dumpable, echoing its stdin lines), "capture" (Run on the
// pid in helperPID into helperOut) or "prove" (hostProbe().prove on it).
const (
	helperEnv = "DUMPDIFF_CAPTURE_HELPER"
	helperPID = "DUMPDIFF_CAPTURE_HELPER_PID"
	helperOut = "DUMPDIFF_CAPTURE_HELPER_OUT"
	nobody    = 65534
)

// helperResult is what a "capture" or "prove" helper prints on its
// "RESULT " line.
type helperResult struct {
	Err     string
	Files   []File
	MapsErr string // "prove": why this helper could not read the target's maps
}

func TestCaptureHelperProcess(t *testing.T) {
	mode := os.Getenv(helperEnv)
	if mode == "" {
		t.Skip("a helper process of the attach tests, run by them")
	}
	pid, _ := strconv.Atoi(os.Getenv(helperPID))
	var res helperResult
	switch mode {
	case "nondumpable":
		// Not dumpable: its /proc/PID/maps, exe and root are closed to
		// every process without CAP_SYS_PTRACE, its own user's too.
		if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, syscall.PR_SET_DUMPABLE, 0, 0); e != 0 {
			fmt.Println("prctl:", e)
			os.Exit(1)
		}
		fmt.Println("ready")
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			fmt.Println(sc.Text())
		}
		os.Exit(0)
	case "capture":
		m, err := Run(context.Background(), Plan{Targets: []Target{JVMTarget("t", pid)}, Count: 1,
			OutDir: os.Getenv(helperOut), Timeout: 20 * time.Second}, nil)
		if err != nil {
			res.Err = err.Error()
		}
		if m != nil {
			res.Files = m.Files
		}
	case "prove":
		if _, err := os.ReadFile(fmt.Sprintf("/proc/%d/maps", pid)); err != nil {
			res.MapsErr = err.Error()
		}
		if err := hostProbe().prove(pid, false); err != nil {
			res.Err = err.Error()
		}
	}
	b, _ := json.Marshal(res)
	fmt.Printf("RESULT %s\n", b)
	os.Exit(0)
}

// helperBinary is a copy of this test binary that uid nobody may run (go
// test's build folder is its owner's only); skipped unless the test runs
// as root, which may start processes as another user.
func helperBinary(t *testing.T) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root: the test starts its processes as uid 65534 (nobody)")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := openDir(t)
	bin := filepath.Join(dir, "capture.test")
	src, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	return bin
}

// openDir is a new folder every user may use, removed when the test ends
// (t.TempDir's are their owner's only).
func openDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "dumpdiff-attach-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	return dir
}

// asNobody is the helper binary run in mode as uid/gid 65534.
func asNobody(bin, mode string, pid int, env ...string) *exec.Cmd {
	cmd := exec.Command(bin, "-test.run=^TestCaptureHelperProcess$")
	cmd.Env = append([]string{helperEnv + "=" + mode, helperPID + "=" + strconv.Itoa(pid), "PATH=" + os.Getenv("PATH"), "TMPDIR=/tmp"}, env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	return cmd
}

// helperRun runs a "capture" or "prove" helper and returns its result.
func helperRun(t *testing.T, cmd *exec.Cmd) helperResult {
	t.Helper()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("helper %v: %v\n%s", cmd.Env[0], err, out)
	}
	for line := range strings.Lines(string(out)) {
		if b, ok := strings.CutPrefix(line, "RESULT "); ok {
			var res helperResult
			if err := json.Unmarshal([]byte(b), &res); err != nil {
				t.Fatal(err)
			}
			return res
		}
	}
	t.Fatalf("helper %v printed no result:\n%s", cmd.Env[0], out)
	return helperResult{}
}

// createdNames watches folders for new names (inotify), so that a file
// made and removed again (as jcmd removes its .attach_pid file when the
// attach fails) is seen all the same.
type createdNames struct {
	fd    int
	names map[int32]string // watch descriptor → folder
}

func watchCreated(t *testing.T, dirs ...string) *createdNames {
	t.Helper()
	fd, err := syscall.InotifyInit1(syscall.IN_NONBLOCK | syscall.IN_CLOEXEC)
	if err != nil {
		t.Skipf("inotify: %v", err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	w := &createdNames{fd: fd, names: map[int32]string{}}
	for _, d := range dirs {
		wd, err := syscall.InotifyAddWatch(fd, d, syscall.IN_CREATE|syscall.IN_MOVED_TO)
		if err != nil {
			t.Fatalf("inotify watch %s: %v", d, err)
		}
		w.names[int32(wd)] = d
	}
	return w
}

// seen returns every path created so far whose name starts with prefix;
// an overflowed queue (names lost) fails the test.
func (w *createdNames) seen(t *testing.T, prefix string) []string {
	t.Helper()
	var found []string
	buf := make([]byte, 64<<10)
	for {
		n, err := syscall.Read(w.fd, buf)
		if errors.Is(err, syscall.EAGAIN) || n <= 0 {
			return found
		}
		if err != nil {
			t.Fatal(err)
		}
		for off := 0; off+syscall.SizeofInotifyEvent <= n; {
			ev := (*syscall.InotifyEvent)(unsafe.Pointer(&buf[off]))
			if ev.Mask&syscall.IN_Q_OVERFLOW != 0 {
				t.Fatal("inotify queue overflowed: cannot tell whether an attach file was made")
			}
			name := string(buf[off+syscall.SizeofInotifyEvent : off+syscall.SizeofInotifyEvent+int(ev.Len)])
			name = strings.TrimRight(name, "\x00")
			if strings.HasPrefix(name, prefix) {
				found = append(found, filepath.Join(w.names[ev.Wd], name))
			}
			off += syscall.SizeofInotifyEvent + int(ev.Len)
		}
	}
}

// A process that is no JVM, another user's and non-dumpable, so that its
// maps cannot be read by the capture (run as that user, which is the
// case jcmd's attach can kill: same user, so its SIGQUIT is allowed): it
// is not attached to. It is still alive and answering afterwards, no
// .attach_pid file appeared, not even for a moment, and the error says
// what to check.
func TestUnprovenPidNotAttached(t *testing.T) {
	bin := helperBinary(t)
	cwd := openDir(t)
	target := asNobody(bin, "nondumpable", 0)
	target.Dir = cwd
	stdin, err := target.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := target.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := target.Start(); err != nil {
		t.Skipf("cannot start a process as uid %d: %v", nobody, err)
	}
	t.Cleanup(func() { target.Process.Kill(); target.Wait() })
	lines := bufio.NewScanner(stdout)
	if !lines.Scan() || lines.Text() != "ready" {
		t.Fatalf("helper: %q before ready", lines.Text())
	}
	pid := target.Process.Pid
	attach := ".attach_pid" + strconv.Itoa(pid)
	created := watchCreated(t, "/tmp", cwd)

	out := filepath.Join(openDir(t), "out")
	res := helperRun(t, asNobody(bin, "capture", pid, helperOut+"="+out))
	t.Logf("capture as nobody: %+v", res)

	// Alive: it answers a line (a zombie would pass a signal 0 test).
	if _, err := io.WriteString(stdin, "still there?\n"); err != nil {
		t.Errorf("the target is gone: %v", err)
	} else if !lines.Scan() || lines.Text() != "still there?" {
		t.Errorf("the target did not answer (%v): it was killed (SIGQUIT from an attach?)", lines.Err())
	}
	if names := created.seen(t, attach); len(names) > 0 {
		t.Errorf("an attach was tried: %v appeared", names)
	}
	if _, err := os.Stat(filepath.Join("/tmp", attach)); err == nil {
		t.Errorf("/tmp/%s is there", attach)
	}
	if len(res.Files) != 1 {
		t.Fatalf("files %+v, want one failure", res.Files)
	}
	f := res.Files[0]
	if f.Reason != ReasonGone || !containsAll(f.Error, "t at 1: jcmd/jstack: pid "+strconv.Itoa(pid)+" (capture.test, uid 65534) not attached: nothing shows it is a JVM",
		"its memory map is unreadable: permission denied", "force-attach", "ps -o user,args -p "+strconv.Itoa(pid)) {
		t.Errorf("file %+v: want reason gone and what to check", f)
	}
}

// A real JVM whose maps the capture cannot read (another user's) is still
// proven one, by its java command line.
func TestJVMProvenWithoutItsMaps(t *testing.T) {
	bin := helperBinary(t)
	pid := startJVM(t) // root's
	res := helperRun(t, asNobody(bin, "prove", pid))
	if res.MapsErr == "" {
		t.Fatal("the helper could read the JVM's maps: the test does not test the other signs")
	}
	if res.Err != "" {
		t.Errorf("a real JVM, maps unreadable (%s): %s", res.MapsErr, res.Err)
	}
}
