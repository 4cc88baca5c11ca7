// Command goservice is a small Go HTTP service that tests of `dumpdiff
// watch` drive through a real incident: healthy for as long as the test
// wants, then, on the test's command, a worker pool exhausted by a stalled
// upstream or a goroutine leak, and back. Standard library only; built with
// the main module (`go build -o X ./testdata/watch/goservice`, which names
// the folder, works although `./...` skips testdata); started by
// internal/watchtest.
//
//	goservice [-addr 127.0.0.1:0] [-workers 8] [-clients 32] [-think 250ms]
//	          [-leak-rate 50] [-max-leaks 5000] [-max-life 10m]
//
// It prints `listening http://127.0.0.1:PORT` on stdout once every client
// below has had one answer (the service is in its steady healthy state),
// and exits when its stdin closes or after -max-life, whichever comes
// first: nothing it starts outlives the test that started it. It listens
// and dials on 127.0.0.1 only and never resolves a name.
//
// # What runs
//
//   - An upstream (type upstream): a TCP server in the same process, on
//     127.0.0.1, speaking a line protocol ("GET key\n" → "OK key\n"); one
//     goroutine per connection, created by main.(*upstream).serve, reading
//     the next request in net.(*conn).Read.
//   - A worker pool (type workerPool) of -workers goroutines, created by
//     main.(*workerPool).start, each with its own upstream connection.
//     Idle, a worker waits in `for j := range p.jobs` (chan receive).
//     The fault: (*upstreamConn).get sets no read deadline.
//   - GET /work: the handler hands a job to the pool and waits for its
//     result; it gives up only when its request's context ends (select on
//     both). It runs on net/http's connection goroutine.
//   - GET /lookup: the fault of the leak phase. The handler starts a
//     watchdog goroutine per request (main.(*service).watchdog, created by
//     main.(*service).handleLookup) that waits on a cancel channel which
//     only a failed lookup would close; lookups never fail, so each one
//     leaves a goroutine in chan receive for ever. No client calls /lookup
//     outside the leak phase.
//   - The load, in process: -clients goroutines (created by
//     main.(*clients).start), each a user calling GET /work over HTTP on
//     127.0.0.1 on its own kept-alive connection (its own transport), with
//     no timeout, then sleeping about -think: some clients/think requests
//     a second, a worker busy for a few microseconds each, so between
//     jobs the workers are idle.
//   - net/http/pprof at /debug/pprof/, package handler's flight recorder
//     (handler.FlightPath, with -flight), and the control endpoint.
//
// # Phases (POST /phase?to=NAME; GET /phase tells the current state)
//
// A phase says which faults are on; the endpoint answers once the phase is
// in effect (bounded by 5 s: 503 if it was not reached), with the state as
// JSON. Nothing but this endpoint changes the phase.
//
//   - healthy: no fault. Requests flow; workers idle between jobs.
//   - exhaust: the upstream stops answering: it reads each request and
//     keeps it unanswered. Every worker blocks in a socket read on its
//     upstream connection (net.(*conn).Read under (*upstreamConn).get,
//     state IO wait); every client's request then waits in handleWork for
//     a worker (select) and every client waits for its response
//     (net/http.(*persistConn).roundTrip). Answered once all -workers
//     workers are blocked and all -clients requests wait. It never
//     recovers while the phase lasts: the clients never time out.
//   - leak: the upstream answers (requests it held are answered now); a
//     leaker goroutine calls GET /lookup -leak-rate times a second, each
//     on a new connection (DisableKeepAlives: one parent goroutine per
//     leaked one, as distinct callers would give), and each call leaves one
//     watchdog in chan receive: the count grows moment after moment, up to
//     -max-leaks, after which lookups leak no more (the count stays).
//     Answered once the first lookup has leaked (the first call is made
//     at once).
//   - recover: no fault, and what the faults held is let go: the upstream
//     answers every request it held (the workers return to their channel),
//     the leaker stops and every watchdog's channel is closed (a hook of
//     this program: a real leak cannot be released). Answered once the
//     watchdogs have returned and no request is in the handler. healthy
//     does the same when a fault was on; the two differ only in name.
//
// Bounds: goroutines are at most about 5×clients + 2×workers + max-leaks +
// a few (the clients' and the server's connection goroutines included).
//
// # Expected verdicts (written from the code above and from analyze/,
// before dumpdiff ran on this program)
//
// Goroutines are pooled by creator; the timeline judges a waiting state
// that rose from the first moment by at least MinRise (5) and to at least
// RiseFactor (2) times its first count: growing when it rose at every
// moment (3 moments or more, critical), not-recovered when its last count
// is above RecoveredShare (25%) of the rise (critical from 10 left, or
// half its pool), else recovered (info). A rest (chan receive, select, a
// socket read under no known client) counts for the timeline like any
// wait; it only keeps stuck and the long-wait leak rule out. Waits under a
// minute print no "[N minutes]", so leaked's long-wait rule cannot speak
// in a test, nor its mass rule when the first moment is healthy.
//
//	moments (every 300ms)                        expected findings
//	healthy ×4                                   none (no warning, no critical)
//	healthy, healthy, exhaust ×3                 CRITICAL not-recovered main.(*workerPool).start ·
//	                                               socket-read (no via): 0 → 0 → 8 → 8 → 8, all
//	                                               of the pool (half-its-pool rule: 8 < 10);
//	                                             CRITICAL not-recovered net/http server
//	                                               connections · select: 0 → 32 (clients);
//	                                             CRITICAL not-recovered main.(*clients).start ·
//	                                               http-client-wait via http-client: 0 → 32
//	healthy, leak ×3                             CRITICAL growing main.(*service).handleLookup ·
//	                                               chan-receive: 0 → ~15 → ~30 → ~45 (rate 50/s)
//	healthy, exhaust, exhaust, recover ×2        the three exhaust groups recovered (info);
//	                                               no warning, no critical
//
// With the default flags. A first count in healthy may be 1 or 2 instead
// of 0 (a request in flight at that instant); the verdicts hold up to a
// first count of 3 for the workers (a rise of 5 over 8 workers).
//
// What dumpdiff said (2026-12-02, Go 1.26.8, `dumpdiff capture URL
// --count 1 [--append]` per moment, 300 ms apart, the phase switched
// before its moment; three runs of each): exactly the table above, the
// counts 0 → 0 → 8 → 8 → 8 and 0 → 0 → 32 → 32 → 32 with the same
// goroutines throughout, the leak 0 → 2 → 19 → 36, every recovered group
// back to 0. One miss on the way, in this program and not in the table:
// leak answered before its first lookup, so its first moment counted 0
// and the timeline said not-recovered (0 → 0 → 16 → 32, still critical);
// leak now answers once a lookup has leaked.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/pprof"
	"net/netip"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dumpdiff/dumpdiff/handler"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("goservice: ")
	if err := run(os.Args[1:]); err != nil {
		log.Fatal(err)
	}
}

