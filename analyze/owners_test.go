package analyze

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestFormatsFixtureFindings: the real dumps of testdata/formats give the
// findings their sources describe (testdata/formats/README.md): each
// deadlock with its members, the ThreadInfo contention with its holder,
// none where the source describes none; an excerpt is said in a warning.
func TestFormatsFixtureFindings(t *testing.T) {
	tests := []struct {
		file       string
		deadlock   []string // members, sorted; nil for none
		contention string   // the holder of a contention finding; "" for none
		excerpt    bool
	}{
		{"openj9-docs__javacore-deadlock-excerpt.txt", []string{"Worker Thread 1", "Worker Thread 2", "Worker Thread 3"}, "", true},
		{"openj9-docs__javacore-threads-excerpt.txt", nil, "", true},
		{"javacore-analyser__ibm-j9-8.0.6.15__quoted-name.txt", nil, "", false},
		{"intellij__simple-deadlock.txt", []string{"Thread-1", "Thread-2"}, "", false},
		{"intellij__virtual-threads-deadlock.txt", []string{"Scope-A-worker-0", "Scope-B-worker-0"}, "", false},
		{"threadinfo-jdk17__three-way.txt", []string{"ring-0", "ring-1", "ring-2"}, "holder", false},
		{"jrockit__written-from-the-format.txt", []string{"Thread-0", "Thread-1", "Thread-2"}, "", false},
		{"jhsdb-jdk17__deadlock.txt", []string{"worker-1", "worker-2"}, "", false},
		{"jhsdb-jdk25__deadlock.txt", []string{"worker-1", "worker-2"}, "", false},
		{"intellij-tests__jstack-F-jdk8.txt", nil, "", false},
		{"openj9-docs__javacore-locks-contention.txt", nil, "Worker Thread 0", true},
		{"openj9-docs__javacore-locks-deadlock.txt", []string{"Worker Thread 1", "Worker Thread 2", "Worker Thread 3"}, "", true},
		{"openj9-docs__javacore-locks-healthy.txt", nil, "", true},
		{"javacore-analyser__ibm-j9-8.0.6.15__locks-section.txt", nil, "", true},
		{"openj9-docs__javacore-locks-one-monitor.txt", nil, "Worker Thread 0", true},
		{"javacore-analyser__ibm-j9-8.0.6.15__regmon-excerpt.txt", nil, "", true},
		{"eclipse__written-from-the-format.txt", []string{"worker-1", "worker-2"}, "", true},
		{"karaf-threads-jdk17__rules.txt", []string{"lock-a", "lock-b"}, "rule-holder", false},
		{"dropwizard-jdk17__stall.txt", []string{"lock-a", "lock-b"}, "ledger", false},
		{"dropwizard-jdk17__healthy.txt", nil, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			ds, err := parse.ParseFile(filepath.Join("..", "testdata", "formats", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			r := Analyze([]Input{{Dump: ds[0]}}, Options{})
			var members []string
			holder := ""
			for _, f := range r.Findings {
				switch f.Kind {
				case KindDeadlock:
					if members != nil {
						t.Errorf("a second deadlock: %s", f.ID)
					}
					members = []string{}
					for _, c := range f.Cycle {
						members = append(members, c.Name)
						if c.WaitsFor == nil || c.WaitsFor.Holder == "" {
							t.Errorf("%s: no holder for what it waits for", c.Name)
						}
					}
					sort.Strings(members)
				case KindContention:
					if f.Lock != nil && f.Lock.Owner != nil {
						holder = f.Lock.Owner.Name
					}
				}
			}
			if fmt.Sprint(members) != fmt.Sprint(tt.deadlock) || (members == nil) != (tt.deadlock == nil) {
				t.Errorf("deadlock members %v, want %v", members, tt.deadlock)
			}
			if holder != tt.contention {
				t.Errorf("contention holder %q, want %q", holder, tt.contention)
			}
			said := false
			for _, w := range r.Warnings {
				said = said || strings.Contains(w, "an excerpt")
			}
			if said != tt.excerpt {
				t.Errorf("excerpt warned: %v, want %v (%q)", said, tt.excerpt, r.Warnings)
			}
		})
	}
}

// ringFormats write a ring of n threads, each blocked on a monitor whose
// owner (printed by the waiter alone: no thread prints what it holds) is
// the next, in a format that prints owners; the threads are written in
// the order given and named name(i), their ids 0x40+i.
var ringFormats = []struct {
	name  string
	write func(b *strings.Builder, order []int, n int, name func(int) string)
}{
	{"javacore", func(b *strings.Builder, order []int, n int, name func(int) string) {
		for _, i := range order {
			next := (i + 1) % n
			fmt.Fprintf(b, "3XMTHREADINFO      %q J9VMThread:0x%X, omrthread_t:0x1, java/lang/Thread:0x2, state:B, prio=5\n", name(i), 0x9000+i)
			fmt.Fprintf(b, "3XMJAVALTHREAD            (java/lang/Thread getId:0x%X, isDaemon:false)\n", 0x40+i)
			fmt.Fprintf(b, "3XMTHREADBLOCK     Blocked on: java/lang/Object@0xB%03X Owned by: %q (J9VMThread:0x%X, java/lang/Thread:0x2)\n", next, name(next), 0x9000+next)
			b.WriteString("3XMTHREADINFO3           Java callstack:\n4XESTACKTRACE                at WorkerThread.run(DeadLockTest.java:35)\n...\n")
		}
	}},
	{"threadinfo", func(b *strings.Builder, order []int, n int, name func(int) string) {
		for _, i := range order {
			next := (i + 1) % n
			fmt.Fprintf(b, "%q daemon prio=5 Id=%d BLOCKED on java.lang.Object@b%03x owned by %q Id=%d\n", name(i), 0x40+i, next, name(next), 0x40+next)
			fmt.Fprintf(b, "\tat app//Ring.step(Ring.java:18)\n\t-  blocked on java.lang.Object@b%03x\n\n", next)
		}
	}},
	// Apache Karaf's `threads` (the openHAB console): the lock in the
	// header, its owner unquoted on the line under it (parse/threadinfo.go).
	{"karaf", func(b *strings.Builder, order []int, n int, name func(int) string) {
		b.WriteString("openhab> threads\n")
		for _, i := range order {
			next := (i + 1) % n
			fmt.Fprintf(b, "%q Id=%d in BLOCKED on lock=java.lang.Object@b%03x\n     owned by %s Id=%d\n", name(i), 0x40+i, next, name(next), 0x40+next)
			fmt.Fprintf(b, "    at app//Ring.step(Ring.java:18)\n      - locked java.lang.Object@b%03x\n    at java.base@17.0.4/java.lang.Thread.run(Thread.java:833)\n\n", i)
			if i%2 == 0 { // `threads --monitors`: the locks again, with their depth
				fmt.Fprintf(b, "    Locked monitors: count = 1\n      - java.lang.Object@b%03x locked at \n          0 app//Ring.step(Ring.java:18)\n\n", i)
			}
		}
	}},
	// Dropwizard's /threads (metrics-jvm ThreadDump): the wait above the
	// frames, the owner unquoted on a line of its own, lowercase "id=";
	// metrics-jvm skips each thread's first locked monitor, so the ring's
	// own monitors are printed by every other thread only
	// (parse/dropwizard.go).
	{"dropwizard", func(b *strings.Builder, order []int, n int, name func(int) string) {
		for _, i := range order {
			next := (i + 1) % n
			fmt.Fprintf(b, "%q id=%d state=BLOCKED\n    - waiting to lock <0x%08x> (a java.lang.Object)\n     owned by %s id=%d\n", name(i), 0x40+i, 0xb00+next, name(next), 0x40+next)
			b.WriteString("    at app//Ring.step(Ring.java:18)\n")
			if i%2 == 1 {
				fmt.Fprintf(b, "      - locked java.lang.Object@%x\n", 0xb00+i)
			}
			b.WriteString("    at java.base@17.0.15/java.lang.Thread.run(Thread.java:840)\n\n")
		}
	}},
	{"jrockit", func(b *strings.Builder, order []int, n int, name func(int) string) {
		// JRockit prints a blocked thread's lock without its holder; the
		// circular lock chain after the threads names each holder.
		b.WriteString("===== FULL THREAD DUMP ===============\nMon Feb 06 11:38:58 2012\nOracle JRockit(R) R28.0.0-679-130297-1.6.0_17-20100312-2123-windows-ia32\n\n")
		for _, i := range order {
			next := (i + 1) % n
			fmt.Fprintf(b, "%q id=%d idx=0x%x tid=%d prio=5 alive, in native, blocked\n", name(i), 0x40+i, 0x4+4*i, 3000+i)
			fmt.Fprintf(b, "    -- Blocked trying to get lock: java/lang/Object@0x0B%03X[thin lock]\n", next)
			b.WriteString("    at jrockit/vm/Threads.shortNap(I)V(Native Method)\n    at Ring.step(Ring.java:18)\n    at jrockit/vm/RNI.c2java(IIIII)V(Native Method)\n    -- end of trace\n\n")
		}
		b.WriteString("Circular (deadlocked) lock chains\n=================================\nChain 2:\n")
		for k := 0; k <= n; k++ {
			i := (order[0] + k) % n
			fmt.Fprintf(b, "%q id=%d idx=0x%x tid=%d", name(i), 0x40+i, 0x4+4*i, 3000+i)
			if k < n {
				fmt.Fprintf(b, " waiting for java/lang/Object@0x0B%03X held by:", (i+1)%n)
			}
			b.WriteString("\n")
		}
		b.WriteString("\n===== END OF THREAD DUMP ===============\n")
	}},
	{"intellij", func(b *strings.Builder, order []int, n int, name func(int) string) {
		for _, i := range order {
			next := (i + 1) % n
			fmt.Fprintf(b, "\"%s@%d\" prio=5 tid=0x%x nid=NA waiting for monitor entry\n  java.lang.Thread.State: BLOCKED\n", name(i), 0x40+i, 0x20+i)
			fmt.Fprintf(b, "\t waiting for %s@%d to release lock on <0x%x> (a java.lang.Object)\n", name(next), 0x40+next, 0xb00+next)
			b.WriteString("\tat Ring.step(Ring.java:18)\n\n")
		}
	}},
}

// TestPrintedOwnersRing: a ring of 2 to 7 threads whose owners only the
// waiters print is one deadlock of exactly those threads, in each format
// that prints owners, in any order of the file, whether the threads have
// names of their own or all one name (then the printed ids tell them
// apart).
func TestPrintedOwnersRing(t *testing.T) {
	rng := rand.New(rand.NewSource(32))
	for _, rf := range ringFormats {
		for trial := 0; trial < 30; trial++ {
			n := 2 + rng.Intn(6)
			name := func(i int) string { return fmt.Sprintf("Worker Thread %d", i) }
			if trial%2 == 1 {
				name = func(int) string { return "worker" }
			}
			var b strings.Builder
			rf.write(&b, rng.Perm(n), n, name)
			ds, err := parse.Parse("ring.txt", strings.NewReader(b.String()))
			if err != nil {
				t.Fatal(err)
			}
			d := ds[0]
			if len(d.Threads) != n || len(d.Skipped) != 0 {
				t.Fatalf("%s trial %d: %d threads, %d skipped; want %d, 0\n%s", rf.name, trial, len(d.Threads), len(d.Skipped), n, b.String())
			}
			cycles := newLockGraph(d).cycles(d)
			var ids []int64
			for _, c := range cycles {
				for _, th := range c {
					ids = append(ids, th.ID)
				}
			}
			sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
			var want []int64
			for i := 0; i < n; i++ {
				want = append(want, int64(0x40+i))
			}
			if len(cycles) != 1 || fmt.Sprint(ids) != fmt.Sprint(want) {
				t.Fatalf("%s trial %d (n=%d): cycles %d of ids %v, want one of %v\n%s", rf.name, trial, n, len(cycles), ids, want, b.String())
			}
		}
	}
}

// TestPrintedOwnerAmbiguous: an owner named without an id, where two
// threads have that name, names no one: no holder is guessed.
func TestPrintedOwnerAmbiguous(t *testing.T) {
	d := &parse.Dump{Format: parse.FormatJVMText}
	lock := parse.Lock{Kind: parse.LockWaitingTo, Address: "0x1", Class: "java.lang.Object", Owner: "twin"}
	d.Threads = []*parse.Thread{
		{Weight: 1, State: "BLOCKED", JVM: &parse.JVM{Name: "w", Locks: []parse.Lock{lock}}},
		{Weight: 1, State: "RUNNABLE", JVM: &parse.JVM{Name: "twin"}},
		{Weight: 1, State: "RUNNABLE", JVM: &parse.JVM{Name: "twin"}},
	}
	if h := holders(d); h["0x1"] != nil {
		t.Errorf("holder %q guessed among two threads of one name", h["0x1"].Name())
	}
	lock.OwnerID = 7
	d.Threads[0].JVM.Locks[0] = lock
	d.Threads[2].ID = 7
	if h := holders(d); h["0x1"] != d.Threads[2] {
		t.Errorf("the owner's id does not pick the twin with id 7")
	}
}

// TestJavacoreWaiterNotHolder: in IBM J9's javacore (shared corpus), a
// thread woken from Object.wait and blocked re-entering LogToFile prints
// the lock as entered in its stack, and "Owned by" names the thread that
// holds it: the holder is that owner, not the waiter.
func TestJavacoreWaiterNotHolder(t *testing.T) {
	ds, err := parse.ParseFile(filepath.Join("..", "..", "shared", "corpus", "jvm", "ibm-flamegrapher__ibm-j9-jdk8-sr5fp41-linux__javacore.txt"))
	if err != nil {
		t.Skipf("shared corpus not present: %v", err)
	}
	h := holders(ds[0])
	if o := h["0x00000000E06FA928"]; o == nil || o.Name() != "Default Executor-thread-135" {
		t.Errorf("holder of LogToFile@0x00000000E06FA928 = %v, want Default Executor-thread-135 (its Owned by)", o)
	}
}

// TestLockReportFindings: a deadlock detector's report made here
// (testdata/formats/README.md, "A deadlock detector's report") gives the
// two deadlocks its program made, from the lock lines, and neither holds
// the thread blocked behind a sleeping holder.
func TestLockReportFindings(t *testing.T) {
	for _, file := range []string{"lockreport-jdk17__intellij-framing.txt", "lockreport-jdk17__detector-framing.txt", "lockreport-jdk25__detector-framing.txt"} {
		t.Run(file, func(t *testing.T) {
			ds, err := parse.ParseFile(filepath.Join("..", "testdata", "formats", file))
			if err != nil {
				t.Fatal(err)
			}
			r := Analyze([]Input{{Dump: ds[0]}}, Options{})
			var cycles []string
			for _, f := range r.Findings {
				if f.Kind != KindDeadlock {
					continue
				}
				var ms []string
				for _, c := range f.Cycle {
					ms = append(ms, c.Name)
				}
				sort.Strings(ms)
				cycles = append(cycles, strings.Join(ms, " + ")+" ("+f.Basis+")")
			}
			sort.Strings(cycles)
			want := []string{
				"AWT-EventQueue-0 11.1.3#IU-117.499, eap:true + ApplicationImpl pooled thread 0 (lock-graph)",
				"ring-0 + ring-1 + ring-2 (lock-graph)",
			}
			if fmt.Sprint(cycles) != fmt.Sprint(want) {
				t.Errorf("deadlocks %q, want %q", cycles, want)
			}
		})
	}
}
