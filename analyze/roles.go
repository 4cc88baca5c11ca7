package analyze

import (
	"slices"
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// Roles say what a thread is there for, beside the blocking state the
// signature table gives it: the runtime's own threads, the thread that
// writes the dump, an event loop, a pool shared by the whole process. They
// are data, as the signature table is: a new JVM vendor, framework or
// dumping endpoint is one entry, and a signatures file's [roles] block
// adds entries (Extensions.Roles) as its [signature] blocks add states.
type Roles struct {
	// JVMInternal are the names of a JVM's own threads (its compilers, GC,
	// signal and attach threads, of every vendor): kept out of verdicts as
	// the Go runtime's goroutines are. A trailing "*" makes a prefix.
	JVMInternal []string
	// DumpWriters are frames (anchors: a trailing "*" is a prefix) of the
	// thread that writes the dump itself: it runs because it dumps, so it
	// is neither work nor finding (the dump-writer state).
	DumpWriters []string
	// EventLoops are frame prefixes that make a thread an event loop: it
	// must only ever wait in its selector (the event-loop detector), and a
	// runnable one is in its selector, not spinning.
	EventLoops []string
	// CommonPools are pool names (a "*" matches any run) of pools shared
	// by the whole process, whose starvation starves unrelated callers
	// (the common-pool detector; the saturated detector leaves them to it).
	CommonPools []string
	// NotSpinning are frame prefixes a runnable thread waits in (a selector
	// polling is runnable while it waits): a thread there spins only on the
	// stronger CPU evidence (SpinRestCPUShare), for a select that returns at
	// once looks like an idle one; a library's own selector loop never.
	NotSpinning []string
	// CPUNatives are the JDK's native methods that compute and return at
	// once (a CAS, a clock, a hash, an array copy): a loop calling one is
	// caught in it as often as in its Java frames. Where the JVM prints no
	// cpu= (JDK 8), a runnable thread under any other native method may be
	// blocked in the kernel (a socket or file read, a child process), so
	// only these may top a loop judged by its frames alone.
	CPUNatives []string
	// UpByDesign are names (a trailing "*" is a prefix) of non-daemon
	// threads that keep a JVM up by design once main has returned: a GUI's
	// event thread serves its windows until they close (the kept-alive
	// detector stays quiet).
	UpByDesign []string
	// GoWork are frames (anchors: a trailing "*" is a prefix, a leading one
	// any vendoring path) where a Go server or runner hands a goroutine one
	// unit of work: a request to its handler, a task to its group. A wait
	// above one is the work's, however the goroutine rests between units
	// (goWork).
	GoWork []string
	// PoolLoops are frame prefixes of a pool's own run loop, which runs
	// one task after another on the same thread: a thread under one is a
	// pool's worker, not a thread made for its task (the crowd rule's
	// thread-per-task explosion; a team's own executor is one entry).
	PoolLoops []string
	// OwnerLoops are frame prefixes of a loop that runs on the only thread
	// of the object that owns it (a java.util.Timer's TimerThread, a
	// client's selector or evictor thread): the number in such a thread's
	// name counts owners, not threads of one pool (the executor-leak
	// rule); a team's own one-thread service is one entry.
	OwnerLoops []string
	// HotLoops are the loops that are endless only over a corrupted
	// structure (hotloops.go: a map written by threads at once), which a
	// thread RUNNABLE in is spinning by the loop's shape in one dump; a
	// signatures file's [hot-loop] blocks add rows, met before the
	// built-in ones.
	HotLoops []HotLoop
	// BackOffs are frames (exact functions) a retry loop backs off in: a
	// RUNNABLE thread under one, in a loop it never leaves, is retrying,
	// not working (the livelock rule); a team's own spin or tryLock helper
	// is one entry.
	BackOffs []string
	// HandOffs are frames (anchors) of a team's own hand-off waits, by the
	// kind of hand-off they are (peerWait.Kind: "latch", "barrier",
	// "queue-take" ...): the no-peer rule asks of a waiter under one what
	// the JDK's of that kind would have it ask (is any thread left to
	// count it down, take from it, signal it). Empty in the built-in
	// table: the JDK's own are the rows of peerWaits.
	HandOffs map[string][]string
	// ShutdownWaits are words (lower case, matched inside a method's name)
	// of an application method that waits for the process's end: main
	// parks on its shutdown latch in one (Threads.awaitShutdown,
	// blockUntilShutdown, keepAlive) until a hook counts it down. A
	// latch awaited under none, from main, with its would-be counters gone
	// is a latch whose counter died (the no-peer rule); a team's own
	// name for its park ("waitForSigterm") is one entry.
	ShutdownWaits []string
}

// builtinRoles are the built-in tables. Each entry comes from a real dump
// (the tests name it).
var builtinRoles = Roles{
	JVMInternal: jvmInternalNames,
	DumpWriters: dumpWriterFrames,
	EventLoops:  eventLoops,
	CommonPools: []string{jvmCommonPool},
	NotSpinning: []string{"sun.nio.ch.EPoll.wait", "sun.nio.ch.KQueue.poll", "sun.nio.ch.WEPoll.wait", "sun.nio.ch.SelectorImpl.", "sun.nio.ch.Net.poll"},
	CPUNatives:  cpuNatives,
	UpByDesign:  []string{"AWT-EventQueue-*"},
	GoWork:      goWorkFrames,
	PoolLoops:   poolLoops,
	OwnerLoops:  ownerLoops,
	BackOffs:    backOffFrames,
	// From testdata/libs/* (Threads.awaitShutdown) and the common
	// spellings of a service's park: blockUntilShutdown (gRPC's
	// examples), awaitTermination, keepAlive, waitForever, awaitExit,
	// awaitStop, awaitClose, halt.
	ShutdownWaits: []string{"shutdown", "terminat", "alive", "forever", "exit", "stop", "close", "halt"},
	HotLoops:      hotLoops,
}

// cpuNatives are JDK natives that return at once (Roles.CPUNatives), as
// JDK 6–8 print them on top of a hot loop: sun.misc.Unsafe's CAS under an
// atomic's retry loop, the clocks a busy-wait reads, Thread.yield and
// isInterrupted in a spin-wait, identity hashes, array copies and
// reflection's checks in a computation.
var cpuNatives = []string{
	"sun.misc.Unsafe.compareAndSwap*", "sun.misc.Unsafe.getAndAdd*", "sun.misc.Unsafe.get*Volatile", "sun.misc.Unsafe.put*Volatile",
	"jdk.internal.misc.Unsafe.compareAndSet*", "jdk.internal.misc.Unsafe.compareAndExchange*",
	"java.lang.System.nanoTime", "java.lang.System.currentTimeMillis", "java.lang.System.arraycopy", "java.lang.System.identityHashCode",
	"java.lang.Object.hashCode", "java.lang.Object.getClass", "java.lang.Object.clone", "java.lang.Thread.yield", "java.lang.Thread.onSpinWait",
	"java.lang.Thread.isInterrupted", "java.lang.Thread.currentThread", "java.lang.Throwable.fillInStackTrace",
	"java.lang.Class.isInstance", "java.lang.Class.isAssignableFrom", "java.lang.Class.isArray", "java.lang.Class.getComponentType",
	"java.lang.StrictMath.*", "java.lang.Float.floatToRawIntBits", "java.lang.Float.intBitsToFloat",
	"java.lang.Double.doubleToRawLongBits", "java.lang.Double.longBitsToDouble", "java.lang.String.intern",
	"java.lang.reflect.Array.newArray", "java.lang.reflect.Array.get*", "java.util.zip.CRC32.update*", "java.util.zip.Adler32.update*",
}

// goWorkFrames are where Go's servers and runners hand a goroutine one
// unit of work (Roles.GoWork): net/http's and fasthttp's request to its
// handler, gRPC's unary call to its method (processUnaryRPC; from grpc-go
// 1.7x one processRPC serves both kinds, and a unary call passes through
// its wrapUnaryHandler closure), a task of errgroup or of
// sync.WaitGroup.Go (Go 1.25). Not a streaming call: a watch stream rests
// between its messages for hours by design, as a server-sent-events
// handler does; what it waits on that is no rest still counts under a
// call its handler made.
var goWorkFrames = []string{
	"net/http.serverHandler.ServeHTTP", "*google.golang.org/grpc.(*Server).processUnaryRPC",
	"*google.golang.org/grpc.(*Server).register.(*Server).wrapUnaryHandler.func*", "*google.golang.org/grpc.(*Server).wrapUnaryHandler.func*",
	"github.com/valyala/fasthttp.(*Server).serveConn",
	"*golang.org/x/sync/errgroup.(*Group).Go.func*", "sync.(*WaitGroup).Go.func*",
}

// jvmCommonPool is the pool of the JVM's ForkJoinPool.commonPool().
const jvmCommonPool = "ForkJoinPool.commonPool-worker-*"

// jvmInternalNames are JVM threads that do the runtime's own work, of every
// vendor. A name ending in "*" is a prefix.
var jvmInternalNames = []string{
	// HotSpot (Oracle, OpenJDK builds of every vendor).
	"Reference Handler", "Finalizer", "Signal Dispatcher", "Attach Listener", "Common-Cleaner",
	"Notification Thread", "Service Thread", "Monitor Deflation Thread", "Sweeper thread",
	"VM Thread", "VM Periodic Task Thread", "Low Memory Detector", "Surrogate Locker Thread*",
	"C1 CompilerThread*", "C2 CompilerThread*", "CompilerThread*", "JVMCI*", "GC Thread*", "GC task thread*",
	"G1 *", "Gang worker*", "Concurrent Mark-Sweep GC Thread*", "Parallel GC Threads", "ZWorker*", "ZDriver*",
	"ZDirector*", "ZStat*", "ZUncommitter*", "ZUnmapper*", "Shenandoah*", "JFR *", "Cleaner-*",
	"process reaper", "Java2D Disposer", "AWT-*", "Exception Catcher Thread", "Dispatcher-Thread-*",
	"DestroyJavaVM", "StrDedup", "String Deduplication Thread", "Unknown thread", "VM JFR Buffer Thread",
	"RMI TCP Accept-*", "RMI Scheduler*", "RMI Reaper", "RMI RenewClean-*", "GC Daemon",
	"JMX server connection timeout*", "Code Cacheable Sweeper", "Java Thread Stack Watcher",
	// The debugger's agent (-agentlib:jdwp) and RMI's and JMX's own loops.
	"JDWP *", "RMI GC Daemon", "JMX client heartbeat*",
	// IntelliJ IDEA's launcher (idea_rt, AppMainV2) in every JVM it starts:
	// it reads a socket from the IDE for ever, waiting for Ctrl-Break.
	"Monitor Ctrl-Break",
	// OpenJ9 and IBM J9 (javacores of Semeru 21 and IBM Java 8 in the
	// corpus, jdk/ibm-flamegrapher__*): its GC, JIT, profiler, finalizer,
	// attach and signal threads. The JIT appends " Suspended" to an idle
	// compilation thread's name.
	"GC Worker", "GC Slave", "JIT Compilation Thread-*", "JIT Diagnostic Compilation Thread*", "JIT-SamplerThread",
	"IProfiler", "Finalizer thread", "Concurrent Mark Helper", "Attach API wait loop", "VM Runtime State Listener",
	// IBM's classic JVM (1.3–1.4, corpus samurai__ibm-classic-*): its
	// signal thread, which also writes the javacore, and its JIT's
	// profiler; OpenJ9's trace engine still names both as the VM's.
	"Signal dispatcher", "JIT PProfiler thread",
	// OpenJ9's main-exit helper (a javacore in eclipse-openj9/openj9#7995)
	// and its signal reporter (a native thread, eclipse-openj9/openj9#12224).
	"DestroyJavaVM helper thread", "Signal Reporter",
	// JRockit (R25–R27 in the corpus): its own threads are named in
	// parentheses ("(GC Main Thread)", "(Code Generation Thread 1)"), and
	// its management API's GC event threads.
	"(Signal Handler)", "(GC Main Thread)", "(GC Worker Thread *", "(Code Generation Thread *", "(Code Optimization Thread *",
	"(VM Periodic Task)", "(Attach Listener)", "(Sensor Event Thread)", "(Hotspot Detector)", "[JRockit] GCEventThread", "GC event thread",
	// SAP JVM (NetWeaver, corpus threadlogic__sapjvm-2008; SAP JVM 8.1,
	// testdata/formats/jthreaddump__sapjvm-8.1.108-excerpt.txt): HotSpot's
	// names, its control thread and the listener of its own profiler
	// (started by the JVM, "Server: sap_jvm_profiling_server_PORT").
	"Control Handler", "Server: sap_jvm_profiling_server_*",
}

// dumpWriterFrames are the frames of the thread that writes the dump:
// the JVM's ThreadMXBean under an Actuator /threaddump request or a JMX
// client, jcmd's Thread.print through the diagnostic command MBean, JDK
// 21's Thread.dump_to_file, OpenJ9's Dump API; Go's goroutine profile
// under the pprof handler and runtime.Stack.
var dumpWriterFrames = []string{
	"sun.management.ThreadImpl.dumpThreads0", "sun.management.ThreadImpl.dumpAllThreads", "sun.management.ThreadImpl.getThreadInfo*",
	"com.sun.management.internal.DiagnosticCommandImpl.executeDiagnosticCommand", "jdk.internal.vm.ThreadDumper.*",
	"java.lang.Thread.getAllStackTraces", "java.lang.Thread.dumpThreads", "com.ibm.jvm.Dump.*",
	"openj9.internal.tools.attach.target.DiagnosticUtils.*",
	"runtime/pprof.writeGoroutineStacks", "runtime/pprof.writeGoroutine", "runtime/pprof.(*Profile).WriteTo",
	"runtime/pprof.runtime_goroutineProfileWithLabels", "runtime/pprof.writeRuntimeProfile", "runtime.Stack", "runtime/debug.Stack",
	"runtime.goroutineProfileWithLabels*",
	// An execution trace's writers: a flight recorder's snapshot, a trace
	// served by /debug/pprof/trace.
	"runtime/trace.(*FlightRecorder).WriteTo", "runtime/trace.(*traceMultiplexer).*", "runtime/trace.Start", "runtime/trace.Stop",
	"net/http/pprof.Trace",
}

// eventLoops are the frames that make a thread an event loop: it must only
// ever wait in its selector. Data: a new framework is one entry.
var eventLoops = []string{
	"io.netty.channel.nio.NioEventLoop.run", "io.netty.channel.epoll.EpollEventLoop.run",
	"io.netty.channel.kqueue.KQueueEventLoop.run", "io.netty.channel.SingleThreadIoEventLoop.run",
	"io.netty.channel.uring.IoUringEventLoop.run", "io.vertx.core.impl.VertxEventLoop", "io.undertow.server.protocol.framed.",
	"org.xnio.nio.WorkerThread.run",
	// A Minecraft server's tick loop (its BlockableEventLoop): one thread
	// runs every tick and task; a game server's watchdog warns of it
	// (parse/watchdog.go). Mojang's names, as Paper and vanilla print them.
	"net.minecraft.server.MinecraftServer.runServer",
}

// knownMax are default maximum sizes of well-known pools, by pool name
// prefix and suffix (the whole name when suffix is ""): the saturated
// detector's limits. A name is a hint, not a fact: threads named task-N
// may be started one per task and run by no pool at all. A row's size
// applies only to a pool some thread of which, at some moment, runs one of
// the row's loops (frame prefixes of the pool's own run loop:
// knownLimitOf). A signatures file's [pool] blocks come first
// (Pass.knownLimit).
var knownMax = []struct {
	prefix, suffix string
	max            int
	what           string
	loops          []string
}{
	// Tomcat's connector threads run its TaskThread; Tomcat 9.0.5x+ and
	// 10.1 copy the executor (its own runWorker), older ones extend the
	// JDK's (java.util.concurrent's runWorker under TaskThread).
	{"http-nio-", "-exec-*", 200, "Tomcat maxThreads default", tomcatLoops},
	{"https-jsse-nio-", "-exec-*", 200, "Tomcat maxThreads default", tomcatLoops},
	{"http-nio2-", "-exec-*", 200, "Tomcat maxThreads default", tomcatLoops},
	{"https-openssl-nio-", "-exec-*", 200, "Tomcat maxThreads default", tomcatLoops},
	// Jetty's runner is an inner class whose name changed across versions
	// (QueuedThreadPool$Runner.run, $2.run, $3.run): the class is the loop.
	{"qtp", "-*", 200, "Jetty QueuedThreadPool maxThreads default", []string{"org.eclipse.jetty.util.thread.QueuedThreadPool"}},
	// Spring Boot's task executor: 8 core threads and an unbounded queue,
	// so it never grows past 8; its scheduler has 1 thread. The executor
	// is a ThreadPoolTaskExecutor over the JDK's ThreadPoolExecutor, the
	// scheduler a ThreadPoolTaskScheduler over a ScheduledThreadPoolExecutor
	// (its idle thread takes from the DelayedWorkQueue, its busy one runs
	// a ScheduledFutureTask).
	{"task-*", "", 8, "Spring Boot task executor default (8 core threads, unbounded queue)", []string{"java.util.concurrent.ThreadPoolExecutor.runWorker"}},
	{"scheduling-*", "", 1, "Spring Boot scheduler default pool size", []string{"java.util.concurrent.ScheduledThreadPoolExecutor"}},
}

// tomcatLoops are the frames of Tomcat's connector executor loop.
var tomcatLoops = []string{"org.apache.tomcat.util.threads.TaskThread", "org.apache.tomcat.util.threads.ThreadPoolExecutor.runWorker"}

// dumpWriterState is the state id of the thread writing the dump.
const dumpWriterState = "dump-writer"

// dumpWriterRows are the signature rows of the thread writing the dump, one
// a runtime, matched before every other row: under the writer's frames
// the thread is running (or parked in a safepoint) because it dumps.
func dumpWriterRows(frames []string) []Signature {
	var out []Signature
	for _, rt := range []parse.Runtime{parse.RuntimeJVM, parse.RuntimeGo} {
		out = append(out, Signature{ID: dumpWriterState, Runtime: rt, Category: Other, Depth: 8, Anchors: frames,
			Explain: "the thread writing this dump (a thread dump request, the pprof handler): neither work nor a finding"})
	}
	return out
}

// builtinTable is the signature table as the analysis matches it: the
// dump writer's rows first (under its frames a thread runs because it
// dumps, whatever else its stack shows), then the signature table.
var builtinTable = append(dumpWriterRows(dumpWriterFrames), signatures...)

// roleTables are the built-in roles with ext's added; the built-in table
// itself when ext adds none (no allocation: poolName asks per thread).
func roleTables(ext *Extensions) *Roles {
	if ext == nil || ext.Roles.empty() {
		return &builtinRoles
	}
	x := ext.Roles
	cat := func(a, b []string) []string { return append(append([]string(nil), b...), a...) }
	return &Roles{
		JVMInternal:   cat(builtinRoles.JVMInternal, x.JVMInternal),
		DumpWriters:   cat(builtinRoles.DumpWriters, x.DumpWriters),
		EventLoops:    cat(builtinRoles.EventLoops, x.EventLoops),
		CommonPools:   cat(builtinRoles.CommonPools, x.CommonPools),
		NotSpinning:   cat(builtinRoles.NotSpinning, x.NotSpinning),
		CPUNatives:    cat(builtinRoles.CPUNatives, x.CPUNatives),
		UpByDesign:    cat(builtinRoles.UpByDesign, x.UpByDesign),
		GoWork:        cat(builtinRoles.GoWork, x.GoWork),
		PoolLoops:     cat(builtinRoles.PoolLoops, x.PoolLoops),
		OwnerLoops:    cat(builtinRoles.OwnerLoops, x.OwnerLoops),
		BackOffs:      cat(builtinRoles.BackOffs, x.BackOffs),
		HandOffs:      x.HandOffs,
		ShutdownWaits: cat(builtinRoles.ShutdownWaits, x.ShutdownWaits),
		HotLoops:      append(append([]HotLoop(nil), x.HotLoops...), builtinRoles.HotLoops...),
	}
}

func (r *Roles) empty() bool {
	return len(r.JVMInternal)+len(r.DumpWriters)+len(r.EventLoops)+len(r.CommonPools)+len(r.NotSpinning)+len(r.CPUNatives)+len(r.UpByDesign)+len(r.GoWork)+
		len(r.PoolLoops)+len(r.OwnerLoops)+len(r.BackOffs)+len(r.HandOffs)+len(r.ShutdownWaits)+len(r.HotLoops) == 0
}

// roleKeys are the [roles] block's keys, each the table it adds to; the
// hand-off keys ("handoff-latch" ...) are handOffKey's, one a kind of
// peerWaits.
var roleKeys = map[string]func(*Roles) *[]string{
	"jvm-internal":  func(r *Roles) *[]string { return &r.JVMInternal },
	"dump-writer":   func(r *Roles) *[]string { return &r.DumpWriters },
	"event-loop":    func(r *Roles) *[]string { return &r.EventLoops },
	"common-pool":   func(r *Roles) *[]string { return &r.CommonPools },
	"not-spinning":  func(r *Roles) *[]string { return &r.NotSpinning },
	"cpu-native":    func(r *Roles) *[]string { return &r.CPUNatives },
	"up-by-design":  func(r *Roles) *[]string { return &r.UpByDesign },
	"go-work":       func(r *Roles) *[]string { return &r.GoWork },
	"pool-loop":     func(r *Roles) *[]string { return &r.PoolLoops },
	"owner-loop":    func(r *Roles) *[]string { return &r.OwnerLoops },
	"back-off":      func(r *Roles) *[]string { return &r.BackOffs },
	"shutdown-wait": func(r *Roles) *[]string { return &r.ShutdownWaits },
}

// handOffKeyPrefix starts the [roles] keys of hand-off frames: the rest of
// the key is a kind of peerWaits ("handoff-latch = com.acme.Gate.await").
const handOffKeyPrefix = "handoff-"

// roleKeyNames are the [roles] block's keys, sorted, for an error.
func roleKeyNames() []string {
	var out []string
	for k := range roleKeys {
		out = append(out, k)
	}
	for _, pw := range peerWaits {
		out = append(out, handOffKeyPrefix+pw.Kind)
	}
	slices.Sort(out)
	return out
}

// addRole adds vals to the table of [roles] key key; false when no table
// has that key.
func (r *Roles) addRole(key string, vals []string) bool {
	if table, ok := roleKeys[key]; ok {
		*table(r) = append(*table(r), vals...)
		return true
	}
	kind, ok := strings.CutPrefix(key, handOffKeyPrefix)
	if !ok || !slices.ContainsFunc(peerWaits, func(pw peerWait) bool { return pw.Kind == kind }) {
		return false
	}
	if r.HandOffs == nil {
		r.HandOffs = map[string][]string{}
	}
	r.HandOffs[kind] = append(r.HandOffs[kind], vals...)
	return true
}

// roles are the role tables of an analysis: those Analyze merged once, or
// the built-in and the extensions' (a detector test's Options).
func (o *Options) roleTable() *Roles {
	if o.roles != nil {
		return o.roles
	}
	return roleTables(o.Extensions)
}

// nameIn reports whether name is one of names, where a trailing "*" makes
// an entry a prefix.
func nameIn(name string, names []string) bool {
	for _, n := range names {
		if p, ok := strings.CutSuffix(n, "*"); ok {
			if strings.HasPrefix(name, p) {
				return true
			}
		} else if name == n {
			return true
		}
	}
	return false
}

// poolIn reports whether a pool name matches one of patterns (a "*"
// matches any run).
func poolIn(pool string, patterns []string) bool {
	for _, p := range patterns {
		if globMatch(p, pool) {
			return true
		}
	}
	return false
}

// dumpWriters is how many of pl's threads at moment m write the dump.
func (pl *Pool) dumpWriters(m int) int {
	n := 0
	for _, g := range pl.States {
		if g.State == dumpWriterState && m < len(g.Counts) {
			n += g.Counts[m]
		}
	}
	return n
}

// restLoops name what a thread at rest waits in, by a frame of its loop
// first, then by its state: what keeps a JVM alive once main has returned,
// and so what would end it (an executor is shut down, a timer cancelled, a
// bare monitor's wait ends only if its loop is told to stop).
var restLoops = []struct {
	frames []string // one of them on the stack; nil: the state decides
	state  string   // the signature id; "" with frames
	rest   string
}{
	{frames: taskLoops, rest: "timer"},
	{frames: []string{"java.util.concurrent.ThreadPoolExecutor.getTask", "java.util.concurrent.ForkJoinPool.awaitWork",
		"java.util.concurrent.ScheduledThreadPoolExecutor$DelayedWorkQueue.take", "org.apache.tomcat.util.threads.ThreadPoolExecutor.getTask",
		"org.eclipse.jetty.util.thread.QueuedThreadPool", "org.jboss.threads.EnhancedQueueExecutor"}, rest: "executor"},
	{state: "queue-wait", rest: "queue"},
	{state: "object-wait", rest: "monitor"},
	{state: "park", rest: "condition"},
	{state: "latch-wait", rest: "latch"},
	{state: "sleep", rest: "sleep"},
	{state: "pool-idle", rest: "executor"},
}

// restLoop is what t, at rest in state, rests in (restLoops); "" when
// none says.
func restLoop(t *parse.Thread, state string) string {
	for _, r := range restLoops {
		if r.frames != nil && anyFramePrefix(t, r.frames) || r.frames == nil && r.state == state {
			return r.rest
		}
	}
	return ""
}
