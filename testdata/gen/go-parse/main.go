// Command goparse starts goroutines in many blocking states, with pprof
// labels, and writes goroutine dumps of itself in every form the Go runtime
// offers: runtime/pprof Lookup("goroutine").WriteTo with debug=0, 1 and 2,
// the goroutineleak profile when the runtime has one (Go 1.27+), and
// finally a SIGQUIT traceback (run with GOTRACEBACK=all; stderr is the dump).
//
// It is a fixture generator for dumpdiff's parser tests, run by gen.sh; it is
// not part of the dumpdiff module.
//
//	goparse -out DIR -prefix go1.26.8
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sync"
	"syscall"
	"time"
)

// held keeps the primitives that reachable goroutines block on alive, so the
// Go 1.27 leak detector reports only the goroutines of leakChanSend and
// leakChanRecv (whose channels nobody else can reach).
type held struct {
	recvCh    chan int
	sendCh    chan int
	selA      chan int
	selB      chan string
	mu        sync.Mutex
	rw        sync.RWMutex
	condMu    sync.Mutex
	cond      *sync.Cond
	wg        sync.WaitGroup
	ln        net.Listener
	conns     []net.Conn
	pipe      [2]int
	stopSpin  chan struct{}
	spinReady chan struct{}
}

func main() {
	out := flag.String("out", ".", "directory to write the dumps into")
	prefix := flag.String("prefix", runtime.Version(), "file name prefix")
	sigquit := flag.Bool("sigquit", true, "end by sending SIGQUIT to self")
	flag.Parse()

	h := &held{
		recvCh:    make(chan int),
		sendCh:    make(chan int),
		selA:      make(chan int),
		selB:      make(chan string),
		stopSpin:  make(chan struct{}),
		spinReady: make(chan struct{}),
	}
	h.cond = sync.NewCond(&h.condMu)
	if err := h.start(); err != nil {
		log.Fatal(err)
	}
	// Let every goroutine reach its blocking call.
	time.Sleep(300 * time.Millisecond)

	for _, d := range []struct {
		debug int
		name  string
	}{{0, "debug0.pb.gz"}, {1, "debug1.txt"}, {2, "debug2.txt"}} {
		write(filepath.Join(*out, *prefix+"-"+d.name), "goroutine", d.debug)
	}
	if pprof.Lookup("goroutineleak") != nil {
		for _, d := range []struct {
			debug int
			name  string
		}{{0, "goroutineleak-debug0.pb.gz"}, {1, "goroutineleak-debug1.txt"}, {2, "goroutineleak-debug2.txt"}} {
			write(filepath.Join(*out, *prefix+"-"+d.name), "goroutineleak", d.debug)
		}
	}
	if *sigquit {
		fmt.Fprintln(os.Stderr, "goparse: sending SIGQUIT to self")
		syscall.Kill(os.Getpid(), syscall.SIGQUIT)
		time.Sleep(5 * time.Second)
	}
	runtime.KeepAlive(h)
}

func write(path, profile string, debug int) {
	f, err := os.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	if err := pprof.Lookup(profile).WriteTo(f, debug); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}

// group runs fn n times, each in its own goroutine, under pprof labels.
func group(labels []string, n int, fn func(i int)) {
	pprof.Do(context.Background(), pprof.Labels(labels...), func(context.Context) {
		for i := 0; i < n; i++ {
			go fn(i)
		}
	})
}

func (h *held) start() error {
	// chan receive / chan send / select / select (no cases) / nil chan.
	group([]string{"pool", "consumers", "state", "chan-receive"}, 3, h.consume)
	group([]string{"pool", "producers", "state", "chan-send"}, 2, h.produce)
	group([]string{"pool", "dispatch", "state", "select"}, 2, h.dispatch)
	go parkForever()
	go waitNilChan()

	// Goroutines blocked on channels nobody else can reach: leaks.
	group([]string{"job", "import[batch=7],retry", "state", "leak"}, 2, leakChanSend)
	go leakChanRecv()

	// sync primitives: the holders keep them locked for the whole run.
	h.mu.Lock()
	h.rw.Lock()
	group([]string{"pool", "cache", "state", "mutex"}, 3, h.lockMutex)
	group([]string{"pool", "cache", "state", "rwmutex"}, 2, h.readLock)
	group([]string{"pool", "batch", "state", "cond"}, 2, h.waitCond)
	h.wg.Add(1)
	group([]string{"pool", "batch", "state", "waitgroup"}, 2, h.waitGroup)

	// Sleeping.
	group([]string{"pool", "ticker", "state", "sleep"}, 2, napper)

	// IO wait: a listener in Accept and a connection in Read.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	h.ln = ln
	group([]string{"pool", "net", "state", "accept"}, 1, h.accept)
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		return err
	}
	h.conns = append(h.conns, c)
	group([]string{"pool", "net", "state", "read"}, 1, func(int) { readConn(c) })

	// syscall: a blocking read(2) on a pipe the runtime poller does not know.
	if err := syscall.Pipe(h.pipe[:]); err != nil {
		return err
	}
	group([]string{"pool", "io", "state", "syscall"}, 1, h.rawRead)

	// Running: a goroutine on a CPU loop until the process ends.
	group([]string{"pool", "cpu", "state", "running"}, 1, h.spin)
	<-h.spinReady
	return nil
}

func (h *held) consume(int) {
	for v := range h.recvCh {
		_ = v
	}
}

func (h *held) produce(i int) { h.sendCh <- i }

func (h *held) dispatch(int) {
	for {
		select {
		case v := <-h.selA:
			_ = v
		case s := <-h.selB:
			_ = s
		}
	}
}

func parkForever() { select {} }

func waitNilChan() {
	var ch chan int
	<-ch
}

func leakChanSend(i int) {
	ch := make(chan int)
	go func() { ch <- i }()
	leakInner(ch, i)
}

//go:noinline
func leakInner(ch chan int, i int) {
	// The receiver gave up (as after a timeout): the sender above leaks.
	_ = ch
	ch2 := make(chan int)
	ch2 <- i
}

func leakChanRecv() {
	ch := make(chan int)
	<-ch
}

func (h *held) lockMutex(int) {
	h.mu.Lock()
	defer h.mu.Unlock()
}

func (h *held) readLock(int) {
	h.rw.RLock()
	defer h.rw.RUnlock()
}

func (h *held) waitCond(int) {
	h.condMu.Lock()
	for {
		h.cond.Wait()
	}
}

func (h *held) waitGroup(int) { h.wg.Wait() }

func napper(int) {
	for {
		time.Sleep(time.Hour)
	}
}

func (h *held) accept(int) {
	for {
		c, err := h.ln.Accept()
		if err != nil {
			return
		}
		h.conns = append(h.conns, c)
	}
}

func readConn(c net.Conn) {
	buf := make([]byte, 512)
	for {
		if _, err := c.Read(buf); err != nil {
			return
		}
	}
}

func (h *held) rawRead(int) {
	buf := make([]byte, 64)
	syscall.Read(h.pipe[0], buf)
}

//go:noinline
func (h *held) spin(int) {
	close(h.spinReady)
	x := 0
	for {
		x = spinStep(x)
	}
}

//go:noinline
func spinStep(x int) int {
	for i := 0; i < 1000; i++ {
		x = x*31 + i
	}
	return x
}
