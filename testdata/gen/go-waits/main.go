// go-waits: Go services whose goroutines wait for minutes, in work or at
// rest, for issue 33's Go classes. Stdlib only, and written for Go 1.13 as
// well as the newest (no generics, no min/max, no io.ReadAll): gen.sh runs
// it under both. Each mode writes its own debug=2 goroutine dumps (the
// runtime prints a wait of a minute or more as "N minutes").
//
// handlers (stuck) — an HTTP service on 127.0.0.1 under a live keep-alive
// load of 20 clients (their goroutines wait for milliseconds), where:
//   - 3 requests to /export block in their handler sending the report to an
//     exporter whose consumer has returned (chan send under a handler);
//   - 2 requests to /lookup block in their handler reading an upstream that
//     accepted and never answers, with no deadline (IO wait under a handler);
//   - 2 requests to /watch block in their handler in a select on a channel
//     nobody closes (a rest under a handler);
//   - 2 requests to /search start a searcher goroutine each and give up
//     after 50 ms; the searcher's answer (200 ms) goes on a channel with
//     no room: it blocks sending, its handler gone back to its connection;
//   - 48 requests to /config wait in (*config).get's RLock for the
//     config's RWMutex, write-held by (*config).reload, which reads the same
//     silent upstream (contention with its holder, not a leak);
//   - at rest by design, for the whole run: the listeners' accept loops, 4
//     workers of the service's own pool idle on their job channel, a
//     signal.Notify loop, a ticker loop, the load's pooled keep-alive
//     connections (client and server side).
//
// handlers-healthy — the same service and load where every wait is answered:
// the exporter consumes, the upstream answers, /watch's channel is closed,
// the reload takes its lock for microseconds. The rests are the same.
//
// bodies (stuck) — a poller calls an HTTP API 120 times in its first 3 s and
// never closes (nor reads) the response bodies: 120 client connections, each
// with its readLoop waiting for its body to be read or closed, beside the
// same live keep-alive load. bodies-healthy closes every body: its
// connections go back to the pool (2 idle per host).
//
// transports (stuck) — the same poller makes a client with a Transport of
// its own for each of its 120 calls (bodies read and closed): each keeps
// its idle connection for good (no idle timeout), 120 of them.
// transports-healthy shares one client: at most 2 idle connections.
//
// cycles (stuck) — three lock stories no goroutine can leave:
//   - AB-BA: two transfers lock their accounts in opposite orders;
//   - a reader of (*registry) re-takes the read lock (snapshot → count) while
//     a writer (add) waits in Lock: the writer waits for the reader, the
//     reader for the writer; three more readers (get) queue behind them;
//   - (*queue).flush holds the queue's mutex while it waits for an ack on a
//     channel nobody sends on; 4 pushers wait for the mutex.
//
// cycles-healthy — the same types used right: transfers lock in one order,
// the snapshot counts without re-taking the lock, flush waits for its ack
// after it unlocks and the ack comes.
//
// Go's own deadlock report is asleep/main.go's (a program of its own: this
// one's timers keep Go 1.13 from ever calling it asleep).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io/ioutil"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"sync"
	"syscall"
	"time"
)

// upstream is a line server on 127.0.0.1: it answers each line with a
// line, or (silent) accepts and never answers.
func upstream(silent bool) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	var held []net.Conn
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			if silent {
				held = append(held, c) // kept open, never answered
				continue
			}
			go func(c net.Conn) {
				defer c.Close()
				r := bufio.NewReader(c)
				for {
					line, err := r.ReadString('\n')
					if err != nil {
						return
					}
					fmt.Fprint(c, "ok "+line)
				}
			}(c)
		}
	}()
	return l.Addr().String()
}

// query asks the upstream at addr one line, with no deadline.
func query(addr, q string) string {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return ""
	}
	defer c.Close()
	fmt.Fprintln(c, q)
	line, _ := bufio.NewReader(c).ReadString('\n')
	return line
}

type exporter struct{ out chan string }

