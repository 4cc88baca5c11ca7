package analyze

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestAdderlessProperty: in 600 generated one-dump processes, a goroutine
// waits on a sync.WaitGroup (the state as Go 1.26 or Go 1.13 prints it,
// with parents printed or not) for 0 to 60 printed minutes, beside 0 to 3
// goroutines it started, 0 or 1 pool worker running a closure of its
// function, and decoys: children of another goroutine and closures of
// another function, alive. It is stuck with the basis no-adders exactly
// when it printed a minute or more and none of its own children nor a
// closure of its function is alive: what could still call Done decides,
// not the state's name nor the count.
func TestAdderlessProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 7))
	for c := range 600 {
		parents := rng.IntN(2) == 0
		state := "sync.WaitGroup.Wait"
		if rng.IntN(2) == 0 {
			state = "semacquire" // Go ≤1.21's word for every sync wait
		}
		minutes := []int{0, 1, 2, 60}[rng.IntN(4)]
		children := []int{0, 0, 1, 3}[rng.IntN(4)]
		closure := rng.IntN(3) == 0
		decoys := rng.IntN(2) == 0
		fn := fmt.Sprintf("main.batch%d", rng.IntN(5))

		created := func(by string, parent int) string {
			if parents {
				return fmt.Sprintf("created by %s in goroutine %d\n\t/src/main.go:90 +0x1f\n\n", by, parent)
			}
			return fmt.Sprintf("created by %s\n\t/src/main.go:90 +0x1f\n\n", by)
		}
		var b strings.Builder
		b.WriteString("goroutine 1 [chan receive]:\nmain.main()\n\t/src/main.go:70 +0x1\n\n")
		st := state
		if minutes > 0 {
			st += fmt.Sprintf(", %d minutes", minutes)
		}
		fmt.Fprintf(&b, "goroutine 5 [%s]:\nsync.runtime_Semacquire(0x1)\n\t/go/src/runtime/sema.go:56 +0x1\n", st)
		fmt.Fprintf(&b, "sync.(*WaitGroup).Wait(0x1)\n\t/go/src/sync/waitgroup.go:130 +0x1\n%s(0x4)\n\t/src/main.go:20 +0x1\n", fn)
		b.WriteString(created("main.main", 1))
		id := 10
		for range children {
			fmt.Fprintf(&b, "goroutine %d [select]:\nmain.batchWorker(0x1)\n\t/src/main.go:30 +0x1\n", id)
			b.WriteString(created(fn, 5))
			id++
		}
		if closure {
			fmt.Fprintf(&b, "goroutine %d [sleep]:\ntime.Sleep(0x1)\n\t/go/src/runtime/time.go:1 +0x1\n%s.func1()\n\t/src/main.go:25 +0x1\nmain.(*pool).worker(0x1)\n\t/src/main.go:40 +0x1\n", id, fn)
			b.WriteString(created("main.newPool", 1))
			id++
		}
		if decoys {
			// Another waiter's children and a closure of another function:
			// alive, but none can count goroutine 5's group down.
			fmt.Fprintf(&b, "goroutine 6 [sync.WaitGroup.Wait]:\nsync.(*WaitGroup).Wait(0x2)\n\t/go/src/sync/waitgroup.go:130 +0x1\nmain.other()\n\t/src/main.go:50 +0x1\n")
			b.WriteString(created("main.main", 1))
			for range 2 {
				fmt.Fprintf(&b, "goroutine %d [select]:\nmain.otherWorker(0x1)\n\t/src/main.go:55 +0x1\n", id)
				b.WriteString(created("main.other", 6))
				id++
			}
			fmt.Fprintf(&b, "goroutine %d [sleep]:\ntime.Sleep(0x1)\n\t/go/src/runtime/time.go:1 +0x1\nmain.other.func1()\n\t/src/main.go:52 +0x1\nmain.(*pool).worker(0x1)\n\t/src/main.go:40 +0x1\n", id)
			b.WriteString(created("main.newPool", 1))
		}
		ds, err := parse.Parse("wg.txt", strings.NewReader(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		r := Analyze([]Input{{Dump: ds[0]}}, Options{})
		told := false
		for _, f := range r.Findings {
			if f.Kind == KindStuck && f.Basis == "no-adders" {
				if !strings.HasPrefix(f.Culprit, fn) {
					t.Fatalf("case %d: the no-adders finding names %q, not %s", c, f.Culprit, fn)
				}
				told = true
			}
		}
		want := minutes >= LeakWaitMinutes && children == 0 && !closure
		if told != want {
			t.Fatalf("case %d (parents %v, %s, %d minutes, %d children, closure %v, decoys %v): told %v, want %v\n%s",
				c, parents, state, minutes, children, closure, decoys, told, want, b.String())
		}
	}
}

func TestClosureOwner(t *testing.T) {
	for _, tc := range []struct{ fn, want string }{
		{"main.runBatch.func1", "main.runBatch"},
		{"main.runBatch.func1.2", "main.runBatch"},
		{"main.runBatch.gowrap1", "main.runBatch"},
		{"main.(*shutdown).wait.func1", "main.(*shutdown).wait"},
		{"github.com/acme/x.func.Run.func3", "github.com/acme/x.func.Run"},
		{"github.com/acme/funcs.Run", ""},
		{"main.funcName", ""},
		{"main.runBatch", ""},
	} {
		if got := closureOwner(tc.fn); got != tc.want {
			t.Errorf("closureOwner(%q) = %q, want %q", tc.fn, got, tc.want)
		}
	}
}
