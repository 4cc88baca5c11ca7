package leaky

import (
	"net"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// A worker pool whose Close forgets to stop its workers, and a client that
// reads from a server that never answers: what goleak reports after the test.
type pool struct {
	jobs chan func()
	mu   sync.Mutex
}

func newPool(n int) *pool {
	p := &pool{jobs: make(chan func())}
	for i := 0; i < n; i++ {
		go p.work()
	}
	return p
}

func (p *pool) work() {
	for j := range p.jobs {
		j()
	}
}

func (p *pool) Close() {} // forgets close(p.jobs)

func dialSilent(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		c, _ := ln.Accept()
		_ = c // never answers
		select {}
	}()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		buf := make([]byte, 1)
		c.Read(buf) // no deadline
	}()
}

func TestPoolLeak(t *testing.T) {
	defer goleak.VerifyNone(t)
	p := newPool(4)
	p.jobs <- func() {}
	p.Close()
	dialSilent(t)
	time.Sleep(50 * time.Millisecond)
}
