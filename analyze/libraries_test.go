package analyze

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// libraryCase says which state (and via) the threads of a real dump of a
// real library must be classified in: the JVM threads whose name matches,
// or the goroutines with a frame whose function matches.
type libraryCase struct {
	file    string // under testdata/libs
	rt      parse.Runtime
	threads string // regexp: a JVM thread's name, or with "frame:" (always for Go) a frame's function
	min     int    // at least this many threads match
	state   string
	via     string // "" to not check
}

// libraryCases are real dumps written by programs using the real libraries
// (testdata/gen/libs-*, see each folder's README.md). TestSignatures counts
// them as the rows' test cases.
var libraryCases = []libraryCase{
	// Apache HttpClient 4.5, PoolingHttpClientConnectionManager max 4 per
	// route: 4 hold a connection in a socket read, 16 wait for one.
	{"jvm-httpclient4-pool/1.txt", parse.RuntimeJVM, `frame:^org\.apache\.http\.pool\.AbstractConnPool\.getPoolEntryBlocking$`, 16, "http-pool-wait", ""},
	{"jvm-httpclient4-pool/1.txt", parse.RuntimeJVM, `frame:^org\.apache\.http\.impl\.io\.SessionInputBufferImpl\.fillBuffer$`, 4, "socket-read", "http-client"},
	// HttpClient 5.2 classic, StrictConnPool and LaxConnPool: the lease's
	// BasicFuture waits in Object.wait under the connection manager.
	{"jvm-httpclient5-pool/1.txt", parse.RuntimeJVM, `frame:^org\.apache\.hc\.core5\.pool\.StrictConnPool\$1\.get$`, 16, "http-pool-wait", ""},
	{"jvm-httpclient5-pool-lax/1.txt", parse.RuntimeJVM, `frame:^org\.apache\.hc\.core5\.pool\.LaxConnPool\$PerRoutePool\$1\.get$`, 16, "http-pool-wait", ""},
	{"jvm-httpclient5-pool/1.txt", parse.RuntimeJVM, `frame:^org\.apache\.hc\.core5\.http\.impl\.io\.SessionInputBufferImpl\.fillBuffer$`, 4, "socket-read", "http-client"},
	// commons-pool2 2.11 GenericObjectPool of plain objects: never "DB".
	{"jvm-commons-pool2/1.txt", parse.RuntimeJVM, `^report-worker-`, 10, "object-pool-wait", ""},
	// ReentrantReadWriteLock in all its lock methods (readers, writers,
	// tryLock with a timeout, lockInterruptibly).
	{"jvm-rwlock/1.txt", parse.RuntimeJVM, `^catalog-(reader|writer|stream|try-writer)-`, 13, "lock-wait", ""},
	// Go: database/sql over pgx at SetMaxOpenConns(4): 20 wait in
	// (*DB).conn, 4 hold one in a read under pgx; pgxpool (puddle) at MaxConns 3.
	{"go-database-sql/1.txt", parse.RuntimeGo, `^main\.query$`, 24, "", ""},
	{"go-database-sql/1.txt", parse.RuntimeGo, `^database/sql\.\(\*DB\)\.conn$`, 20, "db-pool-wait", ""},
	{"go-database-sql/1.txt", parse.RuntimeGo, `^github\.com/jackc/pgx/v5/pgconn/internal/bgreader`, 4, "socket-read", "database/sql"},
	{"go-pgxpool/1.txt", parse.RuntimeGo, `^github\.com/jackc/puddle/v2\.\(\*Pool\[\.\.\.\]\)\.acquire$`, 12, "db-pool-wait", ""},
	{"go-pgxpool/1.pb.gz", parse.RuntimeGo, `^github\.com/jackc/puddle/v2\.\(\*Pool\[`, 12, "db-pool-wait", ""},
	// pgxpool's holders read under pgx alone: via pgx, not database/sql.
	{"go-pgxpool/1.txt", parse.RuntimeGo, `^github\.com/jackc/pgx/v5/pgconn/internal/bgreader`, 3, "socket-read", "pgx"},
	{"go-pgxpool/1.pb.gz", parse.RuntimeGo, `^github\.com/jackc/pgx/v5/pgconn/internal/bgreader`, 3, "socket-read", "pgx"},
	// go-redis v9 PoolSize 3 and redigo MaxActive 3: waiters for a turn,
	// holders in BLPOP.
	{"go-redis/1.txt", parse.RuntimeGo, `^github\.com/redis/go-redis/v9/internal/pool\.\(\*ConnPool\)\.waitTurn$`, 12, "redis-pool-wait", ""},
	{"go-redis/1.txt", parse.RuntimeGo, `^github\.com/redis/go-redis/v9/internal/proto\.\(\*Reader\)`, 3, "socket-read", "redis"},
	{"go-redigo/1.txt", parse.RuntimeGo, `^github\.com/gomodule/redigo/redis\.\(\*Pool\)\.waitVacantConn$`, 10, "redis-pool-wait", ""},
	// net/http with MaxConnsPerHost 2: 15 wait in getConn, 2 in flight.
	{"go-http-maxconns/1.txt", parse.RuntimeGo, `^net/http\.\(\*Transport\)\.getConn$`, 15, "http-pool-wait", ""},
	{"go-http-maxconns/1-debug1.txt", parse.RuntimeGo, `^net/http\.\(\*Transport\)\.getConn$`, 15, "http-pool-wait", ""},
	{"go-http-maxconns/1.txt", parse.RuntimeGo, `^main\.fetch$`, 17, "", ""},
	// grpc-go 1.85 unary calls waiting for the reply; the server's
	// handlers (blocked in the app) are not client waits.
	{"go-grpc/1.txt", parse.RuntimeGo, `^main\.call$`, 15, "grpc-wait", ""},
	{"go-grpc/1.pb.gz", parse.RuntimeGo, `^main\.call$`, 15, "grpc-wait", ""},
	{"go-grpc/1.txt", parse.RuntimeGo, `^main\.\(\*slowServer\)\.Get$`, 15, "chan-receive", ""},
	// sync.RWMutex: readers behind a writer, writers behind readers.
	{"go-rwmutex/1.txt", parse.RuntimeGo, `^main\.\(\*cache\)\.(get|put)$`, 11, "rwmutex-wait", ""},
	{"go-rwmutex/1.pb.gz", parse.RuntimeGo, `^main\.\(\*cache\)\.(get|put)$`, 11, "rwmutex-wait", ""},
	// JDK 17: five threads wait for the class TaxRules that config-loader
	// initializes (its static block sleeps).
	{"jvm-class-init/1.txt", parse.RuntimeJVM, `^checkout-`, 5, "class-init-wait", ""},
	{"jvm-class-init/1.txt", parse.RuntimeJVM, `^config-loader$`, 1, "sleep", ""},
	// JDK 25 virtual threads (testdata/libs/jdk25-*, Temurin 25): 200 in a
	// socket read, their pollers idle; pinned ones park their carrier
	// (a native frame, a class initializer) and say what they wait on.
	{"jdk25-vthreads/dump.txt", parse.RuntimeJVM, `frame:^com\.example\.shop\.UpstreamClient\.fetch$`, 200, "socket-read", ""},
	{"jdk25-vthreads/dump.txt", parse.RuntimeJVM, `^SubPoller-`, 3, "selector-wait", ""},
	{"jdk25-vthreads/dump.txt", parse.RuntimeJVM, `frame:^com\.example\.shop\.(Inventory\.reserve|PriceBook\.price)$`, 60, "lock-wait", ""},
	{"jdk25-platform/jstack.txt", parse.RuntimeJVM, `^(reserve|price)-[0-9]`, 20, "lock-wait", ""},
	{"jdk25-pinned/dump.txt", parse.RuntimeJVM, `^(price-sort-|audit-sort$|config-loader$)`, 4, "vthread-pinned", ""},
	{"jdk25-pinned/dump.txt", parse.RuntimeJVM, `^config-loader$`, 1, "vthread-pinned", "socket-read"},
	{"jdk25-pinned/dump.txt", parse.RuntimeJVM, `^audit-sort$`, 1, "vthread-pinned", "sleep"},
	{"jdk25-pinned/dump.txt", parse.RuntimeJVM, `^price-sort-`, 2, "vthread-pinned", "lock-wait"},
	{"jdk25-pinned/dump.txt", parse.RuntimeJVM, `frame:^jdk\.internal\.vm\.Continuation\.run$`, 5, "vthread-carrier", ""},
	{"jdk25-pinned/jstack.txt", parse.RuntimeJVM, `frame:^java\.lang\.VirtualThread\.parkOnCarrierThread$`, 4, "vthread-pinned", ""},
	// JDBC drivers reading a reply (pg_sleep, SLEEP) hold a DB connection.
	{"jvm-jdbc-drivers/1.txt", parse.RuntimeJVM, `^pg-query-`, 5, "socket-read", "jdbc org.postgresql"},
	{"jvm-jdbc-drivers/1.txt", parse.RuntimeJVM, `^maria-query-`, 5, "socket-read", "jdbc org.mariadb"},
	// Object.wait on an application's or library's own monitor: named after it.
	{"jdk25-pinned/dump.txt", parse.RuntimeJVM, `^batch-sort$`, 1, "object-wait", "com.example.pinned.Batch"},
	// Netty 4.1: idle event loops in the selector; blocked ones in whatever
	// the handler blocks on.
	{"jvm-netty-idle/1.txt", parse.RuntimeJVM, `^nioEventLoopGroup-`, 6, "selector-wait", ""},
	// Go 1.13.15 prints every sync wait as "semacquire": the frames decide
	// (testdata/libs/go113-sync).
	{"go113-sync/1.txt", parse.RuntimeGo, `frame:^main\.main\.func1$`, 3, "mutex-wait", ""},
	{"go113-sync/1.txt", parse.RuntimeGo, `frame:^main\.main\.func2$`, 3, "rwmutex-wait", ""},
	{"go113-sync/1.txt", parse.RuntimeGo, `frame:^main\.main\.func3$`, 3, "waitgroup-wait", ""},
	{"go113-sync/1.txt", parse.RuntimeGo, `frame:^main\.main\.func4$`, 3, "cond-wait", ""},
	// Machinery at rest in its own loop (testdata/libs/jvm-idle-libs*,
	// Quartz 2.3.2, JMX over RMI, JDK 17 and 25): Quartz's workers and
	// scheduler thread, an RMI server connection reading the next call.
	{"jvm-idle-libs/1.txt", parse.RuntimeJVM, `^IdleScheduler_Worker-`, 3, "pool-idle", ""},
	{"jvm-idle-libs/1.txt", parse.RuntimeJVM, `^IdleScheduler_QuartzSchedulerThread$`, 1, "pool-idle", ""},
	{"jvm-idle-libs/1.txt", parse.RuntimeJVM, `^RMI TCP Connection\([0-9]+\)-127\.0\.0\.1$`, 1, "connection-idle", ""},
	{"jvm-idle-libs/1.txt", parse.RuntimeJVM, `^HttpClient-1-SelectorManager$`, 1, "selector-wait", ""},
	{"jvm-idle-libs-jdk25/1.txt", parse.RuntimeJVM, `^IdleScheduler_Worker-`, 3, "pool-idle", ""},
	{"jvm-idle-libs-jdk25/1.txt", parse.RuntimeJVM, `^RMI TCP Connection\([0-9]+\)-127\.0\.0\.1$`, 1, "connection-idle", ""},
	// kotlinx 1.0.1's default dispatcher at rest (doPark under
	// cpuWorkerIdle) and Logback's async appender on its queue.
	{"jvm-idle-kotlinx/1.txt", parse.RuntimeJVM, `^DefaultDispatcher-worker-`, 1, "pool-idle", ""},
	{"jvm-idle-kotlinx/1.txt", parse.RuntimeJVM, `^AsyncAppender-Worker-ASYNC$`, 1, "queue-wait", ""},
	// The job that does not rest: a socket read under JobRunShell.run.
	{"jvm-idle-libs-stuck/1.txt", parse.RuntimeJVM, `frame:^com\.example\.idle\.IdleApp\$ReadForever\.execute$`, 1, "socket-read", ""},
}

