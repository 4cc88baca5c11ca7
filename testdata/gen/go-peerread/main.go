// Command go-peerread is a client that waits for a peer on 127.0.0.1 with no
// read deadline, its controls, and the silent peer itself (issue 33: a wait
// for a peer with no timeout, seen in few goroutines, in one dump). Each
// mode runs as its own process; testdata/gen/go-peerread/gen.sh sends it
// SIGQUIT (the runtime's traceback, GOTRACEBACK=all) once it printed
// "ready". Standard library only, so Go 1.13 builds it too.
//
//	-mode silent -addr A: the peer: accepts, reads the request, never answers
//	-mode echo -addr A: the peer that answers each line at once
//	-mode main -peer A: main calls fetchQuote, which reads the reply (no deadline)
//	-mode workers -peer A: main starts 3 fetchers and waits for them (WaitGroup)
//	-mode poller -peer A: healthy: main asks every 200 ms, a deadline on each read,
//	  and a heartbeat goroutine ticks in a select
//	-mode server -addr A: healthy: an idle net/http server and a line server,
//	  each holding a kept-alive client connection that sends nothing (their
//	  connection goroutines read the next request)
//	-mode client-of -peer A: the idle client of "server": connects to both
//	  servers, sends one request each, then idles with the connections open
package main

import (
	"bufio"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"
)

func main() {
	mode := flag.String("mode", "", "silent, echo, main, workers, poller, server, client-of")
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on")
	peer := flag.String("peer", "", "address of the peer")
	flag.Parse()
	// A real program has collected at least once by the time it hangs:
	// from then on the runtime forces a GC every two minutes, which stamps
	// each waiting goroutine's start (the minutes its traceback prints). A
	// program this small would never collect on its own.
	runtime.GC()
	switch *mode {
	case "silent":
		serveLines(*addr, false)
	case "echo":
		serveLines(*addr, true)
	case "main":
		fmt.Println("ready")
		quote, err := fetchQuote(*peer, "EURUSD")
		fmt.Println(quote, err)
	case "workers":
		var wg sync.WaitGroup
		for i := 0; i < 3; i++ {
			wg.Add(1)
			go func(sym string) {
				defer wg.Done()
				fetchQuote(*peer, sym)
			}(fmt.Sprintf("SYM%d", i))
		}
		fmt.Println("ready")
		wg.Wait()
	case "poller":
		go heartbeat()
		fmt.Println("ready")
		poll(*peer)
	case "server":
		idleServers(*addr)
	case "client-of":
		idleClient(*peer)
	default:
		fmt.Fprintln(os.Stderr, "unknown mode", *mode)
		os.Exit(2)
	}
}

// fetchQuote asks the peer for a symbol's quote and reads the reply line:
// no deadline on the connection, so a peer that never answers holds the
// caller for good.
func fetchQuote(peer, sym string) (string, error) {
	c, err := net.Dial("tcp", peer)
	if err != nil {
		return "", err
	}
	defer c.Close()
	if _, err := fmt.Fprintf(c, "QUOTE %s\n", sym); err != nil {
		return "", err
	}
	return readReply(bufio.NewReader(c))
}

func readReply(r *bufio.Reader) (string, error) {
	line, err := r.ReadString('\n')
	return strings.TrimSpace(line), err
}

// serveLines accepts connections; each request line is answered at once
// (echo) or read and never answered (silent).
func serveLines(addr string, answer bool) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println("ready", ln.Addr())
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go handleLines(c, answer)
	}
}

func handleLines(c net.Conn, answer bool) {
	defer c.Close()
	r := bufio.NewReader(c)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		if answer {
			fmt.Fprintf(c, "OK %s\n", strings.TrimSpace(line))
		}
	}
}

// poll asks the peer every 200 ms, each read bounded by a deadline.
func poll(peer string) {
	c, err := net.Dial("tcp", peer)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	r := bufio.NewReader(c)
	for i := 0; ; i++ {
		c.SetReadDeadline(time.Now().Add(2 * time.Second))
		fmt.Fprintf(c, "QUOTE P%d\n", i)
		if _, err := readReply(r); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

var stop = make(chan struct{})

func heartbeat() {
	t := time.NewTicker(time.Second)
	beats := 0
	for {
		select {
		case <-t.C:
			beats++
		case <-stop:
			return
		}
	}
}

// idleServers serves HTTP on addr and lines on the next port up, both idle.
func idleServers(addr string) {
	host, port, _ := net.SplitHostPort(addr)
	var p int
	fmt.Sscan(port, &p)
	go serveLines(net.JoinHostPort(host, fmt.Sprint(p+1)), true)
	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "ok") })
	fmt.Println("ready")
	if err := http.ListenAndServe(addr, nil); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// idleClient opens a kept-alive connection to each of idleServers' servers,
// sends one request on each, reads the answers, and idles.
func idleClient(peer string) {
	host, port, _ := net.SplitHostPort(peer)
	var p int
	fmt.Sscan(port, &p)
	h, err := net.Dial("tcp", peer)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Fprintf(h, "GET / HTTP/1.1\r\nHost: %s\r\n\r\n", peer)
	l, err := net.Dial("tcp", net.JoinHostPort(host, fmt.Sprint(p+1)))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Fprintf(l, "PING\n")
	fmt.Println("ready")
	time.Sleep(time.Hour)
}