// consume takes the reports; stuck: it returns after the first one (a
// consumer that died), and every later send waits.
func (e *exporter) consume(once bool) {
	for r := range e.out {
		_ = r
		if once {
			return
		}
	}
}

type config struct {
	mu   sync.RWMutex
	vals map[string]string
	up   string
}

func (c *config) reload() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.vals["motd"] = query(c.up, "config")
}

func (c *config) get(k string) string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.vals[k]
}

type server struct {
	stuck bool
	exp   *exporter
	cfg   *config
	up    string
	ready chan struct{}
	jobs  chan int
}

func (s *server) handleExport(w http.ResponseWriter, r *http.Request) {
	rep := "report " + r.URL.Query().Get("id")
	s.exp.out <- rep
	fmt.Fprintln(w, "exported")
}

func (s *server) handleLookup(w http.ResponseWriter, r *http.Request) {
	fmt.Fprintln(w, query(s.up, "lookup "+r.URL.Query().Get("k")))
}

func (s *server) handleWatch(w http.ResponseWriter, r *http.Request) {
	select {
	case <-s.ready:
	case <-r.Context().Done():
	}
	fmt.Fprintln(w, "ready")
}

func (s *server) handleConfig(w http.ResponseWriter, r *http.Request) {
	fmt.Fprintln(w, s.cfg.get("motd"))
}

// handleSearch searches in a goroutine of its own (200 ms) and gives up
// after 50 ms; stuck: the answer's channel has no room, so the searcher,
// whose requester is gone, blocks sending it for good (healthy: room for
// the one answer).
func (s *server) handleSearch(w http.ResponseWriter, r *http.Request) {
	size := 1
	if s.stuck {
		size = 0
	}
	res := make(chan string, size)
	q := r.URL.Query().Get("q")
	go func() {
		time.Sleep(200 * time.Millisecond) // the search, slower than its requester waits
		res <- "found " + q
	}()
	select {
	case v := <-res:
		fmt.Fprintln(w, v)
	case <-time.After(50 * time.Millisecond):
		http.Error(w, "timeout", http.StatusGatewayTimeout)
	}
}

func (s *server) handleOK(w http.ResponseWriter, r *http.Request) {
	s.jobs <- 1 // hand a small job to the service's own workers
	fmt.Fprintln(w, "ok")
}

// worker is one of the service's own pool: it rests on its job channel.
func (s *server) worker() {
	for j := range s.jobs {
		_ = j
	}
}

// reloadLoop reloads the config on a ticker.
func (s *server) reloadLoop(every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	s.cfg.reload()
	for range t.C {
		s.cfg.reload()
	}
}

// listen serves h on 127.0.0.1 and returns its address.
func listen(h http.Handler) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	go http.Serve(l, h)
	return l.Addr().String()
}

// sent are the connections send opened, kept open to the end (a
// collected net.Conn is closed, and its request's context cancelled).
var sent []net.Conn

// send writes a GET for path on a raw connection and never reads the
// answer: a client of our own that leaves no goroutine in the dump.
func send(addr, path string) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		panic(err)
	}
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: svc\r\n\r\n", path)
	sent = append(sent, c)
}

// load keeps n keep-alive clients calling path every 500 ms until the end.
func load(addr, path string, n int) {
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: n}}
	for i := 0; i < n; i++ {
		go func() {
			for {
				resp, err := client.Get("http://" + addr + path)
				if err == nil {
					ioutil.ReadAll(resp.Body)
					resp.Body.Close()
				}
				time.Sleep(500 * time.Millisecond)
			}
		}()
	}
}

// rests starts the rests every service has: a signal.Notify loop and a
// ticker loop.
func rests() {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGHUP)
	go func() {
		for s := range sig {
			_ = s
		}
	}()
	go func() {
		t := time.NewTicker(time.Hour)
		for range t.C {
		}
	}()
}

