// Command errgroup runs tasks through one golang.org/x/sync/errgroup.Group
// limited to 2 at a time (SetLimit) and writes three goroutine dumps
// (debug=2), 2 s after it starts, 5 s apart.
//
// stuck: the 2 running tasks wait for an answer that never comes (a
// channel nobody sends on stands for an upstream with no deadline); 10
// request goroutines call Go and wait for a slot of the limit: Go sends on
// the group's own semaphore channel.
//
// healthy: 20 requests a second each run a 10 ms task through the same
// limit: it is free nearly always.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"time"

	"golang.org/x/sync/errgroup"
)

var (
	batch errgroup.Group
	never = make(chan struct{})
)

func fetch(d time.Duration) error {
	if d == 0 {
		<-never // the upstream's answer, which never comes
		return nil
	}
	time.Sleep(d)
	return nil
}

// request runs one task through the limited group.
func request(d time.Duration) {
	batch.Go(func() error { return fetch(d) })
}

func startRequests() {
	for range 10 {
		go request(0)
	}
}

func feed() {
	for {
		go request(10 * time.Millisecond)
		time.Sleep(50 * time.Millisecond)
	}
}

func main() {
	mode := flag.String("mode", "stuck", "stuck or healthy")
	out := flag.String("out", ".", "folder for 1.txt, 2.txt, 3.txt")
	flag.Parse()
	batch.SetLimit(2)
	switch *mode {
	case "stuck":
		for range 2 {
			request(0) // the 2 slots, taken for good
		}
		startRequests()
	case "healthy":
		go feed()
	default:
		fmt.Fprintln(os.Stderr, "mode:", *mode)
		os.Exit(2)
	}
	time.Sleep(2 * time.Second)
	for i := 1; i <= 3; i++ {
		// Each dump is written by a goroutine of its own, as net/http/pprof's
		// handler is (a request's goroutine): three dumps, not one copied.
		done := make(chan struct{})
		go func() {
			defer close(done)
			f, err := os.Create(filepath.Join(*out, fmt.Sprintf("%d.txt", i)))
			if err != nil {
				panic(err)
			}
			if err := pprof.Lookup("goroutine").WriteTo(f, 2); err != nil {
				panic(err)
			}
			f.Close()
		}()
		<-done
		if i < 3 {
			time.Sleep(5 * time.Second)
		}
	}
}