// config is the command line.
type config struct {
	addr     string        // where the service listens: a loopback IP and a port (0: any)
	workers  int           // goroutines of the worker pool
	clients  int           // in-process users calling /work
	think    time.Duration // each user's pause between two requests
	leakRate int           // /lookup calls a second in the leak phase
	maxLeaks int           // most watchdogs alive at once
	maxLife  time.Duration // the process exits after this, whatever happens
	flight   bool          // serve package handler's flight recorder (it runs all the time: off unless asked)
}

func parseFlags(args []string) (config, error) {
	var c config
	fs := flag.NewFlagSet("goservice", flag.ContinueOnError)
	fs.StringVar(&c.addr, "addr", "127.0.0.1:0", "listen address: a loopback IP and a port")
	fs.IntVar(&c.workers, "workers", 8, "worker pool size")
	fs.IntVar(&c.clients, "clients", 32, "in-process users calling /work")
	fs.DurationVar(&c.think, "think", 250*time.Millisecond, "each user's pause between requests")
	fs.IntVar(&c.leakRate, "leak-rate", 50, "/lookup calls a second in the leak phase")
	fs.IntVar(&c.maxLeaks, "max-leaks", 5000, "most leaked goroutines alive at once")
	fs.DurationVar(&c.maxLife, "max-life", 10*time.Minute, "exit after this long")
	fs.BoolVar(&c.flight, "flight", false, "run and serve package handler's flight recorder")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	switch {
	case fs.NArg() > 0:
		return c, fmt.Errorf("unexpected arguments %q", fs.Args())
	case c.workers < 1 || c.workers > 256:
		return c, fmt.Errorf("-workers %d: want 1 to 256", c.workers)
	case c.clients < 1 || c.clients > 512:
		return c, fmt.Errorf("-clients %d: want 1 to 512", c.clients)
	case c.think < time.Millisecond:
		return c, fmt.Errorf("-think %v: want at least 1ms", c.think)
	case c.leakRate < 1 || c.leakRate > 1000:
		return c, fmt.Errorf("-leak-rate %d: want 1 to 1000", c.leakRate)
	case c.maxLeaks < 0 || c.maxLeaks > 5000:
		return c, fmt.Errorf("-max-leaks %d: want 0 to 5000", c.maxLeaks)
	case c.maxLife <= 0:
		return c, fmt.Errorf("-max-life %v: want more than 0", c.maxLife)
	}
	// A literal loopback address only: nothing is resolved, nothing is
	// reachable from another host.
	ap, err := netip.ParseAddrPort(c.addr)
	if err != nil || !ap.Addr().IsLoopback() {
		return c, fmt.Errorf("-addr %q: want a loopback IP and a port (127.0.0.1:0)", c.addr)
	}
	return c, nil
}

