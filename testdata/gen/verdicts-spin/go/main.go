// Command verdictsspin is the Go program of testdata/verdicts/go-spin-* (issue 27):
//
//	verdictsspin spin   a price cache whose get, on a miss, retries its loader in a
//	                    busy loop without back-off while holding the cache's mutex:
//	                    the first handler spins, the next five block on the mutex
//	verdictsspin spinlock  a hand-rolled spin lock whose holder returned on an
//	                    error path without unlocking: four writers spin in its
//	                    Lock (a compare-and-swap retried without back-off) for ever
//	verdictsspin busy   healthy control: a service that computes per request (SHA-256
//	                    rounds) under a steady load from its own clients, and a worker
//	                    pool fed jobs that compute and finish
//
// It listens on 127.0.0.1 only (net/http/pprof at /debug/pprof/) and writes its address
// to -addr-file.
package main

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	addrFile := flag.String("addr-file", "", "write the listen address here")
	flag.Parse()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	switch flag.Arg(0) {
	case "spin":
		spin()
	case "spinlock":
		spinlock()
	case "busy":
		busy(ln.Addr().String())
	default:
		log.Fatalf("usage: verdictsspin spin|busy")
	}
	if *addrFile != "" {
		if err := os.WriteFile(*addrFile, []byte(ln.Addr().String()), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	log.Fatal(http.Serve(ln, nil))
}

// priceCache loads a price on a miss, under its mutex.
type priceCache struct {
	mu       sync.Mutex
	prices   map[string]int
	up       atomic.Bool // the price feed; never comes back
	attempts int
}

// get returns the price of sku, loading it on a miss. The bug: the load is
// retried in a busy loop, with no back-off, while mu is held.
func (c *priceCache) get(sku string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		if p, ok := c.prices[sku]; ok {
			return p
		}
		if c.load(sku) {
			continue
		}
		c.attempts++
	}
}

// load asks the feed for sku: pure CPU, false while the feed is down.
func (c *priceCache) load(sku string) bool {
	h := uint64(c.attempts)
	for i := range 64 {
		h = h*31 + uint64(i)
	}
	if c.up.Load() && h != 0 {
		c.prices[sku] = int(h % 100)
		return true
	}
	return false
}

func spin() {
	c := &priceCache{prices: map[string]int{}}
	for i := range 6 {
		go quote(c, fmt.Sprintf("sku-%d", i))
		time.Sleep(50 * time.Millisecond) // the first one takes the mutex
	}
}

// spinLock is a lock that spins instead of parking.
type spinLock struct{ held atomic.Int32 }

// Lock retries the compare-and-swap until it wins, with no back-off and
// no yield.
func (l *spinLock) Lock() {
	for !l.held.CompareAndSwap(0, 1) {
	}
}

func (l *spinLock) Unlock() { l.held.Store(0) }

// journal appends records under its spin lock.
type journal struct {
	mu      spinLock
	records []string
}

// flush writes the journal out. The bug: the error path returns without
// Unlock, and the lock stays held for good.
func (j *journal) flush(fail bool) error {
	j.mu.Lock()
	if fail {
		return fmt.Errorf("disk full")
	}
	j.records = j.records[:0]
	j.mu.Unlock()
	return nil
}

// append adds a record.
func (j *journal) append(r string) {
	j.mu.Lock()
	j.records = append(j.records, r)
	j.mu.Unlock()
}

func spinlock() {
	j := &journal{}
	_ = j.flush(true) // holds the lock from now on
	for i := range 4 {
		go writer(j, i)
	}
}

// writer appends records for ever.
func writer(j *journal, id int) {
	for n := 0; ; n++ {
		j.append(fmt.Sprintf("writer %d record %d", id, n))
	}
}

// quote is a handler's work: one price.
func quote(c *priceCache, sku string) {
	fmt.Fprintln(io.Discard, sku, c.get(sku))
}

// busy starts the healthy service's load: handlers that compute, clients that
// call them with a pause, and a worker pool whose jobs compute and finish.
func busy(addr string) {
	http.HandleFunc("/score", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "%x\n", digest(20*time.Millisecond))
	})
	for range 4 {
		go client("http://" + addr + "/score")
	}
	jobs := make(chan int)
	for range 3 {
		go worker(jobs)
	}
	go func() {
		for i := 0; ; i++ {
			jobs <- i
			time.Sleep(40 * time.Millisecond)
		}
	}()
}

// digest hashes for about d: a request's CPU work.
func digest(d time.Duration) [32]byte {
	end := time.Now().Add(d)
	sum := sha256.Sum256([]byte("request"))
	for time.Now().Before(end) {
		sum = sha256.Sum256(sum[:])
	}
	return sum
}

// client calls url, pausing 80 ms between calls.
func client(url string) {
	for {
		resp, err := http.Get(url)
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		time.Sleep(80 * time.Millisecond)
	}
}

// worker computes each job for 10 ms.
func worker(jobs <-chan int) {
	for range jobs {
		digest(10 * time.Millisecond)
	}
}
