package analyze

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// stallWorld writes Go debug=2 dumps of one process at several moments,
// each goroutine with the id the test gives it.
type stallWorld struct {
	moments []strings.Builder
}

func newStallWorld(n int) *stallWorld { return &stallWorld{moments: make([]strings.Builder, n)} }

// add writes goroutine id at moment m: state, frames (top first), creator
// ("" for none) and its parent (printed when > 0).
func (w *stallWorld) add(m int, id int64, state string, frames []string, creator string, parent int64) {
	b := &w.moments[m]
	fmt.Fprintf(b, "goroutine %d [%s]:\n", id, state)
	for i, f := range frames {
		fmt.Fprintf(b, "%s(...)\n\t/src/%s.go:%d +0x%x\n", f, strings.NewReplacer("/", "_", "*", "", "(", "", ")", "").Replace(f), 10+i, 0x20+i)
	}
	if creator != "" {
		in := ""
		if parent > 0 {
			in = fmt.Sprintf(" in goroutine %d", parent)
		}
		fmt.Fprintf(b, "created by %s%s\n\t/src/creator.go:7 +0x55\n", creator, in)
	}
	b.WriteString("\n")
}

func (w *stallWorld) analyze(t *testing.T) *Result {
	t.Helper()
	var in []Input
	for m := range w.moments {
		ds, err := parse.Parse(fmt.Sprintf("%d.txt", m+1), strings.NewReader(w.moments[m].String()))
		if err != nil || len(ds) != 1 {
			t.Fatalf("parse moment %d: %v", m+1, err)
		}
		in = append(in, Input{Dump: ds[0]})
	}
	return Analyze(in, Options{})
}

func (w *stallWorld) String() string {
	var b strings.Builder
	for m := range w.moments {
		fmt.Fprintf(&b, "--- moment %d\n%s", m+1, w.moments[m].String())
	}
	return b.String()
}

// acceptLoop is an HTTP server's accept loop started from the application
// (go serve(srv, ln)), as Go 1.26 prints it.
var acceptLoop = []string{"internal/poll.runtime_pollWait", "internal/poll.(*pollDesc).wait", "internal/poll.(*pollDesc).waitRead", "internal/poll.(*FD).Accept",
	"net.(*netFD).accept", "net.(*TCPListener).accept", "net.(*TCPListener).Accept", "net/http.(*Server).Serve", "main.serve"}

// pprofWriter is the goroutine that writes a debug=2 dump for
// net/http/pprof's handler.
var pprofWriter = []string{"runtime/pprof.writeGoroutineStacks", "runtime/pprof.writeGoroutine", "runtime/pprof.(*Profile).WriteTo",
	"net/http/pprof.handler.ServeHTTP", "net/http/pprof.Index", "net/http.HandlerFunc.ServeHTTP", "net/http.(*ServeMux).ServeHTTP",
	"net/http.serverHandler.ServeHTTP", "net/http.(*conn).serve"}

