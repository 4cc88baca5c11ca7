package analyze

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dumpdiff/dumpdiff/parse"
)

// scenarioMoments are the moments of each scenario folder, in order; a
// folder not listed has before, during-1, during-2 and after.
// go-slow-upstream-leak adds after-2, taken once the slow upstream calls have
// all returned (see its README.md).
var scenarioMoments = map[string][]string{
	"go-slow-upstream-leak": {"before", "during-1", "during-2", "after", "after-2"},
}

// loadMoments parses dir/MOMENT.txt for each moment: real dumps written by
// real servers and runtimes (see each folder's README.md).
func loadMoments(t *testing.T, dir string, moments []string) []Input {
	t.Helper()
	var in []Input
	for _, m := range moments {
		path := filepath.Join(dir, m+".txt")
		if strings.HasSuffix(m, ".gz") || strings.HasSuffix(m, ".json") || strings.HasSuffix(m, ".txt") {
			path = filepath.Join(dir, m) // a file name with its extension
		}
		if _, err := os.Stat(path); err != nil {
			t.Fatalf("%s has no %s.txt: the fixtures are committed; regenerate with make fixtures", dir, m)
		}
		ds, err := parse.ParseFile(path)
		if err != nil {
			t.Fatal(err)
		}
		in = append(in, Input{Label: m, Dump: ds[0]})
	}
	return in
}

// loadScenario parses testdata/scenarios/NAME for the moments of NAME.
func loadScenario(t *testing.T, name string) []Input {
	moments := scenarioMoments[name]
	if moments == nil {
		moments = []string{"before", "during-1", "during-2", "after"}
	}
	return loadMoments(t, filepath.Join("..", "testdata", "scenarios", name), moments)
}

// cuts are how a scenario is judged: whole; without its healthy before
// (the engineer arrived mid-incident); and as its first during dump alone.
func cuts(in []Input) map[string][]Input {
	var during []Input
	for _, x := range in {
		if strings.HasPrefix(x.Label, "during") {
			during = append(during, x)
		}
	}
	return map[string][]Input{"full": in, "no-before": in[1:], "single": during[:1]}
}

// want is one finding a cut must give, with facts to check.
type want struct {
	kind, pool, state string
	check             func(t *testing.T, f Finding)
}

