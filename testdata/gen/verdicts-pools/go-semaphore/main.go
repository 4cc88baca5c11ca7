// Command go-semaphore holds a golang.org/x/sync/semaphore.Weighted of 2
// permits and writes three goroutine dumps (debug=2), 5 s apart.
//
// stuck: 2 export jobs take the two permits and never return (a slow
// export, simulated by a sleep of 10 minutes); 10 request goroutines
// wait in Acquire for a permit.
//
// healthy: 20 requests a second each take a permit for 10 ms: the
// semaphore is free nearly always, requests rarely wait.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"time"

	"golang.org/x/sync/semaphore"
)

var exports = semaphore.NewWeighted(2)

func export(d time.Duration) {
	if err := exports.Acquire(context.Background(), 1); err != nil {
		return
	}
	defer exports.Release(1)
	time.Sleep(d) // the export, simulated
}

func startExports() {
	for range 2 {
		go export(10 * time.Minute)
	}
}

func startRequests() {
	for range 10 {
		go export(10 * time.Minute)
	}
}

func feed() {
	for {
		go export(10 * time.Millisecond)
		time.Sleep(50 * time.Millisecond)
	}
}

func main() {
	mode := flag.String("mode", "stuck", "stuck or healthy")
	out := flag.String("out", ".", "folder for 1.txt, 2.txt, 3.txt")
	flag.Parse()
	switch *mode {
	case "stuck":
		startExports()
		time.Sleep(200 * time.Millisecond)
		startRequests()
	case "healthy":
		go feed()
	default:
		fmt.Fprintln(os.Stderr, "mode:", *mode)
		os.Exit(2)
	}
	time.Sleep(2 * time.Second)
	for i := 1; i <= 3; i++ {
		f, err := os.Create(filepath.Join(*out, fmt.Sprintf("%d.txt", i)))
		if err != nil {
			panic(err)
		}
		if err := pprof.Lookup("goroutine").WriteTo(f, 2); err != nil {
			panic(err)
		}
		f.Close()
		if i < 3 {
			time.Sleep(5 * time.Second)
		}
	}
}
