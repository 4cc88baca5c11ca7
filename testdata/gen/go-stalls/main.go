// go-stalls: Go programs whose goroutines wait on something nobody will
// serve, or compute for ever, for issue 33's Go classes (waits by
// structure, spinning by evidence). Stdlib only, written for Go 1.13 as
// well as the newest (no generics, no min/max, no io.ReadAll): gen.sh runs
// it under both. Each mode writes its own debug=2 goroutine dumps, 1.txt,
// 2.txt and 3.txt, -every apart. Every mode runs beside the same
// background a service has: an HTTP server on 127.0.0.1 (its accept loop
// started from main.serve) and a housekeeping loop that sleeps 100 ms.
//
// wg-batch (stuck) — main.runBatch adds one to its WaitGroup per item but
// starts no worker for an empty item: every worker it started has called
// Done and returned, and the Wait has nobody left to count it down.
//
// wg-drain (stuck) — main.collect starts a fetcher per URL that sends its
// result on an unbuffered channel, then waits for them all before it
// reads: the fetchers block sending on the channel only the waiter reads.
//
// wg-stopper (stuck) — a stopper (the shape of cockroach's util/stop):
// workers started by (*stopper).runWorker count in the stopper's
// WaitGroup; (*node).shutdown takes the store's mutex and calls
// (*stopper).stop, which closes the stop channel and waits. Two
// processLoop workers see the stop and take the store's mutex to flush:
// the waiter holds it; the gossip worker blocks sending an event on a
// channel only the shutdown's own loop drained.
//
// wg-healthy — the same three, done right and slow: runBatch counts what it
// starts (its workers sleep 10 minutes in their task), collect reads while
// the fetchers sleep in their fetch, the stopper's workers flush without
// the node's mutex and are in a long flush (a sleep) when the dumps are
// taken.
//
// http-stuck — 4 goroutines main.quoteLoop call main.fetchQuote, which GETs
// from an upstream on 127.0.0.1 with an http.Client that has no Timeout;
// the upstream accepts and never answers. Beside them a client with 4 idle
// keep-alive connections to the service.
//
// http-healthy — the idle keep-alive connections, and a slow-but-finishing
// client: 2 loops each start a goroutine per request (main.fetchQuote)
// against an upstream that answers after 3 s: the connections are reused,
// the request goroutines turn over.
//
// spin-stuck — the service's /upload handler (main.upload) tells an
// uploaded file's type by example.com/stalls/ftype.Match; 3 uploads carry an MP4 whose
// first box has size 0: ftype's box walk never moves on, the 3 handlers
// compute for ever in the same frames. Beside them, 2 clients upload good
// files in a loop (new connection per upload).
//
// proxy-stuck, proxy-healthy, ini-stuck, ini-healthy are the second
// sources of the last two classes, driven and dumped from outside (gen.sh:
// curl calls the service, and takes the dumps from net/http/pprof's
// handler, debug=2 and debug=1, then SIGQUIT with GOTRACEBACK=all): the
// program writes its service's and pprof's addresses to -addr-file and
// runs until it is killed.
//
// proxy-stuck — the service's /price handler (main.price) asks an upstream
// for a quote with main.fetchQuote's client (no Timeout); the upstream
// accepts and never answers: each /price request waits in its handler.
// proxy-healthy — the same, against an upstream that answers after 3 s.
//
// ini-stuck — the /config handler (main.loadConfig) parses a posted config
// with example.com/stalls/ini.Parse; a config whose last line ends in a bare CR makes
// ini's reader loop for ever: each such request computes in its handler.
// ini-healthy — the same service given good configs of 20,000 lines.
//
// spin-healthy — the same service, every upload good and heavy (a walk of
// 200,000 boxes, tens of ms): busy handlers, each upload on a new
// connection, so a handler's goroutine lives one upload.
package main

import (
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"io/ioutil"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sync"
	"time"

	"example.com/stalls/ftype"
	"example.com/stalls/ini"
)

var sink []byte

// housekeeping allocates a little every 100 ms, as a service does (and the
// runtime then stamps waits promptly).
func housekeeping() {
	for {
		time.Sleep(100 * time.Millisecond)
		sink = make([]byte, 1024)
	}
}

// serve runs srv on ln: the accept loop under an application frame.
func serve(srv *http.Server, ln net.Listener) {
	srv.Serve(ln)
}

func listen() net.Listener {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	return ln
}

// service starts the background and returns its base URL.
func service(mux *http.ServeMux) string {
	go housekeeping()
	ln := listen()
	go serve(&http.Server{Handler: mux}, ln)
	return "http://" + ln.Addr().String()
}

// ---- WaitGroups

func process(it string) {
	time.Sleep(time.Duration(len(it)) * time.Millisecond)
}

func slowProcess(it string) {
	time.Sleep(10 * time.Minute)
}

