// Command go-gone runs Go waits whose other side is gone or ambiguous
// (issue 33: "cycles of every kind", "waits by structure"), with their
// healthy twins, and writes its own debug=2 (or debug=1) goroutine dumps
// when -out is given; gen.sh also takes SIGQUIT dumps of it.
//
//	-mode sleepcycle  an inventory and a ledger, each a struct with its
//	                  own sync.Mutex: main.reserve locks inv.mu, works
//	                  50 ms, locks led.mu; main.settle locks led.mu,
//	                  works, locks inv.mu: each holds one and waits for
//	                  the other for good. A janitor goroutine
//	                  (main.janitor) sleeps 100 ms in a loop and touches
//	                  neither lock; main waits for the two in a WaitGroup
//	                  (-mainsleep: main sleeps in a loop instead, a second
//	                  sleeper). The sleepers keep the runtime from calling
//	                  the program asleep.
//	-mode sleepflow   healthy: the same structs and janitor, but reserve
//	                  and settle take inv.mu then led.mu (one order), in
//	                  new goroutines started every 10 ms, and the janitor
//	                  holds led.mu while it sleeps 20 ms, then sleeps 5 ms
//	                  without it: waits at both Lock lines, the waiters
//	                  go on.
//	-mode contend     healthy: 8 goroutines take one mutex in a loop and
//	                  hold it for CPU work (the holder runs) beside the
//	                  janitor's sleep.
//	-mode fetchgone   six requests, each handled by main.handle (started
//	                  by main, or with -http served by net/http on
//	                  127.0.0.1 and asked by six clients of its own, or
//	                  with -selfclient=false by six curl requests from
//	                  outside), call
//	                  main.fetchAll: it starts a producer goroutine
//	                  (main.fetchAll.func1) that dials 127.0.0.1:1,
//	                  fails, and returns without sending or closing, and
//	                  waits for good on the unbuffered results channel.
//	-mode fetchslow   bounded: the same, but the producer is slow
//	                  (sleeps 10 minutes before it sends): alive.
//	-mode poolidle    healthy: six main.worker goroutines range over one
//	                  job channel, idle: the jobs come from a ticker
//	                  every 10 minutes.
//
// An HTTP server on 127.0.0.1 runs in every mode. Written for dumpdiff's
// testdata; stdlib only, builds with Go 1.13 too.
package main

