package analyze

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCrowdFixtures judges the crowd fixtures (testdata/gen/verdicts-crowd:
// real Java 17 and Go 1.26 programs; each folder's README.md says the
// verdict wanted, written before dumpdiff ran): what one dump proves by the
// structure of its threads. A thread per request (700 in one read) and
// supplyAsync without an executor on 2 CPUs (600 asleep in their task) are
// a thread-per-task explosion on one dump, named by the frame that made
// them; a blocking server's 300 idle connections and the same load on a
// fixed pool of 16 are not. 3,000 goroutines in a send, or in a receive
// each made by its own request, are a leak suspect on one young dump; 5,000
// idle keep-alive connections and 64 idle workers are not. Two goroutines
// on two package-level mutexes taken in opposite orders, staying put at
// three moments 3 s apart, are a deadlock; the same mutexes taken in order
// are contention at most.
func TestCrowdFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	crowd := func(n int, creator string, sev Severity) func(*testing.T, Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, BasisCrowd)
			eq(t, "count", f.Counts[f.At], n)
			eq(t, "severity", f.Severity, sev)
			if len(f.Entries) == 0 || f.Entries[0].Func != creator {
				t.Errorf("creator %+v, want %s", f.Entries, creator)
			}
			if f.Remedy == "" {
				t.Error("no remedy")
			}
		}
	}
	goCrowd := func(n, parents int) func(*testing.T, Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, BasisGoCrowd)
			if f.Counts[0] < n {
				t.Errorf("count %d, want %d or more", f.Counts[0], n)
			}
			if f.Parents < parents {
				t.Errorf("parents %d, want %d or more", f.Parents, parents)
			}
		}
	}
	var pairBy func(basis string, sev Severity, a, b string) func(t *testing.T, f Finding)
	pairOf := func(a, b string) func(t *testing.T, f Finding) {
		return pairBy(basisHeldPair, Critical, a, b)
	}
	// One dump, no age: the closed waits tell the pair (golockclosed.go),
	// one moment's evidence: a warning.
	pairOne := func(a, b string) func(t *testing.T, f Finding) {
		return pairBy(basisLockClosed, Warning, a, b)
	}
	pairBy = func(basis string, sev Severity, a, b string) func(t *testing.T, f Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, basis)
			eq(t, "severity", f.Severity, sev)
			eq(t, "members", len(f.Cycle), 2)
			eq(t, "blocked", len(f.Blocked), 0)
			var at []string
			for _, m := range f.Cycle {
				at = append(at, strings.SplitN(m.Culprit, " ", 2)[0])
				if m.WaitsFor == nil || m.WaitsFor.Holder == "" || m.WaitsFor.Holder == m.Name {
					t.Errorf("member %s: holder %+v, want the other member", m.Name, m.WaitsFor)
				}
			}
			slices.Sort(at)
			eq(t, "members at", strings.Join(at, " "), a+" "+b)
		}
	}
	pair := pairOf("main.debit", "main.restock")
	fields := pairOf("main.(*store).flush", "main.(*store).put")
	logRotate := func(t *testing.T, f Finding) {
		eq(t, "basis", f.Basis, "go-arg-graph")
		eq(t, "severity", f.Severity, map[bool]Severity{true: Warning, false: Critical}[len(f.Counts) == 1])
		eq(t, "members", len(f.Cycle), 2)
		var at []string
		for _, m := range f.Cycle {
			at = append(at, strings.SplitN(m.Culprit, " ", 2)[0])
		}
		slices.Sort(at)
		eq(t, "members at", strings.Join(at, " "), "main.(*rotator).Write main.(*rotator).rotate")
		eq(t, "blocked", len(f.Blocked), 2)
	}
	massOne := func(sev Severity) func(t *testing.T, f Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, "mass-one")
			eq(t, "severity", f.Severity, sev)
		}
	}
	bodies := func(n int, sev Severity) func(t *testing.T, f Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, BasisUnreadBodies)
			eq(t, "unread", f.Counts[f.At], n)
			eq(t, "severity", f.Severity, sev)
		}
	}
	spawn := "com.example.crowd.CrowdApp$OrderService.lambda$spawn$0"
	supply := "com.example.crowd.CrowdApp$PriceService.lambda$supply$0"
	tomcatSpawn := "com.example.sources.TomcatSpawnApp$HookServlet.lambda$doPost$0"
	all := []string{"1", "2", "3"}
	one := []string{"1"}
	tests := []fixtureCase{
		{"crowd-spawn", one, []want{{KindExplosion, "Thread-*", "socket-read", crowd(700, spawn, Warning)}}},
		// Over three moments the crowd stays: critical, and its threads'
		// stuck finding is its story, not a second one.
		{"crowd-spawn", all, []want{{KindExplosion, "Thread-*", "socket-read", crowd(700, spawn, Critical)}}},
		{"crowd-supply", one, []want{{KindExplosion, "Thread-*", "sleep", crowd(600, supply, Warning)}}},
		{"crowd-supply", all, []want{{KindExplosion, "Thread-*", "sleep", crowd(600, supply, Critical)}}},
		// Second, independent source (testdata/gen/sources-real/gen.sh): a
		// real embedded Tomcat 10.1 whose servlet starts a thread per
		// request; the twin's threads end within ~20 ms.
		{"src2-crowd-tomcat", one, []want{{KindExplosion, "Thread-*", "socket-read", crowd(700, tomcatSpawn, Warning)}}},
		{"src2-crowd-tomcat", all, []want{{KindExplosion, "Thread-*", "socket-read", crowd(700, tomcatSpawn, Critical)}}},
		{"src2-crowd-tomcat-healthy", one, nil},
		{"src2-crowd-tomcat-healthy", all, nil},
		{"crowd-server-healthy", one, nil},
		{"crowd-server-healthy", all, nil},
		// A bounded pool full in one read: saturated (and stuck over three
		// moments), never an explosion.
		{"crowd-pooled-bounded", one, []want{{KindSaturated, "pool-1-thread-*", "socket-read", nil}}},
		{"crowd-pooled-bounded", all, []want{{KindSaturated, "pool-1-thread-*", "socket-read", nil}, {KindStuck, "pool-1-thread-*", "socket-read", nil}}},
		{"crowd-go-leak-send", one, []want{{KindLeaked, "main.quoteHandler", "chan-send", goCrowd(2900, 2900)}}},
		{"crowd-go-leak-send", all, []want{{KindLeaked, "main.quoteHandler", "chan-send", nil}}},
		{"crowd-go-leak-recv", one, []want{{KindLeaked, "main.watchHandler", "chan-receive", goCrowd(2900, 2900)}}},
		{"crowd-go-leak-recv", all, []want{{KindLeaked, "main.watchHandler", "chan-receive", nil}}},
		{"crowd-go-idle-healthy", one, nil},
		{"crowd-go-idle-healthy", all, nil},
		{"crowd-go-pool-healthy", one, nil},
		{"crowd-go-pool-healthy", all, nil},
		{"crowd-go-abba", all, []want{{KindDeadlock, "main.main", "mutex-wait", pair}}},
		{"crowd-go-abba", []string{"2", "3"}, []want{{KindDeadlock, "main.main", "mutex-wait", pair}}},
		{"crowd-go-abba", one, []want{{KindDeadlock, "main.main", "mutex-wait", pairOne("main.debit", "main.restock")}}},
		{"crowd-go-fields", all, []want{{KindDeadlock, "main.main", "mutex-wait", fields}}},
		{"crowd-go-fields", one, []want{{KindDeadlock, "main.main", "mutex-wait", pairOne("main.(*store).flush", "main.(*store).put")}}},
		// Go 1.13: the old traceback, no parent goroutine printed. A send
		// is no rest: its shape is enough; a receive is, and without
		// parents one dump cannot tell it from a pool (the mass rule
		// tells it over moments).
		{"crowd-go-abba-go113", all, []want{{KindDeadlock, "main.main", "mutex-wait", pair}}},
		{"crowd-go-fields-go113", all, []want{{KindDeadlock, "main.main", "mutex-wait", fields}}},
		{"crowd-go-abba-go113", one, []want{{KindDeadlock, "main.main", "mutex-wait", pairOne("main.debit", "main.restock")}}},
		{"crowd-go-leak-send-go113", one, []want{{KindLeaked, "main.quoteHandler", "chan-send", goCrowd(2900, 0)}}},
		{"crowd-go-leak-recv-go113", one, nil},
		{"crowd-go-leak-recv-go113", all, []want{{KindLeaked, "main.watchHandler", "chan-receive", nil}}},
		{"crowd-go-ordered-healthy", all, []want{{KindContention, "main.main", "mutex-wait", nil}}},
		// debug=1 prints no ids and no parents: the mass rule's suspect,
		// for the leak and for the pool alike (a known limit); a warning
		// when it is nine tenths of the process and past what a pool is
		// sized to by hand (3,000 of 3,010: LeakAloneShare, LeakFlatMin),
		// info for the 64 idle workers.
		{"crowd-go-leak-send-debug1", one, []want{{KindLeaked, "main.quoteHandler.func1", "unknown", massOne(Warning)}}},
		{"crowd-go-pool-debug1-healthy", one, []want{{KindLeaked, "main.main.func2", "unknown", massOne(Info)}}},
		{"crowd-go-idle-debug1-healthy", one, nil},
		// Second, independent source (testdata/gen/sources-real/gen-go.sh):
		// net/http's own Transport with resp.Body never closed: 2,000
		// connections lent with their body, no goroutine reading any
		// (unreadBodies), in one dump; over three moments the very same
		// ones stay: critical.
		{"src2-go-httpleak", one, []want{{KindLeaked, "net/http client connections", "http-body-wait", bodies(2000, Warning)}}},
		{"src2-go-httpleak", all, []want{{KindLeaked, "net/http client connections", "http-body-wait", bodies(2000, Critical)}}},
		{"src2-go-httpidle-healthy", one, nil},
		{"src2-go-httpidle-healthy", all, nil},
		// Second, independent source for the two-mutex order cycle
		// (gen-go.sh): log.Logger's own mutex against a rotating writer's.
		// Found over three moments, but by the argument graph (the
		// frames print the *Logger and *rotator receivers), not by the
		// held-pair rule, which takes only locks no frame names: for
		// go-held-pair this is no second source (README). One dump: the
		// same arguments tell it, a warning (one moment's evidence).
		{"src2-go-logrotate", all, []want{{KindDeadlock, "main.main", "mutex-wait", logRotate}}},
		{"src2-go-logrotate", one, []want{{KindDeadlock, "main.main", "mutex-wait", logRotate}}},
		{"src2-go-logrotate-healthy", all, nil},
		{"src2-go-logrotate-healthy", one, nil},
	}
	runFixtureCases(t, dir, tests)

	// testdata/hprof's thread-per-task scene (another program, its JVM in a
	// cgroup of 160 pids: "unable to create native thread" after 134
	// tasks), as its README expects: on the jstack alone, the crowd of
	// task-N threads (named like Spring's task executor, yet no pool's
	// loop runs them); before and after, the rise: an explosion of
	// threads made per task, and the read that never recovered.
	hprof := filepath.Join("..", "testdata", "hprof")
	for _, v := range []string{"17", "25"} {
		runFixtureCases(t, hprof, []fixtureCase{
			{"", []string{"threads-jdk" + v + ".jstack.txt"}, []want{
				{KindExplosion, "task-*", "socket-read", func(t *testing.T, f Finding) {
					eq(t, "basis", f.Basis, BasisCrowd)
					eq(t, "creator", f.Entries[0].Func, "HeapScenes.lambda$threads$3")
				}},
			}},
			{"", []string{"threads-jdk" + v + ".before.jstack.txt", "threads-jdk" + v + ".hprof.gz"}, []want{
				{KindExplosion, "task-*", "socket-read", func(t *testing.T, f Finding) { eq(t, "basis", f.Basis, "thread-per-task") }},
				{KindNotRecovered, "task-*", "socket-read", nil},
			}},
		})
	}
}
