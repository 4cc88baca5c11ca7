package analyze

import (
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

func thread(state string, funcs ...string) *parse.Thread {
	t := &parse.Thread{State: state, Weight: 1}
	for _, f := range funcs {
		t.Frames = append(t.Frames, &parse.Frame{Func: f})
	}
	return t
}

// TestSignatures checks every row of the table against stacks copied from
// real dumps (JDK 8/11/17 jstack, Go 1.26 debug=2); the comment on each case
// names where its frames come from.
func TestSignatures(t *testing.T) {
	tests := []struct {
		name    string
		rt      parse.Runtime
		thread  *parse.Thread
		want    string
		wantVia string
	}{
		// Go 1.26.8, two reads on one fd: the fd mutex waits as "semacquire"
		// (corpus dumpdiff-gen__go1.26.8__lookup-goroutine-debug2.txt).
		{"go semacquire fdMutex", parse.RuntimeGo, thread("semacquire",
			"internal/poll.runtime_Semacquire", "internal/poll.(*fdMutex).rwlock", "internal/poll.(*FD).readLock",
			"internal/poll.(*FD).Read", "os.(*File).read"), "semacquire", "internal/poll"},
		// The same goroutine in the proto: runtime frames, no wait reason.
		{"go semacquire proto", parse.RuntimeGo, thread("",
			"runtime.gopark", "runtime.goparkunlock", "runtime.semacquire1", "internal/poll.runtime_Semacquire",
			"internal/poll.(*fdMutex).rwlock"), "semacquire", "internal/poll"},
		// gRPC-java blocking stub, no grpc-java package here: frames from
		// public jstack output, grpc/grpc-java issue #7691 (gRPC 1.26, JDK 8, a
		// Tomcat request thread) and tronprotocol/java-tron PR #6460 (JDK 17).
		{"grpc-java blocking unary jdk8", parse.RuntimeJVM, thread("WAITING",
			"sun.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park",
			"io.grpc.stub.ClientCalls$ThreadlessExecutor.waitAndDrain", "io.grpc.stub.ClientCalls.blockingUnaryCall"), "grpc-wait", ""},
		{"grpc-java blocking unary jdk17", parse.RuntimeJVM, thread("WAITING",
			"jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park",
			"io.grpc.stub.ClientCalls$ThreadlessExecutor.waitAndDrain", "io.grpc.stub.ClientCalls.blockingUnaryCall",
			"org.tron.api.WalletGrpc$WalletBlockingStub.accountPermissionUpdate"), "grpc-wait", ""},
		// Jedis under Spring Data Redis on a Tomcat request thread, JDK 8:
		// frames from public jstack output in redis/jedis issue #2200; and a
		// timed borrow (pollFirst) from redis/jedis issue #1920. No Jedis
		// package here; testdata/libs has commons-pool2 under a Redis client
		// of our own.
		{"jedis pool borrow", parse.RuntimeJVM, thread("WAITING",
			"sun.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park",
			"java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await",
			"org.apache.commons.pool2.impl.LinkedBlockingDeque.takeFirst", "org.apache.commons.pool2.impl.GenericObjectPool.borrowObject",
			"org.apache.commons.pool2.impl.GenericObjectPool.borrowObject", "redis.clients.util.Pool.getResource",
			"redis.clients.jedis.JedisPool.getResource", "redis.clients.jedis.JedisPool.getResource",
			"org.springframework.data.redis.connection.jedis.JedisConnectionFactory.fetchJedisConnector"), "redis-pool-wait", ""},
		{"jedis pool timed borrow", parse.RuntimeJVM, thread("TIMED_WAITING",
			"sun.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.parkNanos",
			"java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.awaitNanos",
			"org.apache.commons.pool2.impl.LinkedBlockingDeque.pollFirst", "org.apache.commons.pool2.impl.GenericObjectPool.borrowObject",
			"org.apache.commons.pool2.impl.GenericObjectPool.borrowObject", "redis.clients.util.Pool.getResource",
			"redis.clients.jedis.JedisPool.getResource"), "redis-pool-wait", ""},
		// Oracle JDBC (thin driver) reading a reply on WebLogic: public
		// frames from codenvy/codenvy issue #2703. No Oracle here.
		{"oracle thin driver read", parse.RuntimeJVM, thread("RUNNABLE",
			"java.net.SocketInputStream.socketRead0", "java.net.SocketInputStream.read", "java.net.SocketInputStream.read",
			"oracle.net.nt.MetricsEnabledInputStream.read", "oracle.net.ns.Packet.receive", "oracle.net.ns.DataPacket.receive",
			"oracle.net.ns.NetInputStream.getNextPacket", "oracle.net.ns.NetInputStream.read",
			"oracle.jdbc.driver.T4CSocketInputStreamWrapper.readNextPacket", "oracle.jdbc.driver.T4CMAREngineStream.unmarshalUB1",
			"oracle.jdbc.driver.T4CTTIfun.receive"), "socket-read", "jdbc oracle"},
		// MongoDB Java driver 3.x reading a reply: public frames from
		// exense/djigger issue #76. No MongoDB here.
		{"mongodb driver read", parse.RuntimeJVM, thread("RUNNABLE",
			"java.net.SocketInputStream.socketRead0", "java.net.SocketInputStream.socketRead", "java.net.SocketInputStream.read",
			"java.net.SocketInputStream.read", "com.mongodb.connection.SocketStream.read",
			"com.mongodb.connection.InternalStreamConnection.receiveResponseBuffers",
			"com.mongodb.connection.InternalStreamConnection.receiveMessage"), "socket-read", "mongodb"},
		// Alibaba Druid, no Druid here: public jstack output of threads
		// waiting for a connection for ever (maxWait -1) in alibaba/druid
		// issues #3823 (JDK 8, a pool-34 worker under Hibernate) and #4584
		// (JDK 11, an XNIO task), and with a maxWait under the pool's fair
		// lock in #3717 (JDK 8).
		{"druid takeLast jdk8", parse.RuntimeJVM, thread("WAITING",
			"sun.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park",
			"java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await",
			"com.alibaba.druid.pool.DruidDataSource.takeLast", "com.alibaba.druid.pool.DruidDataSource.getConnectionInternal",
			"com.alibaba.druid.pool.DruidDataSource.getConnectionDirect", "com.alibaba.druid.pool.DruidDataSource.getConnection",
			"org.hibernate.engine.jdbc.connections.internal.DatasourceConnectionProviderImpl.getConnection"), "db-pool-wait", ""},
		{"druid takeLast jdk11", parse.RuntimeJVM, thread("WAITING",
			"jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park",
			"java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await",
			"com.alibaba.druid.pool.DruidDataSource.takeLast", "com.alibaba.druid.pool.DruidDataSource.getConnectionInternal",
			"com.alibaba.druid.pool.DruidDataSource.getConnectionDirect"), "db-pool-wait", ""},
		{"druid pollLast fair lock", parse.RuntimeJVM, thread("WAITING",
			"sun.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park",
			"java.util.concurrent.locks.AbstractQueuedSynchronizer.parkAndCheckInterrupt",
			"java.util.concurrent.locks.AbstractQueuedSynchronizer.acquireQueued",
			"java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.awaitNanos",
			"com.alibaba.druid.pool.DruidDataSource.pollLast", "com.alibaba.druid.pool.DruidDataSource.getConnectionInternal",
			"com.alibaba.druid.pool.DruidDataSource.getConnectionDirect", "com.alibaba.druid.filter.FilterChainImpl.dataSource_connect"), "db-pool-wait", ""},
		// BoneCP, no BoneCP here: zalando-zmon/zmon-controller issue #90
		// (JDK 8, Tomcat request threads under Spring's transaction manager).
		{"bonecp partition poll", parse.RuntimeJVM, thread("TIMED_WAITING",
			"sun.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.parkNanos",
			"java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.awaitNanos",
			"java.util.concurrent.LinkedBlockingQueue.poll", "com.jolbox.bonecp.DefaultConnectionStrategy.getConnectionInternal",
			"com.jolbox.bonecp.AbstractConnectionStrategy.getConnection", "com.jolbox.bonecp.BoneCP.getConnection",
			"com.jolbox.bonecp.BoneCPDataSource.getConnection"), "db-pool-wait", ""},
		// Agroal 1.x, no Agroal here: a Quarkus executor thread parked for
		// a new connection, as Narayana's ARJUNA012381 warning printed it
		// (JDK 11; quoted in the notes of Takaichi00/quarkus-sample). The
		// same method on top of a running thread is Agroal 2 creating the
		// connection itself: not a wait for the pool.
		{"agroal waits for a new connection", parse.RuntimeJVM, thread("WAITING",
			"jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park",
			"java.util.concurrent.FutureTask.awaitDone", "java.util.concurrent.FutureTask.get",
			"io.agroal.pool.ConnectionPool.handlerFromSharedCache", "io.agroal.pool.ConnectionPool.getConnection",
			"io.agroal.pool.DataSource.getConnection"), "db-pool-wait", ""},
		{"agroal creating a connection", parse.RuntimeJVM, thread("RUNNABLE",
			"io.agroal.pool.ConnectionPool.handlerFromSharedCache", "io.agroal.pool.ConnectionPool.getConnection",
			"io.agroal.pool.DataSource.getConnection"), "running", ""},
		// c3p0 0.9.1.2, commons-dbcp2 2.9.0 and Tomcat JDBC 10.1.60 on JDK 17,
		// one waiter each (testdata/verdicts/onedump-pool-*).
		{"c3p0 awaitAvailable", parse.RuntimeJVM, thread("WAITING",
			"java.lang.Object.wait", "com.mchange.v2.resourcepool.BasicResourcePool.awaitAvailable",
			"com.mchange.v2.resourcepool.BasicResourcePool.prelimCheckoutResource", "com.mchange.v2.resourcepool.BasicResourcePool.checkoutResource",
			"com.mchange.v2.c3p0.impl.C3P0PooledConnectionPool.checkoutPooledConnection",
			"com.mchange.v2.c3p0.impl.AbstractPoolBackedDataSource.getConnection"), "db-pool-wait", ""},
		{"dbcp2 borrow", parse.RuntimeJVM, thread("WAITING",
			"jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park",
			"java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionNode.block", "java.util.concurrent.ForkJoinPool.unmanagedBlock",
			"java.util.concurrent.ForkJoinPool.managedBlock", "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await",
			"org.apache.commons.pool2.impl.LinkedBlockingDeque.takeFirst", "org.apache.commons.pool2.impl.GenericObjectPool.borrowObject",
			"org.apache.commons.pool2.impl.GenericObjectPool.borrowObject", "org.apache.commons.dbcp2.PoolingDataSource.getConnection",
			"org.apache.commons.dbcp2.BasicDataSource.getConnection"), "db-pool-wait", ""},
		{"tomcat jdbc borrow", parse.RuntimeJVM, thread("TIMED_WAITING",
			"jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.parkNanos",
			"java.util.concurrent.locks.AbstractQueuedSynchronizer.acquire", "java.util.concurrent.locks.AbstractQueuedSynchronizer.tryAcquireSharedNanos",
			"java.util.concurrent.CountDownLatch.await", "org.apache.tomcat.jdbc.pool.FairBlockingQueue.poll",
			"org.apache.tomcat.jdbc.pool.ConnectionPool.borrowConnection", "org.apache.tomcat.jdbc.pool.ConnectionPool.getConnection",
			"org.apache.tomcat.jdbc.pool.DataSourceProxy.getConnection"), "db-pool-wait", ""},
		// JDK 17, HikariCP 2.7.9 (testdata/scenarios/hikari-pool-exhausted).
		{"hikari getConnection", parse.RuntimeJVM, thread("TIMED_WAITING",
			"jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.parkNanos",
			"java.util.concurrent.SynchronousQueue$TransferStack.awaitFulfill", "java.util.concurrent.SynchronousQueue$TransferStack.transfer",
			"java.util.concurrent.SynchronousQueue.poll", "com.zaxxer.hikari.util.ConcurrentBag.borrow",
			"com.zaxxer.hikari.pool.HikariPool.getConnection", "com.zaxxer.hikari.pool.HikariPool.getConnection",
			"com.zaxxer.hikari.HikariDataSource.getConnection", "com.example.shop.OrderRepository.slowReport"), "db-pool-wait", ""},
		// JDK 17 socket read under HttpURLConnection (slow-upstream-no-timeout).
		{"jdk17 Net.poll under HttpURLConnection", parse.RuntimeJVM, thread("RUNNABLE",
			"sun.nio.ch.Net.poll", "sun.nio.ch.NioSocketImpl.park", "sun.nio.ch.NioSocketImpl.park",
			"sun.nio.ch.NioSocketImpl.implRead", "sun.nio.ch.NioSocketImpl.read", "sun.nio.ch.NioSocketImpl$1.read",
			"java.net.Socket$SocketInputStream.read", "java.io.BufferedInputStream.fill", "java.io.BufferedInputStream.read1",
			"java.io.BufferedInputStream.read", "sun.net.www.http.HttpClient.parseHTTPHeader", "sun.net.www.http.HttpClient.parseHTTP",
			"sun.net.www.protocol.http.HttpURLConnection.getInputStream0", "sun.net.www.protocol.http.HttpURLConnection.getInputStream",
			"com.example.shop.UpstreamClient.fetch"), "socket-read", "http-client"},
		// JDK 17 socket read in the PostgreSQL driver.
		{"jdk17 Net.poll under org.postgresql", parse.RuntimeJVM, thread("RUNNABLE",
			"sun.nio.ch.Net.poll", "sun.nio.ch.NioSocketImpl.park", "sun.nio.ch.NioSocketImpl.timedRead",
			"sun.nio.ch.NioSocketImpl.implRead", "sun.nio.ch.NioSocketImpl.read", "sun.nio.ch.NioSocketImpl$1.read",
			"java.net.Socket$SocketInputStream.read", "org.postgresql.core.VisibleBufferedInputStream.readMore",
			"org.postgresql.core.VisibleBufferedInputStream.ensureBytes", "org.postgresql.core.PGStream.receiveChar",
			"org.postgresql.core.v3.QueryExecutorImpl.processResults"), "socket-read", "jdbc org.postgresql"},
		// corpus dumpling__hotspot-24.51-b03-jdk7u51__143-threads.log: an AJP connection waiting for its next request.
		{"ajp keep-alive", parse.RuntimeJVM, thread("RUNNABLE",
			"java.net.SocketInputStream.socketRead0", "java.net.SocketInputStream.read", "java.net.SocketInputStream.read",
			"org.apache.coyote.ajp.AjpProcessor.read", "org.apache.coyote.ajp.AjpProcessor.readMessage", "org.apache.coyote.ajp.AjpProcessor.process",
			"org.apache.coyote.ajp.AjpProtocol$AjpConnectionHandler.process", "org.apache.tomcat.util.net.JIoEndpoint$Worker.run"), "http-server-idle", ""},
		// corpus jthreaddump__openjdk-25-macos__thread-pool.txt.
		{"countdownlatch", parse.RuntimeJVM, thread("WAITING",
			"jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park",
			"java.util.concurrent.locks.AbstractQueuedSynchronizer.acquire", "java.util.concurrent.locks.AbstractQueuedSynchronizer.acquireSharedInterruptibly",
			"java.util.concurrent.CountDownLatch.await", "me.bechberger.jthreaddump.test.ThreadDumpGenerator.lambda$threadPoolScenario$1"), "latch-wait", ""},
		// JDK 8 (corpus tda__openjdk-8u91__jstack.log shape).
		{"jdk8 socketRead0", parse.RuntimeJVM, thread("RUNNABLE",
			"java.net.SocketInputStream.socketRead0", "java.net.SocketInputStream.socketRead", "java.net.SocketInputStream.read",
			"java.io.BufferedInputStream.fill"), "socket-read", ""},
		{"socket connect", parse.RuntimeJVM, thread("RUNNABLE",
			"sun.nio.ch.Net.poll", "sun.nio.ch.NioSocketImpl.park", "sun.nio.ch.NioSocketImpl.timedFinishConnect",
			"sun.nio.ch.NioSocketImpl.connect", "java.net.Socket.connect"), "socket-connect", ""},
		{"socket write", parse.RuntimeJVM, thread("RUNNABLE",
			"java.net.SocketOutputStream.socketWrite0", "java.net.SocketOutputStream.socketWrite", "java.net.SocketOutputStream.write"), "socket-write", ""},
		// Tomcat 10.1 idle request thread.
		{"tomcat TaskQueue.take", parse.RuntimeJVM, thread("WAITING",
			"jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park",
			"java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await", "java.util.concurrent.LinkedBlockingQueue.take",
			"org.apache.tomcat.util.threads.TaskQueue.take", "org.apache.tomcat.util.threads.TaskQueue.take",
			"org.apache.tomcat.util.threads.ThreadPoolExecutor.getTask", "org.apache.tomcat.util.threads.ThreadPoolExecutor.runWorker"), "pool-idle", ""},
		{"jdk getTask", parse.RuntimeJVM, thread("WAITING",
			"jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park",
			"java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await", "java.util.concurrent.LinkedBlockingQueue.take",
			"java.util.concurrent.ThreadPoolExecutor.getTask", "java.util.concurrent.ThreadPoolExecutor.runWorker"), "pool-idle", ""},
		// corpus: ForkJoinPool.awaitWork (jthreaddump openjdk-25).
		{"forkjoin awaitWork", parse.RuntimeJVM, thread("WAITING",
			"jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park", "java.util.concurrent.ForkJoinPool.awaitWork",
			"java.util.concurrent.ForkJoinPool.runWorker", "java.util.concurrent.ForkJoinWorkerThread.run"), "pool-idle", ""},
		// kotlinx.coroutines' Dispatchers.Default worker parked for work:
		// public dumps, Nasller/CodeGlancePro#109 (kotlinx in IntelliJ,
		// JDK 17.0.8) and 42Crunch/intellij-openapi-editor#28 (JDK 17.0.5).
		{"kotlinx worker park", parse.RuntimeJVM, thread("TIMED_WAITING",
			"jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.parkNanos",
			"kotlinx.coroutines.scheduling.CoroutineScheduler$Worker.park", "kotlinx.coroutines.scheduling.CoroutineScheduler$Worker.tryPark",
			"kotlinx.coroutines.scheduling.CoroutineScheduler$Worker.runWorker", "kotlinx.coroutines.scheduling.CoroutineScheduler$Worker.run"), "pool-idle", ""},
		// The same worker running a task that takes from a queue is not
		// at rest in its pool (msmt2018/ZeroStudio#5, public dump).
		{"kotlinx worker in a task", parse.RuntimeJVM, thread("WAITING",
			"jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park",
			"java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionNode.block", "java.util.concurrent.ForkJoinPool.unmanagedBlock",
			"java.util.concurrent.ForkJoinPool.managedBlock", "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await",
			"java.util.concurrent.LinkedBlockingQueue.take", "com.itsaky.androidide.editor.ui.EditorEventDispatcher$dispatchNextEvent$event$1.invokeSuspend",
			"kotlin.coroutines.jvm.internal.BaseContinuationImpl.resumeWith", "kotlinx.coroutines.DispatchedTask.run",
			"kotlinx.coroutines.scheduling.CoroutineScheduler$Worker.executeTask", "kotlinx.coroutines.scheduling.CoroutineScheduler$Worker.runWorker"), "queue-wait", ""},
		// Windows' wepoll selector (JDK 17+): a Tomcat log's leak warning
		// printing HttpClient-1-SelectorManager's stack (JDK 17.0.8), and
		// glowroot's shaded Netty NIO loop on it (JDK 17.0.17), both public.
		{"wepoll selector manager", parse.RuntimeJVM, thread("RUNNABLE",
			"sun.nio.ch.WEPoll.wait", "sun.nio.ch.WEPollSelectorImpl.doSelect", "sun.nio.ch.SelectorImpl.lockAndDoSelect",
			"sun.nio.ch.SelectorImpl.select", "jdk.internal.net.http.HttpClientImpl$SelectorManager.run"), "selector-wait", ""},
		{"wepoll shaded netty", parse.RuntimeJVM, thread("RUNNABLE",
			"sun.nio.ch.WEPoll.wait", "sun.nio.ch.WEPollSelectorImpl.doSelect", "sun.nio.ch.SelectorImpl.lockAndDoSelect",
			"sun.nio.ch.SelectorImpl.select", "org.glowroot.agent.shaded.io.netty.channel.nio.SelectedSelectionKeySetSelector.select"), "selector-wait", ""},
		// gRPC's relocated Netty (grpc-netty-shaded moves io.netty under
		// io.grpc.netty.shaded; the frames of Graylog2/graylog2-server#9064
		// under that prefix).
		{"shaded netty epoll", parse.RuntimeJVM, thread("RUNNABLE",
			"io.grpc.netty.shaded.io.netty.channel.epoll.Native.epollWait", "io.grpc.netty.shaded.io.netty.channel.epoll.Native.epollWait",
			"io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoop.epollWaitNoTimerChange", "io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoop.run"), "selector-wait", ""},
		// An RMI connection reading the next call (corpus
		// tda__hotspot-1.6.0_03-server__rmi-threads, JDK 6), and one of the
		// same file serving a JMX client's notification fetch: a long poll.
		{"rmi connection idle jdk6", parse.RuntimeJVM, thread("RUNNABLE",
			"java.net.SocketInputStream.socketRead0", "java.net.SocketInputStream.read", "java.io.BufferedInputStream.fill",
			"java.io.BufferedInputStream.read", "java.io.FilterInputStream.read", "sun.rmi.transport.tcp.TCPTransport.handleMessages",
			"sun.rmi.transport.tcp.TCPTransport$ConnectionHandler.run0", "sun.rmi.transport.tcp.TCPTransport$ConnectionHandler.run"), "connection-idle", ""},
		{"jmx notification long poll", parse.RuntimeJVM, thread("TIMED_WAITING",
			"java.lang.Object.wait", "com.sun.jmx.remote.internal.ArrayNotificationBuffer.fetchNotifications",
			"com.sun.jmx.remote.internal.ArrayNotificationBuffer$ShareBuffer.fetchNotifications", "com.sun.jmx.remote.internal.ServerNotifForwarder.fetchNotifs",
			"javax.management.remote.rmi.RMIConnectionImpl$2.run", "javax.management.remote.rmi.RMIConnectionImpl$2.run",
			"java.security.AccessController.doPrivileged", "javax.management.remote.rmi.RMIConnectionImpl.fetchNotifications",
			"sun.reflect.GeneratedMethodAccessor4.invoke", "sun.reflect.DelegatingMethodAccessorImpl.invoke", "java.lang.reflect.Method.invoke",
			"sun.rmi.server.UnicastServerRef.dispatch", "sun.rmi.transport.Transport$1.run", "java.security.AccessController.doPrivileged",
			"sun.rmi.transport.Transport.serviceCall"), "connection-idle", ""},
		// A StampedLock waiter (JDK 17 StampedLock.acquireWrite under
		// writeLock): "StampedLock.*Lock" is a family, not a prefix.
		{"stampedlock write", parse.RuntimeJVM, thread("WAITING",
			"jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park",
			"java.util.concurrent.locks.StampedLock.acquireWrite", "java.util.concurrent.locks.StampedLock.writeLock",
			"com.example.Cache.put"), "lock-wait", ""},
		// A sleep inside a task is work (testdata/libs/jvm-task-sleep, JDK
		// 17); a thread of its own sleeping in its loop is at rest (the same
		// dump's poller).
		{"sleep inside a task", parse.RuntimeJVM, thread("TIMED_WAITING",
			"java.lang.Thread.sleep", "com.example.sleepy.SleepyApp.slowQuote", "java.util.concurrent.Executors$RunnableAdapter.call",
			"java.util.concurrent.FutureTask.run", "java.util.concurrent.ThreadPoolExecutor.runWorker",
			"java.util.concurrent.ThreadPoolExecutor$Worker.run", "java.lang.Thread.run"), "sleep", ""},
		{"sleep in its own loop", parse.RuntimeJVM, thread("TIMED_WAITING",
			"java.lang.Thread.sleep", "com.example.sleepy.SleepyApp.lambda$main$1", "java.lang.Thread.run"), "sleep", ""},
		// Tomcat Poller (JDK 17).
		{"tomcat poller", parse.RuntimeJVM, thread("RUNNABLE",
			"sun.nio.ch.EPoll.wait", "sun.nio.ch.EPollSelectorImpl.doSelect", "sun.nio.ch.SelectorImpl.lockAndDoSelect",
			"sun.nio.ch.SelectorImpl.select", "org.apache.tomcat.util.net.NioEndpoint$Poller.run"), "selector-wait", ""},
		// Tomcat Acceptor (JDK 17).
		{"tomcat acceptor", parse.RuntimeJVM, thread("RUNNABLE",
			"sun.nio.ch.Net.accept", "sun.nio.ch.ServerSocketChannelImpl.implAccept", "sun.nio.ch.ServerSocketChannelImpl.accept",
			"org.apache.tomcat.util.net.NioEndpoint.serverSocketAccept", "org.apache.tomcat.util.net.Acceptor.run"), "accept", ""},
		{"completablefuture get", parse.RuntimeJVM, thread("WAITING",
			"jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park",
			"java.util.concurrent.CompletableFuture$Signaller.block", "java.util.concurrent.ForkJoinPool.managedBlock",
			"java.util.concurrent.CompletableFuture.waitingGet", "java.util.concurrent.CompletableFuture.join",
			"com.example.shop.MyPageService.render"), "future-wait", ""},
		{"semaphore bulkhead", parse.RuntimeJVM, thread("TIMED_WAITING",
			"jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.parkNanos",
			"java.util.concurrent.locks.AbstractQueuedSynchronizer.acquire", "java.util.concurrent.locks.AbstractQueuedSynchronizer.tryAcquireSharedNanos",
			"java.util.concurrent.Semaphore.tryAcquire", "com.example.shop.Bulkhead.call"), "semaphore-wait", ""},
		// corpus: dumpdiff-gen jstack-l-reentrantlock-deadlock.
		{"reentrantlock", parse.RuntimeJVM, thread("WAITING",
			"jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park",
			"java.util.concurrent.locks.AbstractQueuedSynchronizer.acquire", "java.util.concurrent.locks.AbstractQueuedSynchronizer.acquire",
			"java.util.concurrent.locks.ReentrantLock$Sync.lock", "java.util.concurrent.locks.ReentrantLock.lock"), "lock-wait", ""},
		// A library's own lock by its structure: parked right under its
		// writeLock (judge4 10, IntelliJ's ReadMostlyRWLock in a CLion
		// freeze, JDK 8; testdata/verdicts/liblock-stuck, JDK 17).
		{"library writeLock", parse.RuntimeJVM, thread("TIMED_WAITING",
			"sun.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.parkNanos",
			"com.intellij.openapi.application.impl.ReadMostlyRWLock.writeLock", "com.intellij.openapi.application.impl.ApplicationImpl.runWriteAction"), "lock-wait", ""},
		// The same method name on a thread that runs in it is no wait.
		{"running in a lock method", parse.RuntimeJVM, thread("RUNNABLE",
			"com.example.SpinLock.lock", "com.example.Cache.put"), "running", ""},
		// A park under a Condition's await is no lock wait, whatever calls it.
		{"condition await under lock()", parse.RuntimeJVM, thread("WAITING",
			"jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park",
			"java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await", "com.example.Gate.lock"), "park", ""},
		// A ReentrantLock waiter whose frames above the park a paste cut
		// (judge4 12, JDK 21: "LockSupport.park(java.bas"): the Sync it parks
		// on says it.
		{"reentrantlock cut above the park", parse.RuntimeJVM, withLock(thread("WAITING", "jdk.internal.misc.Unsafe.park"),
			parse.Lock{Kind: parse.LockParking, Address: "0x0000000400a9eaf8", Class: "java.util.concurrent.locks.ReentrantLock$NonfairSync"}), "lock-wait", ""},
		{"condition cut above the park", parse.RuntimeJVM, withLock(thread("WAITING", "jdk.internal.misc.Unsafe.park"),
			parse.Lock{Kind: parse.LockParking, Address: "0x0000000400a9eb00", Class: "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject"}), "park", ""},
		{"blocking queue consumer", parse.RuntimeJVM, thread("WAITING",
			"jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park",
			"java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await", "java.util.concurrent.LinkedBlockingQueue.take",
			"com.example.Consumer.run"), "queue-wait", ""},
		// corpus: jstack-l-monitor-deadlock.
		{"monitor blocked", parse.RuntimeJVM, thread("BLOCKED", "corpusgen.Deadlock.lambda$main$0", "java.lang.Thread.run"), "monitor-blocked", ""},
		{"sleep", parse.RuntimeJVM, thread("TIMED_WAITING", "java.lang.Thread.sleep", "com.example.Poller.run"), "sleep", ""},
		{"file read", parse.RuntimeJVM, thread("RUNNABLE", "java.io.FileInputStream.readBytes", "java.io.FileInputStream.read",
			"java.io.BufferedInputStream.read1"), "file-read", ""},
		// corpus: Finalizer-like waits in application code.
		{"object wait", parse.RuntimeJVM, thread("WAITING", "java.lang.Object.wait", "java.lang.Object.wait", "com.example.Mailbox.take"), "object-wait", ""},
		{"bare park", parse.RuntimeJVM, thread("WAITING", "jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park",
			"com.example.Gate.await"), "park", ""},
		{"running", parse.RuntimeJVM, thread("RUNNABLE", "com.example.Hash.compute", "com.example.Worker.run"), "running", ""},
		{"jvm unknown", parse.RuntimeJVM, thread("WAITING", "com.example.Native.block"), "", ""},

		// Go 1.26.8 (testdata/scenarios/go-slow-upstream-leak/during-2.txt).
		{"go http client", parse.RuntimeGo, thread("select",
			"net/http.(*persistConn).roundTrip", "net/http.(*Transport).roundTrip", "net/http.(*Transport).RoundTrip", "net/http.send",
			"net/http.(*Client).send", "net/http.(*Client).do", "net/http.(*Client).Do", "net/http.(*Client).Get", "main.(*server).handleItems"),
			"http-client-wait", ""},
		{"go persistConn readLoop", parse.RuntimeGo, thread("IO wait", "internal/poll.runtime_pollWait", "internal/poll.(*pollDesc).wait",
			"internal/poll.(*pollDesc).waitRead", "internal/poll.(*FD).Read", "net.(*netFD).Read", "net.(*conn).Read",
			"net/http.(*persistConn).Read", "bufio.(*Reader).fill", "bufio.(*Reader).Peek", "net/http.(*persistConn).readLoop"), "http-conn-idle", ""},
		// testdata/verdicts/go-errgroup-stuck (x/sync v0.22.0): Go waits for a slot of SetLimit's limit;
		// the proto prints the runtime's send under it.
		{"go errgroup limit", parse.RuntimeGo, thread("chan send", "golang.org/x/sync/errgroup.(*Group).Go", "main.request", "main.startRequests.gowrap1"), "semaphore-wait", ""},
		{"go errgroup limit proto", parse.RuntimeGo, thread("", "runtime.gopark", "runtime.chansend", "runtime.chansend1", "golang.org/x/sync/errgroup.(*Group).Go", "main.request"), "semaphore-wait", ""},
		// testdata/verdicts/go-waits-bodies (Go 1.26 and 1.13): a connection whose response body is lent
		// to its caller, the readLoop waiting for it to be read or closed; its writeLoop is idle.
		{"go persistConn readLoop body lent", parse.RuntimeGo, thread("select", "net/http.(*persistConn).readLoop"), "http-body-wait", ""},
		{"go persistConn writeLoop", parse.RuntimeGo, thread("select", "net/http.(*persistConn).writeLoop"), "http-conn-idle", ""},
		// corpus go-profiler-notes go1.15.6 debug=1: a kept-alive server connection waiting for its next request.
		{"go server keep-alive", parse.RuntimeGo, thread("IO wait", "internal/poll.runtime_pollWait", "internal/poll.(*pollDesc).wait",
			"internal/poll.(*pollDesc).waitRead", "internal/poll.(*FD).Read", "net.(*netFD).Read", "net.(*conn).Read",
			"net/http.(*connReader).Read", "bufio.(*Reader).fill", "bufio.(*Reader).ReadSlice", "bufio.(*Reader).ReadLine",
			"net/textproto.(*Reader).readLineSlice", "net/textproto.(*Reader).ReadLine", "net/http.readRequest",
			"net/http.(*conn).readRequest", "net/http.(*conn).serve"), "http-conn-idle", ""},
		// Go 1.26.8 (testdata/scenarios/go-slow-upstream-leak/after-2.txt): the upstream's kept-alive connection.
		{"go server keep-alive 1.26", parse.RuntimeGo, thread("IO wait", "internal/poll.runtime_pollWait", "internal/poll.(*pollDesc).wait",
			"internal/poll.(*pollDesc).waitRead", "internal/poll.(*FD).Read", "net.(*netFD).Read", "net.(*conn).Read",
			"net/http.(*connReader).Read", "bufio.(*Reader).fill", "bufio.(*Reader).Peek", "net/http.(*conn).serve"), "http-conn-idle", ""},
		// testdata/verdicts/go-busy-healthy/2.txt.gz: the same, woken by its next request.
		{"go server keep-alive 1.26 runnable", parse.RuntimeGo, thread("runnable", "internal/poll.runtime_pollWait", "internal/poll.(*pollDesc).wait",
			"internal/poll.(*pollDesc).waitRead", "internal/poll.(*FD).Read", "net.(*netFD).Read", "net.(*conn).Read",
			"net/http.(*connReader).Read", "bufio.(*Reader).fill", "bufio.(*Reader).Peek", "net/http.(*conn).serve"), "http-conn-idle", ""},
		// Go 1.26 and 1.27.3 (testdata/verdicts/go-peerwaits-healthy/1.txt.gz,
		// -go127): the pprof request's background read, created, not yet run.
		{"go background read not yet run", parse.RuntimeGo, thread("runnable", "net/http.(*connReader).startBackgroundRead.gowrap2"), "http-conn-idle", ""},
		// Request/response clients' selects and receives (testdata/verdicts/go-calls-stuck*):
		// HTTP/2 round trips of Go 1.22.10, 1.26 and 1.27.3, the stream's writer, net/rpc's Call.
		{"go http2 round trip 1.22", parse.RuntimeGo, thread("select", "net/http.(*http2ClientConn).RoundTrip",
			"net/http.(*http2Transport).RoundTripOpt", "net/http.(*http2Transport).RoundTrip", "net/http.(*Transport).roundTrip",
			"net/http.(*Transport).RoundTrip", "net/http.send", "net/http.(*Client).send", "net/http.(*Client).do",
			"net/http.(*Client).Do", "net/http.(*Client).Get", "main.(*syncer).pull", "main.(*syncer).run"), "http-client-wait", "http-client"},
		{"go http2 round trip 1.26", parse.RuntimeGo, thread("select", "net/http.(*http2ClientConn).roundTrip",
			"net/http.(*http2ClientConn).RoundTrip", "net/http.(*http2Transport).RoundTripOpt", "main.(*syncer).pull"), "http-client-wait", ""},
		{"go http2 round trip 1.27", parse.RuntimeGo, thread("select", "net/http/internal/http2.(*ClientConn).roundTrip",
			"net/http/internal/http2.(*ClientConn).RoundTrip", "main.(*syncer).pull"), "http-client-wait", ""},
		{"go http2 stream writer 1.27", parse.RuntimeGo, thread("select", "net/http/internal/http2.(*clientStream).writeRequest",
			"net/http/internal/http2.(*clientStream).doRequest"), "http-client-wait", ""},
		{"go net/rpc call", parse.RuntimeGo, thread("chan receive", "net/rpc.(*Client).Call", "main.refresh"), "rpc-wait", "net/rpc"},
		// The HTTP/2 client connection's own read loop and net/rpc's input loop rest.
		{"go http2 client read loop", parse.RuntimeGo, thread("IO wait", "internal/poll.runtime_pollWait", "internal/poll.(*pollDesc).wait",
			"internal/poll.(*pollDesc).waitRead", "internal/poll.(*FD).Read", "net.(*netFD).Read", "net.(*conn).Read",
			"crypto/tls.(*atLeastReader).Read", "bytes.(*Buffer).ReadFrom", "crypto/tls.(*Conn).readFromUntil",
			"crypto/tls.(*Conn).readRecordOrCCS", "crypto/tls.(*Conn).readRecord", "crypto/tls.(*Conn).Read", "bufio.(*Reader).Read",
			"io.ReadAtLeast", "io.ReadFull", "net/http.http2readFrameHeader", "net/http.(*http2Framer).ReadFrame",
			"net/http.(*http2clientConnReadLoop).run", "net/http.(*http2ClientConn).readLoop"), "socket-read", ""},
		// A handler reading its request body is not idle.
		{"go handler reading body", parse.RuntimeGo, thread("IO wait", "internal/poll.runtime_pollWait", "internal/poll.(*pollDesc).wait",
			"internal/poll.(*FD).Read", "net.(*netFD).Read", "net.(*conn).Read", "net/http.(*connReader).Read", "bufio.(*Reader).Read",
			"net/http.(*body).Read", "io.ReadAll", "main.upload", "net/http.HandlerFunc.ServeHTTP", "net/http.serverHandler.ServeHTTP",
			"net/http.(*conn).serve"), "socket-read", ""},
		{"go accept", parse.RuntimeGo, thread("IO wait", "internal/poll.runtime_pollWait", "internal/poll.(*pollDesc).wait",
			"internal/poll.(*pollDesc).waitRead", "internal/poll.(*FD).Accept", "net.(*netFD).accept", "net.(*TCPListener).accept",
			"net.(*TCPListener).Accept", "net/http.(*Server).Serve"), "accept", ""},
		{"go socket read", parse.RuntimeGo, thread("IO wait", "internal/poll.runtime_pollWait", "internal/poll.(*pollDesc).wait",
			"internal/poll.(*pollDesc).waitRead", "internal/poll.(*FD).Read", "net.(*netFD).Read", "net.(*conn).Read",
			"github.com/lib/pq.(*conn).recv"), "socket-read", ""},
		{"go io wait on a pipe", parse.RuntimeGo, thread("IO wait", "internal/poll.runtime_pollWait", "internal/poll.(*pollDesc).wait",
			"internal/poll.(*FD).Read", "os.(*File).read"), "io-wait", ""},
		{"go chan send leak", parse.RuntimeGo, thread("chan send", "main.(*server).handleSearch.func1"), "chan-send", ""},
		{"go chan receive", parse.RuntimeGo, thread("chan receive", "main.main"), "chan-receive", ""},
		// hashicorp/consul#2107's goroutine 25, vendored; and a proto's
		// runtime frames above a smux stream's Cond wait.
		{"go yamux stream read", parse.RuntimeGo, thread("select", "github.com/hashicorp/consul/vendor/github.com/hashicorp/yamux.(*Stream).Read",
			"bufio.(*Reader).fill", "bufio.(*Reader).ReadByte", "github.com/hashicorp/consul/vendor/github.com/hashicorp/go-msgpack/codec.(*ioDecReader).readn1"), "stream-read", ""},
		{"go smux stream read proto", parse.RuntimeGo, thread("", "runtime.gopark", "runtime.selectgo", "github.com/xtaci/smux.(*Stream).Read", "main.pump"), "stream-read", ""},
		{"go select no cases", parse.RuntimeGo, thread("select (no cases)", "main.blockForever"), "select", ""},
		// Go 1.26 prints the wait reason "sync.Mutex.Lock"; older Go printed "semacquire".
		{"go mutex", parse.RuntimeGo, thread("sync.Mutex.Lock", "internal/sync.runtime_SemacquireMutex",
			"internal/sync.(*Mutex).lockSlow", "internal/sync.(*Mutex).Lock", "sync.(*Mutex).Lock", "main.worker"), "mutex-wait", ""},
		{"go mutex old semacquire", parse.RuntimeGo, thread("semacquire", "sync.runtime_SemacquireMutex",
			"sync.(*Mutex).lockSlow", "sync.(*Mutex).Lock", "main.worker"), "mutex-wait", ""},
		{"go rwmutex", parse.RuntimeGo, thread("sync.RWMutex.RLock", "sync.runtime_SemacquireRWMutexR", "sync.(*RWMutex).RLock", "main.reader"), "rwmutex-wait", ""},
		{"go cond", parse.RuntimeGo, thread("sync.Cond.Wait", "sync.runtime_notifyListWait", "sync.(*Cond).Wait", "main.waiter"), "cond-wait", ""},
		{"go waitgroup", parse.RuntimeGo, thread("sync.WaitGroup.Wait", "sync.runtime_SemacquireWaitGroup", "sync.(*WaitGroup).Wait", "main.main"), "waitgroup-wait", ""},
		// Go 1.13.15 (run here: GOTOOLCHAIN=go1.13.15): every sync wait is
		// "semacquire"; the frames tell RWMutex.RLock (over
		// runtime_SemacquireMutex in 1.13) and WaitGroup.Wait apart.
		{"go1.13 rwmutex rlock", parse.RuntimeGo, thread("semacquire", "sync.runtime_SemacquireMutex", "sync.(*RWMutex).RLock", "main.main.func2"), "rwmutex-wait", ""},
		{"go1.13 waitgroup", parse.RuntimeGo, thread("semacquire", "sync.runtime_Semacquire", "sync.(*WaitGroup).Wait", "main.main.func3"), "waitgroup-wait", ""},
		// Go 1.4 era (cyfdecyf/cow#423, public): RLock on top, the
		// semaphore frame not printed.
		{"go1.4 rwmutex rlock", parse.RuntimeGo, thread("semacquire", "sync.(*RWMutex).RLock", "main.(*SiteStat).get", "main.(*SiteStat).GetVisitCnt"), "rwmutex-wait", ""},
		// gVisor's fork of sync (pkg/sync copies RWMutex and links to
		// sync.runtime_Semacquire): frames from syzkaller's public test data
		// of a gVisor stuck-task report. The fork's package is the via.
		{"gvisor fork rwmutex rlock", parse.RuntimeGo, thread("semacquire", "sync.runtime_Semacquire",
			"gvisor.dev/gvisor/pkg/sync.(*CrossGoroutineRWMutex).RLock", "gvisor.dev/gvisor/pkg/sync.(*RWMutex).RLock",
			"gvisor.dev/gvisor/pkg/sentry/kernel.(*Task).doSyscall"), "rwmutex-wait", "gvisor.dev/gvisor/pkg/sync"},
		// The same fork in a proto: the runtime's frames, no wait reason.
		{"gvisor fork rwmutex proto", parse.RuntimeGo, thread("", "runtime.gopark", "runtime.goparkunlock", "runtime.semacquire1",
			"sync.runtime_Semacquire", "gvisor.dev/gvisor/pkg/sync.(*CrossGoroutineRWMutex).RLock"), "rwmutex-wait", "gvisor.dev/gvisor/pkg/sync"},
		// A package's own Mutex made of a channel waits in a chan receive:
		// no semaphore, so the fork rows leave it to the chan row.
		{"channel mutex is a chan receive", parse.RuntimeGo, thread("chan receive", "example.com/chanlock.(*Mutex).Lock", "main.worker"), "chan-receive", ""},
		// grpc-go stream reads: dagger's public SIGQUIT dump (grpc 1.63.2,
		// [select]: its frames to recvMsg, then grpc 1.63's own call path to
		// RecvMsg), Kubernetes' vendored grpc of 2017 (grpc/transport,
		// [select, 10 minutes], as printed); the server's side of a stream
		// (cockroachdb's vendored grpc: its frames to recvMsg, then the
		// server's path to handleStream) stays a select.
		{"grpc stream read 1.63", parse.RuntimeGo, thread("select",
			"google.golang.org/grpc/internal/transport.(*recvBufferReader).readClient", "google.golang.org/grpc/internal/transport.(*recvBufferReader).Read",
			"google.golang.org/grpc/internal/transport.(*transportReader).Read", "io.ReadAtLeast", "io.ReadFull",
			"google.golang.org/grpc/internal/transport.(*Stream).Read", "google.golang.org/grpc.(*parser).recvMsg",
			"google.golang.org/grpc.recvAndDecompress", "google.golang.org/grpc.recv", "google.golang.org/grpc.(*csAttempt).recvMsg",
			"google.golang.org/grpc.(*clientStream).RecvMsg"), "grpc-wait", ""},
		{"grpc stream read vendored 2017", parse.RuntimeGo, thread("select",
			"k8s.io/kubernetes/vendor/google.golang.org/grpc/transport.(*recvBufferReader).Read", "k8s.io/kubernetes/vendor/google.golang.org/grpc/transport.(*Stream).Read",
			"io.ReadAtLeast", "io.ReadFull", "k8s.io/kubernetes/vendor/google.golang.org/grpc.(*parser).recvMsg"), "grpc-wait", ""},
		{"grpc server stream read", parse.RuntimeGo, thread("select",
			"github.com/cockroachdb/cockroach/vendor/google.golang.org/grpc/transport.(*recvBufferReader).read",
			"github.com/cockroachdb/cockroach/vendor/google.golang.org/grpc/transport.(*recvBufferReader).Read",
			"github.com/cockroachdb/cockroach/vendor/google.golang.org/grpc/transport.(*transportReader).Read", "io.ReadAtLeast", "io.ReadFull",
			"github.com/cockroachdb/cockroach/vendor/google.golang.org/grpc.(*parser).recvMsg",
			"github.com/cockroachdb/cockroach/vendor/google.golang.org/grpc.(*serverStream).RecvMsg",
			"github.com/cockroachdb/cockroach/vendor/google.golang.org/grpc.(*Server).processStreamingRPC",
			"github.com/cockroachdb/cockroach/vendor/google.golang.org/grpc.(*Server).handleStream"), "select", ""},
		// An idle kept-alive server connection, older Go: DSiSc/justitia#63
		// (public, [IO wait, 1129 minutes], Peek under readRequest).
		{"go http keep-alive old", parse.RuntimeGo, thread("IO wait",
			"internal/poll.runtime_pollWait", "internal/poll.(*pollDesc).wait", "internal/poll.(*pollDesc).waitRead",
			"internal/poll.(*FD).Read", "net.(*netFD).Read", "net.(*conn).Read", "net/http.(*connReader).Read",
			"bufio.(*Reader).fill", "bufio.(*Reader).Peek", "net/http.(*conn).readRequest", "net/http.(*conn).serve"), "http-conn-idle", ""},
		{"go sleep", parse.RuntimeGo, thread("sleep", "time.Sleep", "main.slowUpstream"), "sleep", ""},
		// golang.org/x/sync v0.22.0's Weighted.Acquire waiting in its own
		// select (testdata/verdicts/go-semaphore-stuck, Go 1.26).
		{"go x/sync semaphore", parse.RuntimeGo, thread("select", "golang.org/x/sync/semaphore.(*Weighted).Acquire", "main.export"), "semaphore-wait", ""},
		{"go x/sync semaphore, proto frames", parse.RuntimeGo, thread("", "runtime.gopark", "runtime.selectgo", "golang.org/x/sync/semaphore.(*Weighted).Acquire", "main.export"), "semaphore-wait", ""},
		{"go syscall", parse.RuntimeGo, thread("syscall", "syscall.Syscall", "os.(*File).Read"), "syscall", ""},
		// A cgo call (testdata/verdicts/go-cgo-*, Go 1.26 and 1.13.15):
		// debug=2 prints "[syscall]" over the _Cfunc_ wrapper, debug=1 no
		// state (runtime.cgocall hidden), the proto keeps runtime.cgocall.
		{"go cgo call debug2", parse.RuntimeGo, thread("syscall", "main._Cfunc_output", "main.blocked"), "cgo-call", ""},
		{"go cgo call debug1", parse.RuntimeGo, thread("", "main._Cfunc_output", "main.blocked"), "cgo-call", ""},
		{"go cgo call proto", parse.RuntimeGo, thread("", "runtime.cgocall", "main._Cfunc_output", "main.blocked"), "cgo-call", ""},
		// A file's fsync: Go 1.26 (a loop writing and syncing a file on
		// /work, its own debug=2 dump) and dockerd 17.03's Go 1.7
		// (moby/moby#32809, "runnable" as the syscall returns).
		{"go fsync 1.26", parse.RuntimeGo, thread("syscall", "syscall.Syscall", "syscall.Fsync", "internal/poll.(*FD).Fsync.func1",
			"internal/poll.ignoringEINTR", "internal/poll.(*FD).Fsync", "os.(*File).Sync", "main.main.func1"), "file-sync", ""},
		{"go fsync old", parse.RuntimeGo, thread("runnable", "syscall.Syscall", "syscall.Fsync", "os.(*File).Sync",
			"github.com/docker/docker/pkg/ioutils.(*atomicFileWriter).Close", "github.com/docker/docker/container.(*Container).ToDisk"), "file-sync", ""},
		// Name lookups and UDP receives (issue 33; testdata/verdicts/
		// client-waits-stuck, nightly-jobs-stuck: JDK 17.0.15; go-lookups-stuck:
		// Go 1.26.8).
		{"jvm dns lookup InetAddress", parse.RuntimeJVM, thread("RUNNABLE", "java.net.Inet6AddressImpl.lookupAllHostAddr",
			"java.net.InetAddress$PlatformNameService.lookupAllHostAddr", "java.net.InetAddress.getAddressesFromNameService",
			"java.net.InetAddress$NameServiceAddresses.get", "java.net.InetAddress.getAllByName0", "java.net.InetAddress.getAllByName",
			"java.net.InetAddress.getAllByName", "java.net.InetAddress.getByName", "com.example.clients.NightlyJobsApp$Resolve.once"), "dns-lookup", ""},
		{"jvm dns lookup JNDI", parse.RuntimeJVM, thread("RUNNABLE", "sun.nio.ch.Net.poll", "sun.nio.ch.SelChImpl.park",
			"sun.nio.ch.DatagramChannelImpl.trustedBlockingReceive", "sun.nio.ch.DatagramChannelImpl.blockingReceive",
			"sun.nio.ch.DatagramSocketAdaptor.receive", "java.net.DatagramSocket.receive", "com.sun.jndi.dns.DnsClient.doUdpQuery",
			"com.sun.jndi.dns.DnsClient.query", "com.sun.jndi.dns.Resolver.query", "com.example.clients.ClientWaitsApp$Lookup.address"), "dns-lookup", ""},
		{"jvm udp receive", parse.RuntimeJVM, thread("RUNNABLE", "sun.nio.ch.Net.poll", "sun.nio.ch.SelChImpl.park",
			"sun.nio.ch.DatagramChannelImpl.trustedBlockingReceive", "sun.nio.ch.DatagramChannelImpl.blockingReceive",
			"sun.nio.ch.DatagramSocketAdaptor.receive", "java.net.DatagramSocket.receive", "com.example.clients.NightlyJobsApp.lambda$listener$2",
			"java.lang.Thread.run"), "udp-receive", ""},
		{"go dns lookup caller", parse.RuntimeGo, thread("chan receive", "net.(*Resolver).goLookupIPCNAMEOrder.func4",
			"net.(*Resolver).goLookupIPCNAMEOrder", "net.(*Resolver).goLookupHostOrder", "net.(*Resolver).lookupHost",
			"net.(*Resolver).LookupHost", "main.lookup", "main.refresh"), "dns-lookup", ""},
		{"go dns lookup cgo", parse.RuntimeGo, thread("syscall", "net._C2func_getaddrinfo", "net._C_getaddrinfo.func1", "net._C_getaddrinfo",
			"net.cgoLookupHostIP", "net.cgoLookupIP.func1", "net.doBlockingWithCtx[...]", "net.cgoLookupIP", "net.cgoLookupHost",
			"net.(*Resolver).lookupHost", "net.(*Resolver).LookupHost", "main.lookup", "main.refresh"), "dns-lookup", ""},
		// JDK 17.0.15, producers in a full ArrayBlockingQueue's put under
		// an executor (testdata/verdicts/task-wait-stuck).
		{"jvm queue put", parse.RuntimeJVM, thread("WAITING", "jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park",
			"java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionNode.block", "java.util.concurrent.ForkJoinPool.unmanagedBlock",
			"java.util.concurrent.ForkJoinPool.managedBlock", "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await",
			"java.util.concurrent.ArrayBlockingQueue.put", "com.example.pools.EventPublisher.publish"), "queue-put", ""},
		// JDK 17.0.15, a pipe's own wait/notify and embedded databases'
		// row locks (testdata/verdicts/handoff-{stuck,healthy}: H2 2.1.214,
		// Derby 10.14.2).
		{"jvm socket write jdk17 blocking", parse.RuntimeJVM, thread("RUNNABLE", "sun.nio.ch.FileDispatcherImpl.write0",
			"sun.nio.ch.SocketDispatcher.write", "sun.nio.ch.NioSocketImpl.tryWrite", "sun.nio.ch.NioSocketImpl.implWrite",
			"sun.nio.ch.NioSocketImpl.write", "sun.nio.ch.NioSocketImpl$2.write", "java.net.Socket$SocketOutputStream.write",
			"java.io.OutputStream.write", "ch.qos.logback.core.OutputStreamAppender.writeBytes"), "socket-write", ""},
		{"jvm pipe write", parse.RuntimeJVM, thread("TIMED_WAITING", "java.lang.Object.wait", "java.io.PipedInputStream.awaitSpace",
			"java.io.PipedInputStream.receive", "java.io.PipedOutputStream.write", "java.io.OutputStream.write",
			"com.example.handoff.HandoffApp$ReportExporter.export"), "pipe-write", ""},
		{"jvm pipe read", parse.RuntimeJVM, thread("TIMED_WAITING", "java.lang.Object.wait", "java.io.PipedInputStream.read",
			"java.io.PipedInputStream.read", "java.io.InputStream.read", "com.example.handoff.HandoffApp.lambda$main$9"), "pipe-read", ""},
		{"jvm h2 row lock", parse.RuntimeJVM, thread("TIMED_WAITING", "java.lang.Object.wait", "org.h2.mvstore.tx.Transaction.waitForThisToEnd",
			"org.h2.mvstore.tx.Transaction.waitFor", "org.h2.mvstore.tx.TransactionMap.set", "org.h2.mvstore.tx.TransactionMap.lock",
			"org.h2.mvstore.db.MVPrimaryIndex.lockRow", "org.h2.mvstore.db.MVTable.lockRow", "org.h2.command.dml.Update.update"), "db-row-lock", ""},
		{"jvm derby row lock", parse.RuntimeJVM, thread("TIMED_WAITING", "java.lang.Object.wait", "org.apache.derby.impl.services.locks.ActiveLock.waitForGrant",
			"org.apache.derby.impl.services.locks.ConcurrentLockSet.lockObject", "org.apache.derby.impl.services.locks.AbstractPool.lockObject",
			"org.apache.derby.impl.store.raw.xact.RowLocking3.lockRecordForWrite"), "db-row-lock", ""},
		// JDK 17.0.15, hand-offs with nobody on the other side (a program
		// run here: SynchronousQueue put and timed offer, transfer, exchange).
		{"jvm synchronous put", parse.RuntimeJVM, thread("WAITING", "jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park",
			"java.util.concurrent.SynchronousQueue$TransferStack$SNode.block", "java.util.concurrent.ForkJoinPool.unmanagedBlock",
			"java.util.concurrent.ForkJoinPool.managedBlock", "java.util.concurrent.SynchronousQueue$TransferStack.transfer",
			"java.util.concurrent.SynchronousQueue.put", "Handoff.lambda$main$0"), "handoff-wait", ""},
		{"jvm synchronous offer", parse.RuntimeJVM, thread("TIMED_WAITING", "jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.parkNanos",
			"java.util.concurrent.SynchronousQueue$TransferStack.transfer", "java.util.concurrent.SynchronousQueue.offer", "Handoff.lambda$main$1"), "handoff-wait", ""},
		{"jvm transfer", parse.RuntimeJVM, thread("WAITING", "jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park",
			"java.util.concurrent.LinkedTransferQueue$Node.block", "java.util.concurrent.ForkJoinPool.unmanagedBlock",
			"java.util.concurrent.ForkJoinPool.managedBlock", "java.util.concurrent.LinkedTransferQueue.awaitMatch",
			"java.util.concurrent.LinkedTransferQueue.xfer", "java.util.concurrent.LinkedTransferQueue.transfer", "Handoff.lambda$main$2"), "handoff-wait", ""},
		{"jvm exchanger", parse.RuntimeJVM, thread("WAITING", "jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park",
			"java.util.concurrent.Exchanger.slotExchange", "java.util.concurrent.Exchanger.exchange", "Handoff.lambda$main$3"), "handoff-wait", ""},
		// JDK 17.0.15: a client's select for its reply inside a request task
		// (testdata/verdicts/rpc-select-stuck) waits for a peer; Jetty's own
		// selector, a job of its pool (testdata/libs/jvm-jetty-idle), rests.
		{"jvm select in a task", parse.RuntimeJVM, thread("RUNNABLE", "sun.nio.ch.EPoll.wait", "sun.nio.ch.EPollSelectorImpl.doSelect",
			"sun.nio.ch.SelectorImpl.lockAndDoSelect", "sun.nio.ch.SelectorImpl.select", "com.example.pools.RpcClient.call",
			"com.example.pools.QuoteService.quote", "com.example.pools.RpcApp.lambda$main$4", "java.util.concurrent.FutureTask.run",
			"java.util.concurrent.ThreadPoolExecutor.runWorker"), "selector-reply-wait", ""},
		{"jvm jetty selector job", parse.RuntimeJVM, thread("RUNNABLE", "sun.nio.ch.EPoll.wait", "sun.nio.ch.EPollSelectorImpl.doSelect",
			"sun.nio.ch.SelectorImpl.lockAndDoSelect", "sun.nio.ch.SelectorImpl.select", "org.eclipse.jetty.io.ManagedSelector.nioSelect",
			"org.eclipse.jetty.io.ManagedSelector.select", "org.eclipse.jetty.io.ManagedSelector$SelectorProducer.select",
			"org.eclipse.jetty.util.thread.strategy.EatWhatYouKill.produce", "org.eclipse.jetty.util.thread.QueuedThreadPool.runJob",
			"org.eclipse.jetty.util.thread.QueuedThreadPool$Runner.run", "java.lang.Thread.run"), "selector-wait", ""},
		// A bare park inside an executor's task is the task's wait, named by
		// its first caller outside the JDK (task-wait-stuck's uploads).
		{"jvm park in a task", parse.RuntimeJVM, thread("WAITING", "jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park",
			"java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionNode.block", "java.util.concurrent.ForkJoinPool.unmanagedBlock",
			"java.util.concurrent.ForkJoinPool.managedBlock", "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.awaitUninterruptibly",
			"com.example.pools.BlockingCallback.block", "com.example.pools.ResponseWriter.close", "com.example.pools.TaskWaitApp.lambda$main$1",
			"java.util.concurrent.FutureTask.run", "java.util.concurrent.ThreadPoolExecutor.runWorker"), "park", "com.example.pools.BlockingCallback.block"},
		// JDK 25, an unmounted virtual thread parked by LockSupport.park
		// with nothing known above (jdk25-lock-owners' frames, the lock
		// frames taken off).
		{"jvm virtual park", parse.RuntimeJVM, thread("WAITING", "java.lang.VirtualThread.park", "java.lang.System$1.parkVirtualThread",
			"java.util.concurrent.locks.LockSupport.park", "Virtual.lambda$main$2", "java.util.concurrent.FutureTask.run",
			"java.util.concurrent.ThreadPerTaskExecutor$ThreadBoundFuture.run", "java.lang.VirtualThread.run"), "park", ""},
		{"go running", parse.RuntimeGo, thread("running", "main.spin", "main.main"), "running", ""},
		{"go runtime", parse.RuntimeGo, thread("GC worker (idle)", "runtime.gcBgMarkWorker"), "runtime", ""},
		{"go unknown", parse.RuntimeGo, thread("debug call", "main.x"), "", ""},
	}
	covered := map[string]bool{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := classify(tt.rt, tt.thread)
			got := ""
			if s != nil {
				got = s.ID
				covered[string(tt.rt)+"/"+s.ID] = true
			}
			if got != tt.want {
				t.Errorf("classify = %q, want %q", got, tt.want)
			}
			if v, _, _ := viaFor(signatures, s, tt.thread); tt.wantVia != "" && v != tt.wantVia {
				t.Errorf("via = %q, want %q", v, tt.wantVia)
			}
		})
	}
	// Rows tested on whole real dumps of the libraries (libraries_test.go)
	// count too.
	for _, c := range libraryCases {
		covered[string(c.rt)+"/"+c.state] = true
	}
	for _, s := range signatures {
		if !covered[string(s.Runtime)+"/"+s.ID] {
			t.Errorf("signature %s/%s has no test case", s.Runtime, s.ID)
		}
	}
}

