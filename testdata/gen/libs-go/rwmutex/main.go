// Command rwmutex is the program of testdata/libs/go-rwmutex: two
// sync.RWMutex, one held for writing and one held for reading, each with
// goroutines queued behind the holder.
//
//	rwmutex -addr-file F
//
// What it runs:
//
//   - cache.mu, held for writing: main.(*cache).refresh takes mu.Lock() and,
//     while holding it, waits on a channel nobody sends on. Then 8
//     main.(*cache).get goroutines (created by main.startReaders) wait in
//     mu.RLock() and 3 main.(*cache).put goroutines (created by
//     main.startWriters) wait in mu.Lock().
//   - config.mu, held for reading: 2 main.(*config).snapshot goroutines take
//     mu.RLock() and wait on a channel nobody sends on; then 2
//     main.(*config).reload goroutines (created by main.startReloaders) wait
//     in mu.Lock().
//   - net/http/pprof on http.DefaultServeMux, served by main on 127.0.0.1.
//
// The address of the pprof server is written to F once every goroutine is
// started.
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
	"sync"
)

// cache is guarded by mu; refresh holds the write lock across a wait that
// never ends: that is the fault.
type cache struct {
	mu    sync.RWMutex
	items map[string]string
}

// refresh locks c.mu for writing, tells locked, and waits for upstream (never
// sent on) while holding it.
func (c *cache) refresh(locked chan<- struct{}, upstream <-chan map[string]string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	close(locked)
	c.items = <-upstream
}

// get reads one key under the read lock.
func (c *cache) get(key string) string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.items[key]
}

// put writes one key under the write lock.
func (c *cache) put(key, v string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.items[key] = v
}

func startReaders(c *cache, n int) {
	for i := 0; i < n; i++ {
		go c.get(fmt.Sprintf("key-%d", i))
	}
}

func startWriters(c *cache, n int) {
	for i := 0; i < n; i++ {
		go c.put(fmt.Sprintf("key-%d", i), "v")
	}
}

// config is guarded by mu; snapshot holds the read lock across a wait that
// never ends, so reload can never take the write lock.
type config struct {
	mu   sync.RWMutex
	vals map[string]string
}

// snapshot locks c.mu for reading, tells locked, and waits for done (never
// closed) while holding it.
func (c *config) snapshot(locked chan<- struct{}, done <-chan struct{}) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	locked <- struct{}{}
	<-done
}

// reload replaces the values under the write lock.
func (c *config) reload(vals map[string]string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.vals = vals
}

func startReloaders(c *config, n int) {
	for i := 0; i < n; i++ {
		go c.reload(map[string]string{"gen": fmt.Sprint(i)})
	}
}

func main() {
	addrFile := flag.String("addr-file", "", "write the pprof address to this file")
	flag.Parse()
	if *addrFile == "" {
		log.Fatal("usage: rwmutex -addr-file FILE")
	}

	c := &cache{items: map[string]string{}}
	locked, upstream := make(chan struct{}), make(chan map[string]string)
	go c.refresh(locked, upstream)
	<-locked
	startReaders(c, 8)
	startWriters(c, 3)

	cfg := &config{vals: map[string]string{}}
	rlocked, done := make(chan struct{}), make(chan struct{})
	for i := 0; i < 2; i++ {
		go cfg.snapshot(rlocked, done)
	}
	<-rlocked
	<-rlocked
	startReloaders(cfg, 2)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "rwmutex: cache.mu at %p, config.mu at %p, pprof on %s\n", &c.mu, &cfg.mu, ln.Addr())
	if err := os.WriteFile(*addrFile, []byte(ln.Addr().String()+"\n"), 0o644); err != nil {
		log.Fatal(err)
	}
	log.Fatal(http.Serve(ln, nil))
}
