package analyze

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// rolesDir is where the roles fixtures are (testdata/gen/roles/gen.sh).
var rolesDir = filepath.Join("..", "testdata", "libs")

// poolStates is a pool's states at every moment, as "state=c1,c2".
func poolStates(r *Result, pool string) []string {
	for _, p := range r.Pools {
		if p.Name != pool {
			continue
		}
		var out []string
		for _, g := range p.States {
			var cs []string
			for _, c := range g.Counts {
				cs = append(cs, strconv.Itoa(c))
			}
			out = append(out, g.State+"="+strings.Join(cs, ","))
		}
		slices.Sort(out)
		return out
	}
	return nil
}

// The roles fixtures, each against the answer its README wrote from the
// program's source before dumpdiff ran on it.
func TestRolesFixtures(t *testing.T) {
	both := []string{"1", "2"}
	for _, tt := range []struct {
		name    string
		moments []string
		pools   map[string][]string // pool → its states (poolStates), nil: no such pool
		want    []want
	}{{
		// Three single-thread executors, a fixed one of two, Netty's boss
		// and worker groups of one each: six pools, no finding.
		name: "jvm-roles-pool-ids", moments: both,
		pools: map[string][]string{
			"pool-1-thread-*": {"pool-idle=1,1"}, "pool-2-thread-*": {"pool-idle=1,1"}, "pool-3-thread-*": {"pool-idle=1,1"},
			"pool-4-thread-*": {"pool-idle=2,2"}, "nioEventLoopGroup-2-*": {"selector-wait=1,1"}, "nioEventLoopGroup-3-*": {"selector-wait=1,1"},
			"pool-*-thread-*": nil, "nioEventLoopGroup-*-*": nil,
		},
	}, {
		// An executor per request, never shut down: the ids multiply, one
		// pool, and its growth is a leak of executors (detect_executor_leak.go),
		// the rise its story (no explosion beside it).
		name: "jvm-roles-executor-leak", moments: []string{"1", "2", "3"},
		want: []want{{KindLeaked, "pool-*-thread-*", "pool-idle", func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, BasisExecutorLeak)
			eq(t, "severity", f.Severity, Critical)
			eq(t, "per owner", f.Owners.PerOwner, 1)
		}}},
	}, {
		// Timer-0's task BLOCKED, Timer-1's task asleep: their work, not
		// the timer's rest; report-timer rests in its loop.
		name: "jvm-roles-timer-work", moments: both,
		pools: map[string][]string{
			"Timer-*":      {"monitor-blocked=1,1", "sleep=1,1"},
			"report-timer": {"pool-idle=1,1"},
		},
		want: []want{{KindSaturated, "Timer-*", "monitor-blocked", nil},
			// The one waiter behind a holder that sleeps with the lock, the
			// same at both moments: the holder named (ContentionOne).
			{KindContention, "Timer-*", "monitor-blocked", func(t *testing.T, f Finding) {
				eq(t, "owner", f.Lock.Owner.Name, "ledger-holder")
			}}},
	}, {
		// The Finalizer blocked in a finalize(): the application's work,
		// a pool of its own, not folded; behind a holder asleep at both
		// moments, the very same thread: contention naming the holder
		// (issue 33, the holder first: threads of their own behind an
		// owner that waits).
		name: "jvm-roles-finalizer-blocked", moments: both,
		pools: map[string][]string{"Finalizer": {"monitor-blocked=1,1"}},
		want: []want{{KindContention, "Finalizer", "monitor-blocked", func(t *testing.T, f Finding) {
			eq(t, "owner", f.Lock.Owner.Name, "registry-compactor")
			eq(t, "culprit", strings.Contains(f.Culprit, "NativeHandle.finalize"), true)
		}}},
	}, {
		name: "jvm-roles-finalizer-idle", moments: both,
		pools: map[string][]string{"Finalizer": nil},
	}, {
		// The common pool's workers renamed by their tasks ("import-job-0"):
		// still the common pool, starved.
		name: "jvm-roles-renamed-common-pool", moments: both,
		pools: map[string][]string{jvmCommonPool: {"latch-wait=3,3"}, "import-job-*": nil},
		want:  []want{{KindStuck, jvmCommonPool, "latch-wait", nil}, {KindCommonPoolStarved, jvmCommonPool, "latch-wait", nil}},
	}, {
		// The same on Temurin 25: other frames under the task.
		name: "jvm-roles-renamed-common-pool-jdk25", moments: both,
		pools: map[string][]string{jvmCommonPool: {"latch-wait=3,3"}, "import-job-*": nil},
		want:  []want{{KindStuck, jvmCommonPool, "latch-wait", nil}, {KindCommonPoolStarved, jvmCommonPool, "latch-wait", nil}},
	}, {
		// At rest the frames do not tell the pool: the names do.
		name: "jvm-roles-renamed-common-pool-idle", moments: both,
		pools: map[string][]string{"import-job-*": {"pool-idle=3,3"}},
	}, {
		// main returned; a thread on a monitor nobody notifies and a queue
		// consumer keep the JVM up: what they rest in, for the advice.
		name: "jvm-roles-kept-alive-monitor", moments: both,
		want: []want{{KindKeptAlive, "config-watcher", "object-wait", func(t *testing.T, f Finding) {
			eq(t, "holders", len(f.Holders), 2)
			eq(t, "watcher's rest", f.Holders[0].Rest, "monitor")
			eq(t, "consumer", f.Holders[1].Pool, "event-consumer")
			eq(t, "consumer's rest", f.Holders[1].Rest, "queue")
		}}},
	}, {
		// One worker writes the dump at each moment: the dump-writer
		// state, no finding.
		name: "jvm-roles-dump-endpoint", moments: []string{"1.txt", "2.txt"},
		pools: map[string][]string{"dump-http-*": {"dump-writer=1,1", "pool-idle=0,2"}},
	}} {
		t.Run(tt.name, func(t *testing.T) {
			r := Analyze(loadMoments(t, filepath.Join(rolesDir, tt.name), tt.moments), Options{})
			for pool, want := range tt.pools {
				if got := poolStates(r, pool); !slices.Equal(got, want) {
					t.Errorf("pool %s: states %v, want %v", pool, got, want)
				}
			}
			checkVerdicts(t, r, tt.want)
		})
	}
	// At one moment (no finding: one dump cannot show the holder stays)
	// the blocked Finalizer is a notable thread, its culprit the finalize().
	r := Analyze(loadMoments(t, filepath.Join(rolesDir, "jvm-roles-finalizer-blocked"), both[:1]), Options{})
	found := false
	for _, n := range r.Notable {
		found = found || n.Thread == "Finalizer" && strings.Contains(n.Culprit, "NativeHandle.finalize")
	}
	if !found {
		t.Errorf("the blocked Finalizer is not notable: %+v", r.Notable)
	}
}

