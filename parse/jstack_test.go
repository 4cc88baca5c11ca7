package parse

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestParseThreadHeader(t *testing.T) {
	tests := []struct {
		name string
		line string
		want *Thread
	}{
		{"jdk17 java thread",
			`"main" #1 prio=5 os_prio=0 cpu=57.98ms elapsed=0.98s tid=0x00007f04cc017f30 nid=0x5ce0 waiting on condition  [0x00007f04d2b1c000]`,
			&Thread{ID: 1, JVM: &JVM{Name: "main", Priority: 5, CPU: 57980 * time.Microsecond, Elapsed: 980 * time.Millisecond, TID: "0x00007f04cc017f30", NativeID: "0x5ce0", StateDetail: "waiting on condition"}}},
		{"jdk17 -e extended fields",
			`"http-nio-8080-exec-1" #21 daemon prio=5 os_prio=0 cpu=3.10ms elapsed=2.02s allocated=95168B defined_classes=3 tid=0x00007f1 nid=0x22c0 waiting on condition  [0x00007f2]`,
			&Thread{ID: 21, JVM: &JVM{Name: "http-nio-8080-exec-1", Daemon: true, Priority: 5, CPU: 3100 * time.Microsecond, Elapsed: 2020 * time.Millisecond, Allocated: 95168, TID: "0x00007f1", NativeID: "0x22c0", StateDetail: "waiting on condition"}}},
		{"jdk25 ostid, decimal nid, K and M sizes",
			`"main" #3 [5891] prio=5 os_prio=31 cpu=508.53ms elapsed=24.44s allocated=103M defined_classes=2343 tid=0x000000013e00d800 nid=5891 runnable  [0x000000016fc69000]`,
			&Thread{ID: 3, JVM: &JVM{Name: "main", Priority: 5, OSPriority: 31, CPU: 508530 * time.Microsecond, Elapsed: 24440 * time.Millisecond, Allocated: 103 << 20, TID: "0x000000013e00d800", NativeID: "5891", StateDetail: "runnable"}}},
		{"comma decimals",
			`"w" #9 daemon prio=5 os_prio=0 cpu=1,25ms elapsed=4,5s allocated=107K tid=0x1 nid=0x2 runnable`,
			&Thread{ID: 9, JVM: &JVM{Name: "w", Daemon: true, Priority: 5, CPU: 1250 * time.Microsecond, Elapsed: 4500 * time.Millisecond, Allocated: 107 << 10, TID: "0x1", NativeID: "0x2", StateDetail: "runnable"}}},
		{"non-java thread with trailing spaces",
			`"VM Thread" os_prio=0 cpu=5.39ms elapsed=2.31s tid=0x00007fcb3c0f4440 nid=0x22a3 runnable  `,
			&Thread{JVM: &JVM{Name: "VM Thread", CPU: 5390 * time.Microsecond, Elapsed: 2310 * time.Millisecond, TID: "0x00007fcb3c0f4440", NativeID: "0x22a3", StateDetail: "runnable"}}},
		{"jdk25 carrier without nid",
			`"ForkJoinPool-1-worker-1" #65 [62471] daemon prio=5 os_prio=31 cpu=305.89ms elapsed=15.79s allocated=39288B defined_classes=4 tid=0x000000013e056a00  [0x0000000174151000]`,
			&Thread{ID: 65, JVM: &JVM{Name: "ForkJoinPool-1-worker-1", Daemon: true, Priority: 5, OSPriority: 31, CPU: 305890 * time.Microsecond, Elapsed: 15790 * time.Millisecond, Allocated: 39288, TID: "0x000000013e056a00"}}},
		{"jdk 1.4 stack range",
			`"Thread-1" prio=5 tid=0x0028ea18 nid=0x604 waiting for monitor entry [182ef000..182efd88]`,
			&Thread{JVM: &JVM{Name: "Thread-1", Priority: 5, TID: "0x0028ea18", NativeID: "0x604", StateDetail: "waiting for monitor entry"}}},
		{"jdk 1.4 Object.wait",
			`"Finalizer" daemon prio=9 tid=0x0091a500 nid=0x4bc in Object.wait() [1816f000..1816fd88]`,
			&Thread{JVM: &JVM{Name: "Finalizer", Daemon: true, Priority: 9, TID: "0x0091a500", NativeID: "0x4bc", StateDetail: "in Object.wait()"}}},
		{"hp-ux lwp_id",
			`"ListenThread" prio=10 tid=0x0003fa38 nid=78 lwp_id=3573240 runnable [0x1f229000..0x1f229500]`,
			&Thread{JVM: &JVM{Name: "ListenThread", Priority: 10, TID: "0x0003fa38", NativeID: "78", StateDetail: "runnable"}}},
		{"sap jvm",
			`"Thread-1533" cpu=0.00 [reset 0.00] ms allocated=334976 B (327.12 kB) [reset 334976 B (327.12 kB)] user="J2EE_ADMIN" prio=1 tid=0x0000002cb60886f0 nid=0x996 in Object.wait() [0x0000000058683000..0x0000000058683c00]`,
			&Thread{JVM: &JVM{Name: "Thread-1533", Allocated: 334976, Priority: 1, TID: "0x0000002cb60886f0", NativeID: "0x996", StateDetail: "in Object.wait()"}}},
		{"visualvm t@N",
			`"Timer-180" - Thread t@332`,
			&Thread{ID: 332, JVM: &JVM{Name: "Timer-180"}}},
		{"jmx threadinfo",
			`"RMI TCP Connection(23)-127.0.1.1" id=3149 in RUNNABLE (running in native)`,
			&Thread{ID: 3149, State: "RUNNABLE", JVM: &JVM{Name: "RMI TCP Connection(23)-127.0.1.1", StateDetail: "running in native"}}},
		{"ThreadInfo.toString jdk 9+",
			`"pool-1-thread-1" daemon prio=5 Id=23 WAITING on java.util.concurrent.locks.ReentrantLock$NonfairSync@1b6d3586 owned by "main" Id=1`,
			&Thread{ID: 23, State: "WAITING", JVM: &JVM{Name: "pool-1-thread-1", Daemon: true, Priority: 5, StateDetail: `on java.util.concurrent.locks.ReentrantLock$NonfairSync@1b6d3586 owned by "main" Id=1`}}},
		{"name with quotes and spaces",
			`"ExecuteThread: '14' for queue: 'JmsDispatcher'" daemon prio=10 tid=0x0003f690 nid=74 waiting on monitor [0x1f33a000..0x1f33a500]`,
			&Thread{JVM: &JVM{Name: "ExecuteThread: '14' for queue: 'JmsDispatcher'", Daemon: true, Priority: 10, TID: "0x0003f690", NativeID: "74", StateDetail: "waiting on monitor"}}},
		{"name only is no header", `"Finalizer"`, nil},
		{"deadlock entry is no header", `"deadlock-left":`, nil},
		{"not quoted", `main #1 prio=5`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseThreadHeader([]byte(tt.line), newInterner())
			if tt.want != nil {
				tt.want.Weight = 1
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("parseThreadHeader(%q) (-want +got):\n%s", tt.line, diff)
			}
		})
	}
}