// TestScenarioVerdicts checks the verdict of each real incident in every
// cut: the findings it must give (kind, pool, state and their facts) and
// that it gives no other finding: nothing false, and one story per cause.
func TestScenarioVerdicts(t *testing.T) {
	tomcat := "http-nio-18080-exec-*"
	tests := []struct {
		scenario, cut string
		want          []want
	}{
		{"slow-upstream-no-timeout", "full", []want{
			{KindNotRecovered, tomcat, "socket-read", func(t *testing.T, f Finding) {
				eq(t, "last count", f.Counts[3], 200)
				eq(t, "same", f.Same, 200)
				eq(t, "culprit", f.Culprit, "com.example.shop.UpstreamClient.fetch(UpstreamClient.java:25)")
				eq(t, "entry", f.Entries[0].Func, "com.example.shop.ProductServlet.doGet(ProductServlet.java:22)")
				eq(t, "from start", f.FromStart, false)
			}},
			{KindSaturated, tomcat, "socket-read", func(t *testing.T, f Finding) {
				eq(t, "limit", f.Limit, Limit{Size: 200, Source: "default", What: "Tomcat maxThreads default"})
				eq(t, "caused by", f.CausedBy, "not-recovered "+tomcat+" socket-read http-client")
				eq(t, "idle", f.Idle, 0)
			}},
		}},
		{"slow-upstream-no-timeout", "no-before", []want{
			{KindStuck, tomcat, "socket-read", func(t *testing.T, f Finding) {
				eq(t, "same", f.Same, 200)
				eq(t, "always", f.Always, 200)
				eq(t, "from start", f.FromStart, true)
				eq(t, "resource", f.Resource, "peer-reply")
			}},
			{KindSaturated, tomcat, "socket-read", func(t *testing.T, f Finding) {
				eq(t, "caused by", f.CausedBy, "stuck "+tomcat+" socket-read http-client")
			}},
		}},
		// One dump: all 200 workers wait on one peer inside their
		// requests, said as that dump's evidence (issue 33), the pool
		// saturated by it.
		{"slow-upstream-no-timeout", "single", []want{
			{KindStuck, tomcat, "socket-read", func(t *testing.T, f Finding) {
				eq(t, "basis", f.Basis, "one-dump-pool")
				eq(t, "waiting", f.Counts[0], 200)
			}},
			{KindSaturated, tomcat, "socket-read", func(t *testing.T, f Finding) {
				eq(t, "waiting", f.Waiting, 200)
				eq(t, "limit source", f.Limit.Source, "default")
			}},
		}},
		// The fix: 20 threads in socket read under a 2 s timeout, the rest idle.
		{"slow-upstream-bulkhead", "full", []want{{KindRecovered, tomcat, "socket-read", nil}}},
		{"slow-upstream-bulkhead", "no-before", nil},
		{"slow-upstream-bulkhead", "single", nil},
		{"completablefuture-thread-per-task", "full", []want{
			{KindExplosion, "Thread-*", "socket-read", func(t *testing.T, f Finding) {
				eq(t, "basis", f.Basis, "thread-per-task")
				eq(t, "totals at before", f.Totals[0] < 50, true)
				eq(t, "totals at peak", f.Totals[f.At] > 1500, true)
				eq(t, "pool at before", f.Counts[0], 0)
			}},
			{KindNotRecovered, "Thread-*", "socket-read", func(t *testing.T, f Finding) {
				eq(t, "caused by", f.CausedBy, "explosion")
			}},
			{KindRecovered, tomcat, "future-wait", nil},
		}},
		{"completablefuture-thread-per-task", "no-before", []want{{KindStuck, "Thread-*", "socket-read", nil}}},
		// One dump: the 976 task threads of the moment all read the one
		// upstream, with no timeout: said as that dump's evidence.
		{"completablefuture-thread-per-task", "single", []want{
			{KindStuck, "Thread-*", "socket-read", func(t *testing.T, f Finding) {
				eq(t, "basis", f.Basis, "one-dump-pool")
				eq(t, "waiting", f.Counts[0], 976)
			}},
		}},
		{"mypage-pool-stuck", "full", []want{
			{KindNotRecovered, "mypage-*", "socket-read", func(t *testing.T, f Finding) {
				eq(t, "at peak", f.Counts[f.At], 70)
				eq(t, "pool", f.PoolCounts[f.At], 80)
			}},
			{KindRecovered, tomcat, "future-wait", nil},
		}},
		{"mypage-pool-stuck", "no-before", []want{
			{KindStuck, "mypage-*", "socket-read", func(t *testing.T, f Finding) {
				eq(t, "stayed", f.Same, 70)
				eq(t, "always", f.Always, 36)
				eq(t, "entry", strings.HasPrefix(f.Entries[0].Func, "com.example.shop.MyPageService.lambda$load$0("), true)
			}},
		}},
		{"mypage-pool-stuck", "single", nil},
		{"hikari-pool-exhausted", "full", []want{
			{KindDBPoolExhausted, tomcat, "db-pool-wait", func(t *testing.T, f Finding) {
				eq(t, "severity", f.Severity, Warning) // recovered at after
				eq(t, "at peak", f.Counts[f.At], 96)
				eq(t, "resource", f.Resource, "db-connection")
				if d := cmp.Diff([]HolderGroup{{Pool: tomcat, State: "socket-read", Via: "jdbc org.postgresql",
					Culprit: "com.example.shop.OrderRepository.recentOrderSummary(OrderRepository.java:27)", Count: 10}}, f.Holders); d != "" {
					t.Errorf("holders (-want +got):\n%s", d)
				}
				eq(t, "probe", probe(f.Entries), "com.example.shop.HealthServlet.doGet(HealthServlet.java:26)")
			}},
		}},
		{"hikari-pool-exhausted", "no-before", []want{
			{KindDBPoolExhausted, tomcat, "db-pool-wait", func(t *testing.T, f Finding) {
				eq(t, "from start", f.FromStart, true)
				eq(t, "severity", f.Severity, Warning)
			}},
		}},
		{"hikari-pool-exhausted", "single", []want{
			{KindDBPoolExhausted, tomcat, "db-pool-wait", func(t *testing.T, f Finding) {
				eq(t, "severity", f.Severity, Critical)
				eq(t, "waiting", f.Counts[0], 93)
				eq(t, "holders", f.Holders[0].Count, 10)
				eq(t, "probe", probe(f.Entries), "com.example.shop.HealthServlet.doGet(HealthServlet.java:26)")
			}},
		}},
		// At after both faults hold 150 goroutines; at after-2 the upstream
		// calls have returned (a slow dependency) and the senders have not (a leak).
		{"go-slow-upstream-leak", "full", []want{
			{KindNotRecovered, "main.(*server).handleSearch", "chan-send", func(t *testing.T, f Finding) {
				eq(t, "last", f.Counts[4], 150)
				eq(t, "culprit", f.Culprit, "main.(*server).handleSearch.func1 (main.go:97)")
			}},
			{KindRecovered, "net/http server connections", "http-client-wait", func(t *testing.T, f Finding) {
				eq(t, "entry", f.Entries[0].Func, "main.(*server).handleItems (main.go:76)")
			}},
		}},
		{"go-slow-upstream-leak", "no-before", []want{
			{KindNotRecovered, "main.(*server).handleSearch", "chan-send", nil},
			{KindRecovered, "net/http server connections", "http-client-wait", nil},
		}},
		{"go-slow-upstream-leak", "single", nil},
	}
	for _, tt := range tests {
		t.Run(tt.scenario+"/"+tt.cut, func(t *testing.T) {
			r := Analyze(cuts(loadScenario(t, tt.scenario))[tt.cut], Options{})
			checkVerdicts(t, r, tt.want)
		})
	}
}

