package parse

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestJavacoreCorpus reads the real javacores of the shared corpus, of
// four JVM generations. The counts were made from the files, without the
// parser: threads are the 3XMTHREADINFO lines (`grep -c '^3XMTHREADINFO '`);
// for J9 and OpenJ9 the quoted ones match the header's "Current total
// number of live threads" (2XMPOOLLIVE: 94 and 66), the others are
// "Anonymous native thread" lines. Times, versions and process ids are
// the 1TIDATETIME(UTC), 1CIJAVAVERSION and 1CIPROCESSID lines.
func TestJavacoreCorpus(t *testing.T) {
	tests := []struct {
		file      string
		threads   int
		anonymous int
		time      time.Time
		pid       int
		version   string
		// first is the first thread with a stack: its name, state and
		// top frame, as printed.
		first      string
		firstState string
		firstTop   Frame
	}{
		{
			file: "ibm-flamegrapher__openj9-jdk21-macos-aarch64__javacore.txt", threads: 66,
			time: time.Date(2024, 11, 18, 18, 20, 39, 414e6, time.UTC), pid: 37560,
			version: "JRE 21 Mac OS X aarch64-64 (build 21.0.4+7-LTS)",
			first:   "main", firstState: "WAITING", firstTop: Frame{Func: "java.lang.Object.waitImpl", Note: "Native Method"},
		},
		{
			file: "ibm-flamegrapher__ibm-j9-jdk8-sr5fp41-linux__javacore.txt", threads: 97, anonymous: 3,
			time: time.Date(2019, 11, 5, 22, 40, 43, 409e6, time.UTC), pid: 17,
			version: "JRE 1.8.0 Linux amd64-64 (build 8.0.5.41 - pxa6480sr5fp41-20190919_01(SR5 FP41))",
			first:   "Default Executor-thread-146", firstState: "RUNNABLE",
			firstTop: Frame{Func: "org.apache.derby.impl.store.raw.log.LogToFile.flushAll", Note: "Bytecode PC:29"},
		},
		{
			file: "samurai__ibm-classic-1.4.2-win32__javacore.txt", threads: 48,
			time:    time.Date(2006, 5, 11, 17, 29, 14, 0, time.UTC),
			version: "J2RE 1.4.2 IBM Windows 32 build cn142sr1w-20041028",
			first:   "ExecuteThread: '3' for queue: 'JMS.TimerClientPool'", firstState: "WAITING",
			firstTop: Frame{Func: "java.lang.Object.wait", Note: "Native Method"},
		},
		{
			file: "samurai__ibm-classic-1.4.0-win32__javacore.dmp", threads: 7,
			time:    time.Date(2004, 6, 26, 16, 34, 55, 0, time.UTC),
			version: "J2RE 1.4.0 IBM Windows 32 build cn140-20020902",
			first:   "Thread-2", firstState: "WAITING", // Thread-3, the first, prints no frame
			firstTop: Frame{Func: "net.homeip.yusuke.samurai.test.AThread.run", File: "StackSample.java", Line: 24},
		},
		{
			// An excerpt from 1XMTHDINFO on: no time, version or pid.
			file: "samurai__ibm-classic-1.3.1-win32__javacore-excerpt.dmp", threads: 4,
			first: "Finalizer", firstState: "WAITING", firstTop: Frame{Func: "java.lang.Object.wait", Note: "Native Method"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := corpusDir + "/jvm/" + tt.file
			readInput(t, path) // skips when the corpus is absent
			dumps, err := ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(dumps) != 1 {
				t.Fatalf("%d dumps, want 1", len(dumps))
			}
			d := dumps[0]
			if d.Format != FormatJavacore || len(d.Threads) != tt.threads || len(d.Skipped) != 0 {
				t.Errorf("format %s, %d threads, skipped %+v; want %s, %d, none", d.Format, len(d.Threads), d.Skipped, FormatJavacore, tt.threads)
			}
			if !d.Time.Equal(tt.time) || d.ProcessID != tt.pid || d.Version != tt.version {
				t.Errorf("time %v, pid %d, version %q; want %v, %d, %q", d.Time, d.ProcessID, d.Version, tt.time, tt.pid, tt.version)
			}
			anon := 0
			var first *Thread
			for _, th := range d.Threads {
				if th.Name() == "Anonymous native thread" {
					anon++
				}
				if first == nil && len(th.Frames) > 0 {
					first = th
				}
			}
			if anon != tt.anonymous {
				t.Errorf("%d anonymous native threads, want %d", anon, tt.anonymous)
			}
			if first == nil || first.Name() != tt.first || first.State != tt.firstState {
				t.Fatalf("first thread with a stack %+v; want %q in %s", first, tt.first, tt.firstState)
			}
			if tt.firstTop.Func != "" && *first.Frames[0] != tt.firstTop {
				t.Errorf("top frame %+v, want %+v", *first.Frames[0], tt.firstTop)
			}
		})
	}
}

