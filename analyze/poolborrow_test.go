package analyze

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestPoolBorrowRows checks the structural borrow rows on stacks from
// public dumps and from the pools' sources, and on the stacks that look
// alike but are no wait for a pool's item (a thread pool's rest, an item
// being created inside the borrow, a borrow that is not waiting).
func TestPoolBorrowRows(t *testing.T) {
	jdk8Park := []string{"sun.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park",
		"java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await"}
	tests := []struct {
		name     string
		thread   *parse.Thread
		want     string // the row's id; "" for a row that is no structural one
		wantPool string // borrowPool
	}{
		// Tomcat's repackaged DBCP 1.x (tomcat-dbcp of Tomcat 7), a
		// request thread in the latch's Object.wait: public jstack output in
		// geonetwork/core-geonetwork issue #664 (JDK 7).
		{"tomcat-dbcp 1.x latch", thread("WAITING", "java.lang.Object.wait", "java.lang.Object.wait",
			"org.apache.tomcat.dbcp.pool.impl.GenericObjectPool.borrowObject", "org.apache.tomcat.dbcp.dbcp.PoolingDataSource.getConnection",
			"org.apache.tomcat.dbcp.dbcp.BasicDataSource.getConnection", "jeeves.resources.dbms.Dbms.connect"),
			"db-pool-wait", "org.apache.tomcat.dbcp.pool.impl.GenericObjectPool"},
		// Tomcat 8's repackaged pool2 under its DBCP2 in a Quartz job:
		// dotCMS/core issue #9156 (the borrow and its callers as printed;
		// the deque and park above it as every pool2 borrow has them).
		{"tomcat-dbcp pool2", thread("WAITING", append(jdk8Park,
			"org.apache.tomcat.dbcp.pool2.impl.LinkedBlockingDeque.takeFirst", "org.apache.tomcat.dbcp.pool2.impl.GenericObjectPool.borrowObject",
			"org.apache.tomcat.dbcp.dbcp2.PoolingDataSource.getConnection", "org.apache.tomcat.dbcp.dbcp2.BasicDataSource.getConnection",
			"com.dotmarketing.db.DbConnectionFactory.getConnection")...),
			"db-pool-wait", "org.apache.tomcat.dbcp.pool2.impl.GenericObjectPool"},
		// c3p0 0.9.1.2 under Hibernate: swaldman/c3p0 issue #53. The c3p0 row
		// names it first; the structure finds the same pool.
		{"c3p0 checkout", thread("WAITING", "java.lang.Object.wait", "com.mchange.v2.resourcepool.BasicResourcePool.awaitAvailable",
			"com.mchange.v2.resourcepool.BasicResourcePool.prelimCheckoutResource", "com.mchange.v2.resourcepool.BasicResourcePool.checkoutResource",
			"com.mchange.v2.c3p0.impl.C3P0PooledConnectionPool.checkoutPooledConnection",
			"com.mchange.v2.c3p0.impl.AbstractPoolBackedDataSource.getConnection", "org.hibernate.connection.C3P0ConnectionProvider.getConnection"),
			"", "com.mchange.v2.resourcepool.BasicResourcePool"},
		// Jedis on commons-pool2: redis/jedis issue #2200 (the named row
		// first; the structure's Redis row would say the same).
		{"jedis", thread("WAITING", append(jdk8Park, "org.apache.commons.pool2.impl.LinkedBlockingDeque.takeFirst",
			"org.apache.commons.pool2.impl.GenericObjectPool.borrowObject", "redis.clients.util.Pool.getResource",
			"redis.clients.jedis.JedisPool.getResource")...), "", "org.apache.commons.pool2.impl.GenericObjectPool"},
		// MongoDB's Java driver 4.x checks a connection out of its
		// ConcurrentPool (get → acquirePermit, a Condition's await): the
		// method names of driver-core's DefaultConnectionPool.java and
		// ConcurrentPool.java (mongodb/mongo-java-driver, 4.3+).
		{"mongodb checkout", thread("TIMED_WAITING", "jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.parkNanos",
			"java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.awaitNanos",
			"com.mongodb.internal.connection.ConcurrentPool$StateAndPermits.acquirePermit",
			"com.mongodb.internal.connection.ConcurrentPool.acquirePermit", "com.mongodb.internal.connection.ConcurrentPool.get",
			"com.mongodb.internal.connection.DefaultConnectionPool.getPooledConnection", "com.mongodb.internal.connection.DefaultConnectionPool.get",
			"com.mongodb.internal.connection.DefaultServer.getConnection"),
			"db-pool-wait", "com.mongodb.internal.connection.ConcurrentPool$StateAndPermits"},
		// A relocated pool2 lending objects, no JDBC: pooled-object.
		{"shaded pool2 objects", thread("WAITING", append(jdk8Park, "com.acme.shaded.org.apache.commons.pool2.impl.LinkedBlockingDeque.pollFirst",
			"com.acme.shaded.org.apache.commons.pool2.impl.GenericObjectPool.borrowObject", "com.acme.render.Renderer.render")...),
			"object-pool-wait", "com.acme.shaded.org.apache.commons.pool2.impl.GenericObjectPool"},
		// Not a wait for an item. A thread pool's worker at rest (Tomcat's
		// queue under ThreadPoolExecutor: JDK frames and TaskQueue.take).
		{"thread pool rest", thread("WAITING", append(jdk8Park, "java.util.concurrent.LinkedBlockingQueue.take",
			"org.apache.tomcat.util.threads.TaskQueue.take", "java.util.concurrent.ThreadPoolExecutor.getTask",
			"java.util.concurrent.ThreadPoolExecutor.runWorker")...), "", ""},
		// c3p0's helper threads wait in their own thread pool's loop
		// (liferay-portal PR #27293's dump).
		{"c3p0 helper thread", thread("TIMED_WAITING", "java.lang.Object.wait",
			"com.mchange.v2.async.ThreadPoolAsynchronousRunner$PoolThread.run"), "", ""},
		// A pool's own factory creating the item on the borrowing thread: the
		// application's (or a driver's) frames between the wait and the
		// borrow are work inside the borrow, not a wait for an item.
		{"item being created", thread("WAITING", append(jdk8Park, "java.util.concurrent.FutureTask.get",
			"com.example.conn.Handshake.await", "com.example.conn.ConnFactory.makeObject",
			"org.apache.commons.pool2.impl.GenericObjectPool.create", "org.apache.commons.pool2.impl.GenericObjectPool.borrowObject")...), "", ""},
		// A borrow that is connecting (RUNNABLE, a socket on top): not a wait.
		{"borrow connecting", thread("RUNNABLE", "sun.nio.ch.Net.connect0", "sun.nio.ch.Net.connect",
			"org.apache.commons.pool2.impl.GenericObjectPool.create", "org.apache.commons.pool2.impl.GenericObjectPool.borrowObject"), "", ""},
		// A getter of a class named a pool that parks for its own lock is
		// no lending method: "get" is the exact name only.
		{"pool getter", thread("WAITING", append(jdk8Park, "com.example.PoolStats.getNumActive")...), "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.thread.JVM = &parse.JVM{}
			if got := borrowPool(tt.thread); got != tt.wantPool {
				t.Errorf("borrowPool = %q, want %q", got, tt.wantPool)
			}
			got := ""
			if s := classify(parse.RuntimeJVM, tt.thread); s != nil && s.Borrow {
				got = s.ID
			}
			if got != tt.want {
				t.Errorf("structural row = %q, want %q (classified as %v)", got, tt.want, stateOf(classify(parse.RuntimeJVM, tt.thread)))
			}
		})
	}
}