// checkVerdicts checks that r gives exactly the wanted findings.
func checkVerdicts(t *testing.T, r *Result, ws []want) {
	t.Helper()
	used := make([]bool, len(r.Findings))
	for _, w := range ws {
		found := false
		for i, f := range r.Findings {
			if used[i] || f.Kind != w.kind || f.Pool != w.pool || f.State != w.state {
				continue
			}
			used[i], found = true, true
			if w.check != nil {
				w.check(t, f)
			}
			break
		}
		if !found {
			t.Errorf("no %s finding for %s in %s", w.kind, w.pool, w.state)
		}
	}
	for i, f := range r.Findings {
		if !used[i] {
			t.Errorf("unexpected finding: %s %s %s (%s)", f.Kind, f.Pool, f.State, f.ID)
		}
	}
}

func probe(es []FrameCount) string {
	for _, e := range es {
		if e.Probe {
			return e.Func
		}
	}
	return ""
}

func eq[T comparable](t *testing.T, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// TestVerdictFixtures judges small real dumps made for one verdict each
// (testdata/verdicts, see each README.md), in every cut that makes sense.
func TestVerdictFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	tests := []fixtureCase{
		{"go-mutex-contention", []string{"go1.26.8"}, []want{
			{KindContention, "main.startUpdaters", "mutex-wait", func(t *testing.T, f Finding) {
				eq(t, "waiters", f.Counts[0], 40)
				eq(t, "class", f.Lock.Class, "sync.Mutex")
				eq(t, "inferred", f.Lock.OwnerInferred, true)
				eq(t, "owner culprit", f.Lock.Owner.Culprit, "main.(*store).fetchUpstream (main.go:65)")
				// fetchUpstream's receiver is printed, the waiters' too: the
				// same holder, told by the value they share (issue 33).
				eq(t, "basis", f.Basis, "owner-by-receiver")
			}},
		}},
		{"go-mutex-contention", []string{"go1.27.3"}, []want{
			{KindContention, "main.startUpdaters", "mutex-wait", func(t *testing.T, f Finding) {
				eq(t, "owner state", f.Lock.Owner.State, "socket-read")
			}},
		}},
		{"go-long-wait-leak", []string{"1", "2"}, []want{
			{KindLeaked, "main.handleSearch", "chan-send", func(t *testing.T, f Finding) {
				eq(t, "basis", f.Basis, "long-wait")
				eq(t, "at", f.At, 1)
				eq(t, "wait", *f.Wait, WaitFact{MinMinutes: 2, MaxMinutes: 2, Goroutines: 60})
				eq(t, "parents", f.Parents, 60)
				eq(t, "same", f.Same, 60)
			}},
		}},
		{"go-long-wait-leak", []string{"1"}, []want{{KindLeaked, "main.handleSearch", "chan-send", nil}}},
		// debug=1 prints no wait: 60 of 80 goroutines at one line at both
		// moments is the evidence left (by mass).
		{"go-long-wait-leak", []string{"1-debug1.txt", "2-debug1.txt"}, []want{
			{KindLeaked, "main.handleSearch.func1", "unknown", func(t *testing.T, f Finding) {
				eq(t, "basis", f.Basis, "mass")
				eq(t, "counts", fmt.Sprint(f.Counts), "[60 60]")
				eq(t, "totals", fmt.Sprint(f.Totals), "[80 80]")
				eq(t, "culprit", f.Culprit, "main.handleSearch.func1 (main.go:50)")
			}},
		}},
		// Go 1.13 (no parent ids) leaks one goroutine in select per GET
		// /subscribe: waves of 100 at 0 s, ~65 s and ~135 s; 12 workers rest
		// in select since startup (one wait: 2, then 3 minutes), 50
		// keep-alive clients keep the ordinary goroutines short.
		{"go113-select-leak", []string{"1.txt.gz", "2.txt.gz"}, []want{
			{KindLeaked, "main.(*hub).handleSubscribe", "select", func(t *testing.T, f Finding) {
				eq(t, "basis", f.Basis, "long-wait")
				eq(t, "wait", *f.Wait, WaitFact{MinMinutes: 1, MaxMinutes: 3, Goroutines: 300})
				eq(t, "parents", f.Parents, 0)
				eq(t, "same", f.Same, 200)
				eq(t, "culprit", f.Culprit, "main.(*hub).watch (main.go:74)")
				eq(t, "creator", f.Entries[0].Func, "main.(*hub).watch (main.go:74) ← main.(*hub).handleSubscribe")
			}},
		}},
		{"go113-select-leak", []string{"1.txt.gz"}, []want{
			{KindLeaked, "main.(*hub).handleSubscribe", "select", func(t *testing.T, f Finding) {
				eq(t, "wait", *f.Wait, WaitFact{MinMinutes: 1, MaxMinutes: 2, Goroutines: 200})
			}},
		}},
		// The same process in debug=1 and the proto: by mass, in every
		// encoding and across encodings.
		{"go113-select-leak", []string{"1-debug1.txt", "2-debug1.txt"}, []want{{KindLeaked, "main.(*hub).watch", "unknown", mass(200, 267, 300, 367)}}},
		{"go113-select-leak", []string{"1.pb.gz", "2.pb.gz"}, []want{{KindLeaked, "main.(*hub).watch", "select", mass(200, 267, 300, 367)}}},
		{"go113-select-leak", []string{"1-debug1.txt", "2.pb.gz"}, []want{{KindLeaked, "main.(*hub).watch", "select", mass(200, 267, 300, 367)}}},
		// Issue 22's example, made here (testdata/gen/go-mass-leak): 5,067
		// of 5,170 goroutines forgotten at one line, debug=1 and proto 5 s
		// apart, no wait printed: a leak by mass, flat.
		{"go-mass-leak", []string{"1-debug1.txt", "2-debug1.txt"}, []want{{KindLeaked, "main.(*registry).watch", "unknown", massAt("main.(*registry).watch (main.go:22)", 5067, 5170, 5067, 5170)}}},
		{"go-mass-leak", []string{"1.pb.gz", "2.pb.gz"}, []want{{KindLeaked, "main.(*registry).watch", "chan-receive", massAt("main.(*registry).watch (main.go:22)", 5067, 5170, 5067, 5170)}}},
		{"go-mass-leak", []string{"1-debug1.txt", "2.pb.gz"}, []want{{KindLeaked, "main.(*registry).watch", "chan-receive", massAt("main.(*registry).watch (main.go:22)", 5067, 5170, 5067, 5170)}}},
		// Live sets (testdata/gen/go-livesets): a goroutine per session or
		// subscriber, flat at three moments, is at most a suspect said as
		// info (150 sessions in a select debug=1 hides; 50 subscribers on
		// a channel); caught woken at their receive in debug=2 (Go 1.26:
		// 51 runnable right after a publish) it is no rise; a subscriber
		// per request never removed grows, and is said so.
		{"go-livesets-sessions-healthy", []string{"1.txt", "2.txt", "3.txt"}, []want{{KindLeaked, "main.(*session).serve", "unknown", severity(Info)}}},
		{"go113-livesets-sessions-healthy", []string{"1.txt", "2.txt", "3.txt"}, []want{{KindLeaked, "main.(*session).serve", "unknown", severity(Info)}}},
		{"go-livesets-subscribers-debug1-healthy", []string{"1.txt", "2.txt", "3.txt"}, []want{{KindLeaked, "main.(*broker).subscribe.func1", "unknown", severity(Info)}}},
		{"go113-livesets-subscribers-debug1-healthy", []string{"1.txt", "2.txt", "3.txt"}, []want{{KindLeaked, "main.(*broker).subscribe.func1", "unknown", severity(Info)}}},
		{"go-livesets-subscribers-healthy", []string{"1.txt", "2.txt", "3.txt"}, nil},
		{"go113-livesets-subscribers-healthy", []string{"1.txt", "2.txt", "3.txt"}, nil},
		{"go-livesets-subscribe-leak", []string{"1.txt", "2.txt", "3.txt"}, []want{{KindGrowing, "main.(*broker).subscribe.func1", "unknown", severity(Critical)}}},
		{"go113-livesets-subscribe-leak", []string{"1.txt", "2.txt", "3.txt"}, []want{{KindGrowing, "main.(*broker).subscribe.func1", "unknown", severity(Critical)}}},
		// A process at rest for minutes (testdata/gen/go-idle-long): 200
		// subscribers in select from 200 parents and 300 idle workers, all
		// waiting 2 minutes: nothing is long for this process, and the
		// workers' mass (60%) is a pool at rest, told by its printed waits.
		{"go-idle-long", []string{"1.txt.gz"}, nil},
		{"go-idle-long", []string{"1.txt.gz", "2.txt.gz"}, nil},
		// One moment cannot say flat or growing: mass alone is a suspect
		// said as info (as many live goroutines look the same), no more.
		{"go113-select-leak", []string{"1-debug1.txt"}, []want{{KindLeaked, "main.(*hub).watch", "unknown", func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, "mass-one")
			eq(t, "severity", f.Severity, Info)
			eq(t, "counts", f.Counts[0], 200)
		}}}},
		// Healthy and busy (Go 1.13): 1000 held server-sent-event streams,
		// each a handler in select for a minute and a heartbeat in select,
		// their connections' background reads in IO wait for a minute, 12
		// idle workers; 50 keep-alive clients. Nothing, in every encoding.
		{"go113-busy-healthy", []string{"1.txt.gz", "2.txt.gz"}, nil},
		{"go113-busy-healthy", []string{"1.txt.gz"}, nil},
		{"go113-busy-healthy", []string{"1-debug1.txt", "2-debug1.txt"}, nil},
		{"go113-busy-healthy", []string{"1.pb.gz", "2.pb.gz"}, nil},
		{"go113-busy-healthy", []string{"1-debug1.txt", "2.pb.gz"}, nil},
		// The same busy server on Go 1.26 (parents printed): nothing either.
		{"go-busy-healthy", []string{"1.txt.gz", "2.txt.gz"}, nil},
		{"go-busy-healthy", []string{"1.txt.gz"}, nil},
		{"go-busy-healthy", []string{"1-debug1.txt", "2-debug1.txt"}, nil},
		{"go-busy-healthy", []string{"1.pb.gz", "2.pb.gz"}, nil},
		{"go-busy-healthy", []string{"1-debug1.txt", "2.pb.gz"}, nil},
		// golang.org/x/sync/semaphore: 10 goroutines wait for a permit the
		// two holders never give back (issue 33: a semaphore, not a select);
		// the same semaphore free at a light load says nothing.
		// Its README names the holders, the 2 sleeping exports: they stand
		// past the waiters' Acquire in main.export (poolholders.go).
		{"go-semaphore-stuck", []string{"1", "2", "3"}, []want{{PoolExhaustedKind(weightedResource), "main.startRequests", "semaphore-wait", func(t *testing.T, f Finding) {
			eq(t, "severity", f.Severity, Critical)
			eq(t, "resource", f.Resource, weightedResource)
			eq(t, "holders", fmt.Sprintln(len(f.Holders), f.Holders[0].Count, f.Holders[0].State, f.HolderBasis), fmt.Sprintln(1, 2, "sleep", holderBasisPast))
			eq(t, "culprit", strings.SplitN(f.Culprit, " ", 2)[0], "main.export")
		}}}},
		{"go-semaphore-healthy", []string{"1", "2", "3"}, nil},
		// Locks not had for a minute, as the runtime prints (two lookups
		// behind a cache refresh stuck in a read, a writer behind a reader
		// stuck on a channel): contention however few the waiters, in one
		// dump too. Their control passes the locks in microseconds, beside
		// a Cond and a WaitGroup waited on for minutes: nothing.
		{"go-lock-held-stuck", []string{"1", "2", "3"}, []want{
			{KindContention, "main.main.func2", "mutex-wait", func(t *testing.T, f Finding) {
				eq(t, "waiters", fmt.Sprint(f.Counts), "[2 2 2]")
				eq(t, "minutes", f.Wait.MaxMinutes, 1)
				eq(t, "culprit", strings.HasPrefix(f.Culprit, "main.(*cache).get"), true)
				// Inferred by type: the one goroutine in another method of
				// *cache, not waiting for a lock, is the refresh's read.
				eq(t, "holder state", f.Lock.Owner.State, "socket-read")
				eq(t, "holder culprit", strings.HasPrefix(f.Lock.Owner.Culprit, "main.(*cache).refresh"), true)
			}},
			{KindContention, "main.main.func2", "rwmutex-wait", func(t *testing.T, f Finding) {
				// The writer's Lock prints the address, the reader's inlined
				// RLock none: one lock, by *registry (joinByType).
				eq(t, "waiters", fmt.Sprint(f.Counts), "[2 2 2]")
				eq(t, "culprits", len(f.Culprits), 2)
				eq(t, "holder frame", strings.HasPrefix(f.Lock.Owner.Frame, "main.(*registry).scan"), true)
			}},
		}},
		{"go-lock-held-stuck", []string{"1"}, []want{
			{KindContention, "main.main.func2", "mutex-wait", nil},
			{KindContention, "main.main.func2", "rwmutex-wait", nil},
		}},
		{"go-lock-held-healthy", []string{"1", "2", "3"}, nil},
		{"go-lock-held-healthy", []string{"1"}, nil},
		// Healthy: idle keep-alive connections, idle workers, a ticker, a
		// few busy handlers. Nothing to say, whatever the cut.
		{"go-healthy", []string{"1", "2", "3"}, nil},
		{"go-healthy", []string{"2", "3"}, nil},
		{"go-healthy", []string{"1"}, nil},
	}
	runFixtureCases(t, dir, tests)
}