// A runtime thread is the application's while it runs the application's
// code: the Finalizer in a finalize() that sleeps, in a public OpenJ9 dump
// (eclipse-openj9/openj9#10752, FinThreads.java's Foo.finalize), and the
// Finalizer of jvm-roles-finalizer-blocked (HotSpot 17); at rest in its
// queue it is the JVM's.
func TestRuntimeThreadRunningApplication(t *testing.T) {
	jvm := func(name string, frames ...string) *parse.Thread {
		th := thread("TIMED_WAITING", frames...)
		th.JVM = &parse.JVM{Name: name}
		return th
	}
	names := builtinRoles.JVMInternal
	for _, tt := range []struct {
		th       *parse.Thread
		internal bool
	}{
		{jvm("Finalizer thread", "java.lang.Thread.sleep", "java.lang.Thread.sleep", "FinThreads$Foo.finalize", "java.lang.J9VMInternals.runFinalize"), false},
		{jvm("Finalizer", "com.example.roles.FinalizerBlocked$NativeHandle.finalize", "java.lang.System$2.invokeFinalize",
			"java.lang.ref.Finalizer.runFinalizer", "java.lang.ref.Finalizer$FinalizerThread.run"), false},
		{jvm("Finalizer", "java.lang.Object.wait", "java.lang.ref.ReferenceQueue.remove", "java.lang.ref.Finalizer$FinalizerThread.run"), true},
		{jvm("Finalizer thread"), true}, // OpenJ9's, no Java frames at rest
		// BerkeleyDB JE's own "Cleaner-1" (corpus tda__hotspot-1.6.0_03-server__rmi-threads)
		// is no JDK Cleaner.
		{jvm("Cleaner-1", "java.lang.Object.wait", "java.lang.Object.wait", "com.sleepycat.je.utilint.DaemonThread.run", "java.lang.Thread.run"), false},
		{jvm("Attach API wait loop", "openj9.internal.tools.attach.target.IPC.waitSemaphore", "openj9.internal.tools.attach.target.WaitLoop.run"), true},
	} {
		if got := jvmInternal(tt.th, names); got != tt.internal {
			t.Errorf("%q %v: internal %v, want %v", tt.th.Name(), tt.th.Frames, got, tt.internal)
		}
	}
}