func run(args []string) error {
	cfg, err := parseFlags(args)
	if err != nil {
		return err
	}
	// Nothing outlives the test: stdin closing (the test ended or died) or
	// the life limit ends the process.
	time.AfterFunc(cfg.maxLife, func() {
		log.Printf("max life %v reached: exiting", cfg.maxLife)
		os.Exit(0)
	})
	go func() {
		io.Copy(io.Discard, os.Stdin)
		log.Print("stdin closed: exiting")
		os.Exit(0)
	}()

	up, err := listenUpstream()
	if err != nil {
		return err
	}
	go up.serve()

	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return err
	}
	base := "http://" + ln.Addr().String()
	s := &service{
		cfg:  cfg,
		up:   up,
		pool: &workerPool{jobs: make(chan job), upstream: up.addr()},
		leak: &leaker{url: base + "/lookup", rate: cfg.leakRate},
	}
	s.pool.start(cfg.workers)
	srv := &http.Server{Handler: s.routes(), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil {
			log.Fatal(err)
		}
	}()

	// Ready means steady: every user has had an answer, so its connection
	// is open and the counts the test sees first are the healthy ones.
	users := &clients{url: base + "/work", n: cfg.clients, think: cfg.think}
	users.start()
	select {
	case <-users.warm():
	case <-time.After(10 * time.Second):
		return errors.New("the clients got no answer within 10s")
	}
	fmt.Printf("listening %s\n", base)
	select {} // until stdin closes or max-life
}

// --- the upstream: a dependency that can stall.

// upstream is a line-protocol server: each "GET key\n" is answered "OK
// key\n", at once, unless the upstream is stalled: then the request is
// read and held, unanswered, until it comes back.
type upstream struct {
	ln net.Listener

	mu      sync.Mutex
	stalled bool
	held    []heldRequest // read while stalled, oldest first
}

// heldRequest is a request the stalled upstream read and did not answer.
type heldRequest struct {
	c   net.Conn
	key string
}

func listenUpstream() (*upstream, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	return &upstream{ln: ln}, nil
}

func (u *upstream) addr() string { return u.ln.Addr().String() }

// serve accepts connections, one goroutine each.
func (u *upstream) serve() {
	for {
		c, err := u.ln.Accept()
		if err != nil {
			log.Printf("upstream: %v", err)
			return
		}
		go u.handle(c)
	}
}

