package parse

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// formatsDir holds the real dumps of the formats and shapes of issue 32
// (testdata/formats/README.md says where each came from and what its
// source says).
const formatsDir = "../testdata/formats"

// formatsCounts reads testdata/formats/COUNTS.tsv: threads per file,
// counted with grep, not by this parser.
func formatsCounts(t *testing.T) map[string]int { return countsTSV(t, formatsDir) }

// countsTSV reads dir's COUNTS.tsv ("file<TAB>n" a line): threads or
// goroutines per file, counted with grep, not by this parser.
func countsTSV(t *testing.T, dir string) map[string]int {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "COUNTS.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, n, _ := strings.Cut(sc.Text(), "\t")
		v, err := strconv.Atoi(n)
		if err != nil {
			t.Fatalf("%s/COUNTS.tsv: bad line %q", dir, sc.Text())
		}
		out[name] = v
	}
	return out
}

// TestFormatsFixtures reads each file of testdata/formats as its README
// says it must read: one dump, the counted threads, nothing skipped, the
// format, an excerpt said as one, the hung tests named; and compares the
// canonical form with its golden (-update rewrites it).
func TestFormatsFixtures(t *testing.T) {
	counts := formatsCounts(t)
	tests := []struct {
		file    string
		format  Format
		excerpt bool
		tests   []string
	}{
		{"openj9-docs__javacore-deadlock-excerpt.txt", FormatJavacore, true, nil},
		{"openj9-docs__javacore-threads-excerpt.txt", FormatJavacore, true, nil},
		{"javacore-analyser__ibm-j9-8.0.6.15__quoted-name.txt", FormatJavacore, false, nil},
		{"intellij__simple-deadlock.txt", FormatJVMText, false, nil},
		{"intellij__virtual-threads-deadlock.txt", FormatJVMText, false, nil},
		{"threadinfo-jdk17__three-way.txt", FormatJVMText, false, nil},
		{"go-test-timeout.txt", FormatGoText, false, []string{"TestTransfer (2s)"}},
		{"go-test-timeout-v.txt", FormatGoText, false, []string{"TestDrainA (2s)", "TestDrainB (2s)"}},
		{"go-test-timeout-go1.20.txt", FormatGoText, false, []string{"TestTransfer (2s)"}},
		{"go-test-timeout-go1.13.txt", FormatGoText, false, nil},
		{"go-test-timeout-go1.16.txt", FormatGoText, false, nil},
		{"go-test-timeout-go1.18.txt", FormatGoText, false, nil},
		{"jstack-jdk17__deadlocks-whole.txt", FormatJVMText, false, nil},
		{"jstack-jdk17__deadlock-report.txt", FormatJVMText, true, nil},
		{"jstack-jdk17__deadlock-summary.md", FormatJVMText, true, nil},
		{"jstack-jdk17__from-state-line.txt", FormatJVMText, true, nil},
		{"panicparse__go-long-wait-leak.txt", FormatGoText, true, nil},
		{"panicparse__go1.26.8-debug2.txt", FormatGoText, true, nil},
		{"gotraceanalyzer__go-long-wait-leak.txt", FormatGoText, true, nil},
		{"summary-by-hand__go-long-wait-leak.md", FormatGoText, true, nil},
		{"summary-by-hand__go-sigquit.txt", FormatGoText, true, nil},
		{"summary-by-hand__go-healthy.md", FormatGoText, true, nil},
		{"jrockit__written-from-the-format.txt", FormatJVMText, false, nil},
		{"jhsdb-jdk17__deadlock.txt", FormatJVMText, false, nil},
		{"jhsdb-jdk25__deadlock.txt", FormatJVMText, false, nil},
		{"intellij-tests__jstack-F-jdk8.txt", FormatJVMText, false, nil},
		{"openj9-docs__javacore-locks-contention.txt", FormatJavacore, true, nil},
		{"openj9-docs__javacore-locks-deadlock.txt", FormatJavacore, true, nil},
		{"openj9-docs__javacore-locks-healthy.txt", FormatJavacore, true, nil},
		{"javacore-analyser__ibm-j9-8.0.6.15__locks-section.txt", FormatJavacore, true, nil},
		{"openj9-docs__javacore-locks-one-monitor.txt", FormatJavacore, true, nil},
		{"javacore-analyser__ibm-j9-8.0.6.15__regmon-excerpt.txt", FormatJavacore, true, nil},
		{"eclipse__written-from-the-format.txt", FormatJVMText, true, nil},
		{"karaf-threads-jdk17__rules.txt", FormatJVMText, false, nil},
		{"karaf-thread-jdk17__future.txt", FormatJVMText, true, nil},
		{"karaf-thread-jdk17__idle.txt", FormatJVMText, true, nil},
		{"jthreaddump__sapjvm-8.1.108-excerpt.txt", FormatJVMText, false, nil},
		{"lockreport-jdk17__intellij-framing.txt", FormatJVMText, true, nil},
		{"lockreport-jdk17__detector-framing.txt", FormatJVMText, true, nil},
		{"lockreport-jdk25__detector-framing.txt", FormatJVMText, true, nil},
		{"dropwizard-jdk17__stall.txt", FormatJVMText, false, nil},
		{"dropwizard-jdk17__healthy.txt", FormatJVMText, false, nil},
	}
	// The debug=3 profile and its debug=2 have a test of their own
	// (TestDebug3RealMatchesDebug2), and goleak's three (TestGoleakRecords).
	if len(tests) != len(counts)-2-3 {
		t.Errorf("COUNTS.tsv has %d files, the test %d: a file without its expectations", len(counts), len(tests))
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			want, ok := counts[tt.file]
			if !ok {
				t.Fatalf("%s is not in COUNTS.tsv", tt.file)
			}
			dumps, err := ParseFile(filepath.Join(formatsDir, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if len(dumps) != 1 {
				t.Fatalf("got %d dumps, want 1", len(dumps))
			}
			d := dumps[0]
			if d.ThreadCount() != want || len(d.Skipped) != 0 || d.Format != tt.format {
				t.Errorf("got %d threads, %d skipped, format %s; want %d, 0, %s", d.ThreadCount(), len(d.Skipped), d.Format, want, tt.format)
			}
			if (d.Excerpt != "") != tt.excerpt {
				t.Errorf("Excerpt = %q, want an excerpt: %v", d.Excerpt, tt.excerpt)
			}
			if diff := cmp.Diff(tt.tests, d.RunningTests); diff != "" {
				t.Errorf("RunningTests (-want +got):\n%s", diff)
			}
			d.Source.File = tt.file
			checkGolden(t, filepath.Join("testdata/golden/formats", tt.file+".canonical"), dumps)
		})
	}
}