// Each JVM vendor's own threads are JVM-internal, listed by hand from the
// corpus's real dumps (SOURCES.md), and the applications' threads of the
// same dumps are not.
func TestVendorThreadsInternal(t *testing.T) {
	names := builtinRoles.JVMInternal
	for _, tt := range []struct {
		file          string
		internal, app []string
	}{{
		// OpenJ9 (Semeru 21.0.4): 11 GC Worker, 8 JIT compilation threads,
		// the sampler, the profiler, its finalizer, mark helper and attach loop.
		file: "ibm-flamegrapher__openj9-jdk21-macos-aarch64__javacore.txt",
		internal: []string{"GC Worker", "JIT Compilation Thread-000 Suspended", "JIT Compilation Thread-001", "JIT Diagnostic Compilation Thread-007 Suspended",
			"JIT-SamplerThread", "IProfiler", "Finalizer thread", "Concurrent Mark Helper", "Attach API wait loop", "Common-Cleaner"},
		app: []string{"Default Executor-thread-1", "main", "Timer-0", "Inbound Read Selector.1", "kernel-command-listener", "SCR Component Actor"},
	}, {
		// IBM J9 (IBM Java 8 SR5 FP41): GC Slave rather than GC Worker.
		file: "ibm-flamegrapher__ibm-j9-jdk8-sr5fp41-linux__javacore.txt",
		internal: []string{"GC Slave", "JIT Compilation Thread-0", "JIT Compilation Thread-6 Suspended", "JIT Diagnostic Compilation Thread-7 Suspended",
			"JIT-SamplerThread", "IProfiler", "Finalizer thread", "Concurrent Mark Helper", "Attach API wait loop", "Signal Dispatcher",
			"VM Runtime State Listener"},
		app: []string{"pool-2-thread-1", "zip file reaper", "derby.rawStoreDaemon", "Thread-35", "main", "ClassloaderMapProcessingThread-37"},
	}, {
		// IBM's classic JVM (1.3.1, 1.4.0, 1.4.2 on Windows, WebLogic 8):
		// its signal thread is "Signal dispatcher" (and writes the
		// javacore: it owns the heap and registry locks in 2LKREGMON),
		// its JIT's profiler "JIT PProfiler thread"; OpenJ9's trace engine
		// still lists the two among the VM's own (runtime/rastrace/
		// trcengine.c, reportVMTermination's ignoreThreads).
		file:     "samurai__ibm-classic-1.4.0-win32__javacore.dmp",
		internal: []string{"Signal dispatcher", "JIT PProfiler thread", "Reference Handler", "Finalizer"},
		app:      []string{"Thread-1", "Thread-2", "Thread-3"},
	}, {
		file:     "samurai__ibm-classic-1.4.2-win32__javacore.txt",
		internal: []string{"Signal dispatcher", "Reference Handler", "Finalizer"},
		app:      []string{"main", "weblogic.time.TimeEventGenerator", "ExecuteThread: '6' for queue: 'weblogic.kernel.Default'"},
	}, {
		file:     "samurai__ibm-classic-1.3.1-win32__javacore-excerpt.dmp",
		internal: []string{"Signal dispatcher", "Reference Handler", "Finalizer"},
		app:      []string{"main"},
	}, {
		// OpenJ9 threads seen in public issues, not in the corpus: a
		// javacore's "DestroyJavaVM helper thread" (eclipse-openj9/openj9#7995),
		// gdb's "Signal Reporter" (eclipse-openj9/openj9#12224).
		internal: []string{"DestroyJavaVM helper thread", "Signal Reporter"},
	}, {
		// JRockit R27.6 (1.6.0_14).
		file: "dumpling__jrockit-R27.6.5-1.6.0_14__dump.log",
		internal: []string{"(GC Main Thread)", "(GC Worker Thread 1)", "(Code Generation Thread 1)", "(Code Optimization Thread 1)",
			"(VM Periodic Task)", "(Signal Handler)", "(Sensor Event Thread)", "(Attach Listener)", "Reference Handler", "Finalizer"},
		app: []string{"Main Thread"},
	}, {
		// JRockit 1.4-era WebLogic, R25 and R26.
		file:     "tda__jrockit-1.4-era__weblogic-crlf.txt",
		internal: []string{"(Hotspot Detector)", "[JRockit] GCEventThread", "(GC Main Thread)", "(Signal Handler)"},
		app:      []string{"ExecuteThread: '0' for queue: 'weblogic.kernel.Default'", "weblogic.time.TimeEventGenerator", "ListenThread.Default"},
	}, {
		file:     "tda__jrockit-R26.4-1.5.0_06__weblogic-2-dumps-crlf.txt",
		internal: []string{"GC event thread", "(VM Periodic Task)", "(Code Optimization Thread 1)"},
		app:      []string{"weblogic.timers.TimerThread", "DoSManager", "VDE Transaction Processor Thread"},
	}, {
		// SAP JVM 5.1: HotSpot's threads, numbered CMS threads, its control thread.
		file: "threadlogic__sapjvm-2008__stdout-log-with-2-dumps.log",
		internal: []string{"Control Handler", "Concurrent Mark-Sweep GC Thread#0", "Gang worker#0 (Parallel GC Threads)", "Surrogate Locker Thread (CMS)",
			"CompilerThread0", "VM Thread", "VM Periodic Task Thread", "Low Memory Detector", "Signal Dispatcher"},
		app: []string{"Keep-Alive-Timer", "SAPEngine_EnquReader", "Application [59]", "main"},
	}} {
		t.Run(tt.file, func(t *testing.T) {
			if tt.file == "" {
				for _, n := range tt.internal {
					if !nameIn(n, names) {
						t.Errorf("%q is the JVM's own thread, not in the table", n)
					}
				}
				return
			}
			path := corpusJVM + tt.file
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Skipf("corpus not here (%v)", err)
			}
			// The file's thread names, by regexp (some of these formats dumpdiff
			// does not read: JRockit's).
			inFile := map[string]bool{}
			for _, m := range regexp.MustCompile(`(?m)^(?:3XMTHREADINFO\s+)?"([^"]+)"`).FindAllSubmatch(raw, -1) {
				inFile[string(m[1])] = true
			}
			for _, n := range append(slices.Clone(tt.internal), tt.app...) {
				if !inFile[n] {
					t.Errorf("%q is not a thread of the file", n)
				}
			}
			for _, n := range tt.internal {
				if !nameIn(n, names) {
					t.Errorf("%q is the JVM's own thread, not in the table", n)
				}
			}
			for _, n := range tt.app {
				if nameIn(n, names) {
					t.Errorf("%q is the application's thread, taken for the JVM's", n)
				}
			}
		})
	}
}