func handlers(stuck bool) {
	up := upstream(stuck)
	s := &server{stuck: stuck, exp: &exporter{out: make(chan string)}, cfg: &config{vals: map[string]string{}, up: up}, up: up,
		ready: make(chan struct{}), jobs: make(chan int)}
	if !stuck {
		close(s.ready)
	}
	for i := 0; i < 4; i++ {
		go s.worker()
	}
	rests()
	mux := http.NewServeMux()
	mux.HandleFunc("/export", s.handleExport)
	mux.HandleFunc("/lookup", s.handleLookup)
	mux.HandleFunc("/watch", s.handleWatch)
	mux.HandleFunc("/config", s.handleConfig)
	mux.HandleFunc("/ok", s.handleOK)
	mux.HandleFunc("/search", s.handleSearch)
	addr := listen(mux)
	if !stuck {
		go s.exp.consume(false)
	} else {
		// The consumer takes one report and dies; the reload takes the
		// lock and reads the silent upstream for good.
		s.exp.out = make(chan string)
		go s.exp.consume(true)
		send(addr, "/export?id=0")
		time.Sleep(100 * time.Millisecond)
	}
	go s.reloadLoop(100 * time.Millisecond)
	time.Sleep(200 * time.Millisecond)
	load(addr, "/ok", 20)
	for i := 1; i <= 3; i++ {
		send(addr, fmt.Sprintf("/export?id=%d", i))
	}
	for i := 0; i < 2; i++ {
		send(addr, fmt.Sprintf("/lookup?k=%d", i))
		send(addr, "/watch")
	}
	for i := 0; i < 2; i++ {
		send(addr, fmt.Sprintf("/search?q=%d", i))
	}
	for i := 0; i < 48; i++ {
		send(addr, "/config")
	}
}

func bodies(stuck bool) {
	api := listen(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, strings.Repeat("x", 64<<10)) // larger than the client's buffer: the body stays unread
	}))
	rests()
	load(api, "/", 20)
	go func() {
		client := &http.Client{}
		for i := 0; i < 120; i++ {
			resp, err := client.Get("http://" + api + "/poll")
			if err != nil {
				continue
			}
			if !stuck {
				ioutil.ReadAll(resp.Body)
				resp.Body.Close()
			}
			time.Sleep(25 * time.Millisecond)
		}
		select {} // the poller stays, idle
	}()
}

// transports: a poller calls the API 120 times in its first ~3 s; stuck:
// each call makes a client with a Transport of its own (no idle timeout)
// and drops it, body read and closed — every Transport keeps its one idle
// connection for good; healthy: one client for every call, its pool
// keeping at most 2 idle connections to the host.
func transports(stuck bool) {
	api := listen(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, "ok")
	}))
	rests()
	load(api, "/", 20)
	go func() {
		shared := &http.Client{Transport: &http.Transport{}}
		for i := 0; i < 120; i++ {
			client := shared
			if stuck {
				client = &http.Client{Transport: &http.Transport{}}
			}
			resp, err := client.Get("http://" + api + "/poll")
			if err == nil {
				ioutil.ReadAll(resp.Body)
				resp.Body.Close()
			}
			time.Sleep(25 * time.Millisecond)
		}
		select {} // the poller stays, idle
	}()
}

type account struct {
	mu      sync.Mutex
	balance int
}

// transfer locks from, then to.
func transfer(from, to *account, n int, pause time.Duration) {
	from.mu.Lock()
	defer from.mu.Unlock()
	time.Sleep(pause)
	to.mu.Lock()
	defer to.mu.Unlock()
	from.balance -= n
	to.balance += n
}

type registry struct {
	mu    sync.RWMutex
	items []string
}

func (r *registry) count() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.items)
}

// snapshot reads under the read lock; stuck: it calls count, which takes
// the read lock again.
func (r *registry) snapshot(again bool, pause time.Duration) []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	time.Sleep(pause)
	n := len(r.items)
	if again {
		n = r.count()
	}
	return append([]string(nil), r.items[:n]...)
}

func (r *registry) add(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.items = append(r.items, s)
}

func (r *registry) get(i int) string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if i < len(r.items) {
		return r.items[i]
	}
	return ""
}

