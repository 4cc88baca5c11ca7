// Command gohttpleak runs the standard library's HTTP client against a
// keep-alive server in the same process, on 127.0.0.1, and writes its own
// goroutine dumps (pprof debug=2) at the given moments: a second, independent
// source for the one-dump Go leak rule (issue 33; the fixtures
// testdata/verdicts/src2-go-httpleak and src2-go-httpidle-healthy).
//
//	-mode leak     callers never read nor close resp.Body: every call keeps
//	               its connection busy, the Transport dials a new one, and
//	               each connection's readLoop waits for the body for ever.
//	-mode healthy  callers read the body to EOF and close it; every
//	               connection stays idle in the Transport's pool.
package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"time"
)

func main() {
	mode := flag.String("mode", "leak", "leak or healthy")
	out := flag.String("out", ".", "directory for the dumps")
	calls := flag.Int("calls", 2000, "calls in all")
	callers := flag.Int("callers", 40, "goroutines making the calls")
	at := flag.String("at", "3,6,9", "seconds after start of each debug=2 dump")
	flag.Parse()
	start := time.Now()

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	go http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "ok\n")
	}))
	url := fmt.Sprintf("http://%s/quote", ln.Addr())

	tr := &http.Transport{MaxIdleConns: 4000, MaxIdleConnsPerHost: 4000}
	client := &http.Client{Transport: tr}
	var wg sync.WaitGroup
	per := *calls / *callers
	for c := 0; c < *callers; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Each caller starts its calls together with the others, so
			// that the healthy mode too holds many connections at once.
			for i := 0; i < per; i++ {
				resp, err := client.Get(url)
				if err != nil {
					fmt.Fprintln(os.Stderr, err)
					continue
				}
				if *mode == "healthy" {
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
				// leak: resp.Body is dropped unread and unclosed.
			}
		}()
	}
	if *mode == "healthy" {
		// Many connections at once for the healthy pool too: the callers
		// above share connections as they free them, so open the rest in
		// parallel, each call on its own goroutine, read and closed.
		var burst sync.WaitGroup
		for i := 0; i < *calls; i++ {
			burst.Add(1)
			go func() {
				defer burst.Done()
				if resp, err := client.Get(url); err == nil {
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
			}()
		}
		burst.Wait()
	}
	wg.Wait()
	fmt.Println("ready")
	for i, s := range strings.Split(*at, ",") {
		sec, _ := strconv.ParseFloat(s, 64)
		time.Sleep(time.Until(start.Add(time.Duration(sec * float64(time.Second)))))
		f, err := os.Create(filepath.Join(*out, strconv.Itoa(i+1)+".txt"))
		if err != nil {
			panic(err)
		}
		pprof.Lookup("goroutine").WriteTo(f, 2)
		f.Close()
	}
}