// The public dumps of the corpus whose writer is in them: a real Spring
// Boot 2.5.4 Actuator text threaddump (an http-nio worker in
// ThreadImpl.dumpThreads0), VisualVM's dump over JMX and a JMX client's
// ThreadInfo dump (an RMI connection thread), jcmd Thread.dump_to_file on
// JDK 21 (the Attach Listener in ThreadDumper, JVM-internal by name);
// go-profiler-notes' /debug/pprof/goroutine?debug=2 of Go 1.15.
func TestDumpWriterCorpus(t *testing.T) {
	for _, tt := range []struct {
		file, pool string // pool "": the writer is JVM-internal
	}{
		{"jvm/samurai__spring-boot-2.5.4-actuator__text-threaddump.dmp", "http-nio-8080-exec-*"},
		{"jvm/tda__hotspot-11.0-b15__visualvm-format-crlf.log", "RMI TCP Connection(*)-192.18.126.*"},
		{"jvm/tda__hotspot-1.6.0_03-client__jmx-threadinfo-format.log", "RMI TCP Connection(*)-127.0.1.*"},
		{"jvm/tda__openjdk-21.0.10__jcmd-Thread.dump_to_file.json", "jvm-internal"},
		{"go/go-profiler-notes__go1.15.6__http-pprof-goroutine-debug2-set1.txt", "net/http server connections"},
		{"go/go-profiler-notes__go1.15.6__http-pprof-goroutine-debug2-set2.txt", "net/http server connections"},
	} {
		t.Run(tt.file, func(t *testing.T) {
			r := Analyze(corpusInputs(t, "../../shared/corpus/"+tt.file), Options{})
			counts := make([]int, len(r.Moments))
			for _, p := range r.Pools {
				for _, g := range p.States {
					if g.State == dumpWriterState {
						if p.Name != tt.pool {
							t.Errorf("the writer is in pool %s, want %s", p.Name, tt.pool)
						}
						for m, c := range g.Counts {
							counts[m] += c
						}
					}
				}
			}
			for m, c := range counts {
				if c != 1 {
					t.Errorf("moment %d: %d dump writers, want 1", m, c)
				}
			}
		})
	}
}