// TestJavacoreThreads checks the thread lines of a javacore one by one.
func TestJavacoreThreads(t *testing.T) {
	in := strings.Join([]string{
		"0SECTION       TITLE subcomponent dump routine",
		"1TIDATETIME    Date: 2024/11/18 at 12:20:39:414",
		"0SECTION       THREADS subcomponent dump routine",
		"1XMTHDINFO     Thread Details",
		"NULL",
		`3XMTHREADINFO      "pool-1 "quoted" name" J9VMThread:0x000000015787A900, omrthread_t:0x1, java/lang/Thread:0x2, state:B, prio=5`,
		"3XMJAVALTHREAD            (java/lang/Thread getId:0x1F, isDaemon:true)",
		"3XMTHREADINFO1            (native thread ID:0x8D14A, native priority:0x5, native policy:UNKNOWN, vmstate:B, vm thread flags:0x00000101)",
		"3XMCPUTIME               CPU usage total: 1.500000000 secs, current category=\"Application\"",
		`3XMTHREADBLOCK     Blocked on: java/lang/Object@0x00000000E06FA928 Owned by: "holder" (J9VMThread:0x0000000003A7D800)`,
		"3XMTHREADINFO3           Java callstack:",
		"4XESTACKTRACE                at com/example/Cache.get(Cache.java:42(Compiled Code))",
		"5XESTACKTRACE                   (entered lock: com/example/Cache@0x00000000E0C67918, entry count: 1)",
		"4XESTACKTRACE                at com/example/Cache$$Lambda$12/0x0000000012345678.run(Unknown Source)",
		"4XESTACKTRACE                at com/example/Cache.load(Bytecode PC:7)",
		"4XESTACKTRACE                at what is this",
		"3XMTHREADINFO3           Native callstack:",
		"4XENATIVESTACK               _pthread_cond_wait+0x4c8 (libsystem_pthread.dylib:0x1804f2ee4)",
		"NULL",
		`3XMTHREADINFO      "parked" J9VMThread:0x1, omrthread_t:0x2, java/lang/Thread:0x3, state:P, prio=5`,
		"3XMTHREADBLOCK     Parked on: java/util/concurrent/locks/AbstractQueuedSynchronizer$ConditionObject@0x00000000E066BA90 Owned by: <unknown>",
		"4XESTACKTRACE                at jdk/internal/misc/Unsafe.park(Native Method)",
		"3XMTHREADINFO      Anonymous native thread",
		"3XMTHREADINFO1            (native thread ID:0xD2, native priority: 0x0, native policy:UNKNOWN)",
		`3XMTHREADINFO      "JIT Compilation Thread-000" J9VMThread:0x4, omrthread_t:0x5, java/lang/Thread:0x6, state:R, prio=10`,
		"3XMTHREADINFO3           No Java callstack associated with this thread",
		"0SECTION       Javadump End section",
		"NULL           ---------------------- END OF DUMP -------------------------------------",
		"", "a log line after the javacore",
	}, "\n") + "\n"
	dumps, err := Parse("javacore.txt", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	d := dumps[0]
	if len(dumps) != 1 || len(d.Threads) != 4 {
		t.Fatalf("%v; want one javacore of 4 threads", summarize(dumps))
	}
	want := []Skipped{{Line: 16, Text: "4XESTACKTRACE                at what is this", Reason: "javacore frame line not understood"}}
	if diff := cmp.Diff(want, d.Skipped); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
	if !d.Time.Equal(time.Date(2024, 11, 18, 12, 20, 39, 414e6, time.UTC)) {
		t.Errorf("time %v: want the local time as printed", d.Time)
	}
	b := d.Threads[0]
	got := struct {
		Name, State, Detail, NID, TID string
		ID                            int64
		Daemon                        bool
		CPU                           time.Duration
		Frames                        []Frame
		Locks                         []Lock
		Line                          int
	}{b.Name(), b.State, b.StateDetail, b.NativeID, b.TID, b.ID, b.Daemon, b.CPU, nil, b.Locks(), b.Line}
	for _, f := range b.Frames {
		got.Frames = append(got.Frames, *f)
	}
	wantB := got
	wantB.Name, wantB.State, wantB.Detail, wantB.NID, wantB.TID = `pool-1 "quoted" name`, "BLOCKED", "B: blocked on a monitor", "0x8D14A", "0x000000015787A900"
	wantB.ID, wantB.Daemon, wantB.CPU, wantB.Line = 31, true, 1500*time.Millisecond, 6
	wantB.Frames = []Frame{
		{Func: "com.example.Cache.get", File: "Cache.java", Line: 42},
		{Func: "com.example.Cache$$Lambda$12/0x0000000012345678.run", Note: "Unknown Source"},
		{Func: "com.example.Cache.load", Note: "Bytecode PC:7"},
	}
	wantB.Locks = []Lock{
		{Kind: LockWaitingTo, Address: "0x00000000E06FA928", Class: "java.lang.Object", Owner: "holder"},
		{Kind: LockHeld, Address: "0x00000000E0C67918", Class: "com.example.Cache"},
	}
	if diff := cmp.Diff(wantB, got); diff != "" {
		t.Errorf("blocked thread (-want +got):\n%s", diff)
	}
	p := d.Threads[1]
	if p.State != "WAITING" || len(p.Locks()) != 1 || p.Locks()[0].Kind != LockParking || len(p.Frames) != 1 {
		t.Errorf("parked thread: %s, locks %+v, %d frames", p.State, p.Locks(), len(p.Frames))
	}
	if a := d.Threads[2]; a.Name() != "Anonymous native thread" || !a.NoStack {
		t.Errorf("anonymous native thread: %q, nostack %v", a.Name(), a.NoStack)
	}
	if j := d.Threads[3]; j.State != "RUNNABLE" || !j.NoStack {
		t.Errorf("JIT thread: %s, nostack %v", j.State, j.NoStack)
	}
}

// TestJavacoreCut: a javacore cut inside its thread section keeps the
// threads read, and a second javacore appended is a second dump.
func TestJavacoreCut(t *testing.T) {
	head := "0SECTION       TITLE subcomponent dump routine\n0SECTION       THREADS subcomponent dump routine\n" +
		`3XMTHREADINFO      "main" J9VMThread:0x1, omrthread_t:0x2, java/lang/Thread:0x3, state:CW, prio=5` + "\n" +
		"4XESTACKTRACE                at java/lang/Object.wait(Object.java:255)\n"
	dumps, err := Parse("two.txt", strings.NewReader(head+head+"4XESTACKTRACE                at java/lang/Obj"))
	if err != nil {
		t.Fatal(err)
	}
	if len(dumps) != 2 || len(dumps[0].Threads) != 1 || len(dumps[1].Threads) != 1 || dumps[1].Source.Line != 5 {
		t.Fatalf("%+v; want two javacores of one thread, the second at line 5", summarize(dumps))
	}
	if sk := dumps[1].Skipped; len(sk) != 1 || sk[0].Line != 9 {
		t.Errorf("skipped %+v; want the cut frame at line 9", sk)
	}
}

// FuzzJavacore feeds javacores to Parse: it must never panic, and every
// skipped line must carry its position.
func FuzzJavacore(f *testing.F) {
	for _, name := range []string{"samurai__ibm-classic-1.4.0-win32__javacore.dmp", "samurai__ibm-classic-1.3.1-win32__javacore-excerpt.dmp"} {
		if b, err := os.ReadFile(corpusDir + "/jvm/" + name); err == nil {
			f.Add(b[:min(len(b), 8<<10)])
		}
	}
	for _, name := range []string{"openj9-docs__javacore-deadlock-excerpt.txt", "openj9-docs__javacore-threads-excerpt.txt",
		"openj9-docs__javacore-locks-contention.txt", "openj9-docs__javacore-locks-deadlock.txt", "openj9-docs__javacore-locks-healthy.txt",
		"openj9-docs__javacore-locks-one-monitor.txt"} {
		if b, err := os.ReadFile(filepath.Join(formatsDir, name)); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("0SECTION       TITLE subcomponent dump routine\n3XMTHREADINFO      \"a\" J9VMThread:0x1, state:B, prio=5\n" +
		"3XMTHREADBLOCK     Blocked on: x/Y@0x1 Owned by: \"b\n4XESTACKTRACE at a/B.c(Bytecode PC:1)\n5XESTACKTRACE (entered lock: q, entry count: 1)\n"))
	// A LOCKS section's lines cut and out of order: a waiter before any
	// monitor, a report whose cycle never closes, an owner without its id.
	f.Add([]byte("1LKMONPOOLDUMP x\n3LKWAITER \"a\" (J9VMThread:0x1)\n3LKMONOBJECT o@0x2: owner \"b\n3LKWAITERQ\n3LKWAITER \"c\" (0x3)\n" +
		"1LKDEADLOCK d\n2LKDEADLOCKTHR  Thread \"a\" (0x1)\n4LKDEADLOCKOBJ o@0x2\n2LKDEADLOCKTHR  Thread \"a\" (0x4)\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dumps, _ := Parse("fuzz.txt", bytes.NewReader(data))
		checkDumps(t, dumps)
		for _, d := range dumps {
			for _, s := range d.Skipped {
				if s.Line <= 0 {
					t.Fatalf("skipped line without position: %+v", s)
				}
			}
		}
	})
}

// TestJavacoreDeadlock: the deadlock report of the LOCKS section (the
// shape IBM's documentation of javacores shows) is a Deadlock, and the
// analysis reports it.
func TestJavacoreDeadlock(t *testing.T) {
	in := strings.Join([]string{
		"0SECTION       TITLE subcomponent dump routine",
		"0SECTION       LOCKS subcomponent dump routine",
		"1LKDEADLOCK    Deadlock detected !!!",
		"NULL           ---------------------",
		"NULL",
		`2LKDEADLOCKTHR  Thread "Deadlock Thread 0" (0x00007F5E8435BD00)`,
		"3LKDEADLOCKWTR    is waiting for:",
		"4LKDEADLOCKMON      sys_mon_t:0x00007F5E24013F10 infl_mon_t: 0x00007F5E24013F88:",
		"4LKDEADLOCKOBJ      java/lang/String@0x00007F5E5E18E3D8",
		"3LKDEADLOCKOWN    which is owned by:",
		`2LKDEADLOCKTHR  Thread "Deadlock Thread 1" (0x00007F5E84362100)`,
		"3LKDEADLOCKWTR    which is waiting for:",
		"4LKDEADLOCKOBJ      java/util/concurrent/locks/ReentrantLock$NonfairSync@0x00007F5E7E1464F0",
		"3LKDEADLOCKOWN    which is owned by:",
		`2LKDEADLOCKTHR  Thread "Deadlock Thread 0" (0x00007F5E8435BD00)`,
		"NULL",
		"0SECTION       THREADS subcomponent dump routine",
		`3XMTHREADINFO      "Deadlock Thread 0" J9VMThread:0x00007F5E8435BD00, omrthread_t:0x1, java/lang/Thread:0x2, state:B, prio=5`,
		"3XMTHREADBLOCK     Blocked on: java/lang/String@0x00007F5E5E18E3D8 Owned by: \"Deadlock Thread 1\" (J9VMThread:0x00007F5E84362100)",
		"4XESTACKTRACE                at Deadlock.run(Deadlock.java:20)",
		"5XESTACKTRACE                   (entered lock: java/util/concurrent/locks/ReentrantLock$NonfairSync@0x00007F5E7E1464F0, entry count: 1)",
		`3XMTHREADINFO      "Deadlock Thread 1" J9VMThread:0x00007F5E84362100, omrthread_t:0x3, java/lang/Thread:0x4, state:P, prio=5`,
		"3XMTHREADBLOCK     Parked on: java/util/concurrent/locks/ReentrantLock$NonfairSync@0x00007F5E7E1464F0 Owned by: \"Deadlock Thread 0\" (J9VMThread:0x00007F5E8435BD00)",
		"4XESTACKTRACE                at jdk/internal/misc/Unsafe.park(Native Method)",
		"4XESTACKTRACE                at Deadlock.run2(Deadlock.java:30)",
		"5XESTACKTRACE                   (entered lock: java/lang/String@0x00007F5E5E18E3D8, entry count: 1)",
	}, "\n") + "\n"
	dumps, err := Parse("dl.txt", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []Deadlock{{Line: 3, Cycle: []DeadlockEdge{
		{Thread: "Deadlock Thread 0", Waiting: "waiting for java/lang/String@0x00007F5E5E18E3D8", Holder: "Deadlock Thread 1"},
		{Thread: "Deadlock Thread 1", Waiting: "waiting for java/util/concurrent/locks/ReentrantLock$NonfairSync@0x00007F5E7E1464F0", Holder: "Deadlock Thread 0"},
	}}}
	if diff := cmp.Diff(want, dumps[0].Deadlocks); diff != "" {
		t.Errorf("deadlocks (-want +got):\n%s", diff)
	}
}
