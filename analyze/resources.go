package analyze

import (
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// Resource is what a waiting state waits for. Data, like the signatures:
// a detector asks the row ("is it pooled?"), never the state's id.
type Resource struct {
	ID string
	// Noun names it in sentences: "a DB connection".
	Noun string
	// Pool, when set, says the resource is lent by a bounded pool: threads
	// waiting for it mean the pool is exhausted, and the finding is
	// Pool+"-pool-exhausted" ("db" → db-pool-exhausted). Its holders are
	// found through the via rows that hold it.
	Pool string
	// Title names the pool in sentences ("DB connection pool") and Items
	// what it lends ("connections"); "" when not pooled.
	Title, Items string
	// Still, when set, says a thread waiting for it sleeps in the kernel
	// until it comes (a read, a connect, a write to a full socket): it
	// gains no CPU while it waits, so CPU gained between two dumps means
	// it left the wait and came back. Lock and park waits are not still:
	// HotSpot's monitor waiters and timed parks wake to poll.
	Still bool
	// Named, when set, says the wait names what holds the thread outside
	// its own process's work: a peer's reply, a pool's item, a lock another
	// thread holds. A dump whose threads are all in such waits (or a paste
	// a person cut of such threads) says what they wait on, with its
	// culprit and remedy (heldWaits). Waits on the process's own work (a
	// future, a latch, a queue, a notify), a timer or the netpoller are not
	// named: one dump cannot say who is late.
	Named bool
}

// resources are every resource a signature row may name.
var resources = []Resource{
	{ID: "db-connection", Named: true, Noun: "a DB connection", Pool: "db", Title: "DB connection pool", Items: "connections"},
	{ID: "redis-connection", Named: true, Noun: "a Redis connection", Pool: "redis", Title: "Redis connection pool", Items: "connections"},
	{ID: "http-connection", Named: true, Noun: "an HTTP client connection", Pool: "http", Title: "HTTP client connection pool", Items: "connections"},
	{ID: "pooled-object", Named: true, Noun: "an object from a pool", Pool: "object", Title: "object pool", Items: "objects"},
	{ID: "peer-reply", Still: true, Named: true, Noun: "a reply from a peer"},
	{ID: "peer-connect", Still: true, Named: true, Noun: "a peer to accept a connection"},
	{ID: "peer-drain", Still: true, Named: true, Noun: "a peer to read what is written"},
	{ID: "monitor", Named: true, Noun: "a monitor (synchronized) held by another thread"},
	{ID: "lock", Named: true, Noun: "a lock held by another thread"},
	{ID: "permit", Named: true, Noun: "a semaphore permit"},
	// A slot of a Go buffered channel used as a semaphore (sem <- x to
	// take one, <-sem to give it back): no signature row names it; the
	// pool-exhausted detector finds its waiters by structure (semaphoreAcquire).
	{ID: "slot", Named: true, Noun: "a slot of a buffered channel used as a semaphore", Pool: "semaphore", Title: "semaphore (a buffered channel)", Items: "slots"},
	// A permit of golang.org/x/sync/semaphore.Weighted whose holders stand
	// past the waiters' Acquire (semaphoreAcquire); its waiters' row says
	// "permit", as every other semaphore's does.
	{ID: "weighted-permit", Named: true, Noun: "a permit of a weighted semaphore (golang.org/x/sync/semaphore)", Pool: "weighted-semaphore", Title: "weighted semaphore (golang.org/x/sync/semaphore)", Items: "permits"},
	{ID: "task-result", Noun: "the result of another task"},
	{ID: "latch", Noun: "a latch or barrier to open"},
	{ID: "queue-space", Noun: "room in a full queue (its consumers to take)"},
	{ID: "peer-handoff", Noun: "a peer to take a hand-off"},
	{ID: "pipe-space", Noun: "room in a full pipe (its reader to read)"},
	{ID: "row-lock", Named: true, Noun: "a row lock another transaction holds until it ends"},
	{ID: "channel", Noun: "a channel operation"},
	{ID: "response-body", Noun: "its caller to read the response body to its end or close it"},
	{ID: "condition", Noun: "a notify or signal"},
	{ID: "file", Still: true, Noun: "a file, pipe or console"},
	// A file's sync to its device (fsync, fdatasync, FileChannel.force)
	// waits for the disk, outside the process: a device or a file system
	// that stalls (a full or failing disk, a network volume) holds it.
	{ID: "disk-sync", Still: true, Named: true, Noun: "the disk to write a file's data through (fsync)"},
	{ID: "syscall", Noun: "a system call"},
	// A cgo call holds an OS thread for as long as the C function runs:
	// many at once are as many threads (Go stops the process at 10,000).
	{ID: "cgo-call", Noun: "a C function to return (a cgo call, each holding an OS thread)"},
	{ID: "fd", Noun: "a file descriptor in the netpoller"},
	// A sleep costs no CPU while it lasts (Still): a thread that gained
	// CPURanMin between every two dumps woke and ran in between (a pool's
	// worker sleeping in one short task after another: measured here, a
	// Java 17 task of a little work and a 0–4 s sleep gains 0.6 ms per 5 s,
	// a 10 s sleep 0). A loop that polls a flag by sleeping wakes too
	// (about 40 µs a wake-up on Java 17): the dumps cannot tell it from
	// short tasks, and it is no longer held.
	{ID: "time", Still: true, Noun: "a timer (Thread.sleep, time.Sleep)"},
	// A class initialization is a lock: the JVM holds it for the thread
	// running the class's <clinit>, and every other thread that touches the
	// class waits for that one (judge4 14: a paste of the one waiter).
	{ID: "class-init", Named: true, Noun: "a class initialization another thread runs"},
	{ID: "carrier", Noun: "its carrier thread, which it keeps pinned (blocked with it)"},
}

// resourceByID returns the row of id, or nil.
func resourceByID(id string) *Resource {
	for i := range resources {
		if resources[i].ID == id {
			return &resources[i]
		}
	}
	return nil
}

// PoolExhaustedKind is the finding kind of threads waiting for a pooled
// resource ("db-pool-exhausted"); "" for a resource that is not pooled.
func PoolExhaustedKind(resource string) string {
	if r := resourceByID(resource); r != nil && r.Pool != "" {
		return r.Pool + "-pool-exhausted"
	}
	return ""
}

// isPoolExhausted tells a PoolExhaustedKind, whatever its resource.
func isPoolExhausted(kind string) bool { return strings.HasSuffix(kind, "-pool-exhausted") }

// ResourcePoolTitle names the pool that lends a resource ("DB connection
// pool"); "" when the resource is not pooled.
func ResourcePoolTitle(id string) string {
	if r := resourceByID(id); r != nil {
		return r.Title
	}
	return ""
}

// ResourceItems names what a pool lends, plural ("connections"); "" when
// the resource is not pooled.
func ResourceItems(id string) string {
	if r := resourceByID(id); r != nil {
		return r.Items
	}
	return ""
}

// ResourceNoun names a resource in sentences ("a DB connection"); the id
// itself when unknown.
func ResourceNoun(id string) string {
	if r := resourceByID(id); r != nil {
		return r.Noun
	}
	return id
}

// Via is one row of the table that tells what a socket read (or connect,
// write, I/O wait) waits on from the first caller further down the stack
// that belongs to a known client or server.
type Via struct {
	ID       string
	Prefixes []string
	// Holds is the resource a thread under this caller holds while it waits
	// (a JDBC driver reading holds a db-connection); "" if none.
	Holds string
	// Rest is true when a read under this caller is a rest (a server
	// connection waiting for the next request).
	Rest bool
	// Outer is the id of a row that, found further down the same stack,
	// is the via instead: a driver used through a standard API (pgx
	// under database/sql is database/sql's; pgx alone is pgx's).
	Outer string
	// RoundTrip is true when every read under this caller waits for the
	// answer to a request it sent (a JDBC query's result, a net/rpc call),
	// never for what a peer pushes when it likes: a Redis client's blocking
	// pop, a Kafka consumer's poll, a MongoDB change stream, a gRPC stream
	// are long polls by design, and an HTTP client's body may be a watch
	// stream (a Kubernetes watch over OkHttp): HTTP clients are round trips
	// only while they wait for a response's head (replyHeads).
	RoundTrip bool
}

// basisRoundTrip marks a stuck finding of a thread's own round trip that
// stays (oneRoundTrip) below the task floor.
const basisRoundTrip = "round-trip"

// replyHeads are the frames of HTTP clients waiting for the head of the
// response to the request they sent: a round trip, whatever streams after
// it. JDK 8–25's HttpURLConnection, Apache HttpClient 4 and 5, OkHttp 3
// and 4.
// Not a [roles] key: the frames of named library versions, each tested on
// its own dump; a team's own client's wait is a [signature] row (resource
// = peer-reply).
var replyHeads = []string{
	"sun.net.www.http.HttpClient.parseHTTP",
	"org.apache.http.impl.io.DefaultHttpResponseParser.parseHead", "org.apache.http.impl.conn.DefaultHttpResponseParser.parseHead",
	"org.apache.http.impl.AbstractHttpClientConnection.receiveResponseHeader", "org.apache.http.impl.DefaultBHttpClientConnection.receiveResponseHeader",
	"org.apache.hc.core5.http.impl.io.DefaultBHttpClientConnection.receiveResponseHeader",
	"okhttp3.internal.http1.Http1ExchangeCodec.readResponseHeaders", "okhttp3.internal.http1.Http1Codec.readResponseHeaders",
}

// roundTrip reports whether t, in a wait for a peer's reply under via,
// waits for the answer to a request it sent: under a round-trip client
// (Via.RoundTrip) or an HTTP client's wait for a response's head.
func roundTrip(via string, t *parse.Thread) bool {
	for i := range vias {
		if vias[i].ID == via && vias[i].RoundTrip {
			return true
		}
	}
	if via != "http-client" || t == nil {
		return false
	}
	for _, f := range t.Frames {
		if anyPrefix(f.Func, replyHeads) {
			return true
		}
	}
	return false
}

// vias are tested on real stacks in signatures_test.go.
var vias = []Via{
	{ID: "jdbc org.postgresql", Prefixes: []string{"org.postgresql."}, Holds: "db-connection", RoundTrip: true},
	{ID: "jdbc com.mysql", Prefixes: []string{"com.mysql."}, Holds: "db-connection", RoundTrip: true},
	{ID: "jdbc oracle", Prefixes: []string{"oracle.jdbc.", "oracle.net."}, Holds: "db-connection", RoundTrip: true},
	{ID: "jdbc sqlserver", Prefixes: []string{"com.microsoft.sqlserver."}, Holds: "db-connection", RoundTrip: true},
	{ID: "jdbc org.mariadb", Prefixes: []string{"org.mariadb."}, Holds: "db-connection", RoundTrip: true},
	// pgx (pgconn, pgxpool, puddle) is its own client unless it drives
	// database/sql (github.com/jackc/pgx/v5/stdlib): then database/sql's.
	{ID: "pgx", Prefixes: []string{"github.com/jackc/pgx", "github.com/jackc/pgconn", "github.com/jackc/puddle"}, Holds: "db-connection", Outer: "database/sql", RoundTrip: true},
	{ID: "database/sql", Prefixes: []string{"database/sql.", "github.com/lib/pq.", "github.com/go-sql-driver/mysql."}, Holds: "db-connection", RoundTrip: true},
	// Pooling HTTP clients: a thread reading under them holds one of the
	// pool's connections. Same id as the next row: the JSON contract.
	{ID: "http-client", Prefixes: []string{"org.apache.http.", "org.apache.hc.", "okhttp3.", "net/http.(*persistConn)"}, Holds: "http-connection"},
	{ID: "http-client", Prefixes: []string{"sun.net.www.protocol.http.", "java.net.http.", "jdk.internal.net.http.",
		"org.springframework.web.client.", "net/http.(*Transport)", "net/http.(*Client)"}},
	{ID: "http-server", Prefixes: []string{"org.apache.tomcat.util.net.", "org.apache.coyote.", "net/http.(*conn)", "net/http.(*connReader)"}, Rest: true},
	{ID: "redis", Prefixes: []string{"redis.clients.", "io.lettuce.", "org.redisson.", "github.com/redis/go-redis", "github.com/go-redis/redis",
		"github.com/gomodule/redigo"}, Holds: "redis-connection"},
	{ID: "mongodb", Prefixes: []string{"com.mongodb.", "go.mongodb.org/mongo-driver"}},
	{ID: "kafka", Prefixes: []string{"org.apache.kafka.", "github.com/segmentio/kafka-go", "github.com/IBM/sarama", "github.com/Shopify/sarama",
		"github.com/twmb/franz-go"}},
	{ID: "grpc", Prefixes: []string{"io.grpc.", "google.golang.org/grpc"}},
	// net/rpc's caller (not its client's input loop, which reads every
	// reply in its own loop: a rest).
	{ID: "net/rpc", Prefixes: []string{"net/rpc.(*Client).Call", "net/rpc.(*Client).Go"}, RoundTrip: true},
}

// viaOf tells what a thread's socket state waits on (see vias); nil when
// nothing known is found. One scan of the frames, once per distinct stack.
func viaOf(t *parse.Thread) *Via {
	for k, f := range t.Frames {
		for i := range vias {
			for _, p := range vias[i].Prefixes {
				if strings.HasPrefix(f.Func, p) {
					if o := outerVia(&vias[i], t.Frames[k+1:]); o != nil {
						return o
					}
					return &vias[i]
				}
			}
		}
	}
	return nil
}

// outerVia is v's Outer row when one of frames belongs to it, else nil.
func outerVia(v *Via, frames []*parse.Frame) *Via {
	if v.Outer == "" {
		return nil
	}
	for i := range vias {
		if vias[i].ID != v.Outer {
			continue
		}
		for _, f := range frames {
			for _, p := range vias[i].Prefixes {
				if strings.HasPrefix(f.Func, p) {
					return &vias[i]
				}
			}
		}
	}
	return nil
}

// viaFor tells, for a thread classified as sig (nil: unclassified), what
// its state waits on (the via: only states that wait on a peer are told
// apart by their caller; a semacquire by the package whose lock it is),
// the resource it holds, and whether the state is a rest for this caller.
func viaFor(table []Signature, sig *Signature, t *parse.Thread) (via, holds string, rest bool) {
	v := viaOf(t)
	if v != nil {
		holds = v.Holds
	}
	if sig == nil {
		return "", holds, false
	}
	switch sig.Resource {
	case "peer-reply", "peer-connect", "peer-drain", "fd":
		if v != nil {
			via = v.ID
		}
	}
	if sig.ViaCaller {
		via = callerPackage(t)
	}
	if sig.ViaInner {
		via = innerState(table, t)
	}
	if sig.ViaMonitor {
		via = monitorClass(t)
	}
	if sig.Borrow {
		via = borrowPool(t) // the pool's class: which pool, when a process has several
	}
	rest = sig.Rest || v != nil && v.Rest && via != "" || sig.RestUnlessVia && via == ""
	if sig.TaskWait && inPoolTask(t) {
		// The task waits (structure.go): named by its first own caller.
		via, rest = taskCaller(t), false
	}
	return via, holds, rest
}

// callerPackage is the package of the first frame outside the runtime and
// its semaphore helpers: whose lock a semacquire waits on
// ("internal/poll" for internal/poll.(*fdMutex).rwlock,
// "golang.org/x/sync/semaphore" for (*Weighted).Acquire); "" if none.
func callerPackage(t *parse.Thread) string {
	for _, f := range t.Frames {
		fn := f.Func
		if strings.HasPrefix(fn, "runtime.") || strings.Contains(fn, ".runtime_") {
			continue
		}
		slash := strings.LastIndexByte(fn, '/')
		if dot := strings.IndexByte(fn[slash+1:], '.'); dot >= 0 {
			return fn[:slash+1+dot]
		}
		return fn
	}
	return ""
}

// virtualParkFrames are the JDK frames between a virtual thread's wait and
// its park: what a pinned virtual thread's stack shows above the wait.
// Not a [roles] key: the JDK's own park frames, a JDK fact.
var virtualParkFrames = []string{"jdk.internal.misc.Unsafe.park", "java.lang.VirtualThread.", "java.lang.System$1.parkVirtualThread",
	"java.lang.System$2.parkVirtualThread", "jdk.internal.misc.VirtualThreads.park"}

// jvmParkFrames are the frames a JVM thread parks through; signature
// depths count past them.
// Not a [roles] key: the JDK's own park frames, a JDK fact.
var jvmParkFrames = []string{"jdk.internal.misc.Unsafe.park", "sun.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park",
	"java.lang.VirtualThread.park", "java.lang.System$1.parkVirtualThread", "java.lang.System$2.parkVirtualThread",
	"jdk.internal.misc.VirtualThreads.park", "sun.nio.ch.Poller.poll"}

// innerState classifies the stack of a pinned virtual thread under its
// park frames, by the analysis's table (a signatures file's rows first):
// "socket-read", "lock-wait", "sleep"; "" when unknown.
func innerState(table []Signature, t *parse.Thread) string {
	i := 0
	for i < len(t.Frames) && anyPrefix(t.Frames[i].Func, virtualParkFrames) {
		i++
	}
	if i == 0 || i == len(t.Frames) {
		return ""
	}
	inner := *t
	inner.Frames = t.Frames[i:]
	for j := range table {
		s := &table[j]
		if s.Runtime == parse.RuntimeJVM && !s.ViaInner && s.Category == Waiting && len(s.Anchors) > 0 && s.matches(&inner) {
			return s.ID
		}
		if s.Runtime == parse.RuntimeJVM && s.Resource == "time" && s.matches(&inner) {
			return s.ID
		}
	}
	return ""
}

func anyPrefix(fn string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(fn, p) {
			return true
		}
	}
	return false
}

// monitorClass is the class of the object a JVM thread waits on
// (Object.wait), when it is not the JDK's: "com.sap.engine.lib.util.WaitQueue".
func monitorClass(t *parse.Thread) string {
	for _, l := range t.Locks() {
		if l.Kind != parse.LockWaitingOn || l.Class == "" {
			continue
		}
		if anyPrefix(l.Class, []string{"java.", "javax.", "jdk.", "sun.", "[L", "[B"}) {
			return ""
		}
		return l.Class
	}
	return ""
}
