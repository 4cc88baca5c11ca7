package analyze

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestGoMomentsFixtures judges real Go programs whose stalls are under a
// minute old when the dumps are taken (testdata/gen/go-moments and
// go-waits' handlers at 4 s, run by Go 1.26 and by Go 1.13.15; each
// folder's README.md says the verdict wanted, written before dumpdiff
// ran): the goroutines' ids, the same at every moment, tell the waits the
// runtime prints no age for. With one moment the ids say nothing. And
// pastes a person cut from a dump taken 330 s in: a read and a receive
// under a call with their printed age are stuck; rests by design, as old,
// stay rests. And grep's output of real dumps (-A, -B, "--" between its
// groups, headers cut).
func TestGoMomentsFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	held := func(n int, culprit string) func(t *testing.T, f Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, "held-moments")
			eq(t, "held", f.Wait.Held, n)
			eq(t, "moments", f.Wait.HeldMoments, 3)
			eq(t, "culprit", strings.SplitN(f.Culprit, " ", 2)[0], culprit)
		}
	}
	aged := func(culprit string) func(t *testing.T, f Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, "work-wait")
			eq(t, "minutes", f.Wait.MinMinutes, 5)
			eq(t, "culprit", strings.SplitN(f.Culprit, " ", 2)[0], culprit)
		}
	}
	srv := "net/http server connections"
	var tests []fixtureCase
	for _, v := range []string{"", "-go113"} {
		ring := want{KindDeadlock, "main.main", "mutex-wait", nil}
		tests = append(tests,
			fixtureCase{"go-moments-stuck" + v, []string{"1", "2", "3"}, []want{ring,
				{KindStuck, "main.main", "chan-send", held(4, "main.process")},
				{KindStuck, srv, "chan-send", held(2, "main.(*limiter).acquire")}}},
			fixtureCase{"go-moments-stuck" + v, []string{"1"}, []want{ring}},
			fixtureCase{"go-moments-healthy" + v, []string{"1", "2", "3"}, nil},
			fixtureCase{"go-moments-stuck" + v + "-debug1", []string{"1", "2", "3"}, nil},
			fixtureCase{"go-moments-healthy" + v + "-debug1", []string{"1", "2", "3"}, nil},
			fixtureCase{"go-waits-handlers-moments" + v, []string{"1.txt.gz", "2.txt.gz", "3.txt.gz"}, []want{
				{KindStuck, srv, "chan-send", held(3, "main.(*server).handleExport")},
				{KindContention, srv, "rwmutex-wait", nil}}},
			fixtureCase{"go-waits-handlers-healthy-moments" + v, []string{"1.txt.gz", "2.txt.gz", "3.txt.gz"}, nil},
			fixtureCase{"go-paste-read-stuck" + v, []string{"paste"}, []want{{KindStuck, "main.main", "socket-read", aged("main.readReply")}}},
			fixtureCase{"go-paste-receive-stuck" + v, []string{"paste"}, []want{{KindStuck, "main.main", "chan-receive", aged("main.awaitSummary")}}},
			fixtureCase{"go-paste-rests-healthy" + v, []string{"paste"}, nil},
			// grep's output: groups without headers read from their first
			// frame; stacks cut above their own function are not taken for
			// the goroutine's own loop.
			fixtureCase{"go-grep-transfer-stuck" + v, []string{"grep"}, []want{
				{KindStuck, "main.cycles.func1", "mutex-wait", nil}, {KindStuck, "main.cycles.func2", "mutex-wait", nil}}},
			// The pools are the functions the goroutines run in: grep cut
			// their file lines, and their function lines are read as
			// frames without a file (the culprits stay the sends).
			fixtureCase{"go-grep-process-stuck" + v, []string{"grep"}, []want{
				{KindStuck, "main.batchWorker", "chan-send", aged("main.process")},
				{KindStuck, "main.serve.func2", "chan-send", nil},
				{KindStuck, "main.main", "chan-send", nil}}},
			fixtureCase{"go-grep-serve-healthy" + v, []string{"grep"}, nil},
		)
	}
	tests = append(tests, fixtureCase{"go-grep-ring-healthy", []string{"grep"}, nil})
	runFixtureCases(t, dir, tests)
}
