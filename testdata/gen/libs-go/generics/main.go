// Command generics is the program of testdata/libs/go-generics: goroutines
// running generic functions and a method of a generic type, so that their
// instantiated names appear in the dumps.
//
//	generics -addr-file F
//
// What it runs:
//
//   - main.worker[T any](ch chan T) ranges over ch (nobody sends): 10
//     goroutines with T=string and 10 with T=*int, all blocked in chan
//     receive, each started by the generic main.startPool[T any].
//   - main.(*batcher[T]).loop, a method of a generic type, with T=int: 2
//     goroutines in a select on the batcher's input and a never-closed stop
//     channel, started by main.main.
//   - net/http/pprof on http.DefaultServeMux, served by main on 127.0.0.1.
//
// The address of the pprof server is written to F once every goroutine is
// started.
package main

import (
	"flag"
	"log"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
)

// worker handles every value sent on ch.
func worker[T any](ch chan T) {
	for v := range ch {
		_ = v
	}
}

// startPool starts n workers reading ch.
func startPool[T any](n int, ch chan T) {
	for i := 0; i < n; i++ {
		go worker(ch)
	}
}

// batcher collects values of type T until stop is closed.
type batcher[T any] struct {
	in    chan T
	stop  chan struct{}
	batch []T
}

// loop is kept out of line (a real batching loop is too big to inline) so
// that the dump also shows a generic frame with its arguments and offset;
// worker stays inlined.
//
//go:noinline
func (b *batcher[T]) loop() {
	for {
		select {
		case v := <-b.in:
			b.batch = append(b.batch, v)
		case <-b.stop:
			return
		}
	}
}

func main() {
	addrFile := flag.String("addr-file", "", "write the pprof address to this file")
	flag.Parse()
	if *addrFile == "" {
		log.Fatal("usage: generics -addr-file FILE")
	}

	startPool(10, make(chan string))
	startPool(10, make(chan *int))
	b := &batcher[int]{in: make(chan int), stop: make(chan struct{})}
	for i := 0; i < 2; i++ {
		go b.loop()
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*addrFile, []byte(ln.Addr().String()+"\n"), 0o644); err != nil {
		log.Fatal(err)
	}
	log.Fatal(http.Serve(ln, nil))
}
