package analyze

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// goWorld writes Go debug=2 goroutine blocks, numbering goroutines from 1.
type goWorld struct {
	b  strings.Builder
	id int64
}

// add writes one goroutine: its state, its frames (top first) and its
// creator ("" for none), with parent printed when > 0. It returns the id.
func (w *goWorld) add(state string, frames []string, creator string, parent int64) int64 {
	w.id++
	fmt.Fprintf(&w.b, "goroutine %d [%s]:\n", w.id, state)
	for i, f := range frames {
		fmt.Fprintf(&w.b, "%s(...)\n\t/src/%s.go:%d +0x%x\n", f, strings.NewReplacer("/", "_", "*", "", "(", "", ")", "").Replace(f), 10+i, 0x20+i)
	}
	if creator != "" {
		in := ""
		if parent > 0 {
			in = fmt.Sprintf(" in goroutine %d", parent)
		}
		fmt.Fprintf(&w.b, "created by %s%s\n\t/src/creator.go:7 +0x55\n", creator, in)
	}
	w.b.WriteString("\n")
	return w.id
}

func (w *goWorld) analyze(t *testing.T) *Result {
	t.Helper()
	ds, err := parse.Parse("w.txt", strings.NewReader(w.b.String()))
	if err != nil || len(ds) != 1 {
		t.Fatalf("parse: %v", err)
	}
	return Analyze([]Input{{Dump: ds[0]}}, Options{})
}

var (
	readLoopLent = []string{"net/http.(*persistConn).readLoop"}
	writeLoop    = []string{"net/http.(*persistConn).writeLoop"}
	readLoopIdle = []string{"internal/poll.runtime_pollWait", "internal/poll.(*pollDesc).wait", "internal/poll.(*FD).Read", "net.(*netFD).Read", "net.(*conn).Read",
		"net/http.(*persistConn).Read", "bufio.(*Reader).fill", "bufio.(*Reader).Peek", "net/http.(*persistConn).readLoop"}
	bodyReader = []string{"internal/poll.runtime_pollWait", "internal/poll.(*pollDesc).wait", "internal/poll.(*FD).Read", "net.(*netFD).Read", "net.(*conn).Read",
		"net/http.(*persistConn).Read", "bufio.(*Reader).Read", "net/http.(*body).readLocked", "net/http.(*body).Read", "net/http.(*bodyEOFSignal).Read",
		"io.copyBuffer", "io.Copy", "main.proxyStream"}
	serverIdle = []string{"internal/poll.runtime_pollWait", "internal/poll.(*pollDesc).wait", "internal/poll.(*FD).Read", "net.(*netFD).Read", "net.(*conn).Read",
		"net/http.(*connReader).Read", "bufio.(*Reader).fill", "bufio.(*Reader).Peek", "net/http.(*conn).serve"}
)

// TestUnreadBodiesProperty: in random worlds of HTTP client connections
// lent with their body (readLoop in select), goroutines reading bodies
// (a proxy's io.Copy), idle pooled connections and a server's idle
// keep-alive ones, one dump gives the unread-bodies leak exactly when the
// lent connections beyond the readers are LeakBodiesMin or more and
// LeakMassShare of the lent ones; idle connections of either side never
// count. Seeded.
func TestUnreadBodiesProperty(t *testing.T) {
	for seed := range uint64(80) {
		rng := rand.New(rand.NewPCG(seed, 33))
		lent := []int{0, 20, LeakBodiesMin - 1, LeakBodiesMin, 150, 400}[rng.IntN(6)]
		readers := []int{0, lent / 4, lent / 2, lent - LeakBodiesMin + 1, lent}[rng.IntN(5)]
		readers = max(0, min(readers, lent))
		idle := []int{0, 50, 150}[rng.IntN(3)]
		server := []int{0, 100, 400}[rng.IntN(3)]
		var w goWorld
		w.add("IO wait", []string{"internal/poll.runtime_pollWait", "net.(*TCPListener).Accept", "net/http.(*Server).Serve", "main.main"}, "", 0)
		for range lent {
			w.add("select", readLoopLent, "net/http.(*Transport).dialConn", 7)
			w.add("select", writeLoop, "net/http.(*Transport).dialConn", 7)
		}
		for range readers {
			w.add("IO wait", bodyReader, "main.serveProxy", 1)
		}
		for range idle {
			w.add("IO wait", readLoopIdle, "net/http.(*Transport).dialConn", 7)
			w.add("select", writeLoop, "net/http.(*Transport).dialConn", 7)
		}
		for range server {
			w.add("IO wait", serverIdle, "net/http.(*Server).Serve", 1)
		}
		r := w.analyze(t)
		got := 0
		for _, f := range r.Findings {
			if f.Basis == BasisUnreadBodies {
				got++
				eq(t, "unread", f.Counts[0], lent-readers)
			}
		}
		u := lent - readers
		want := u >= LeakBodiesMin && float64(u) >= LeakMassShare*float64(lent)
		if (got == 1) != want || got > 1 {
			t.Errorf("seed %d (lent %d, readers %d, idle %d, server %d): %d findings, want %v", seed, lent, readers, idle, server, got, want)
		}
	}
}

