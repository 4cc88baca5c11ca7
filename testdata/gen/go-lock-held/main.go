// go-lock-held: a Go service whose locks are held by goroutines stuck in a
// wait that never ends, or (-mode healthy) the same service with every wait
// answered. It writes its own debug=2 goroutine dumps (the runtime prints a
// wait of a minute or more as "N minutes", so the first is taken at 65 s).
//
// stuck:
//   - cache.mu (a sync.Mutex) is held by cacheRefresh, reading from an
//     upstream on 127.0.0.1 that accepts and never answers (no deadline);
//     two lookups wait in (*cache).get for it;
//   - registry.mu (a sync.RWMutex) is read-held by registryScan, which waits
//     on a channel nobody sends on; a writer (registryUpdate) waits in Lock
//     and a reader that came after it (registryList) waits in RLock behind it.
//
// healthy: the upstream answers every refresh at once and the scan's channel
// is fed every 10 ms: the locks pass from hand to hand.
//
// Beside both: 8 workers idle on a sync.Cond (notifyList wait) and main in a
// WaitGroup for the whole run: waits printed as minutes that are no lock.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sync"
	"time"
)

type cache struct {
	mu   sync.Mutex
	data map[string]string
}

func (c *cache) refresh(addr string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		panic(err)
	}
	defer conn.Close()
	fmt.Fprintln(conn, "GET /config")
	line, _ := bufio.NewReader(conn).ReadString('\n') // no deadline
	c.data["config"] = line
}

func (c *cache) get(k string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.data[k]
}

type registry struct {
	mu    sync.RWMutex
	items []string
}

func (r *registry) scan(next <-chan string) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	r.items = append(r.items[:0:0], r.items...)
	<-next // waits for the next item with the read lock held
}

func (r *registry) update(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.items = append(r.items, s)
}

func (r *registry) list() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.items)
}

func upstream(answer bool) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	go func() {
		var held []net.Conn
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			if !answer {
				held = append(held, conn) // accepted, never answered
				continue
			}
			go func() {
				r := bufio.NewReader(conn)
				for {
					if _, err := r.ReadString('\n'); err != nil {
						conn.Close()
						return
					}
					fmt.Fprintln(conn, "ok")
				}
			}()
		}
	}()
	return ln.Addr().String()
}

func main() {
	mode := flag.String("mode", "stuck", "stuck or healthy")
	out := flag.String("out", ".", "folder for 1.txt, 2.txt, 3.txt")
	first := flag.Duration("first", 65*time.Second, "when the first dump is taken")
	every := flag.Duration("every", 5*time.Second, "between dumps")
	flag.Parse()
	healthy := *mode == "healthy"
	addr := upstream(healthy)

	var wg sync.WaitGroup
	c := &cache{data: map[string]string{}}
	r := &registry{}
	next := make(chan string)
	var idle sync.Mutex
	cond := sync.NewCond(&idle)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() { // a worker idle on its Cond for the whole run
			defer wg.Done()
			idle.Lock()
			for {
				cond.Wait()
			}
		}()
	}
	loop := func(f func()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				f()
				time.Sleep(10 * time.Millisecond)
			}
		}()
	}
	loop(func() { c.refresh(addr) }) // cacheRefresh
	time.Sleep(50 * time.Millisecond)
	for i := 0; i < 2; i++ {
		loop(func() { c.get("config") }) // lookups
	}
	loop(func() { r.scan(next) }) // registryScan
	time.Sleep(50 * time.Millisecond)
	loop(func() { r.update("x") }) // registryUpdate
	time.Sleep(50 * time.Millisecond)
	loop(func() { r.list() }) // registryList
	if healthy {
		go func() {
			for {
				next <- "item"
				time.Sleep(10 * time.Millisecond)
			}
		}()
	}
	// A service allocates, and the runtime records when a goroutine began
	// to wait at the first GC that sees it blocked: without a GC no wait is
	// printed. This program's loops allocate little, so a ticker does.
	go func() {
		var keep [][]byte
		for range time.Tick(20 * time.Millisecond) {
			keep = append(keep, make([]byte, 256<<10))
			if len(keep) > 16 {
				keep = keep[:0]
			}
		}
	}()
	go func() {
		time.Sleep(*first)
		for i := 1; i <= 3; i++ {
			// Each dump is written by a goroutine of its own, as net/http/pprof's
			// handler is (a request's goroutine).
			done := make(chan struct{})
			go func() {
				defer close(done)
				f, err := os.Create(filepath.Join(*out, fmt.Sprintf("%d.txt", i)))
				if err != nil {
					panic(err)
				}
				pprof.Lookup("goroutine").WriteTo(f, 2)
				f.Close()
			}()
			<-done
			if i < 3 {
				time.Sleep(*every)
			}
		}
		os.Exit(0)
	}()
	wg.Wait()
}
