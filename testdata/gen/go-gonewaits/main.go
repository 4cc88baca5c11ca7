// Command go-gonewaits runs Go waits whose other side is gone, or held,
// with their healthy twins (issue 33, "waits by structure", "the holder
// first"). It serves net/http/pprof on -listen (127.0.0.1); gen.sh takes
// its goroutine dumps over that endpoint (debug=2) or by SIGQUIT.
//
//	-mode sendleak    GET /fetch calls main.fetch: it starts a goroutine
//	                  (main.fetch.func1) that looks the item up (10 ms)
//	                  and sends it on an unbuffered channel, and waits
//	                  for it 1 ms only (a timeout): fetch returns, the
//	                  sender blocks in its send for good. Each request
//	                  leaves one more goroutine.
//	-mode sendok      healthy: /fetch waits for its sender's result (no
//	                  timeout); beside it a pipeline started by
//	                  main.startPipeline (which returns): a producer
//	                  (main.produce) sends on an unbuffered channel to a
//	                  consumer (main.consume) that works 200 ms per item
//	                  (a sleep under main.work).
//	-mode sendokloop  healthy: a producer (main.feed, started by
//	                  main.startFeed, which returns) sends to main's own
//	                  loop, which sleeps 100 ms and takes one item.
//	-mode condstuck   main.condStuck starts 3 goroutines that wait on a
//	                  sync.Cond for a ready flag (for !ready { c.Wait() })
//	                  and returns; nothing ever sets it or signals.
//	-mode condok      healthy: the same 3 waiters, and a ticker loop
//	                  started by main (main.tick) that sets a counter and
//	                  broadcasts every 100 ms; the waiters wait again.
//	-mode chansem     main.semJobs starts 8 main.convert goroutines that
//	                  take a slot of a buffered channel of 3
//	                  (sem <- struct{}{}) and, holding it, wait for a
//	                  channel nobody closes (slow work that never ends).
//	-mode chansemok   healthy: main.feedJobs starts a main.convert every
//	                  20 ms; each holds its slot for 5 ms (a timer).
//
// Written for dumpdiff's testdata; stdlib only, builds with Go 1.13 too.
package main

import (
	"flag"
	"log"
	"net/http"
	_ "net/http/pprof"
	"runtime"
	"sync"
	"time"
)

func lookup(id string) string {
	time.Sleep(10 * time.Millisecond)
	return "item " + id
}

// fetch gives up after 1 ms: its sender is left blocked.
func fetch(id string) (string, bool) {
	ch := make(chan string)
	go func() {
		ch <- lookup(id)
	}()
	select {
	case v := <-ch:
		return v, true
	case <-time.After(time.Millisecond):
		return "", false
	}
}

// fetchWait waits for its sender.
func fetchWait(id string) (string, bool) {
	ch := make(chan string)
	go func() {
		ch <- lookup(id)
	}()
	return <-ch, true
}

func produce(out chan<- int) {
	for i := 0; ; i++ {
		out <- i
	}
}

// consume works 200 ms on each item (a sleep stands for the work).
func consume(in <-chan int) {
	for v := range in {
		work(v)
	}
}

func work(v int) { time.Sleep(200 * time.Millisecond) }

func startPipeline() {
	ch := make(chan int)
	go produce(ch)
	go consume(ch)
}

func feed(out chan<- int) {
	for i := 0; ; i++ {
		out <- i
	}
}

func startFeed() chan int {
	ch := make(chan int)
	go feed(ch)
	return ch
}

type gate struct {
	mu    sync.Mutex
	c     *sync.Cond
	ready bool
	n     int
}

func condStuck(g *gate) {
	for i := 0; i < 3; i++ {
		go func() {
			g.mu.Lock()
			for !g.ready {
				g.c.Wait()
			}
			g.mu.Unlock()
		}()
	}
}

func condWaiters(g *gate) {
	for i := 0; i < 3; i++ {
		go func() {
			g.mu.Lock()
			for {
				seen := g.n
				for g.n == seen {
					g.c.Wait()
				}
			}
		}()
	}
}

func tick(g *gate) {
	for {
		time.Sleep(100 * time.Millisecond)
		g.mu.Lock()
		g.n++
		g.c.Broadcast()
		g.mu.Unlock()
	}
}

// convert takes a slot, then holds it while it waits: for a channel
// nobody closes (never), or for a 5 ms timer.
func convert(i int, sem chan struct{}, never chan struct{}) {
	sem <- struct{}{}
	defer func() { <-sem }()
	if never != nil {
		<-never
		return
	}
	<-time.After(5 * time.Millisecond)
}

func semJobs(sem chan struct{}, never chan struct{}) {
	for i := 0; i < 8; i++ {
		go convert(i, sem, never)
	}
}

func feedJobs(sem chan struct{}) {
	for i := 0; ; i++ {
		go convert(i, sem, nil)
		time.Sleep(20 * time.Millisecond)
	}
}

func main() {
	mode := flag.String("mode", "sendleak", "what to run")
	listen := flag.String("listen", "127.0.0.1:18790", "pprof and /fetch address")
	flag.Parse()
	http.HandleFunc("/fetch", func(w http.ResponseWriter, r *http.Request) {
		f := fetch
		if *mode == "sendok" {
			f = fetchWait
		}
		if _, ok := f(r.URL.Query().Get("id")); !ok {
			http.Error(w, "timeout", http.StatusGatewayTimeout)
		}
	})
	// A GC dates the waits (the runtime prints minutes only for waits a
	// GC has seen): gen.sh asks for one before a late SIGQUIT.
	http.HandleFunc("/gc", func(w http.ResponseWriter, r *http.Request) { runtime.GC() })
	g := &gate{}
	g.c = sync.NewCond(&g.mu)
	switch *mode {
	case "sendleak":
	case "sendok":
		startPipeline()
	case "sendokloop":
		ch := startFeed()
		go func() { log.Fatal(http.ListenAndServe(*listen, nil)) }()
		for {
			time.Sleep(100 * time.Millisecond)
			<-ch
		}
	case "condstuck":
		condStuck(g)
	case "condok":
		condWaiters(g)
		go tick(g)
	case "chansem":
		semJobs(make(chan struct{}, 3), make(chan struct{}))
	case "chansemok":
		go feedJobs(make(chan struct{}, 3))
	default:
		log.Fatalf("unknown mode %q", *mode)
	}
	log.Fatal(http.ListenAndServe(*listen, nil))
}