func TestParseFrame(t *testing.T) {
	tests := []struct {
		name string
		text string // after "at "
		want *Frame
	}{
		{"file and line", "java.util.TimerThread.mainLoop(Timer.java:509)",
			&Frame{Func: "java.util.TimerThread.mainLoop", File: "Timer.java", Line: 509}},
		{"module", "java.lang.Thread.run(java.base@17.0.15/Thread.java:840)",
			&Frame{Func: "java.lang.Thread.run", File: "Thread.java", Line: 840, Module: "java.base@17.0.15"}},
		{"module native", "java.io.FileInputStream.readBytes(java.base@25/Native Method)",
			&Frame{Func: "java.io.FileInputStream.readBytes", Module: "java.base@25", Note: "Native Method"}},
		{"native", "java.lang.Object.wait(Native Method)",
			&Frame{Func: "java.lang.Object.wait", Note: "Native Method"}},
		{"unknown source hidden class", "JvmParse$$Lambda$1/0x00007f0450000a08.run(Unknown Source)",
			&Frame{Func: "JvmParse$$Lambda$1/0x00007f0450000a08.run", Note: "Unknown Source"}},
		{"compiled code", "java.lang.String.indexOf(Compiled Code)",
			&Frame{Func: "java.lang.String.indexOf", Note: "Compiled Code"}},
		{"file without line", "java.lang.invoke.LambdaForm$DMH/0x0000380001228000.invokeVirtual(java.base@25/LambdaForm$DMH)",
			&Frame{Func: "java.lang.invoke.LambdaForm$DMH/0x0000380001228000.invokeVirtual", File: "LambdaForm$DMH", Module: "java.base@25"}},
		{"StackTraceElement module prefix", "java.base@17/java.lang.ref.Reference.processPendingReferences(Reference.java:253)",
			&Frame{Func: "java.lang.ref.Reference.processPendingReferences", File: "Reference.java", Line: 253, Module: "java.base@17"}},
		{"StackTraceElement app loader", "app//org.apache.catalina.core.StandardWrapperValve.invoke(StandardWrapperValve.java:197)",
			&Frame{Func: "org.apache.catalina.core.StandardWrapperValve.invoke", File: "StandardWrapperValve.java", Line: 197}},
		{"json module without version", "java.base/java.lang.Object.wait0(Native Method)",
			&Frame{Func: "java.lang.Object.wait0", Module: "java.base", Note: "Native Method"}},
		{"sap signature", "com.sap.engine.services.telnet.core.Buffer.read([BII)I(Buffer.java:95)",
			&Frame{Func: "com.sap.engine.services.telnet.core.Buffer.read", File: "Buffer.java", Line: 95}},
		{"jrockit slashes", "java/lang/Object.wait(J)V(Native Method)",
			&Frame{Func: "java/lang/Object.wait", Note: "Native Method"}},
		{"no location", "the gate", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseFrame([]byte(tt.text), newInterner())
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("parseFrame(%q) (-want +got):\n%s", tt.text, diff)
			}
		})
	}
}

