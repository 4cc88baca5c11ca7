package analyze

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoWaitsFixtures judges real Go programs made for issue 33's Go
// classes (testdata/gen/go-waits, run by Go 1.26 and by Go 1.13.15; each
// folder's README.md says what the program does and the verdict wanted,
// written before dumpdiff ran), in every cut that makes sense: waits Go
// prints as minutes inside work, response bodies nobody closes, lock
// stories no goroutine can leave, and Go's own "all goroutines are
// asleep". Each has a healthy control of the same shape: nothing.
func TestGoWaitsFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	var tests []fixtureCase
	// Go's deadlock report names each goroutine and what it waits for.
	asleep := func(members ...string) func(t *testing.T, f Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, "go-runtime")
			var got []string
			for _, m := range f.Cycle {
				got = append(got, m.State+" "+strings.SplitN(m.Culprit, " ", 2)[0])
			}
			eq(t, "members", strings.Join(got, ", "), strings.Join(members, ", "))
		}
	}
	for _, v := range []string{"go1.26", "go1.13"} {
		wg := "waitgroup-wait"
		tests = append(tests,
			fixtureCase{"go-asleep", []string{v + "-wg.txt"}, []want{{KindDeadlock, "main", wg, asleep(wg+" main.asleepWG", "chan-receive main.asleepWG.func2")}}},
			fixtureCase{"go-asleep", []string{v + "-chan.txt"}, []want{{KindDeadlock, "main", "chan-receive", asleep("chan-receive main.asleepChan", "chan-send main.asleepChan.func1")}}},
		)
	}
	members := func(f Finding) string {
		var ms []string
		for _, m := range f.Cycle {
			ms = append(ms, strings.SplitN(m.Culprit, " ", 2)[0]+" waits "+m.WaitsFor.Class+" held by "+fmt.Sprint(m.WaitsFor.Holder != ""))
		}
		return strings.Join(ms, "; ")
	}
	cycles := []want{
		{KindDeadlock, "main.cycles", "mutex-wait", func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, "go-lock-graph")
			eq(t, "members", members(f), "main.transfer waits sync.Mutex held by true; main.transfer waits sync.Mutex held by true")
			eq(t, "blocked", len(f.Blocked), 0)
		}},
		{KindDeadlock, "main.cycles", "rwmutex-wait", func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, "go-rlock-reentry")
			eq(t, "members", members(f), "main.(*registry).count waits sync.RWMutex held by true; main.(*registry).add waits sync.RWMutex held by true")
			eq(t, "blocked", len(f.Blocked), 3)
		}},
		{KindContention, "main.cycles", "mutex-wait", func(t *testing.T, f Finding) {
			eq(t, "waiters", f.Counts[f.At], 4)
			eq(t, "holder", strings.HasPrefix(f.Lock.Owner.Culprit, "main.(*queue).flush"), true)
			eq(t, "holder state", f.Lock.Owner.State, "chan-receive")
		}},
		// The pushers and the transfers stay in their wait at every moment.
		{KindStuck, "main.cycles", "mutex-wait", nil},
	}
	stuckFor := func(n, minutes int, culprit string) func(t *testing.T, f Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, "work-wait")
			eq(t, "goroutines", f.Wait.Goroutines, n)
			eq(t, "minutes", f.Wait.MinMinutes, minutes)
			eq(t, "culprit", strings.SplitN(f.Culprit, " ", 2)[0], culprit)
		}
	}
	srv := "net/http server connections"
	handlers := []want{
		// 48 readers behind the reload for minutes: contention with its
		// holder, not a leak.
		{KindContention, srv, "rwmutex-wait", func(t *testing.T, f Finding) {
			eq(t, "waiters", f.Counts[f.At], 48)
			eq(t, "lock", f.Lock.Address, "main.(*config)")
			eq(t, "holder", strings.SplitN(f.Lock.Owner.Culprit, " ", 2)[0], "main.query")
			eq(t, "holder state", f.Lock.Owner.State, "socket-read")
		}},
		// Handlers stuck in their work, few, in one dump too.
		{KindStuck, srv, "chan-send", stuckFor(3, 5, "main.(*server).handleExport")},
		{KindStuck, srv, "select", stuckFor(2, 5, "main.(*server).handleWatch")},
		{KindStuck, srv, "socket-read", stuckFor(2, 5, "main.query")},
		// Searchers their handlers gave up on, sending to nobody in their
		// own function (Go 1.13 prints no parent: no goroutine runs
		// handleSearch).
		{KindStuck, "main.(*server).handleSearch", "chan-send", stuckFor(2, 5, "main.(*server).handleSearch.func1")},
	}
	for _, v := range []string{"", "-go113"} {
		tests = append(tests,
			fixtureCase{"go-waits-handlers" + v, []string{"1.txt.gz", "2.txt.gz", "3.txt.gz"}, handlers},
			fixtureCase{"go-waits-handlers" + v, []string{"1.txt.gz"}, handlers},
			fixtureCase{"go-waits-handlers-healthy" + v, []string{"1.txt.gz", "2.txt.gz", "3.txt.gz"}, nil},
			fixtureCase{"go-waits-handlers-healthy" + v, []string{"1.txt.gz"}, nil},
		)
		body := func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, "long-wait")
			eq(t, "goroutines", f.Wait.Goroutines, 120)
			eq(t, "resource", f.Resource, "response-body")
		}
		kept := func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, "idle-kept")
			eq(t, "goroutines", f.Wait.Goroutines, 240) // a readLoop and a writeLoop each
		}
		tests = append(tests,
			// 120 client connections whose bodies nobody closes: a leak
			// of connections, in one dump too.
			fixtureCase{"go-waits-bodies" + v, []string{"1.txt.gz", "2.txt.gz", "3.txt.gz"}, []want{{KindLeaked, "net/http client connections", "http-body-wait", body}}},
			fixtureCase{"go-waits-bodies" + v, []string{"1.txt.gz"}, []want{{KindLeaked, "net/http client connections", "http-body-wait", body}}},
			// 120 idle connections kept by Transports made per request, idle
			// past net/http's timeout: more than one client's pool keeps.
			fixtureCase{"go-waits-transports" + v, []string{"1.txt.gz", "2.txt.gz", "3.txt.gz"}, []want{{KindLeaked, "net/http client connections", "http-conn-idle", kept}}},
			fixtureCase{"go-waits-transports" + v, []string{"1.txt.gz"}, []want{{KindLeaked, "net/http client connections", "http-conn-idle", kept}}},
			fixtureCase{"go-waits-transports-healthy" + v, []string{"1.txt.gz", "2.txt.gz", "3.txt.gz"}, nil},
			fixtureCase{"go-waits-transports-healthy" + v, []string{"1.txt.gz"}, nil},
			// The same client closing its bodies: its pooled keep-alive
			// connections rest, few and bounded.
			fixtureCase{"go-waits-bodies-healthy" + v, []string{"1.txt.gz", "2.txt.gz", "3.txt.gz"}, nil},
			fixtureCase{"go-waits-bodies-healthy" + v, []string{"1.txt.gz"}, nil},
			// Three lock stories: AB-BA, a read lock re-taken behind a
			// queued writer (deadlocks, not contentions), and a mutex held
			// across a channel wait (contention, its holder the root).
			fixtureCase{"go-waits-cycles" + v, []string{"1", "2", "3"}, cycles},
			fixtureCase{"go-waits-cycles" + v, []string{"1"}, cycles[:3]}, // one moment shows no stay
			fixtureCase{"go-waits-cycles-healthy" + v, []string{"1", "2", "3"}, nil},
			fixtureCase{"go-waits-cycles-healthy" + v, []string{"1"}, nil},
		)
	}
	// errgroup's limit (x/sync v0.22.0, Go 1.26): a slot, a permit, not
	// a bare chan send; the very same 10 callers at every dump.
	tests = append(tests,
		fixtureCase{"go-errgroup-stuck", []string{"1", "2", "3"}, []want{{KindStuck, "main.startRequests", "semaphore-wait", func(t *testing.T, f Finding) {
			eq(t, "same", f.Always, 10)
			eq(t, "resource", f.Resource, "permit")
		}}}},
		fixtureCase{"go-errgroup-healthy", []string{"1", "2", "3"}, nil},
	)
	runFixtureCases(t, dir, tests)
}

