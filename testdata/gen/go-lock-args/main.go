// Command go-lock-args runs Go lock waits whose owner the runtime does not
// print, for dumpdiff's argument graph (issue 33), and writes its own
// debug=2 goroutine dumps (pprof.Lookup("goroutine").WriteTo(w, 2)).
//
//	-mode ring      four tellers each move money from one account to the
//	                next (src locked, then dst): a ring of four waits
//	                forms within the first round and never clears; a
//	                ticker and an HTTP server on 127.0.0.1 keep running.
//	-mode ordered   24 tellers move money between four accounts,
//	                locking the lower index first, holding both 1 ms,
//	                then 5–35 ms outside any lock (drawn at random, so
//	                that their timers do not fire together): each lock
//	                busy about half the time, brief lock waits, no
//	                deadlock (the healthy control).
//	-mode ledger    a pair of tellers move money between accounts 0 and 1
//	                in opposite directions (a cycle of two), then, 200
//	                and 400 ms later, a teller from 2 to 1 and one from 3
//	                to 2: they queue behind the cycle, one of them on the
//	                same Lock line and the same lock as a member of it.
//	-mode stock     one goroutine moves stock into the ledger (takeStock:
//	                stock's lock, then the ledger's), another posts the
//	                ledger to stock (postLedger: the ledger's, then
//	                stock's), each through its own function, the locks
//	                passed as arguments; the ticker runs the GC each
//	                second, so that the runtime dates the waits (it prints
//	                a wait's minutes only once a GC has seen it).
//	-mode pair      two goroutines take two package-level mutexes in
//	                opposite orders through functions that take both as
//	                arguments (reserve/release style); a ticker runs.
//	                For a SIGQUIT after a minute (gen.sh), or dumps.
//
// Written for dumpdiff's testdata; stdlib only, builds with Go 1.13 too.
package main

import (
	"flag"
	"fmt"
	"math/rand"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sync"
	"time"
)

// account puts its mutex after two fields, as a struct of an application
// does: the lock sits at an offset from the value the frames print.
type account struct {
	name    string
	balance int
	mu      sync.Mutex
}

// transfer moves n from a to b, locking a then b: two tellers moving in
// opposite directions (or a ring of them) wait for each other.
func (a *account) transfer(b *account, n int, hold time.Duration) {
	a.mu.Lock()
	defer a.mu.Unlock()
	time.Sleep(hold)
	b.mu.Lock()
	defer b.mu.Unlock()
	a.balance -= n
	b.balance += n
}

// orderedTransfer locks the lower-indexed account first: no cycle can form.
func orderedTransfer(all []*account, i, j, n int, hold time.Duration) {
	lo, hi := i, j
	if lo > hi {
		lo, hi = hi, lo
	}
	all[lo].mu.Lock()
	all[hi].mu.Lock()
	time.Sleep(hold)
	all[i].balance -= n
	all[j].balance += n
	all[hi].mu.Unlock()
	all[lo].mu.Unlock()
}

var stockMu, ledgerMu sync.Mutex

// takeStock locks stock, then the ledger.
func takeStock(stock, ledger *sync.Mutex, hold time.Duration) {
	stock.Lock()
	time.Sleep(hold)
	ledger.Lock()
	ledger.Unlock()
	stock.Unlock()
}

// postLedger locks the ledger, then stock: the other order.
func postLedger(ledger, stock *sync.Mutex, hold time.Duration) {
	ledger.Lock()
	time.Sleep(hold)
	stock.Lock()
	stock.Unlock()
	ledger.Unlock()
}

// reserve takes first then second, with the work between.
func reserve(first, second *sync.Mutex, hold time.Duration) {
	first.Lock()
	time.Sleep(hold)
	second.Lock()
	second.Unlock()
	first.Unlock()
}

func main() {
	mode := flag.String("mode", "ring", "ring, ordered or pair")
	out := flag.String("out", "", "folder for the dumps (none: no dumps)")
	first := flag.Duration("first", 3*time.Second, "first dump after start")
	every := flag.Duration("every", 5*time.Second, "time between dumps")
	count := flag.Int("count", 3, "dumps")
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

	all := make([]*account, 4)
	for i := range all {
		all[i] = &account{name: fmt.Sprintf("acct-%d", i), balance: 100}
	}
	switch *mode {
	case "ring":
		for i := range all {
			go func(i int) {
				for {
					all[i].transfer(all[(i+1)%len(all)], 1, 50*time.Millisecond)
				}
			}(i)
		}
	case "ordered":
		for g := 0; g < 24; g++ {
			go func(g int) {
				rnd := rand.New(rand.NewSource(int64(g)))
				for k := 0; ; k++ {
					i, j := (g+k)%4, (g+k+1+g%3)%4
					if i == j {
						j = (j + 1) % 4
					}
					orderedTransfer(all, i, j, 1, time.Millisecond)
					time.Sleep(time.Duration(5+rnd.Intn(31)) * time.Millisecond)
				}
			}(g)
		}
	case "ledger":
		teller := func(from, to int, after time.Duration) {
			time.Sleep(after)
			for {
				all[from].transfer(all[to], 1, 50*time.Millisecond)
			}
		}
		go teller(0, 1, 0)
		go teller(1, 0, 0)
		go teller(2, 1, 200*time.Millisecond)
		go teller(3, 2, 400*time.Millisecond)
	case "stock":
		go func() {
			for range time.Tick(time.Second) {
				runtime.GC()
			}
		}()
		go func() {
			for {
				takeStock(&stockMu, &ledgerMu, 50*time.Millisecond)
			}
		}()
		go func() {
			for {
				postLedger(&ledgerMu, &stockMu, 50*time.Millisecond)
			}
		}()
	case "pair":
		go func() {
			for {
				reserve(&stockMu, &ledgerMu, 50*time.Millisecond)
			}
		}()
		go func() {
			for {
				reserve(&ledgerMu, &stockMu, 50*time.Millisecond)
			}
		}()
	default:
		fmt.Fprintln(os.Stderr, "unknown mode", *mode)
		os.Exit(2)
	}
	if *out == "" {
		select {}
	}
	time.Sleep(*first)
	for n := 1; n <= *count; n++ {
		if n > 1 {
			time.Sleep(*every)
		}
		f, err := os.Create(filepath.Join(*out, fmt.Sprintf("%d.txt", n)))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		pprof.Lookup("goroutine").WriteTo(f, 2)
		f.Close()
	}
}
