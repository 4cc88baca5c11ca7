package analyze

import (
	"path/filepath"
	"testing"
)

// TestGoShapesFixtures: the goshapes program's cases (testdata/gen/
// verdicts-goshapes: a real Go 1.26 and Go 1.13 program, dumps fetched
// with curl from its net/http/pprof on 127.0.0.1), each moment alone and
// the three together, against the verdicts their READMEs wrote from the
// source before dumpdiff ran.
func TestGoShapesFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	one, last, all := []string{"1.txt.gz"}, []string{"3.txt.gz"}, []string{"1.txt.gz", "2.txt.gz", "3.txt.gz"}
	sev := func(s Severity, basis string) func(t *testing.T, f Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, basis)
			eq(t, "severity", f.Severity, s)
		}
	}
	var tests []fixtureCase
	for _, v := range []string{"", "-go113"} {
		for _, d1 := range []bool{false, true} {
			name, spawn := "shapes-sleep-spawn"+v, "main.remindHandler"
			one, last, all := one, last, all
			if d1 {
				name, spawn = "shapes-sleep-spawn-debug1"+v, "main.remindHandler.func1" // debug=1 prints no creator
				one, last, all = []string{"1.txt"}, []string{"3.txt"}, []string{"1.txt", "2.txt", "3.txt"}
			}
			wg := func(n string) string { return "shapes-" + n + v }
			if d1 {
				wg = func(n string) string { return "shapes-" + n + "-debug1" + v }
			}
			pipe := "main.merge"
			if d1 {
				pipe = "main.merge.func2"
			}
			bodyLast := []want{{KindLeaked, "net/http client connections", "http-body-wait", sev(Warning, BasisUnreadBodies)}}
			if v == "" && !d1 {
				// Caught while its load dialled: every request dials (no
				// connection comes back), 5 callers waiting for one.
				bodyLast = append(bodyLast, want{"http-pool-exhausted", "main.load", "http-pool-wait", nil})
			}
			tests = append(tests,
				// A goroutine per request sleeping an hour: one moment's
				// structure says it (goSleepCrowd); over three, growing too.
				fixtureCase{name, one, []want{{KindExplosion, spawn, "sleep", sev(Warning, BasisGoSleepCrowd)}}},
				fixtureCase{name, last, []want{{KindExplosion, spawn, "sleep", sev(Warning, BasisGoSleepCrowd)}}},
				fixtureCase{name, all, []want{{KindExplosion, spawn, "sleep", sev(Critical, BasisGoSleepCrowd)}, {KindGrowing, spawn, "sleep", nil}}},
				// Bodies never closed: the lent connections nobody reads.
				fixtureCase{wg("body-leak"), one, []want{{KindLeaked, "net/http client connections", "http-body-wait", sev(Warning, BasisUnreadBodies)}}},
				fixtureCase{wg("body-leak"), last, bodyLast},
				// A WaitGroup nobody can bring to zero.
				fixtureCase{wg("wg-exited"), one, []want{{KindLeaked, "main", "waitgroup-wait", sev(Warning, BasisWaitGroupUnserved)}}},
				fixtureCase{wg("wg-exited"), all, []want{{KindLeaked, "main", "waitgroup-wait", sev(Critical, BasisWaitGroupUnserved)}}},
				fixtureCase{wg("wg-blocked"), one, []want{{KindLeaked, "main", "waitgroup-wait", sev(Warning, BasisWaitGroupUnserved)}}},
				// Second source: the Go blog's fan-in without its done
				// channel, 40 closers waiting beside their blocked
				// forwarders (debug=1 names the pool by the closure).
				fixtureCase{wg("wg-pipeline"), one, []want{{KindLeaked, pipe, "waitgroup-wait", sev(Warning, BasisWaitGroupUnserved)}}},
				fixtureCase{wg("wg-pipeline"), all, []want{{KindLeaked, pipe, "waitgroup-wait", sev(Critical, BasisWaitGroupUnserved)}}},
			)
		}
	}
	// The healthy twins' former false alarms (issue 33 via debug=1): the
	// proxy's 600 streams read their bodies at the upstream's pace (one
	// dump's PeerShare no longer counts a body read, bodyRead), and in
	// debug=1 (no ids) move between reading and waiting for the next
	// response with their pool's total flat (phaseShift); 400 requests
	// in flight behind a semaphore of 400 hold a flat pool (flatPool).
	quiet := []string{"shapes-wg-pipeline-done-healthy", "shapes-sleep-slow-healthy", "shapes-body-stream-healthy", "shapes-wg-busy-healthy", "shapes-subscribers-healthy", "shapes-subscribers-healthy-go113"}
	quiet1 := []string{"shapes-wg-pipeline-debug1-done-healthy", "shapes-sleep-slow-debug1-healthy", "shapes-wg-busy-debug1-healthy", "shapes-subscribers-debug1-healthy", "shapes-subscribers-debug1-healthy-go113"}
	for _, h := range quiet {
		for _, ms := range [][]string{one, last, all} {
			tests = append(tests, fixtureCase{h, ms, nil})
		}
	}
	quiet1 = append(quiet1, "shapes-body-stream-debug1-healthy")
	for _, h := range quiet1 {
		for _, ms := range [][]string{{"1.txt"}, {"2.txt"}, {"3.txt"}, {"1.txt", "2.txt", "3.txt"}} {
			tests = append(tests, fixtureCase{h, ms, nil})
		}
	}
	runFixtureCases(t, dir, tests)

}
