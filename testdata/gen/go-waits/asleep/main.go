// asleep: Go's own deadlock check, in a program with nothing else (Go 1.13
// never calls a program with a timer asleep). -mode wg: main waits on a
// WaitGroup one of whose two workers returned without Done while the other
// waits to receive on a channel nobody sends on. -mode chan: main receives
// on a results channel its only producer never writes, the producer blocked
// sending on a full channel nobody drains. The runtime stops the program
// with "fatal error: all goroutines are asleep - deadlock!".
package main

import (
	"flag"
	"fmt"
	"sync"
)

func asleepWG() {
	var wg sync.WaitGroup
	never := make(chan int)
	wg.Add(2)
	go func() {}() // forgets its Done
	go func() {
		defer wg.Done()
		<-never // nobody sends
	}()
	wg.Wait()
}

func asleepChan() {
	full := make(chan int, 1)
	results := make(chan int)
	go func() {
		full <- 1
		full <- 2 // full, nobody drains
		results <- 3
	}()
	fmt.Println(<-results)
}

func main() {
	mode := flag.String("mode", "wg", "wg or chan")
	flag.Parse()
	if *mode == "wg" {
		asleepWG()
	} else {
		asleepChan()
	}
}
