// Command debug3gen is a program to take CockroachDB's goroutine?debug=3
// from (gen.sh runs it under cockroachdb/go's runtime): goroutines blocked
// since the start, since a minute later and since a few seconds before the
// dump, with parents other than main and with pprof labels, served by
// net/http/pprof on 127.0.0.1.
//
//	idle-worker   6  chan receive on jobs, started by main at once       (2 minutes at the dump)
//	ledger        4  sync.Mutex.Lock of the ledger that settle holds     (1 minute: they start at 65 s)
//	settle        1  sleeping with the ledger's lock held                (started at 65 s)
//	fanout        1  started by main; starts the 3 below, then waits     (sync.WaitGroup.Wait)
//	fetch         3  select with no case ready, started by fanout        (labelled fetch=N)
//	late          2  chan send nobody receives, started a few s before the dump
//	gc            1  runtime.GC every 5 s: the runtime stamps a wait's start
//	                 only when a GC finds the goroutine waiting
//
// It prints "ready PHASE" lines on stdout: "ready listen ADDR" when it
// serves, "ready late" when the late goroutines are blocked.
package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"sync"
	"time"
)

var (
	jobs   = make(chan int)
	nobody = make(chan int)
	ledger sync.Mutex
)

func idleWorker() {
	for j := range jobs {
		_ = j
	}
}

func post() {
	ledger.Lock()
	defer ledger.Unlock()
}

func settle() {
	ledger.Lock()
	defer ledger.Unlock()
	time.Sleep(time.Hour)
}

func fetch() {
	select {}
}

func fanout() {
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go pprof.Do(context.Background(), pprof.Labels("fetch", strconv.Itoa(i)), func(context.Context) {
			defer wg.Done()
			fetch()
		})
	}
	wg.Wait()
}

func late() {
	nobody <- 1
}

func collect() {
	for {
		runtime.GC()
		time.Sleep(5 * time.Second)
	}
}

func main() {
	lateAfter, _ := time.ParseDuration(os.Args[1]) // when the late goroutines block
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for i := 0; i < 6; i++ {
		go idleWorker()
	}
	go fanout()
	go collect()
	go func() {
		time.Sleep(65 * time.Second)
		go settle()
		time.Sleep(100 * time.Millisecond)
		for i := 0; i < 4; i++ {
			go post()
		}
	}()
	go func() {
		time.Sleep(lateAfter)
		for i := 0; i < 2; i++ {
			go late()
		}
		time.Sleep(100 * time.Millisecond)
		fmt.Println("ready late")
	}()
	fmt.Println("ready listen", ln.Addr())
	if err := http.Serve(ln, nil); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