func TestJVMPoolPattern(t *testing.T) {
	for name, want := range map[string]string{
		"http-nio-8080-exec-17":            "http-nio-8080-exec-*",
		"pool-3-thread-5":                  "pool-3-thread-*",
		"ForkJoinPool.commonPool-worker-3": "ForkJoinPool.commonPool-worker-*",
		"Thread-12":                        "Thread-*",
		"HikariPool-1 housekeeper":         "HikariPool-1 housekeeper",
		"mypage-70":                        "mypage-*",
		"main":                             "main",
		"42":                               "42",
	} {
		if got := jvmPoolPattern(name); got != want {
			t.Errorf("jvmPoolPattern(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestIsAppFrame(t *testing.T) {
	for _, tt := range []struct {
		rt   parse.Runtime
		fn   string
		want bool
	}{
		{parse.RuntimeJVM, "com.example.shop.UpstreamClient.fetch", true},
		{parse.RuntimeJVM, "sun.nio.ch.Net.poll", false},
		{parse.RuntimeJVM, "org.apache.catalina.core.ApplicationFilterChain.doFilter", false},
		{parse.RuntimeJVM, "com.zaxxer.hikari.pool.HikariPool.getConnection", false},
		{parse.RuntimeGo, "main.(*server).handleItems", true},
		{parse.RuntimeGo, "net/http.(*Client).Get", false},
		{parse.RuntimeGo, "runtime.gopark", false},
		{parse.RuntimeGo, "github.com/acme/api.(*Handler).ServeHTTP", true},
		{parse.RuntimeGo, "golang.org/x/net/http2.(*ClientConn).RoundTrip", false},
		{parse.RuntimeGo, "command-line-arguments.(*Stopper).Stop", true}, // go test file_test.go (GoBench)
		{parse.RuntimeGo, "stoptest.(*stopper).stop", true},               // a dotless module: the application's (goStdTop)
		{parse.RuntimeGo, "example/app/internal/batch.RunBatch.func1", true},
		{parse.RuntimeGo, "vendor/golang.org/x/net/http2/hpack.(*Decoder).Write", false}, // the standard library's own copy
	} {
		if got := isAppFrame(tt.rt, &parse.Frame{Func: tt.fn}); got != tt.want {
			t.Errorf("isAppFrame(%s, %q) = %v, want %v", tt.rt, tt.fn, got, tt.want)
		}
	}
}

func TestLabelFromFile(t *testing.T) {
	for name, want := range map[string]string{
		"dumps/before.txt":     "before",
		"during-1.txt.gz":      "during-1",
		"after.pb.gz":          "after",
		"jstack.1":             "jstack.1",
		"jstack.2.txt":         "jstack.2",
		"threads.10.15.00.log": "threads.10.15.00",
		"catalina.out":         "catalina",
		"-":                    "stdin",
		".txt":                 ".txt",
	} {
		if got := LabelFromFile(name); got != want {
			t.Errorf("LabelFromFile(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestGoPool: goroutines are pooled by creator; goroutine 1 is main
// whatever its stack's bottom shows; generic creators are one pool in
// every encoding; without a creator's function, by the entry frame, or
// above a runtime entry the program's own outermost frame.
func TestGoPool(t *testing.T) {
	tests := []struct {
		name string
		t    *parse.Thread
		want string
	}{
		{"main by id, elided stack", &parse.Thread{ID: 1, Frames: []*parse.Frame{{Func: "main.deep"}}}, "main"},
		{"main at the bottom", &parse.Thread{ID: 7, Frames: []*parse.Frame{{Func: "main.wait"}, {Func: "main.main"}}}, "main"},
		{"test binary's main goroutine", &parse.Thread{ID: 1, Frames: []*parse.Frame{{Func: "testing.(*M).Run"}}}, "main"},
		{"creator", &parse.Thread{ID: 9, CreatedBy: &parse.Creator{Func: "main.startWorkers"}}, "main.startWorkers"},
		{"generic creator, debug=2", &parse.Thread{ID: 9, CreatedBy: &parse.Creator{Func: "main.startPool[...]"}}, "main.startPool[...]"},
		{"generic entry, proto", &parse.Thread{Frames: []*parse.Frame{{Func: "main.worker[go.shape.string]"}}}, "main.worker[...]"},
		{"runtime", &parse.Thread{ID: 2, Frames: []*parse.Frame{{Func: "runtime.forcegchelper"}}}, "runtime"},
		// go pprof.Do(ctx, labels, f) in CockroachDB's debug=3 (its creator
		// known by id only) or a debug=1 profile: the program's, not the
		// runtime's (testdata/formats/cockroach-go-debug3.pb.gz).
		{"entered at runtime/pprof.Do, creator by id", &parse.Thread{ID: 22, CreatedBy: &parse.Creator{Parent: 12},
			Frames: []*parse.Frame{{Func: "runtime.gopark"}, {Func: "runtime.block"}, {Func: "main.fetch"},
				{Func: "main.fanout.func1"}, {Func: "runtime/pprof.Do"}}}, "main.fanout.func1"},
		{"the runtime's throughout, entered at runtime/pprof", &parse.Thread{ID: 5,
			Frames: []*parse.Frame{{Func: "runtime.gopark"}, {Func: "runtime/pprof.profileWriter"}}}, "runtime"},
	}
	for _, tt := range tests {
		got, _ := goPool(tt.t, Options{})
		if got != tt.want {
			t.Errorf("%s: pool %q, want %q", tt.name, got, tt.want)
		}
	}
}

// Waits the table does not name are rests in a thread's own loop and the
// task's wait inside a pool's task (issue 33: "waits by structure"): a
// bare park, an Object.wait, a latch.
func TestUnnamedWaitInsideATask(t *testing.T) {
	tail := []string{"java.util.concurrent.FutureTask.run", "java.util.concurrent.ThreadPoolExecutor.runWorker",
		"java.util.concurrent.ThreadPoolExecutor$Worker.run", "java.lang.Thread.run"}
	for _, c := range []struct {
		name   string
		top    []string
		state  string
		caller string
	}{
		{"park", []string{"jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park",
			"org.eclipse.jetty.util.SharedBlockingCallback$Blocker.block", "org.eclipse.jetty.server.HttpOutput.close"}, "park",
			"org.eclipse.jetty.util.SharedBlockingCallback$Blocker.block"},
		{"object wait", []string{"java.lang.Object.wait", "com.example.Pipe.read"}, "object-wait", "com.example.Pipe.read"},
		{"latch", []string{"jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park",
			"java.util.concurrent.CyclicBarrier.dowait", "java.util.concurrent.CyclicBarrier.await", "com.example.BatchJob.run"}, "latch-wait", "com.example.BatchJob.run"},
	} {
		own := thread("WAITING", append(append([]string{}, c.top...), "com.example.Main.loop", "java.lang.Thread.run")...)
		task := thread("WAITING", append(append([]string{}, c.top...), tail...)...)
		for _, x := range []struct {
			th       *parse.Thread
			via      string
			wantRest bool
		}{{own, "", true}, {task, c.caller, false}} {
			s := classify(parse.RuntimeJVM, x.th)
			if s == nil || s.ID != c.state {
				t.Fatalf("%s: classified %+v, want %s", c.name, s, c.state)
			}
			via, _, rest := viaFor(signatures, s, x.th)
			if rest != x.wantRest || x.via != "" && via != x.via {
				t.Errorf("%s (in a task: %v): via %q rest %v, want %q %v", c.name, !x.wantRest, via, rest, x.via, x.wantRest)
			}
		}
	}
}

// A sleep inside a task is a wait that is not a rest (saturated and stuck
// count it); in a thread's own loop it is idle (testdata/libs/jvm-task-sleep).
func TestSleepInsideATaskIsWork(t *testing.T) {
	inTask := classify(parse.RuntimeJVM, thread("TIMED_WAITING", "java.lang.Thread.sleep", "com.example.sleepy.SleepyApp.slowQuote",
		"java.util.concurrent.Executors$RunnableAdapter.call", "java.util.concurrent.FutureTask.run",
		"java.util.concurrent.ThreadPoolExecutor.runWorker", "java.util.concurrent.ThreadPoolExecutor$Worker.run"))
	ownLoop := classify(parse.RuntimeJVM, thread("TIMED_WAITING", "java.lang.Thread.sleep", "com.example.sleepy.SleepyApp.lambda$main$1", "java.lang.Thread.run"))
	if inTask == nil || inTask.Category != Waiting || inTask.Rest {
		t.Errorf("a sleep inside a task: %+v, want a wait that is not a rest", inTask)
	}
	if ownLoop == nil || ownLoop.Category != Idle {
		t.Errorf("a sleep in its own loop: %+v, want idle", ownLoop)
	}
}

// withLock gives t (a JVM thread) lock line l.
func withLock(t *parse.Thread, l parse.Lock) *parse.Thread {
	if t.JVM == nil {
		t.JVM = &parse.JVM{}
	}
	t.JVM.Locks = append(t.JVM.Locks, l)
	return t
}
