package analyze

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestPeerWaitFixtures judges the real dumps of issue 33's peer waits
// (testdata/verdicts/go-wg-*, go-pool-peer-*, peer-pool-*, go-peerwaits-*;
// each README says how they were made and what was expected, written
// before dumpdiff ran on them), each dump alone and together.
func TestPeerWaitFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	noAdders := func(t *testing.T, f Finding) {
		eq(t, "basis", f.Basis, "no-adders")
		eq(t, "told", f.Wait.Goroutines, 2)
		// Named by the two stuck waiters, not by the healthy ones beside
		// them in the same group (exportAll, indexAll).
		for _, c := range f.Culprits {
			ok := strings.HasPrefix(c.Func, "main.runBatch ") || strings.HasPrefix(c.Func, "main.(*shutdown).wait ")
			eq(t, "culprit "+c.Func, ok, true)
		}
		eq(t, "remedy", strings.Contains(f.Remedy, "returned without Done"), true)
	}
	onePool := func(n int) func(t *testing.T, f Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, "one-dump-pool")
			eq(t, "waiting", f.Counts[0], n)
			eq(t, "severity", f.Severity, Warning)
		}
	}
	tests := []fixtureCase{
		// A WaitGroup whose goroutines all returned without Done: Go 1.26
		// (parents printed) and Go 1.13 (none: by creator function).
		{"go-wg-stuck", []string{"1.txt.gz"}, []want{{KindStuck, "main.main", "waitgroup-wait", noAdders}}},
		{"go-wg-stuck-go113", []string{"1.txt.gz"}, []want{{KindStuck, "main.main", "waitgroup-wait", noAdders}}},
		{"go-wg-healthy", []string{"1.txt.gz"}, nil},
		{"go-wg-healthy", []string{"1.txt.gz", "2.txt.gz", "3.txt.gz"}, nil},
		{"go-wg-healthy-go113", []string{"1.txt.gz"}, nil},
		{"go-wg-healthy-go113", []string{"1.txt.gz", "2.txt.gz", "3.txt.gz"}, nil},
		// A pool of 8 all in an HTTP client's round trip, one dump.
		{"go-pool-peer-stuck", []string{"1"}, []want{{KindStuck, "main.main", "http-client-wait", onePool(8)}}},
		{"go-pool-peer-stuck", []string{"3"}, []want{{KindStuck, "main.main", "http-client-wait", onePool(8)}}},
		{"go-pool-peer-stuck-go113", []string{"2"}, []want{{KindStuck, "main.main", "http-client-wait", onePool(8)}}},
		{"go-pool-peer-healthy", []string{"1"}, nil},
		{"go-pool-peer-healthy", []string{"1", "2", "3"}, nil},
		{"go-pool-peer-healthy-go113", []string{"2"}, nil},
		{"go-pool-peer-healthy-go113", []string{"1", "2", "3"}, nil},
		// The JVM's: 6 of 6 workers in the JDK HTTP client's read.
		{"peer-pool-stuck", []string{"2"}, []want{{KindStuck, "report-worker-*", "socket-read", onePool(6)}}},
		{"peer-pool-healthy", []string{"1"}, nil},
		{"peer-pool-healthy", []string{"2"}, nil},
		{"peer-pool-healthy", []string{"1", "2", "3"}, nil},
		// The service of go-peerwaits: its healthy part stays quiet on
		// Go 1.26 and 1.27, alone and with its stuck part.
		{"go-peerwaits-healthy", []string{"1.txt.gz"}, nil},
		{"go-peerwaits-healthy", []string{"1.txt.gz", "2.txt.gz", "3.txt.gz"}, nil},
		{"go-peerwaits-healthy-go127", []string{"1.txt.gz", "2.txt.gz", "3.txt.gz"}, nil},
		{"go-peerwaits-healthy-1min", []string{"1.txt.gz", "2.txt.gz", "3.txt.gz"}, nil},
		{"go-peerwaits-healthy-go127-1min", []string{"1.txt.gz"}, nil},
	}
	runFixtureCases(t, dir, tests)
}

// TestRequestResponseFixtures: net/http's HTTP/2 client and net/rpc wait
// for their reply in a select or a receive, as a goroutine's own loop rests;
// under these calls, a minute of it is a request stuck on its peer (Go
// 1.22.10, 1.26, 1.27.3; testdata/verdicts/go-calls-*, READMEs written
// first). Their controls, the same clients answered at once, stay quiet:
// the HTTP/2 connection's read loop and net/rpc's input loop rest.
func TestRequestResponseFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	workWait := func(n int) func(t *testing.T, f Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, "work-wait")
			eq(t, "told", f.Wait.Goroutines, n)
		}
	}
	var tests []fixtureCase
	for _, v := range []string{"", "-go122", "-go127"} {
		tests = append(tests,
			fixtureCase{"go-calls-stuck" + v, []string{"1.txt.gz"}, []want{
				{KindStuck, "main.main", "http-client-wait", workWait(3)},
				{KindStuck, "main.main", "rpc-wait", workWait(2)},
			}},
			fixtureCase{"go-calls-healthy" + v, []string{"1.txt.gz"}, nil},
			fixtureCase{"go-calls-healthy" + v, []string{"1.txt.gz", "2.txt.gz", "3.txt.gz"}, nil},
		)
	}
	runFixtureCases(t, dir, tests)
}

// TestPeerWaitsService: in go-peerwaits-stuck (Go 1.26 and 1.27.3), the
// semaphore's 8 waiters and runBatch's WaitGroup are told, and nothing of
// the healthy part beside them; the reads of an application's own client
// (a line protocol, UDP) are not (a known limit: no frame tells a client
// waiting for its reply from a reader waiting for the next message).
func TestPeerWaitsService(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	for _, name := range []string{"go-peerwaits-stuck", "go-peerwaits-stuck-go127"} {
		r := Analyze(loadMoments(t, filepath.Join(dir, name), []string{"1.txt.gz", "2.txt.gz", "3.txt.gz"}), Options{})
		got := map[string]string{}
		for _, f := range r.Findings {
			fn, _, _ := strings.Cut(f.Culprit, " (")
			got[fn] = f.Basis
		}
		eq(t, name+" semaphore", got["main.(*pool).process"], "work-wait")
		eq(t, name+" waitgroup", got["main.runBatch"], "no-adders")
		for fn := range got {
			for _, quiet := range []string{"readCommand", "readFrame", "udpServer", "watchConfig", "fsnotify"} {
				if strings.Contains(fn, quiet) || fn == "main.run" {
					t.Errorf("%s: a finding on the healthy part: %s", name, fn)
				}
			}
		}
	}
}
