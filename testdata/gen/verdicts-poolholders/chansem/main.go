// Command chansem bounds its jobs with a buffered channel used as a
// semaphore (cap 4) and writes three goroutine dumps (debug=2), 5 s apart.
// Each job takes a slot, dials the upstream on 127.0.0.1, sends one line and
// reads the reply with no deadline, then gives the slot back.
//
//	-mode serve-stuck    the upstream: accepts, reads the line, never replies
//	-mode serve-healthy  the upstream: replies 20 ms after the line
//	-mode client         30 jobs at once (stuck), or about 170 jobs a second (healthy)
package main

import (
	"bufio"
	"flag"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime/pprof"
	"time"
)

var slots = make(chan struct{}, 4)

func processJob(id int, addr string) {
	slots <- struct{}{} // take a slot: the acquire
	defer func() { <-slots }()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return
	}
	defer c.Close()
	fmt.Fprintf(c, "job %d\n", id)
	bufio.NewReader(c).ReadString('\n') // no deadline
}

func burst(addr string, n int) {
	for i := 0; i < n; i++ {
		go processJob(i, addr)
	}
}

func feed(addr string) {
	for i := 0; ; i++ {
		go processJob(i, addr)
		time.Sleep(6 * time.Millisecond)
	}
}

func serve(ln net.Listener, reply bool) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go func(c net.Conn) {
			r := bufio.NewReader(c)
			for {
				if _, err := r.ReadString('\n'); err != nil {
					c.Close()
					return
				}
				if reply {
					time.Sleep(20 * time.Millisecond)
					fmt.Fprintln(c, "ok")
				}
			}
		}(c)
	}
}

func main() {
	mode := flag.String("mode", "client", "serve-stuck, serve-healthy or client-stuck, client-healthy")
	addr := flag.String("addr", "127.0.0.1:0", "upstream address (serve: to listen on)")
	out := flag.String("out", ".", "folder for 1.txt, 2.txt, 3.txt")
	flag.Parse()
	switch *mode {
	case "serve-stuck", "serve-healthy":
		ln, err := net.Listen("tcp", *addr)
		if err != nil {
			panic(err)
		}
		fmt.Println(ln.Addr())
		serve(ln, *mode == "serve-healthy")
		return
	case "client-stuck":
		go burst(*addr, 30)
	case "client-healthy":
		go feed(*addr)
	default:
		fmt.Fprintln(os.Stderr, "mode:", *mode)
		os.Exit(2)
	}
	time.Sleep(2 * time.Second)
	for i := 1; i <= 3; i++ {
		f, err := os.Create(filepath.Join(*out, fmt.Sprintf("%d.txt", i)))
		if err != nil {
			panic(err)
		}
		if err := pprof.Lookup("goroutine").WriteTo(f, 2); err != nil {
			panic(err)
		}
		f.Close()
		if i < 3 {
			time.Sleep(5 * time.Second)
		}
	}
}
