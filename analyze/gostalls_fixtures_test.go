package analyze

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoStallsFixtures judges the real dumps of issue 33's Go waits nobody
// serves and Go freezes with CPU (testdata/verdicts/go-stalls-*, made by
// testdata/gen/go-stalls/gen.sh with Go 1.26 and 1.13; each README says
// what was expected, written before dumpdiff ran on them): WaitGroups no
// goroutine left can count down (unbalanced, drained by their own waiter,
// a stopper's workers on the stopper's lock, under a service and under go
// test), requests on an untimed net/http client against a silent upstream
// (in a loop of their own, under a handler), handlers looping for ever in
// a library (a file-type matcher, a config parser); and their healthy
// twins, which stay quiet together and dump by dump.
func TestGoStallsFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	three := []string{"1.txt", "2.txt", "3.txt"}
	one := []string{"1.txt"}
	unserved := func(caller string, blocked int, sev Severity) func(t *testing.T, f Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, BasisWaitGroupUnserved)
			eq(t, "culprit", f.Culprit, caller)
			eq(t, "blocked workers", f.Parents, blocked)
			eq(t, "severity", f.Severity, sev)
			eq(t, "remedy", strings.Contains(f.Remedy, "WaitGroup"), true)
		}
	}
	untimed := func(t *testing.T, f Finding) {
		eq(t, "culprit", strings.HasPrefix(f.Culprit, "main.fetchQuote "), true)
		eq(t, "remedy", strings.Contains(f.Remedy, "http.Client.Timeout"), true)
	}
	spinning := func(handler string) func(t *testing.T, f Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, "same-frames")
			for m, c := range f.Counts {
				eq(t, fmt.Sprintf("spinning at moment %d", m+1), c, 3)
			}
			eq(t, "entries", len(f.Entries) > 0 && strings.HasPrefix(f.Entries[0].Func, handler+" "), true)
		}
	}
	var tests []fixtureCase
	for _, v := range []string{"", "-go113"} {
		tests = append(tests,
			fixtureCase{"go-stalls-wg-batch" + v, three, []want{{KindLeaked, "main.main", "waitgroup-wait", unserved("main.runBatch", 0, Critical)}}},
			fixtureCase{"go-stalls-wg-drain" + v, three, []want{{KindLeaked, "main.main", "waitgroup-wait", unserved("main.collect", 3, Critical)}}},
			fixtureCase{"go-stalls-wg-stopper" + v, three, []want{{KindLeaked, "main.runNode", "waitgroup-wait", unserved("main.(*stopper).stop", 3, Critical)}}},
			fixtureCase{"go-stalls-stoptest-stuck" + v, one, []want{{KindLeaked, "testing.(*T).Run", "waitgroup-wait",
				unserved("example.com/stoptest.(*stopper).stop", 3, Warning)}}},
			fixtureCase{"go-stalls-stoptest-timeout-stuck" + v, one, []want{{KindStuck, "testing.(*T).Run", "waitgroup-wait", nil}}},
			fixtureCase{"go-stalls-http-stuck" + v, three, []want{{KindStuck, "main.main", "http-client-wait", untimed}}},
			fixtureCase{"go-stalls-proxy-stuck" + v, three, []want{{KindStuck, "net/http server connections", "http-client-wait", untimed}}},
			fixtureCase{"go-stalls-proxy-sigquit-stuck" + v, one, []want{{KindStuck, "net/http server connections", "http-client-wait", untimed}}},
			fixtureCase{"go-stalls-spin-stuck" + v, three, []want{{KindSpinning, "net/http server connections", "running", spinning("main.upload")}}},
			fixtureCase{"go-stalls-ini-stuck" + v, three, []want{{KindSpinning, "net/http server connections", "running", spinning("main.loadConfig")}}},
			// One moment cannot tell these from slow or busy requests.
			fixtureCase{"go-stalls-proxy-debug1-stuck" + v, one, nil},
			fixtureCase{"go-stalls-ini-debug1-stuck" + v, one, nil},
			fixtureCase{"go-stalls-ini-sigquit-stuck" + v, one, nil},
		)
		for _, h := range []string{"wg", "http", "spin", "proxy", "ini"} {
			name := "go-stalls-" + h + "-healthy" + v
			tests = append(tests, fixtureCase{name, three, nil})
			for _, m := range three {
				tests = append(tests, fixtureCase{name, []string{m}, nil})
			}
		}
		for _, name := range []string{"go-stalls-stoptest-healthy", "go-stalls-proxy-debug1-healthy", "go-stalls-proxy-sigquit-healthy",
			"go-stalls-ini-debug1-healthy", "go-stalls-ini-sigquit-healthy"} {
			tests = append(tests, fixtureCase{name + v, one, nil})
		}
	}
	runFixtureCases(t, dir, tests)
}