type queue struct {
	mu    sync.Mutex
	items []int
	ack   chan bool
}

// flush hands the items on and waits for the ack; stuck: with the mutex
// held.
func (q *queue) flush(held bool) {
	q.mu.Lock()
	n := len(q.items)
	q.items = q.items[:0]
	if !held {
		q.mu.Unlock()
	}
	_ = n
	<-q.ack
	if held {
		q.mu.Unlock()
	}
}

func (q *queue) push(i int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.items = append(q.items, i)
}

func cycles(stuck bool) {
	a, b := &account{balance: 100}, &account{balance: 100}
	pause := 200 * time.Millisecond
	go func() {
		for {
			transfer(a, b, 1, pause)
			time.Sleep(time.Second)
		}
	}()
	go func() {
		for {
			if stuck {
				transfer(b, a, 1, pause) // the other order
			} else {
				transfer(a, b, -1, pause)
			}
			time.Sleep(time.Second)
		}
	}()
	reg := &registry{items: []string{"a", "b"}}
	go func() {
		for {
			reg.snapshot(stuck, pause)
			time.Sleep(time.Second)
		}
	}()
	time.Sleep(50 * time.Millisecond)
	go func() {
		for i := 0; ; i++ {
			reg.add(fmt.Sprint(i))
			time.Sleep(time.Second)
		}
	}()
	time.Sleep(50 * time.Millisecond)
	for i := 0; i < 3; i++ {
		go func(i int) {
			for {
				reg.get(i)
				time.Sleep(time.Second)
			}
		}(i)
	}
	q := &queue{ack: make(chan bool)}
	go func() {
		for {
			q.flush(stuck)
			time.Sleep(time.Second)
		}
	}()
	if !stuck {
		go func() {
			for range time.Tick(10 * time.Millisecond) {
				select {
				case q.ack <- true:
				default:
				}
			}
		}()
	}
	time.Sleep(50 * time.Millisecond)
	for i := 0; i < 4; i++ {
		go func(i int) {
			for {
				q.push(i)
				time.Sleep(time.Second)
			}
		}(i)
	}
}

func main() {
	mode := flag.String("mode", "handlers", "handlers, handlers-healthy, bodies, bodies-healthy, transports, transports-healthy, cycles, cycles-healthy")
	out := flag.String("out", ".", "folder for the dumps 1.txt, 2.txt, 3.txt")
	first := flag.Duration("first", 65*time.Second, "when the first dump is written")
	every := flag.Duration("every", 5*time.Second, "time between dumps")
	flag.Parse()
	switch *mode {
	case "handlers", "handlers-healthy":
		handlers(*mode == "handlers")
	case "bodies", "bodies-healthy":
		bodies(*mode == "bodies")
	case "transports", "transports-healthy":
		transports(*mode == "transports")
	case "cycles", "cycles-healthy":
		cycles(*mode == "cycles")
	default:
		fmt.Fprintln(os.Stderr, "unknown mode", *mode)
		os.Exit(2)
	}
	// A service allocates, and the runtime records when a goroutine began
	// to wait at the first GC that sees it blocked: without a GC no wait is
	// printed. These loops allocate little, so a ticker does.
	go func() {
		var keep [][]byte
		for range time.Tick(20 * time.Millisecond) {
			keep = append(keep, make([]byte, 256<<10))
			if len(keep) > 16 {
				keep = keep[:0]
			}
		}
	}()
	time.Sleep(*first)
	for i := 1; i <= 3; i++ {
		// Each dump is written by a goroutine of its own, as net/http/pprof's
		// handler is (a request's goroutine).
		done := make(chan struct{})
		go func(i int) {
			defer close(done)
			f, err := os.Create(filepath.Join(*out, fmt.Sprintf("%d.txt", i)))
			if err != nil {
				panic(err)
			}
			pprof.Lookup("goroutine").WriteTo(f, 2)
			f.Close()
		}(i)
		<-done
		if i < 3 {
			time.Sleep(*every)
		}
	}
}