// TestGoSleepCrowdProperty: random worlds of goroutines sleeping on time
// alone, made by one creator (with one parent, several, or none printed),
// beside other goroutines, or sleeping inside a server connection's
// handler: the explosion by structure comes exactly when they are
// GoSleepCrowdMin and CrowdShare of the process, not a server connection's,
// and not all of one printed parent (a bounded pool of CrowdMin sleeping
// workers is none). Seeded.
func TestGoSleepCrowdProperty(t *testing.T) {
	for seed := range uint64(100) {
		rng := rand.New(rand.NewPCG(seed, 34))
		n := []int{10, CrowdMin, GoSleepCrowdMin - 1, GoSleepCrowdMin, 3000}[rng.IntN(5)]
		others := []int{0, 40, GoSleepCrowdMin, 6000}[rng.IntN(4)]
		parents := []int{0, 1, 20}[rng.IntN(3)] // 0: none printed (before Go 1.21)
		inHandler := rng.IntN(4) == 0
		var w goWorld
		for i := range n {
			p := int64(0)
			if parents > 0 {
				p = int64(1000 + i%parents)
			}
			if inHandler {
				w.add("sleep", []string{"time.Sleep", "main.slowHandler", "net/http.HandlerFunc.ServeHTTP", "net/http.serverHandler.ServeHTTP", "net/http.(*conn).serve"}, "net/http.(*Server).Serve", 1)
			} else {
				w.add("sleep", []string{"time.Sleep", "main.remindHandler.func1"}, "main.remindHandler", p)
			}
		}
		for range others {
			w.add("chan receive", []string{"main.worker"}, "main.startWorkers", 1)
		}
		r := w.analyze(t)
		got := 0
		for _, f := range r.Findings {
			if f.Basis == BasisGoSleepCrowd {
				got++
				eq(t, "count", f.Counts[f.At], n)
			}
		}
		want := !inHandler && parents != 1 && n >= GoSleepCrowdMin && float64(n) >= CrowdShare*float64(n+others)
		if (got == 1) != want || got > 1 {
			t.Errorf("seed %d (n %d, others %d, parents %d, handler %v): %d findings, want %v", seed, n, others, parents, inHandler, got, want)
		}
	}
}