// TestPoolBorrowProperty derives the structural rule from generated
// stacks: a wait on top (park or Object.wait), JDK frames and the pool
// library's own frames, a lending method of a class named a pool, then
// callers. The rule must hold under the changes that do not change what
// the thread does, and fail under those that do:
//   - relocating the pool library under any prefix (a shading plugin,
//     Tomcat's repackaging) keeps the verdict and its resource;
//   - more JDK frames between the wait and the borrow keep it;
//   - a frame of another library between them (a factory, a driver)
//     removes it: the thread works inside the borrow;
//   - a non-wait on top removes it; so does a thread pool's class name, or
//     a method that does not lend.
func TestPoolBorrowProperty(t *testing.T) {
	rng := rand.New(rand.NewSource(33))
	verbs := []string{"borrowObject", "borrow", "acquire", "tryAcquire", "lease", "checkoutResource", "checkOut", "take", "tryTake",
		"getConnection", "getResource", "get"}
	notVerbs := []string{"run", "getTask", "idleJobPoll", "awaitWork", "getNumIdle", "evict", "returnObject", "getter"}
	classes := []string{"GenericObjectPool", "ConcurrentPool", "BasicResourcePool", "StrictConnPool", "FixedPool", "ObjectPool$Inner"}
	threadPools := []string{"QueuedThreadPool", "ForkJoinPool", "ThreadPoolExecutor", "EventLoopGroupPool", "WorkerPool", "SchedulerPool"}
	tops := [][]string{
		{"jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park"},
		{"sun.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.parkNanos"},
		{"java.lang.Object.wait0", "java.lang.Object.wait"},
		{"java.lang.Object.wait"},
	}
	jdkMid := []string{"java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await",
		"java.util.concurrent.ForkJoinPool.managedBlock", "java.util.concurrent.Semaphore.tryAcquire",
		"java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionNode.block"}
	prefixes := []string{"", "org.apache.tomcat.dbcp.", "com.acme.shaded.", "io.grpc.netty.shaded.", "x.y."}
	type callers struct {
		frames   []string
		resource string
	}
	under := []callers{
		{[]string{"com.example.app.Report.render", "com.example.app.Main.main"}, "pooled-object"},
		{[]string{"com.example.db.PoolingDataSource.getConnection", "com.example.app.Dao.load"}, "db-connection"},
		{[]string{"com.example.app.Cache.fetch"}, "pooled-object"},
	}
	for i := range 2000 {
		lib := fmt.Sprintf("org.lib%d.pool.impl.", rng.Intn(5))
		class := classes[rng.Intn(len(classes))]
		verb := verbs[rng.Intn(len(verbs))]
		top := tops[rng.Intn(len(tops))]
		var mid []string
		for range rng.Intn(4) {
			if rng.Intn(2) == 0 {
				mid = append(mid, jdkMid[rng.Intn(len(jdkMid))])
			} else {
				mid = append(mid, lib+"LinkedBlockingDeque.takeFirst") // the library's own helper
			}
		}
		c := under[rng.Intn(len(under))]
		build := func(prefix, top0 string, mid []string, class, verb string) *parse.Thread {
			fs := append([]string{}, top...)
			if top0 != "" {
				fs[0] = top0
			}
			for _, m := range mid {
				if strings.HasPrefix(m, lib) {
					m = prefix + m
				}
				fs = append(fs, m)
			}
			fs = append(fs, prefix+lib+class+"."+verb)
			fs = append(fs, c.frames...)
			th := thread("WAITING", fs...)
			th.JVM = &parse.JVM{}
			return th
		}
		res := func(th *parse.Thread) string {
			if s := classify(parse.RuntimeJVM, th); s != nil && s.Borrow {
				return s.Resource
			}
			return ""
		}
		base := build("", "", mid, class, verb)
		name := fmt.Sprintf("#%d %s.%s under %v", i, class, verb, base.Frames[0].Func)
		want := c.resource
		if verb == "getConnection" {
			want = "db-connection" // a pool that lends through JDBC's name lends connections
		}
		c.resource = want
		if got := res(base); got != c.resource {
			t.Fatalf("%s: resource %q, want %q", name, got, c.resource)
		}
		// Relocated: the same verdict and resource.
		p := prefixes[rng.Intn(len(prefixes))]
		if got := res(build(p, "", mid, class, verb)); got != c.resource {
			t.Fatalf("%s relocated under %q: %q, want %q", name, p, got, c.resource)
		}
		// More JDK frames between: the same.
		more := append(append([]string{}, mid...), jdkMid[rng.Intn(len(jdkMid))])
		if got := res(build("", "", more, class, verb)); got != c.resource {
			t.Fatalf("%s with a JDK frame more: %q", name, got)
		}
		// A frame of another library between: work inside the borrow.
		foreign := append(append([]string{}, mid...), "com.driver.net.Handshake.await")
		if got := res(build("", "", foreign, class, verb)); got != "" {
			t.Fatalf("%s with a driver's frame between: %q, want none", name, got)
		}
		// Not waiting on top.
		if got := res(build("", "java.lang.Thread.sleep", mid, class, verb)); got != "" {
			t.Fatalf("%s with a sleep on top: %q, want none", name, got)
		}
		// A thread pool, or a method that does not lend.
		if got := res(build("", "", mid, threadPools[rng.Intn(len(threadPools))], verb)); got != "" {
			t.Fatalf("%s in a thread pool: %q, want none", name, got)
		}
		if got := res(build("", "", mid, class, notVerbs[rng.Intn(len(notVerbs))])); got != "" {
			t.Fatalf("%s with a method that does not lend: %q, want none", name, got)
		}
	}
}

