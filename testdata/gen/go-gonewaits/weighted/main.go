// Command weighted bounds exports with a golang.org/x/sync/semaphore
// Weighted of 2 permits and serves net/http/pprof on -listen (127.0.0.1).
//
//	-mode stuck  main.startExports starts 8 main.export goroutines; each
//	             takes a permit (Acquire) and, holding it, waits for a
//	             channel nobody closes: 2 hold, 6 wait in Acquire.
//	-mode ok     healthy: main.feed starts an export every 10 ms that
//	             holds its permit for 5 ms.
//
// Written for dumpdiff's testdata.
package main

import (
	"context"
	"flag"
	"log"
	"net/http"
	_ "net/http/pprof"
	"time"

	"golang.org/x/sync/semaphore"
)

func export(sem *semaphore.Weighted, hold func()) {
	if err := sem.Acquire(context.Background(), 1); err != nil {
		return
	}
	defer sem.Release(1)
	hold()
}

func startExports(sem *semaphore.Weighted, never chan struct{}) {
	for i := 0; i < 8; i++ {
		go export(sem, func() { <-never })
	}
}

func feed(sem *semaphore.Weighted) {
	for {
		go export(sem, func() { <-time.After(5 * time.Millisecond) })
		time.Sleep(10 * time.Millisecond)
	}
}

func main() {
	mode := flag.String("mode", "stuck", "stuck or ok")
	listen := flag.String("listen", "127.0.0.1:18791", "pprof address")
	flag.Parse()
	sem := semaphore.NewWeighted(2)
	switch *mode {
	case "stuck":
		startExports(sem, make(chan struct{}))
	case "ok":
		go feed(sem)
	default:
		log.Fatalf("unknown mode %q", *mode)
	}
	log.Fatal(http.ListenAndServe(*listen, nil))
}
