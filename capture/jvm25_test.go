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
	if len(m.Files) != 2 || strings.Contains(out, "FAIL") {
		t.Errorf("files %+v: want the two JSON moments only", m.Files)
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
	beside := m.Beside("vt", "1")
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
