// Command goshapes runs one shape of goroutines per mode, for dumpdiff's
// rules that read a leak or a wait nobody serves from the stacks' structure
// (issue 33). It serves net/http/pprof on 127.0.0.1 (the address written
// to -addr-file) and keeps a load going in the same process, so that
// goroutine dumps fetched with curl at several moments see it grow or
// stay.
//
//	-mode sleep-spawn    a handler starts a goroutine per request that
//	                     sleeps an hour before it logs (a "fire and forget"
//	                     reminder): 1,500 requests per second of load, so
//	                     thousands of goroutines sleep in time.Sleep, made
//	                     by main.remindHandler, growing.
//	-mode sleep-slow     healthy twin: a slow endpoint under load, 400
//	                     requests in flight each sleeping 200-600 ms in its
//	                     handler (the server connection's own goroutine),
//	                     and 40 pollers started by main sleeping in a loop.
//	-mode body-leak      an HTTP client that never closes its responses'
//	                     bodies: each request leaves its connection's
//	                     persistConn readLoop waiting for the body to be
//	                     read and its writeLoop idle, beside the server's
//	                     conn.serve of the same connection (this process
//	                     is both); 700 requests per moment, growing.
//	-mode body-stream    healthy twin: a proxy streaming 600 upstream
//	                     bodies at once (each read by its own goroutine
//	                     with io.Copy, the server writing a chunk every
//	                     100 ms for 0.5-1.5 s, then the next stream), and
//	                     200 idle keep-alive connections
//	                     whose bodies were read and closed.
//	-mode wg-exited      main waits on a sync.WaitGroup of 8 workers; 2 of
//	                     them return on an error path before Done: the
//	                     counter never reaches zero, no worker is left.
//	-mode wg-blocked     main waits on a WaitGroup of 8 workers, each
//	                     sending its result on an unbuffered channel that
//	                     main reads only after Wait: all 8 wait in chan
//	                     send, main in Wait, for ever.
//	-mode wg-busy        healthy twin: main waits on a WaitGroup of 8
//	                     workers that compute and sleep in turn for 60 s.
//	-mode subscribers    healthy: a broker whose Subscribe starts one
//	                     goroutine per subscriber, each in a select on its
//	                     own channel and the broker's quit channel; 50
//	                     subscribers, a publisher sending every 50 ms; the
//	                     number does not grow.
//
// Written for dumpdiff's testdata; stdlib only, builds with Go 1.13 too.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/ioutil"
	"log"
	"math/rand"
	"net"
	"net/http"
	_ "net/http/pprof"
	"strconv"
	"sync"
	"time"
)

var sink int

// remindHandler answers at once and leaves a goroutine that sleeps an hour.
func remindHandler(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("id")
	go func() {
		time.Sleep(time.Hour)
		log.Printf("reminder %s", id)
	}()
	fmt.Fprintln(w, "ok")
}

// slowHandler sleeps 200-600 ms inside the request: the request is in
// flight meanwhile.
func slowHandler(w http.ResponseWriter, r *http.Request) {
	time.Sleep(time.Duration(200+rand.Intn(400)) * time.Millisecond)
	fmt.Fprintln(w, "slow")
}

// streamHandler writes a chunk every 100 ms for about a second.
func streamHandler(w http.ResponseWriter, r *http.Request) {
	f, _ := w.(http.Flusher)
	for i := 0; i < 5+rand.Intn(10); i++ {
		fmt.Fprintf(w, "chunk %d\n", i)
		if f != nil {
			f.Flush()
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func okHandler(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "ok") }

// load sends n requests to url, conc at a time, on client c; each answer
// is passed to use.
func load(c *http.Client, url string, n, conc int, use func(*http.Response)) {
	sem := make(chan struct{}, conc)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		sem <- struct{}{}
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			defer func() { <-sem }()
			resp, err := c.Get(url + "?id=" + strconv.Itoa(i))
			if err == nil {
				use(resp)
			}
		}(i)
	}
	wg.Wait()
}

func readClose(resp *http.Response) {
	io.Copy(ioutil.Discard, resp.Body)
	resp.Body.Close()
}

// fetchStatus reads the status and forgets the body: it is never closed.
func fetchStatus(resp *http.Response) { sink += resp.StatusCode }

// proxyStream copies an upstream body to its downstream (here, discarded).
func proxyStream(resp *http.Response) {
	io.Copy(ioutil.Discard, resp.Body)
	resp.Body.Close()
}

var errBadInput = errors.New("bad input")

// work computes for job j; jobs 3 and 5 fail.
func work(j int) (int, error) {
	if j == 3 || j == 5 {
		return 0, errBadInput
	}
	time.Sleep(10 * time.Millisecond)
	return j * j, nil
}

