package analyze

import (
	"path/filepath"
	"testing"
)

// TestExecutorLeakFixtures: real programs run here (testdata/gen/
// verdicts-execleak, OpenJDK 17 and Temurin 25; each README.md written
// from the source before dumpdiff ran): an HTTP service that makes an
// executor (Executors.newFixedThreadPool(2), two tasks) or a
// java.util.Timer per request, or a client that builds a Netty
// NioEventLoopGroup per call, and never shuts it down is a leak of
// executors, timers or event-loop groups, critical over the three dumps,
// a warning from the last dump alone (more than PoolIDLeak owners at
// rest); the first dump alone holds fewer (0–31) and says nothing. The same program shutting
// each down, sharing three executors made at start, or turning threads
// over inside one pool makes no finding at any cut.
func TestExecutorLeakFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	all := []string{"1.txt.gz", "2.txt.gz", "3.txt.gz"}
	leak := func(sev Severity, basis, what, loop string, per int) func(t *testing.T, f Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "severity", f.Severity, sev)
			eq(t, "basis", f.Basis, basis)
			if f.Owners == nil {
				t.Fatal("no owners")
			}
			eq(t, "what", f.Owners.What, what)
			eq(t, "loop", f.Owners.Loop, loop)
			eq(t, "threads per owner", f.Owners.PerOwner, per)
			if basis == BasisExecutorLeak {
				eq(t, "all kept", f.Owners.Kept, 1.0)
				if f.Owners.New < OwnerLeakFar {
					t.Errorf("%d owners made between the first and last dump, want %d or more", f.Owners.New, OwnerLeakFar)
				}
			}
		}
	}
	var tests []fixtureCase
	for _, p := range []string{"", "jdk25-"} {
		pool := func(sev Severity, basis string) []want {
			return []want{{KindLeaked, "pool-*-thread-*", "pool-idle", leak(sev, basis, "executor", "ThreadPoolExecutor.getTask", 2)}}
		}
		netty := func(sev Severity, basis string) []want {
			return []want{{KindLeaked, "nioEventLoopGroup-*-*", "selector-wait", leak(sev, basis, "event-loop group", "NioEventLoop.run", 1)}}
		}
		timer := func(sev Severity, basis string) []want {
			return []want{{KindLeaked, "Timer-*", "pool-idle", leak(sev, basis, "timer", "TimerThread.mainLoop", 1)}}
		}
		tests = append(tests,
			fixtureCase{p + "execleak-pool-leak", all, pool(Critical, BasisExecutorLeak)},
			fixtureCase{p + "execleak-pool-leak", all[1:], pool(Critical, BasisExecutorLeak)},
			fixtureCase{p + "execleak-pool-leak", all[2:], pool(Warning, BasisExecutorCrowd)},
			fixtureCase{p + "execleak-pool-leak", all[:1], nil},
			fixtureCase{p + "execleak-timer-leak", all, timer(Critical, BasisExecutorLeak)},
			fixtureCase{p + "execleak-timer-leak", all[2:], timer(Warning, BasisExecutorCrowd)},
			fixtureCase{p + "execleak-timer-leak", all[:1], nil},
			fixtureCase{p + "execleak-netty-leak", all, netty(Critical, BasisExecutorLeak)},
			fixtureCase{p + "execleak-netty-leak", all[2:], netty(Warning, BasisExecutorCrowd)},
			fixtureCase{p + "execleak-netty-leak", all[:1], nil},
		)
		for _, c := range []string{"execleak-pool-healthy", "execleak-handful-healthy", "execleak-turnover-healthy", "execleak-timer-healthy",
			"execleak-netty-healthy"} {
			for _, cut := range [][]string{all, all[:1], all[2:]} {
				tests = append(tests, fixtureCase{p + c, cut, nil})
			}
		}
	}
	runFixtureCases(t, dir, tests)
}
