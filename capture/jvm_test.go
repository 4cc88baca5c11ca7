package capture

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// holdJava is a small program with a thread parked on a lock held by
// another, so the dump has something to show.
const holdJava = `public class Hold {
    static final Object LOCK = new Object();
    public static void main(String[] args) throws Exception {
        Thread holder = new Thread(() -> {
            synchronized (LOCK) { sleepQuietly(60000); }
        }, "capture-test-holder");
        holder.setDaemon(true);
        holder.start();
        Thread.sleep(50);
        Thread waiter = new Thread(() -> {
            synchronized (LOCK) { }
        }, "capture-test-waiter");
        waiter.setDaemon(true);
        waiter.start();
        System.out.println("ready");
        System.out.flush();
        System.in.read(); // exits when the test closes stdin
    }
    static void sleepQuietly(long ms) {
        try { Thread.sleep(ms); } catch (InterruptedException e) { }
    }
}
`

// startJVM compiles and starts Hold in t.TempDir() and returns its pid once
// it printed "ready". It is stopped when the test ends.
func startJVM(t *testing.T) int {
	t.Helper()
	javac, err := exec.LookPath("javac")
	if err != nil {
		t.Skip("javac not on PATH: the JVM target is tested against a real JVM only")
	}
	java, err := exec.LookPath("java")
	if err != nil {
		t.Skip("java not on PATH")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "Hold.java"), []byte(holdJava), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(javac, "-d", dir, filepath.Join(dir, "Hold.java")).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	cmd := exec.Command(java, "-Xmx64m", "-XX:TieredStopAtLevel=1", "-cp", dir, "Hold")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		cmd.Process.Kill()
		cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || strings.TrimSpace(line) != "ready" {
		t.Fatalf("java Hold: %q, %v", line, err)
	}
	return cmd.Process.Pid
}

func TestJVMTarget(t *testing.T) {
	t.Parallel()
	pid := startJVM(t)
	dir := t.TempDir()
	m, _, err := run(t, context.Background(), Plan{
		Targets: []Target{
			JVMTarget("", pid),
			// The way to reach a JVM in a container: any command printing a dump.
			ExecTarget("viaexec", "jcmd "+strconv.Itoa(pid)+" Thread.print -l"),
		},
		Count: 2, Every: 10 * time.Millisecond, OutDir: dir,
	}, nil)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	checkOutDir(t, dir, m)
	name := "jvm-" + strconv.Itoa(pid)
	if m.Targets[0].Name != name || m.Targets[0].Source != "pid "+strconv.Itoa(pid) {
		t.Errorf("target record %+v", m.Targets[0])
	}
	if d := m.Dumps("viaexec"); len(d) != 2 || d[0].Kind != FileJVM || d[0].Path != "viaexec__1.txt" {
		t.Errorf("exec target dumps %+v, want 2 jvm-threads", d)
	}
	dumps := m.Dumps(name)
	if len(dumps) != 2 {
		t.Fatalf("%d dumps, want 2: %+v", len(dumps), m.Files)
	}
	for _, f := range dumps {
		if f.Kind != FileJVM || f.Tool != "jcmd" {
			t.Errorf("file %+v: want jvm-threads via jcmd", f)
		}
		text := readFile(t, dir, f.Path)
		if !containsAll(text, "Full thread dump", `"capture-test-holder"`, `"capture-test-waiter"`, "BLOCKED (on object monitor)", "JNI global refs") {
			t.Errorf("%s lacks the expected threads:\n%s", f.Path, text[:min(len(text), 2000)])
		}
	}
}

// With jcmd missing from PATH, jstack takes the dump.
func TestJVMFallsBackToJstack(t *testing.T) {
	jstack, err := exec.LookPath("jstack")
	if err != nil {
		t.Skip("jstack not on PATH")
	}
	pid := startJVM(t)
	bin := t.TempDir()
	if err := os.Symlink(jstack, filepath.Join(bin, "jstack")); err != nil {
		t.Fatal(err)
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(sh, filepath.Join(bin, "sh")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin) // no t.Parallel: the environment is the process's
	dir := t.TempDir()
	m, _, err := run(t, context.Background(), Plan{Targets: []Target{JVMTarget("j", pid)}, Count: 1, OutDir: dir}, nil)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	checkOutDir(t, dir, m)
	if d := m.Dumps("j"); len(d) != 1 || d[0].Tool != "jstack" {
		t.Fatalf("dumps %+v, want one via jstack", m.Files)
	}
}

func TestJVMFaults(t *testing.T) {
	t.Parallel()
	// A finished process's pid: started, waited for, gone.
	done := exec.Command("true")
	if err := done.Run(); err != nil {
		t.Fatal(err)
	}
	gone := done.Process.Pid
	// A live process that is not a JVM.
	sleep := exec.Command("sleep", "30")
	if err := sleep.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sleep.Process.Kill(); sleep.Wait() })

	dir := t.TempDir()
	m, _, err := run(t, context.Background(), Plan{
		Targets: []Target{JVMTarget("gone", gone), JVMTarget("notjvm", sleep.Process.Pid)},
		Count:   2, Every: time.Millisecond, OutDir: dir,
	}, nil)
	if err == nil {
		t.Error("Run: no error, want no dump captured")
	}
	checkOutDir(t, dir, m)
	if got := labels(m); !slices.Equal(got, []string{"1", "2"}) {
		t.Errorf("moments %v, want [1 2]", got)
	}
	want := map[string]string{
		"gone":   "no process with pid " + strconv.Itoa(gone),
		"notjvm": "pid " + strconv.Itoa(sleep.Process.Pid) + " (sleep) is not a JVM",
	}
	if len(m.Files) != 4 {
		t.Fatalf("%d files, want 4 failures: %+v", len(m.Files), m.Files)
	}
	for _, f := range m.Files {
		prefix := f.Target + " at " + f.Moment + ": jcmd/jstack: "
		if !strings.HasPrefix(f.Error, prefix) || !strings.Contains(f.Error, want[f.Target]) {
			t.Errorf("error %q, want %q ... %q", f.Error, prefix, want[f.Target])
		}
	}
	if err := sleep.Process.Signal(syscall.Signal(0)); err != nil {
		t.Errorf("the non-JVM process did not survive the attempt: %v", err)
	}
}
