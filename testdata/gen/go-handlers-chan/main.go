// Command handlerschan holds net/http handlers on a channel operation for
// dumpdiff's fixtures (testdata/gen/go-handlers-chan/gen.sh).
//
//	-mode send     100 requests in flight, each handler in main.enqueue sending on
//	               an unbuffered channel nobody receives from
//	-mode recv     100 requests in flight, each handler in main.awaitResult receiving
//	               from a channel nobody sends on
//	-mode workers  healthy: 100 workers idle in their loop's receive on an empty job
//	               channel, and an idle server
//
// It serves net/http/pprof on 127.0.0.1 and writes its address to -addr-file.
package main

import (
	"flag"
	"io/ioutil"
	"net"
	"net/http"
	_ "net/http/pprof"
)

var (
	queue   = make(chan string) // nobody receives
	results = make(chan string) // nobody sends
	jobs    = make(chan int)    // the workers' jobs: none come
)

func enqueue(item string) { queue <- item }

func awaitResult() string { return <-results }

func submit(w http.ResponseWriter, r *http.Request) {
	enqueue(r.URL.Query().Get("item"))
	w.Write([]byte("queued\n"))
}

func result(w http.ResponseWriter, r *http.Request) {
	w.Write([]byte(awaitResult()))
}

func worker(id int) {
	for j := range jobs {
		_ = j * id
	}
}

func main() {
	mode := flag.String("mode", "send", "send, recv or workers")
	addrFile := flag.String("addr-file", "", "write the address here")
	flag.Parse()
	http.HandleFunc("/submit", submit)
	http.HandleFunc("/result", result)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	go http.Serve(ln, nil)
	addr := ln.Addr().String()
	switch *mode {
	case "send", "recv":
		path := "/submit?item=x"
		if *mode == "recv" {
			path = "/result"
		}
		for i := 0; i < 100; i++ {
			go http.Get("http://" + addr + path) // the client's goroutine waits for its response
		}
	case "workers":
		for i := 0; i < 100; i++ {
			go worker(i)
		}
	}
	if *addrFile != "" {
		ioutil.WriteFile(*addrFile, []byte(addr), 0644) // ioutil: Go 1.13 builds it too
	}
	select {}
}