// TestUnservedWaitGroupProperty: random worlds of a goroutine in
// WaitGroup.Wait with workers it started (gone, blocked on a channel or a
// lock, or working: sleeping, reading, running), other application
// goroutines (none, blocked, or working), and a library's loop it started
// (an accept loop with no application frame): the WaitGroup is unserved
// exactly when no worker and no other application goroutine can run.
// Parents printed or not (Go 1.13). Seeded.
func TestUnservedWaitGroupProperty(t *testing.T) {
	type shape struct {
		state  string
		frames []string
		can    bool // can still run by itself
	}
	workers := []shape{
		{"chan send", []string{"main.run.func1"}, false},
		{"select", []string{"main.run.func1"}, false},
		{"sync.Mutex.Lock", []string{"sync.runtime_SemacquireMutex", "sync.(*Mutex).lockSlow", "sync.(*Mutex).Lock", "main.run.func1"}, false},
		{"sleep", []string{"time.Sleep", "main.run.func1"}, true},
		{"running", []string{"main.compute", "main.run.func1"}, true},
		{"IO wait", []string{"internal/poll.runtime_pollWait", "internal/poll.(*FD).Read", "net.(*conn).Read", "main.run.func1"}, true},
	}
	others := []shape{
		{"chan receive", []string{"main.collector"}, false},
		{"sleep", []string{"time.Sleep", "main.ticker"}, true},
	}
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 35))
		printParents := rng.IntN(2) == 0
		parent := func(id int64) int64 {
			if printParents {
				return id
			}
			return 0
		}
		var w goWorld
		waiter := w.add("sync.WaitGroup.Wait", []string{"sync.runtime_SemacquireWaitGroup", "sync.(*WaitGroup).Wait", "main.run", "main.main"}, "", 0)
		w.add("IO wait", []string{"internal/poll.runtime_pollWait", "net.(*TCPListener).Accept", "net/http.(*Server).Serve", "net/http.Serve"}, "main.main", parent(waiter))
		can := false
		for range rng.IntN(9) {
			s := workers[rng.IntN(len(workers))]
			if rng.IntN(2) == 0 {
				s = workers[rng.IntN(3)] // blocked ones, more often
			}
			w.add(s.state, s.frames, "main.run", parent(waiter))
			can = can || s.can
		}
		for range rng.IntN(3) {
			s := others[rng.IntN(len(others))]
			w.add(s.state, s.frames, "main.main", parent(waiter))
			can = can || s.can
		}
		r := w.analyze(t)
		got := 0
		for _, f := range r.Findings {
			if f.Basis == BasisWaitGroupUnserved {
				got++
				eq(t, "culprit", f.Culprit, "main.run")
			}
		}
		if (got == 1) != !can || got > 1 {
			t.Errorf("seed %d (parents %v, can run %v): %d findings\n%s", seed, printParents, can, got, w.b.String())
		}
	}
}

// TestFlatSelectMassProperty: over two or three debug=1 moments, one stack
// parked where debug=1 hides the wait holds flat: in a select (two hidden
// runtime frames: a broker's subscribers) it is a mass leak only from
// LeakFlatMin, in a channel operation (three) from LeakMassMin, each time
// LeakMassShare of the process. Seeded.
func TestFlatSelectMassProperty(t *testing.T) {
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 36))
		n := []int{LeakMassMin - 1, LeakMassMin, 60, LeakFlatMin - 1, LeakFlatMin, 400}[rng.IntN(6)]
		hidden := 2 + rng.IntN(2)
		others := []int{0, 5, 30, 500}[rng.IntN(4)]
		moments := 2 + rng.IntN(2)
		var in []Input
		for m := range moments {
			var b strings.Builder
			fmt.Fprintf(&b, "goroutine profile: total %d\n", n+others)
			debug1Record(&b, n, "main.(*broker).Subscribe.func1", 0x132e737, hidden)
			if others > 0 {
				debug1Record(&b, others, "main.serve", 0x14a2f11, 0)
			}
			ds, err := parse.Parse(fmt.Sprintf("%d.txt", m+1), strings.NewReader(b.String()))
			if err != nil || len(ds) != 1 {
				t.Fatalf("seed %d: %v", seed, err)
			}
			in = append(in, Input{Dump: ds[0]})
		}
		r := Analyze(in, Options{})
		got := false
		for _, f := range r.Findings {
			if f.Kind == KindLeaked && strings.Contains(f.Pool, "Subscribe") {
				got = true
			}
		}
		floor := LeakMassMin
		if hidden == 2 {
			floor = LeakFlatMin
		}
		want := n >= floor && float64(n) >= LeakMassShare*float64(n+others)
		if got != want {
			t.Errorf("seed %d (n %d, hidden %d, others %d, moments %d): leak %v, want %v", seed, n, hidden, others, moments, got, want)
		}
	}
}
