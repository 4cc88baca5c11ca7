package analyze

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// pasteLoop writes a JVM paste of k threads RUNNABLE in row's function,
// as a person pastes them into an issue: whole (a "Full thread dump"
// header) or cut (it starts at a thread), printed by JDK 8 (no module) or
// JDK 17 (java.base@17 and cpu=), with callee frames above the walk (the
// key's hashCode and equals) and, beside them, others of the kinds given:
// "run" (RUNNABLE in the application's code), "read" (RUNNABLE in a
// socket read, a native method), "sleep", "blocked".
func pasteLoop(row HotLoop, k, above int, whole, jdk8 bool, others []string) string {
	var s strings.Builder
	if whole {
		s.WriteString("2026-12-07 04:30:00\nFull thread dump Java HotSpot(TM) 64-Bit Server VM (25.72-b15 mixed mode):\n\n")
	} else {
		s.WriteString("We see 100% CPU; the thread dump shows:\n\n")
	}
	id := 0
	head := func(name, state, word string) {
		id++
		cpu := ""
		if !jdk8 {
			cpu = "cpu=1200.00ms elapsed=3600.00s "
		}
		fmt.Fprintf(&s, "\"%s\" #%d daemon prio=5 os_prio=0 %stid=0x00007f00000%04x nid=0x%x %s [0x00007f0000000000]\n   java.lang.Thread.State: %s\n", name, id, cpu, id, 0x100+id, word, state)
	}
	jdk := func(class, method, file string, line int) {
		switch {
		case line == 0 && jdk8:
			fmt.Fprintf(&s, "\tat %s.%s(Native Method)\n", class, method)
		case line == 0:
			fmt.Fprintf(&s, "\tat %s.%s(java.base@17.0.15/Native Method)\n", class, method)
		case jdk8:
			fmt.Fprintf(&s, "\tat %s.%s(%s:%d)\n", class, method, file, line)
		default:
			fmt.Fprintf(&s, "\tat %s.%s(java.base@17.0.15/%s:%d)\n", class, method, file, line)
		}
	}
	fn := concreteFunc(row.Func)
	i := strings.LastIndexByte(fn, '.')
	class, method := fn[:i], fn[i+1:]
	file := class[strings.LastIndexByte(class, '.')+1:]
	if j := strings.IndexByte(file, '$'); j >= 0 {
		file = file[:j]
	}
	tail := func() {
		s.WriteString("\tat com.example.registry.Registry.find(Registry.java:68)\n\tat com.example.web.Dispatch.execute(Dispatch.java:111)\n")
		jdk("java.lang.Thread", "run", "Thread.java", 748)
		s.WriteString("\n")
	}
	for n := 1; n <= k; n++ {
		head(fmt.Sprintf("http-443-%d", n), "RUNNABLE", "runnable")
		for a := range above {
			fmt.Fprintf(&s, "\tat com.example.registry.Key.%s(Key.java:%d)\n", []string{"equals", "hashCode"}[a%2], 30+a)
		}
		jdk(class, method, file+".java", 465)
		tail()
	}
	for n, o := range others {
		switch o {
		case "run":
			head(fmt.Sprintf("worker-%d", n), "RUNNABLE", "runnable")
			s.WriteString("\tat com.example.report.Totals.sum(Totals.java:21)\n")
		case "read":
			head(fmt.Sprintf("worker-%d", n), "RUNNABLE", "runnable")
			jdk("java.net.SocketInputStream", "socketRead0", "SocketInputStream.java", 0)
			s.WriteString("\tat com.example.db.Client.read(Client.java:90)\n")
		case "sleep":
			head(fmt.Sprintf("worker-%d", n), "TIMED_WAITING (sleeping)", "waiting on condition")
			jdk("java.lang.Thread", "sleep", "Thread.java", 0)
			s.WriteString("\tat com.example.jobs.Poller.run(Poller.java:14)\n")
		case "blocked":
			head(fmt.Sprintf("worker-%d", n), "BLOCKED (on object monitor)", "waiting for monitor entry")
			s.WriteString("\tat com.example.cache.Store.load(Store.java:50)\n\t- waiting to lock <0x00000000c0ffee00> (a java.lang.Object)\n")
		}
		jdk("java.lang.Thread", "run", "Thread.java", 748)
		s.WriteString("\n")
	}
	return s.String()
}

