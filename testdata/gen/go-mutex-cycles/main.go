// Command go-mutex-cycles runs Go lock and channel cycles that one
// goroutine dump must tell by structure (issue 33, "cycles of every kind",
// "the holder first"), with their healthy twins, and writes its own
// debug=2 goroutine dump (pprof.Lookup("goroutine").WriteTo(w, 2)) when
// -out is given; gen.sh also takes SIGQUIT dumps of it.
//
//	-mode transfer   two tellers run (*account).transfer(a, b) (lock a,
//	                 50 ms of work, lock b) as A→B and B→A: each holds
//	                 its source and waits for the other's at the second
//	                 Lock. 200 ms later five bystanders queue on the two
//	                 accounts: three deposits on A, two audits of B (each
//	                 a method taking the account's lock once).
//	-mode lockorder  lockorder1 takes muA then muB, lockorder2 muB then
//	                 muA (package-level mutexes, 50 ms of work between):
//	                 each blocks at its second Lock. 200 ms later five
//	                 bystanders queue: three readConfig (muA), two
//	                 writeStats (muB).
//	-mode ordered    healthy: 24 goroutines take muA then muB in the same
//	                 order through two functions (debit, credit), holding
//	                 both a moment of CPU work, and readConfig/writeStats
//	                 bystanders take one each: brief waits at every Lock
//	                 line, no cycle.
//	-mode turnover   healthy: 40 goroutines take one mutex in a loop and
//	                 hold it for a moment of CPU work: most wait in Lock at
//	                 any instant, the holder runs.
//	-mode ring       three pipeline stages in a ring of unbuffered
//	                 channels, each sending its item downstream before it
//	                 receives the next from upstream: all three block in
//	                 chan send at once, forever.
//	-mode ringflow   healthy: the same ring with one item fewer than
//	                 stages, each stage doing a moment of CPU work per
//	                 item: the items go round and round.
//
// An HTTP server on 127.0.0.1 and a ticker keep running in every mode (the
// runtime never calls the program asleep); with -gc, a goroutine runs the
// GC each second so that the runtime dates waits of a minute (gen.sh's
// late SIGQUIT). Written for dumpdiff's testdata; stdlib only, builds with Go
// 1.13 too.
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"runtime"
	"runtime/pprof"
	"sync"
	"time"
)

type account struct {
	name    string
	balance int
	mu      sync.Mutex
}

// transfer locks a, works, then locks b.
func (a *account) transfer(b *account, n int) {
	a.mu.Lock()
	time.Sleep(50 * time.Millisecond)
	b.mu.Lock()
	a.balance -= n
	b.balance += n
	b.mu.Unlock()
	a.mu.Unlock()
}

// deposit takes a's lock once.
func (a *account) deposit(n int) {
	a.mu.Lock()
	a.balance += n
	a.mu.Unlock()
}

// audit takes a's lock once.
func (a *account) audit() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.balance
}

var (
	muA, muB sync.Mutex
	config   = map[string]int{}
	stats    = map[string]int{}
	sink     int
)

// work is a moment of CPU work (no sleep: the goroutine runs).
func work(n int) {
	for i := 0; i < n; i++ {
		sink += i % 7
	}
}

func lockorder1() {
	muA.Lock()
	time.Sleep(50 * time.Millisecond)
	muB.Lock()
	config["a"]++
	stats["a"]++
	muB.Unlock()
	muA.Unlock()
}

func lockorder2() {
	muB.Lock()
	time.Sleep(50 * time.Millisecond)
	muA.Lock()
	config["b"]++
	stats["b"]++
	muA.Unlock()
	muB.Unlock()
}

func readConfig() int {
	muA.Lock()
	defer muA.Unlock()
	work(2000)
	return config["a"]
}

func writeStats() {
	muB.Lock()
	stats["w"]++
	work(2000)
	muB.Unlock()
}

// debit and credit take muA then muB: one order everywhere.
func debit() {
	muA.Lock()
	muB.Lock()
	work(5000)
	muB.Unlock()
	muA.Unlock()
}

func credit() {
	muA.Lock()
	work(1000)
	muB.Lock()
	work(3000)
	muB.Unlock()
	muA.Unlock()
}

var turnMu sync.Mutex

func bump() {
	turnMu.Lock()
	work(20000)
	turnMu.Unlock()
}

// stage sends its item downstream, then takes the next from upstream.
func stage(out chan<- int, in <-chan int, item int, spin int) {
	for {
		out <- item
		item = <-in
		work(spin)
	}
}

// relay takes an item from upstream, then sends it downstream.
func relay(in <-chan int, out chan<- int, spin int) {
	for {
		item := <-in
		work(spin)
		out <- item
	}
}

func main() {
	mode := flag.String("mode", "transfer", "transfer, lockorder, ordered, turnover, ring or ringflow")
	out := flag.String("out", "", "file for one debug=2 dump (none: no dump, wait for SIGQUIT)")
	after := flag.Duration("after", 2*time.Second, "time before the dump")
	gc := flag.Bool("gc", false, "run the GC each second (the runtime dates waits only after a GC saw them)")
	flag.Parse()

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	go http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "ok") }))
	go func() {
		t := time.NewTicker(100 * time.Millisecond)
		for range t.C {
		}
	}()
	if *gc {
		go func() {
			for range time.Tick(time.Second) {
				runtime.GC()
			}
		}()
	}

	forever := func(f func()) {
		for {
			f()
		}
	}
	a := &account{name: "A", balance: 100}
	b := &account{name: "B", balance: 100}
	switch *mode {
	case "transfer":
		go forever(func() { a.transfer(b, 1) })
		go forever(func() { b.transfer(a, 1) })
		time.Sleep(200 * time.Millisecond)
		for i := 0; i < 3; i++ {
			go forever(func() { a.deposit(1) })
		}
		for i := 0; i < 2; i++ {
			go forever(func() { b.audit() })
		}
	case "lockorder":
		go forever(lockorder1)
		go forever(lockorder2)
		time.Sleep(200 * time.Millisecond)
		for i := 0; i < 3; i++ {
			go forever(func() { readConfig() })
		}
		for i := 0; i < 2; i++ {
			go forever(writeStats)
		}
	case "ordered":
		for i := 0; i < 12; i++ {
			go forever(debit)
			go forever(credit)
		}
		for i := 0; i < 3; i++ {
			go forever(func() { readConfig() })
		}
		for i := 0; i < 2; i++ {
			go forever(writeStats)
		}
	case "turnover":
		for i := 0; i < 40; i++ {
			go forever(bump)
		}
	case "ring", "ringflow":
		c1, c2, c3 := make(chan int), make(chan int), make(chan int)
		spin := 0
		if *mode == "ringflow" {
			spin = 200000
			go stage(c1, c3, 1, spin)
			go stage(c2, c1, 2, spin)
			go relay(c2, c3, spin)
		} else {
			go stage(c1, c3, 1, spin)
			go stage(c2, c1, 2, spin)
			go stage(c3, c2, 3, spin)
		}
	default:
		fmt.Fprintln(os.Stderr, "unknown mode", *mode)
		os.Exit(2)
	}
	if *out == "" {
		select {}
	}
	time.Sleep(*after)
	f, err := os.Create(*out)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	pprof.Lookup("goroutine").WriteTo(f, 2)
	f.Close()
}