// TestIntelliJNames: the debugger's "@id" is cut off every name and kept
// as the id; an owner named "T@id" is the same thread.
func TestIntelliJNames(t *testing.T) {
	dumps, err := ParseFile(filepath.Join(formatsDir, "intellij__simple-deadlock.txt"))
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*Thread{}
	for _, th := range dumps[0].Threads {
		if strings.Contains(th.Name(), "@") || th.ID == 0 {
			t.Errorf("thread %q id %d: the @id is left in the name, or no id", th.Name(), th.ID)
		}
		byName[th.Name()] = th
	}
	t1, t2 := byName["Thread-1"], byName["Thread-2"]
	if t1 == nil || t2 == nil || t1.ID != 1010 || t2.ID != 1011 {
		t.Fatalf("Thread-1, Thread-2 not read with ids 1010, 1011: %v %v", t1, t2)
	}
	want := []Lock{
		{Kind: LockWaitingTo, Address: "0x476", Class: "java.lang.Object", Frame: 0, Owner: "Thread-2", OwnerID: 1011},
		{Kind: LockHeld, Address: "0x475", Class: "java.lang.Object", Frame: 0},
	}
	if diff := cmp.Diff(want, t1.Locks()); diff != "" {
		t.Errorf("Thread-1's locks (-want +got):\n%s", diff)
	}
	if f := byName["main"].Frames[0]; f.File != "Object.java" || f.Line != 0 {
		t.Errorf("main's top frame %+v: IntelliJ's \":-1\" (no line) kept in the file", f)
	}
}

func TestIntelliJName(t *testing.T) {
	tests := []struct {
		in   string
		base string
		id   int64
		ok   bool
	}{
		{"Thread-1@1010", "Thread-1", 1010, true},
		{"kafka-coordinator-heartbeat-thread | addressRepository@10569", "kafka-coordinator-heartbeat-thread | addressRepository", 10569, true},
		{"user@example.com", "user@example.com", 0, false},
		{"pool@", "pool@", 0, false},
		{"@12", "@12", 0, false},
		{"main", "main", 0, false},
	}
	for _, tt := range tests {
		base, id, ok := intellijName(tt.in)
		if base != tt.base || id != tt.id || ok != tt.ok {
			t.Errorf("intellijName(%q) = %q, %d, %v; want %q, %d, %v", tt.in, base, id, ok, tt.base, tt.id, tt.ok)
		}
	}
}