// mass checks a leak found by mass: the stack's counts and the process's
// totals at the two moments, and go113-select-leak's culprit.
func mass(c1, t1, c2, t2 int) func(t *testing.T, f Finding) {
	return massAt("main.(*hub).watch (main.go:74)", c1, t1, c2, t2)
}

// massAt is mass with the culprit the leak must name.
func massAt(culprit string, c1, t1, c2, t2 int) func(t *testing.T, f Finding) {
	return func(t *testing.T, f Finding) {
		eq(t, "basis", f.Basis, "mass")
		eq(t, "counts", fmt.Sprint(f.Counts), fmt.Sprint([]int{c1, c2}))
		eq(t, "totals", fmt.Sprint(f.Totals), fmt.Sprint([]int{t1, t2}))
		eq(t, "culprit", f.Culprit, culprit)
	}
}

// TestJVMVerdictFixtures: real JVM 17 dumps made for one verdict each
// (testdata/verdicts/jvm-*, see each README.md).
func TestJVMVerdictFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	bank := func(state, resource string) func(t *testing.T, f Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, "jvm-report")
			eq(t, "cycle", len(f.Cycle), 2)
			eq(t, "state", f.State, state)
			eq(t, "resource", f.Resource, resource)
			// audit and the eight tellers only wait on the cycle: folded in.
			eq(t, "blocked", len(f.Blocked), 9)
			eq(t, "culprit", strings.HasPrefix(f.Cycle[0].Culprit, "com.example.bank.TransferService.transfer"), true)
			eq(t, "holder", f.Cycle[0].WaitsFor.Holder, f.Cycle[1].Name)
		}
	}
	tests := []fixtureCase{
		{"jvm-lock-order-deadlock", []string{"dump"}, []want{{KindDeadlock, "transfer-*", "monitor-blocked", bank("monitor-blocked", "monitor")}}},
		{"jvm-lock-order-deadlock", []string{"dump-reentrantlock"}, []want{{KindDeadlock, "transfer-*", "lock-wait", bank("lock-wait", "lock")}}},
		{"jvm-contention", []string{"1", "2"}, []want{
			{KindContention, "worker-*", "monitor-blocked", func(t *testing.T, f Finding) {
				eq(t, "waiters", f.Counts[1], 12)
				eq(t, "class", f.Lock.Class, "com.example.cache.PriceCache")
				eq(t, "owner", f.Lock.Owner.Name, "cache-refresher")
				eq(t, "owner state", f.Lock.Owner.State, "socket-read")
				eq(t, "basis", f.Basis, "owner-printed")
			}},
			{KindStuck, "worker-*", "monitor-blocked", func(t *testing.T, f Finding) {
				eq(t, "caused by", f.CausedBy, "contention 0x00000000fc090c00")
			}},
			{KindSaturated, "worker-*", "monitor-blocked", func(t *testing.T, f Finding) {
				eq(t, "limit", f.Limit, Limit{Size: 12, Source: "observed"})
				eq(t, "caused by", f.CausedBy, "stuck worker-* monitor-blocked")
			}},
			{KindContention, "ledger-*", "lock-wait", func(t *testing.T, f Finding) {
				eq(t, "owner", f.Lock.Owner.Name, "ledger-compactor")
				eq(t, "owner state", f.Lock.Owner.State, "sleep")
			}},
			{KindStuck, "ledger-*", "lock-wait", nil},
		}},
		{"jvm-contention", []string{"1"}, []want{
			{KindContention, "worker-*", "monitor-blocked", nil},
			{KindSaturated, "worker-*", "monitor-blocked", func(t *testing.T, f Finding) {
				eq(t, "limit source", f.Limit.Source, "current")
			}},
			{KindContention, "ledger-*", "lock-wait", nil},
		}},
		{"jvm-stuck-pool", []string{"1", "2"}, []want{
			{KindStuck, "report-*", "socket-read", func(t *testing.T, f Finding) {
				eq(t, "same", f.Same, 36)
				eq(t, "culprit", f.Culprit, "com.example.report.UpstreamClient.fetch(UpstreamClient.java:26)")
			}},
			{KindStuck, "req-*", "future-wait", func(t *testing.T, f Finding) {
				eq(t, "caused by", f.CausedBy, "stuck report-* socket-read")
			}},
			// The request pool of 8, every thread in Future.get: full
			// (its README: "the request pool is stuck behind them").
			{KindSaturated, "req-*", "future-wait", func(t *testing.T, f Finding) {
				eq(t, "limit", f.Limit, Limit{Size: 8, Source: "observed"})
				eq(t, "caused by", f.CausedBy, "stuck req-* future-wait")
			}},
		}},
		// Issue 33, small pools (testdata/gen/verdicts-pools; READMEs written
		// from the source first): a fixed pool of 8, 4 sleeping in their task
		// and 4 BLOCKED on a monitor whose holder sleeps, is stuck and
		// saturated, and the holder is named.
		{"small-pool-stuck", []string{"1", "2", "3"}, []want{
			{KindStuck, "order-worker-*", "sleep", func(t *testing.T, f Finding) {
				eq(t, "same", f.Same, 4)
				eq(t, "pool", f.PoolCounts[2], 8)
			}},
			{KindContention, "order-worker-*", "monitor-blocked", func(t *testing.T, f Finding) {
				eq(t, "waiters", fmt.Sprint(f.Counts), "[4 4 4]")
				eq(t, "owner", f.Lock.Owner.Name, "ledger-flusher")
				eq(t, "owner state", f.Lock.Owner.State, "sleep")
				eq(t, "class", f.Lock.Class, "com.example.pools.SmallPoolApp$Ledger")
			}},
			{KindStuck, "order-worker-*", "monitor-blocked", func(t *testing.T, f Finding) {
				eq(t, "caused by", strings.HasPrefix(f.CausedBy, "contention "), true)
			}},
			{KindSaturated, "order-worker-*", "monitor-blocked", func(t *testing.T, f Finding) {
				eq(t, "limit", f.Limit, Limit{Size: 8, Source: "observed"})
				eq(t, "idle", f.Idle, 0)
				eq(t, "waiting", f.Waiting, 8)
			}},
		}},
		// Cut to two moments it is the same story; one dump alone says no
		// pool is stuck or full (one moment cannot show that threads stay).
		{"small-pool-stuck", []string{"2", "3"}, []want{{KindStuck, "order-worker-*", "sleep", nil},
			{KindContention, "order-worker-*", "monitor-blocked", nil}, {KindStuck, "order-worker-*", "monitor-blocked", nil},
			{KindSaturated, "order-worker-*", "monitor-blocked", nil}}},
		{"small-pool-stuck", []string{"1"}, nil},
		// An executor of 4, all in a socket read that never returns.
		{"fetch-pool-stuck", []string{"1", "2", "3"}, []want{
			{KindStuck, "fetch-worker-*", "socket-read", func(t *testing.T, f Finding) {
				eq(t, "same", f.Same, 4)
				eq(t, "culprit", strings.HasPrefix(f.Culprit, "com.example.pools.UpstreamFetcher.fetch("), true)
			}},
			{KindSaturated, "fetch-worker-*", "socket-read", func(t *testing.T, f Finding) {
				eq(t, "limit", f.Limit, Limit{Size: 4, Source: "observed"})
				eq(t, "caused by", f.CausedBy, "stuck fetch-worker-* socket-read")
			}},
		}},
		// Issue 33, waits by structure: three fixed pools held by waits no
		// row names inside their tasks (a library's own Condition, a full
		// queue's put, a barrier missing a party) are stuck and saturated,
		// each named by the task's first own caller.
		{"task-wait-stuck", []string{"1", "2", "3"}, []want{
			{KindStuck, "upload-worker-*", "park", func(t *testing.T, f Finding) {
				eq(t, "via", f.Via, "com.example.pools.BlockingCallback.block")
				eq(t, "same", f.Same, 8)
			}},
			{KindSaturated, "upload-worker-*", "park", func(t *testing.T, f Finding) {
				eq(t, "caused by", f.CausedBy, "stuck upload-worker-* park com.example.pools.BlockingCallback.block")
			}},
			{KindStuck, "event-producer-*", "queue-put", func(t *testing.T, f Finding) {
				eq(t, "resource", f.Resource, "queue-space")
				eq(t, "culprit", strings.HasPrefix(f.Culprit, "com.example.pools.EventPublisher.publish("), true)
			}},
			{KindSaturated, "event-producer-*", "queue-put", nil},
			{KindStuck, "batch-worker-*", "latch-wait", func(t *testing.T, f Finding) {
				eq(t, "via", f.Via, "com.example.pools.BatchJob.run")
			}},
			{KindSaturated, "batch-worker-*", "latch-wait", nil},
		}},
		{"task-wait-stuck", []string{"2", "3"}, []want{
			{KindStuck, "upload-worker-*", "park", nil}, {KindSaturated, "upload-worker-*", "park", nil},
			{KindStuck, "event-producer-*", "queue-put", nil}, {KindSaturated, "event-producer-*", "queue-put", nil},
			{KindStuck, "batch-worker-*", "latch-wait", nil}, {KindSaturated, "batch-worker-*", "latch-wait", nil},
		}},
		{"task-wait-healthy", []string{"1", "2", "3"}, nil},
		{"task-wait-healthy", []string{"1"}, nil},
		// Issue 33, the holder first: 33 of 40 workers BLOCKED on a monitor
		// whose holder reads from a database that never answers: contention
		// naming the holder and what it does, the root of the stuck workers.
		{"holder-db-stuck", []string{"1", "2", "3"}, []want{
			{KindContention, "request-worker-*", "monitor-blocked", func(t *testing.T, f Finding) {
				eq(t, "waiters", fmt.Sprint(f.Counts), "[33 33 33]")
				eq(t, "owner", f.Lock.Owner.Name, "cache-loader")
				eq(t, "owner state", f.Lock.Owner.State, "socket-read")
				eq(t, "owner culprit", strings.HasPrefix(f.Lock.Owner.Culprit, "com.example.pools.AccountCache.reload("), true)
				eq(t, "basis", f.Basis, "owner-printed")
			}},
			{KindStuck, "request-worker-*", "monitor-blocked", func(t *testing.T, f Finding) {
				eq(t, "caused by", strings.HasPrefix(f.CausedBy, "contention "), true)
			}},
		}},
		// A holder on CPU in a loop, owning the ReentrantLock 6 readers park
		// on: spinning is the root (cpu= grew), the rest follows from it.
		{"holder-spin-stuck", []string{"1", "2", "3"}, []want{
			{KindSpinning, "index-rebuilder", "running", func(t *testing.T, f Finding) {
				eq(t, "basis", f.Basis, "cpu-growth")
				eq(t, "waiting", f.Waiting, 6)
			}},
			{KindContention, "index-reader-*", "lock-wait", func(t *testing.T, f Finding) {
				eq(t, "owner", f.Lock.Owner.Name, "index-rebuilder")
				eq(t, "caused by", strings.HasPrefix(f.CausedBy, "spinning index-rebuilder"), true)
			}},
			{KindStuck, "index-reader-*", "lock-wait", nil},
			{KindSaturated, "index-reader-*", "lock-wait", nil},
		}},
		// A client waiting for its reply in Selector.select inside the
		// request tasks of a pool of 4: a wait for a peer, not an idle
		// selector (a rest is proven by its loop).
		{"rpc-select-stuck", []string{"1", "2", "3"}, []want{
			{KindStuck, "rpc-worker-*", "selector-reply-wait", func(t *testing.T, f Finding) {
				eq(t, "resource", f.Resource, "peer-reply")
				eq(t, "culprit", strings.HasPrefix(f.Culprit, "com.example.pools.RpcClient.call("), true)
			}},
			{KindSaturated, "rpc-worker-*", "selector-reply-wait", nil},
		}},
		{"rpc-select-healthy", []string{"1", "2", "3"}, nil},
		// A thread-per-connection server of 6 handlers: every handler in
		// its connection's socket read at every dump. Held by an upstream
		// that never answers (no CPU between the dumps), they are stuck;
		// answering a request every 100 ms (cpu= rising between every two
		// dumps), they are serving, and nothing is said.
		{"conn-server-stuck", []string{"1", "2", "3"}, []want{
			{KindStuck, "conn-handler-*", "socket-read", func(t *testing.T, f Finding) {
				eq(t, "same", f.Same, 6)
				eq(t, "culprit", strings.HasPrefix(f.Culprit, "com.example.pools.ConnServerApp$UpstreamCall.call("), true)
			}},
			{KindSaturated, "conn-handler-*", "socket-read", nil},
			// Its clients wait for the handlers' replies, as stuck.
			{KindStuck, "client-*", "socket-read", nil},
		}},
		{"conn-server-healthy", []string{"1", "2", "3"}, nil},
		{"conn-server-healthy", []string{"2", "3"}, nil},
		{"holder-db-healthy", []string{"1", "2", "3"}, nil},
		{"holder-spin-healthy", []string{"1", "2", "3"}, nil},
		// Their controls: the same small pools at a light load, each task
		// short (workers seen in a sleep or a read are in different tasks).
		{"small-pool-healthy", []string{"1", "2", "3"}, nil},
		{"small-pool-healthy", []string{"1"}, nil},
		{"fetch-pool-healthy", []string{"1", "2", "3"}, nil},
		{"fetch-pool-healthy", []string{"1"}, nil},
		// Healthy: idle executors, a scheduler, an acceptor, quiet kept-alive
		// client reads, a timer, sleepers and two busy threads.
		{"jvm-idle", []string{"1", "2", "3"}, nil},
		{"jvm-idle", []string{"2", "3"}, nil},
		{"jvm-idle", []string{"1"}, nil},
	}
	runFixtureCases(t, dir, tests)
}

// fixtureCase is a verdict fixture folder judged on some of its moments.
type fixtureCase struct {
	name    string
	moments []string
	want    []want
}

func runFixtureCases(t *testing.T, dir string, tests []fixtureCase) {
	for _, tt := range tests {
		t.Run(tt.name+"/"+strings.Join(tt.moments, ","), func(t *testing.T) {
			r := Analyze(loadMoments(t, filepath.Join(dir, tt.name), tt.moments), Options{})
			checkVerdicts(t, r, tt.want)
		})
	}
}

// severity checks a finding's severity.
func severity(want Severity) func(t *testing.T, f Finding) {
	return func(t *testing.T, f Finding) { eq(t, "severity", f.Severity, want) }
}
