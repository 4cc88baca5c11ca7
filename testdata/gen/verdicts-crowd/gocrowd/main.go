// Command gocrowd runs one shape of goroutines per mode, for dumpdiff's
// one-dump rules (issue 33: problems one dump proves by their structure),
// and writes its own goroutine dumps (pprof.Lookup("goroutine").WriteTo,
// debug=2 and debug=1) into -out at the times -at gives.
//
//	-mode leak-send  an HTTP server whose handler starts a goroutine per
//	                 request to compute its answer and waits for it at most
//	                 1 ms (select with time.After); the goroutine then sends
//	                 its result on an unbuffered channel nobody receives
//	                 from any more: 3,000 requests (each on a connection of
//	                 its own) leave 3,000 goroutines blocked in chan send,
//	                 created by main.quoteHandler.
//	-mode leak-recv  the handler starts a watcher per request that waits for
//	                 a cancel channel the handler never closes: 3,000
//	                 goroutines in chan receive, created by
//	                 main.watchHandler, each from its own request's goroutine.
//	-mode idle       an HTTP server with 5,000 idle keep-alive connections
//	                 (raw client sockets in this process, one request each,
//	                 then silent): 5,000 net/http conn.serve goroutines
//	                 waiting for their next request (healthy).
//	-mode pool       64 workers idle in chan receive on their job channel
//	                 (for range jobs), started by main, with a few jobs sent
//	                 at first (healthy).
//	-mode abba       two goroutines take two package-level mutexes in
//	                 opposite orders (debit: ledgerMu then stockMu; restock:
//	                 stockMu then ledgerMu), no argument naming either lock:
//	                 within the first round each holds one and waits for
//	                 the other; an HTTP server and a ticker keep running.
//	-mode fields     a store with two mutex fields (mu guards its index,
//	                 fileMu its file): (*store).put takes mu then fileMu,
//	                 (*store).flush takes fileMu then mu; one goroutine
//	                 loops over each: within the first round each holds one
//	                 and waits for the other. Both print the same receiver;
//	                 neither lock is an argument of its own.
//	-mode ordered    16 goroutines take the same two mutexes, always
//	                 ledgerMu then stockMu, hold them 1 ms, pause 5-35 ms:
//	                 brief waits, progress (healthy).
//
// Written for dumpdiff's testdata; stdlib only, builds with Go 1.13 too.
package main

import (
	"flag"
	"fmt"
	"io/ioutil"
	"math/rand"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"time"
)

var (
	ledgerMu sync.Mutex
	stockMu  sync.Mutex
	ledger   int
	stock    int
)

// debit takes the ledger, then stock.
func debit(hold time.Duration) {
	ledgerMu.Lock()
	time.Sleep(hold)
	stockMu.Lock()
	ledger--
	stock--
	stockMu.Unlock()
	ledgerMu.Unlock()
}

// restock takes stock, then the ledger: the opposite order.
func restock(hold time.Duration) {
	stockMu.Lock()
	time.Sleep(hold)
	ledgerMu.Lock()
	stock++
	ledger++
	ledgerMu.Unlock()
	stockMu.Unlock()
}

// orderedDebit takes the ledger, then stock, as every caller does.
func orderedDebit(hold time.Duration) {
	ledgerMu.Lock()
	stockMu.Lock()
	time.Sleep(hold)
	ledger--
	stock++
	stockMu.Unlock()
	ledgerMu.Unlock()
}

// store keeps an index and a file, each behind a mutex of its own.
type store struct {
	name   string
	mu     sync.Mutex // the index
	index  map[string]int
	fileMu sync.Mutex // the file
	size   int
}

// put updates the index, then appends to the file.
func (s *store) put(k string, hold time.Duration) {
	s.mu.Lock()
	s.index[k]++
	time.Sleep(hold)
	s.fileMu.Lock()
	s.size++
	s.fileMu.Unlock()
	s.mu.Unlock()
}

// flush writes the file, then reads the index for its header: the
// opposite order.
func (s *store) flush(hold time.Duration) {
	s.fileMu.Lock()
	time.Sleep(hold)
	s.mu.Lock()
	s.size = len(s.index)
	s.mu.Unlock()
	s.fileMu.Unlock()
}

func compute(n int) int { return n * 2 }

