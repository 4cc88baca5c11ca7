// Program sync parks three goroutines on each of sync's waits (a Mutex, an
// RWMutex held for writing, a WaitGroup, a Cond) and prints every
// goroutine's stack: under Go 1.13 each sync wait prints as "semacquire".
// Built without modules (GO111MODULE=off): Go 1.13 predates the flags of
// the machine's go env. See ../gen.sh.
package main

import (
	"os"
	"runtime"
	"sync"
	"time"
)

func main() {
	var mu sync.Mutex
	var rw sync.RWMutex
	var wg sync.WaitGroup
	cond := sync.NewCond(&sync.Mutex{})
	mu.Lock()
	rw.Lock()
	wg.Add(1)
	for i := 0; i < 3; i++ {
		go func() { mu.Lock() }()
		go func() { rw.RLock() }()
		go func() { wg.Wait() }()
		go func() { cond.L.Lock(); cond.Wait() }()
	}
	time.Sleep(300 * time.Millisecond)
	buf := make([]byte, 1<<20)
	n := runtime.Stack(buf, true)
	os.Stdout.Write(buf[:n])
}
