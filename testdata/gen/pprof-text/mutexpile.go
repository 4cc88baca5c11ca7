// mutexpile: 40 goroutines wait for a mutex one goroutine holds while it
// sleeps, 7 wait on a channel nobody sends on; main writes the goroutine
// profile (debug=0) to goroutine.pb.gz. testdata/gen/pprof-text/gen.sh.
package main

import (
	"os"
	"runtime/pprof"
	"sync"
	"time"
)

var mu sync.Mutex

func holder()           { mu.Lock(); time.Sleep(time.Hour) }
func waiter()           { mu.Lock(); mu.Unlock() }
func reader(c chan int) { <-c }

func main() {
	go holder()
	time.Sleep(50 * time.Millisecond)
	for i := 0; i < 40; i++ {
		go waiter()
	}
	c := make(chan int)
	for i := 0; i < 7; i++ {
		go reader(c)
	}
	time.Sleep(100 * time.Millisecond)
	f, _ := os.Create("goroutine.pb.gz")
	pprof.Lookup("goroutine").WriteTo(f, 0)
	f.Close()
}