// TestWaitGroupFamilyProperty: over 1 to 3 moments, a goroutine waits in
// WaitGroup.Wait, called by a plain function (its workers are the ones it
// started) or by a stopper's method (its workers are the ones the
// stopper's runWorker started, told by the receiver type, parents printed
// or not). The Wait is unserved exactly when none of its workers can run
// by itself and nothing else of the application could call Done: an
// accept loop under an application frame never could; a housekeeping loop
// that pauses in its own sleep could, unless it is the same goroutine
// pausing at every moment of two or more; a pool worker running a task of
// the caller's (a func literal of it on its stack) and an unrelated task
// that sleeps in the middle of its work always could. Seeded.
func TestWaitGroupFamilyProperty(t *testing.T) {
	type shape struct {
		state  string
		frames []string
		can    bool // can still run by itself
	}
	lock := []string{"sync.runtime_SemacquireMutex", "sync.(*Mutex).lockSlow", "sync.(*Mutex).Lock"}
	// A worker in a select waits for input: fed while the application's
	// own listener (an accept loop under an application frame) takes
	// input, else blocked like the rest (can is set per world below).
	workers := []shape{
		{"chan send", nil, false},
		{"sync.Mutex.Lock", lock, false},
		{"select", nil, false},
		{"sleep", []string{"time.Sleep"}, true},
		{"running", []string{"main.compute"}, true},
	}
	for seed := range uint64(400) {
		rng := rand.New(rand.NewPCG(seed, 33))
		n := 1 + rng.IntN(3)
		printParents := rng.IntN(2) == 0
		stopper := rng.IntN(2) == 0
		w := newStallWorld(n)
		const waiterID, starterID = 10, 11
		caller, creator, entry := "main.run", "main.run", "main.run.func1"
		waiterFrames := []string{"sync.runtime_SemacquireWaitGroup", "sync.(*WaitGroup).Wait", "main.run", "main.main"}
		workerParent := int64(waiterID)
		if stopper {
			caller, creator, entry = "main.(*stopper).stop", "main.(*stopper).runWorker", "main.(*stopper).runWorker.func1"
			waiterFrames = []string{"sync.runtime_SemacquireWaitGroup", "sync.(*WaitGroup).Wait", "main.(*stopper).stop", "main.(*node).shutdown", "main.(*node).onSignal"}
			workerParent = starterID // started by another goroutine than the one that stops
		}
		if !printParents {
			workerParent = 0
		}
		nWorkers := rng.IntN(5)
		appListener := rng.IntN(2) == 0
		var shapes []shape
		can := false
		for range nWorkers {
			s := workers[rng.IntN(len(workers))]
			if rng.IntN(2) == 0 {
				s = workers[rng.IntN(3)] // blocked ones, more often
			}
			shapes = append(shapes, s)
			can = can || s.can || s.state == "select" && appListener
		}
		house := rng.IntN(2) == 0
		houseTurns := rng.IntN(3) == 0 // a new goroutine at each moment
		poolTask := rng.IntN(6) == 0   // a pool worker running a func literal of the caller, sleeping
		otherTask := rng.IntN(6) == 0  // an unrelated worker sleeping inside its task
		if house && (n == 1 || houseTurns) || poolTask || otherTask {
			can = true
		}
		for m := range n {
			w.add(m, 1, "chan receive", []string{"main.main"}, "", 0)
			w.add(m, waiterID, "sync.WaitGroup.Wait", waiterFrames, "main.main", 0)
			if appListener {
				w.add(m, 2, "IO wait", acceptLoop, "main.main", 0)
			} else {
				// net/http/pprof's server, started bare: `go http.ListenAndServe(addr, nil)`.
				w.add(m, 2, "IO wait", acceptLoop[:len(acceptLoop)-1], "main.main", 0)
			}
			// A client connection that turns over: no two moments alike.
			w.add(m, int64(900+m), "select", []string{"net/http.(*persistConn).writeLoop"}, "net/http.(*Transport).dialConn", 0)
			for i, s := range shapes {
				fr := append(append([]string(nil), s.frames...), "main.scan", entry)
				w.add(m, int64(20+i), s.state, fr, creator, workerParent)
			}
			if house {
				id := int64(3)
				if houseTurns {
					id = int64(100 + m)
				}
				w.add(m, id, "sleep", []string{"time.Sleep", "main.housekeeping"}, "main.main", 0)
			}
			if poolTask {
				w.add(m, 4, "sleep", []string{"time.Sleep", "main.run.func2", "main.(*pool).worker"}, "main.newPool", 0)
			}
			if otherTask {
				w.add(m, 5, "sleep", []string{"time.Sleep", "main.process", "main.worker"}, "main.startWorkers", 0)
			}
		}
		r := w.analyze(t)
		// Told by this rule or, when the same goroutine waits at every
		// moment with no worker left, by the stuck detector's no-adders
		// (workwaits.go), which stands for it.
		got := 0
		var told []string
		for _, f := range r.Findings {
			told = append(told, f.Kind+" "+f.State+" "+f.Basis)
			if f.State != "waitgroup-wait" {
				continue
			}
			got++
			if f.Basis == BasisWaitGroupUnserved {
				eq(t, "culprit", f.Culprit, caller)
				eq(t, "critical at every moment of two or more", f.Severity == Critical, n >= 2)
			}
		}
		if (got == 1) != !can || got > 1 {
			t.Errorf("seed %d (%d moments, stopper %v, parents %v, can run %v): findings %v\n%s", seed, n, stopper, printParents, can, told, w)
		}
	}
}

