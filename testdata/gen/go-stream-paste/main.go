// yprog: an RPC client over a yamux stream whose server accepts the call and
// never replies (no deadline on the stream): the client's call waits in
// yamux.(*Stream).Read under go-msgpack's decode for as long as it runs,
// holding its state's lock, which a second goroutine waits for. The
// session's own loops (recvLoop, send, keepalive) rest beside it.
package main

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"sync"
	"time"

	"github.com/hashicorp/go-msgpack/codec"
	"github.com/hashicorp/yamux"
)

type state struct {
	mu       sync.Mutex
	services map[string]string
}

// call writes a request on the stream and decodes its reply, as
// msgpackrpc's CallWithCodec does: no deadline.
func call(st net.Conn, method string, args, reply interface{}) error {
	var h codec.MsgpackHandle
	if err := codec.NewEncoder(st, &h).Encode([]interface{}{method, args}); err != nil {
		return err
	}
	return codec.NewDecoder(bufio.NewReader(st), &h).Decode(reply)
}

func (s *state) syncChanges(st net.Conn) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var reply struct{ Index uint64 }
	return call(st, "Catalog.Register", map[string]string{"Node": "n1"}, &reply)
}

func (s *state) list() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.services)
}

func main() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	go func() { // the server: accepts streams, reads the request, never replies
		c, err := ln.Accept()
		if err != nil {
			panic(err)
		}
		sess, _ := yamux.Server(c, nil)
		for {
			st, err := sess.Accept()
			if err != nil {
				return
			}
			go func(st net.Conn) {
				var h codec.MsgpackHandle
				dec := codec.NewDecoder(st, &h)
				var v interface{}
				_ = dec.Decode(&v)
				select {} // the reply never comes
			}(st)
		}
	}()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		panic(err)
	}
	sess, err := yamux.Client(c, nil)
	if err != nil {
		panic(err)
	}
	st, err := sess.Open()
	if err != nil {
		panic(err)
	}
	s := &state{services: map[string]string{}}
	go func() {
		err := s.syncChanges(st)
		fmt.Println("sync returned", err)
	}()
	time.Sleep(100 * time.Millisecond)
	go func() { fmt.Println(s.list()) }() // an agent's HTTP handler: waits for the lock
	fmt.Fprintln(os.Stderr, "ready", os.Getpid())
	// A service allocates as it runs: the GCs that follow stamp each
	// wait's start, which the traceback prints in minutes (a process
	// that never allocates has no GC, and prints no minutes).
	var keep [][]byte
	for range time.Tick(100 * time.Millisecond) {
		keep = append(keep, make([]byte, 64<<10))
		if len(keep) > 64 {
			keep = keep[:0]
		}
	}
}