func runBatch(items []string, healthy bool) {
	var wg sync.WaitGroup
	if !healthy {
		wg.Add(len(items)) // counts the empty items too
	}
	for _, it := range items {
		if it == "" {
			continue
		}
		if healthy {
			wg.Add(1)
		}
		go func(it string) {
			defer wg.Done()
			if healthy {
				slowProcess(it)
				return
			}
			process(it)
		}(it)
	}
	wg.Wait()
	fmt.Println("batch done")
}

func batchLoop(healthy bool) {
	for {
		runBatch([]string{"a", "bb", "", "ccc", ""}, healthy)
	}
}

type result struct {
	url  string
	size int
}

func fetch(u string, healthy bool) result {
	if healthy {
		time.Sleep(10 * time.Minute)
	}
	return result{u, len(u)}
}

func collect(urls []string, healthy bool) int {
	results := make(chan result)
	var wg sync.WaitGroup
	for _, u := range urls {
		wg.Add(1)
		go func(u string) {
			defer wg.Done()
			results <- fetch(u, healthy)
		}(u)
	}
	total := 0
	if healthy {
		go func() { wg.Wait(); close(results) }()
		for r := range results {
			total += r.size
		}
		return total
	}
	wg.Wait() // the fetchers block sending: nobody reads yet
	close(results)
	for r := range results {
		total += r.size
	}
	return total
}

func crawl(healthy bool) {
	for {
		collect([]string{"/a", "/b", "/c"}, healthy)
	}
}

type stopper struct {
	wg    sync.WaitGroup
	stopc chan struct{}
}

func (s *stopper) runWorker(f func()) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		f()
	}()
}

func (s *stopper) stop() {
	close(s.stopc)
	s.wg.Wait()
}

type store struct {
	mu      sync.Mutex
	events  chan int
	pending int
	healthy bool
}

func (st *store) processLoop(s *stopper) {
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-s.stopc:
			st.flush()
			return
		case <-t.C:
			st.mu.Lock()
			st.pending++
			st.mu.Unlock()
		}
	}
}

func (st *store) flush() {
	if st.healthy {
		time.Sleep(10 * time.Minute) // a long flush, without the node's lock
		return
	}
	st.mu.Lock()
	st.pending = 0
	st.mu.Unlock()
}

func (st *store) gossip(s *stopper) {
	for i := 0; ; i++ {
		select {
		case <-s.stopc:
			if st.healthy {
				time.Sleep(10 * time.Minute)
				return
			}
			st.events <- -1 // a last event, for a loop that has stopped reading
			return
		case st.events <- i:
			time.Sleep(20 * time.Millisecond)
		}
	}
}

type node struct {
	st    *stopper
	store *store
}

func (n *node) shutdown() {
	if !n.store.healthy {
		n.store.mu.Lock()
		defer n.store.mu.Unlock()
	}
	n.st.stop()
}

func runNode(healthy bool) {
	n := &node{st: &stopper{stopc: make(chan struct{})}, store: &store{events: make(chan int), healthy: healthy}}
	n.st.runWorker(func() { n.store.processLoop(n.st) })
	n.st.runWorker(func() { n.store.processLoop(n.st) })
	n.st.runWorker(func() { n.store.gossip(n.st) })
	for i := 0; i < 10; i++ {
		<-n.store.events
	}
	// The shutdown comes from another goroutine, as a signal's would.
	sigc := make(chan struct{})
	go n.shutdownOn(sigc)
	sigc <- struct{}{}
}

func (n *node) shutdownOn(sigc chan struct{}) {
	<-sigc
	n.shutdown()
}

// ---- HTTP clients

// silentUpstream accepts connections and never reads nor answers.
func silentUpstream() string {
	ln := listen()
	go func() {
		var conns []net.Conn
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c)
		}
	}()
	return "http://" + ln.Addr().String()
}

var quoteClient = &http.Client{} // no Timeout

func fetchQuote(url string) (int, error) {
	resp, err := quoteClient.Get(url + "/quote")
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	b, err := ioutil.ReadAll(resp.Body)
	return len(b), err
}

func quoteLoop(url string) {
	for {
		fetchQuote(url)
	}
}

// idleKeepAlive makes 4 requests at once to base and leaves their
// connections idle in the client's pool.
func idleKeepAlive(base string) *http.Client {
	c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 8}}
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := c.Get(base + "/ok")
			if err == nil {
				io.Copy(ioutil.Discard, resp.Body)
				resp.Body.Close()
			}
		}()
	}
	wg.Wait()
	return c
}

func slowQuoteLoop(url string) {
	for {
		done := make(chan struct{})
		go func() {
			defer close(done)
			fetchQuote(url)
		}()
		<-done
	}
}

// ---- CPU

func upload(w http.ResponseWriter, r *http.Request) {
	b, _ := ioutil.ReadAll(r.Body)
	fmt.Fprintln(w, ftype.Match(b))
}

