package analyze

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestChanCycleOneDumpProperty (issue 33, "cycles of every kind"): random
// one-dump worlds of 2 to 4 pipeline stages, each in a plain channel send
// or receive (a sender among them), of functions of their own or of one
// function started by go statements of their own, beside goroutines at
// rest (an accept loop, a ticker in its own loop). The dump alone names
// the stages a deadlock (a warning, one moment's evidence) exactly when
// nothing else of the application could move them: a goroutine that
// runs, one that is runnable, one asleep between items, stages all
// receiving, or a crowd from
// one go statement (a leak's shape, not a ring) give none. Every stage
// waiting a minute or more, as the runtime prints (which a pipeline in
// flight never shows), outweighs a goroutine asleep elsewhere, not one
// that runs. A stage in a select in its own loop (it may hold a timer's
// case) is never a member. Seeded.
func TestChanCycleOneDumpProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 9))
	kinds := []string{"cycle", "cycle", "runner", "runnable", "sleeper", "select", "receivers", "crowd", "aged-sleeper", "aged-runner"}
	named := 0
	for c := range 360 {
		kind := kinds[c%len(kinds)]
		n := 2 + rng.IntN(3)
		sameFunc := rng.IntN(2) == 0
		minutes := ""
		if strings.HasPrefix(kind, "aged") {
			minutes = fmt.Sprintf(", %d minutes", 1+rng.IntN(5))
		}
		var b strings.Builder
		b.WriteString("goroutine 1 [select (no cases)]:\nmain.main()\n\t/src/main.go:60 +0x1f\n\n")
		b.WriteString("goroutine 2 [IO wait]:\ninternal/poll.runtime_pollWait(0x7f0a, 0x72)\n\t/usr/local/go/src/runtime/netpoll.go:351 +0x85\n" +
			"internal/poll.(*FD).Accept(0xc0000a4000)\n\t/usr/local/go/src/internal/poll/fd_unix.go:613 +0x28c\n" +
			"net.(*TCPListener).Accept(0xc0000a4100)\n\t/usr/local/go/src/net/tcpsock.go:380 +0x30\n" +
			"net/http.(*Server).Serve(0xc0000a4200, {0x7524e0, 0xc0000a4100})\n\t/usr/local/go/src/net/http/server.go:3463 +0x30e\n" +
			"created by main.main in goroutine 1\n\t/src/main.go:40 +0x1f\n\n")
		b.WriteString("goroutine 3 [chan receive]:\nmain.main.func2()\n\t/src/main.go:45 +0x2a\ncreated by main.main in goroutine 1\n\t/src/main.go:44 +0x1f\n\n")
		for i := range n {
			wait := "chan send" // each stage sends before it receives
			if kind == "receivers" {
				wait = "chan receive"
			}
			if kind == "select" && i == n-1 {
				wait = "select"
			}
			fn, line, cline := fmt.Sprintf("main.stage%d", i), 100+10*i, 50+i
			if sameFunc {
				fn, line = "main.stage", 100
			}
			if kind == "crowd" {
				fn, line, cline = "main.stage", 100, 50 // one go statement in a loop
			}
			fmt.Fprintf(&b, "goroutine %d [%s%s]:\n%s(...)\n\t/src/main.go:%d\ncreated by main.main in goroutine 1\n\t/src/main.go:%d +0x1f\n\n", 10+i, wait, minutes, fn, line, cline)
		}
		switch kind {
		case "runner", "aged-runner":
			b.WriteString("goroutine 30 [running]:\nmain.compute(0x1)\n\t/src/main.go:300 +0x2a\ncreated by main.main in goroutine 1\n\t/src/main.go:70 +0x1f\n\n")
		case "runnable":
			b.WriteString("goroutine 30 [runnable]:\nmain.compute(0x1)\n\t/src/main.go:300 +0x2a\ncreated by main.main in goroutine 1\n\t/src/main.go:70 +0x1f\n\n")
		case "sleeper", "aged-sleeper":
			b.WriteString("goroutine 30 [sleep]:\ntime.Sleep(0x2faf080)\n\t/usr/local/go/src/runtime/time.go:338 +0x167\nmain.produce()\n\t/src/main.go:310 +0x2a\ncreated by main.main in goroutine 1\n\t/src/main.go:70 +0x1f\n\n")
		}
		ds, err := parse.Parse("ring.txt", strings.NewReader(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		r := Analyze([]Input{{Dump: ds[0]}}, Options{})
		var dls []Finding
		for _, f := range r.Findings {
			if f.Kind == KindDeadlock {
				dls = append(dls, f)
			}
		}
		want := kind == "cycle" || kind == "aged-sleeper"
		if kind == "select" {
			// A select in the stage's own loop reads as its rest (it may
			// hold a timer's case): never a member; the senders beside it
			// may be named, a warning.
			for _, f := range dls {
				for _, m := range f.Cycle {
					if m.Name == fmt.Sprintf("goroutine %d", 10+n-1) || f.Severity != Warning {
						t.Fatalf("case %d (select): %s a member of %s (%v)", c, m.Name, f.ID, f.Severity)
					}
				}
			}
			continue
		}
		if !want {
			if len(dls) != 0 {
				t.Fatalf("case %d (%s, %d stages): no deadlock wanted, got %s\n%s", c, kind, n, dls[0].ID, b.String())
			}
			continue
		}
		if len(dls) != 1 || dls[0].Basis != basisChanCycle || len(dls[0].Cycle) != n || dls[0].Severity != Warning {
			t.Fatalf("case %d (%s, %d stages, same function %v): want one warning channel cycle of %d, got %v\n%s", c, kind, n, sameFunc, n, dls, b.String())
		}
		named++
	}
	if named == 0 {
		t.Fatal("no cycle named")
	}
}
