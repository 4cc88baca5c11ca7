package analyze

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestPasteAdderlessProperty: in 800 generated goroutine sets, a
// goroutine of package github.com/acme/batch waits on a sync.WaitGroup
// (Go 1.26's or Go 1.13's state, parents printed or not, 0 to 60 printed
// minutes) beside, or not: goroutine 1, a goroutine it started, a pool
// worker running a closure of its function, a worker of its package
// (created elsewhere), decoys of other packages (an HTTP accept loop,
// another waiter with its own children), and a cut (the paste ends in
// the middle of a header) or a person's "..." elision, and a crash
// report's prologue or not. The set is whole
// when it holds goroutine 1 and nothing is cut or elided. Whole: stuck
// with the basis no-adders exactly when it printed a minute and neither
// a child nor a closure of its function is alive (the rule for whole
// dumps, unchanged). Not whole: stuck with the basis paste-no-adders
// exactly when nothing in the paste could count it down (no child, no
// closure, no worker of its package), at Warning when it printed a
// minute and at Info when not. A crash report is neither's (the
// deadlock detector reads the runtime's verdict). Structure decides,
// never the count.
func TestPasteAdderlessProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 43))
	seen := map[string]int{}
	for c := range 800 {
		parents := rng.IntN(2) == 0
		state := "sync.WaitGroup.Wait"
		if rng.IntN(2) == 0 {
			state = "semacquire"
		}
		minutes := []int{0, 0, 1, 60}[rng.IntN(4)]
		has1 := rng.IntN(2) == 0
		cut := []string{"", "", "truncated", "elided"}[rng.IntN(4)]
		child := rng.IntN(4) == 0
		closure := rng.IntN(4) == 0
		worker := rng.IntN(4) == 0
		decoys := rng.IntN(2) == 0
		crash := rng.IntN(8) == 0 // a crash report: the deadlock detector's, never this rule's
		fn := fmt.Sprintf("github.com/acme/batch.Run%d", rng.IntN(5))

		created := func(by string, parent int) string {
			if parents {
				return fmt.Sprintf("created by %s in goroutine %d\n\t/src/x.go:90 +0x1f\n\n", by, parent)
			}
			return fmt.Sprintf("created by %s\n\t/src/x.go:90 +0x1f\n\n", by)
		}
		var b strings.Builder
		if crash {
			b.WriteString("panic: runtime error: index out of range [3] with length 3\n\n")
		}
		if has1 {
			b.WriteString("goroutine 1 [chan receive]:\nmain.main()\n\t/src/main.go:70 +0x1\n\n")
		}
		st := state
		if minutes > 0 {
			st += fmt.Sprintf(", %d minutes", minutes)
		}
		fmt.Fprintf(&b, "goroutine 5 [%s]:\nsync.runtime_Semacquire(0x1)\n\t/go/src/runtime/sema.go:56 +0x1\n", st)
		fmt.Fprintf(&b, "sync.(*WaitGroup).Wait(0x1)\n\t/go/src/sync/waitgroup.go:130 +0x1\n%s(0x4)\n\t/src/batch/run.go:20 +0x1\n", fn)
		if cut == "elided" {
			b.WriteString("main.serve(0x1)\n...\n\n")
		} else {
			b.WriteString(created("main.serve", 1))
		}
		if child {
			fmt.Fprintf(&b, "goroutine 10 [select]:\ngithub.com/acme/batch.step(0x1)\n\t/src/batch/run.go:30 +0x1\n")
			b.WriteString(created(fn, 5))
		}
		if closure {
			fmt.Fprintf(&b, "goroutine 11 [sleep]:\ntime.Sleep(0x1)\n\t/go/src/runtime/time.go:1 +0x1\n%s.func1()\n\t/src/batch/run.go:25 +0x1\nmain.(*pool).worker(0x1)\n\t/src/main.go:40 +0x1\n", fn)
			b.WriteString(created("main.newPool", 1))
		}
		if worker {
			b.WriteString("goroutine 12 [chan receive]:\ngithub.com/acme/batch.(*Workers).loop(0x1)\n\t/src/batch/workers.go:12 +0x1\n")
			b.WriteString(created("github.com/acme/batch.NewWorkers", 1))
		}
		if decoys {
			b.WriteString("goroutine 20 [IO wait]:\ninternal/poll.runtime_pollWait(0x1, 0x72)\n\t/go/src/runtime/netpoll.go:351 +0x1\nnet.(*netFD).accept(0x1)\n\t/go/src/net/fd_unix.go:172 +0x1\nnet/http.(*Server).Serve(0x1, {0x2, 0x3})\n\t/go/src/net/http/server.go:3360 +0x1\n")
			b.WriteString(created("net/http/httptest.(*Server).goServe", 1))
			b.WriteString("goroutine 6 [sync.WaitGroup.Wait]:\nsync.(*WaitGroup).Wait(0x2)\n\t/go/src/sync/waitgroup.go:130 +0x1\nmain.other()\n\t/src/main.go:50 +0x1\n")
			b.WriteString(created("main.main", 1))
			b.WriteString("goroutine 21 [select]:\nmain.otherWorker(0x1)\n\t/src/main.go:55 +0x1\n")
			b.WriteString(created("main.other", 6))
		}
		if cut == "truncated" {
			b.WriteString("goroutine 99 [sel")
		}
		ds, err := parse.Parse("wg.txt", strings.NewReader(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		r := Analyze([]Input{{Dump: ds[0]}}, Options{})
		var got *Finding
		for i, f := range r.Findings {
			if f.Kind == KindStuck && (f.Basis == "no-adders" || f.Basis == "paste-no-adders") {
				if got != nil {
					t.Fatalf("case %d: two latch findings\n%s", c, b.String())
				}
				got = &r.Findings[i]
			}
		}
		whole := has1 && cut == ""
		var want string
		sev := Warning
		switch {
		case crash:
		case whole && minutes >= LeakWaitMinutes && !child && !closure:
			want = "no-adders"
		case !whole && !child && !closure && !worker:
			want = "paste-no-adders"
			if minutes < LeakWaitMinutes {
				sev = Info
			}
		}
		desc := fmt.Sprintf("case %d (parents %v, %s, %d min, goroutine 1 %v, cut %q, child %v, closure %v, worker %v, decoys %v, crash %v)",
			c, parents, state, minutes, has1, cut, child, closure, worker, decoys, crash)
		switch {
		case got == nil && want != "":
			t.Fatalf("%s: nothing told, want %s\n%s", desc, want, b.String())
		case got != nil && want == "":
			t.Fatalf("%s: told %s, want nothing\n%s", desc, got.Basis, b.String())
		case got != nil && (got.Basis != want || got.Severity != sev || !strings.HasPrefix(got.Culprit, fn)):
			t.Fatalf("%s: told %s %s at %s, want %s %s at %s\n%s", desc, got.Basis, got.Severity, got.Culprit, want, sev, fn, b.String())
		}
		seen[want]++
	}
	t.Logf("outcomes: %v", seen)
	// Each outcome was drawn often enough to mean something.
	for _, w := range []string{"", "no-adders", "paste-no-adders"} {
		if seen[w] < 40 {
			t.Errorf("outcome %q drawn %d times in 800", w, seen[w])
		}
	}
}

// TestPasteLatchFixtures judges the pastes cut from the real dumps of
// go-wg-stuck (Go 1.26 and 1.13; testdata/verdicts/go-wg-paste-*, cut by
// testdata/gen/go-peerwaits/wg/paste.sh, READMEs written before dumpdiff
// ran): runBatch's waiter alone is stuck as what the paste shows; the
// exportAll waiter pasted with the exporters it started is not.
func TestPasteLatchFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	pasted := func(t *testing.T, f Finding) {
		eq(t, "basis", f.Basis, "paste-no-adders")
		eq(t, "severity", f.Severity, Warning) // the runtime printed a minute
		eq(t, "culprit", strings.HasPrefix(f.Culprit, "main.runBatch "), true)
		eq(t, "remedy", strings.Contains(f.Remedy, "returned without Done"), true)
	}
	runFixtureCases(t, dir, []fixtureCase{
		{"go-wg-paste-stuck", []string{"paste"}, []want{{KindStuck, "main.main", "waitgroup-wait", pasted}}},
		{"go-wg-paste-stuck-go113", []string{"paste"}, []want{{KindStuck, "main.main", "waitgroup-wait", pasted}}},
		{"go-wg-paste-healthy", []string{"paste"}, nil},
		{"go-wg-paste-healthy-go113", []string{"paste"}, nil},
	})
}