// runBatchLosingDone: a worker that fails returns before its Done.
func runBatchLosingDone() {
	var wg sync.WaitGroup
	var mu sync.Mutex
	total := 0
	for j := 0; j < 8; j++ {
		wg.Add(1)
		go func(j int) {
			v, err := work(j)
			if err != nil {
				return // the bug: wg.Done is not called on this path
			}
			mu.Lock()
			total += v
			mu.Unlock()
			wg.Done()
		}(j)
	}
	wg.Wait()
	log.Println("total", total)
}

// runBatchUnreadResults: results are read only after Wait, on an
// unbuffered channel.
func runBatchUnreadResults() {
	var wg sync.WaitGroup
	results := make(chan int)
	for j := 0; j < 8; j++ {
		wg.Add(1)
		go func(j int) {
			defer wg.Done()
			v, _ := work(j + 10)
			results <- v
		}(j)
	}
	wg.Wait()
	close(results)
	for v := range results {
		sink += v
	}
}

// runBatchBusy: workers compute and sleep for a minute, then Done.
func runBatchBusy() {
	var wg sync.WaitGroup
	for j := 0; j < 8; j++ {
		wg.Add(1)
		go func(j int) {
			defer wg.Done()
			end := time.Now().Add(60 * time.Second)
			for time.Now().Before(end) {
				for i := 0; i < 2000000; i++ {
					sink += i ^ j
				}
				time.Sleep(20 * time.Millisecond)
			}
		}(j)
	}
	wg.Wait()
}

// broker fans each message out to its subscribers.
type broker struct {
	mu   sync.Mutex
	subs []chan string
	quit chan struct{}
}

// Subscribe starts the subscriber's goroutine, which handles its messages
// until the broker quits.
func (b *broker) Subscribe(name string) {
	ch := make(chan string, 1)
	b.mu.Lock()
	b.subs = append(b.subs, ch)
	b.mu.Unlock()
	go func() {
		for {
			select {
			case m := <-ch:
				sink += len(m) + len(name)
			case <-b.quit:
				return
			}
		}
	}()
}

func (b *broker) Publish(m string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, ch := range b.subs {
		select {
		case ch <- m:
		default:
		}
	}
}

func main() {
	mode := flag.String("mode", "sleep-spawn", "see the package comment")
	addrFile := flag.String("addr-file", "", "file to write the pprof address to")
	flag.Parse()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	http.HandleFunc("/remind", remindHandler)
	http.HandleFunc("/slow", slowHandler)
	http.HandleFunc("/stream", streamHandler)
	http.HandleFunc("/ok", okHandler)
	go http.Serve(ln, nil)
	base := "http://" + ln.Addr().String()
	if *addrFile != "" {
		if err := ioutil.WriteFile(*addrFile+".tmp", []byte(ln.Addr().String()), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	ready := func() {
		if *addrFile != "" {
			// os.Rename by hand: the pprof address appears once the shape is there.
			b, _ := ioutil.ReadFile(*addrFile + ".tmp")
			ioutil.WriteFile(*addrFile, b, 0o644)
		}
	}
	switch *mode {
	case "sleep-spawn":
		c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 20}}
		load(c, base+"/remind", 1500, 20, readClose)
		ready()
		for {
			time.Sleep(time.Second)
			load(c, base+"/remind", 500, 20, readClose)
		}
	case "sleep-slow":
		for i := 0; i < 40; i++ {
			go func(i int) {
				for {
					time.Sleep(time.Duration(200+i) * time.Millisecond)
					sink++
				}
			}(i)
		}
		c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 400}}
		go load(c, base+"/slow", 1000000, 400, readClose)
		time.Sleep(2 * time.Second)
		ready()
	case "body-leak":
		c := &http.Client{Transport: &http.Transport{}}
		load(c, base+"/ok", 700, 20, fetchStatus)
		ready()
		for i := 0; i < 2; i++ {
			time.Sleep(3 * time.Second)
			load(c, base+"/ok", 700, 20, fetchStatus)
		}
	case "body-stream":
		c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 200}}
		load(c, base+"/ok", 200, 200, readClose) // 200 idle keep-alive connections after this
		go load(c, base+"/stream", 1000000, 600, proxyStream)
		time.Sleep(2 * time.Second)
		ready()
	case "wg-exited":
		ready()
		runBatchLosingDone()
	case "wg-blocked":
		ready()
		runBatchUnreadResults()
	case "wg-busy":
		ready()
		runBatchBusy()
	case "subscribers":
		b := &broker{quit: make(chan struct{})}
		for i := 0; i < 50; i++ {
			b.Subscribe("sub-" + strconv.Itoa(i))
		}
		go func() {
			for i := 0; ; i++ {
				time.Sleep(50 * time.Millisecond)
				b.Publish("m" + strconv.Itoa(i))
			}
		}()
		ready()
	default:
		log.Fatalf("unknown mode %q", *mode)
	}
	select {}
}
