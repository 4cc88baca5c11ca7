// Command pool runs a fixed pool of 8 fetch workers that call an HTTP
// upstream with net/http's client (no timeout) and writes its own debug=2
// goroutine dumps at 10, 15 and 20 s.
//
// stuck: the upstream (an http.Server on 127.0.0.1, in the same process)
// answers after 10 minutes; 8 jobs are queued at once: all 8 workers wait
// in the client's round trip for its reply.
//
// healthy: the upstream answers in 5 ms; a job every 200 ms: the workers
// are idle on their job channel nearly always.
package main

import (
	"flag"
	"fmt"
	"io"
	"io/ioutil"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/pprof"
	"time"
)

type fetcher struct {
	client *http.Client
	url    string
	jobs   chan int
}

func (f *fetcher) worker() {
	for j := range f.jobs {
		f.fetch(j)
	}
}

func (f *fetcher) fetch(j int) {
	resp, err := f.client.Get(fmt.Sprintf("%s/item/%d", f.url, j))
	if err != nil {
		return
	}
	io.Copy(ioutil.Discard, resp.Body)
	resp.Body.Close()
}

func upstream(delay time.Duration) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	go http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(delay)
		io.WriteString(w, "ok")
	}))
	return "http://" + ln.Addr().String()
}

func main() {
	mode := flag.String("mode", "stuck", "stuck or healthy")
	out := flag.String("out", ".", "folder for the dumps")
	flag.Parse()
	delay := 10 * time.Minute
	if *mode == "healthy" {
		delay = 5 * time.Millisecond
	}
	f := &fetcher{client: &http.Client{}, url: upstream(delay), jobs: make(chan int)}
	for i := 0; i < 8; i++ {
		go f.worker()
	}
	go func() {
		for j := 0; ; j++ {
			f.jobs <- j
			if *mode == "healthy" {
				time.Sleep(200 * time.Millisecond)
			}
		}
	}()
	time.Sleep(10 * time.Second)
	for i := 1; i <= 3; i++ {
		w, err := os.Create(filepath.Join(*out, fmt.Sprintf("%d.txt", i)))
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.Lookup("goroutine").WriteTo(w, 2); err != nil {
			log.Fatal(err)
		}
		w.Close()
		if i < 3 {
			time.Sleep(5 * time.Second)
		}
	}
}
