package capture

import (
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

	"github.com/dumpdiff/dumpdiff/internal/javatest"
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

// lockHoldJava parks a thread on a ReentrantLock held by another: a dump
// without -l cannot say who holds it.
const lockHoldJava = `import java.util.concurrent.locks.ReentrantLock;
public class LockHold {
    static final ReentrantLock LOCK = new ReentrantLock();
    public static void main(String[] args) throws Exception {
        Thread holder = new Thread(() -> {
            LOCK.lock();
            try { Thread.sleep(60000); } catch (InterruptedException e) { } finally { LOCK.unlock(); }
        }, "capture-test-lock-holder");
        holder.setDaemon(true);
        holder.start();
        Thread.sleep(50);
        for (int i = 0; i < 2; i++) {
            Thread waiter = new Thread(() -> { LOCK.lock(); LOCK.unlock(); }, "capture-test-lock-waiter-" + i);
            waiter.setDaemon(true);
            waiter.start();
        }
        Thread.sleep(50);
        System.out.println("ready");
        System.out.flush();
        System.in.read();
    }
}
`

// startJVM compiles and starts Hold in t.TempDir() and returns its pid once
// it printed "ready". It is stopped when the test ends.
func startJVM(t *testing.T) int { return startJava(t, "Hold", holdJava) }

// startJava compiles and starts class (source src) like startJVM.
func startJava(t *testing.T, class, src string) int {
	t.Helper()
	return javatest.OnPath(t).StartSource(t, class, src, []string{"-Xmx64m", "-XX:TieredStopAtLevel=1"})
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
	if m.Targets[0].Name != name || m.Targets[0].Source != "pid "+strconv.Itoa(pid) || m.Targets[0].JavaVersion != 17 {
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
		// A monitor's owner is printed without -l: no heap walk needed.
		if f.Kind != FileJVM || f.Tool != "jcmd" || f.Note != "" {
			t.Errorf("file %+v: want jvm-threads via jcmd, without -l", f)
		}
		if f.Cost == nil || f.Cost.PauseSource != "hsperfdata" || f.Cost.PauseMS <= 0 {
			t.Errorf("file %s cost %+v: want the safepoint time read from hsperfdata", f.Path, f.Cost)
		}
		text := readFile(t, dir, f.Path)
		if !containsAll(text, "Full thread dump", `"capture-test-holder"`, `"capture-test-waiter"`, "BLOCKED (on object monitor)", "JNI global refs") {
			t.Errorf("%s lacks the expected threads:\n%s", f.Path, text[:min(len(text), 2000)])
		}
	}
}

// Threads parked on a ReentrantLock: its owner is printed only by -l, so
// the dump is taken again with -l and says why; the next moment goes to -l
// at once. With Plan.Locks every dump is taken with -l.
func TestJVMLocksWhenNeeded(t *testing.T) {
	t.Parallel()
	pid := startJava(t, "LockHold", lockHoldJava)
	dir := t.TempDir()
	m, _, err := run(t, context.Background(), Plan{Targets: []Target{JVMTarget("j", pid)}, Count: 2, Every: time.Millisecond, OutDir: dir}, nil)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	checkOutDir(t, dir, m)
	d := m.Dumps("j")
	if len(d) != 2 || d[0].Tool != "jcmd -l" || d[1].Tool != "jcmd -l" {
		t.Fatalf("dumps %+v, want both via jcmd -l", d)
	}
	if want := "taken again with -l: 2 threads park on a java.util.concurrent lock whose owner only -l prints"; d[0].Note != want || d[1].Note != "" {
		t.Errorf("notes %q, %q; want %q then none (the second went to -l at once)", d[0].Note, d[1].Note, want)
	}
	if text := readFile(t, dir, d[0].Path); !containsAll(text, "Locked ownable synchronizers:", "ReentrantLock$NonfairSync", `"capture-test-lock-holder"`) {
		t.Errorf("%s lacks the owner section", d[0].Path)
	}

	hold := startJVM(t)
	m, _, err = run(t, context.Background(), Plan{Targets: []Target{JVMTarget("h", hold)}, Count: 1, Locks: true}, nil)
	if err != nil || len(m.Dumps("h")) != 1 || m.Dumps("h")[0].Tool != "jcmd -l" {
		t.Errorf("Locks: %v, %+v; want jcmd -l", err, m.Files)
	}
}

func TestOwnableWaiters(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "d.txt")
	os.WriteFile(path, []byte(`"a" #1
   java.lang.Thread.State: WAITING (parking)
	at jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)
	- parking to wait for  <0x000000062a8a1b40> (a java.util.concurrent.locks.ReentrantLock$NonfairSync)
"b" #2
	- parking to wait for  <0x000000062a8a1b48> (a java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject)
"c" #3
	- parking to wait for  <0x000000062a8a1b50> (a java.util.concurrent.CountDownLatch$Sync)
"d" #4
	- parking to wait for  <0x000000062a8a1b58> (a java.util.concurrent.locks.ReentrantReadWriteLock$NonfairSync)
`), 0o644)
	if n, err := ownableWaiters(path); n != 2 || err != nil {
		t.Errorf("ownableWaiters = %d, %v; want 2 (the ReentrantLock and the read-write lock)", n, err)
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
		KeepTrying: true, // else the first moment ends the run (TestStopsEarly)
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

// -l obeys the pause budget: once an -l dump stopped the target longer
// than Plan.MaxPause, the next moments are taken without it and say why.
func TestJVMLocksPauseBudget(t *testing.T) {
	t.Parallel()
	pid := startJava(t, "LockHold", lockHoldJava)
	dir := t.TempDir()
	m, _, err := run(t, context.Background(), Plan{Targets: []Target{JVMTarget("j", pid)}, Count: 2, Every: time.Millisecond,
		MaxPause: time.Nanosecond, OutDir: dir}, nil)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	d := m.Dumps("j")
	if len(d) != 2 || d[0].Tool != "jcmd -l" || d[0].Cost == nil || d[0].Cost.PauseMS <= 0 {
		t.Fatalf("dumps %+v: want the first via jcmd -l, its stop measured", d)
	}
	if d[1].Tool != "jcmd" || !strings.Contains(d[1].Note, "kept without -l: the last -l stopped the target") ||
		!strings.Contains(d[1].Note, "> max-pause 1ns; 2 threads park on a java.util.concurrent lock whose owner is unknown") {
		t.Errorf("second dump %+v: want it without -l, saying why", d[1])
	}
}
