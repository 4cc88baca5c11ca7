// Command slowupstream is the service of the go-slow-upstream-leak scenario
// and the load generator that drives it. gen.sh runs both and captures
// /debug/pprof/goroutine while the load runs.
//
//	slowupstream serve -addr-file F      # the service, on 127.0.0.1
//	slowupstream load -base URL -rate 20 -duration 15s -timeout 2s
//
// The service has two faults on purpose:
//
//   - GET /api/items calls an upstream (a second HTTP server in the same
//     process, on 127.0.0.1) that answers after 30 s, with
//     http.DefaultClient, which has no timeout, and without the request's
//     context: each handler goroutine waits in the HTTP client's
//     persistConn.roundTrip for the whole 30 s, long after the caller gave up.
//   - GET /api/search runs the search in a goroutine that sends its result on
//     an unbuffered channel; the handler stops listening after 50 ms and the
//     search takes 120 ms, so every request leaks one goroutine blocked on
//     the channel send, for ever.
//
// Handlers run under pprof labels route=/api/items or route=/api/search
// (goroutines they start inherit them). net/http/pprof is registered.
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
	"runtime/pprof"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: slowupstream serve|load [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "serve":
		err = serve(os.Args[2:])
	case "load":
		err = load(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		log.Fatal(err)
	}
}

// server is the service under test.
type server struct {
	upstream string // base URL of the slow upstream, "http://127.0.0.1:N"
}

// labeled runs h under the pprof label route=route.
func labeled(route string, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		pprof.Do(r.Context(), pprof.Labels("route", route), func(ctx context.Context) {
			h(w, r.WithContext(ctx))
		})
	}
}

// handleItems asks the upstream for the items. The fault: http.DefaultClient
// has no timeout and the request carries no context, so this waits for the
// upstream however long it takes.
func (s *server) handleItems(w http.ResponseWriter, r *http.Request) {
	resp, err := http.DefaultClient.Get(s.upstream + "/inventory")
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	w.Header().Set("Content-Type", "application/json")
	io.Copy(w, resp.Body)
}

type result struct {
	hits []string
}

// handleSearch runs the search in a goroutine and gives up after 50 ms. The
// fault: the channel is unbuffered, so once the handler has returned, the
// search goroutine blocks on its send for ever.
func (s *server) handleSearch(w http.ResponseWriter, r *http.Request) {
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

// slowUpstream answers after 30 s.
func slowUpstream(w http.ResponseWriter, r *http.Request) {
	time.Sleep(30 * time.Second)
	fmt.Fprintln(w, `{"items":[]}`)
}

func serve(args []string) error {
	addrFile := ""
	if len(args) == 2 && args[0] == "-addr-file" {
		addrFile = args[1]
	} else {
		return fmt.Errorf("usage: slowupstream serve -addr-file FILE")
	}

	upLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	upMux := http.NewServeMux()
	upMux.HandleFunc("GET /inventory", slowUpstream)
	go http.Serve(upLn, upMux)

	s := &server{upstream: "http://" + upLn.Addr().String()}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/items", labeled("/api/items", s.handleItems))
	mux.HandleFunc("GET /api/search", labeled("/api/search", s.handleSearch))
	// net/http/pprof registered its handlers on http.DefaultServeMux.
	mux.Handle("/debug/pprof/", http.DefaultServeMux)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	// Write the address only once the listener accepts connections.
	if err := os.WriteFile(addrFile, []byte(ln.Addr().String()+"\n"), 0o644); err != nil {
		return err
	}
	return http.Serve(ln, mux)
}

// load sends GET requests at a fixed arrival rate (open model: a request
// starts every 1/rate whether or not earlier ones have finished), alternating
// /api/items and /api/search, for duration; each request gives up after
// timeout. It prints a summary line per route when all requests are done.
func load(args []string) error {
	var base string
	rate, duration, timeout := 20.0, 15*time.Second, 2*time.Second
	for i := 0; i+1 < len(args); i += 2 {
		var err error
		switch args[i] {
		case "-base":
			base = args[i+1]
		case "-rate":
			_, err = fmt.Sscan(args[i+1], &rate)
		case "-duration":
			duration, err = time.ParseDuration(args[i+1])
		case "-timeout":
			timeout, err = time.ParseDuration(args[i+1])
		default:
			err = fmt.Errorf("unknown flag %s", args[i])
		}
		if err != nil {
			return err
		}
	}
	if base == "" || rate <= 0 {
		return fmt.Errorf("usage: slowupstream load -base URL [-rate R] [-duration D] [-timeout T]")
	}
	client := &http.Client{Timeout: timeout}
	routes := []string{"/api/items", "/api/search?q=shoes"}
	type tally struct{ sent, ok, failed atomic.Int64 }
	tallies := make([]tally, len(routes))

	var wg sync.WaitGroup
	tick := time.NewTicker(time.Duration(float64(time.Second) / rate))
	defer tick.Stop()
	end := time.Now().Add(duration)
	for n := 0; time.Now().Before(end); n++ {
		<-tick.C
		i := n % len(routes)
		tallies[i].sent.Add(1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := client.Get(base + routes[i])
			if err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			if err == nil && resp.StatusCode == http.StatusOK {
				tallies[i].ok.Add(1)
			} else {
				tallies[i].failed.Add(1)
			}
		}()
	}
	wg.Wait()
	for i, r := range routes {
		fmt.Printf("load: %s sent=%d ok=%d failed=%d\n", r, tallies[i].sent.Load(), tallies[i].ok.Load(), tallies[i].failed.Load())
	}
	return nil
}
