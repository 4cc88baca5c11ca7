// Command gotrace runs one stall scenario under runtime/trace's flight
// recorder and writes, for testdata/gotrace/, the recorder's snapshot
// (flight.trace) and a goroutine dump at each second of the same run
// (debug2/moment-N.txt, with the proto of the same moment beside it), so that the moments of the trace can be checked
// against dumps of the same moments.
//
// Scenarios (the expected verdicts are in testdata/gotrace/README.md,
// written from this program before dumpdiff read its output):
//
//	leak     a handler-like function starts a goroutine per request that
//	         sends its result on an unbuffered channel nobody reads after a
//	         timeout: 20 more goroutines every second in chan send at
//	         main.fetch.func1, never released.
//	mutex    (*cache).refresh holds the cache's mutex across a call to an
//	         upstream that never answers (a TCP read on 127.0.0.1 with no
//	         deadline); 30 requests wait in (*cache).get for the mutex.
//	pool     a pool of 8 workers all in a read from an upstream that never
//	         answers; 40 requests wait in chan send to hand their job to
//	         the pool.
//	healthy  a busy service: 16 workers take jobs from a channel and do
//	         short CPU work and short sleeps; a producer feeds them; an
//	         accept loop waits for connections. Nothing is stuck.
//
// Under Go 1.25+ the trace is the flight recorder's snapshot
// (recorder_flight.go); under older Go (old/, a module of Go 1.22's) it is
// the whole execution trace of the run, runtime/trace.Start to Stop
// (recorder_start.go): the formats of Go 1.22 and 1.23.
//
// Usage: gotrace -scenario NAME -out DIR   (takes about 6 s)
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sync"
	"time"
)

func main() {
	scenario := flag.String("scenario", "leak", "leak, mutex, pool or healthy")
	out := flag.String("out", ".", "directory for flight.trace and debug2/")
	seconds := flag.Int("seconds", 5, "how long the scenario runs before the snapshot")
	flag.Parse()

	if err := os.MkdirAll(filepath.Join(*out, "debug2"), 0o755); err != nil {
		log.Fatal(err)
	}
	rec := startRecorder(filepath.Join(*out, "flight.trace"))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	go silentUpstream(ln)

	switch *scenario {
	case "leak":
		go leak()
	case "mutex":
		c := &cache{upstream: ln.Addr().String()}
		go c.refresh()
		time.Sleep(50 * time.Millisecond)
		for i := 0; i < 30; i++ {
			go c.get("k")
		}
	case "pool":
		jobs := make(chan string)
		for i := 0; i < 8; i++ {
			go worker(jobs, ln.Addr().String())
		}
		for i := 0; i < 40; i++ {
			go submit(jobs, fmt.Sprint("job-", i))
		}
	case "healthy":
		busy()
	default:
		log.Fatalf("unknown scenario %q", *scenario)
	}

	for i := 1; i <= *seconds; i++ {
		time.Sleep(time.Second)
		writeDump(filepath.Join(*out, "debug2", fmt.Sprintf("moment-%d", i)))
	}
	rec.stop()
}

// writeDump writes the goroutine profile as debug=2 text (stem.txt) and,
// beside it, as the proto (stem.pb.gz), whose time stamps the moment.
func writeDump(stem string) {
	for _, w := range []struct {
		ext   string
		debug int
	}{{".pb.gz", 0}, {".txt", 2}} {
		f, err := os.Create(stem + w.ext)
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.Lookup("goroutine").WriteTo(f, w.debug); err != nil {
			log.Fatal(err)
		}
		if err := f.Close(); err != nil {
			log.Fatal(err)
		}
	}
}

// silentUpstream accepts connections and never answers them.
func silentUpstream(ln net.Listener) {
	var held []net.Conn
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		held = append(held, c)
	}
}

// callUpstream writes a request and reads the reply, with no deadline.
func callUpstream(addr string) string {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return ""
	}
	fmt.Fprintf(c, "GET\n")
	buf := make([]byte, 64)
	n, _ := c.Read(buf)
	return string(buf[:n])
}

// leak starts 20 requests a second; each leaves a goroutine behind.
func leak() {
	for {
		for i := 0; i < 20; i++ {
			go fetch(i)
		}
		time.Sleep(time.Second)
	}
}

// fetch gives up after 1 ms, and the goroutine it started, 5 ms later,
// stays in its send forever: nobody reads results after the timeout.
func fetch(i int) string {
	results := make(chan string)
	go func() {
		time.Sleep(5 * time.Millisecond) // slower than the caller waits
		results <- fmt.Sprint("result ", i)
	}()
	select {
	case r := <-results:
		return r
	case <-time.After(time.Millisecond):
		return ""
	}
}

type cache struct {
	mu       sync.Mutex
	upstream string
	data     map[string]string
}

// refresh holds the mutex across the upstream call.
func (c *cache) refresh() {
	c.mu.Lock()
	defer c.mu.Unlock()
	v := callUpstream(c.upstream)
	c.data = map[string]string{"k": v}
}

func (c *cache) get(k string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.data[k]
}

func worker(jobs <-chan string, upstream string) {
	for j := range jobs {
		_ = callUpstream(upstream)
		_ = j
	}
}

func submit(jobs chan<- string, j string) { jobs <- j }

// busy runs a healthy service: a producer, 16 workers, an accept loop.
func busy() {
	jobs := make(chan int, 64)
	go func() {
		for i := 0; ; i++ {
			jobs <- i
			time.Sleep(200 * time.Microsecond)
		}
	}()
	for w := 0; w < 16; w++ {
		go func() {
			for j := range jobs {
				work(j)
			}
		}()
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
}

// work spins for about 100 µs and sleeps for 1 ms.
func work(j int) int {
	s := j
	deadline := time.Now().Add(100 * time.Microsecond)
	for time.Now().Before(deadline) {
		s = s*31 + 7
	}
	time.Sleep(time.Millisecond)
	return s
}
