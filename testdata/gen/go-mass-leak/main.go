// Program massleak is a service that forgets a goroutine per request, the shape of issue 22's
// example (5,067 of 5,170 goroutines at one line of one process, in every moment): each of
// 5,067 "requests" starts a watcher that waits on a channel nobody ever closes
// (main.(*registry).watch), while the rest of the process is ordinary: 60 workers draining a
// job queue, 30 tickers, 10 sleepers, an HTTP server with its accept loop. It serves
// net/http/pprof on 127.0.0.1 and writes its address to the file named by -addr-file.
// Stdlib only. See gen.sh beside it.
package main

import (
	"flag"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
	"time"
)

type registry struct{ never chan struct{} }

// watch waits for a change that never comes: the forgotten goroutine.
func (r *registry) watch() { <-r.never }

// handle is one request: it starts a watcher and forgets it.
func (r *registry) handle() { go r.watch() }

func worker(jobs chan int) {
	for j := range jobs {
		_ = j * j
	}
}

func ticker() {
	t := time.NewTicker(time.Second)
	for range t.C {
	}
}

func main() {
	addrFile := flag.String("addr-file", "", "write the pprof address here")
	flag.Parse()
	r := &registry{never: make(chan struct{})}
	for i := 0; i < 5067; i++ {
		r.handle()
	}
	jobs := make(chan int)
	for i := 0; i < 60; i++ {
		go worker(jobs)
	}
	for i := 0; i < 30; i++ {
		go ticker()
	}
	for i := 0; i < 10; i++ {
		go func() { time.Sleep(time.Hour) }()
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