func TestLibraryFixtures(t *testing.T) {
	for _, c := range libraryCases {
		t.Run(c.file+" "+c.threads, func(t *testing.T) {
			ds, err := parse.ParseFile(filepath.Join("..", "testdata", "libs", c.file))
			if err != nil {
				t.Fatal(err)
			}
			byFrame := c.rt == parse.RuntimeGo || strings.HasPrefix(c.threads, "frame:")
			re := regexp.MustCompile(strings.TrimPrefix(c.threads, "frame:"))
			n := 0
			for _, th := range ds[0].Threads {
				if !libraryMatch(byFrame, re, th) {
					continue
				}
				n += max(th.Weight, 1)
				s := classify(c.rt, th)
				got := "unclassified"
				if s != nil {
					got = s.ID
				}
				if c.state != "" && got != c.state {
					t.Errorf("%s %d: state %s, want %s", th.Name(), th.ID, got, c.state)
					continue
				}
				if v, _, _ := viaFor(signatures, s, th); c.via != "" && v != c.via {
					t.Errorf("%s %d: via %q, want %q", th.Name(), th.ID, v, c.via)
				}
			}
			if n < c.min {
				// (a state "" case only counts: the program ran as its README says)
				t.Errorf("%d threads match %q, want at least %d", n, c.threads, c.min)
			}
		})
	}
}

