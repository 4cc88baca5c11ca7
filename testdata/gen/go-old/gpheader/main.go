// Command gpheader parks goroutines in known states and sends itself
// SIGQUIT, for the goroutine headers an older Go prints under
// GOTRACEBACK=system: "goroutine 25 gp=0xc000102a80 m=nil [chan receive]:"
// (Go 1.23 and later), "goroutine 25 [chan receive]:" (before). It needs
// nothing newer than Go 1.13 (no modules, no generics).
package main

import (
	"fmt"
	"os"
	"sync"
	"syscall"
	"time"
)

func receive(c chan int, ready *sync.WaitGroup) {
	ready.Done()
	<-c
}

func choose(a, b chan int, ready *sync.WaitGroup) {
	ready.Done()
	select {
	case <-a:
	case <-b:
	}
}

func lock(mu *sync.Mutex, ready *sync.WaitGroup) {
	ready.Done()
	mu.Lock()
}

func nap(ready *sync.WaitGroup) {
	ready.Done()
	time.Sleep(time.Hour)
}

func main() {
	var ready sync.WaitGroup
	never := make(chan int)
	var mu sync.Mutex
	mu.Lock()
	for i := 0; i < 3; i++ {
		ready.Add(4)
		go receive(never, &ready)
		go choose(never, never, &ready)
		go lock(&mu, &ready)
		go nap(&ready)
	}
	ready.Wait()
	// Each goroutine is parked (or about to be) in its wait: give the
	// scheduler a moment so that every one is in it when the dump is taken.
	time.Sleep(200 * time.Millisecond)
	fmt.Fprintln(os.Stderr, "gpheader: sending SIGQUIT")
	syscall.Kill(os.Getpid(), syscall.SIGQUIT)
	time.Sleep(time.Minute)
}