// handle reads requests from one connection. A client has one request in
// flight on its connection (it waits for the answer before it sends the
// next), so this and setStalled never write to one connection at once.
func (u *upstream) handle(c net.Conn) {
	defer c.Close()
	br := bufio.NewReader(c)
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return
		}
		key, ok := strings.CutPrefix(strings.TrimSuffix(line, "\n"), "GET ")
		if !ok {
			fmt.Fprintf(c, "ERR bad request\n")
			return
		}
		u.mu.Lock()
		if u.stalled {
			u.held = append(u.held, heldRequest{c, key})
			u.mu.Unlock()
			continue
		}
		u.mu.Unlock()
		if _, err := fmt.Fprintf(c, "OK %s\n", key); err != nil {
			return
		}
	}
}

// setStalled stalls the upstream or brings it back; back, it answers every
// request it held. It returns how many it answered.
func (u *upstream) setStalled(on bool) int {
	u.mu.Lock()
	u.stalled = on
	held := u.held
	if !on {
		u.held = nil
	}
	u.mu.Unlock()
	if on {
		return 0
	}
	for _, h := range held {
		fmt.Fprintf(h.c, "OK %s\n", h.key)
	}
	return len(held)
}

// heldCount is how many requests the upstream holds unanswered.
func (u *upstream) heldCount() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return len(u.held)
}

// upstreamConn is one worker's connection to the upstream, dialled on
// first use and again after an error.
type upstreamConn struct {
	addr string
	c    net.Conn
	br   *bufio.Reader
}

// get asks the upstream for key. The fault: no read deadline. While the
// upstream is stalled, the worker waits in the read for as long as it
// stays stalled.
func (u *upstreamConn) get(key string) (string, error) {
	if u.c == nil {
		c, err := net.DialTimeout("tcp", u.addr, time.Second)
		if err != nil {
			return "", err
		}
		u.c, u.br = c, bufio.NewReader(c)
	}
	if _, err := fmt.Fprintf(u.c, "GET %s\n", key); err != nil {
		u.reset()
		return "", err
	}
	line, err := u.br.ReadString('\n')
	if err != nil {
		u.reset()
		return "", err
	}
	v, ok := strings.CutPrefix(strings.TrimSuffix(line, "\n"), "OK ")
	if !ok {
		return "", fmt.Errorf("upstream: %q", line)
	}
	return v, nil
}

func (u *upstreamConn) reset() {
	u.c.Close()
	u.c, u.br = nil, nil
}

// --- the worker pool.

// job is one unit of work; done has room for the result, so a worker
// never waits for a handler that gave up.
type job struct {
	key  string
	done chan result
}

type result struct {
	value string
	err   error
}

// workerPool runs jobs on a fixed number of goroutines, each with its own
// upstream connection.
type workerPool struct {
	jobs     chan job
	upstream string // the upstream's address, 127.0.0.1:PORT
	size     int
}

func (p *workerPool) start(n int) {
	p.size = n
	for range n {
		go p.work(&upstreamConn{addr: p.upstream})
	}
}

func (p *workerPool) work(c *upstreamConn) {
	for j := range p.jobs {
		v, err := c.get(j.key)
		j.done <- result{v, err}
	}
}

// --- the service.

type service struct {
	cfg  config
	up   *upstream
	pool *workerPool
	leak *leaker

	waiting atomic.Int64 // /work requests being served
	leaks   watchdogs

	phaseMu sync.Mutex // one phase change at a time
	phase   atomic.Value
}

func (s *service) routes() *http.ServeMux {
	mux := http.NewServeMux()
	// package handler's flight recorder (-flight): watch fetches its
	// snapshot when an incident opens (the seconds before it, one moment
	// a second).
	if s.cfg.flight {
		if f, err := handler.NewFlight(5*time.Second, 8<<20); err == nil {
			mux.Handle(handler.FlightPath, f)
		} else {
			log.Printf("flight recorder: %v", err)
		}
	}
	mux.HandleFunc("GET /work", s.handleWork)
	mux.HandleFunc("GET /lookup", s.handleLookup)
	mux.HandleFunc("GET /phase", s.handleStatus)
	mux.HandleFunc("POST /phase", s.handlePhase)
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}

