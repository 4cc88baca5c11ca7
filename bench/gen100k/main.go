// Command gen100k starts 100,000 goroutines blocked in realistic, varied
// stacks (several call chains, 5 to 31 frames deep; chan receive, chan send,
// select, mutexes, cond, wait group, sleep, IO wait) and writes their
// debug=2 dump (the runtime.Stack(buf, true) text that
// pprof.Lookup("goroutine").WriteTo(w, 2) prints) for the parser benchmark:
// about 90 MB of text.
//
//	gen100k -n 100000 -o ../data/go-100k.txt
package main

import (
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"net"
	"os"
	"runtime"
	"sync"
	"time"

	"dumpdiff-bench/gen100k/shop"
)

func main() {
	n := flag.Int("n", 100000, "goroutines to start")
	conns := flag.Int("conns", 1000, "of which socket readers in IO wait (2 fds each)")
	out := flag.String("o", "../data/go-100k.txt", "output file")
	serveAt := flag.String("serve", "", "instead of writing the dump, serve pprof (and /stw) on 127.0.0.1 and write the address to this file")
	withHandler := flag.Bool("handler", false, "with -serve: also serve package handler at handler.Path")
	flag.Parse()

	s := shop.NewService()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	// Fixed seed: the same chains and depths on every run.
	rng := rand.New(rand.NewPCG(1, 100000))
	var started sync.WaitGroup
	var clients []net.Conn
	for i := 0; i < *n; i++ {
		depth := pickDepth(rng)
		kind := rng.IntN(100)
		started.Add(1)
		if i < *conns {
			c, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				log.Fatal(err)
			}
			clients = append(clients, c)
			sc, err := ln.Accept()
			if err != nil {
				log.Fatal(err)
			}
			go serveConn(sc, depth, &started)
			continue
		}
		switch {
		case kind < 30: // request handlers waiting for a DB connection
			go handleRequest(s, i, depth, &started)
		case kind < 50: // idle workers
			go startWorker(s, i, depth, &started)
		case kind < 62: // cache readers behind locked shards
			go cacheReader(s, i, depth, &started)
		case kind < 70: // index readers behind a write lock
			go indexReader(s, i, depth, &started)
		case kind < 78: // event publishers nobody listens to
			go publisher(s, i, depth, &started)
		case kind < 84: // batch waiters
			go batchWaiter(s, i, depth, &started)
		case kind < 88:
			go batchJoiner(s, i, depth, &started)
		default: // pollers
			go poller(i, depth, &started)
		}
	}
	started.Wait()
	// Let the last ones reach their blocking call.
	time.Sleep(time.Second)
	if *serveAt != "" {
		serve(*serveAt, *withHandler) // until killed
	}

	f, err := os.Create(*out)
	if err != nil {
		log.Fatal(err)
	}
	// pprof.Lookup("goroutine").WriteTo(f, 2) prints runtime.Stack(buf, true)
	// but stops growing its buffer at 64 MiB, truncating this dump; so call
	// runtime.Stack ourselves with a buffer that grows until the dump fits.
	buf := make([]byte, 128<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	if _, err := f.Write(buf); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
	fi, _ := os.Stat(*out)
	fmt.Printf("wrote %s: %d goroutines, %.1f MB\n", *out, runtime.NumGoroutine(), float64(fi.Size())/1e6)
	runtime.KeepAlive(s)
	runtime.KeepAlive(clients)
}

// pickDepth returns how many middleware layers a goroutine goes through:
// most stacks are shallow, a few are deep, as in real services. With the
// fixed frames around them stacks are 5 to 31 frames deep.
func pickDepth(rng *rand.Rand) int {
	switch p := rng.IntN(100); {
	case p < 65:
		return rng.IntN(2) // 0..1
	case p < 92:
		return 2 + rng.IntN(3) // 2..4
	default:
		return 5 + rng.IntN(6) // 5..10
	}
}
