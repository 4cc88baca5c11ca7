package analyze

import (
	"slices"
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// Signature is one row of the table that turns a stack into a blocking
// state. Signatures are data: the order of the table is the order of
// matching, so specific library anchors come before generic ones.
type Signature struct {
	ID       string
	Runtime  parse.Runtime
	Category Category
	// Anchors are function names; a row matches when one of them is among
	// the first Depth frames. A trailing "*" makes an anchor a prefix.
	Anchors []string
	// Depth is how many frames from the top are searched; 0 means 1 (the
	// top frame only).
	Depth int
	// States, when set, also match (or alone match, when Anchors is empty)
	// the printed state: the Go wait reason or the JVM Thread.State.
	States []string
	// Unless lists functions that, anywhere in the stack, stop the row from
	// matching (a server connection reading is idle unless a handler runs).
	Unless []string
	// Explain is the one line shown to the reader.
	Explain string
	// Resource is what a thread in this state waits for: an id of the
	// resources table ("db-connection", "peer-reply", "lock"...); "" for
	// idle, running and unknown states. Detectors key on it, never on ID.
	Resource string
	// Rest is true when healthy threads also spend their life here (an idle
	// worker on its channel, a custom pool parked in Object.wait): the state
	// alone, however long, proves nothing; only a rise does.
	Rest bool
	// RestUnlessVia: the state is a rest unless a known client is the
	// caller (a Go read under a database driver waits for a reply; a Go read
	// under an unknown caller is as likely a server connection between
	// requests).
	RestUnlessVia bool
	// StateAlone: for Go, the printed wait reason alone matches the row;
	// the anchors match stacks printed without one (the proto's runtime
	// frames). Without it a Go row with anchors needs an anchor.
	StateAlone bool
	// ViaCaller: the via is the package of the first caller outside the
	// runtime and sync (whose semaphore a semacquire waits on).
	ViaCaller bool
	// LockKinds, when set, match a thread that has a lock line of one of
	// these kinds (alone, or with the other conditions).
	LockKinds []parse.LockKind
	// Details, when set, must hold the thread's StateDetail (the JVM header
	// word: "in Object.wait()").
	Details []string
	// ViaMonitor: the via is the class of the monitor waited on when it
	// belongs to a library or the application, not the JDK ("waiting on
	// (a com.sap.engine.lib.util.WaitQueue)"): whose wait it is.
	ViaMonitor bool
	// ViaInner: the via is the state of the stack under the row's own
	// frames (a pinned virtual thread: socket-read, lock-wait, sleep).
	ViaInner bool
	// Within, when set, also requires one of these function prefixes
	// anywhere in the stack: the caller that gives a generic wait its
	// meaning (commons-pool2 under a Redis client).
	Within []string
	// TaskWait: a rest by default (Rest), but inside a task a pool gave
	// the thread (inPoolTask: under ThreadPoolExecutor.runWorker, Jetty's
	// runJob...) the wait is the task's, not the pool's loop: no rest, and
	// the via names the task's first caller outside the JDK
	// ("org.eclipse.jetty.util.SharedBlockingCallback$Blocker.block"). A
	// pool's worker rests in its own loop (getTask, awaitWork), which the
	// rows above claim first.
	TaskWait bool
	// Serves: a thread in this state serves others (an acceptor, a
	// selector, a server connection waiting for its client): a process
	// with one is up by design once main has returned (Spring Boot's main
	// returns and Tomcat keeps the JVM up), not kept alive by accident
	// (the kept-alive detector).
	Serves bool
	// PoolKeeps, when set, is the most goroutines a library's pool keeps
	// at rest in this state (net/http's Transport: 100 idle connections,
	// a readLoop and a writeLoop each), closing those idle past its
	// timeout: more, idle for LeakIdleMinutes and more, are kept by pools
	// nobody uses any more (a client made per request) — the leak
	// detector's.
	PoolKeeps int
	// OwnWait: the anchor is a loop that runs its tasks on its own thread
	// (a java.util.Timer's mainLoop), which rests there only while no
	// frame outside the JDK sits above it: above, a task of the loop
	// works or waits, and the rows below name what it waits on.
	OwnWait bool
	// Borrow: the row matches a thread waiting in a pool's borrow method,
	// told by the stack's structure (poolborrow.go), not by its anchors;
	// Within still applies, and BorrowFor, when set, must match a frame at
	// or under the borrow (what the pool lends for: "*.getConnection").
	Borrow    bool
	BorrowFor []string
	// Parked: the top frame is the park plumbing (jvmParkFrames): the row
	// names what a parked thread waits for by the frame under the park,
	// never a thread running in the same method.
	Parked bool
	// CodeOnTop (Go): the first frame outside the runtime is the code's own,
	// not sync's nor a semaphore's: the wait the state names is the
	// runtime's, not the code's (see the "running" row over "semacquire").
	CodeOnTop bool
	// LockClasses, when set, match the class of a lock the thread parks on
	// ("parking to wait for <0x…> (a …ReentrantLock$NonfairSync)"): the
	// object says what the wait is when the frames above it were cut.
	LockClasses []string
}

// taskFrames are where an executor's worker runs a task it was given: a
// stack with one of them under its top is in a task, not in its pool's
// loop (which waits in getTask, awaitWork, a queue's take).
// Not a [roles] key: the signature table's rows read it (Within), and a
// team's [signature] row says its own within.
var taskFrames = []string{
	"java.util.concurrent.ThreadPoolExecutor.runWorker", "org.apache.tomcat.util.threads.ThreadPoolExecutor.runWorker",
	"java.util.concurrent.FutureTask.run", "java.util.concurrent.CompletableFuture$Async",
	"java.util.concurrent.ForkJoinTask.doExec", "java.util.concurrent.ScheduledThreadPoolExecutor$ScheduledFutureTask.run",
	"org.eclipse.jetty.util.thread.QueuedThreadPool.runJob", "org.quartz.core.JobRunShell.run", "java.lang.VirtualThread.run",
	"java.util.TimerThread.mainLoop", // a Timer's task, when frames outside the JDK sit above it (taskLoops)
}

// workerLocks are the ownable synchronizers a pool's worker holds on
// itself while it runs a task (jstack -l lists one under every busy
// ThreadPoolExecutor worker): no other thread ever waits for one.
// Not a [roles] key: the lock a JDK (or Tomcat) worker holds on itself, a
// library's fact.
var workerLocks = []string{"java.util.concurrent.ThreadPoolExecutor$Worker", "org.apache.tomcat.util.threads.ThreadPoolExecutor$Worker",
	"*.ThreadPoolExecutor$Worker"}

// taskLoops are loops that run their tasks on their own thread, between
// their own waits: a thread in one runs a task only when a frame outside
// the JDK sits above the loop (inPoolTask); else it rests in the loop.
// Not a [roles] key: java.util.Timer's loop, a JDK fact.
var taskLoops = []string{"java.util.TimerThread.mainLoop"}

// selectorLoops are the selector loops of servers and libraries, where a
// select is their rest (an event loop waiting for traffic), even when the
// loop runs as a job of a pool (Jetty's ManagedSelector under
// QueuedThreadPool.runJob, testdata/libs/jvm-jetty-idle). A select inside a
// task under none of them is a request waiting for its reply.
// Not a [roles] key: the signature table's rows read it; a team's own
// selector loop is event-loop or not-spinning.
var selectorLoops = []string{
	"org.eclipse.jetty.io.ManagedSelector*", "org.eclipse.jetty.io.SelectorManager*", "*io.netty.*", "org.apache.tomcat.util.net.*",
	"org.xnio.*", "io.undertow.*", "io.vertx.*", "org.glassfish.grizzly.*", "org.apache.mina.*", "sun.nio.ch.Poller*",
	"jdk.internal.net.http.HttpClientImpl$SelectorManager*", "org.apache.kafka.clients.producer.internals.Sender.run",
	"org.apache.kafka.clients.consumer.internals.ConsumerNetworkThread*", "com.hazelcast.internal.networking.*", "reactor.netty.*",
}

// semaphoreFrames are the runtime's semaphore waits as a stack shows them:
// sync's linknamed entries (debug=2 shows them; forks link to them too)
// and the runtime's own (the proto's frames).
// Not a [roles] key: the Go runtime's own frames.
var semaphoreFrames = []string{"sync.runtime_Semacquire", "internal/sync.runtime_Semacquire", "runtime.semacquire1", "runtime.semacquire"}

// signatures is the table, in matching order. Every row is tested against
// real frames in signatures_test.go.
var signatures = []Signature{
	// --- JVM: library waits first, they sit deep under generic parks.
	// A carrier thread as Thread.dump_to_file prints it, with the state of
	// the virtual thread it carries (BLOCKED...): that virtual thread is
	// printed on its own, with its wait; the carrier is not a second one.
	{ID: "vthread-carrier", Runtime: parse.RuntimeJVM, Category: Other, Anchors: []string{"jdk.internal.vm.Continuation.run"},
		Explain: "a carrier thread running a mounted virtual thread: see the virtual thread for what it does"},
	{ID: "db-pool-wait", Runtime: parse.RuntimeJVM, Category: Waiting, Resource: "db-connection", Depth: 16,
		Anchors: []string{
			"com.zaxxer.hikari.pool.HikariPool.getConnection", "com.zaxxer.hikari.util.ConcurrentBag.borrow",
			"org.apache.commons.dbcp2.PoolingDataSource.getConnection", "org.apache.commons.dbcp2.BasicDataSource.getConnection",
			"org.apache.tomcat.jdbc.pool.ConnectionPool.borrowConnection",
			"com.mchange.v2.resourcepool.BasicResourcePool.awaitAvailable",
			// Alibaba Druid waits in takeLast (maxWait -1, the default: for
			// ever) or pollLast (a maxWait); BoneCP polls its partition's queue.
			"com.alibaba.druid.pool.DruidDataSource.takeLast", "com.alibaba.druid.pool.DruidDataSource.pollLast",
			"com.jolbox.bonecp.DefaultConnectionStrategy.getConnectionInternal",
		},
		Explain: "waiting for a connection from the DB connection pool: the pool is exhausted"},
	// Agroal 1.x waits for its housekeeping thread to create a connection
	// (FutureTask.get under handlerFromSharedCache); Agroal 2 creates it on
	// the caller's thread, whose frames (a connect, a driver's read) sit
	// above the same method: only a parked thread there is waiting.
	{ID: "db-pool-wait", Runtime: parse.RuntimeJVM, Category: Waiting, Resource: "db-connection", Depth: 6,
		States:  []string{"WAITING", "TIMED_WAITING"},
		Anchors: []string{"io.agroal.pool.ConnectionPool.handlerFromSharedCache"},
		Explain: "waiting for a connection from the DB connection pool: the pool is exhausted"},
	// commons-pool2 lends whatever its caller pools: a Redis client's
	// connections, or anything else; DBCP2 above is the DB case.
	{ID: "redis-pool-wait", Runtime: parse.RuntimeJVM, Category: Waiting, Resource: "redis-connection", Depth: 12,
		Anchors: []string{"org.apache.commons.pool2.impl.GenericObjectPool.borrowObject", "org.apache.commons.pool2.impl.GenericKeyedObjectPool.borrowObject",
			"org.apache.commons.pool2.impl.LinkedBlockingDeque.takeFirst", "org.apache.commons.pool2.impl.LinkedBlockingDeque.pollFirst"},
		Within:  []string{"redis.clients.", "io.lettuce.", "org.redisson."},
		Explain: "waiting for a Redis connection from the client's pool: the pool is exhausted"},
	{ID: "object-pool-wait", Runtime: parse.RuntimeJVM, Category: Waiting, Resource: "pooled-object", Depth: 12,
		Anchors: []string{"org.apache.commons.pool2.impl.GenericObjectPool.borrowObject", "org.apache.commons.pool2.impl.GenericKeyedObjectPool.borrowObject",
			"org.apache.commons.pool2.impl.LinkedBlockingDeque.takeFirst", "org.apache.commons.pool2.impl.LinkedBlockingDeque.pollFirst"},
		Explain: "waiting for an object from a commons-pool2 pool: the pool is exhausted"},
	// Apache HttpClient 4 parks in AbstractConnPool.getPoolEntryBlocking; 5
	// waits on the lease's future (StrictConnPool, LaxConnPool) under the
	// connection manager's lease request.
	{ID: "http-pool-wait", Runtime: parse.RuntimeJVM, Category: Waiting, Resource: "http-connection", Depth: 12,
		Anchors: []string{"org.apache.http.pool.AbstractConnPool.getPoolEntryBlocking",
			"org.apache.http.impl.conn.PoolingHttpClientConnectionManager.leaseConnection",
			"org.apache.hc.core5.pool.StrictConnPool.lease", "org.apache.hc.core5.pool.LaxConnPool.lease", "org.apache.hc.core5.pool.LaxConnPool$PerRoutePool.lease",
			"org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager$*", "org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager.lease*",
			"org.apache.hc.client5.http.impl.classic.InternalExecRuntime.acquireEndpoint"},
		Explain: "waiting for a connection from the HTTP client's pool (Apache HttpClient): the pool is exhausted"},
	// Any other pool's borrow above a wait, by structure (poolborrow.go):
	// commons-pool2 relocated (Tomcat's org.apache.tomcat.dbcp.pool2, a
	// shaded copy), commons-pool 1.x under DBCP 1.x (Object.wait on its
	// GenericObjectPool$Latch), c3p0, Vibur, MongoDB's ConcurrentPool
	// (testdata/verdicts/borrow-*). What the pool lends is told by its
	// caller: a Redis or HTTP client's package, a DataSource's
	// getConnection (JDBC's API: a DB connection), else an object.
	{ID: "redis-pool-wait", Runtime: parse.RuntimeJVM, Category: Waiting, Resource: "redis-connection", Borrow: true,
		Within:  []string{"redis.clients.", "io.lettuce.", "org.redisson."},
		Explain: "waiting for a Redis connection from the client's pool: the pool is exhausted"},
	{ID: "http-pool-wait", Runtime: parse.RuntimeJVM, Category: Waiting, Resource: "http-connection", Borrow: true,
		Within:  []string{"org.apache.http.", "org.apache.hc.", "okhttp3."},
		Explain: "waiting for a connection from the HTTP client's pool: the pool is exhausted"},
	{ID: "db-pool-wait", Runtime: parse.RuntimeJVM, Category: Waiting, Resource: "db-connection", Borrow: true,
		BorrowFor: []string{"*.getConnection", "*DataSource.*", "*ConnectionPool.*", "*ConnectionPool$*"},
		Explain:   "waiting for a connection from the DB connection pool: the pool is exhausted"},
	{ID: "object-pool-wait", Runtime: parse.RuntimeJVM, Category: Waiting, Resource: "pooled-object", Borrow: true,
		Explain: "waiting to borrow an object from a pool: the pool is exhausted"},
	// gRPC-java's blocking stub waits for the reply in its threadless
	// executor (older versions in the call's future).
	{ID: "grpc-wait", Runtime: parse.RuntimeJVM, Category: Waiting, Resource: "peer-reply", Depth: 8,
		Anchors: []string{"io.grpc.stub.ClientCalls$ThreadlessExecutor.waitAndDrain", "io.grpc.stub.ClientCalls.getUnchecked",
			"io.grpc.stub.ClientCalls.blockingUnaryCall", "io.grpc.stub.ClientCalls$BlockingResponseStream.waitForNext"},
		Explain: "waiting for a gRPC reply (blocking stub)"},
	// A virtual thread pinned to its carrier (a native frame or a class
	// initializer on its stack) parks the carrier with it: one fewer
	// carrier for every other virtual thread. The via is what it waits on
	// underneath (the wait the stack shows below the park).
	{ID: "vthread-pinned", Runtime: parse.RuntimeJVM, Category: Waiting, Resource: "carrier", Depth: 3,
		Anchors: []string{"java.lang.VirtualThread.parkOnCarrierThread"}, ViaInner: true,
		Explain: "a virtual thread pinned to its carrier while it blocks: the carrier is blocked with it"},
	// A class initializer another thread runs: JDK 17+ prints the lock
	// line; older JDKs only the header word, with the state RUNNABLE and no
	// Object.wait frame (the thread waits at the line that touches the class).
	{ID: "class-init-wait", Runtime: parse.RuntimeJVM, Category: Waiting, Resource: "class-init",
		LockKinds: []parse.LockKind{parse.LockClassInit},
		Explain:   "waiting for another thread to finish initializing a class (a slow static initializer)"},
	{ID: "class-init-wait", Runtime: parse.RuntimeJVM, Category: Waiting, Resource: "class-init", States: []string{"RUNNABLE"},
		Details: []string{"in Object.wait()"}, Anchors: []string{"*"}, Unless: []string{"java.lang.Object.wait", "java.lang.Object.wait0"},
		Explain: "waiting for another thread to finish initializing a class (a slow static initializer)"},
	{ID: "http-server-idle", Serves: true, Runtime: parse.RuntimeJVM, Category: Idle, Depth: 12,
		Anchors: []string{"org.apache.coyote.ajp.AjpProcessor.readMessage", "org.apache.coyote.http11.InternalInputBuffer.parseRequestLine",
			"org.apache.coyote.http11.Http11InputBuffer.parseRequestLine", "org.apache.coyote.http11.InternalNioInputBuffer.parseRequestLine"},
		Explain: "server connection thread waiting for the next request on a kept-alive connection: idle"},
	// An RMI (and so JMX) server connection reads the next call of an open
	// connection in TCPTransport.handleMessages; a call being served runs
	// under Transport.serviceCall instead (testdata/libs/jvm-idle-libs: a
	// JMX client connected over RMI; corpus tda__hotspot-1.6.0_03-server__rmi-threads).
	{ID: "connection-idle", Serves: true, Runtime: parse.RuntimeJVM, Category: Idle, Depth: 14,
		Anchors: []string{"sun.rmi.transport.tcp.TCPTransport.handleMessages"},
		Unless:  []string{"sun.rmi.transport.Transport.serviceCall", "sun.rmi.server.UnicastServerRef.dispatch"},
		Explain: "an RMI or JMX server connection waiting for its client's next call or notification: idle"},
	// A JMX client's notification fetch is a long poll the server holds
	// until a notification comes (the same corpus file).
	{ID: "connection-idle", Serves: true, Runtime: parse.RuntimeJVM, Category: Idle, Depth: 4,
		Anchors: []string{"com.sun.jmx.remote.internal.ArrayNotificationBuffer.fetchNotifications"},
		Explain: "an RMI or JMX server connection waiting for its client's next call or notification: idle"},
	// A name lookup waits for a DNS server's answer: a round trip by
	// nature, never a rest, whatever the loop around it. The JDK's own
	// resolver (InetAddress → the native lookupAllHostAddr, RUNNABLE in
	// the C library's resolver) and JNDI's DNS provider (DnsClient over a
	// DatagramSocket; testdata/verdicts/client-waits-stuck, JDK 17).
	{ID: "dns-lookup", Runtime: parse.RuntimeJVM, Category: Waiting, Resource: "peer-reply", Depth: 10,
		Anchors: []string{"java.net.Inet6AddressImpl.lookupAllHostAddr", "java.net.Inet4AddressImpl.lookupAllHostAddr",
			"com.sun.jndi.dns.DnsClient.doUdpQuery", "com.sun.jndi.dns.DnsClient.doTcpQuery"},
		Explain: "waiting for a DNS server's answer to a name lookup"},
	// A UDP receive rests in the loop of a listener (a UDP server, a
	// multicast or syslog receiver) by design; inside a task a pool gave
	// the thread it waits for the task's reply (TaskWait). JDK 15+ receives
	// in DatagramChannelImpl (Net.poll, RUNNABLE) under DatagramSocket.receive,
	// JDK 8–14 in PlainDatagramSocketImpl.receive0.
	{ID: "udp-receive", Runtime: parse.RuntimeJVM, Category: Waiting, Resource: "peer-reply", Rest: true, TaskWait: true, Depth: 6,
		Anchors: []string{"sun.nio.ch.DatagramChannelImpl.receive", "sun.nio.ch.DatagramChannelImpl.blockingReceive",
			"sun.nio.ch.DatagramChannelImpl.trustedBlockingReceive", "java.net.DatagramSocket.receive",
			"java.net.PlainDatagramSocketImpl.receive0", "java.net.AbstractPlainDatagramSocketImpl.receive",
			"java.net.DualStackPlainDatagramSocketImpl.socketReceiveOrPeekData"},
		Explain: "receiving a UDP datagram"},
	{ID: "socket-read", Runtime: parse.RuntimeJVM, Category: Waiting, Resource: "peer-reply", Depth: 6,
		Anchors: []string{
			"java.net.SocketInputStream.socketRead0", "java.net.SocketInputStream.socketRead",
			"sun.nio.ch.NioSocketImpl.timedRead", "sun.nio.ch.NioSocketImpl.read", "sun.nio.ch.NioSocketImpl.implRead",
			"sun.nio.ch.SocketDispatcher.read0", "sun.nio.ch.SocketChannelImpl.read",
			"sun.security.ssl.SSLSocketInputRecord.read",
		},
		Explain: "blocked reading from a socket: waiting for the peer to answer"},
	{ID: "socket-connect", Runtime: parse.RuntimeJVM, Category: Waiting, Resource: "peer-connect", Depth: 6,
		Anchors: []string{"sun.nio.ch.NioSocketImpl.timedFinishConnect", "sun.nio.ch.NioSocketImpl.connect",
			"java.net.PlainSocketImpl.socketConnect", "sun.nio.ch.Net.connect0"},
		Explain: "connecting to a peer that does not accept quickly"},
	{ID: "socket-write", Runtime: parse.RuntimeJVM, Category: Waiting, Resource: "peer-drain", Depth: 4,
		// JDK 17 writes a blocking socket in FileDispatcherImpl.write0
		// under SocketDispatcher.write and NioSocketImpl.tryWrite
		// (testdata/verdicts/logging-stuck: logback's worker writing to a
		// collector that does not read).
		Anchors: []string{"java.net.SocketOutputStream.socketWrite0", "sun.nio.ch.NioSocketImpl.write", "sun.nio.ch.SocketDispatcher.write0",
			"sun.nio.ch.SocketDispatcher.write", "sun.nio.ch.NioSocketImpl.tryWrite", "sun.nio.ch.NioSocketImpl.implWrite"},
		Explain: "blocked writing to a socket: the peer does not read"},
	{ID: "pool-idle", Runtime: parse.RuntimeJVM, Category: Idle, Depth: 12,
		Anchors: []string{
			"java.util.concurrent.ThreadPoolExecutor.getTask", "org.apache.tomcat.util.threads.TaskQueue.take",
			"org.apache.tomcat.util.threads.TaskQueue.poll", "java.util.concurrent.ForkJoinPool.awaitWork",
			"java.util.concurrent.ScheduledThreadPoolExecutor$DelayedWorkQueue.take",
			"org.apache.tomcat.util.threads.ThreadPoolExecutor.getTask", "*io.netty.util.concurrent.SingleThreadEventExecutor.takeTask",
			"org.eclipse.jetty.util.thread.QueuedThreadPool$Runner.idleJobPoll", "org.eclipse.jetty.util.BlockingArrayQueue.poll",
			"org.eclipse.jetty.util.thread.ReservedThreadExecutor$ReservedThread.reservedWait",
			"org.jboss.threads.EnhancedQueueExecutor$ThreadBody.run", "org.xnio.XnioWorker$TaskPool*",
			// kotlinx.coroutines' Dispatchers.Default/IO worker parked for work:
			// only its own loop parks it (kotlinx 1.7: park under tryPark,
			// frames from public dumps in Nasller/CodeGlancePro#109 and
			// AtomMaterialUI/material-theme-issues#446; kotlinx 1.0.1, run here
			// (testdata/libs/jvm-idle-kotlinx): doPark under cpuWorkerIdle).
			"kotlinx.coroutines.scheduling.CoroutineScheduler$Worker.park", "kotlinx.coroutines.scheduling.CoroutineScheduler$Worker.doPark",
			"kotlinx.coroutines.scheduling.CoroutineScheduler$Worker.cpuWorkerIdle", "kotlinx.coroutines.scheduling.CoroutineScheduler$Worker.blockingWorkerIdle",
		},
		Explain: "idle in a thread pool, waiting for a task: the normal rest state"},
	// A java.util.Timer waits in its own loop for the next task, and runs
	// the task on its thread: a task's sleep, lock or read is that work,
	// not the timer's rest (testdata/libs/jvm-roles). Four frames: JDK
	// 21+ waits untimed in Object.wait0 under wait(long) under wait()
	// (testdata/verdicts/jdk25-execleak-timer-leak: a timer with nothing
	// scheduled read as an object-wait of 131 growing threads).
	{ID: "pool-idle", Runtime: parse.RuntimeJVM, Category: Idle, Depth: 4, OwnWait: true,
		Anchors: taskLoops,
		Explain: "idle in a thread pool, waiting for a task: the normal rest state"},
	// Quartz's workers wait in their own loop for the next job, its
	// scheduler thread for the next trigger; a worker running a job has
	// JobRunShell.run under the job's frames (testdata/libs/jvm-idle-libs,
	// Quartz 2.3.2).
	{ID: "pool-idle", Runtime: parse.RuntimeJVM, Category: Idle, Depth: 3,
		Anchors: []string{"org.quartz.simpl.SimpleThreadPool$WorkerThread.run", "org.quartz.core.QuartzSchedulerThread.run"},
		Unless:  []string{"org.quartz.core.JobRunShell.run"},
		Explain: "idle in a thread pool, waiting for a task: the normal rest state"},
	// The same select inside a pool's task, called by request/response
	// code rather than by a selector loop (selectorLoops): a client waiting
	// for its server's reply (testdata/verdicts/rpc-select-stuck). A rest is
	// proven by the loop it rests in, not by the top frame.
	{ID: "selector-reply-wait", Runtime: parse.RuntimeJVM, Category: Waiting, Resource: "peer-reply", Depth: 4,
		Anchors: []string{"sun.nio.ch.EPoll.wait", "sun.nio.ch.EPollArrayWrapper.epollWait", "sun.nio.ch.KQueue.poll",
			"sun.nio.ch.KQueueArrayWrapper.kevent0", "sun.nio.ch.WindowsSelectorImpl$SubSelector.poll0", "sun.nio.ch.PollSelectorImpl.poll",
			"sun.nio.ch.WEPoll.wait"},
		Within:  taskFrames,
		Unless:  selectorLoops,
		Explain: "a select inside a task, called by request/response code, not a selector loop: waiting for a peer's reply"},
	{ID: "selector-wait", Serves: true, Runtime: parse.RuntimeJVM, Category: Idle, Depth: 4,
		Anchors: []string{"sun.nio.ch.EPoll.wait", "sun.nio.ch.EPollArrayWrapper.epollWait", "sun.nio.ch.KQueue.poll",
			"sun.nio.ch.KQueueArrayWrapper.kevent0", "sun.nio.ch.WindowsSelectorImpl$SubSelector.poll0",
			// Netty under any relocated package too (gRPC's
			// io.grpc.netty.shaded.io.netty..., an agent's shaded copy).
			"*io.netty.channel.epoll.Native.epollWait*", "*io.netty.channel.kqueue.Native.keventWait*", "sun.nio.ch.PollSelectorImpl.poll",
			// Windows: the wepoll selector of JDK 17+ (a Tomcat log's
			// HttpClient-1-SelectorManager, glowroot's shaded Netty loop),
			// and an asynchronous channel group's completion port.
			"sun.nio.ch.WEPoll.wait", "sun.nio.ch.Iocp.getQueuedCompletionStatus",
			"sun.nio.ch.Poller.subPollerLoop", "sun.nio.ch.Poller.pollerLoop", "sun.nio.ch.Poller.pollLoop"},
		Explain: "event loop waiting in the selector (Tomcat Poller, Netty): idle"},
	{ID: "accept", Serves: true, Runtime: parse.RuntimeJVM, Category: Idle, Depth: 4,
		Anchors: []string{"sun.nio.ch.Net.accept", "sun.nio.ch.ServerSocketChannelImpl.accept0", "java.net.PlainSocketImpl.socketAccept",
			"sun.nio.ch.NioSocketImpl.accept", "java.net.ServerSocket.implAccept"},
		Explain: "waiting for a new connection (acceptor): idle"},
	{ID: "future-wait", Runtime: parse.RuntimeJVM, Category: Waiting, Resource: "task-result", Depth: 8,
		Anchors: []string{"java.util.concurrent.FutureTask.get", "java.util.concurrent.FutureTask.awaitDone",
			"java.util.concurrent.CompletableFuture.get", "java.util.concurrent.CompletableFuture.join",
			"java.util.concurrent.CompletableFuture.waitingGet", "java.util.concurrent.CompletableFuture.timedGet"},
		Explain: "waiting for the result of another task (Future/CompletableFuture get or join)"},
	// A latch's await rests by design in a thread of its own (main on its
	// shutdown latch); inside a pool's task it waits for its peers.
	{ID: "latch-wait", Runtime: parse.RuntimeJVM, Category: Waiting, Resource: "latch", Rest: true, TaskWait: true, Depth: 8,
		Anchors: []string{"java.util.concurrent.CountDownLatch.await", "java.util.concurrent.CyclicBarrier.await",
			"java.util.concurrent.CyclicBarrier.dowait", "java.util.concurrent.Phaser.awaitAdvance*", "java.util.concurrent.Phaser.arriveAndAwaitAdvance"},
		Explain: "waiting for a CountDownLatch, CyclicBarrier or Phaser to open"},
	{ID: "semaphore-wait", Runtime: parse.RuntimeJVM, Category: Waiting, Resource: "permit", Depth: 8,
		Anchors: []string{"java.util.concurrent.Semaphore.acquire", "java.util.concurrent.Semaphore.tryAcquire",
			"java.util.concurrent.Semaphore.acquireUninterruptibly"},
		Explain: "waiting for a semaphore permit (bulkhead full)"},
	{ID: "lock-wait", Runtime: parse.RuntimeJVM, Category: Waiting, Resource: "lock", Depth: 8,
		Anchors: []string{"java.util.concurrent.locks.ReentrantLock.lock", "java.util.concurrent.locks.ReentrantLock.lockInterruptibly",
			"java.util.concurrent.locks.ReentrantLock.tryLock", "java.util.concurrent.locks.ReentrantLock$Sync.lock",
			"java.util.concurrent.locks.ReentrantReadWriteLock$ReadLock.lock", "java.util.concurrent.locks.ReentrantReadWriteLock$WriteLock.lock",
			"java.util.concurrent.locks.ReentrantReadWriteLock$ReadLock.lockInterruptibly", "java.util.concurrent.locks.ReentrantReadWriteLock$WriteLock.lockInterruptibly",
			"java.util.concurrent.locks.ReentrantReadWriteLock$ReadLock.tryLock", "java.util.concurrent.locks.ReentrantReadWriteLock$WriteLock.tryLock",
			"java.util.concurrent.locks.AbstractQueuedSynchronizer.acquireShared", "java.util.concurrent.locks.AbstractQueuedSynchronizer.acquireSharedInterruptibly",
			"java.util.concurrent.locks.AbstractQueuedSynchronizer.tryAcquireNanos", "java.util.concurrent.locks.AbstractQueuedSynchronizer.tryAcquireSharedNanos",
			"java.util.concurrent.locks.AbstractQueuedLongSynchronizer.acquire*", "java.util.concurrent.locks.AbstractQueuedLongSynchronizer.tryAcquire*",
			"java.util.concurrent.locks.StampedLock.*Lock", "java.util.concurrent.locks.AbstractQueuedSynchronizer.acquire"},
		Explain: "waiting for a java.util.concurrent lock held by another thread"},
	// A lock by its structure: parked right under a method that takes a
	// lock (a library's own lock: IntelliJ's ReadMostlyRWLock.writeLock,
	// judge4 10; a class's lock()/readLock()/writeLock()), or parked on a
	// ReentrantLock's or ReentrantReadWriteLock's Sync with the frames
	// above the park cut from a paste (a Condition's await parks on its
	// ConditionObject: only an acquire parks on the Sync).
	{ID: "lock-wait", Runtime: parse.RuntimeJVM, Category: Waiting, Resource: "lock", Depth: 1, Parked: true,
		Anchors: []string{"*.lock", "*.lockInterruptibly", "*.readLock", "*.writeLock", "*.lockRead", "*.lockWrite",
			"*.acquireReadLock", "*.acquireWriteLock"},
		Explain: "waiting for a lock held by another thread (parked under the method that takes it)"},
	{ID: "lock-wait", Runtime: parse.RuntimeJVM, Category: Waiting, Resource: "lock", Parked: true,
		LockKinds:   []parse.LockKind{parse.LockParking},
		LockClasses: []string{"java.util.concurrent.locks.ReentrantLock$*Sync", "java.util.concurrent.locks.ReentrantReadWriteLock$*Sync"},
		Explain:     "waiting for a java.util.concurrent lock held by another thread"},
	// The producer's side of a queue: a put into a full bounded queue (or
	// an offer with a timeout, the only offer that parks) waits for the
	// consumers to take: back-pressure, never a rest (testdata/verdicts/
	// task-wait-stuck: six producers behind a stuck consumer).
	// log4j 1.2's (reload4j's) AsyncAppender buffer, full: append waits
	// on it (Object.wait) for its dispatcher to empty it, the logger's
	// monitor held (testdata/verdicts/log4j1-stuck).
	{ID: "queue-put", Runtime: parse.RuntimeJVM, Category: Waiting, Resource: "queue-space", Depth: 4,
		Anchors: []string{"org.apache.log4j.AsyncAppender.append"}, LockKinds: []parse.LockKind{parse.LockWaitingOn},
		Explain: "a producer waiting for room in a full blocking queue: back-pressure, its consumers do not keep up"},
	{ID: "queue-put", Runtime: parse.RuntimeJVM, Category: Waiting, Resource: "queue-space", Depth: 8,
		Anchors: []string{"java.util.concurrent.ArrayBlockingQueue.put", "java.util.concurrent.ArrayBlockingQueue.offer",
			"java.util.concurrent.LinkedBlockingQueue.put", "java.util.concurrent.LinkedBlockingQueue.offer",
			"java.util.concurrent.LinkedBlockingDeque.put*", "java.util.concurrent.LinkedBlockingDeque.offer*"},
		Explain: "a producer waiting for room in a full blocking queue: back-pressure, its consumers do not keep up"},
	// A hand-off waits for the other side itself: a SynchronousQueue's put
	// or timed offer for a taker, LinkedTransferQueue.transfer for a
	// consumer, an Exchanger for its partner. (Their take and poll are the
	// consumer's rest, queue-wait below, or a pool's, pool-idle above.)
	{ID: "handoff-wait", Runtime: parse.RuntimeJVM, Category: Waiting, Resource: "peer-handoff", Depth: 8,
		Anchors: []string{"java.util.concurrent.SynchronousQueue.put", "java.util.concurrent.SynchronousQueue.offer",
			"java.util.concurrent.LinkedTransferQueue.transfer", "java.util.concurrent.LinkedTransferQueue.tryTransfer",
			"java.util.concurrent.Exchanger.exchange"},
		Explain: "waiting for a peer to take a hand-off (SynchronousQueue put, TransferQueue.transfer, Exchanger)"},
	// A pipe's own wait/notify (java.io's PipedInputStream waits in
	// Object.wait on itself): the writer waits in the reader's awaitSpace
	// for room (a full pipe: back-pressure, its reader does not read), the
	// reader in read for data (its rest, as a queue's consumer's)
	// (testdata/verdicts/handoff-{stuck,healthy}).
	{ID: "pipe-write", Runtime: parse.RuntimeJVM, Category: Waiting, Resource: "pipe-space", Depth: 4,
		Anchors: []string{"java.io.PipedInputStream.awaitSpace", "java.io.PipedInputStream.receive"},
		Explain: "a writer waiting for room in a full pipe (PipedOutputStream.write): back-pressure, its reader does not read"},
	{ID: "pipe-read", Runtime: parse.RuntimeJVM, Category: Idle, Depth: 3,
		Anchors: []string{"java.io.PipedInputStream.read"},
		Explain: "a reader waiting for data in a pipe (PipedInputStream.read): idle, as a queue's consumer"},
	// An embedded database's row lock, waited for in its own lock manager
	// (Object.wait on its lock object): H2 2.x's MVStore transaction waits
	// for the transaction that holds the row to end; Derby's lock manager
	// for the grant (H2 2.1.214, Derby 10.14.2: testdata/verdicts/handoff-stuck).
	{ID: "db-row-lock", Runtime: parse.RuntimeJVM, Category: Waiting, Resource: "row-lock", Depth: 4,
		Anchors: []string{"org.h2.mvstore.tx.Transaction.waitForThisToEnd", "org.h2.mvstore.tx.Transaction.waitFor",
			"org.apache.derby.impl.services.locks.ActiveLock.waitForGrant"},
		Explain: "waiting for a row lock of an embedded database (H2, Derby): another transaction holds the row until it ends"},
	{ID: "queue-wait", Runtime: parse.RuntimeJVM, Category: Idle, Depth: 6,
		Anchors: []string{"java.util.concurrent.LinkedBlockingQueue.take", "java.util.concurrent.ArrayBlockingQueue.take",
			"java.util.concurrent.LinkedBlockingQueue.poll", "java.util.concurrent.ArrayBlockingQueue.poll",
			"java.util.concurrent.LinkedBlockingDeque.take*", "java.util.concurrent.PriorityBlockingQueue.take",
			"java.util.concurrent.DelayQueue.take", "java.util.concurrent.SynchronousQueue.take"},
		Explain: "waiting for an item on a blocking queue: idle consumer"},
	{ID: "monitor-blocked", Runtime: parse.RuntimeJVM, Category: Waiting, Resource: "monitor", States: []string{"BLOCKED"},
		Explain: "blocked entering a synchronized block held by another thread"},
	// A carrier's mounted virtual thread prints no state line (jstack,
	// JDK 21+): its lock line tells.
	{ID: "monitor-blocked", Runtime: parse.RuntimeJVM, Category: Waiting, Resource: "monitor", LockKinds: []parse.LockKind{parse.LockWaitingTo},
		Explain: "blocked entering a synchronized block held by another thread"},
	// A sleep inside a task an executor runs is the task's work (a slow
	// call, a retry's back-off), not a thread waiting for work: an idle
	// worker waits in its pool's loop (getTask, awaitWork), never in a
	// sleep. So under a worker running a task it is a wait that is not a
	// rest, and saturated and stuck count it; a thread of its own sleeping
	// in its loop stays idle (the next row).
	{ID: "sleep", Runtime: parse.RuntimeJVM, Category: Waiting, Resource: "time", Depth: 2,
		Anchors: []string{"java.lang.Thread.sleep", "java.lang.Thread.sleep0", "java.lang.Thread.sleepNanos*"},
		Within:  taskFrames,
		Explain: "in Thread.sleep inside a task: the task is working (a slow call, a back-off), not waiting for work"},
	{ID: "sleep", Runtime: parse.RuntimeJVM, Category: Idle, Resource: "time", Depth: 2,
		Anchors: []string{"java.lang.Thread.sleep", "java.lang.Thread.sleep0", "java.lang.Thread.sleepNanos*"},
		Explain: "in Thread.sleep"},
	{ID: "file-read", Runtime: parse.RuntimeJVM, Category: Waiting, Resource: "file", Rest: true, Depth: 3,
		Anchors: []string{"java.io.FileInputStream.readBytes", "java.io.FileInputStream.read0", "java.io.RandomAccessFile.readBytes",
			"sun.nio.ch.FileDispatcherImpl.read0", "sun.nio.ch.FileDispatcherImpl.pread0"},
		Explain: "reading a file (or a pipe, or the console)"},
	{ID: "object-wait", Runtime: parse.RuntimeJVM, Category: Waiting, Resource: "condition", Rest: true, TaskWait: true, Depth: 3, ViaMonitor: true,
		Anchors: []string{"java.lang.Object.wait", "java.lang.Object.wait0"},
		Explain: "in Object.wait(), waiting for a notify"},
	// A bare park: a Condition's await, a library's own callback. A
	// virtual thread parks through VirtualThread.park (JDK 21+), which
	// alone on top is a park too, not an unknown state.
	{ID: "park", Runtime: parse.RuntimeJVM, Category: Waiting, Resource: "condition", Rest: true, TaskWait: true, Depth: 2,
		Anchors: []string{"jdk.internal.misc.Unsafe.park", "sun.misc.Unsafe.park", "java.lang.VirtualThread.park", "java.lang.VirtualThread.parkNanos"},
		Explain: "parked (LockSupport.park) without a known library above it"},
	{ID: "running", Runtime: parse.RuntimeJVM, Category: Running, States: []string{"RUNNABLE"},
		Explain: "runnable: on CPU or in native code"},

	// --- Go: stacks first where the wait reason alone is too generic.
	// Pool waits first: they sit in a select or a semaphore that the
	// generic rows below would take. The top frames decide (a holder that
	// dials inside (*DB).conn has net frames on top).
	{ID: "db-pool-wait", Runtime: parse.RuntimeGo, Category: Waiting, Resource: "db-connection", Depth: 3,
		Anchors: []string{"database/sql.(*DB).conn", "github.com/jackc/puddle/v2.(*Pool[...]).acquire", "github.com/jackc/puddle/v2.(*Pool[...]).Acquire",
			"github.com/jackc/pgx/v5/pgxpool.(*Pool).Acquire", "github.com/jackc/pgx/v4/pgxpool.(*Pool).Acquire"},
		Explain: "waiting for a connection from the DB pool (database/sql at SetMaxOpenConns, pgxpool at MaxConns): the pool is exhausted"},
	{ID: "redis-pool-wait", Runtime: parse.RuntimeGo, Category: Waiting, Resource: "redis-connection", Depth: 3,
		Anchors: []string{"github.com/redis/go-redis/v9/internal/pool.(*ConnPool).waitTurn", "github.com/redis/go-redis/v9/internal.(*FastSemaphore).Acquire",
			"github.com/go-redis/redis/v8/internal/pool.(*ConnPool).waitTurn", "github.com/gomodule/redigo/redis.(*Pool).waitVacantConn"},
		Explain: "waiting for a Redis connection from the client's pool (go-redis PoolSize, redigo MaxActive): the pool is exhausted"},
	// A name lookup waits for a DNS server's answer: a round trip by
	// nature. Go's own resolver runs each query in a goroutine of its own
	// (exchange → dnsPacketRoundTrip, a UDP read with the resolver's
	// deadline) while the caller waits in lookupIPAddr's select; the cgo
	// resolver waits in getaddrinfo, in a system call (testdata/verdicts/
	// go-lookups-stuck).
	{ID: "dns-lookup", Runtime: parse.RuntimeGo, Category: Waiting, Resource: "peer-reply", Depth: 8,
		Anchors: []string{"net.(*Resolver).lookupIPAddr", "net.(*Resolver).exchange", "net.dnsPacketRoundTrip", "net.dnsStreamRoundTrip",
			"net.(*Resolver).goLookupIPCNAMEOrder*", "net.(*Resolver).tryOneName", "net._C2func_getaddrinfo", "net.cgoLookupHostIP",
			"net.cgoLookupIP", "net.(*Resolver).lookupHost", "net.(*Resolver).LookupHost"},
		Explain: "waiting for a DNS server's answer to a name lookup"},
	// net/http waits here when MaxConnsPerHost is reached, and briefly
	// while it dials a new connection.
	{ID: "http-pool-wait", Runtime: parse.RuntimeGo, Category: Waiting, Resource: "http-connection", Depth: 2,
		Anchors: []string{"net/http.(*Transport).getConn", "net/http.(*wantConn).waitForConn"},
		Explain: "waiting for a connection from net/http's Transport: MaxConnsPerHost reached (or a dial in progress)"},
	// A stream's read waits in the transport's receive buffer, nine frames
	// above RecvMsg (grpc 1.63: readClient; older: read, Read; before 1.12
	// the package was grpc/transport); a send waits for flow-control quota.
	// A leading * takes a vendored copy too (k8s.io/kubernetes/vendor/...).
	// The server's side of a stream reads under handleStream: not a reply.
	{ID: "grpc-wait", Runtime: parse.RuntimeGo, Category: Waiting, Resource: "peer-reply", Depth: 6,
		Anchors: []string{"*google.golang.org/grpc/internal/transport.(*ClientStream).waitOnHeader", "*google.golang.org/grpc/internal/transport.(*Stream).waitOnHeader",
			"*google.golang.org/grpc.(*csAttempt).recvMsg", "*google.golang.org/grpc.(*clientStream).RecvMsg",
			"*google.golang.org/grpc/internal/transport.(*recvBufferReader).read*", "*google.golang.org/grpc/internal/transport.(*recvBufferReader).Read",
			"*google.golang.org/grpc/transport.(*recvBufferReader).read*", "*google.golang.org/grpc/transport.(*recvBufferReader).Read",
			"*google.golang.org/grpc/internal/transport.(*writeQuota).get", "*google.golang.org/grpc.(*clientStream).SendMsg"},
		Unless:  []string{"*google.golang.org/grpc.(*Server).handleStream"},
		Explain: "waiting for a gRPC reply (grpc-go client)"},
	{ID: "http-client-wait", Runtime: parse.RuntimeGo, Category: Waiting, Resource: "peer-reply", Depth: 8,
		Anchors: []string{"net/http.(*persistConn).roundTrip"},
		Explain: "waiting for an HTTP response from an upstream (net/http client)"},
	// Request/response clients whose wait for the reply is a select or a
	// receive, not a read: the same select or receive in the goroutine's
	// own loop is a rest, under one of these a request waiting for its
	// peer (issue 33). net/http's HTTP/2 client waits in its round trip's
	// select (bundled in net/http up to Go 1.26, net/http/internal/http2
	// from 1.27, golang.org/x/net/http2), its stream's writer beside it;
	// net/rpc's Call receives on the call's Done channel.
	{ID: "http-client-wait", Runtime: parse.RuntimeGo, Category: Waiting, Resource: "peer-reply", Depth: 2,
		States: []string{"select"},
		Anchors: []string{"net/http.(*http2ClientConn).roundTrip", "net/http.(*http2ClientConn).RoundTrip",
			"net/http/internal/http2.(*ClientConn).roundTrip", "net/http/internal/http2.(*ClientConn).RoundTrip",
			"*golang.org/x/net/http2.(*ClientConn).roundTrip", "*golang.org/x/net/http2.(*ClientConn).RoundTrip",
			"net/http.(*http2clientStream).writeRequest", "net/http/internal/http2.(*clientStream).writeRequest",
			"*golang.org/x/net/http2.(*clientStream).writeRequest"},
		Explain: "waiting for an HTTP/2 response from an upstream (net/http client)"},
	{ID: "rpc-wait", Runtime: parse.RuntimeGo, Category: Waiting, Resource: "peer-reply", Depth: 2,
		States:  []string{"chan receive"},
		Anchors: []string{"net/rpc.(*Client).Call"},
		Explain: "waiting for the reply of a net/rpc call (Client.Call has no deadline)"},
	// A client connection's readLoop waits in a select, not in a read,
	// while its response's body is lent to the caller: the connection
	// goes back to the pool (or closes) only once the caller reads the
	// body to its end or closes it. No rest: lent for a minute and more,
	// by LeakMin and more, the bodies are not closed (the leak detector);
	// a caller streaming one long body holds one connection.
	{ID: "http-body-wait", Runtime: parse.RuntimeGo, Category: Waiting, Resource: "response-body", Depth: 1,
		States: []string{"select"}, Anchors: []string{"net/http.(*persistConn).readLoop"},
		Explain: "an HTTP client connection lent to its caller with the response body open: back to the pool only once the body is read to its end or closed"},
	// A client's idle connection rests in its pool, which keeps at most
	// MaxIdleConns (100 by default) and closes those idle past
	// IdleConnTimeout (90 s by default): PoolKeeps.
	{ID: "http-conn-idle", Runtime: parse.RuntimeGo, Category: Idle, Depth: 20, PoolKeeps: 200,
		Anchors: []string{"net/http.(*persistConn).readLoop", "net/http.(*persistConn).writeLoop"},
		Explain: "net/http connection waiting for traffic (a client's idle connection, a server's kept-alive one): idle"},
	// The background read a handler's connection starts (Go 1.22+ wraps
	// the go statement: a goroutine created and not yet run shows only
	// startBackgroundRead.gowrapN, runnable; in every dump fetched from
	// the pprof handler, the request that writes it): the connection's,
	// not running work.
	{ID: "http-conn-idle", Runtime: parse.RuntimeGo, Category: Idle, Depth: 20,
		Anchors: []string{"net/http.(*connReader).backgroundRead", "net/http.(*conn).readRequest", "net/http.(*connReader).startBackgroundRead.gowrap*"},
		Explain: "net/http connection waiting for traffic (a client's idle connection, a server's kept-alive one): idle"},
	// Go 1.26 waits for the next request on a kept-alive connection in
	// (*conn).serve → bufio Peek, with no handler on the stack; caught the
	// instant its next request arrived, it is [runnable] there (17 of 1000
	// kept-alive connections of testdata/verdicts/go-busy-healthy/2.txt.gz):
	// still no wait on a peer.
	{ID: "http-conn-idle", Runtime: parse.RuntimeGo, Category: Idle, Depth: 30, States: []string{"IO wait", "runnable"},
		Anchors: []string{"net/http.(*conn).serve"}, Unless: []string{"net/http.serverHandler.ServeHTTP"},
		Explain: "net/http connection waiting for traffic (a client's idle connection, a server's kept-alive one): idle"},
	{ID: "accept", Serves: true, Runtime: parse.RuntimeGo, Category: Idle, Depth: 10,
		Anchors: []string{"net.(*netFD).accept", "net.(*TCPListener).accept", "net.(*UnixListener).accept"},
		Explain: "waiting for a new connection: idle listener"},
	// A stream of a multiplexed session (yamux, smux) waits in a select or a
	// Cond for the data the session's own reader loop hands it: a read of
	// the peer's bytes, one frame from the top (debug=2, the select hidden)
	// or under the runtime's (the proto). A rest: a server's stream handler
	// reads its client's next message there by design; a reply read under
	// a call is told by what it is under (workwaits.go).
	{ID: "stream-read", Runtime: parse.RuntimeGo, Category: Waiting, Resource: "peer-reply", Rest: true, Depth: 4,
		Anchors: []string{"*github.com/hashicorp/yamux.(*Stream).Read", "*github.com/libp2p/go-yamux/v4.(*Stream).Read",
			"*github.com/libp2p/go-yamux/v5.(*Stream).Read", "*github.com/xtaci/smux.(*Stream).Read"},
		Explain: "waiting for the peer's data on a stream of a multiplexed connection (yamux, smux)"},
	{ID: "socket-read", Runtime: parse.RuntimeGo, Category: Waiting, Resource: "peer-reply", RestUnlessVia: true, Depth: 8, States: []string{"IO wait"},
		Anchors: []string{"net.(*conn).Read", "net.(*netFD).Read", "net.(*UDPConn).ReadFrom*", "net.(*netFD).readFrom*"},
		Explain: "blocked reading from a socket: waiting for the peer"},
	{ID: "io-wait", Runtime: parse.RuntimeGo, Category: Waiting, Resource: "fd", Rest: true, States: []string{"IO wait"}, StateAlone: true,
		Anchors: []string{"internal/poll.runtime_pollWait", "runtime.netpollblock"}, Depth: 3,
		Explain: "waiting for a file descriptor in the netpoller"},
	// The proto keeps the runtime frames that debug=2 hides and prints no
	// wait reason: the anchors recover the state from them (runtime.chanrecv1,
	// runtime.selectgo...). debug=2 prints the reason: StateAlone.
	{ID: "chan-receive", Runtime: parse.RuntimeGo, Category: Waiting, Resource: "channel", Rest: true,
		States: []string{"chan receive", "chan receive (nil chan)", "chan receive (synctest)"}, StateAlone: true,
		Anchors: []string{"runtime.chanrecv1", "runtime.chanrecv2", "runtime.chanrecv"}, Depth: 3,
		Explain: "blocked receiving from a channel"},
	// golang.org/x/sync/errgroup's limit (SetLimit) is a semaphore of its
	// own: Go sends on the group's channel until a running task returns.
	// A slot of the limit, not a bare chan send (before the chan rows).
	{ID: "semaphore-wait", Runtime: parse.RuntimeGo, Category: Waiting, Resource: "permit", Depth: 1,
		Anchors: []string{"*golang.org/x/sync/errgroup.(*Group).Go"}, States: []string{"chan send"},
		Explain: "waiting for a slot of an errgroup's limit (golang.org/x/sync/errgroup SetLimit): its running tasks have not returned"},
	{ID: "chan-send", Runtime: parse.RuntimeGo, Category: Waiting, Resource: "channel",
		States: []string{"chan send", "chan send (nil chan)", "chan send (synctest)"}, StateAlone: true,
		Anchors: []string{"runtime.chansend1", "runtime.chansend"}, Depth: 3,
		Explain: "blocked sending on a channel: no receiver takes it (its receivers busy elsewhere, or gone)"},
	// golang.org/x/sync/semaphore waits for a permit in a select on its
	// own channel: a permit, not a bare select (vendored copies too).
	{ID: "semaphore-wait", Runtime: parse.RuntimeGo, Category: Waiting, Resource: "permit", Depth: 2,
		Anchors: []string{"*golang.org/x/sync/semaphore.(*Weighted).Acquire"},
		Explain: "waiting for a permit of a weighted semaphore (golang.org/x/sync/semaphore): its holders have not released theirs"},
	{ID: "select", Runtime: parse.RuntimeGo, Category: Waiting, Resource: "channel", Rest: true,
		States: []string{"select", "select (no cases)", "select (synctest)"}, StateAlone: true,
		Anchors: []string{"runtime.selectgo", "runtime.block"}, Depth: 3,
		Explain: "blocked in select"},
	// RWMutex before Mutex: a writer's RWMutex.Lock first takes the inner
	// Mutex (sync.(*RWMutex).Lock → sync.(*Mutex).Lock), which the Mutex row
	// would claim.
	{ID: "rwmutex-wait", Runtime: parse.RuntimeGo, Category: Waiting, Resource: "lock",
		States: []string{"sync.RWMutex.Lock", "sync.RWMutex.RLock"}, StateAlone: true,
		Anchors: []string{"sync.(*RWMutex).Lock", "sync.(*RWMutex).RLock", "sync.runtime_SemacquireRWMutex", "sync.runtime_SemacquireRWMutexR"}, Depth: 6,
		Explain: "waiting for a sync.RWMutex (a reader behind a writer, or a writer behind readers)"},
	{ID: "mutex-wait", Runtime: parse.RuntimeGo, Category: Waiting, Resource: "lock", States: []string{"sync.Mutex.Lock"}, StateAlone: true,
		Anchors: []string{"sync.(*Mutex).Lock", "sync.(*Mutex).lockSlow", "internal/sync.(*Mutex).lockSlow", "internal/sync.(*Mutex).Lock",
			"sync.runtime_SemacquireMutex", "internal/sync.runtime_SemacquireMutex"}, Depth: 6,
		Explain: "waiting for a sync.Mutex"},
	{ID: "cond-wait", Runtime: parse.RuntimeGo, Category: Waiting, Resource: "condition", Rest: true, States: []string{"sync.Cond.Wait"}, StateAlone: true,
		Anchors: []string{"sync.(*Cond).Wait", "sync.runtime_notifyListWait"}, Depth: 6,
		Explain: "waiting on a sync.Cond"},
	{ID: "waitgroup-wait", Runtime: parse.RuntimeGo, Category: Waiting, Resource: "latch", Rest: true, States: []string{"sync.WaitGroup.Wait"}, StateAlone: true,
		Anchors: []string{"sync.(*WaitGroup).Wait", "sync.runtime_SemacquireWaitGroup"}, Depth: 6,
		Explain: "waiting for a sync.WaitGroup"},
	// A goroutine that was computing when the dump stopped the world
	// (debug=2, SIGQUIT) can be caught in the runtime's own semaphore: an
	// allocation that starts a GC waits there for the world the dump
	// stopped (runtime.mallocgc → gcStart → semacquire, hidden by debug=2).
	// It prints [semacquire] with its own code on top, no sync frame: 2 of
	// the 3 handlers spinning in testdata/verdicts/go-stalls-spin-stuck at
	// moment 1, all 3 of Go 1.13's at times. Running work, not a lock.
	{ID: "running", Runtime: parse.RuntimeGo, Category: Running, States: []string{"semacquire"}, CodeOnTop: true,
		Explain: "running or runnable"}, // the same words as the row of the printed states: one group
	// Forks and wrappers of sync: another package's own RWMutex, Mutex,
	// WaitGroup or Cond over the runtime's semaphore (gVisor's pkg/sync
	// copies sync's code and links to sync.runtime_Semacquire; others wrap
	// it) wait as a bare "semacquire" in every Go version: the frames say
	// which lock it is, and the via names the package. Only over a
	// semaphore frame (Within): a package's channel-based Mutex waiting in
	// a chan receive is the chan row's, above.
	{ID: "rwmutex-wait", Runtime: parse.RuntimeGo, Category: Waiting, Resource: "lock", Depth: 4, ViaCaller: true,
		Anchors: []string{"*RWMutex).RLock", "*RWMutex).Lock", "*RWMutex).rlock*", "*RWMutex).lock*"},
		Within:  semaphoreFrames,
		Explain: "waiting for a read-write lock of the calling package (a fork or wrapper of sync.RWMutex)"},
	{ID: "mutex-wait", Runtime: parse.RuntimeGo, Category: Waiting, Resource: "lock", Depth: 4, ViaCaller: true,
		Anchors: []string{"*Mutex).Lock", "*Mutex).lockSlow"},
		Within:  semaphoreFrames,
		Explain: "waiting for a mutex of the calling package (a fork or wrapper of sync.Mutex)"},
	{ID: "waitgroup-wait", Runtime: parse.RuntimeGo, Category: Waiting, Resource: "latch", Rest: true, Depth: 4, ViaCaller: true,
		Anchors: []string{"*WaitGroup).Wait"},
		Within:  semaphoreFrames,
		Explain: "waiting for a wait group of the calling package (a fork or wrapper of sync.WaitGroup)"},
	{ID: "cond-wait", Runtime: parse.RuntimeGo, Category: Waiting, Resource: "condition", Rest: true, Depth: 4, ViaCaller: true,
		Anchors: []string{"*Cond).Wait"},
		Within:  []string{"sync.runtime_notifyListWait", "runtime.notifyListWait"},
		Explain: "waiting on a condition variable of the calling package (a fork or wrapper of sync.Cond)"},
	// Before Go 1.22 every sync lock waited as "semacquire"; the sync rows
	// above claim those by their frames. What is left waits on a semaphore
	// of the calling package (golang.org/x/sync/semaphore, a pool's own
	// lock): the via names it.
	{ID: "semacquire", Runtime: parse.RuntimeGo, Category: Waiting, Resource: "lock", States: []string{"semacquire"}, StateAlone: true,
		Anchors: []string{"runtime.semacquire1", "sync.runtime_Semacquire", "internal/sync.runtime_Semacquire"}, Depth: 4, ViaCaller: true,
		Explain: "waiting on a runtime semaphore: a lock of the calling package"},
	{ID: "sleep", Runtime: parse.RuntimeGo, Category: Idle, Resource: "time", States: []string{"sleep"}, StateAlone: true,
		Anchors: []string{"time.Sleep"}, Depth: 2,
		Explain: "in time.Sleep"},
	// A file's sync to disk, in whatever state the runtime prints it
	// ("syscall", "runnable" while it returns): os.(*File).Sync is 5 to 8
	// frames under the system call (Go 1.26: Syscall6, RawSyscall6,
	// Syscall, fsync, Fsync, (*FD).Fsync.func1, ignoringEINTR, (*FD).Fsync).
	{ID: "file-sync", Runtime: parse.RuntimeGo, Category: Waiting, Resource: "disk-sync", Depth: 10,
		Anchors: []string{"syscall.Fsync", "syscall.Fdatasync", "internal/poll.(*FD).Fsync", "os.(*File).Sync",
			"golang.org/x/sys/unix.Fsync", "golang.org/x/sys/unix.Fdatasync", "syscall.SyncFileRange"},
		Explain: "syncing a file to disk (fsync): waiting for the device"},
	// A cgo call: the goroutine runs a C function (through its
	// package's _Cfunc_ or _C2func_ wrapper, under runtime.cgocall) and
	// holds an OS thread of its own until it returns. debug=2 prints it as
	// "[syscall]" and hides runtime.cgocall; debug=1 prints no state and
	// hides it too (the wrapper is the first printed frame); the proto
	// keeps it. The same row in every form (testdata/verdicts/go-cgo-*).
	// No rest: a C call that does not return keeps its thread for good.
	{ID: "cgo-call", Runtime: parse.RuntimeGo, Category: Waiting, Resource: "cgo-call", Rest: true, Depth: 1,
		Anchors: []string{"runtime.cgocall", "*._Cfunc_*", "*._C2func_*"},
		Explain: "in a cgo call (a C function), holding an OS thread of its own until it returns"},
	{ID: "syscall", Runtime: parse.RuntimeGo, Category: Waiting, Resource: "syscall", Rest: true, States: []string{"syscall"},
		Explain: "in a system call"},
	{ID: "running", Runtime: parse.RuntimeGo, Category: Running, States: []string{"running", "runnable"},
		Explain: "running or runnable"},
	{ID: "runtime", Runtime: parse.RuntimeGo, Category: Other,
		States: []string{"GC worker (idle)", "GC worker (active)", "finalizer wait", "force gc (idle)", "GC sweep wait",
			"GC scavenge wait", "trace reader (blocked)", "wait for GC cycle", "GC assist wait", "GC assist marking",
			"cleanup wait", "idle", "preempted", "dead", "copystack", "sync.WaitGroup.Go",
			// An execution trace's reasons for the runtime's own waits
			// (parse/gotrace.go keeps a reason debug=2 has no word for).
			"system goroutine wait", "GC mark assist wait for work", "GC background sweeper wait",
			"wait until GC ends", "GC weak to strong wait", "wait for debug call"},
		Explain: "Go runtime internals"},
}

// semaphoreCallers are the frames a wait on a semaphore is called from,
// first outside the runtime: sync's and its forks' (gVisor's pkg/sync links
// to sync.runtime_Semacquire), x/sync's, and the lock-like methods of any
// package (a Lock, a Wait, an Acquire of its own).
var semaphoreCallers = []string{"sync.*", "internal/sync.*", "*runtime_Semacquire*", "*runtime_notifyList*", "*.(*Mutex).*", "*.(*RWMutex).*",
	"*.(*WaitGroup).*", "*.(*Cond).*", "*Semaphore*", "*.Acquire*", "*.Lock", "*.RLock", "*.Wait", "*.(*Weighted).*"}

// codeOnTop reports whether t's first frame outside the runtime is code that
// does not wait on a semaphore (semaphoreCallers): the runtime waits for it.
func codeOnTop(t *parse.Thread) bool {
	for _, f := range t.Frames {
		if strings.HasPrefix(f.Func, "runtime.") {
			continue // the proto prints them: the semaphore is told by its caller
		}
		return !anchorMatch(semaphoreCallers, f.Func)
	}
	return false
}

// classify returns the signature of a thread, or nil for unclassified.
// Cost: at most len(signatures) rows × Depth frame comparisons, once per
// distinct stack (the caller caches by stack).
func classify(rt parse.Runtime, t *parse.Thread) *Signature {
	return classifyIn(builtinTable, rt, t)
}

// classifyIn is classify over a table: a signatures file's rows before the
// built-in ones.
func classifyIn(table []Signature, rt parse.Runtime, t *parse.Thread) *Signature {
	for i := range table {
		s := &table[i]
		if s.Runtime != rt {
			continue
		}
		if s.matches(t) {
			return s
		}
	}
	return nil
}

func (s *Signature) matches(t *parse.Thread) bool {
	if s.Borrow {
		return s.borrowMatches(t)
	}
	if len(s.LockKinds) > 0 && !hasLockKind(t, s.LockKinds) {
		return false
	}
	if s.Parked && (len(t.Frames) == 0 || !anyPrefix(t.Frames[0].Func, jvmParkFrames)) {
		return false
	}
	if s.CodeOnTop && !codeOnTop(t) {
		return false
	}
	if len(s.LockClasses) > 0 && !parksOnClass(t, s.LockClasses) {
		return false
	}
	if len(s.Details) > 0 && !slices.Contains(s.Details, t.Java().StateDetail) {
		return false
	}
	if len(s.LockKinds) > 0 && len(s.Anchors) == 0 && len(s.States) == 0 {
		return true
	}
	stateOK := len(s.States) == 0
	for _, st := range s.States {
		if t.State == st {
			stateOK = true
			break
		}
	}
	if len(s.Anchors) == 0 {
		return len(s.States) > 0 && stateOK
	}
	if s.StateAlone && len(s.States) > 0 && stateOK && t.State != "" {
		return true
	}
	// A row with both states and anchors: for the JVM the anchors decide
	// (the printed state is the same for many waits); for Go the state must
	// match unless the anchor is found (wait reasons differ across versions).
	depth := s.Depth
	if depth <= 0 {
		depth = 1
	}
	// Go: the depth counts from the first frame outside the runtime. The
	// proto prints the runtime frames debug=2 hides (gopark, selectgo,
	// semacquire1...); both encodings must reach the same frames.
	if s.Runtime == parse.RuntimeGo {
		for _, f := range t.Frames {
			if !strings.HasPrefix(f.Func, "runtime.") {
				break
			}
			depth++
		}
	}
	// JVM: likewise from the first frame past the park plumbing, which a
	// virtual thread has more of (VirtualThread.park, parkVirtualThread,
	// Poller.poll) than a platform thread (Unsafe.park, LockSupport.park).
	if s.Runtime == parse.RuntimeJVM {
		for _, f := range t.Frames {
			if !anyPrefix(f.Func, jvmParkFrames) {
				break
			}
			depth++
		}
	}
	if len(s.Within) > 0 && !anyFramePrefix(t, s.Within) {
		return false
	}
	found := false
	for i, f := range t.Frames {
		if i >= depth {
			break
		}
		if anchorMatch(s.Anchors, f.Func) {
			found = !s.OwnWait || !outsideJDK(t.Frames[:i])
			break
		}
	}
	if !found {
		return false
	}
	for _, f := range t.Frames {
		if anchorMatch(s.Unless, f.Func) {
			return false
		}
	}
	if len(s.Unless) > 0 {
		return stateOK // a row with exclusions also needs its state
	}
	return stateOK || s.Runtime == parse.RuntimeGo
}

// parksOnClass reports whether t parks on a lock whose class matches one
// of classes (anchorGlob).
func parksOnClass(t *parse.Thread, classes []string) bool {
	for _, l := range t.Locks() {
		if l.Kind == parse.LockParking && anchorMatch(classes, l.Class) {
			return true
		}
	}
	return false
}

func hasLockKind(t *parse.Thread, kinds []parse.LockKind) bool {
	for _, l := range t.Locks() {
		for _, k := range kinds {
			if l.Kind == k {
				return true
			}
		}
	}
	return false
}

func anyFramePrefix(t *parse.Thread, prefixes []string) bool {
	for _, f := range t.Frames {
		for _, p := range prefixes {
			if strings.HasPrefix(f.Func, p) {
				return true
			}
		}
	}
	return false
}

// anchorMatch reports whether fn is one of the anchors; generic Go names
// are compared as debug=2 prints them ("pkg.(*Pool[...]).Acquire").
func anchorMatch(anchors []string, fn string) bool {
	fn = normalizeGeneric(fn)
	for _, a := range anchors {
		if anchorGlob(a, fn) {
			return true
		}
	}
	return false
}

// anchorGlob matches fn against an anchor in which '*' stands for any run
// of characters: at the end a prefix ("org.xnio.XnioWorker$TaskPool*"), at
// the start any package a library was relocated under
// ("*io.netty.channel.epoll.Native.epollWait*" matches gRPC's
// io.grpc.netty.shaded.io.netty...), inside a family of methods
// ("java.util.concurrent.locks.StampedLock.*Lock"). Right after '(' a '*'
// is a Go pointer receiver, "(*DB)", and matches itself. Most anchors hold
// no wildcard: one comparison.
func anchorGlob(a, fn string) bool {
	w := wildcard(a)
	if w < 0 {
		return a == fn
	}
	if !strings.HasPrefix(fn, a[:w]) {
		return false
	}
	// Each literal run between wildcards is found at its leftmost place
	// after the one before (which is enough when '*' is the only
	// wildcard), and the last must end fn: one scan of fn per run, for
	// this runs on every frame of every distinct stack.
	fn, a = fn[w:], a[w+1:]
	for {
		w = wildcard(a)
		if w < 0 {
			return strings.HasSuffix(fn, a)
		}
		i := strings.Index(fn, a[:w])
		if i < 0 {
			return false
		}
		fn, a = fn[i+w:], a[w+1:]
	}
}

// wildcard is the index of a's first '*' that is a wildcard (not a Go
// pointer receiver's, right after '('); -1 when none is.
func wildcard(a string) int {
	for off := 0; ; {
		i := strings.IndexByte(a[off:], '*')
		if i < 0 {
			return -1
		}
		if i += off; i == 0 || a[i-1] != '(' {
			return i
		}
		off = i + 1
	}
}
