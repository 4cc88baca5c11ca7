// Command mutex is the program of testdata/verdicts/go-mutex-contention: one
// goroutine takes a mutex and, while holding it, blocks on a read from a TCP
// peer that never answers; every other caller queues on the mutex.
//
//	mutex -addr-file F
//
// What it runs, all on 127.0.0.1:
//
//   - silentUpstream: a TCP listener that accepts connections and never reads
//     or writes on them.
//   - a store (type store struct{ mu sync.Mutex ... }); startUpdaters starts 41
//     goroutines calling (*store).update, which locks s.mu and then calls
//     (*store).fetchUpstream: a dial to silentUpstream and a Read with no
//     deadline. The first to lock s.mu blocks in that Read for ever (IO wait),
//     holding s.mu; the other 40 wait in sync.(*Mutex).Lock.
//   - a second mutex, other: holdOther locks it and waits on a channel nobody
//     sends on; 2 useOther goroutines wait in sync.(*Mutex).Lock on it.
//   - net/http/pprof on http.DefaultServeMux, served by main (idle in Accept).
//
// The address of the pprof server is written to F once everything is started.
package main

import (
	"fmt"
	"log"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
	"sync"
)

// store caches values fetched from the upstream. mu guards items, and update
// holds it across the upstream call: that is the fault.
type store struct {
	mu       sync.Mutex
	upstream string
	items    map[string]string
}

// update refreshes one key while holding s.mu.
func (s *store) update(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, err := s.fetchUpstream(key)
	if err != nil {
		log.Printf("update %s: %v", key, err)
		return
	}
	s.items[key] = v
}

// fetchUpstream asks the upstream for key and reads its answer, with no
// deadline: the upstream never answers, so the Read blocks for ever.
func (s *store) fetchUpstream(key string) (string, error) {
	c, err := net.Dial("tcp", s.upstream)
	if err != nil {
		return "", err
	}
	defer c.Close()
	if _, err := fmt.Fprintf(c, "GET %s\n", key); err != nil {
		return "", err
	}
	buf := make([]byte, 512)
	n, err := c.Read(buf)
	return string(buf[:n]), err
}

// startUpdaters starts n goroutines, each updating one key.
func startUpdaters(s *store, n int) {
	for i := 0; i < n; i++ {
		go s.update(fmt.Sprintf("item-%d", i))
	}
}

// silentUpstream accepts connections and keeps them open without ever
// reading or writing.
func silentUpstream(ln net.Listener) {
	var conns []net.Conn
	for {
		c, err := ln.Accept()
		if err != nil {
			log.Print(err)
			return
		}
		conns = append(conns, c)
	}
}

// holdOther locks mu, tells locked, and keeps mu until release is closed
// (never).
func holdOther(mu *sync.Mutex, locked chan<- struct{}, release <-chan struct{}) {
	mu.Lock()
	defer mu.Unlock()
	close(locked)
	<-release
}

// useOther waits for mu.
func useOther(mu *sync.Mutex, n *int) {
	mu.Lock()
	defer mu.Unlock()
	*n++
}

func main() {
	if len(os.Args) != 3 || os.Args[1] != "-addr-file" {
		log.Fatal("usage: mutex -addr-file FILE")
	}
	upLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	go silentUpstream(upLn)

	s := &store{upstream: upLn.Addr().String(), items: map[string]string{}}
	startUpdaters(s, 41)

	other := new(sync.Mutex)
	locked, release := make(chan struct{}), make(chan struct{})
	go holdOther(other, locked, release)
	<-locked
	var uses int
	for i := 0; i < 2; i++ {
		go useOther(other, &uses)
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	// Printed so that a dump can be matched to the two mutexes.
	fmt.Fprintf(os.Stderr, "mutex: s.mu at %p, other at %p, pprof on %s\n", &s.mu, other, ln.Addr())
	if err := os.WriteFile(os.Args[2], []byte(ln.Addr().String()+"\n"), 0o644); err != nil {
		log.Fatal(err)
	}
	log.Fatal(http.Serve(ln, nil))
}
