// livesets: goroutines kept per live object, healthy and leaking. One
// program, the scenario its first argument:
//
//	sessions   150 sessions, a goroutine each in a select on its own
//	           channels, alive until the session ends (none does here)
//	subscribers 50 subscribers of a broker, each ranging over its
//	           channel; /publish sends to every one (they wake, receive,
//	           and rest again); /publish?dump=2 writes the goroutine
//	           profile right after sending
//	subscribe-leak a subscriber per /subscribe request, never removed:
//	           the set grows with the requests
//
// It serves net/http/pprof and /publish, /subscribe on 127.0.0.1 (the
// address written to -addr-file).
package main

import (
	"flag"
	"io/ioutil"
	"net"
	"net/http"
	_ "net/http/pprof"
	"runtime/pprof"
	"sync"
)

type broker struct {
	mu   sync.Mutex
	subs []chan string
}

func (b *broker) subscribe() chan string {
	ch := make(chan string, 8)
	b.mu.Lock()
	b.subs = append(b.subs, ch)
	b.mu.Unlock()
	go func() {
		for m := range ch {
			_ = m
		}
	}()
	return ch
}

func (b *broker) publish(m string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, ch := range b.subs {
		select {
		case ch <- m:
		default:
		}
	}
}

type session struct {
	in   chan []byte
	quit chan struct{}
}

func (s *session) serve() {
	for {
		select {
		case m := <-s.in:
			_ = m
		case <-s.quit:
			return
		}
	}
}

func main() {
	addrFile := flag.String("addr-file", "", "write the listen address here")
	flag.Parse()
	b := &broker{}
	switch flag.Arg(0) {
	case "sessions":
		for i := 0; i < 150; i++ {
			s := &session{in: make(chan []byte), quit: make(chan struct{})}
			go s.serve()
		}
	case "subscribers":
		for i := 0; i < 50; i++ {
			b.subscribe()
		}
	}
	http.HandleFunc("/publish", func(w http.ResponseWriter, r *http.Request) {
		b.publish("tick")
		// ?dump=N: the goroutine profile right after the publish, as a
		// debug hook would write it: the subscribers woken, not yet run.
		if d := r.URL.Query().Get("dump"); d != "" {
			pprof.Lookup("goroutine").WriteTo(w, map[string]int{"1": 1, "2": 2}[d])
		}
	})
	http.HandleFunc("/subscribe", func(w http.ResponseWriter, r *http.Request) { b.subscribe() })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	if err := ioutil.WriteFile(*addrFile, []byte(ln.Addr().String()), 0o644); err != nil {
		panic(err)
	}
	http.Serve(ln, nil)
}
