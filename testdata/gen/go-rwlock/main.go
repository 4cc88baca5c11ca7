// Command main reproduces Go locks whose holder the dump does not print
// (issue 33), each mode a world of its own, and writes its own debug=2
// goroutine dumps (pprof.Lookup("goroutine").WriteTo(w, 2)) at the times
// -at gives, into -out/1.txt, 2.txt, ...
//
//	self       (*registry).Refresh takes r.mu.Lock and calls r.count, which
//	           takes r.mu.Lock again: one goroutine waits on itself; three
//	           (*registry).Get callers queue behind it.
//	selfrw     (*service).handle takes s.mu.Lock and calls (*wrapper).Set,
//	           whose callback (*service).commit takes s.mu.RLock: the same
//	           self-deadlock through a frame of another type (syncthing#3066).
//	nested     control: (*node).update locks its node and then its child's
//	           (another value of the same type), and (*node).touch calls
//	           (*node).bump on the same value, which locks it while another
//	           goroutine holds it for a few milliseconds: all progress.
//	readerheld a goroutine takes (*catalog).mu.RLock in (*catalog).scan and
//	           waits on a channel nobody sends to; a writer waits in Lock,
//	           three readers in RLock behind it.
//	readerok   control: readers hold the read lock for 20 ms, a writer
//	           takes the write lock every 50 ms: all progress.
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"time"
)

type registry struct {
	name  string
	items map[string]int
	mu    sync.Mutex
}

func (r *registry) Refresh() {
	r.mu.Lock()
	defer r.mu.Unlock()
	time.Sleep(20 * time.Millisecond)
	r.items["n"] = r.count() + 1
}

func (r *registry) count() int {
	r.mu.Lock() // already held by Refresh: waits for ever
	defer r.mu.Unlock()
	return len(r.items)
}

func (r *registry) Get(k string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.items[k]
}

type service struct {
	id    int
	conns []string
	mu    sync.RWMutex
	cfg   *wrapper
}

type wrapper struct {
	subs []func(string)
	val  string
}

//go:noinline
func (w *wrapper) Set(v string) {
	w.val = v
	for _, f := range w.subs {
		f(v)
	}
}

func (s *service) handle(c string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.conns = append(s.conns, c)
	s.cfg.Set(c)
}

func (s *service) commit(v string) {
	s.mu.RLock() // the write lock is held by handle below: waits for ever
	defer s.mu.RUnlock()
	_ = len(s.conns) + len(v)
}

func (s *service) status() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.conns)
}

type node struct {
	name  string
	n     int
	mu    sync.Mutex
	child *node
}

func (n *node) update() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.n++
	if n.child != nil {
		n.child.update()
	}
	time.Sleep(time.Millisecond)
}

func (n *node) touch() { n.bump() }

func (n *node) bump() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.n++
	time.Sleep(2 * time.Millisecond)
}

type catalog struct {
	title string
	mu    sync.RWMutex
	rows  []int
	feed  chan int
}

func (c *catalog) scan() {
	c.mu.RLock()
	defer c.mu.RUnlock()
	for v := range c.feed { // nobody sends, nobody closes
		c.rows = append(c.rows, v)
	}
}

func (c *catalog) add(v int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.rows = append(c.rows, v)
}

func (c *catalog) size() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.rows)
}

func (c *catalog) read() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	time.Sleep(20 * time.Millisecond)
	return len(c.rows)
}

func main() {
	mode := flag.String("mode", "self", "self, selfrw, nested, readerheld, readerheldfn or readerok")
	out := flag.String("out", ".", "folder for the dumps")
	at := flag.String("at", "3,8,13", "seconds after start of each dump")
	flag.Parse()

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	go http.Serve(ln, http.NotFoundHandler())
	go func() { // a ticker: the runtime never calls the program asleep
		for i := 1; ; i++ {
			time.Sleep(500 * time.Millisecond)
			if i%2 == 0 {
				runtime.GC() // each second: the runtime dates a wait only once a GC has seen it, and a SIGQUIT prints its minutes
			}
		}
	}()

	switch *mode {
	case "self":
		r := &registry{name: "users", items: map[string]int{}}
		go r.Refresh()
		time.Sleep(100 * time.Millisecond)
		for i := 0; i < 3; i++ {
			go r.Get("k" + strconv.Itoa(i))
		}
	case "selfrw":
		s := &service{id: 7}
		s.cfg = &wrapper{}
		s.cfg.subs = append(s.cfg.subs, s.commit)
		go s.handle("10.0.0.1:22000")
		time.Sleep(100 * time.Millisecond)
		for i := 0; i < 2; i++ {
			go s.status()
		}
	case "nested":
		leaf := &node{name: "leaf"}
		root := &node{name: "root", child: leaf}
		for i := 0; i < 4; i++ {
			go func() {
				for {
					root.update()
					time.Sleep(20 * time.Millisecond)
				}
			}()
			go func() {
				for {
					leaf.touch()
					time.Sleep(20 * time.Millisecond)
				}
			}()
		}
	case "readerheld":
		c := &catalog{title: "parts", feed: make(chan int)}
		go c.scan()
		time.Sleep(100 * time.Millisecond)
		go c.add(1)
		time.Sleep(100 * time.Millisecond)
		for i := 0; i < 3; i++ {
			go c.size()
		}
	case "readerheldfn":
		readerHeldFn()
	case "readerok":
		c := &catalog{title: "parts", feed: make(chan int)}
		for i := 0; i < 4; i++ {
			go func() {
				for {
					c.read()
				}
			}()
		}
		go func() {
			for i := 0; ; i++ {
				c.add(i)
				time.Sleep(50 * time.Millisecond)
			}
		}()
	default:
		fmt.Fprintln(os.Stderr, "unknown mode", *mode)
		os.Exit(2)
	}

	start := time.Now()
	for i, s := range strings.Split(*at, ",") {
		sec, _ := strconv.Atoi(s)
		time.Sleep(time.Until(start.Add(time.Duration(sec) * time.Second)))
		writeDump(i+1, *out)
	}
}

// writeDump writes dump n into dir. Its argument is printed in the dump
// (main's own frame): two dumps of a program whose goroutines all stay
// put still differ, and are read as two moments, not one copied.
//
//go:noinline
func writeDump(n int, dir string) {
	f, err := os.Create(filepath.Join(dir, strconv.Itoa(n)+".txt"))
	if err != nil {
		panic(err)
	}
	pprof.Lookup("goroutine").WriteTo(f, 2)
	f.Close()
}

// readerHeldFn is readerheld with the lock a variable its closures share,
// no method: the holder, the writer and the readers are closures of one
// function, and no frame prints a receiver.
func readerHeldFn() {
	var mu sync.RWMutex
	feed := make(chan int)
	go func() {
		mu.RLock()
		defer mu.RUnlock()
		<-feed // nobody sends
	}()
	time.Sleep(100 * time.Millisecond)
	go func() {
		mu.Lock()
		defer mu.Unlock()
	}()
	time.Sleep(100 * time.Millisecond)
	for i := 0; i < 3; i++ {
		go func() {
			mu.RLock()
			defer mu.RUnlock()
		}()
	}
}