import (
	"errors"
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

type inventory struct {
	mu    sync.Mutex
	stock map[string]int
}

type ledger struct {
	mu      sync.Mutex
	entries []string
}

var (
	inv  = &inventory{stock: map[string]int{"widget": 10}}
	led  = &ledger{}
	sink int
)

func work(n int) {
	for i := 0; i < n; i++ {
		sink += i % 7
	}
}

// reserve takes inv.mu, then led.mu.
func reserve(item string, pause time.Duration) {
	inv.mu.Lock()
	inv.stock[item]--
	time.Sleep(pause)
	led.mu.Lock()
	led.entries = append(led.entries, "reserve "+item)
	led.mu.Unlock()
	inv.mu.Unlock()
}

// settle takes led.mu, then inv.mu.
func settle(item string, pause time.Duration) {
	led.mu.Lock()
	led.entries = append(led.entries, "settle "+item)
	time.Sleep(pause)
	inv.mu.Lock()
	inv.stock[item]++
	inv.mu.Unlock()
	led.mu.Unlock()
}

// settleOrdered takes inv.mu, then led.mu, as reserve does.
func settleOrdered(item string) {
	inv.mu.Lock()
	inv.stock[item]++
	led.mu.Lock()
	led.entries = append(led.entries, "settle "+item)
	work(1000)
	led.mu.Unlock()
	inv.mu.Unlock()
}

// janitor sleeps in a loop; with hold, it holds led.mu while it sleeps.
func janitor(hold bool) {
	for {
		if hold {
			led.mu.Lock()
			time.Sleep(20 * time.Millisecond)
			if len(led.entries) > 1000 {
				led.entries = led.entries[:0]
			}
			led.mu.Unlock()
			time.Sleep(5 * time.Millisecond)
			continue
		}
		time.Sleep(100 * time.Millisecond)
		sink++
	}
}

var turnMu sync.Mutex

func bump() {
	for {
		turnMu.Lock()
		work(200000)
		turnMu.Unlock()
	}
}

type result struct {
	id   int
	body string
}

var errRefused = errors.New("fetch refused")

// fetch dials a port nothing listens on.
func fetch(id int, slow bool) (result, error) {
	if slow {
		time.Sleep(10 * time.Minute)
		return result{id: id, body: "late"}, nil
	}
	c, err := net.DialTimeout("tcp", "127.0.0.1:1", time.Second)
	if err != nil {
		return result{}, err
	}
	c.Close()
	return result{}, errRefused
}

// fetchAll starts the producer and waits for its result. The producer
// returns on an error without sending or closing.
func fetchAll(id int, slow bool) result {
	results := make(chan result)
	go func() {
		r, err := fetch(id, slow)
		if err != nil {
			return // the bug: no send, no close
		}
		results <- r
	}()
	return <-results
}

func handle(id int, slow bool) string {
	r := fetchAll(id, slow)
	return r.body
}

func worker(jobs <-chan int) {
	for j := range jobs {
		work(j)
	}
}

func main() {
	mode := flag.String("mode", "sleepcycle", "sleepcycle, sleepflow, contend, fetchgone, fetchslow or poolidle")
	out := flag.String("out", "", "file prefix for debug dumps (none: wait for SIGQUIT)")
	n := flag.Int("n", 1, "dumps to write, -every apart")
	every := flag.Duration("every", 3*time.Second, "time between dumps")
	after := flag.Duration("after", 2*time.Second, "time before the first dump")
	debug := flag.Int("debug", 2, "pprof debug level of the dumps")
	mainSleep := flag.Bool("mainsleep", false, "sleepcycle: main sleeps in a loop instead of waiting")
	useHTTP := flag.Bool("http", false, "fetchgone/fetchslow: requests come over HTTP")
	listen := flag.String("listen", "127.0.0.1:0", "the HTTP server's address")
	selfClient := flag.Bool("selfclient", true, "fetchgone/fetchslow -http: the program asks its own server (false: requests come from outside, gen.sh's curl)")
	gc := flag.Bool("gc", false, "run the GC each second (the runtime dates waits only after a GC saw them)")
	flag.Parse()

	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	slow := *mode == "fetchslow"
	http.HandleFunc("/fetch", func(w http.ResponseWriter, r *http.Request) {
		var id int
		fmt.Sscan(r.URL.Query().Get("id"), &id)
		fmt.Fprintln(w, handle(id, slow))
	})
	go http.Serve(ln, nil)
	if *gc {
		go func() {
			for {
				time.Sleep(time.Second)
				runtime.GC()
			}
		}()
	}

	var wg sync.WaitGroup
	switch *mode {
	case "sleepcycle":
		go janitor(false)
		wg.Add(2)
		go func() { defer wg.Done(); reserve("widget", 50*time.Millisecond) }()
		go func() { defer wg.Done(); settle("widget", 50*time.Millisecond) }()
	case "sleepflow":
		go janitor(true)
		go func() {
			for i := 0; ; i++ {
				if i%2 == 0 {
					go reserve("widget", 0)
				} else {
					go settleOrdered("widget")
				}
				time.Sleep(10 * time.Millisecond)
			}
		}()
	case "contend":
		go janitor(false)
		for i := 0; i < 8; i++ {
			go bump()
		}
	case "fetchgone", "fetchslow":
		for i := 0; i < 6; i++ {
			id := i
			if *useHTTP && !*selfClient {
				break // gen.sh's curl asks
			}
			if *useHTTP {
				go func() {
					resp, err := http.Get(fmt.Sprintf("http://%s/fetch?id=%d", ln.Addr(), id))
					if err == nil {
						resp.Body.Close()
					}
				}()
			} else {
				go handle(id, slow)
			}
		}
	case "poolidle":
		jobs := make(chan int)
		for i := 0; i < 6; i++ {
			go worker(jobs)
		}
		go func() {
			for range time.Tick(10 * time.Minute) {
				jobs <- 1000
			}
		}()
	default:
		fmt.Fprintln(os.Stderr, "unknown mode", *mode)
		os.Exit(2)
	}

	if *out == "" {
		if *mode == "sleepcycle" && !*mainSleep {
			wg.Wait()
		}
		for {
			time.Sleep(time.Second)
		}
	}
	go func() {
		if *mode == "sleepcycle" && !*mainSleep {
			wg.Wait()
		}
	}()
	time.Sleep(*after)
	for i := 1; i <= *n; i++ {
		f, err := os.Create(fmt.Sprintf("%s%d.txt", *out, i))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		pprof.Lookup("goroutine").WriteTo(f, *debug)
		f.Close()
		if i < *n {
			time.Sleep(*every)
		}
	}
}
