package analyze

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoneWaitsFixtures judges real Go programs (testdata/gen/go-gonewaits,
// Go 1.26 and Go 1.13.15, debug=2 over 127.0.0.1 pprof and SIGQUIT; each
// README.md says the verdict wanted, written before dumpdiff ran): senders
// whose receiver returned (receiver-gone: critical as they grow, a warning
// from one dump's minutes), a sync.Cond nobody can signal
// (signaller-gone), a channel semaphore and an x/sync Weighted whose
// holders never finish (the holders named, past the acquire: Go 1.13
// prints a holder's own function at the top), and a healthy twin of each
// (a slow consumer alive, a sleeping loop that receives, a Cond a ticker
// broadcasts, holders that turn over), and a go test timeout whose test
// waits while the workers it started block in their sends (named beside
// it, in f.Blocked). Each fixture pasted behind a
// prefix or indented keeps its verdict.
func TestGoneWaitsFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	two := []string{"1.txt", "2.txt"}
	gone := func(basis string, sev Severity, culprit, creator string, counts string) func(*testing.T, Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "severity", f.Severity, sev)
			eq(t, "basis", f.Basis, basis)
			eq(t, "culprit", strings.SplitN(f.Culprit, " ", 2)[0], culprit)
			eq(t, "creator", fmt.Sprint(f.Entries), fmt.Sprint([]FrameCount{{Func: creator, Count: f.Counts[f.At]}}))
			eq(t, "counts", fmt.Sprint(f.Counts), counts)
		}
	}
	holders := func(sev Severity, n int, state, at string) func(*testing.T, Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "severity", f.Severity, sev)
			eq(t, "holder basis", f.HolderBasis, holderBasisPast)
			if len(f.Holders) != 1 {
				t.Fatalf("holders %+v, want one group", f.Holders)
			}
			h := f.Holders[0]
			eq(t, "holders", fmt.Sprint(h.Count, " ", h.State, " ", strings.SplitN(h.Culprit, " ", 2)[0]), fmt.Sprint(n, " ", state, " ", at))
		}
	}
	send := func(sev Severity, counts string) func(*testing.T, Finding) {
		return gone(BasisReceiverGone, sev, "main.fetch.func1", "main.fetch", counts)
	}
	cond := gone(BasisSignallerGone, Critical, "main.condStuck.func1", "main.condStuck", "[3 3]")
	// The timeline tells the senders' rise beside the leak (never
	// recovered: 12 still at the last dump).
	rise := want{KindNotRecovered, "main.fetch", "chan-send", nil}
	sem := PoolExhaustedKind(slotResource)
	tests := []fixtureCase{
		{"go-gonewaits-sendleak", two, []want{rise, {KindLeaked, "main.fetch", "chan-send", send(Critical, "[6 12]")}}},
		{"go-gonewaits-sendleak-go113", two, []want{rise, {KindLeaked, "main.fetch", "chan-send", send(Critical, "[6 12]")}}},
		{"go-gonewaits-sendleak-minutes", []string{"sigquit.txt"}, []want{{KindLeaked, "main.fetch", "chan-send", send(Warning, "[6]")}}},
		{"go-gonewaits-sendok-healthy", two, nil},
		{"go-gonewaits-sendok-healthy-go113", two, nil},
		{"go-gonewaits-sendokloop-healthy", two, nil},
		{"go-gonewaits-sendokloop-healthy-go113", two, nil},
		{"go-gonewaits-condstuck", two, []want{{KindLeaked, "main.condStuck", "cond-wait", cond}}},
		{"go-gonewaits-condstuck-go113", two, []want{{KindLeaked, "main.condStuck", "cond-wait", cond}}},
		{"go-gonewaits-condok-healthy", two, nil},
		{"go-gonewaits-condok-healthy-go113", two, nil},
		{"go-gonewaits-chansem", two, []want{{sem, "main.semJobs", "chan-send", holders(Critical, 3, "chan-receive", "main.convert")}}},
		{"go-gonewaits-chansem-go113", two, []want{{sem, "main.semJobs", "chan-send", holders(Critical, 3, "chan-receive", "main.convert")}}},
		{"go-gonewaits-chansemok-healthy", two, nil},
		{"go-gonewaits-chansemok-healthy-go113", two, nil},
		{"go-gonewaits-weighted", two, []want{{PoolExhaustedKind(weightedResource), "main.startExports", "semaphore-wait", holders(Critical, 2, "chan-receive", "main.startExports.func1")}}},
		{"go-gonewaits-weightedok-healthy", two, nil},
	}
	// go test's timeout: the test's own wait, and beside it the workers
	// it started (4 in their send, the closer in WaitGroup.Wait).
	started := func(t *testing.T, f Finding) {
		eq(t, "basis", f.Basis, "test-timeout")
		eq(t, "culprit", strings.SplitN(f.Culprit, " ", 2)[0], "collect.TestGather")
		n := map[string]int{}
		for _, b := range f.Blocked {
			n[b.State+" "+strings.SplitN(b.Culprit, " ", 2)[0]]++
		}
		eq(t, "started", fmt.Sprint(n), fmt.Sprint(map[string]int{"chan-send collect.Gather.func1": 4, "waitgroup-wait collect.Gather.func2": 1}))
	}
	for _, v := range []string{"", "-go113"} {
		tests = append(tests, fixtureCase{"go-gonewaits-testtimeout" + v, []string{"test.txt"}, []want{{KindStuck, "testing.(*T).Run", "chan-receive", started}}})
	}
	// The same rules on judge15's programs (another session's, their
	// truths sealed before any run).
	tests = append(tests,
		fixtureCase{"judge15-go-cond-never-signalled", two, []want{{KindLeaked, "main.condStuck", "cond-wait",
			gone(BasisSignallerGone, Critical, "main.condStuck.func1", "main.condStuck", "[2 2]")}}},
		fixtureCase{"judge15-go-go113-semaphore-tokens-held", two, []want{{sem, "main.semExhausted", "chan-send", holders(Critical, 3, "chan-receive", "main.convert")}}},
		fixtureCase{"judge15-go-test-timeout-collector", []string{"test.txt"}, []want{{KindStuck, "testing.(*T).Run", "chan-receive", func(t *testing.T, f Finding) {
			n := map[string]int{}
			for _, b := range f.Blocked {
				n[b.State+" "+strings.SplitN(b.Culprit, " ", 2)[0]]++
			}
			eq(t, "started", fmt.Sprint(n), fmt.Sprint(map[string]int{"chan-send pipeline.Process.func1": 4, "waitgroup-wait pipeline.Process.func2": 1}))
		}}}},
	)
	runFixtureCases(t, dir, tests)
	for _, tt := range tests {
		keepsShape(t, filepath.Join(dir, tt.name), tt.moments)
	}
}
