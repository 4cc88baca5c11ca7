package analyze

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// workShape is one kind of goroutine the property writes: its state, its
// frames from the top (the wait's caller first, the goroutine's own
// function last) and whether n of them waiting the printed minutes are
// told: stuck in their work, or, LeakMin and more in a wait that is no
// rest, leaked.
type workShape struct {
	name   string
	state  string
	frames []string
	stuck  func(minutes, n int) bool
	// creator is the function that started them: main.startI, which
	// goroutine 1 runs for the whole dump, unless set.
	creator string
}

// handler frames a request's handler runs under (net/http).
var handlerFrames = []string{"net/http.HandlerFunc.ServeHTTP", "net/http.(*ServeMux).ServeHTTP", "net/http.serverHandler.ServeHTTP", "net/http.(*conn).serve"}

var workShapes = []workShape{
	// In work: a send under a handler, or under a call the goroutine's
	// own loop made, is stuck from WorkWaitMinutes, alone too (LeakMin
	// and more: leaked).
	{"handler send", "chan send", append([]string{"main.(*server).handleExport"}, handlerFrames...),
		func(m, _ int) bool { return m >= WorkWaitMinutes }, ""},
	{"worker's call send", "chan send", []string{"main.process", "main.worker"},
		func(m, _ int) bool { return m >= WorkWaitMinutes }, ""},
	// A rest under a handler from WorkRestMinutes, when fewer than
	// LeakMin rest alike (a streaming endpoint's hundreds are its design).
	{"handler select", "select", append([]string{"main.(*server).handleWatch"}, handlerFrames...),
		func(m, n int) bool { return m >= WorkRestMinutes && n < LeakMin }, ""},
	{"handler receive", "chan receive", append([]string{"main.(*server).handleWait"}, handlerFrames...),
		func(m, n int) bool { return m >= WorkRestMinutes && n < LeakMin }, ""},
	// gRPC (grpc-go 1.85, frames of testdata/libs/go-grpc/1.txt): a
	// unary method resting is a request's rest, from WorkRestMinutes; a
	// server-streaming method resting is its stream's, never.
	{"grpc unary receive", "chan receive", []string{"main.(*slowServer).Get", "main.init.func1",
		"google.golang.org/grpc.(*Server).register.(*Server).wrapUnaryHandler.func1", "google.golang.org/grpc.(*Server).processRPC",
		"google.golang.org/grpc.(*Server).handleStream", "google.golang.org/grpc.(*Server).serveStreams.func2.1"},
		func(m, n int) bool { return m >= WorkRestMinutes && n < LeakMin }, "google.golang.org/grpc.(*Server).serveStreams.func2"},
	{"grpc stream receive", "chan receive", []string{"main.(*slowServer).Watch", "main.init.func2",
		"google.golang.org/grpc.(*Server).processRPC", "google.golang.org/grpc.(*Server).handleStream",
		"google.golang.org/grpc.(*Server).serveStreams.func2.1"},
		func(int, int) bool { return false }, "google.golang.org/grpc.(*Server).serveStreams.func2"},
	// Rests of the goroutine's own loop: never, however long.
	{"worker's own receive", "chan receive", []string{"main.(*server).worker"}, func(int, int) bool { return false }, ""},
	{"ticker loop", "select", []string{"main.tick"}, func(int, int) bool { return false }, ""},
	{"own loop's call receive", "chan receive", []string{"main.next", "main.consume"}, func(int, int) bool { return false }, ""},
	{"accept", "IO wait", []string{"internal/poll.runtime_pollWait", "internal/poll.(*FD).Accept", "net.(*netFD).accept",
		"net.(*TCPListener).accept", "net.(*TCPListener).Accept", "net/http.(*Server).Serve"}, func(int, int) bool { return false }, ""},
	// A send in the goroutine's own function (a generator's loop) whose
	// starter still runs is the leak detector's, by count: not stuck alone.
	{"generator's own send", "chan send", []string{"main.generate"}, func(m, n int) bool { return m >= LeakWaitMinutes && n >= LeakMin }, ""},
	// The same send made by a function that runs no more (a handler that
	// gave up): its requester left, stuck alone.
	{"orphaned send", "chan send", []string{"main.(*server).handleSearch.func1"}, func(m, _ int) bool { return m >= LeakWaitMinutes },
		"main.(*server).handleSearch"},
}

// TestWorkWaitProperty: in 400 generated one-dump processes, each a random
// mix of the shapes above with random counts and printed minutes (0 to
// 400), all made by one parent (main, still in the function that started
// them, or, for the orphans, no more), a shape's
// goroutines are told exactly when the rule of its shape says so: what
// the wait is under decides, not the state or how long the rest of the
// process has waited.
func TestWorkWaitProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 1))
	for c := range 400 {
		var b strings.Builder
		// main runs the functions that started the goroutines (main.startI,
		// one a shape: one pool each) for the whole dump.
		b.WriteString("goroutine 1 [sync.WaitGroup.Wait]:\nsync.(*WaitGroup).Wait(0x1)\n\t/go/src/sync/waitgroup.go:118 +0x1\n")
		for i := range workShapes {
			fmt.Fprintf(&b, "main.start%d()\n\t/src/main.go:%d +0x1\n", i, 80+i)
		}
		b.WriteString("main.main()\n\t/src/main.go:70 +0x1\n\n")
		id := 10
		type placed struct {
			sh         workShape
			minutes, n int
		}
		var ps []placed
		for _, i := range rng.Perm(len(workShapes))[:1+rng.IntN(len(workShapes))] {
			sh := workShapes[i]
			n := 1 + rng.IntN(4)
			if rng.IntN(5) == 0 {
				n = LeakMin + rng.IntN(20)
			}
			m := []int{0, 1, 2, 4, 5, 30, 400}[rng.IntN(7)]
			ps = append(ps, placed{sh, m, n})
			for range n {
				state := sh.state
				if m > 0 {
					state += fmt.Sprintf(", %d minutes", m)
				}
				fmt.Fprintf(&b, "goroutine %d [%s]:\n", id, state)
				for j, f := range sh.frames {
					fmt.Fprintf(&b, "%s(0x1)\n\t/src/main.go:%d +0x2a\n", f, 10+j)
				}
				// One creator a shape, one parent: goroutine 1.
				creator := sh.creator
				if creator == "" {
					creator = fmt.Sprintf("main.start%d", i)
				}
				fmt.Fprintf(&b, "created by %s in goroutine 1\n\t/src/main.go:90 +0x1f\n\n", creator)
				id++
			}
		}
		ds, err := parse.Parse("work.txt", strings.NewReader(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		r := Analyze([]Input{{Dump: ds[0]}}, Options{})
		var got []string
		for _, f := range r.Findings {
			if f.Kind == KindStuck && f.Basis == "work-wait" || f.Kind == KindLeaked {
				got = append(got, f.Culprit)
			}
		}
		for _, p := range ps {
			want := p.sh.stuck(p.minutes, p.n)
			found := slices.ContainsFunc(got, func(c string) bool { return strings.HasPrefix(c, p.sh.frames[0]+" ") })
			if found != want {
				t.Fatalf("case %d: %d × %s [%s, %d minutes]: told %v, want %v (found: %v)", c, p.n, p.sh.name, p.sh.state, p.minutes, found, want, got)
			}
		}
	}
}