// TestGoSpinningProperty: over 2 or 3 moments, request goroutines compute
// in a library's loop under a handler. A finding of spinning comes exactly
// when one of them is the same goroutine (by id) in the same loop at every
// moment, running, runnable, or caught in the runtime's semaphore with its
// own code on top (an allocation waiting for the world the dump stopped);
// goroutines whose ids turn over between moments (busy handlers that
// finish), and ones waiting on a sync.Mutex in the same frames at every
// moment, never make one. Seeded.
func TestGoSpinningProperty(t *testing.T) {
	loop := []string{"example.com/ftype.boxHeader", "example.com/ftype.isoBrand", "example.com/ftype.Match", "main.upload",
		"net/http.HandlerFunc.ServeHTTP", "net/http.serverHandler.ServeHTTP", "net/http.(*conn).serve"}
	locked := append([]string{"sync.runtime_SemacquireMutex", "sync.(*Mutex).lockSlow", "sync.(*Mutex).Lock", "main.(*cache).get"}, loop[3:]...)
	runState := []string{"running", "runnable", "semacquire"}
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 27))
		n := 2 + rng.IntN(2)
		w := newStallWorld(n)
		for m := range n {
			// The goroutine that writes the dump comes first, a new one
			// each time (no two moments alike), as pprof's handler prints.
			w.add(m, int64(900+m), "running", pprofWriter, "net/http.(*Server).Serve", 0)
		}
		want := false
		next := int64(1000)
		for g := range 1 + rng.IntN(4) {
			same := rng.IntN(2) == 0
			if same {
				want = true
			}
			for m := range n {
				id := int64(20 + g)
				if !same {
					next++
					id = next // a handler that finished: another goroutine now
				}
				w.add(m, id, runState[rng.IntN(len(runState))], loop, "net/http.(*Server).Serve", 0)
			}
		}
		for g := range rng.IntN(3) {
			for m := range n {
				w.add(m, int64(40+g), "sync.Mutex.Lock", locked, "net/http.(*Server).Serve", 0)
			}
		}
		for m := range n {
			w.add(m, 1, "IO wait", acceptLoop, "main.main", 0)
		}
		r := w.analyze(t)
		got := 0
		for _, f := range r.Findings {
			if f.Kind == KindSpinning {
				got++
				eq(t, "basis", f.Basis, "same-frames")
			}
		}
		if (got > 0) != want {
			t.Errorf("seed %d (%d moments, want %v): %d spinning findings\n%s", seed, n, want, got, w)
		}
	}
}

// TestGoUntimedClientProperty: over 2 or 3 moments, request goroutines of
// an application wait in net/http's round trip (HTTP/1), their
// connections' read loops in a socket read. The same goroutines (by id) at
// every moment, HeldWaitMin or more, are stuck, told with the
// untimed-client remedy; request
// goroutines whose ids turn over (slow requests that finish) and idle
// keep-alive connections (a read loop with no request waiting) are not.
// Seeded.
func TestGoUntimedClientProperty(t *testing.T) {
	request := []string{"net/http.(*persistConn).roundTrip", "net/http.(*Transport).roundTrip", "net/http.(*Transport).RoundTrip", "net/http.send",
		"net/http.(*Client).send", "net/http.(*Client).do", "net/http.(*Client).Do", "net/http.(*Client).Get", "main.fetchQuote", "main.quoteLoop"}
	readLoop := []string{"internal/poll.runtime_pollWait", "internal/poll.(*pollDesc).wait", "internal/poll.(*FD).Read", "net.(*netFD).Read", "net.(*conn).Read",
		"net/http.(*persistConn).Read", "bufio.(*Reader).fill", "bufio.(*Reader).Peek", "net/http.(*persistConn).readLoop"}
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 71))
		n := 2 + rng.IntN(2)
		w := newStallWorld(n)
		stuck := rng.IntN(2) == 0
		reqs := 1 + rng.IntN(6)
		idle := rng.IntN(5)
		next := int64(1000)
		for m := range n {
			w.add(m, int64(900+m), "running", pprofWriter, "net/http.(*Server).Serve", 0)
			w.add(m, 1, "chan receive", []string{"main.main"}, "", 0)
			for i := range reqs {
				id := int64(10 + i)
				if !stuck {
					next++
					id = next
				}
				w.add(m, id, "select", request, "main.main", 0)
				w.add(m, int64(200+i), "IO wait", readLoop, "net/http.(*Transport).dialConn", 0)
				w.add(m, int64(300+i), "select", []string{"net/http.(*persistConn).writeLoop"}, "net/http.(*Transport).dialConn", 0)
			}
			for i := range idle {
				w.add(m, int64(400+i), "IO wait", readLoop, "net/http.(*Transport).dialConn", 0)
				w.add(m, int64(500+i), "select", []string{"net/http.(*persistConn).writeLoop"}, "net/http.(*Transport).dialConn", 0)
			}
		}
		r := w.analyze(t)
		var told []string
		for _, f := range r.Findings {
			told = append(told, f.Kind+" "+f.State)
			if f.Kind == KindStuck && f.State == "http-client-wait" {
				eq(t, "culprit", strings.HasPrefix(f.Culprit, "main.fetchQuote"), true)
				eq(t, "remedy", strings.Contains(f.Remedy, "http.Client.Timeout"), true)
			}
		}
		wantTold := []string(nil)
		if stuck && reqs >= HeldWaitMin { // one request alone is noise (HeldWaitMin)
			wantTold = []string{KindStuck + " http-client-wait"}
		}
		if fmt.Sprint(told) != fmt.Sprint(wantTold) {
			t.Errorf("seed %d (%d moments, %d requests, stuck %v, %d idle): findings %v, want %v\n%s", seed, n, reqs, stuck, idle, told, wantTold, w)
		}
	}
}
