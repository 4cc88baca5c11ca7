// go-moments: Go services whose goroutines stall under a minute before
// the dumps are taken, so the runtime prints no wait age ("[chan send]",
// never "[chan send, 2 minutes]"): only the goroutines' ids, the same at
// every moment, show that they stay. Stdlib only, written for Go 1.13 as
// well as the newest (gen.sh runs both). Each run writes its own
// goroutine dumps (debug=2, or debug=1 with -debug 1) at -first and then
// every -every.
//
// stuck:
//   - a batch runner: 4 workers take jobs from their channel and call
//     process(job), which sends the result on an unbuffered channel whose
//     collector returned after its first result (a send under a call, the
//     same 4 goroutines at every moment);
//   - an HTTP service on 127.0.0.1: 2 requests to /sync call
//     (*limiter).acquire, a semaphore (a buffered channel of 2) whose 2
//     slots were taken by a refresh that never gives them back: each waits
//     sending into the full channel under its handler;
//   - a ring of 3 goroutines (ringWorker), each holding its mutex and
//     waiting for the next one's: a deadlock no dump prints an owner for;
//   - a reporter whose awaitSummary waits for a summary nobody sends (a
//     receive under a call), and a poller whose readReply reads an
//     upstream that accepted and never answers, with no deadline (a
//     socket read under a call): rests by their kind, which the ids do not
//     tell (a long poll looks the same); pasted alone with their printed
//     age (-first 330s), they are what the paste is about;
//   - at rest by design: 3 idle workers of a second pool on their job
//     channel (nothing to do), the listener's accept loop, a ticker loop,
//     and a live keep-alive load of 6 clients on /fast (their requests
//     take a mutex for microseconds and sleep 2 ms, 30 ms apart; each client keeps its one
//     connection).
//
// healthy: the same service and load, where the summary comes, the
// upstream answers, the collector keeps receiving, the limiter's slots are given back, and the ring's workers
// take their two mutexes in one order.
package main

import (
	"flag"
	"fmt"
	"io"
	"io/ioutil"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sync"
	"time"
)

type result struct{ id, sum int }

// process works one job and hands its result to the collector.
func process(job int, results chan<- result) {
	s := 0
	for i := 0; i < 1000; i++ {
		s += i * job
	}
	results <- result{job, s}
}

func batchWorker(jobs <-chan int, results chan<- result) {
	for j := range jobs {
		process(j, results)
	}
}

// collect receives results; stuck: it returns after the first one (an
// early return on an error), and no one else receives.
func collect(results <-chan result, stuck bool) {
	for r := range results {
		if stuck && r.id >= 0 {
			return
		}
	}
}

type limiter struct{ slots chan struct{} }

func (l *limiter) acquire() { l.slots <- struct{}{} }
func (l *limiter) release() { <-l.slots }

var ring [3]sync.Mutex

func ringWorker(i int, stuck bool) {
	for {
		a, b := i, (i+1)%3
		if !stuck && b < a {
			a, b = b, a
		}
		ring[a].Lock()
		time.Sleep(20 * time.Millisecond)
		ring[b].Lock()
		ring[b].Unlock()
		ring[a].Unlock()
		time.Sleep(time.Millisecond)
	}
}

// awaitSummary waits for a summary; stuck: nobody ever sends it (a
// receive under a call the goroutine's own function made).
func awaitSummary(done <-chan string) string { return <-done }

func report(done chan string, stuck bool) {
	for {
		if !stuck {
			go func() { done <- "ok" }()
		}
		awaitSummary(done)
		time.Sleep(10 * time.Millisecond)
	}
}

// readReply reads one reply line from an upstream; stuck: the upstream
// accepted and never answers, and there is no deadline (a socket read
// under a call the goroutine's own function made).
func readReply(c net.Conn) (string, error) {
	var b [64]byte
	n, err := c.Read(b[:])
	return string(b[:n]), err
}

