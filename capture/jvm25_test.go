package capture

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/internal/javatest"
)

// jdk25 is the bin folder of a JDK 25 (javatest.JDK25Bin) whose jcmd the
// capture is to find on PATH; the test is skipped without either.
func jdk25(t *testing.T) string {
	t.Helper()
	bin := javatest.JDK25Bin(t)
	if _, err := exec.LookPath("jcmd"); err != nil {
		t.Skip("jcmd not on PATH")
	}
	return bin
}

// virtualJava is testdata/gen/java-live/Virtual.java: n virtual threads
// waiting on a latch and m more parked on a ReentrantLock held by a
// platform thread (java Virtual n m).
const virtualJava = "../testdata/gen/java-live/Virtual.java"

// startJava25 compiles and starts Virtual on JDK 25 and returns its pid.
func startJava25(t *testing.T, bin string, args ...string) int {
	t.Helper()
	return javatest.InBin(bin).Start(t, virtualJava, []string{"-Xmx128m", "-XX:TieredStopAtLevel=1"}, args...)
}

// jsonThreads counts a JSON dump's threads per container.
func jsonThreads(t *testing.T, path string) map[string]int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		ThreadDump struct {
			ThreadContainers []struct {
				Container string            `json:"container"`
				Threads   []json.RawMessage `json:"threads"`
			} `json:"threadContainers"`
		} `json:"threadDump"`
	}
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	out := map[string]int{}
	for _, c := range d.ThreadDump.ThreadContainers {
		kind, _, _ := strings.Cut(c.Container, "@")
		out[kind] += len(c.Threads)
	}
	return out
}

// leftovers lists the JSON dumps capture had the target write into its
// /tmp that are still there.
func leftovers(pid int) []string {
	m, _ := filepath.Glob(filepath.Join("/proc", strconv.Itoa(pid), "root", "tmp", "dumpdiff-*-"+strconv.Itoa(pid)+"-*.json"))
	return m
}

// A JDK 25 target is dumped with Thread.dump_to_file: every virtual
// thread is in the moment, the file the target wrote is removed, the cost
// is read from hsperfdata, and the version is the target's own (the jcmd
// on PATH is Java 17's).
func TestJVMVirtualThreads(t *testing.T) {
	t.Parallel()
	bin := jdk25(t)
	pid := startJava25(t, bin, "2000", "0")
	dir := filepath.Join(t.TempDir(), "out")
	m, out, err := run(t, context.Background(), Plan{Targets: []Target{JVMTarget("vt", pid)}, Count: 2, Every: 10 * time.Millisecond, OutDir: dir}, nil)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	checkOutDir(t, dir, m)
	if v := m.Targets[0].JavaVersion; v != 25 {
		t.Errorf("java_version %d, want 25 (the target's, read from its hsperfdata)", v)
	}
	d := m.Dumps("vt")
	if len(d) != 2 {
		t.Fatalf("%d dumps, want 2: %+v", len(d), m.Files)
	}
	for _, f := range d {
		if f.Kind != FileJVMJSON || f.Tool != "jcmd Thread.dump_to_file" || !strings.HasSuffix(f.Path, ".json") || f.Note != "" {
			t.Errorf("file %+v: want a jvm-json moment via Thread.dump_to_file", f)
		}
		if f.Cost == nil || f.Cost.PauseSource != "hsperfdata" {
			t.Errorf("file %s cost %+v: want the safepoint time from hsperfdata", f.Path, f.Cost)
		}
		counts := jsonThreads(t, filepath.Join(dir, f.Path))
		if n := counts["java.util.concurrent.ThreadPerTaskExecutor"]; n != 2000 {
			t.Errorf("%s: %d virtual threads under their executor, want 2000: %v", f.Path, n, counts)
		}
	}
	if l := leftovers(pid); len(l) > 0 {
		t.Errorf("the target's JSON dumps were not removed: %v", l)
	}
	if len(m.Files) != 4 || strings.Contains(out, "FAIL") {
		t.Errorf("files %+v: want the two JSON moments and the scheduler beside each", m.Files)
	}
	// JDK 24+: the virtual-thread scheduler beside each moment, its own
	// file, listed in the manifest.
	for _, label := range []string{"1", "2"} {
		var sched []File
		for _, f := range m.Beside("vt", label) {
			if f.Kind == FileVThreadScheduler {
				sched = append(sched, f)
			}
		}
		if len(sched) != 1 || sched[0].Tool != "jcmd Thread.vthread_scheduler" || sched[0].Path != "vt__"+label+"-vthread-scheduler.txt" || sched[0].Primary {
			t.Fatalf("moment %s: scheduler files %+v, want vt__%s-vthread-scheduler.txt beside the dump", label, sched, label)
		}
		if text := readFile(t, dir, sched[0].Path); !containsAll(text, "java.util.concurrent.ForkJoinPool@", "parallelism = ", "active = ") {
			t.Errorf("%s: %q", sched[0].Path, text)
		}
	}
	if tr := m.Targets[0]; tr.VThreadScheduler != "served" || tr.VThreadSchedulerSkipped != 0 {
		t.Errorf("target %+v: want the scheduler served, no moment skipped", tr)
	}
}

