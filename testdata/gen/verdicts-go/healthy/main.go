// Command healthy is the program of testdata/verdicts/go-healthy: a healthy Go
// service under a small steady load, and the clients that make the load.
//
//	healthy serve -addr-file F
//	healthy clients -base URL [-n 6] [-period 250ms]
//
// serve runs, all on 127.0.0.1:
//
//   - an HTTP server (goroutine serve, idle in Accept) with GET /api/work,
//     whose handler handleWork sleeps 100 ms, and net/http/pprof;
//   - startWorkers: a pool of 8 workers ranging over a jobs channel that
//     stays empty (idle, chan receive);
//   - tickLoop: a time.Ticker (1 s) counting heartbeats;
//   - waitForSignal: waits on the channel given to signal.Notify (SIGTERM,
//     SIGINT), which also starts the runtime's os/signal loop;
//   - 3 refreshers, each refreshing every 30 s (mostly in time.Sleep);
//   - main waits on a sync.WaitGroup counting the server, the ticker and
//     the refreshers.
//
// clients (a separate process, so that its goroutines are not in the
// service's dumps) runs n clients, each with its own keep-alive connection,
// sending GET /api/work every period; their starts are spread over one
// period, so that about n*100ms/period handlers are busy at any time
// (2-3 for 6 clients every 250 ms) and the other connections wait for their
// next request.
package main

import (
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		log.Fatal("usage: healthy serve|clients [flags]")
	}
	var err error
	switch os.Args[1] {
	case "serve":
		err = serve(os.Args[2:])
	case "clients":
		err = clients(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		log.Fatal(err)
	}
}

var served atomic.Int64

// handleWork does 100 ms of work.
func handleWork(w http.ResponseWriter, r *http.Request) {
	time.Sleep(100 * time.Millisecond)
	served.Add(1)
	fmt.Fprintln(w, "ok")
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

// tickLoop counts heartbeats until stop is closed.
func tickLoop(wg *sync.WaitGroup, stop <-chan struct{}) {
	defer wg.Done()
	t := time.NewTicker(time.Second)
	defer t.Stop()
	var beats int
	for {
		select {
		case <-t.C:
			beats++
		case <-stop:
			return
		}
	}
}

// refresher refreshes its cache every 30 s until stop is closed.
func refresher(wg *sync.WaitGroup, stop <-chan struct{}, name string) {
	defer wg.Done()
	for {
		time.Sleep(30 * time.Second)
		select {
		case <-stop:
			return
		default:
		}
		_ = name // the refresh itself is cheap
	}
}

// waitForSignal closes stop and shuts srv down on SIGTERM or SIGINT.
func waitForSignal(sigs <-chan os.Signal, stop chan<- struct{}, srv *http.Server) {
	s := <-sigs
	log.Printf("healthy: %v, stopping", s)
	close(stop)
	srv.Close()
}

func serve(args []string) error {
	if len(args) != 2 || args[0] != "-addr-file" {
		return errors.New("usage: healthy serve -addr-file FILE")
	}
	jobs := make(chan job)
	startWorkers(8, jobs)

	http.HandleFunc("GET /api/work", handleWork)
	srv := &http.Server{}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}

	var wg sync.WaitGroup
	stop := make(chan struct{})
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, os.Interrupt)
	go waitForSignal(sigs, stop, srv)

	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			log.Print(err)
		}
	}()
	wg.Add(1)
	go tickLoop(&wg, stop)
	for _, name := range []string{"prices", "stock", "config"} {
		wg.Add(1)
		go refresher(&wg, stop, name)
	}
	if err := os.WriteFile(args[1], []byte(ln.Addr().String()+"\n"), 0o644); err != nil {
		return err
	}
	wg.Wait()
	log.Printf("healthy: served %d requests", served.Load())
	return nil
}

// clients runs n keep-alive clients until killed.
func clients(args []string) error {
	base, n, period := "", 6, 250*time.Millisecond
	for i := 0; i+1 < len(args); i += 2 {
		var err error
		switch args[i] {
		case "-base":
			base = args[i+1]
		case "-n":
			_, err = fmt.Sscan(args[i+1], &n)
		case "-period":
			period, err = time.ParseDuration(args[i+1])
		default:
			err = fmt.Errorf("unknown flag %s", args[i])
		}
		if err != nil {
			return err
		}
	}
	if base == "" || n <= 0 || period <= 0 {
		return errors.New("usage: healthy clients -base URL [-n N] [-period D]")
	}
	var failed atomic.Int64
	for i := 0; i < n; i++ {
		// One transport per client: one connection each, kept alive.
		c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}, Timeout: 5 * time.Second}
		go func() {
			time.Sleep(time.Duration(i) * period / time.Duration(n))
			t := time.NewTicker(period)
			for range t.C {
				resp, err := c.Get(base + "/api/work")
				if err != nil {
					failed.Add(1)
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					failed.Add(1)
				}
			}
		}()
	}
	for range time.Tick(10 * time.Second) {
		if f := failed.Load(); f > 0 {
			log.Printf("clients: %d requests failed", f)
		}
	}
	return nil
}