func libraryMatch(byFrame bool, re *regexp.Regexp, th *parse.Thread) bool {
	if !byFrame {
		return re.MatchString(th.Name())
	}
	for _, f := range th.Frames {
		if re.MatchString(f.Func) {
			return true
		}
	}
	return false
}

// TestLibraryVerdicts judges the real library dumps whole: each pool wait
// becomes its resource's pool-exhausted finding with the holders the dump
// shows, a blocked event loop and a starved common pool are said, and
// idle servers, event loops and executors say nothing.
func TestLibraryVerdicts(t *testing.T) {
	holders := func(want ...HolderGroup) func(t *testing.T, f Finding) {
		return func(t *testing.T, f Finding) {
			t.Helper()
			if len(f.Holders) != len(want) {
				t.Fatalf("holders %+v, want %+v", f.Holders, want)
			}
			for i := range want {
				eq(t, "holder", f.Holders[i], want[i])
			}
		}
	}
	both := []string{"1", "2"}
	runFixtureCases(t, filepath.Join("..", "testdata", "libs"), []fixtureCase{
		{"go-database-sql", both, []want{{"db-pool-exhausted", "main.runQueries", "db-pool-wait",
			holders(HolderGroup{Pool: "main.startHolders", State: "socket-read", Via: "database/sql", Culprit: "main.query (main.go:42)", Count: 4})}}},
		{"go-pgxpool", both, []want{{"db-pool-exhausted", "main.runQueries", "db-pool-wait",
			holders(HolderGroup{Pool: "main.startHolders", State: "socket-read", Via: "pgx", Culprit: "main.query (main.go:41)", Count: 3})}}},
		// debug=1 beside the proto of the same process: the health check's
		// hidden select is put back from the proto's PCs, so it is no
		// fourth "holder" in an unknown state (MaxConns is 3).
		{"go-pgxpool", []string{"1-debug1.txt", "1.pb.gz"}, []want{{"db-pool-exhausted", "main.query", "db-pool-wait",
			holders(HolderGroup{Pool: "main.query", State: "socket-read", Via: "pgx", Culprit: "main.query (main.go:41)", Count: 3})}}},
		{"go-redis", both, []want{{"redis-pool-exhausted", "main.runCommands", "redis-pool-wait",
			holders(HolderGroup{Pool: "main.startConsumers", State: "socket-read", Via: "redis", Culprit: "main.consume (main.go:41)", Count: 3})}}},
		{"go-redigo", []string{"1"}, []want{{"redis-pool-exhausted", "main.runCommands", "redis-pool-wait", nil}}},
		{"go-http-maxconns", both, []want{{"http-pool-exhausted", "main.runRequests", "http-pool-wait",
			holders(HolderGroup{Pool: "main.runRequests", State: "http-client-wait", Via: "http-client", Culprit: "main.fetch (main.go:40)", Count: 2})}}},
		{"go-grpc", both, []want{{KindStuck, "main.runCalls", "grpc-wait", nil}}},
		// The 8 readers' RLock is inlined, "(...)": no address; the lock is
		// the one *cache's methods take, and its holder the refresh waiting
		// on a channel with it held (issue 33: the holder first).
		{"go-rwmutex", both, []want{
			{KindContention, "main.startReaders", "rwmutex-wait", func(t *testing.T, f Finding) {
				eq(t, "lock", f.Lock.Address, "main.(*cache)")
				eq(t, "holder", strings.HasPrefix(f.Lock.Owner.Culprit, "main.(*cache).refresh"), true)
			}},
			{KindStuck, "main.startReaders", "rwmutex-wait", nil},
		}},
		// One generic function is one pool in debug=2, debug=1 and the
		// proto; debug=1 prints no state, so nothing rises against it.
		{"go-generics", []string{"1-debug1.txt", "1.pb.gz", "1.txt", "2-go1.27.txt"}, nil},
		{"jvm-httpclient4-pool", both, []want{
			{"http-pool-exhausted", "hc4-caller-*", "http-pool-wait", holders(HolderGroup{Pool: "hc4-caller-*", State: "socket-read", Via: "http-client",
				Culprit: "com.example.http4.InventoryClient.fetch(InventoryClient.java:13)", Count: 4})},
			{KindSaturated, "hc4-caller-*", "http-pool-wait", func(t *testing.T, f Finding) { eq(t, "caused by", f.CausedBy, "http-pool-exhausted http-connection") }},
		}},
		{"jvm-httpclient5-pool", both, []want{{"http-pool-exhausted", "hc5-caller-*", "http-pool-wait", nil}, {KindSaturated, "hc5-caller-*", "http-pool-wait", nil}}},
		{"jvm-httpclient5-pool-lax", both, []want{{"http-pool-exhausted", "hc5-caller-*", "http-pool-wait", nil}, {KindSaturated, "hc5-caller-*", "http-pool-wait", nil}}},
		// commons-pool2 of plain objects and under a Redis client of our own
		// (not Jedis): an object pool, never "DB".
		{"jvm-commons-pool2", both, []want{{"object-pool-exhausted", "report-worker-*", "object-pool-wait", nil}, {KindSaturated, "report-worker-*", "object-pool-wait", nil}}},
		{"jvm-redis-pool", both, []want{{"object-pool-exhausted", "cache-reader-*", "object-pool-wait", nil}, {KindSaturated, "cache-reader-*", "object-pool-wait", nil}}},
		{"jvm-netty-blocked", both, []want{{KindEventLoopBlocked, "nioEventLoopGroup-3-*", "future-wait", func(t *testing.T, f Finding) {
			eq(t, "blocked loops", f.Counts[0], 4)
		}}}},
		{"jvm-netty-blocked", []string{"1"}, []want{{KindEventLoopBlocked, "nioEventLoopGroup-3-*", "future-wait", nil}}},
		{"jvm-netty-idle", both, nil},
		{"jvm-jetty-idle", both, nil},
		{"jvm-executors", both, nil},
		{"jvm-idle-libs", both, nil},
		// Every worker of a bounded pool sleeping inside its task (a slow
		// call simulated) is a pool at work: saturated, and stuck (the same
		// threads in both dumps); the same pool idle in its loop says nothing.
		{"jvm-task-sleep", both, []want{{KindStuck, "quote-*", "sleep", nil}, {KindSaturated, "quote-*", "sleep", func(t *testing.T, f Finding) {
			eq(t, "caused by", f.CausedBy, "stuck quote-* sleep")
		}}}},
		{"jvm-task-sleep-idle", both, nil},
		// A job whose main returned without shutting its executor and timer
		// down: the JVM never exits; the same with an acceptor is a server,
		// up by design.
		{"jvm-kept-alive", both, []want{{KindKeptAlive, "pool-1-thread-*", "pool-idle", func(t *testing.T, f Finding) {
			eq(t, "holders", len(f.Holders), 2)
			eq(t, "pool", f.Holders[0], HolderGroup{Pool: "pool-1-thread-*", State: "pool-idle", Count: 3, Rest: "executor"})
			eq(t, "timer", f.Holders[1].Pool, "cleanup-timer")
			eq(t, "timer's rest", f.Holders[1].Rest, "timer")
			eq(t, "threads", f.Counts[1], 4)
		}}}},
		{"jvm-kept-alive-serving", both, nil},
		{"jvm-idle-libs-jdk25", both, nil},
		{"jvm-idle-kotlinx", both, nil},
		{"jvm-jetty-stuck", both, []want{{KindStuck, "qtp1834188994-*", "socket-read", nil}}},
		// The 4 common-pool workers held in their reads at both dumps are
		// stuck (a pool's share), and the starved pool follows from it.
		{"jvm-common-pool-starved", both, []want{{KindCommonPoolStarved, "ForkJoinPool.commonPool-worker-*", "socket-read", func(t *testing.T, f Finding) {
			eq(t, "workers", f.Waiting, 4)
			eq(t, "caused by", f.CausedBy, "stuck ForkJoinPool.commonPool-worker-* socket-read")
		}}, {KindStuck, "ForkJoinPool.commonPool-worker-*", "socket-read", nil}}},
		{"jvm-common-pool-starved", []string{"1"}, []want{{KindCommonPoolStarved, "ForkJoinPool.commonPool-worker-*", "socket-read", nil}}},
		// Two fixed pools of 5, every thread in its query: stuck, and (a
		// small pool's share decides) saturated.
		{"jvm-jdbc-drivers", both, []want{{KindStuck, "maria-query-*", "socket-read", nil}, {KindStuck, "pg-query-*", "socket-read", nil},
			{KindSaturated, "maria-query-*", "socket-read", nil}, {KindSaturated, "pg-query-*", "socket-read", nil}}},
		// Five checkouts wait for TaxRules, whose initializer config-loader
		// runs (it sleeps in TaxRules.<clinit>): the holder first (issue
		// 33), a class's initialization as the lock, the stuck follow.
		{"jvm-class-init", both, []want{{KindContention, "checkout-*", "class-init-wait", func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, "class-init")
			eq(t, "class", f.Lock.Class, "com.example.classinit.TaxRules")
			eq(t, "owner", f.Lock.Owner.Name, "config-loader")
			eq(t, "owner state", f.Lock.Owner.State, "sleep")
		}}, {KindStuck, "checkout-*", "class-init-wait", func(t *testing.T, f Finding) {
			eq(t, "caused by", f.CausedBy, "contention class-init com.example.classinit.TaxRules")
		}}}},
		{"jvm-rwlock", both, []want{{KindContention, "", "lock-wait", nil},
			{KindStuck, "catalog-reader-*", "lock-wait", func(t *testing.T, f Finding) { eq(t, "caused by", f.CausedBy, "contention 0x00000000fc0df870") }}}},
	})
}