func TestParseLockLine(t *testing.T) {
	tests := []struct {
		name    string
		text    string // after "- "
		ownable bool
		want    Lock
		ok      bool
	}{
		{"locked", "locked <0x000000076ab62208> (a java.lang.Object)", false,
			Lock{Kind: LockHeld, Address: "0x000000076ab62208", Class: "java.lang.Object"}, true},
		{"waiting to lock", "waiting to lock <0x100309e0> (a java.lang.Object)", false,
			Lock{Kind: LockWaitingTo, Address: "0x100309e0", Class: "java.lang.Object"}, true},
		{"waiting on", "waiting on <0x10010498> (a java.lang.ref.ReferenceQueue$Lock)", false,
			Lock{Kind: LockWaitingOn, Address: "0x10010498", Class: "java.lang.ref.ReferenceQueue$Lock"}, true},
		{"waiting on no reference", "waiting on <no object reference available>", false,
			Lock{Kind: LockWaitingOn}, true},
		{"parking, two spaces", "parking to wait for  <0x000000069ec1bdd0> (a java.util.concurrent.locks.ReentrantLock$NonfairSync)", false,
			Lock{Kind: LockParking, Address: "0x000000069ec1bdd0", Class: "java.util.concurrent.locks.ReentrantLock$NonfairSync"}, true},
		{"eliminated scalar replaced", "eliminated <owner is scalar replaced> (a java.lang.Object)", false,
			Lock{Kind: LockEliminated, Class: "java.lang.Object"}, true},
		{"eliminated address", "eliminated <0x00000000d5d08d48> (a java.lang.Object)", false,
			Lock{Kind: LockEliminated, Address: "0x00000000d5d08d48", Class: "java.lang.Object"}, true},
		{"re-lock", "waiting to re-lock in wait() <0x000000076ab62208> (a java.lang.Object)", false,
			Lock{Kind: LockReLocking, Address: "0x000000076ab62208", Class: "java.lang.Object"}, true},
		{"class for", "locked <0x00000000c0a5f5a8> (a java.lang.Class for sun.security.provider.SecureRandom)", false,
			Lock{Kind: LockHeld, Address: "0x00000000c0a5f5a8", Class: "java.lang.Class for sun.security.provider.SecureRandom"}, true},
		{"visualvm", "locked java.io.BufferedInputStream@5284339c", false,
			Lock{Kind: LockHeld, Address: "5284339c", Class: "java.io.BufferedInputStream"}, true},
		{"actuator hash", "waiting on <228a944d> (a java.lang.ref.ReferenceQueue$Lock)", false,
			Lock{Kind: LockWaitingOn, Address: "228a944d", Class: "java.lang.ref.ReferenceQueue$Lock"}, true},
		{"jdk25 plain identity", "locked <java.lang.Object@1b6d3586>", false,
			Lock{Kind: LockHeld, Address: "1b6d3586", Class: "java.lang.Object"}, true},
		{"jdk25 plain eliminated", "lock is eliminated", false, Lock{Kind: LockEliminated}, true},
		// JDK 17 (testdata/libs/jvm-class-init): a thread waiting for another's class initialization.
		{"class initialization", "waiting on the Class initialization monitor for com.example.classinit.TaxRules", false,
			Lock{Kind: LockClassInit, Class: "com.example.classinit.TaxRules"}, true},
		{"ownable", "<0x000000069ec1bda0> (a java.util.concurrent.locks.ReentrantLock$NonfairSync)", true,
			Lock{Kind: LockOwnable, Address: "0x000000069ec1bda0", Class: "java.util.concurrent.locks.ReentrantLock$NonfairSync"}, true},
		{"ownable none", "None", true, Lock{}, true},
		{"ownable visualvm", "locked java.util.concurrent.locks.ReentrantLock$NonfairSync@7a29682f", true,
			Lock{Kind: LockOwnable, Address: "7a29682f", Class: "java.util.concurrent.locks.ReentrantLock$NonfairSync"}, true},
		{"ownable actuator capital", "Locked <5cba6f7f> (a java.util.concurrent.locks.ReentrantLock$NonfairSync)", true,
			Lock{Kind: LockOwnable, Address: "5cba6f7f", Class: "java.util.concurrent.locks.ReentrantLock$NonfairSync"}, true},
		{"ownable jmx", "java.util.concurrent.locks.ReentrantLock$NonfairSync@166fba", true,
			Lock{Kind: LockOwnable, Address: "166fba", Class: "java.util.concurrent.locks.ReentrantLock$NonfairSync"}, true},
		{"not a lock", "to be or not to be", false, Lock{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := parseLockLine([]byte(tt.text), newInterner(), tt.ownable)
			if ok != tt.ok {
				t.Fatalf("parseLockLine(%q) ok = %v, want %v", tt.text, ok, tt.ok)
			}
			if diff := cmp.Diff(tt.want, got); ok && diff != "" {
				t.Errorf("parseLockLine(%q) (-want +got):\n%s", tt.text, diff)
			}
		})
	}
}

