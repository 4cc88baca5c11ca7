package analyze

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestTestStartedProperty (issue 33, "waits by structure"): random go
// test timeouts — a test TestX (random package) waiting in its collector
// (a chan receive in a function of its package that TestX called, or in
// TestX itself after that function returned), n workers that function
// started blocked in their send, and, beside them, goroutines the test
// did not start: an httptest server's accept loop, a package-level
// watcher of another package waiting on its channel, a worker of another
// test's package. New Go (creators with `in goroutine N`) and Go before
// 1.21 (no parent: the creator's package tells), pasted as written,
// behind a prefix or indented. The timeout's finding names exactly the n
// workers beside the test (Blocked), none of the others. Seeded.
func TestTestStartedProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 21))
	for c := range 200 {
		pkg := []string{"pipeline", "example/app/collect", "github.com/acme/shop/internal/batch"}[rng.IntN(3)]
		test := fmt.Sprintf("Test%s%d", []string{"Gather", "Process", "Fan"}[rng.IntN(3)], rng.IntN(100))
		fn := randomName(rng, pkg)
		oldGo := rng.IntN(2) == 0
		returned := rng.IntN(2) == 0 // fn returned: the test waits on its own
		n := 1 + rng.IntN(8)
		shape := pasteShapes[rng.IntN(len(pasteShapes))]
		created := func(by string, parent int) string {
			if oldGo {
				return fmt.Sprintf("created by %s\n\t/src/x.go:16 +0x56\n", by)
			}
			return fmt.Sprintf("created by %s in goroutine %d\n\t/src/x.go:16 +0x56\n", by, parent)
		}
		var b strings.Builder
		fmt.Fprintf(&b, "panic: test timed out after 3s\n")
		if !oldGo {
			fmt.Fprintf(&b, "\trunning tests:\n\t\t%s (3s)\n", test)
		}
		fmt.Fprintf(&b, "\ngoroutine 5 [running]:\ntesting.(*M).startAlarm.func1()\n\t/go/src/testing/testing.go:2802 +0x354\ncreated by time.goFunc\n\t/go/src/time/sleep.go:215 +0x2d\n\n")
		fmt.Fprintf(&b, "goroutine 1 [chan receive]:\ntesting.(*T).Run(0xc000001, {0x5879c5?, 0x0?}, 0x5943d8)\n\t/go/src/testing/testing.go:2109 +0x4e5\nmain.main()\n\t_testmain.go:46 +0x9b\n\n")
		fmt.Fprintf(&b, "goroutine 18 [chan receive]:\n")
		if !returned {
			fmt.Fprintf(&b, "%s(0xc000002)\n\t/src/%s.go:29 +0x1cd\n", fn, "x")
		}
		fmt.Fprintf(&b, "%s.%s(0xc000003)\n\t/src/x_test.go:10 +0x5f\ntesting.tRunner(0xc000003, 0x5943d8)\n\t/go/src/testing/testing.go:2036 +0xea\n%s\n", pkg, test, created("testing.(*T).Run", 1))
		for i := range n {
			fmt.Fprintf(&b, "goroutine %d [chan send]:\n%s.func1(0x%x)\n\t/src/x.go:22 +0x9d\n%s\n", 20+i, fn, i, created(fn, 18))
		}
		// Not the test's: a test server's accept loop (a library's), a
		// watcher another package's init started, another package's
		// worker.
		fmt.Fprintf(&b, "goroutine 40 [IO wait]:\ninternal/poll.runtime_pollWait(0x7f39, 0x72)\n\t/go/src/runtime/netpoll.go:351 +0x85\nnet.(*TCPListener).Accept(0x2ad47cb82440)\n\t/go/src/net/tcpsock.go:387 +0x30\nnet/http.(*Server).Serve(0x2ad47cbf0100, {0x7ad9c8, 0x2ad47cb82440})\n\t/go/src/net/http/server.go:3434 +0x30c\nnet/http/httptest.(*Server).goServe.func1()\n\t/go/src/net/http/httptest/server.go:311 +0x6a\n%s\n", created("net/http/httptest.(*Server).goServe", 18))
		fmt.Fprintf(&b, "goroutine 41 [chan receive]:\nexample.org/metrics.watch(0xc000004)\n\t/src/metrics/watch.go:40 +0x2a\n%s\n", created("example.org/metrics.init.0", 1))
		fmt.Fprintf(&b, "goroutine 42 [chan send]:\nexample.org/other.worker(0xc000005)\n\t/src/other/w.go:12 +0x2a\n%s\n", created("example.org/other.Start", 1))
		text := shape(b.String())
		ds, err := parse.Parse("test.txt", strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		r := Analyze([]Input{{Dump: ds[0]}}, Options{})
		var f *Finding
		for i := range r.Findings {
			if r.Findings[i].Basis == "test-timeout" {
				f = &r.Findings[i]
			}
		}
		desc := fmt.Sprintf("case %d (%s in %s, old %v, returned %v, %d workers)", c, test, fn, oldGo, returned, n)
		if f == nil {
			t.Fatalf("%s: no test-timeout finding (%v)\n%s", desc, findingIDs(r.Findings), text)
		}
		var names []string
		for _, bl := range f.Blocked {
			names = append(names, bl.Name)
			if bl.State != "chan-send" || !strings.HasPrefix(bl.Culprit, fn+".func1 ") {
				t.Fatalf("%s: %s %s at %s is no worker of %s\n%s", desc, bl.Name, bl.State, bl.Culprit, fn, text)
			}
		}
		if len(f.Blocked) != n {
			t.Fatalf("%s: beside the test %v, want the %d workers\n%s", desc, names, n, text)
		}
	}
}
