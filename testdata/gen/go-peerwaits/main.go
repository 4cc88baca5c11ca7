// Command go-peerwaits is one Go service whose goroutines wait on peers in
// the ways issue 33 names, written to be dumped (debug=2) through its own
// net/http/pprof handler while it runs.
//
// stuck (every wait below never ends):
//   - 3 sync jobs (main.(*syncer).run → pull → (*lineClient).call) wait for
//     the reply of a line protocol upstream on 127.0.0.1 that accepted and
//     never answers (no deadline): a request waiting for its peer, in a
//     goroutine that serves no request of its own;
//   - 2 connections of a raw TCP proxy (main.(*proxy).handleConn, started
//     by its accept loop): each read its client's request at once, then
//     forward → (*lineClient).call waits for the same silent upstream;
//   - 2 lookups (main.(*resolver).lookup under main.refreshLoop's call)
//     wait in ReadFromUDP for a UDP reply nobody sends;
//   - 8 workers of a pool of 8 (main.(*pool).worker → process) wait in
//     x/sync/semaphore's Acquire for permits two jobs took and kept when
//     they returned early (no Release);
//   - main.runBatch waits in a sync.WaitGroup for 4 workers that all
//     returned without calling Done.
//
// healthy (the same kinds of waits, at rest by design):
//   - a raw TCP line server (main.(*lineServer).handleConn → readCommand)
//     with 6 clients connected and idle;
//   - a net/http server with 6 idle keep-alive clients (their pooled
//     connections' readLoop/writeLoop, the server's conn goroutines);
//   - a push client's reader (main.(*lineClient).readLoop → readFrame) on a
//     subscription that sends nothing;
//   - a UDP server loop (main.(*udpServer).serve) that receives nothing;
//   - an fsnotify watcher (its own reader goroutine) and main.watchConfig
//     selecting on its events;
//   - main waiting for a signal under main.run.
//
// Mode "healthy" starts only the healthy part; "stuck" starts both.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"
	"golang.org/x/sync/semaphore"
)

// silentUpstream accepts connections and never answers them.
func silentUpstream() string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	go func() {
		var held []net.Conn
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			held = append(held, c) // kept open, never read nor written
		}
	}()
	return ln.Addr().String()
}

// lineClient speaks a line protocol: one request line, one reply line.
type lineClient struct {
	conn net.Conn
	r    *bufio.Reader
}

func dial(addr string) *lineClient {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		log.Fatal(err)
	}
	return &lineClient{conn: c, r: bufio.NewReader(c)}
}

// call sends one request and waits for its reply (no deadline).
func (c *lineClient) call(req string) (string, error) {
	if _, err := fmt.Fprintf(c.conn, "%s\n", req); err != nil {
		return "", err
	}
	return c.r.ReadString('\n')
}

// readLoop reads pushed frames until the connection closes.
func (c *lineClient) readLoop(out chan<- string) {
	for {
		f, err := c.readFrame()
		if err != nil {
			return
		}
		out <- f
	}
}

func (c *lineClient) readFrame() (string, error) { return c.r.ReadString('\n') }

type syncer struct{ up *lineClient }

func (s *syncer) run() {
	for {
		if err := s.pull(); err != nil {
			return
		}
		time.Sleep(time.Second)
	}
}

func (s *syncer) pull() error {
	_, err := s.up.call("PULL")
	return err
}

type proxy struct{ upstream string }

func (p *proxy) serve(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go p.handleConn(c)
	}
}

func (p *proxy) handleConn(c net.Conn) {
	defer c.Close()
	r := bufio.NewReader(c)
	for {
		req, err := r.ReadString('\n')
		if err != nil {
			return
		}
		reply, err := p.forward(req)
		if err != nil {
			return
		}
		fmt.Fprint(c, reply)
	}
}

func (p *proxy) forward(req string) (string, error) {
	return dial(p.upstream).call(strings.TrimSpace(req))
}

// lineServer answers PING lines; its clients stay connected and idle.
type lineServer struct{}

func (s *lineServer) serve(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go s.handleConn(c)
	}
}

func (s *lineServer) handleConn(c net.Conn) {
	defer c.Close()
	r := bufio.NewReader(c)
	for {
		cmd, err := readCommand(r)
		if err != nil {
			return
		}
		fmt.Fprintf(c, "OK %s\n", cmd)
	}
}

func readCommand(r *bufio.Reader) (string, error) {
	l, err := r.ReadString('\n')
	return strings.TrimSpace(l), err
}

func listen() net.Listener {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	return ln
}

type resolver struct{ server *net.UDPAddr }