func TestParseStateLine(t *testing.T) {
	tests := []struct{ name, in, state, detail string }{
		{"parking", " WAITING (parking)", "WAITING", "parking"},
		{"monitor", " BLOCKED (on object monitor)", "BLOCKED", "on object monitor"},
		{"plain", " RUNNABLE", "RUNNABLE", ""},
		{"visualvm on", " TIMED_WAITING on java.util.TaskQueue@7311acb7", "TIMED_WAITING", "on java.util.TaskQueue@7311acb7"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, d := parseStateLine([]byte(tt.in))
			if string(s) != tt.state || string(d) != tt.detail {
				t.Errorf("parseStateLine(%q) = %q, %q; want %q, %q", tt.in, s, d, tt.state, tt.detail)
			}
		})
	}
}

func TestParseDuration(t *testing.T) {
	tests := []struct {
		in   string
		def  time.Duration
		want time.Duration
	}{
		{"1.23ms", time.Millisecond, 1230 * time.Microsecond},
		{"4,56s", time.Second, 4560 * time.Millisecond},
		{"116459.50s", time.Second, 116459500 * time.Millisecond},
		{"0.00", time.Millisecond, 0},
		{"12", time.Millisecond, 12 * time.Millisecond},
		{"7us", time.Millisecond, 7 * time.Microsecond},
	}
	for _, tt := range tests {
		if got := parseDuration([]byte(tt.in), tt.def); got != tt.want {
			t.Errorf("parseDuration(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// parseString parses a dump given as text.
func parseString(t *testing.T, s string) []*Dump {
	t.Helper()
	dumps, err := Parse("in.txt", strings.NewReader(s))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return dumps
}

// threadsOpts compares threads without the interned-pointer detail.
var threadsOpts = cmp.Options{cmpopts.EquateEmpty()}

func TestJstackDump(t *testing.T) {
	in := "8905:\n" +
		"2026-11-29 16:42:25\n" +
		"Full thread dump OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1 mixed mode, sharing):\n" +
		"\n" +
		"\"lock-holder\" #17 daemon prio=5 os_prio=0 cpu=0.30ms elapsed=0.87s tid=0x1 nid=0x5cf9 waiting on condition  [0x7]\r\n" +
		"   java.lang.Thread.State: TIMED_WAITING (sleeping)\n" +
		"\tat java.lang.Thread.sleep(java.base@17.0.15/Native Method)\n" +
		"        at JvmParse.sleepForever(JvmParse.java:119)\n" +
		"\t- locked <0x000000069e01b000> (a java.lang.Object)\n" +
		"\n" +
		"   Locked ownable synchronizers:\n" +
		"\t- <0x000000069e01b118> (a java.util.concurrent.locks.ReentrantLock$NonfairSync)\n" +
		"\n" +
		"\"C1 CompilerThread0\" #6 daemon prio=9 os_prio=0 cpu=1.00ms elapsed=1.00s tid=0x2 nid=0x3 waiting on condition  [0x0]\n" +
		"   java.lang.Thread.State: RUNNABLE\n" +
		"   Compiling: 1234       4       java.lang.String::hashCode (60 bytes)\n" +
		"\n" +
		"\"GC Thread#0\" os_prio=0 cpu=0.65ms elapsed=2.39s tid=0x3 nid=0x229e runnable  \n" +
		"\n" +
		"JNI global refs: 15, weak refs: 0\n" +
		"\n" +
		"Found one Java-level deadlock:\n" +
		"=============================\n" +
		"\"a\":\n" +
		"  waiting to lock monitor 0x1 (object 0x2, a java.lang.Object),\n" +
		"  which is held by \"b\"\n" +
		"\n" +
		"Java stack information for the threads listed above:\n" +
		"===================================================\n" +
		"\"a\":\n" +
		"\tat X.y(X.java:1)\n" +
		"\t- waiting to lock <0x2> (a java.lang.Object)\n" +
		"\n" +
		"Found 1 deadlock.\n" +
		"\n" +
		"some log line after the dump\n"
	dumps := parseString(t, in)
	if len(dumps) != 1 {
		t.Fatalf("got %d dumps, want 1", len(dumps))
	}
	d := dumps[0]
	sleep := &Frame{Func: "java.lang.Thread.sleep", Module: "java.base@17.0.15", Note: "Native Method"}
	forever := &Frame{Func: "JvmParse.sleepForever", File: "JvmParse.java", Line: 119}
	want := &Dump{
		Source:    Source{File: "in.txt", Line: 1},
		Format:    FormatJVMText,
		Time:      time.Date(2026, 11, 29, 16, 42, 25, 0, time.UTC),
		Version:   "OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1 mixed mode, sharing)",
		ProcessID: 8905,
		Threads: []*Thread{
			{ID: 17,
				State:  "TIMED_WAITING",
				Frames: []*Frame{sleep, forever},
				Weight: 1, Line: 5, JVM: &JVM{Name: "lock-holder", NativeID: "0x5cf9", TID: "0x1", Daemon: true, Priority: 5, StateDetail: "sleeping", CPU: 300 * time.Microsecond, Elapsed: 870 * time.Millisecond, Ownables: true,
					Locks: []Lock{
						{Kind: LockHeld, Address: "0x000000069e01b000", Class: "java.lang.Object", Frame: 1},
						{Kind: LockOwnable, Address: "0x000000069e01b118", Class: "java.util.concurrent.locks.ReentrantLock$NonfairSync", Frame: -1},
					}}},
			{ID: 6, State: "RUNNABLE", Weight: 1, Line: 14, JVM: &JVM{Name: "C1 CompilerThread0", NativeID: "0x3", TID: "0x2", Daemon: true, Priority: 9, StateDetail: "waiting on condition", CPU: time.Millisecond, Elapsed: time.Second}},
			{NoStack: true, Weight: 1, Line: 18, JVM: &JVM{Name: "GC Thread#0", NativeID: "0x229e", TID: "0x3", StateDetail: "runnable", CPU: 650 * time.Microsecond, Elapsed: 2390 * time.Millisecond}},
		},
		Deadlocks: []Deadlock{{Line: 22, Kind: "Java-level", Cycle: []DeadlockEdge{
			{Thread: "a", Waiting: "waiting to lock monitor 0x1 (object 0x2, a java.lang.Object),", Holder: "b"},
		}}},
	}
	if diff := cmp.Diff(want, d, threadsOpts); diff != "" {
		t.Errorf("dump (-want +got):\n%s", diff)
	}
}

func TestJstackCarrier(t *testing.T) {
	dumps := parseString(t, "Full thread dump OpenJDK 64-Bit Server VM (25+36-LTS mixed mode, sharing):\n\n"+
		"\"ForkJoinPool-1-worker-1\" #65 [62471] daemon prio=5 os_prio=31 tid=0x1  [0x2]\n"+
		"   Carrying virtual thread #206\n"+
		"\tat jdk.internal.vm.Continuation.run(java.base@25/Continuation.java:251)\n"+
		"\t- locked <0x10> (a java.lang.Object)\n"+
		"\tat java.util.concurrent.ForkJoinWorkerThread.run(java.base@25/ForkJoinWorkerThread.java:187)\n"+
		"   Mounted virtual thread #206\n"+
		"\tat org.example.Work.compute(Work.java:439)\n"+
		"\t- locked <0x20> (a org.example.Work)\n"+
		"\tat java.lang.VirtualThread.run(java.base@25/VirtualThread.java:456)\n")
	th := dumps[0].Threads
	if len(th) != 1 {
		t.Fatalf("got %d threads, want 1 (the mounted virtual thread is not a thread of its own)", len(th))
	}
	var funcs []string
	for _, f := range th[0].Frames {
		funcs = append(funcs, f.Func)
	}
	wantFuncs := []string{"org.example.Work.compute", "java.lang.VirtualThread.run",
		"jdk.internal.vm.Continuation.run", "java.util.concurrent.ForkJoinWorkerThread.run"}
	if diff := cmp.Diff(wantFuncs, funcs); diff != "" {
		t.Errorf("frames, innermost first (-want +got):\n%s", diff)
	}
	wantLocks := []Lock{
		{Kind: LockHeld, Address: "0x10", Class: "java.lang.Object", Frame: 2},
		{Kind: LockHeld, Address: "0x20", Class: "org.example.Work", Frame: 0},
	}
	if diff := cmp.Diff(wantLocks, th[0].Locks()); diff != "" {
		t.Errorf("locks (-want +got):\n%s", diff)
	}
	if th[0].MountedVirtual != 206 {
		t.Errorf("MountedVirtual = %d, want 206", th[0].MountedVirtual)
	}
}

func TestJstackInLog(t *testing.T) {
	tests := []struct {
		name        string
		in          string
		dumps       int
		threads     []int
		skipped     []Skipped // of the first dump
		wantVersion string
	}{
		{
			name: "log line inside a stack is skipped, the dump goes on",
			in: "log before\n2026-01-01 10:00:00\nFull thread dump VM (1 mixed mode):\n\n" +
				"\"a\" #1 prio=5 tid=0x1 nid=0x1 runnable\n\tat A.a(A.java:1)\n" +
				"10:00:00.010 INFO [main] request served\n" +
				"\tat A.b(A.java:2)\n\n" +
				"\"b\" #2 prio=5 tid=0x2 nid=0x2 runnable\n\tat B.b(B.java:1)\n\n" +
				"JNI global refs: 1, weak refs: 0\n\n" +
				"10:00:01.000 SEVERE failure\njava.lang.IllegalStateException: boom\n\tat X.x(X.java:1)\n",
			dumps: 1, threads: []int{2},
			skipped:     []Skipped{{Line: 7, Text: "10:00:00.010 INFO [main] request served", Reason: "foreign line inside a JVM dump (interleaved log output?)"}},
			wantVersion: "VM (1 mixed mode)",
		},
		{
			name: "logged exception after a dump without trailer is not a stack",
			in: "Full thread dump VM (1 mixed mode):\n\n\"a\" prio=5 tid=0x1 nid=0x1 runnable\n\tat A.a(A.java:1)\n\n" +
				"<2006/05/04> <Error> something failed\njava.lang.RuntimeException: boom\n\tat X.x(X.java:1)\n\tat X.y(X.java:2)\n",
			dumps: 1, threads: []int{1}, wantVersion: "VM (1 mixed mode)",
		},
		{
			name: "two dumps, each with its date line",
			in: "2026-01-01 10:00:00\nFull thread dump VM:\n\"a\" prio=5 tid=0x1 nid=0x1 runnable\n" +
				"log\n2026-01-01 10:00:05\nFull thread dump VM:\n\"a\" prio=5 tid=0x1 nid=0x1 runnable\n\"b\" prio=5 tid=0x2 nid=0x2 runnable\n",
			dumps: 2, threads: []int{1, 2}, wantVersion: "VM",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dumps := parseString(t, tt.in)
			if len(dumps) != tt.dumps {
				t.Fatalf("got %d dumps, want %d", len(dumps), tt.dumps)
			}
			for i, d := range dumps {
				if len(d.Threads) != tt.threads[i] {
					t.Errorf("dump %d: %d threads, want %d", i, len(d.Threads), tt.threads[i])
				}
				if d.Version != tt.wantVersion {
					t.Errorf("dump %d: version %q, want %q", i, d.Version, tt.wantVersion)
				}
			}
			if diff := cmp.Diff(tt.skipped, dumps[0].Skipped, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("skipped (-want +got):\n%s", diff)
			}
		})
	}
	// Dump times come from each dump's own date line.
	dumps := parseString(t, tests[2].in)
	if got := dumps[1].Time; !got.Equal(time.Date(2026, 1, 1, 10, 0, 5, 0, time.UTC)) {
		t.Errorf("second dump time = %v", got)
	}
}

func TestJVMRefusals(t *testing.T) {
	tests := []struct{ name, in, looks string }{
		{"ibm javacore", "0SECTION       TITLE subcomponent dump routine\nNULL           ===============================\n1TICHARSET     UTF-8\n", "ibm javacore without a thread (no 3XMTHREADINFO line)"},
		{"ibm classic", "1XMTHDINFO Thread Info\nNULL -----------\n2XMFULLTHDDUMP Full thread dump Classic VM (J2RE 1.3.1 IBM Windows 32):\n", "ibm javacore without a thread (no 3XMTHREADINFO line)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("in.txt", strings.NewReader(tt.in))
			var nd *NoDumpError
			if !errors.As(err, &nd) || nd.Looks != tt.looks {
				t.Errorf("err = %v, want a NoDumpError that looks like %q", err, tt.looks)
			}
		})
	}
}
