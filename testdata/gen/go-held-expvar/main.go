// go-held-expvar: a Go service serving expvar and net/http/pprof on
// 127.0.0.1 (it prints its address), whose sessions are published as
// expvar variables as they open, and whose reporter walks the published
// variables with expvar.Do. Two package-level mutexes, neither named by
// any frame's arguments: the application's sessionsMu, and expvar's own
// read-write lock over its keys (taken by expvar.Publish to write, held
// for reading by expvar.Do while it calls its function for each
// variable).
//
// abba: the registrar opens a session holding sessionsMu and, still
// holding it, publishes the session's gauge (expvar.Publish: the keys'
// write lock); the reporter's function, called by expvar.Do under the
// keys' read lock, takes sessionsMu to read the session's state. Within
// moments one holds each lock and waits for the other's, for ever.
//
// healthy: the registrar publishes after it lets sessionsMu go; the rest
// is the same.
package main

import (
	"expvar"
	"flag"
	"fmt"
	"net"
	"net/http"
	_ "net/http/pprof"
	"strings"
	"sync"
	"time"
)

var (
	sessionsMu sync.Mutex
	sessions   = map[string]int{}
)

// openSession registers a session and publishes its gauge.
func openSession(id int, healthy bool) {
	name := fmt.Sprintf("session_%d", id)
	g := new(expvar.Int)
	sessionsMu.Lock()
	sessions[name] = id
	time.Sleep(2 * time.Millisecond) // handshake bookkeeping under the lock
	if !healthy {
		expvar.Publish(name, g)
		sessionsMu.Unlock()
		return
	}
	sessionsMu.Unlock()
	expvar.Publish(name, g)
}

func registrar(healthy bool) {
	for id := 0; ; id++ {
		openSession(id, healthy)
		time.Sleep(5 * time.Millisecond)
	}
}

// report reads each published session's state for the periodic report.
func report() int {
	open := 0
	expvar.Do(func(kv expvar.KeyValue) {
		if !strings.HasPrefix(kv.Key, "session_") {
			return
		}
		sessionsMu.Lock()
		if _, ok := sessions[kv.Key]; ok {
			open++
		}
		sessionsMu.Unlock()
	})
	return open
}

func reporter() {
	for {
		_ = report()
		time.Sleep(3 * time.Millisecond)
	}
}

func main() {
	mode := flag.String("mode", "abba", "abba or healthy")
	flag.Parse()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	fmt.Println(ln.Addr().String())
	healthy := *mode == "healthy"
	go registrar(healthy)
	go reporter()
	panic(http.Serve(ln, nil))
}
