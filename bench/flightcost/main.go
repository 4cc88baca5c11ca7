// Command flightcost is the service bench/flight-cost.sh measures package
// handler's flight recorder on: N goroutines parked as a real service's
// are (connection readers, workers, timers: chan receive, select, sleep,
// a mutex), and an HTTP endpoint doing a little work per request (4 KiB
// hashed, a shared counter under a mutex, a goroutine handing back the
// result). With -flight the recorder runs from the start and is served at
// handler.FlightPath.
package main

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"log"
	"net/http"
	_ "net/http/pprof" // capture's endpoints beside the recorder
	"sync"
	"time"

	"github.com/dumpdiff/dumpdiff/handler"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "address to serve on")
	n := flag.Int("n", 10000, "goroutines parked")
	flight := flag.Bool("flight", false, "run and serve the flight recorder")
	window := flag.Duration("window", 10*time.Second, "flight recorder window")
	flag.Parse()

	mux := http.NewServeMux()
	mux.Handle("/debug/pprof/", http.DefaultServeMux)
	mux.Handle(handler.Path, handler.New())
	if *flight {
		f, err := handler.NewFlight(*window, 64<<20)
		if err != nil {
			log.Fatal(err)
		}
		mux.Handle(handler.FlightPath, f)
	}
	park(*n)
	var mu sync.Mutex
	count := 0
	buf := make([]byte, 4<<10)
	mux.HandleFunc("/work", func(w http.ResponseWriter, r *http.Request) {
		res := make(chan [32]byte)
		go func() { res <- sha256.Sum256(buf) }()
		sum := <-res
		mu.Lock()
		count++
		c := count
		mu.Unlock()
		fmt.Fprintf(w, "%x %d\n", sum[:4], c)
	})
	srv := &http.Server{Addr: *listen, Handler: mux}
	ln, err := listenTCP(*listen)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(ln.Addr().String()) // the script reads the address
	log.Fatal(srv.Serve(ln))
}

// park starts n goroutines in the waits of a service at rest: a quarter
// each in chan receive, select with a timer, sleep, and a cond wait.
func park(n int) {
	never := make(chan struct{})
	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	for i := range n {
		switch i % 4 {
		case 0:
			go func() { <-never }()
		case 1:
			go func() {
				t := time.NewTicker(time.Hour)
				for {
					select {
					case <-never:
						return
					case <-t.C:
					}
				}
			}()
		case 2:
			go func() {
				for {
					time.Sleep(time.Hour)
				}
			}()
		case 3:
			go func() { mu.Lock(); cond.Wait(); mu.Unlock() }()
		}
	}
}
