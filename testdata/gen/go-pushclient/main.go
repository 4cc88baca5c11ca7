package main

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/signal"
	"syscall"
)

// A client of a server's push stream: it reads events as they come; the
// server sends nothing for now (a quiet stream). Healthy.
func subscribe(addr string) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		panic(err)
	}
	fmt.Fprintf(conn, "SUBSCRIBE events\n")
	r := bufio.NewReader(conn)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		fmt.Print(line)
	}
}

func main() {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func(c net.Conn) { buf := make([]byte, 64); c.Read(buf); select {} }(c) // reads the subscribe line, then stays quiet
		}
	}()
	go subscribe(ln.Addr().String())
	fmt.Fprintln(os.Stderr, "ready")
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM)
	<-sig
}