// TestCutAloneProperty derives the paste rule (cutAlone) from generated
// pastes: one or two threads on an Alone row's walk are spinning in one
// moment only when the paste is a cut (no "Full thread dump" header),
// printed by a JDK without modules (8 and older), with the walk on top
// (no hashCode or equals above it) and no other thread of the paste
// running application code (a socket read, a sleep, a blocked thread may
// be beside it). Anything else stays as before: the row's Threads decide
// (a whole dump of a busy service passes through HashMap.get), said as
// basis loop-shape when they do.
func TestCutAloneProperty(t *testing.T) {
	var rows []HotLoop
	for _, h := range hotLoops {
		if h.Alone {
			rows = append(rows, h)
		}
	}
	if len(rows) < 5 {
		t.Fatalf("%d Alone rows", len(rows))
	}
	kinds := []string{"run", "read", "sleep", "blocked"}
	rng := rand.New(rand.NewSource(33))
	for i := range 600 {
		row := rows[rng.Intn(len(rows))]
		k := 1 + rng.Intn(2)
		above := 0
		if rng.Intn(3) == 0 {
			above = 1 + rng.Intn(2)
		}
		whole, jdk8 := rng.Intn(3) == 0, rng.Intn(3) != 0
		var others []string
		for range rng.Intn(3) {
			others = append(others, kinds[rng.Intn(len(kinds))])
		}
		running := false
		for _, o := range others {
			running = running || o == "run"
		}
		text := pasteLoop(row, k, above, whole, jdk8, others)
		ds, err := parse.Parse("paste.txt", strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		if got := ds[0].Cut; got == whole {
			t.Fatalf("#%d: Cut %v for whole=%v\n%s", i, got, whole, text)
		}
		inRow := above < row.Top
		alone := inRow && !whole && jdk8 && above == 0 && !running
		rowCount := inRow && k >= row.Threads
		want, basis := 0, ""
		switch {
		case rowCount:
			want, basis = k, "loop-shape"
		case alone:
			want, basis = k, "loop-shape-cut"
		}
		got := 0
		for _, f := range Analyze([]Input{{Dump: ds[0]}}, Options{}).Findings {
			if f.Kind != KindSpinning {
				continue
			}
			got += f.Counts[0]
			if f.Basis != basis {
				t.Errorf("#%d %s: basis %q, want %q", i, row.Func, f.Basis, basis)
			}
			if basis == "loop-shape-cut" && !strings.HasPrefix(f.Culprit, "com.example.registry.Registry.find") {
				t.Errorf("#%d %s: culprit %q, want the application's frame calling the map", i, row.Func, f.Culprit)
			}
			if f.Severity != Warning {
				t.Errorf("#%d: severity %v, want a warning (nothing in the paste waits for it)", i, f.Severity)
			}
		}
		if got != want {
			t.Fatalf("#%d %s k=%d above=%d whole=%v jdk8=%v others=%v: %d spinning, want %d\n%s", i, row.Func, k, above, whole, jdk8, others, got, want, text)
		}
	}
}

// TestCutAloneBusyControls: every thread of the busy controls
// (testdata/verdicts/*-busy-healthy: writers into maps and sets of their
// own, JDK 17) RUNNABLE in a java.util map's frames, cut alone into a
// paste as a person would paste it, stays without a spinning finding: a
// JDK 9+ map's walk (getNode, putVal, removeNode, a tree's) is no Alone
// row's, and its frames print a module.
func TestCutAloneBusyControls(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "verdicts", "*-busy-healthy", "*.txt"))
	cuts := 0
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, block := range strings.Split(string(b), "\n\n") {
			if !strings.HasPrefix(block, "\"") || !strings.Contains(block, "State: RUNNABLE") || !strings.Contains(block, "at java.util.") ||
				!strings.Contains(block, "Map") && !strings.Contains(block, "Set") {
				continue
			}
			cuts++
			paste := "The thread at 100% CPU:\n\n" + block + "\n"
			ds, err := parse.Parse("paste.txt", strings.NewReader(paste))
			if err != nil || len(ds) == 0 {
				t.Fatalf("%s: %v", file, err)
			}
			if !ds[0].Cut {
				t.Fatalf("%s: a paste of one thread not read as a cut", file)
			}
			for _, f := range Analyze([]Input{{Dump: ds[0]}}, Options{}).Findings {
				if f.Kind == KindSpinning {
					t.Errorf("%s: spinning (%s) in a busy thread cut alone:\n%s", file, f.Basis, block)
				}
			}
		}
	}
	if cuts < 10 {
		t.Fatalf("%d busy threads cut, want the controls' map writers (10 or more)", cuts)
	}
	t.Logf("%d busy threads cut alone: none spinning", cuts)
}
