// Command checkout is a small Go service in trouble, held still until it gets SIGQUIT (run it
// with GOTRACEBACK=all: the runtime then prints every goroutine to stderr and exits 2):
//
//   - eight payment workers idle in chan receive (the pool waits for work);
//   - five order handlers blocked in ledger.Post on a sync.Mutex held by ledger.Reconcile,
//     which sleeps with the lock held (a slow call made under the lock);
//   - a ticker that logs a line to stdout every millisecond, as services do around a dump.
//
// It prints "ready" on stdout when every goroutine is in place.
package main

import (
	"fmt"
	"os"
	"sync"
	"time"
)

type ledger struct {
	mu      sync.Mutex
	entries []string
}

// Reconcile holds the lock across a slow call.
func (l *ledger) Reconcile(locked chan<- struct{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	close(locked)
	time.Sleep(time.Hour)
}

// Post appends an entry under the lock.
func (l *ledger) Post(order int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.entries = append(l.entries, fmt.Sprint(order))
}

func paymentWorker(id int, jobs <-chan int) {
	for j := range jobs {
		_ = j * id
	}
}

func handleOrder(l *ledger, order int, started *sync.WaitGroup) {
	started.Done()
	l.Post(order)
}

func tick() {
	for i := 0; ; i++ {
		fmt.Fprintf(os.Stdout, "tick %d\n", i)
		time.Sleep(time.Millisecond)
	}
}

func main() {
	jobs := make(chan int)
	for i := 1; i <= 8; i++ {
		go paymentWorker(i, jobs)
	}
	l := &ledger{}
	locked := make(chan struct{})
	go l.Reconcile(locked)
	<-locked
	var started sync.WaitGroup
	for i := 1; i <= 5; i++ {
		started.Add(1)
		go handleOrder(l, i, &started)
	}
	started.Wait()
	time.Sleep(100 * time.Millisecond) // the handlers reach the lock
	go tick()
	fmt.Println("ready")
	select {}
}