// TestGoWaitsCorpus: two public-format sources of the shared corpus. A Go
// 1.15.6 debug=2 dump whose goroutines print a minute of wait each
// (DataDog/gostackparse's waitsince fixture: an accept loop, a receive
// and sleeps in their own loops, a client connection's loops) is at rest:
// nothing. Go 1.26's own deadlock report with GOTRACEBACK=all names each
// goroutine and its wait (main in a WaitGroup, a Mutex, a Cond, a select,
// a send), the Mutex's waiter first.
func TestGoWaitsCorpus(t *testing.T) {
	const corpusGo = "../../shared/corpus/go/"
	t.Run("waitsince", func(t *testing.T) {
		r := Analyze(corpusInputs(t, corpusGo+"gostackparse__go1.15.6__waitsince-minutes.txt"), Options{})
		checkVerdicts(t, r, nil)
	})
	t.Run("asleep", func(t *testing.T) {
		r := Analyze(corpusInputs(t, corpusGo+"dumpdiff-gen__go1.26.8__fatal-deadlock-gotraceback-all.txt"), Options{})
		// The Mutex's waiter leads (a lock stays held only by a goroutine
		// that never let it go); the others follow in the report's order.
		checkVerdicts(t, r, []want{{KindDeadlock, "main.main", "mutex-wait", func(t *testing.T, f Finding) {
			var states []string
			for _, m := range f.Cycle {
				states = append(states, m.State)
			}
			eq(t, "members", strings.Join(states, " "), "mutex-wait waitgroup-wait cond-wait select chan-send")
		}}})
	})
}
