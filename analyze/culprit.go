package analyze

import (
	"slices"
	"strconv"
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// frameworkPrefixes are packages that are not the application: the JDK,
// well-known servers, pools, drivers and clients. A culprit is the first
// frame from the top outside them.
// Not a [roles] key (issue 33 audit): it picks every finding's culprit
// line; a team's own framework is left in the culprit, which is its code.
var frameworkPrefixes = []string{
	"java.", "javax.", "jakarta.", "jdk.", "sun.", "com.sun.", "org.apache.catalina.", "org.apache.coyote.",
	"org.apache.tomcat.", "org.apache.naming.", "org.springframework.", "com.zaxxer.hikari.", "org.postgresql.", "com.mysql.",
	"org.mariadb.", "oracle.jdbc.", "com.microsoft.sqlserver.", "io.netty.", "reactor.", "okhttp3.", "okio.",
	"org.apache.http.", "org.apache.hc.", "kotlin.", "kotlinx.", "scala.", "org.eclipse.jetty.", "io.undertow.",
	"ch.qos.logback.", "org.slf4j.", "org.apache.logging.", "org.hibernate.", "com.fasterxml.", "org.apache.commons.",
	"com.google.common.", "io.micrometer.", "org.h2.", "org.junit.", "io.grpc.", "org.glassfish.", "org.jboss.",
	"weblogic.", "com.ibm.", "org.aspectj.", "net.bytebuddy.", "io.opentelemetry.", "brave.", "com.mchange.",
	"redis.clients.", "io.lettuce.", "com.mongodb.", "org.apache.kafka.", "com.alibaba.druid.", "com.jolbox.bonecp.", "io.agroal.",
	// The JVM vendors' own code: JRockit's locks and waits run in
	// jrockit.vm (Threads.shortNap under a blocked monitor enter).
	"jrockit.", "bea.jrockit.", "com.jrockit.", "openj9.",
}

// goLibraries are Go modules that are not the application: drivers,
// clients and frameworks. A culprit is the first frame outside them.
// Not a [roles] key (issue 33 audit): as frameworkPrefixes, it picks the
// culprit line, and a team's own module is its code.
var goLibraries = []string{"golang.org/x/", "google.golang.org/grpc", "google.golang.org/protobuf", "github.com/google/pprof",
	"github.com/jackc/", "github.com/lib/pq", "github.com/go-sql-driver/mysql", "github.com/redis/go-redis", "github.com/go-redis/redis",
	"github.com/gomodule/redigo", "go.mongodb.org/", "github.com/segmentio/kafka-go", "github.com/IBM/sarama", "github.com/Shopify/sarama",
	"github.com/twmb/franz-go", "go.opentelemetry.io/", "github.com/prometheus/", "gorm.io/", "github.com/gin-gonic/gin",
	"github.com/labstack/echo", "github.com/go-chi/chi", "github.com/gorilla/", "github.com/valyala/fasthttp", "github.com/gofiber/fiber",
	"k8s.io/", "sigs.k8s.io/", "github.com/aws/aws-sdk-go", "cloud.google.com/go", "github.com/hashicorp/", "go.uber.org/",
	"github.com/sirupsen/logrus", "github.com/rs/zerolog", "github.com/nats-io/", "github.com/rabbitmq/amqp091-go", "github.com/streadway/amqp",
	"github.com/elastic/go-elasticsearch", "github.com/olivere/elastic", "github.com/gocql/gocql", "github.com/mattn/go-sqlite3",
	"modernc.org/", "github.com/jmoiron/sqlx", "github.com/uptrace/bun", "entgo.io/", "github.com/Masterminds/squirrel"}

// isAppFrame reports whether f is application code: for the JVM, outside
// the JDK and known frameworks; for Go, package main or a module path that
// is not the standard library (goStdTop: a table, so that a module path
// with no dot, example/app, is the application's) or a known library.
func isAppFrame(rt parse.Runtime, f *parse.Frame) bool {
	fn := f.Func
	if rt == parse.RuntimeGo {
		// command-line-arguments is the package `go run file.go` and `go
		// test file_test.go` build from files named on the command line
		// (GoBench's kernels print it): the application's, without a dot.
		if strings.HasPrefix(fn, "main.") || strings.HasPrefix(fn, "command-line-arguments.") {
			return true
		}
		if goStdFunc(fn) {
			return false // standard library or runtime (goStdTop)
		}
		for _, p := range goLibraries {
			if strings.HasPrefix(fn, p) {
				return false
			}
		}
		return true
	}
	for _, p := range frameworkPrefixes {
		if strings.HasPrefix(fn, p) {
			return false
		}
	}
	return fn != "" && !cutTooEarly(f)
}

// jdkLockCaller is, for a thread waiting for a lock with no application
// frame (the JDK's own code taking a JDK lock: com.sun.jndi.ldap.pool.
// Connections.removePooledConnection under ReentrantLock.lock, judge4 12),
// the frame that called the lock: the first under the park plumbing and
// java.util.concurrent.locks. nil when sig is no lock wait, or the stack
// holds nothing else.
func jdkLockCaller(rt parse.Runtime, t *parse.Thread, sig *Signature) *parse.Frame {
	if rt != parse.RuntimeJVM || sig == nil || sig.Resource != "lock" {
		return nil
	}
	for _, f := range t.Frames {
		if anyPrefix(f.Func, jvmParkFrames) || strings.HasPrefix(f.Func, "java.util.concurrent.locks.") {
			continue
		}
		if f.Func == "java.lang.Thread.run" || f.Func == "java.lang.Thread.runWith" {
			return nil
		}
		return f
	}
	return nil
}

// threadPlumbing are the frames under every task of a JVM thread: the
// thread's start, an executor's worker loop, a task's wrappers. None of
// them is the call a thread's wait is under.
var threadPlumbing = []string{"java.lang.Thread.run", "java.lang.Thread.runWith", "java.util.concurrent.ThreadPoolExecutor",
	"java.util.concurrent.FutureTask.", "java.util.concurrent.Executors$", "java.util.concurrent.ForkJoin", "java.util.concurrent.CompletableFuture$Async",
	"java.util.concurrent.ScheduledThreadPoolExecutor", "jdk.internal.", "java.lang.VirtualThread", "java.lang.reflect.", "sun.reflect."}

// cutCaller is, for a JVM thread of a cut paste (a person chose these
// lines, and the stack often ends above the application: java-apns#120,
// druid#1653, mixpanel-java#12) waiting with no application frame, the
// call the paste shows it under: its deepest frame outside the thread
// plumbing, the entry into the library or the JDK API that waits
// ("ConnectionImpl.setAutoCommit", "HttpURLConnection.getInputStream").
// nil for another runtime, or when the stack holds only plumbing.
func cutCaller(rt parse.Runtime, t *parse.Thread) *parse.Frame {
	if rt != parse.RuntimeJVM {
		return nil
	}
	for i := len(t.Frames) - 1; i > 0; i-- { // the top frame is the wait itself
		f := t.Frames[i]
		if anyPrefix(f.Func, threadPlumbing) || strings.Contains(f.Func, "$$Lambda") || cutTooEarly(f) {
			continue
		}
		return f
	}
	return nil
}

// cutTooEarly reports whether f, a frame line cut in its name (a paste's
// last line, parse.CutNote), is cut too early to say whose it is: what is
// left is not yet a class and a method ("com.acme"), or may be the start
// of the JDK's or a framework's package ("com.sun", "org.apache").
func cutTooEarly(f *parse.Frame) bool {
	if f.Note != parse.CutNote {
		return false
	}
	if strings.Count(f.Func, ".") < 2 {
		return true
	}
	for _, p := range frameworkPrefixes {
		if strings.HasPrefix(p, f.Func) {
			return true
		}
	}
	return false
}

// culprit returns the first application frame of t, or nil.
func culprit(rt parse.Runtime, t *parse.Thread) *parse.Frame {
	for _, f := range t.Frames {
		if isAppFrame(rt, f) {
			return f
		}
	}
	return nil
}

// FrameString renders a frame the way its runtime prints it, short form:
// "com.example.UpstreamClient.fetch(UpstreamClient.java:42)" or
// "main.handler (main.go:31)".
func FrameString(f *parse.Frame) string {
	if f == nil {
		return ""
	}
	fn := normalizeGeneric(f.Func)
	file := f.File
	if i := strings.LastIndexAny(file, `/\`); i >= 0 {
		file = file[i+1:]
	}
	loc := f.Note
	if file != "" {
		loc = file
		if f.Line > 0 {
			loc += ":" + strconv.Itoa(f.Line)
		}
	}
	if loc == "" {
		return fn
	}
	if strings.HasSuffix(file, ".go") {
		return fn + " (" + loc + ")"
	}
	return fn + "(" + loc + ")"
}

// leadOf is the index in ts (goroutines or threads of one finding at
// moment m, in dump order) of the one that leads it (issue 33, "the
// holder first"): the inferred holder of the Go lock most of them wait
// for, when it is among them; else the first of the culprit most of them
// share (ties: the culprit seen first). The first in dump order is
// whichever goroutine the runtime happened to print first: a lone
// committer ahead of four authenticators waiting on the same mutex is no
// story of theirs. -1 for none.
func leadOf(p *Pass, m int, ts []*parse.Thread) int {
	if len(ts) == 0 {
		return -1
	}
	if i := holderAmong(p, m, ts, ts); i >= 0 {
		return i
	}
	return majorityCulprit(p.R.Runtime, ts)
}

// holderAmong is the index in in of the inferred holder (golocks.go) of
// the Go lock most of ts wait for; -1 when there is none, or it is not
// in in.
func holderAmong(p *Pass, m int, ts, in []*parse.Thread) int {
	if p.goLocks != nil && m < len(p.goLocks) {
		gl := p.goLocks[m]
		byLock := map[lockKey]int{}
		for k, ws := range gl.waiters {
			for _, w := range ws {
				if slices.Contains(ts, w) {
					byLock[k]++
				}
			}
		}
		var most lockKey
		n := 0
		for k, c := range byLock {
			if c > n || c == n && compareLockKeys(k, most) < 0 {
				most, n = k, c
			}
		}
		if h := gl.held[most]; n > 0 && h != nil {
			return slices.Index(in, h)
		}
	}
	return -1
}

// majorityCulprit is the index in ts of the first goroutine of the
// culprit most of ts share (ties: the one seen first).
func majorityCulprit(rt parse.Runtime, ts []*parse.Thread) int {
	count := map[string]int{}
	first := map[string]int{}
	for i, t := range ts {
		c := FrameString(culprit(rt, t))
		if _, ok := first[c]; !ok {
			first[c] = i
		}
		count[c]++
	}
	best := -1
	for c, n := range count {
		if c == "" && len(count) > 1 {
			continue // no application frame: no culprit to lead with
		}
		bc := ""
		if best >= 0 {
			bc = FrameString(culprit(rt, ts[best]))
		}
		if best < 0 || n > count[bc] || n == count[bc] && first[c] < best {
			best = first[c]
		}
	}
	return best
}
