// go-lock-chan: a Go service, serving net/http/pprof on 127.0.0.1, whose
// goroutines wait on each other through a mutex and a channel, or through
// channels alone; or (-mode ...-healthy) the same service with every wait
// answered. It prints its address on stdout; gen.sh takes the dumps with
// curl (debug=2 and debug=1) at several moments. The net/http listener
// keeps a goroutine able to run: the runtime never says "all goroutines
// are asleep".
//
// lockchan: a ledger. Three writers call (*ledger).record, which takes
// l.mu and, holding it, hands the entry to the auditor on an unbuffered
// channel (l.audit). The auditor's loop first calls (*ledger).check,
// which takes l.mu, then receives the next entry. The first writer holds
// l.mu in record and waits to send; the auditor, its only receiver, waits
// in check for l.mu; the two other writers wait in record's Lock.
//
// lockchan-healthy: the same ledger, and the writers still hold l.mu
// across the send, but check reads the count without the mutex (an
// atomic): the auditor always comes back to receive, every send is
// drained.
//
// pkgchan: an event counter. One emitter calls emit, which takes the
// package-level statsMu and, holding it, hands the event to the shipper
// on an unbuffered channel (events). The shipper's loop first calls
// flushStats, which takes statsMu, then receives the next event. The
// emitter holds statsMu in emit and waits to send; the shipper, its only
// receiver, waits for statsMu in flushStats. No frame names the lock (a
// package variable), and the holder runs another function than the
// waiter.
//
// pkgchan-healthy: emit sends after it lets statsMu go.
//
// chancycle: a pipeline of two stages. The parser sends each document to
// the indexer (unbuffered docs) and receives the indexer's feedback only
// every 4th document; the indexer sends feedback after every document
// (unbuffered feedback). The parser waits to send the next document while
// the indexer waits to send its feedback: a cycle of sends, nobody
// receiving. A coordinator waits on the pipeline's done channel.
//
// chancycle-healthy: the same pipeline, the feedback drained by a third
// stage (the collector) instead of the parser.
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

type entry struct {
	id     int
	amount int
}

type ledger struct {
	mu      sync.Mutex
	total   int
	n       int64 // atomic (a plain int64: the program builds with Go 1.13 too)
	audit   chan entry
	healthy bool
}

// record books e and hands it to the auditor, holding l.mu across the send.
func (l *ledger) record(e entry) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.total += e.amount
	time.Sleep(20 * time.Millisecond) // validation work under the lock
	l.audit <- e
	atomic.AddInt64(&l.n, 1)
}

// check reads the ledger's count for the auditor's report.
func (l *ledger) check() int64 {
	if l.healthy {
		return atomic.LoadInt64(&l.n)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return atomic.LoadInt64(&l.n)
}

func (l *ledger) auditor() {
	seen := 0
	for {
		_ = l.check()
		e := <-l.audit
		seen += e.amount
	}
}

func (l *ledger) writer(id int) {
	for i := 0; ; i++ {
		l.record(entry{id: id*1000 + i, amount: i})
		time.Sleep(50 * time.Millisecond)
	}
}

var (
	statsMu sync.Mutex
	stats   = map[string]int{}
	events  = make(chan string)
)

// emit counts an event and hands it to the shipper.
func emit(kind string, healthy bool) {
	statsMu.Lock()
	stats[kind]++
	time.Sleep(20 * time.Millisecond) // sampling decision under the lock
	if healthy {
		statsMu.Unlock()
		events <- kind
		return
	}
	events <- kind
	statsMu.Unlock()
}

// flushStats copies the counters for the shipper's batch.
func flushStats() int {
	statsMu.Lock()
	defer statsMu.Unlock()
	n := 0
	for _, c := range stats {
		n += c
	}
	return n
}

func emitter(healthy bool) {
	for {
		emit("click", healthy)
		time.Sleep(30 * time.Millisecond)
	}
}

func shipper() {
	shipped := 0
	for {
		_ = flushStats()
		<-events
		shipped++
	}
}

type doc struct{ n int }
type feedback struct{ n int }

type pipeline struct {
	docs     chan doc
	feedback chan feedback
	done     chan struct{}
}

func (p *pipeline) parser(healthy bool) {
	for i := 0; ; i++ {
		p.docs <- doc{i}
		if !healthy && i%4 == 3 {
			<-p.feedback
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (p *pipeline) indexer() {
	for d := range p.docs {
		p.feedback <- feedback{d.n}
	}
	close(p.done)
}

func (p *pipeline) collector() {
	for range p.feedback {
	}
}

func (p *pipeline) coordinator() {
	<-p.done
}

func main() {
	mode := flag.String("mode", "lockchan", "lockchan, pkgchan, chancycle, each or with -healthy")
	flag.Parse()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	fmt.Println(ln.Addr().String())
	switch *mode {
	case "lockchan", "lockchan-healthy":
		l := &ledger{audit: make(chan entry), healthy: *mode == "lockchan-healthy"}
		for i := 1; i <= 3; i++ {
			go l.writer(i)
			time.Sleep(time.Millisecond)
		}
		go l.auditor()
	case "pkgchan", "pkgchan-healthy":
		go emitter(*mode == "pkgchan-healthy")
		time.Sleep(time.Millisecond)
		go shipper()
	case "chancycle", "chancycle-healthy":
		p := &pipeline{docs: make(chan doc), feedback: make(chan feedback), done: make(chan struct{})}
		go p.coordinator()
		go p.indexer()
		go p.parser(*mode == "chancycle-healthy")
		if *mode == "chancycle-healthy" {
			go p.collector()
		}
	default:
		fmt.Fprintln(os.Stderr, "unknown mode", *mode)
		os.Exit(2)
	}
	panic(http.Serve(ln, nil))
}
