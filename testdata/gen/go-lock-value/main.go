// go-lock-value: a Go service with three values of one type, each guarded
// by its own sync.Mutex, whose holders are told only by the value the
// goroutines' methods run on (debug=2 prints each method's receiver). It
// writes its own debug=2 goroutine dumps (the runtime prints a wait of a
// minute or more as "N minutes": the first is taken at 65 s).
//
// stuck:
//   - orders.mu is held by (*store).compact, which sleeps under it in
//     (*store).pause for 10 minutes; two lookups wait in (*store).get;
//   - users.mu is held by (*store).pull, reading from an upstream on
//     127.0.0.1 that accepts and never answers (no deadline); a writer
//     waits in (*store).put and a lookup in (*store).get;
//   - audit is healthy: 4 workers take its lock briefly, 2 ms apart, and
//     (*store).watch rests in a select on it, holding nothing.
//
// healthy: the same goroutines, but compact sleeps 1 ms under the lock
// and the upstream answers at once: every lock passes from hand to hand.
//
// Built by Go 1.26 and by Go 1.13 (no module features, no generics).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sync"
	"time"
)

type store struct {
	name string
	mu   sync.Mutex
	data map[string]string
	tick chan struct{}
}

func newStore(name string) *store {
	return &store{name: name, data: map[string]string{}, tick: make(chan struct{})}
}

func (s *store) get(k string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.data[k]
}

func (s *store) put(k, v string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.data[k] = v
}

// compact holds the lock across a pause.
func (s *store) compact(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pause(d)
}

func (s *store) pause(d time.Duration) { time.Sleep(d) }

// pull holds the lock across a read from the upstream (no deadline).
func (s *store) pull(addr string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		panic(err)
	}
	defer conn.Close()
	fmt.Fprintln(conn, "GET /users")
	line, _ := bufio.NewReader(conn).ReadString('\n')
	s.data["users"] = line
}

// watch rests on the store's tick, holding nothing.
func (s *store) watch(stop chan struct{}) {
	for {
		select {
		case <-s.tick:
		case <-stop:
			return
		}
	}
}

// upstream accepts and answers at once (answer) or never.
func upstream(answer bool) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func(c net.Conn) {
				r := bufio.NewReader(c)
				for {
					if _, err := r.ReadString('\n'); err != nil {
						return
					}
					if answer {
						fmt.Fprintln(c, "ok")
					}
				}
			}(c)
		}
	}()
	return l.Addr().String()
}

func main() {
	mode := flag.String("mode", "stuck", "stuck or healthy")
	out := flag.String("out", ".", "folder for 1.txt, 2.txt, 3.txt")
	at := flag.String("at", "65s,70s,75s", "when to write the dumps")
	flag.Parse()
	stuck := *mode == "stuck"
	orders, users, audit := newStore("orders"), newStore("users"), newStore("audit")
	addr := upstream(!stuck)
	stop := make(chan struct{})

	pauseFor := time.Millisecond
	if stuck {
		pauseFor = 10 * time.Minute
	}
	go func() {
		for {
			orders.compact(pauseFor)
			time.Sleep(2 * time.Millisecond)
		}
	}()
	go func() {
		for {
			users.pull(addr)
			time.Sleep(2 * time.Millisecond)
		}
	}()
	time.Sleep(100 * time.Millisecond) // the holders first
	for i := 0; i < 2; i++ {
		go func() {
			for {
				orders.get("o")
				time.Sleep(2 * time.Millisecond)
			}
		}()
	}
	go func() {
		for {
			users.put("u", "v")
			time.Sleep(2 * time.Millisecond)
		}
	}()
	go func() {
		for {
			users.get("u")
			time.Sleep(2 * time.Millisecond)
		}
	}()
	for i := 0; i < 4; i++ {
		go func(i int) {
			for {
				audit.put(fmt.Sprint(i), "x")
				audit.get("a")
				time.Sleep(2 * time.Millisecond)
			}
		}(i)
	}
	go audit.watch(stop)
	// A little garbage every 100 ms, as a service makes: the runtime
	// stamps each wait's start at a GC, so the minutes print.
	go func() {
		var keep [][]byte
		for range time.Tick(100 * time.Millisecond) {
			keep = append(keep, make([]byte, 64<<10))
			if len(keep) > 64 {
				keep = keep[:0]
			}
		}
	}()
	start := time.Now()
	n := 0
	for _, s := range splitComma(*at) {
		d, err := time.ParseDuration(s)
		if err != nil {
			panic(err)
		}
		time.Sleep(time.Until(start.Add(d)))
		n++
		f, err := os.Create(filepath.Join(*out, fmt.Sprintf("%d.txt", n)))
		if err != nil {
			panic(err)
		}
		if err := pprof.Lookup("goroutine").WriteTo(f, 2); err != nil {
			panic(err)
		}
		f.Close()
	}
	close(stop)
}

func splitComma(s string) []string {
	var out []string
	last := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			out = append(out, s[last:i])
			last = i + 1
		}
	}
	return out
}