// A JVM before JDK 24 has no Thread.vthread_scheduler: a target known to
// be one (Java 17, from its hsperfdata) is not asked, and its moments are
// counted as taken without it.
func TestJVMVThreadSchedulerBeforeJDK24(t *testing.T) {
	t.Parallel()
	pid := startJVM(t)
	m, _, err := run(t, context.Background(), Plan{Targets: []Target{JVMTarget("j", pid)}, Count: 2, Every: time.Millisecond}, nil)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	tr := m.Targets[0]
	if tr.JavaVersion >= minVThreadScheduler || tr.JavaVersion == 0 {
		t.Skipf("the java on PATH is Java %d, not one before 24", tr.JavaVersion)
	}
	if tr.VThreadScheduler != "absent" || tr.VThreadSchedulerSkipped != 2 {
		t.Errorf("target %+v: want the scheduler absent and 2 moments skipped", tr)
	}
	for _, f := range m.Files {
		if f.Kind == FileVThreadScheduler {
			t.Errorf("a scheduler file for Java %d: %+v", tr.JavaVersion, f)
		}
	}
}

// A target that refuses the command (as a JVM before JDK 24 answers,
// testdata/jvm/vthread-scheduler/jcmd-17-refused.txt) is asked once: the
// refusal is remembered, no file is recorded for it, and every moment is
// counted as taken without it. A jcmd in front of the real one answers
// the refusal and logs what it was asked.
func TestJVMVThreadSchedulerRefusedOnce(t *testing.T) {
	bin := jdk25(t)
	jcmd, _ := exec.LookPath("jcmd")
	pid := startJava25(t, bin, "10", "0")
	fake := t.TempDir()
	log := filepath.Join(fake, "asked")
	script := "#!/bin/sh\nif [ \"$2\" = Thread.vthread_scheduler ]; then\n\techo \"$2\" >>" + log + "\n\techo \"$1:\"\n\techo 'java.lang.IllegalArgumentException: Unknown diagnostic command' >&2\n\texit 1\nfi\nexec " + jcmd + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(fake, "jcmd"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", fake+string(os.PathListSeparator)+os.Getenv("PATH")) // no t.Parallel: the environment is the process's
	m, _, err := run(t, context.Background(), Plan{Targets: []Target{JVMTarget("vt", pid)}, Count: 3, Every: time.Millisecond}, nil)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if d := m.Dumps("vt"); len(d) != 3 {
		t.Fatalf("dumps %+v: want 3 moments, the refusal no failure of theirs", m.Files)
	}
	b, err := os.ReadFile(log)
	if err != nil || strings.Count(string(b), "Thread.vthread_scheduler") != 1 {
		t.Errorf("asked %q (%v): want once", b, err)
	}
	tr := m.Targets[0]
	if tr.VThreadScheduler != "absent" || tr.VThreadSchedulerSkipped != 3 || tr.Fate != FateOK {
		t.Errorf("target %+v: want the scheduler absent, 3 moments skipped, the target ok", tr)
	}
	for _, f := range m.Files {
		if f.Kind == FileVThreadScheduler {
			t.Errorf("a file recorded for the refusal: %+v", f)
		}
	}
}

// Virtual threads parked on a ReentrantLock: the JSON dump names no owner,
// so Thread.print -l is taken beside it and names the platform holder.
func TestJVMVirtualThreadLockOwners(t *testing.T) {
	t.Parallel()
	bin := jdk25(t)
	pid := startJava25(t, bin, "10", "3")
	dir := filepath.Join(t.TempDir(), "out")
	m, _, err := run(t, context.Background(), Plan{Targets: []Target{JVMTarget("vt", pid)}, Count: 1, OutDir: dir}, nil)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	checkOutDir(t, dir, m)
	d := m.Dumps("vt")
	var beside []File
	for _, f := range m.Beside("vt", "1") {
		if f.Kind != FileVThreadScheduler { // taken beside every JDK 24+ moment
			beside = append(beside, f)
		}
	}
	if len(d) != 1 || d[0].Kind != FileJVMJSON || len(beside) != 1 {
		t.Fatalf("dumps %+v, beside %+v: want a JSON moment and the -l text beside it", d, beside)
	}
	if want := "3 threads park on a java.util.concurrent lock the JSON dump names no owner of: Thread.print -l is taken beside it"; d[0].Note != want {
		t.Errorf("note %q, want %q", d[0].Note, want)
	}
	b := beside[0]
	if b.Kind != FileJVM || b.Tool != "jcmd -l" || b.Path != "vt__1-locks.txt" || b.Cost == nil {
		t.Errorf("beside %+v: want vt__1-locks.txt via jcmd -l with its cost", b)
	}
	if text := readFile(t, dir, b.Path); !containsAll(text, `"capture-test-lock-holder"`, "Locked ownable synchronizers:", "ReentrantLock$NonfairSync") {
		t.Errorf("%s does not name the lock's owner", b.Path)
	}
	if l := leftovers(pid); len(l) > 0 {
		t.Errorf("the target's JSON dumps were not removed: %v", l)
	}
}

func TestFeatureVersion(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int{"25": 25, "25.0.3": 25, "21-ea": 21, "1.8": 8, "17.0.15+6": 17, "": 0, "x": 0} {
		if got := featureVersion(in); got != want {
			t.Errorf("featureVersion(%q) = %d, want %d", in, got, want)
		}
	}
}