// handleWork hands a job to the pool and waits for its result, or for the
// caller to go away.
func (s *service) handleWork(w http.ResponseWriter, r *http.Request) {
	s.waiting.Add(1)
	defer s.waiting.Add(-1)
	j := job{key: r.URL.Query().Get("key"), done: make(chan result, 1)}
	select {
	case s.pool.jobs <- j:
	case <-r.Context().Done():
		return
	}
	select {
	case res := <-j.done:
		if res.err != nil {
			http.Error(w, res.err.Error(), http.StatusBadGateway)
			return
		}
		fmt.Fprintln(w, res.value)
	case <-r.Context().Done():
	}
}

// handleLookup answers a catalogue lookup. The fault: it starts a
// watchdog per request that waits for a cancel channel closed only when
// the lookup fails, and lookups never fail: each request leaves its
// watchdog waiting for ever.
func (s *service) handleLookup(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("id")
	cancel := make(chan struct{})
	if s.leaks.add(cancel, s.cfg.maxLeaks) {
		go s.watchdog(id, cancel)
	}
	fmt.Fprintf(w, "item %s\n", id)
}

// watchdog would log a lookup that was cancelled.
func (s *service) watchdog(id string, cancel <-chan struct{}) {
	defer s.leaks.wg.Done()
	<-cancel
	_ = id // a real one would log it
}

// watchdogs keeps the cancel channel of every watchdog so that recover can
// let them go: a hook of this test program (it keeps them reachable).
type watchdogs struct {
	mu     sync.Mutex
	cancel []chan struct{}
	wg     sync.WaitGroup
}

// add records a new watchdog's channel, unless max are alive.
func (d *watchdogs) add(c chan struct{}, max int) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.cancel) >= max {
		return false
	}
	d.cancel = append(d.cancel, c)
	d.wg.Add(1)
	return true
}

// release closes every channel and waits (up to within) for the
// watchdogs to return.
func (d *watchdogs) release(within time.Duration) error {
	d.mu.Lock()
	for _, c := range d.cancel {
		close(c)
	}
	d.cancel = nil
	d.mu.Unlock()
	done := make(chan struct{})
	go func() { d.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-time.After(within):
		return fmt.Errorf("watchdogs still running after %v", within)
	}
}

func (d *watchdogs) count() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.cancel)
}

// status is what GET and POST /phase answer.
type status struct {
	Phase          string `json:"phase"`
	Workers        int    `json:"workers"`
	WorkersBlocked int    `json:"workers_blocked"`  // requests the stalled upstream holds: one per blocked worker
	WaitingWork    int64  `json:"waiting_requests"` // /work requests in the handler
	Leaked         int    `json:"leaked"`           // watchdogs alive
	Goroutines     int    `json:"goroutines"`
	Error          string `json:"error,omitempty"`
}

func (s *service) status() status {
	p, _ := s.phase.Load().(string)
	if p == "" {
		p = "healthy"
	}
	return status{Phase: p, Workers: s.pool.size, WorkersBlocked: s.up.heldCount(), WaitingWork: s.waiting.Load(),
		Leaked: s.leaks.count(), Goroutines: runtime.NumGoroutine()}
}

func (s *service) handleStatus(w http.ResponseWriter, r *http.Request) {
	writeStatus(w, http.StatusOK, s.status())
}

// phaseWithin bounds how long a phase change waits for its phase to be in
// effect.
const phaseWithin = 5 * time.Second