// quoteHandler waits at most 1 ms for its answer; the goroutine it starts
// sends on an unbuffered channel that nobody receives from after that.
func quoteHandler(w http.ResponseWriter, r *http.Request) {
	n, _ := strconv.Atoi(r.URL.Query().Get("n"))
	ch := make(chan int)
	go func() {
		time.Sleep(5 * time.Millisecond)
		ch <- compute(n)
	}()
	select {
	case v := <-ch:
		fmt.Fprintln(w, v)
	case <-time.After(time.Millisecond):
		http.Error(w, "timeout", http.StatusGatewayTimeout)
	}
}

// watchHandler starts a watcher that waits for a cancel the handler never
// sends.
func watchHandler(w http.ResponseWriter, r *http.Request) {
	cancel := make(chan struct{})
	go watch(cancel)
	fmt.Fprintln(w, "ok")
}

func watch(cancel chan struct{}) {
	<-cancel
}

func serve(h http.HandlerFunc) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	go http.Serve(ln, h)
	return ln.Addr().String()
}

// requests makes n requests, each on a connection of its own, 50 at a time.
func requests(addr, path string, n int) {
	c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	sem := make(chan struct{}, 50)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		sem <- struct{}{}
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			defer func() { <-sem }()
			resp, err := c.Get("http://" + addr + path + "?n=" + strconv.Itoa(i))
			if err == nil {
				ioutil.ReadAll(resp.Body)
				resp.Body.Close()
			}
		}(i)
	}
	wg.Wait()
	c.CloseIdleConnections()
}

// idleConns opens n connections, sends one request on each, reads its
// answer and keeps the connection open and silent.
func idleConns(addr string, n int) []net.Conn {
	var cs []net.Conn
	buf := make([]byte, 4096)
	for i := 0; i < n; i++ {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			panic(err)
		}
		fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		k, _ := c.Read(buf)
		if !strings.HasPrefix(string(buf[:k]), "HTTP/1.1 200") {
			panic("no answer")
		}
		cs = append(cs, c)
	}
	return cs
}

func main() {
	mode := flag.String("mode", "leak-send", "leak-send, leak-recv, idle, pool, abba or ordered")
	out := flag.String("out", ".", "directory for the dumps")
	at := flag.String("at", "3,6,9", "seconds after start of each debug=2 dump (and a debug=1 beside the first)")
	flag.Parse()
	start := time.Now()
	var keep []net.Conn
	switch *mode {
	case "leak-send":
		requests(serve(quoteHandler), "/quote", 3000)
	case "leak-recv":
		requests(serve(watchHandler), "/watch", 3000)
	case "idle":
		keep = idleConns(serve(func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "ok") }), 5000)
	case "pool":
		jobs := make(chan int)
		for i := 0; i < 64; i++ {
			go func() {
				for j := range jobs {
					compute(j)
				}
			}()
		}
		for i := 0; i < 200; i++ {
			jobs <- i
		}
	case "abba":
		serve(func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "ok") })
		go func() {
			for {
				debit(50 * time.Millisecond)
			}
		}()
		go func() {
			for {
				restock(50 * time.Millisecond)
			}
		}()
	case "fields":
		serve(func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "ok") })
		st := &store{name: "orders", index: map[string]int{}}
		go func() {
			for i := 0; ; i++ {
				st.put(strconv.Itoa(i%10), 50*time.Millisecond)
			}
		}()
		go func() {
			for {
				st.flush(50 * time.Millisecond)
			}
		}()
	case "ordered":
		serve(func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "ok") })
		for i := 0; i < 16; i++ {
			go func() {
				for {
					orderedDebit(time.Millisecond)
					time.Sleep(time.Duration(5+rand.Intn(30)) * time.Millisecond)
				}
			}()
		}
	default:
		panic(*mode)
	}
	go func() { // a ticker that keeps running
		for range time.Tick(time.Second) {
		}
	}()
	for i, s := range strings.Split(*at, ",") {
		sec, _ := strconv.ParseFloat(s, 64)
		time.Sleep(time.Until(start.Add(time.Duration(sec * float64(time.Second)))))
		write(filepath.Join(*out, strconv.Itoa(i+1)+".txt"), 2)
		if i == 0 {
			write(filepath.Join(*out, "1-debug1.txt"), 1)
		}
	}
	_ = keep
}

func write(path string, debug int) {
	f, err := os.Create(path)
	if err != nil {
		panic(err)
	}
	pprof.Lookup("goroutine").WriteTo(f, debug)
	f.Close()
}