// The thread writing the dump is the dump-writer state, one a moment, in
// every runtime: the JVM's ThreadMXBean under our Actuator-format endpoint
// (testdata/jvm/actuator, main) and under an HTTP worker
// (jvm-roles-dump-endpoint); Go's goroutine profile under the pprof
// handler, in debug=2 text of real services (go-slow-upstream-leak,
// go-healthy, go-busy-service).
func TestDumpWriter(t *testing.T) {
	for _, tt := range []struct {
		dir     string
		moments []string
		pool    string
	}{
		{filepath.Join("..", "testdata", "jvm", "actuator"), []string{"threaddump.txt", "threaddump-boot3.json"}, "main"},
		{filepath.Join(rolesDir, "jvm-roles-dump-endpoint"), []string{"1.txt", "2.txt"}, "dump-http-*"},
		// jcmd's Thread.print through the DiagnosticCommand MBean.
		{filepath.Join(rolesDir, "jvm-roles-dump-endpoint"), []string{"3-threadprint.txt", "4-threadprint.txt"}, "dump-http-*"},
		{filepath.Join("..", "testdata", "scenarios", "go-slow-upstream-leak"), []string{"before", "during-1", "after"}, "net/http server connections"},
		{filepath.Join("..", "testdata", "verdicts", "go-healthy"), nil, ""},
		{filepath.Join("..", "testdata", "verdicts", "go-busy-service"), nil, ""},
	} {
		t.Run(filepath.Base(tt.dir)+"/"+strings.Join(tt.moments, ","), func(t *testing.T) {
			moments := tt.moments
			if moments == nil {
				files, _ := filepath.Glob(filepath.Join(tt.dir, "*.txt"))
				for _, f := range files {
					moments = append(moments, filepath.Base(f))
				}
			}
			r := Analyze(loadMoments(t, tt.dir, moments), Options{})
			counts := make([]int, len(r.Moments))
			for _, p := range r.Pools {
				for _, g := range p.States {
					if g.State != dumpWriterState {
						continue
					}
					if g.Category != Other {
						t.Errorf("dump writer of %s is %s", p.Name, g.Category)
					}
					if tt.pool != "" && p.Name != tt.pool {
						t.Errorf("dump writer in pool %s, want %s", p.Name, tt.pool)
					}
					for m, c := range g.Counts {
						counts[m] += c
					}
				}
			}
			for m, c := range counts {
				if c != 1 {
					t.Errorf("moment %s: %d dump writers, want 1", r.Moments[m].Label, c)
				}
			}
			for _, n := range r.Notable {
				if n.State == dumpWriterState {
					t.Errorf("the dump writer is notable: %+v", n)
				}
			}
		})
	}
}

