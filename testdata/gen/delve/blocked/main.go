// blocked is a program whose goroutines wait for ever in the runtime's
// common ways: chan send, chan receive, a mutex held by another, a select,
// an empty select, IO wait (accept), sleep, sync.Cond and a WaitGroup; one
// carries pprof labels. After -late it starts one more sender, so that
// its wait begins later than the others'. It serves pprof on 127.0.0.1
// for a debug=2 dump of the same moment (gen.sh).
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
	"runtime"
	"runtime/pprof"
	"sync"
	"time"
)

type store struct {
	mu   sync.Mutex
	data map[string]int
}

func (s *store) get(k string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.data[k]
}

func (s *store) holdForever(ready chan<- struct{}) {
	s.mu.Lock()
	close(ready)
	select {} // holds the lock, waits on nothing
}

func producer(out chan<- int, i int) {
	out <- i // nobody reads
}

func consumer(in <-chan int) {
	for v := range in {
		_ = v
	}
}

func selector(a, b <-chan int) {
	select {
	case <-a:
	case <-b:
	}
}

func sleeper() {
	time.Sleep(24 * time.Hour)
}

func acceptor(l net.Listener) {
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		c.Close()
	}
}

func waiter(c *sync.Cond) {
	c.L.Lock()
	c.Wait()
	c.L.Unlock()
}

func groupWaiter(wg *sync.WaitGroup) {
	wg.Wait()
}

func main() {
	late := flag.Duration("late", 65*time.Second, "when to start the late sender")
	flag.Parse()
	s := &store{data: map[string]int{}}
	ready := make(chan struct{})
	go s.holdForever(ready)
	<-ready
	for i := 0; i < 3; i++ {
		go func() { s.get("k") }()
	}
	send := make(chan int)
	for i := 0; i < 4; i++ {
		go producer(send, i)
	}
	recv := make(chan int)
	for i := 0; i < 2; i++ {
		go consumer(recv)
	}
	a, b := make(chan int), make(chan int)
	go selector(a, b)
	go sleeper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	go acceptor(l)
	cond := sync.NewCond(&sync.Mutex{})
	go waiter(cond)
	var wg sync.WaitGroup
	wg.Add(1)
	go groupWaiter(&wg)
	pprof.Do(context.Background(), pprof.Labels("job", "import", "tenant", "acme"), func(context.Context) {
		go producer(send, 99)
	})
	go func() {
		time.Sleep(*late)
		producer(send, 100) // the late sender: waits from here
	}()
	// GC now and then, so that waits are stamped (the runtime's wait
	// minutes start at the GC that first sees a goroutine waiting).
	go func() {
		for {
			time.Sleep(5 * time.Second)
			runtime.GC()
		}
	}()
	pl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	fmt.Printf("pid %d pprof %s\n", os.Getpid(), pl.Addr())
	os.Stdout.Sync()
	http.Serve(pl, nil)
}
