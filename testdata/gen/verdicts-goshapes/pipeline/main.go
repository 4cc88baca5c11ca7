// Command pipeline is the second, independent source for dumpdiff's
// unserved-WaitGroup rule (issue 33): the fan-in of the Go blog's
// "Pipelines and cancellation" written without its done channel. Each
// request to /first runs a pipeline: gen feeds numbers to 4 square
// workers, merge fans their outputs in with a WaitGroup and a closer
// goroutine (wg.Wait, then close(out)); the handler reads the first
// result and returns. The workers then block for ever sending on merge's
// output, merge's forwarders on out, and the closer in WaitGroup.Wait: a
// WaitGroup whose counter never reaches zero, its waiter not main but a
// goroutine of its own, one set per request.
//
// -mode leak sends 40 requests before the address is written; -mode done
// (the healthy twin) runs the same pipeline with a done channel the
// handler closes, as the blog does: nothing is left.
//
// Written for dumpdiff's testdata; stdlib only, builds with Go 1.13 too.
package main

import (
	"flag"
	"fmt"
	"io/ioutil"
	"log"
	"net"
	"net/http"
	_ "net/http/pprof"
	"sync"
)

func gen(done <-chan struct{}, nums ...int) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for _, n := range nums {
			select {
			case out <- n:
			case <-done:
				return
			}
		}
	}()
	return out
}

func sq(done <-chan struct{}, in <-chan int) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for n := range in {
			select {
			case out <- n * n:
			case <-done:
				return
			}
		}
	}()
	return out
}

func merge(done <-chan struct{}, cs ...<-chan int) <-chan int {
	var wg sync.WaitGroup
	out := make(chan int)
	output := func(c <-chan int) {
		defer wg.Done()
		for n := range c {
			select {
			case out <- n:
			case <-done:
				return
			}
		}
	}
	wg.Add(len(cs))
	for _, c := range cs {
		go output(c)
	}
	go func() {
		wg.Wait()
		close(out)
	}()
	return out
}

var useDone bool

func first(w http.ResponseWriter, r *http.Request) {
	done := make(chan struct{}) // nil-like when never closed
	if useDone {
		defer close(done)
	}
	in := gen(done, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)
	var cs []<-chan int
	for i := 0; i < 4; i++ {
		cs = append(cs, sq(done, in))
	}
	fmt.Fprintln(w, <-merge(done, cs...))
}

func main() {
	mode := flag.String("mode", "leak", "leak or done")
	addrFile := flag.String("addr-file", "", "file to write the address to once the load is sent")
	flag.Parse()
	useDone = *mode == "done"
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	http.HandleFunc("/first", first)
	go http.Serve(ln, nil)
	c := &http.Client{}
	for i := 0; i < 40; i++ {
		resp, err := c.Get("http://" + ln.Addr().String() + "/first")
		if err != nil {
			log.Fatal(err)
		}
		ioutil.ReadAll(resp.Body)
		resp.Body.Close()
	}
	if *addrFile != "" {
		ioutil.WriteFile(*addrFile, []byte(ln.Addr().String()), 0o644)
	}
	select {}
}
