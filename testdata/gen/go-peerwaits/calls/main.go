// Command calls waits on request/response clients of the standard library
// whose wait is a select or a receive, not a read: net/http's HTTP/2 client
// (TLS, ALPN h2) and net/rpc. It writes its own debug=2 goroutine dumps at
// 75, 80 and 85 s.
//
// stuck: 3 sync jobs (main.(*syncer).run → pull) each wait for an HTTP/2
// response from an upstream whose handler never answers; 2 refreshers
// (main.refresh) each wait in net/rpc's Client.Call for a method that
// never returns. No deadline anywhere.
//
// healthy: the same clients, every call answered at once, one call a
// second: the HTTP/2 connection's reader and net/rpc's input loop rest
// between replies, the callers sleep between calls.
package main

import (
	"flag"
	"fmt"
	"io"
	"io/ioutil"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/rpc"
	"os"
	"path/filepath"
	"runtime/pprof"
	"time"
)

// Store is the net/rpc service.
type Store struct{ block bool }

// Get answers at once, or never when the store blocks.
func (s *Store) Get(key string, reply *string) error {
	if s.block {
		select {}
	}
	*reply = "value of " + key
	return nil
}

type syncer struct {
	client *http.Client
	url    string
}

func (s *syncer) run() {
	for {
		if err := s.pull(); err != nil {
			return
		}
		time.Sleep(time.Second)
	}
}

func (s *syncer) pull() error {
	resp, err := s.client.Get(s.url)
	if err != nil {
		return err
	}
	io.Copy(ioutil.Discard, resp.Body)
	return resp.Body.Close()
}

func refresh(c *rpc.Client, key string) {
	for {
		var v string
		if err := c.Call("Store.Get", key, &v); err != nil {
			return
		}
		time.Sleep(time.Second)
	}
}

func housekeeping() {
	var keep [][]byte
	t := time.NewTicker(100 * time.Millisecond)
	for range t.C {
		keep = append(keep, make([]byte, 256<<10))
		if len(keep) > 8 {
			keep = keep[1:]
		}
	}
}

func main() {
	mode := flag.String("mode", "stuck", "stuck or healthy")
	out := flag.String("out", ".", "folder for the dumps")
	first := flag.Duration("first", 75*time.Second, "when the first dump is written")
	flag.Parse()
	block := *mode == "stuck"
	go housekeeping()

	up := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if block {
			select {}
		}
		io.WriteString(w, "ok")
	}))
	up.EnableHTTP2 = true
	up.StartTLS()
	hc := up.Client()
	for i := 0; i < 3; i++ {
		go (&syncer{client: hc, url: up.URL + "/items"}).run()
	}

	srv := rpc.NewServer()
	if err := srv.Register(&Store{block: block}); err != nil {
		log.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	go srv.Accept(ln)
	rc, err := rpc.Dial("tcp", ln.Addr().String())
	if err != nil {
		log.Fatal(err)
	}
	for _, k := range []string{"users", "orders"} {
		go refresh(rc, k)
	}

	time.Sleep(*first)
	for i := 1; i <= 3; i++ {
		f, err := os.Create(filepath.Join(*out, fmt.Sprintf("%d.txt", i)))
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.Lookup("goroutine").WriteTo(f, 2); err != nil {
			log.Fatal(err)
		}
		f.Close()
		if i < 3 {
			time.Sleep(5 * time.Second)
		}
	}
}
