// Command leak is the program of testdata/verdicts/go-long-wait-leak: a
// service whose search handler leaks one goroutine per request, beside a
// healthy idle worker pool and a ticker loop.
//
//	leak -addr-file F
//
// What it runs, all on 127.0.0.1:
//
//   - an HTTP server (main, idle in Accept) with GET /search and
//     net/http/pprof. handleSearch starts handleSearch.func1, which runs the
//     search (120 ms) and sends the result on an unbuffered channel; the
//     handler stops listening after 50 ms, so every request leaves
//     handleSearch.func1 blocked on its chan send for ever (the classic leak).
//   - fireRequests, at startup: 60 concurrent GET /search requests (a client
//     with keep-alives off, so nothing of the client stays once they are
//     answered). No traffic after that.
//   - startWorkers (called from main): 16 worker goroutines ranging over a
//     jobs channel nobody sends on: a healthy, idle pool (chan receive).
//   - tickLoop: a time.Ticker (1 s) that rebuilds a 1 MiB metrics snapshot on
//     every tick. Besides being the usual periodic job, its garbage makes the
//     GC run every few seconds; the runtime only notes when a goroutine
//     started waiting during a GC, and prints "N minutes" from that.
//
// The address of the server is written to F once it listens.
package main

import (
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
	"sync"
	"time"
)

type result struct {
	hits []string
}

// handleSearch runs the search in a goroutine and gives up after 50 ms. The
// fault: the channel is unbuffered, so once the handler has returned, the
// search goroutine blocks on its send for ever.
func handleSearch(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query().Get("q")
	ch := make(chan result)
	go func() {
		ch <- search(q)
	}()
	select {
	case res := <-ch:
		fmt.Fprintf(w, "%d hits\n", len(res.hits))
	case <-time.After(50 * time.Millisecond):
		http.Error(w, "search timed out", http.StatusGatewayTimeout)
	}
}

// search pretends to query an index; it takes 120 ms.
func search(q string) result {
	time.Sleep(120 * time.Millisecond)
	return result{hits: []string{q}}
}

type job func()

// startWorkers starts n workers that run the jobs sent on jobs.
func startWorkers(n int, jobs <-chan job) {
	for i := 0; i < n; i++ {
		go worker(jobs)
	}
}

func worker(jobs <-chan job) {
	for j := range jobs {
		j()
	}
}

// snapshot is the latest metrics snapshot, rebuilt by tickLoop.
var snapshot []byte

// tickLoop rebuilds the metrics snapshot every second.
func tickLoop() {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for now := range t.C {
		buf := make([]byte, 1<<20)
		copy(buf, now.String())
		snapshot = buf
	}
}

// fireRequests sends n concurrent GET /search requests to base and logs how
// they were answered.
func fireRequests(base string, n int) {
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[int]int{}
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			code := 0
			resp, err := client.Get(fmt.Sprintf("%s/search?q=item-%d", base, i))
			if err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				code = resp.StatusCode
			}
			mu.Lock()
			codes[code]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	log.Printf("leak: %d requests answered, status codes %v", n, codes)
}

func main() {
	if len(os.Args) != 3 || os.Args[1] != "-addr-file" {
		log.Fatal("usage: leak -addr-file FILE")
	}
	jobs := make(chan job)
	startWorkers(16, jobs)
	go tickLoop()

	http.HandleFunc("GET /search", handleSearch)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(os.Args[2], []byte(ln.Addr().String()+"\n"), 0o644); err != nil {
		log.Fatal(err)
	}
	go fireRequests("http://"+ln.Addr().String(), 60)
	log.Fatal(http.Serve(ln, nil))
}