func poll(addr string) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		panic(err)
	}
	for {
		fmt.Fprintln(c, "status")
		if _, err := readReply(c); err != nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// upstream is a line server on 127.0.0.1 that answers each line, or
// (silent) accepts and never answers.
func upstream(silent bool) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func(c net.Conn) {
				var b [64]byte
				for {
					if _, err := c.Read(b[:]); err != nil {
						return
					}
					if !silent {
						fmt.Fprintln(c, "up")
					}
				}
			}(c)
		}
	}()
	return l.Addr().String()
}

func idleWorker(jobs <-chan int) {
	for j := range jobs {
		_ = j
	}
}

func serve(stuck bool) string {
	lim := &limiter{slots: make(chan struct{}, 2)}
	if stuck {
		// A refresh takes both slots and never gives them back.
		lim.acquire()
		lim.acquire()
	}
	var mu sync.Mutex
	hits := 0
	mux := http.NewServeMux()
	mux.HandleFunc("/fast", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits++
		mu.Unlock()
		time.Sleep(2 * time.Millisecond)
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("/sync", func(w http.ResponseWriter, r *http.Request) {
		lim.acquire()
		time.Sleep(5 * time.Millisecond)
		lim.release()
		fmt.Fprintln(w, "synced")
	})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	go http.Serve(l, mux)
	return "http://" + l.Addr().String()
}

// load is one keep-alive client of the load: a Transport of its own keeps
// its one connection (no dial churn between requests).
func load(base string) {
	c := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
	for {
		resp, err := c.Get(base + "/fast")
		if err == nil {
			io.Copy(ioutil.Discard, resp.Body)
			resp.Body.Close()
		}
		time.Sleep(30 * time.Millisecond) // a client waits for its answer a tenth of the time
	}
}

func main() {
	mode := flag.String("mode", "stuck", "stuck or healthy")
	out := flag.String("out", ".", "folder for the dumps 1.txt, 2.txt, 3.txt")
	first := flag.Duration("first", 3*time.Second, "when the first dump is written")
	every := flag.Duration("every", 5*time.Second, "time between dumps")
	debug := flag.Int("debug", 2, "goroutine profile debug level (1 or 2)")
	flag.Parse()
	stuck := *mode == "stuck"
	if !stuck && *mode != "healthy" {
		fmt.Fprintln(os.Stderr, "unknown mode", *mode)
		os.Exit(2)
	}
	jobs, results := make(chan int), make(chan result)
	for i := 0; i < 4; i++ {
		go batchWorker(jobs, results)
	}
	go collect(results, stuck)
	go func() {
		for j := 0; ; j++ {
			jobs <- j
			if !stuck {
				time.Sleep(time.Millisecond)
			}
		}
	}()
	idle := make(chan int)
	for i := 0; i < 3; i++ {
		go idleWorker(idle)
	}
	for i := 0; i < 3; i++ {
		go ringWorker(i, stuck)
	}
	go report(make(chan string), stuck)
	go poll(upstream(stuck))
	base := serve(stuck)
	for i := 0; i < 6; i++ {
		go load(base)
	}
	for i := 0; i < 2; i++ {
		go func() {
			c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
			for {
				resp, err := c.Get(base + "/sync")
				if err == nil {
					io.Copy(ioutil.Discard, resp.Body)
					resp.Body.Close()
				}
				time.Sleep(50 * time.Millisecond)
			}
		}()
	}
	go func() {
		for range time.Tick(100 * time.Millisecond) {
		}
	}()
	time.Sleep(*first)
	for i := 1; i <= 3; i++ {
		f, err := os.Create(filepath.Join(*out, fmt.Sprintf("%d.txt", i)))
		if err != nil {
			panic(err)
		}
		pprof.Lookup("goroutine").WriteTo(f, *debug)
		f.Close()
		if i < 3 {
			time.Sleep(*every)
		}
	}
}
