// Command restleak is the program behind testdata/verdicts/go-select-leak and
// testdata/verdicts/go-busy-healthy. It is written for Go 1.13 (no module, stdlib
// only) so that the same source runs on a runtime that prints no parent goroutine
// ("created by F", no "in goroutine N": before Go 1.21) and on a current one.
//
//	restleak leak  -addr-file F   a server that leaks one goroutine in select per
//	                              GET /subscribe (nobody ever sends or closes)
//	restleak busy  -addr-file F   a healthy server-sent-events server: each
//	                              GET /events holds its connection open, with a
//	                              heartbeat goroutine per connection
//	restleak clients -base URL -n N -path P -period D
//	                              N keep-alive clients, each GET P every D (D = 0:
//	                              one request each, held open: for /events)
//	restleak fire -base URL -n N  N concurrent GET /subscribe, then exit
//
// Everything listens on 127.0.0.1.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"io/ioutil"
	"log"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
	"sync"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		log.Fatal("usage: restleak leak|busy|clients|fire ...")
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	addrFile := fs.String("addr-file", "", "write the listen address here")
	base := fs.String("base", "", "server base URL (clients, fire)")
	n := fs.Int("n", 1, "clients (clients, fire)")
	path := fs.String("path", "/api/work", "path (clients)")
	period := fs.Duration("period", 250*time.Millisecond, "period between requests (clients); 0: one held request")
	fs.Parse(os.Args[2:])
	switch os.Args[1] {
	case "leak":
		serve(*addrFile, false)
	case "busy":
		serve(*addrFile, true)
	case "clients":
		clients(*base, *n, *path, *period)
	case "fire":
		fire(*base, *n)
	default:
		log.Fatalf("unknown mode %q", os.Args[1])
	}
}

// hub is the leaking part: subscribe starts a watcher per request that
// waits for an event or for the hub to stop; nobody publishes and the hub
// never stops, so every watcher stays in select for ever.
type hub struct {
	quit chan struct{}
}

func (h *hub) handleSubscribe(w http.ResponseWriter, r *http.Request) {
	ch := make(chan string) // the subscriber's events: nobody sends on it
	go h.watch(ch)
	fmt.Fprintln(w, "subscribed")
}

func (h *hub) watch(ch chan string) {
	select {
	case ev := <-ch:
		log.Println(ev)
	case <-h.quit:
	}
}

// events is the healthy server-sent-events part: each connection waits in
// select for its request's end or a broadcast (none in the fixture's
// lifetime), and has a heartbeat goroutine that writes a comment every second.
type events struct {
	mu   sync.Mutex
	subs map[chan string]bool
}

func (e *events) handleEvents(w http.ResponseWriter, r *http.Request) {
	ch := make(chan string, 1)
	e.mu.Lock()
	e.subs[ch] = true
	e.mu.Unlock()
	defer func() {
		e.mu.Lock()
		delete(e.subs, ch)
		e.mu.Unlock()
	}()
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(200)
	fl := w.(http.Flusher)
	fl.Flush()
	var wmu sync.Mutex
	ctx := r.Context()
	go heartbeat(ctx, w, fl, &wmu)
	for {
		select {
		case <-ctx.Done():
			return
		case ev := <-ch:
			wmu.Lock()
			fmt.Fprintf(w, "data: %s\n\n", ev)
			fl.Flush()
			wmu.Unlock()
		}
	}
}

func heartbeat(ctx context.Context, w io.Writer, fl http.Flusher, mu *sync.Mutex) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			mu.Lock()
			io.WriteString(w, ": ping\n\n")
			fl.Flush()
			mu.Unlock()
		}
	}
}

func handleWork(w http.ResponseWriter, r *http.Request) {
	time.Sleep(20 * time.Millisecond)
	fmt.Fprintln(w, "ok")
}

// worker is an idle pool since startup: a rest by design.
func worker(jobs <-chan func(), quit <-chan struct{}) {
	for {
		select {
		case j := <-jobs:
			j()
		case <-quit:
			return
		}
	}
}

// tickLoop rebuilds a 1 MiB snapshot a second: its garbage makes the GC run,
// and the runtime records how long a goroutine has waited only when a GC
// sees it blocked (without a GC no "N minutes" is printed).
func tickLoop(quit <-chan struct{}) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	var snapshot []byte
	for {
		select {
		case <-t.C:
			snapshot = make([]byte, 1<<20)
			snapshot[0] = 1
		case <-quit:
			return
		}
	}
}

func serve(addrFile string, busy bool) {
	quit := make(chan struct{})
	jobs := make(chan func())
	var wg sync.WaitGroup
	for i := 0; i < 12; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); worker(jobs, quit) }()
	}
	wg.Add(1)
	go func() { defer wg.Done(); tickLoop(quit) }()
	mux := http.DefaultServeMux
	mux.HandleFunc("/api/work", handleWork)
	if busy {
		e := &events{subs: map[chan string]bool{}}
		mux.HandleFunc("/events", e.handleEvents)
	} else {
		h := &hub{quit: quit}
		mux.HandleFunc("/subscribe", h.handleSubscribe)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	if addrFile != "" {
		if err := ioutil.WriteFile(addrFile, []byte(ln.Addr().String()), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	srv := &http.Server{Handler: mux}
	wg.Add(1)
	go func() { defer wg.Done(); log.Println(srv.Serve(ln)) }()
	wg.Wait()
}

func clients(base string, n int, path string, period time.Duration) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
			if period == 0 {
				hold(c, base+path)
				return
			}
			time.Sleep(time.Duration(i) * period / time.Duration(n))
			for {
				resp, err := c.Get(base + path)
				if err == nil {
					ioutil.ReadAll(resp.Body)
					resp.Body.Close()
				}
				time.Sleep(period)
			}
		}(i)
	}
	wg.Wait()
}

// hold keeps one request open and reads what the server streams.
func hold(c *http.Client, url string) {
	for {
		resp, err := c.Get(url)
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		br := bufio.NewReader(resp.Body)
		for {
			if _, err := br.ReadString('\n'); err != nil {
				break
			}
		}
		resp.Body.Close()
	}
}

func fire(base string, n int) {
	var wg sync.WaitGroup
	codes := map[int]int{}
	var mu sync.Mutex
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
			resp, err := c.Get(base + "/subscribe")
			if err != nil {
				log.Println(err)
				return
			}
			ioutil.ReadAll(resp.Body)
			resp.Body.Close()
			mu.Lock()
			codes[resp.StatusCode]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	fmt.Println("status codes", codes)
}