// isoFile is an ISO base media file of n empty boxes ("free", size 8) and
// then its ftyp box; a first box of size 0 when broken.
func isoFile(n int, broken bool) []byte {
	var b bytes.Buffer
	box := func(size uint32, typ string) {
		var h [4]byte
		binary.BigEndian.PutUint32(h[:], size)
		b.Write(h[:])
		b.WriteString(typ)
	}
	if broken {
		box(0, "free")
	}
	for i := 0; i < n; i++ {
		box(8, "free")
	}
	box(16, "ftyp")
	b.WriteString("isom\x00\x00\x00\x00")
	return b.Bytes()
}

func uploader(base string, file []byte, once bool) {
	c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	for {
		resp, err := c.Post(base+"/upload", "application/octet-stream", bytes.NewReader(file))
		if err == nil {
			io.Copy(ioutil.Discard, resp.Body)
			resp.Body.Close()
		}
		if once {
			return
		}
	}
}

func price(upstream string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		n, err := fetchQuote(upstream)
		fmt.Fprintln(w, n, err)
	}
}

func loadConfig(w http.ResponseWriter, r *http.Request) {
	b, _ := ioutil.ReadAll(r.Body)
	fmt.Fprintln(w, len(ini.Parse(string(b))))
}

// external runs the service for gen.sh until it is killed.
func external(mode, addrFile string, mux *http.ServeMux, base string) {
	switch mode {
	case "proxy-stuck":
		mux.HandleFunc("/price", price(silentUpstream()))
	case "proxy-healthy":
		mux.HandleFunc("/price", price(base))
	}
	mux.HandleFunc("/config", loadConfig)
	ln := listen()
	go serve(&http.Server{Handler: http.DefaultServeMux}, ln) // net/http/pprof
	tmp := addrFile + ".tmp"
	ioutil.WriteFile(tmp, []byte(base+" http://"+ln.Addr().String()+"\n"), 0o644)
	os.Rename(tmp, addrFile)
	select {}
}

func main() {
	mode := flag.String("mode", "wg-batch", "wg-batch, wg-drain, wg-stopper, wg-healthy, http-stuck, http-healthy, spin-stuck, spin-healthy")
	out := flag.String("out", ".", "folder for the dumps 1.txt, 2.txt, 3.txt")
	first := flag.Duration("first", 3*time.Second, "when the first dump is written")
	every := flag.Duration("every", 5*time.Second, "time between dumps")
	addrFile := flag.String("addr-file", "", "external modes: where to write the service's and pprof's base URLs")
	flag.Parse()
	mux := http.NewServeMux()
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "ok") })
	mux.HandleFunc("/quote", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(3 * time.Second)
		fmt.Fprintln(w, "42")
	})
	mux.HandleFunc("/upload", upload)
	base := service(mux)
	var keep []*http.Client
	switch *mode {
	case "proxy-stuck", "proxy-healthy", "ini-stuck", "ini-healthy":
		external(*mode, *addrFile, mux, base)
	case "wg-batch":
		go batchLoop(false)
	case "wg-drain":
		go crawl(false)
	case "wg-stopper":
		go runNode(false)
	case "wg-healthy":
		go batchLoop(true)
		go crawl(true)
		go runNode(true)
	case "http-stuck":
		up := silentUpstream()
		for i := 0; i < 4; i++ {
			go quoteLoop(up)
		}
		keep = append(keep, idleKeepAlive(base))
	case "http-healthy":
		keep = append(keep, idleKeepAlive(base))
		// Two loops: four, all in their round trip at any dump, are a
		// pool that waits on its upstream as a whole (a one-dump warning
		// by design), not the healthy twin this mode is.
		for i := 0; i < 2; i++ {
			go slowQuoteLoop(base)
		}
	case "spin-stuck":
		for i := 0; i < 3; i++ {
			go uploader(base, isoFile(0, true), true)
		}
		for i := 0; i < 2; i++ {
			go uploader(base, isoFile(100, false), false)
		}
	case "spin-healthy":
		for i := 0; i < 4; i++ {
			go uploader(base, isoFile(200000, false), false)
		}
	default:
		fmt.Fprintln(os.Stderr, "unknown mode", *mode)
		os.Exit(2)
	}
	// main waits as a service's does, on a channel; the dumps are
	// written by timer goroutines that live only while they write.
	quit := make(chan struct{})
	var dump func(i int)
	dump = func(i int) {
		f, err := os.Create(filepath.Join(*out, fmt.Sprintf("%d.txt", i)))
		if err != nil {
			panic(err)
		}
		pprof.Lookup("goroutine").WriteTo(f, 2)
		f.Close()
		if i == 3 {
			close(quit)
			return
		}
		time.AfterFunc(*every, func() { dump(i + 1) })
	}
	time.AfterFunc(*first, func() { dump(1) })
	<-quit
	_ = keep
}
