// Program idlelong is a service that has been idle for minutes: at start, 200 requests each
// start a subscriber that waits in select (main.(*hub).subscribe, each created by its own
// request goroutine, so Go 1.21+ prints 200 distinct parents), and 300 workers wait on their
// job channels (main.worker). Nothing happens after that. Every goroutine has waited as long
// as the others, minutes: a process at rest, not a leak of the subscribers. It serves
// net/http/pprof on 127.0.0.1 and writes its address to the file named by -addr-file. See
// gen.sh beside it.
package main

import (
	"flag"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
	"sync"
)

type hub struct{ events, stop chan int }

func (h *hub) subscribe() {
	select {
	case <-h.events:
	case <-h.stop:
	}
}

func request(h *hub, started *sync.WaitGroup) {
	go h.subscribe()
	started.Done()
	// the request ends; its subscriber stays
}

func worker(jobs chan int) {
	for range jobs {
	}
}

func main() {
	addrFile := flag.String("addr-file", "", "write the pprof address here")
	flag.Parse()
	h := &hub{events: make(chan int), stop: make(chan int)}
	var started sync.WaitGroup
	for i := 0; i < 200; i++ {
		started.Add(1)
		go request(h, &started)
	}
	started.Wait()
	for i := 0; i < 300; i++ {
		go worker(make(chan int))
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	if *addrFile != "" {
		os.WriteFile(*addrFile, []byte(ln.Addr().String()), 0o644)
	}
	http.Serve(ln, nil)
}