// A signatures file's [roles] block adds to each table, and each addition
// takes effect where the table is read.
func TestRolesExtend(t *testing.T) {
	ext, err := ParseExtensions(strings.NewReader(`
[roles]
jvm-internal = Acme Agent Sampler, acme-jvm-*
dump-writer  = com.acme.diag.DumpServlet.dump
event-loop   = com.acme.net.Reactor.run
common-pool  = acme-shared-*
not-spinning = com.acme.net.Poller.poll
cpu-native   = com.acme.fast.Hash.mix
up-by-design = AcmeUI-Event-*
`), "team.signatures")
	if err != nil {
		t.Fatal(err)
	}
	r := roleTables(ext)
	for _, tt := range []struct {
		table []string
		entry string
	}{
		{r.JVMInternal, "acme-jvm-*"}, {r.JVMInternal, "Acme Agent Sampler"}, {r.DumpWriters, "com.acme.diag.DumpServlet.dump"},
		{r.EventLoops, "com.acme.net.Reactor.run"}, {r.CommonPools, "acme-shared-*"}, {r.NotSpinning, "com.acme.net.Poller.poll"},
		{r.CPUNatives, "com.acme.fast.Hash.mix"}, {r.UpByDesign, "AcmeUI-Event-*"},
	} {
		if !slices.Contains(tt.table, tt.entry) {
			t.Errorf("%q not added: %v", tt.entry, tt.table)
		}
	}
	// Each built-in table is kept whole beside the additions.
	for i, pair := range [][2][]string{{builtinRoles.JVMInternal, r.JVMInternal}, {builtinRoles.DumpWriters, r.DumpWriters},
		{builtinRoles.EventLoops, r.EventLoops}, {builtinRoles.CommonPools, r.CommonPools}, {builtinRoles.NotSpinning, r.NotSpinning},
		{builtinRoles.CPUNatives, r.CPUNatives}, {builtinRoles.UpByDesign, r.UpByDesign}} {
		for _, e := range pair[0] {
			if !slices.Contains(pair[1], e) {
				t.Errorf("table %d lost built-in %q", i, e)
			}
		}
	}
	// Where they are read: a thread of the added names is the JVM's; a
	// thread under the added writer frame is the dump writer.
	opt := Options{Extensions: ext}
	agent := &parse.Thread{JVM: &parse.JVM{Name: "acme-jvm-gc-1"}, State: "RUNNABLE", Frames: []*parse.Frame{{Func: "com.acme.jvm.Gc.run"}}}
	if p, internal := poolName(parse.RuntimeJVM, agent, opt); !internal {
		t.Errorf("acme-jvm-gc-1 is in pool %s, not the JVM's", p)
	}
	writer := thread("RUNNABLE", "java.io.PrintWriter.println", "com.acme.diag.DumpServlet.dump", "javax.servlet.http.HttpServlet.service")
	writer.JVM = &parse.JVM{Name: "http-nio-8080-exec-1"}
	if s := classifyIn(signatureTable(ext), parse.RuntimeJVM, writer); s == nil || s.ID != dumpWriterState {
		t.Errorf("a thread under the added dump writer frame is %v", s)
	}
	// Without the file, neither.
	if _, internal := poolName(parse.RuntimeJVM, agent, Options{}); internal {
		t.Error("acme-jvm-gc-1 is the JVM's without the signatures file")
	}
	if s := classifyIn(signatureTable(nil), parse.RuntimeJVM, writer); s != nil && s.ID == dumpWriterState {
		t.Error("the servlet is a dump writer without the signatures file")
	}
	if _, err := ParseExtensions(strings.NewReader("[roles]\nevent-loops = x\n"), "f"); err == nil || !strings.Contains(err.Error(), "f:2: unknown [roles] key") {
		t.Errorf("an unknown [roles] key: %v", err)
	}
}