// lookup sends a query and waits for its answer (no deadline).
func (r *resolver) lookup(name string) (string, error) {
	c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return "", err
	}
	defer c.Close()
	if _, err := c.WriteToUDP([]byte(name), r.server); err != nil {
		return "", err
	}
	buf := make([]byte, 512)
	n, _, err := c.ReadFromUDP(buf)
	return string(buf[:n]), err
}

func refreshLoop(r *resolver, name string) {
	for {
		if _, err := r.lookup(name); err != nil {
			return
		}
		time.Sleep(time.Minute)
	}
}

// udpServer receives datagrams and answers nothing.
type udpServer struct{ conn *net.UDPConn }

func (s *udpServer) serve() {
	buf := make([]byte, 512)
	for {
		if _, _, err := s.conn.ReadFromUDP(buf); err != nil {
			return
		}
	}
}

type pool struct {
	jobs chan int
	sem  *semaphore.Weighted
}

func (p *pool) worker() {
	for j := range p.jobs {
		p.process(j)
	}
}

func (p *pool) process(j int) {
	if err := p.sem.Acquire(context.Background(), 1); err != nil {
		return
	}
	defer p.sem.Release(1)
	_ = j
}

// leakPermits takes permits and returns without releasing them (an early
// return that skips the Release).
func (p *pool) leakPermits(n int64) {
	if err := p.sem.Acquire(context.Background(), n); err != nil {
		return
	}
}

func runBatch(n int) {
	var wg sync.WaitGroup
	wg.Add(n)
	for i := 0; i < n; i++ {
		go batchWorker(&wg, i)
	}
	wg.Wait()
}

// batchWorker forgets Done on its error path (every item "fails" here).
func batchWorker(wg *sync.WaitGroup, i int) {
	if i >= 0 {
		return
	}
	wg.Done()
}

func watchConfig(w *fsnotify.Watcher) {
	for {
		select {
		case ev, ok := <-w.Events:
			if !ok {
				return
			}
			_ = ev
		case _, ok := <-w.Errors:
			if !ok {
				return
			}
		}
	}
}

func startHealthy(dir string) {
	ls := listen()
	go (&lineServer{}).serve(ls)
	for i := 0; i < 6; i++ {
		c := dial(ls.Addr().String())
		if _, err := c.call("PING"); err != nil {
			log.Fatal(err)
		}
		// connected and idle from now on
	}

	hs := listen()
	go http.Serve(hs, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	tr := &http.Transport{MaxIdleConnsPerHost: 10, IdleConnTimeout: time.Hour}
	hc := &http.Client{Transport: tr}
	var wg sync.WaitGroup
	for i := 0; i < 6; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := hc.Get("http://" + hs.Addr().String() + "/")
			if err != nil {
				log.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}()
	}
	wg.Wait()

	sub := dial(silentUpstream())
	events := make(chan string)
	go sub.readLoop(events)

	uc, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		log.Fatal(err)
	}
	go (&udpServer{conn: uc}).serve()

	w, err := fsnotify.NewWatcher()
	if err != nil {
		log.Fatal(err)
	}
	if err := w.Add(dir); err != nil {
		log.Fatal(err)
	}
	go watchConfig(w)
}

func startStuck() {
	up := silentUpstream()
	for i := 0; i < 3; i++ {
		go (&syncer{up: dial(up)}).run()
	}

	pl := listen()
	go (&proxy{upstream: up}).serve(pl)
	for i := 0; i < 2; i++ {
		c, err := net.Dial("tcp", pl.Addr().String())
		if err != nil {
			log.Fatal(err)
		}
		fmt.Fprintf(c, "GET key%d\n", i) // the proxy's reply never comes
	}

	// A UDP "server" that receives and never answers.
	quiet, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		log.Fatal(err)
	}
	r := &resolver{server: quiet.LocalAddr().(*net.UDPAddr)}
	for _, n := range []string{"db.internal", "cache.internal"} {
		go refreshLoop(r, n)
	}

	p := &pool{jobs: make(chan int), sem: semaphore.NewWeighted(2)}
	p.leakPermits(1)
	p.leakPermits(1)
	for i := 0; i < 8; i++ {
		go p.worker()
	}
	go func() {
		for j := 0; ; j++ {
			p.jobs <- j // blocks once all 8 workers wait for a permit
		}
	}()

	go runBatch(4)
}

func run(stop <-chan os.Signal) {
	<-stop
}

func main() {
	mode := flag.String("mode", "stuck", "stuck or healthy")
	addr := flag.String("addr", "127.0.0.1:0", "the pprof listener")
	flag.Parse()
	dir, err := os.MkdirTemp("", "peerwaits")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	go http.Serve(ln, nil) // net/http/pprof's handlers
	startHealthy(dir)
	if *mode == "stuck" {
		startStuck()
	}
	fmt.Println(ln.Addr().String())
	os.Stdout.Sync()
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, os.Interrupt)
	run(stop)
}