// TestPoolBorrowFixtures runs the real programs of testdata/verdicts/borrow-*
// (Tomcat's repackaged DBCP2 and pool2, DBCP 1.x on commons-pool 1.x, a
// relocated pool2 lending objects; each README says what the source makes
// and the verdict wanted, written before dumpdiff ran): the stuck pools
// exhausted at three moments and in their first dump alone, the busy
// controls quiet at three moments and in each dump.
func TestPoolBorrowFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	exhausted := func(kind, pool string) []want {
		return []want{
			{kind, "report-worker-*", strings.TrimSuffix(kind, "-exhausted") + "-wait", func(t *testing.T, f Finding) {
				eq(t, "counts at the first moment", f.Counts[0], 6)
				eq(t, "culprit", strings.HasPrefix(f.Culprit, "com.example.borrow.BorrowApp$"), true)
				eq(t, "pool", f.Via, pool)
			}},
			{KindSaturated, "report-worker-*", strings.TrimSuffix(kind, "-exhausted") + "-wait", nil},
		}
	}
	var tests []fixtureCase
	for _, c := range []struct{ name, kind, pool string }{
		{"tomcat-dbcp", KindDBPoolExhausted, "org.apache.tomcat.dbcp.pool2.impl.GenericObjectPool"},
		{"dbcp1", KindDBPoolExhausted, "org.apache.commons.pool.impl.GenericObjectPool"},
		{"shaded-pool2", PoolExhaustedKind("pooled-object"), "org.apache.tomcat.dbcp.pool2.impl.GenericObjectPool"},
	} {
		w := exhausted(c.kind, c.pool)
		// One dump: the pool of 10 workers (9 for the object pool, under
		// SaturatedMin) is saturated from that dump too.
		one := w
		if c.name == "shaded-pool2" {
			one = w[:1]
		}
		tests = append(tests,
			fixtureCase{"borrow-" + c.name + "-stuck", []string{"1", "2", "3"}, w},
			fixtureCase{"borrow-" + c.name + "-stuck", []string{"1"}, one},
			fixtureCase{"borrow-" + c.name + "-healthy", []string{"1", "2", "3"}, nil},
		)
		for _, m := range []string{"1", "2", "3"} {
			tests = append(tests, fixtureCase{"borrow-" + c.name + "-healthy", []string{m}, nil})
		}
	}
	runFixtureCases(t, dir, tests)
}