// Real dumps whose main had returned (DestroyJavaVM without main): servers
// (Spring Boot, Jenkins, an RMI service), a Swing GUI (TDA itself), deadlock
// demos. Each is up by design or held by something the other detectors
// tell: none is kept alive by idle leftovers.
func TestKeptAliveCorpusControls(t *testing.T) {
	const dir = "../../shared/corpus/jvm/"
	for _, name := range []string{
		"dumpling__hotspot-24.51-b03-jdk7u51__143-threads.log", "samurai__liberica-11.0.12__highcpu-3-dumps-with-capture-header.txt",
		"samurai__openjdk-17+35__blocker-example.dmp", "samurai__spring-boot-2.5.4-actuator__text-threaddump.dmp",
		"samurai__sun-hotspot-1.4.2_03__deadlock.dmp", "tda__hotspot-1.5.0_06-client__with-class-histogram.log",
		"tda__hotspot-1.6.0_03-client__jmx-threadinfo-format.log", "tda__hotspot-1.6.0_03-server__rmi-threads.log",
		"tda__hotspot-11.0-b15__visualvm-format-crlf.log", "tda__openjdk-21.0.10__jcmd-Thread.dump_to_file.json",
		"tda__openjdk-21.0.9-macos__jstack-with-smr.log", "tda__openjdk-8u91__jstack.log",
	} {
		t.Run(name, func(t *testing.T) {
			for _, f := range Analyze(corpusInputs(t, dir+name), Options{}).Findings {
				if f.Kind == KindKeptAlive {
					t.Errorf("kept-alive %s (%+v)", f.Pool, f.Holders)
				}
			}
		})
	}
}