// handlePhase switches the phase and answers once it is in effect.
func (s *service) handlePhase(w http.ResponseWriter, r *http.Request) {
	to := r.URL.Query().Get("to")
	s.phaseMu.Lock()
	defer s.phaseMu.Unlock()
	var err error
	switch to {
	case "healthy", "recover":
		s.leak.stop()
		s.up.setStalled(false)
		err = s.leaks.release(phaseWithin)
		// In effect once the requests the stall held are answered: an
		// instant with no request in the handler.
		if err == nil {
			err = waitFor(r.Context(), phaseWithin, func() bool { return s.waiting.Load() == 0 })
		}
	case "exhaust":
		s.leak.stop()
		s.up.setStalled(true)
		// In effect once every worker is blocked and every client's
		// request waits (a client has one request at a time).
		want := min(s.pool.size, s.cfg.clients)
		err = waitFor(r.Context(), phaseWithin, func() bool {
			return s.up.heldCount() >= want && s.waiting.Load() >= int64(s.cfg.clients)
		})
	case "leak":
		s.up.setStalled(false)
		// In effect once a lookup has leaked (or the cap is reached).
		before := s.leaks.count()
		s.leak.start()
		err = waitFor(r.Context(), phaseWithin, func() bool {
			n := s.leaks.count()
			return n > before || n >= s.cfg.maxLeaks
		})
	default:
		st := s.status()
		st.Error = fmt.Sprintf("unknown phase %q: want healthy, exhaust, leak or recover", to)
		writeStatus(w, http.StatusBadRequest, st)
		return
	}
	s.phase.Store(to)
	st := s.status()
	code := http.StatusOK
	if err != nil {
		st.Error = err.Error()
		code = http.StatusServiceUnavailable
	}
	log.Printf("phase %s: %d of %d workers blocked, %d requests waiting, %d leaked, %d goroutines",
		st.Phase, st.WorkersBlocked, st.Workers, st.WaitingWork, st.Leaked, st.Goroutines)
	writeStatus(w, code, st)
}

// waitFor polls cond until it holds, within d or until ctx ends.
func waitFor(ctx context.Context, d time.Duration, cond func() bool) error {
	end := time.Now().Add(d)
	for !cond() {
		if time.Now().After(end) {
			return fmt.Errorf("not in effect after %v", d)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(5 * time.Millisecond):
		}
	}
	return nil
}

func writeStatus(w http.ResponseWriter, code int, st status) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(st)
}

// --- the load, in process.

// clients are n users, each calling GET url (?key=user-N) on its own
// connection, waiting for the answer however long it takes (no timeout),
// then pausing about think (from think/2 to 3·think/2).
type clients struct {
	url   string
	n     int
	think time.Duration

	answered sync.WaitGroup // each user's first answer
	ready    chan struct{}
}

func (c *clients) start() {
	c.answered.Add(c.n)
	c.ready = make(chan struct{})
	go func() { c.answered.Wait(); close(c.ready) }()
	for i := range c.n {
		go c.user(i)
	}
}

// warm is closed once every user has had an answer.
func (c *clients) warm() <-chan struct{} { return c.ready }

// user is one client with its own transport, so its own connection, kept
// alive: distinct users, as outside callers would be (users sharing one
// transport would share as many connections as were ever busy at once, a
// count that drifts).
func (c *clients) user(i int) {
	hc := &http.Client{Transport: &http.Transport{}}
	url := c.url + "?key=user-" + strconv.Itoa(i)
	first := true
	for {
		if resp, err := hc.Get(url); err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		if first {
			c.answered.Done()
			first = false
		}
		// Jittered, so that users released together (after a stall)
		// drift apart again instead of arriving in bursts.
		time.Sleep(c.think/2 + rand.N(c.think))
	}
}

// leaker calls GET url rate times a second while started (the first call
// at once), each call on a new connection.
type leaker struct {
	url  string
	rate int

	mu   sync.Mutex
	quit chan struct{} // nil when stopped
	done chan struct{}
}

func (l *leaker) start() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.quit != nil {
		return
	}
	l.quit, l.done = make(chan struct{}), make(chan struct{})
	go l.run(l.quit, l.done)
}

// stop stops the calls and waits for the last one.
func (l *leaker) stop() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.quit == nil {
		return
	}
	close(l.quit)
	<-l.done
	l.quit, l.done = nil, nil
}

func (l *leaker) run(quit, done chan struct{}) {
	defer close(done)
	hc := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 5 * time.Second}
	tick := time.NewTicker(time.Second / time.Duration(l.rate))
	defer tick.Stop()
	for n := 0; ; n++ {
		if n > 0 {
			select {
			case <-quit:
				return
			case <-tick.C:
			}
		}
		resp, err := hc.Get(l.url + "?id=" + strconv.Itoa(n))
		if err != nil {
			continue
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
}