func TestIsThreadInfoHeader(t *testing.T) {
	tests := []struct {
		line string
		want bool
	}{
		{`"main" prio=5 Id=1 RUNNABLE`, true},
		{`"ring-0" daemon prio=5 Id=12 BLOCKED on java.lang.Object@279f2327 owned by "ring-1" Id=13`, true},
		{`"http-nio-8072-exec-1" Id=236 in WAITING`, true},
		{`"a" b" Id=3 RUNNABLE`, true}, // a quote in the name
		{`"main" #1 prio=5 os_prio=0 tid=0x00007f6aec016800 nid=0xaba runnable`, false},
		{`"main" said Id=1`, false},
		{`main prio=5 Id=1 RUNNABLE`, false},
	}
	for _, tt := range tests {
		if got := isThreadInfoHeader([]byte(tt.line)); got != tt.want {
			t.Errorf("isThreadInfoHeader(%q) = %v, want %v", tt.line, got, tt.want)
		}
	}
}

// TestThreadInfoOwner: the owner of a ThreadInfo header goes to the
// thread's wait, its lock line's or one made from the header when the
// stack printed none (a stack cut to 0 frames, JMX's own form).
func TestThreadInfoOwner(t *testing.T) {
	in := `"w" daemon prio=5 Id=16 WAITING on java.util.concurrent.locks.ReentrantLock$NonfairSync@5caf905d owned by "holder" Id=15
	at java.base@17.0.15/jdk.internal.misc.Unsafe.park(Native Method)
	-  waiting on java.util.concurrent.locks.ReentrantLock$NonfairSync@5caf905d
	at java.base@17.0.15/java.util.concurrent.locks.LockSupport.park(LockSupport.java:211)
	...

"b" Id=7 BLOCKED on java.lang.Object@1b6d3586 owned by "x" y" Id=9

"holder" prio=5 Id=15 TIMED_WAITING
	at java.base@17.0.15/java.lang.Thread.sleep(Native Method)

	Number of locked synchronizers = 1
	- java.util.concurrent.locks.ReentrantLock$NonfairSync@5caf905d

`
	dumps, err := Parse("t.txt", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	d := dumps[0]
	if len(d.Threads) != 3 || len(d.Skipped) != 0 {
		t.Fatalf("got %d threads, skipped %v; want 3, none", len(d.Threads), d.Skipped)
	}
	want := [][]Lock{
		{{Kind: LockParking, Address: "5caf905d", Class: "java.util.concurrent.locks.ReentrantLock$NonfairSync", Owner: "holder", OwnerID: 15}},
		{{Kind: LockWaitingTo, Address: "1b6d3586", Class: "java.lang.Object", Frame: -1, Owner: `x" y`, OwnerID: 9}}, // no stack: after no frame
		{{Kind: LockOwnable, Address: "5caf905d", Class: "java.util.concurrent.locks.ReentrantLock$NonfairSync", Frame: -1}},
	}
	for i, th := range d.Threads {
		if diff := cmp.Diff(want[i], th.Locks()); diff != "" {
			t.Errorf("%s's locks (-want +got):\n%s", th.Name(), diff)
		}
	}
}

// TestJavacoreExcerptStarts: a javacore read from its TITLE is whole;
// from its THREADS section, its thread details or a thread record it is
// an excerpt, said so with the "..." cuts counted, and the owner's
// J9VMThread is given as the owner's Java id.
func TestJavacoreExcerptStarts(t *testing.T) {
	const (
		title   = "0SECTION       TITLE subcomponent dump routine\n"
		threads = "0SECTION       THREADS subcomponent dump routine\n"
		details = "1XMTHDINFO     Thread Details\n"
		a       = "3XMTHREADINFO      \"A\" J9VMThread:0x100, omrthread_t:0x1, java/lang/Thread:0x2, state:B, prio=5\n" +
			"3XMJAVALTHREAD            (java/lang/Thread getId:0x11, isDaemon:false)\n" +
			"3XMTHREADBLOCK     Blocked on: java/lang/Object@0xB1 Owned by: \"B\" (J9VMThread:0x200, java/lang/Thread:0x3)\n" +
			"4XESTACKTRACE                at Demo.a(Demo.java:1)\n"
		b = "3XMTHREADINFO      \"B\" J9VMThread:0x200, omrthread_t:0x4, java/lang/Thread:0x3, state:R, prio=5\n" +
			"3XMJAVALTHREAD            (java/lang/Thread getId:0x12, isDaemon:false)\n" +
			"4XESTACKTRACE                at Demo.b(Demo.java:2)\n"
	)
	tests := []struct {
		name, in, excerpt string
	}{
		{"whole", title + threads + details + a + b, ""},
		{"threads section", threads + details + a + b, "no javacore TITLE section: it starts at its THREADS section"},
		{"thread details", details + a + b, "no javacore TITLE section: it starts at its thread details (1XMTHDINFO)"},
		{"thread record", a + b, "no javacore TITLE or THREADS header: it starts at a thread record (3XMTHREADINFO)"},
		{"records and cuts", a + "...\n" + b + "...\n", `no javacore TITLE or THREADS header: it starts at a thread record (3XMTHREADINFO); cut in 2 place(s) ("...")`},
		{"whole with a cut", title + a + "...\n" + b, `lines of the javacore were cut; cut in 1 place(s) ("...")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dumps, err := Parse("j.txt", strings.NewReader(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if len(dumps) != 1 || len(dumps[0].Threads) != 2 || len(dumps[0].Skipped) != 0 {
				t.Fatalf("got %d dumps; want 1 with threads A and B, nothing skipped", len(dumps))
			}
			d := dumps[0]
			if d.Excerpt != tt.excerpt {
				t.Errorf("Excerpt = %q, want %q", d.Excerpt, tt.excerpt)
			}
			want := Lock{Kind: LockWaitingTo, Address: "0xB1", Class: "java.lang.Object", Owner: "B", OwnerID: 0x12}
			if diff := cmp.Diff([]Lock{want}, d.Threads[0].Locks()); diff != "" {
				t.Errorf("A's locks (-want +got):\n%s", diff)
			}
		})
	}
}

// TestJVMTextExcerpt: a jstack paste that starts at a thread is read and
// said to be an excerpt; one with its "Full thread dump" line is whole,
// and so are the dumps that never print one (ThreadInfo, IntelliJ).
func TestJVMTextExcerpt(t *testing.T) {
	const thread = "\"main\" #1 prio=5 os_prio=0 tid=0x00007f6aec016800 nid=0xaba waiting on condition  [0x00007f6af4245000]\n" +
		"   java.lang.Thread.State: TIMED_WAITING (sleeping)\n\tat java.lang.Thread.sleep(Native Method)\n\n"
	tests := []struct {
		name, in string
		excerpt  bool
	}{
		{"whole", "Full thread dump OpenJDK 64-Bit Server VM (17.0.15+6 mixed mode):\n\n" + thread, false},
		{"from a thread", thread, true},
		{"from SMR info", "Threads class SMR info:\n_java_thread_list=0x1, length=1, elements={\n0x1\n}\n\n" + thread, true},
		{"intellij", "\"main@1\" prio=5 tid=0x1 nid=NA waiting\n  java.lang.Thread.State: WAITING\n\tat java.lang.Object.wait0(Object.java:-1)\n\n", false},
		{"threadinfo", "\"main\" prio=5 Id=1 RUNNABLE\n\tat a.B.c(B.java:1)\n\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dumps, err := Parse("t.txt", strings.NewReader(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if len(dumps) != 1 || len(dumps[0].Threads) != 1 {
				t.Fatalf("got %d dumps, want 1 with one thread", len(dumps))
			}
			if got := dumps[0].Excerpt != ""; got != tt.excerpt {
				t.Errorf("Excerpt = %q, want an excerpt: %v", dumps[0].Excerpt, tt.excerpt)
			}
		})
	}
}

// TestIntelliJContainers: IntelliJ's container entries are no threads;
// a thread whose parentId is a container's id is in it, and "virtual"
// headers are virtual threads.
func TestIntelliJContainers(t *testing.T) {
	dumps, err := ParseFile(filepath.Join(formatsDir, "intellij__virtual-threads-deadlock.txt"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, th := range dumps[0].Threads {
		if th.Name() == "<root>" || th.Name() == "Scope-A" {
			t.Errorf("container %q read as a thread", th.Name())
		}
		got[th.Name()] = fmt.Sprintf("%s virtual=%v", th.Container, th.Virtual)
	}
	want := map[string]string{
		"Scope-A-worker-0":        "Scope-A virtual=true",
		"Scope-B-worker-0":        "Scope-B virtual=true",
		"ForkJoinPool-1-worker-1": "ForkJoinPool-1 virtual=false",
		"VT-1":                    " virtual=true",
		"main":                    " virtual=false",
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: container and virtual %q, want %q", name, got[name], w)
		}
	}
}

// TestIntelliJOlderShape: the debugger's older "Get Thread Dump" (no
// metadata, frames indented by a tab and two spaces, names with " | ")
// reads as the newer one: names without "@id", the wait with its owner,
// "blocks" lines read, nothing skipped.
func TestIntelliJOlderShape(t *testing.T) {
	in := "\"kafka-consumer-1@10574\" daemon prio=5 tid=0x31 nid=NA runnable\n" +
		"  java.lang.Thread.State: RUNNABLE\n" +
		"\t blocks kafka-coordinator-heartbeat-thread | addressRepository@10570\n" +
		"\t  at sun.nio.ch.EPollArrayWrapper.epollWait(EPollArrayWrapper.java:-1)\n" +
		"\t  at org.apache.kafka.clients.consumer.internals.AbstractCoordinator.ensureCoordinatorReady(AbstractCoordinator.java:197)\n" +
		"\t  - locked <0x296e> (a org.apache.kafka.clients.consumer.internals.ConsumerCoordinator)\n" +
		"\n" +
		"\"kafka-coordinator-heartbeat-thread | addressRepository@10570\" daemon prio=5 tid=0x36 nid=NA waiting for monitor entry\n" +
		"  java.lang.Thread.State: BLOCKED\n" +
		"\t waiting for kafka-consumer-1@10574 to release lock on <0x296e> (a org.apache.kafka.clients.consumer.internals.ConsumerCoordinator)\n" +
		"\t  at org.apache.kafka.clients.consumer.internals.AbstractCoordinator$HeartbeatThread.run(AbstractCoordinator.java:872)\n\n"
	dumps, err := Parse("ij.txt", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	d := dumps[0]
	if len(d.Threads) != 2 || len(d.Skipped) != 0 || d.Excerpt != "" {
		t.Fatalf("got %d threads, skipped %v, excerpt %q; want 2, none, none", len(d.Threads), d.Skipped, d.Excerpt)
	}
	hb := d.Threads[1]
	if hb.Name() != "kafka-coordinator-heartbeat-thread | addressRepository" || hb.ID != 10570 {
		t.Errorf("name %q id %d", hb.Name(), hb.ID)
	}
	want := []Lock{{Kind: LockWaitingTo, Address: "0x296e", Class: "org.apache.kafka.clients.consumer.internals.ConsumerCoordinator",
		Owner: "kafka-consumer-1", OwnerID: 10574}}
	if diff := cmp.Diff(want, hb.Locks()); diff != "" {
		t.Errorf("heartbeat's locks (-want +got):\n%s", diff)
	}
}

// TestGoleakRecords: go test's output when goleak fails a test, with
// goleak 1.1.12, 1.2.1 and 1.3.0 (testdata/gen/goleak: the same test, a
// pool whose Close forgets its workers and a read with no deadline): each
// reads as one dump of the goroutines goleak printed (counted in
// COUNTS.tsv by its records), of kind "goleak", with the same states,
// stacks and creators in each version, though 1.3.0 prints no goroutine
// header (its record is the header) and the others print both.
func TestGoleakRecords(t *testing.T) {
	counts := formatsCounts(t)
	var first []string
	for _, v := range []string{"1.1.12", "1.2.1", "1.3.0"} {
		name := "goleak-v" + v + ".txt"
		dumps, err := ParseFile(filepath.Join(formatsDir, name))
		if err != nil {
			t.Fatal(err)
		}
		if len(dumps) != 1 {
			t.Fatalf("%s: %d dumps, want 1", name, len(dumps))
		}
		d := dumps[0]
		if d.ThreadCount() != counts[name] || d.Kind != "goleak" {
			t.Errorf("%s: %d goroutines, kind %q; want %d, goleak", name, d.ThreadCount(), d.Kind, counts[name])
		}
		var got []string
		for _, th := range d.Threads {
			var fs []string
			for _, f := range th.Frames {
				fs = append(fs, f.Func)
			}
			c := ""
			if th.CreatedBy != nil {
				c = th.CreatedBy.Func
			}
			got = append(got, fmt.Sprintf("%s %v by %s", th.State, fs, c))
		}
		if first == nil {
			first = got
			continue
		}
		if diff := cmp.Diff(first, got); diff != "" {
			t.Errorf("%s reads otherwise than goleak-v1.1.12.txt (-1.1.12 +%s):\n%s", name, v, diff)
		}
	}
}