// A renamed worker is the common pool's only when its task is one the
// common pool runs by default and the process has no ForkJoinPool of its
// own; frames of jvm-roles-renamed-common-pool (JDK 17) and of the same
// program on Temurin 25.0.3.
func TestRenamedCommonWorker(t *testing.T) {
	worker := func(name string, frames ...string) *parse.Thread {
		th := thread("WAITING", frames...)
		th.JVM = &parse.JVM{Name: name}
		return th
	}
	async := worker("import-job-0", "jdk.internal.misc.Unsafe.park", "java.util.concurrent.CountDownLatch.await",
		"com.example.roles.RenamedCommonPool.lambda$main$0", "java.util.concurrent.CompletableFuture$AsyncRun.run",
		"java.util.concurrent.CompletableFuture$AsyncRun.exec", "java.util.concurrent.ForkJoinTask.doExec",
		"java.util.concurrent.ForkJoinPool$WorkQueue.topLevelExec", "java.util.concurrent.ForkJoinPool.runWorker",
		"java.util.concurrent.ForkJoinWorkerThread.run")
	submitted := worker("custom-job-0", "jdk.internal.misc.Unsafe.park", "java.util.concurrent.CountDownLatch.await",
		"R.lambda$main$1", "java.util.concurrent.ForkJoinTask$AdaptedRunnableAction.exec", "java.util.concurrent.ForkJoinTask.doExec",
		"java.util.concurrent.ForkJoinPool.runWorker", "java.util.concurrent.ForkJoinWorkerThread.run")
	idle := worker("import-job-1", "jdk.internal.misc.Unsafe.park", "java.util.concurrent.ForkJoinPool.awaitWork",
		"java.util.concurrent.ForkJoinPool.runWorker", "java.util.concurrent.ForkJoinWorkerThread.run")
	for _, tt := range []struct {
		th     *parse.Thread
		own    bool
		common bool
	}{{async, false, true}, {async, true, false}, {submitted, false, false}, {idle, false, false}} {
		_, got := renamedCommonWorker(tt.th, Options{ownForkJoin: tt.own})
		if got != tt.common {
			t.Errorf("%s (own pools %v): common %v, want %v", tt.th.Name(), tt.own, got, tt.common)
		}
	}
	if !ownForkJoin(map[string]string{"ForkJoinPool-2-worker-1": ""}) || ownForkJoin(map[string]string{"ForkJoinPool.commonPool-worker-1": ""}) {
		t.Error("ownForkJoin tells the common pool's workers from a pool's own")
	}
}

// A Timer rests in its loop's own wait, in public dumps of JDK 8
// (JMRI/JMRI#5599, Object.wait(Object.java:502) between) and JDK 17
// (eclipse-jdt/eclipse.jdt.core#1283); its task's lock, sleep or wait is
// the task's work (jvm-roles-timer-work, JDK 17).
func TestTimerRoles(t *testing.T) {
	for _, tt := range []struct {
		name     string
		th       *parse.Thread
		state    string
		category Category
	}{
		{"jdk8 idle", thread("WAITING", "java.lang.Object.wait", "java.lang.Object.wait", "java.util.TimerThread.mainLoop", "java.util.TimerThread.run"), "pool-idle", Idle},
		{"jdk17 idle", thread("TIMED_WAITING", "java.lang.Object.wait", "java.util.TimerThread.mainLoop", "java.util.TimerThread.run"), "pool-idle", Idle},
		{"task blocked", thread("BLOCKED", "com.example.roles.TimerWork$1.run", "java.util.TimerThread.mainLoop", "java.util.TimerThread.run"), "monitor-blocked", Waiting},
		{"task asleep", thread("TIMED_WAITING", "java.lang.Thread.sleep", "com.example.roles.TimerWork.sleepForever", "com.example.roles.TimerWork$2.run",
			"java.util.TimerThread.mainLoop", "java.util.TimerThread.run"), "sleep", Waiting},
		{"task waits", thread("WAITING", "java.lang.Object.wait", "java.lang.Object.wait", "com.example.Reload.await", "com.example.ReloadTask.run",
			"java.util.TimerThread.mainLoop", "java.util.TimerThread.run"), "object-wait", Waiting},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.th.JVM = &parse.JVM{Name: "Timer-0"}
			s := classify(parse.RuntimeJVM, tt.th)
			if s == nil || s.ID != tt.state || s.Category != tt.category {
				t.Fatalf("classified %+v, want %s (%s)", s, tt.state, tt.category)
			}
			if tt.state == "object-wait" && !inPoolTask(tt.th) {
				t.Error("a timer's task waiting is not in a task: its wait would be a rest")
			}
			if tt.category == Idle && inPoolTask(tt.th) {
				t.Error("a timer at rest is in a task")
			}
		})
	}
}

// Each table a [roles] row extends changes what the analysis concludes on
// real fixtures: a pool named shared is starved, not saturated; a frame
// named an event loop's makes its wait a blocked loop; a frame named a
// wait of a runnable thread is no spinning; a thread named up by design
// keeps the JVM up without a kept-alive finding.
func TestRolesExtendVerdicts(t *testing.T) {
	kinds := func(r *Result) []string {
		var out []string
		for _, f := range r.Findings {
			out = append(out, f.Kind+" "+f.Pool)
		}
		slices.Sort(out)
		return out
	}
	both := []string{"1", "2"}
	for _, tt := range []struct {
		dir, roles string
		without    string // a finding without the row
		with       string // the finding with it; "": none, and not the one without
	}{
		{"libs/jvm-task-sleep", "common-pool = quote-*", "saturated quote-*", "common-pool-starved quote-*"},
		{"libs/jvm-roles-timer-work", "event-loop = java.util.TimerThread.mainLoop", "saturated Timer-*", "event-loop-blocked Timer-*"},
		{"verdicts/jvm-spin-parser", "not-spinning = com.example.spin.Tokenizer.count", "spinning parser-*", ""},
		{"libs/jvm-roles-kept-alive-monitor", "up-by-design = config-watcher", "kept-alive config-watcher", ""},
	} {
		t.Run(tt.dir, func(t *testing.T) {
			in := loadMoments(t, filepath.Join("..", "testdata", tt.dir), both)
			if got := kinds(Analyze(in, Options{})); !slices.Contains(got, tt.without) {
				t.Fatalf("without the row: %v, want %s among them", got, tt.without)
			}
			ext, err := ParseExtensions(strings.NewReader("[roles]\n"+tt.roles+"\n"), "team.signatures")
			if err != nil {
				t.Fatal(err)
			}
			got := kinds(Analyze(in, Options{Extensions: ext}))
			if tt.with == "" && slices.Contains(got, tt.without) {
				t.Errorf("with %q: %v, still %s", tt.roles, got, tt.without)
			}
			if tt.with != "" && !slices.Contains(got, tt.with) {
				t.Errorf("with %q: %v, want %s", tt.roles, got, tt.with)
			}
		})
	}
}
