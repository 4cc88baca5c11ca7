// Command http-maxconns is the program of testdata/libs/go-http-maxconns: a
// net/http client whose Transport allows 2 connections per host, calling an
// upstream that never answers, with no client timeout.
//
//	http-maxconns -addr-file F
//
// What it runs, all on 127.0.0.1:
//
//   - the slow upstream: an http.Server whose handler, main.hang, waits for
//     the request's context to end (it ends only when the client goes away,
//     which it never does).
//   - main.runRequests starts 17 main.fetch goroutines, each doing one
//     client.Get to the upstream with a Transport{MaxConnsPerHost: 2} and no
//     Timeout. 2 get a connection and wait for response headers for ever;
//     the other 15 wait for one of those 2 connections.
//   - net/http/pprof on http.DefaultServeMux, served by main.
//
// The address of the pprof server is written to F once every goroutine is
// started.
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
)

// hang never answers: it returns only when the client goes away.
func hang(w http.ResponseWriter, r *http.Request) {
	<-r.Context().Done()
}

// fetch gets url and drains the answer.
func fetch(client *http.Client, url string) {
	resp, err := client.Get(url)
	if err != nil {
		log.Printf("fetch %s: %v", url, err)
		return
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, resp.Body)
}

// runRequests starts n fetches of base/items/I.
func runRequests(client *http.Client, base string, n int) {
	for i := 0; i < n; i++ {
		go fetch(client, fmt.Sprintf("%s/items/%d", base, i))
	}
}

func main() {
	addrFile := flag.String("addr-file", "", "write the pprof address to this file")
	flag.Parse()
	if *addrFile == "" {
		log.Fatal("usage: http-maxconns -addr-file FILE")
	}

	upLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	go http.Serve(upLn, http.HandlerFunc(hang))

	// The fault: at most 2 connections to the upstream, and no Timeout.
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 2}}
	runRequests(client, "http://"+upLn.Addr().String(), 17)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*addrFile, []byte(ln.Addr().String()+"\n"), 0o644); err != nil {
		log.Fatal(err)
	}
	log.Fatal(http.Serve(ln, nil))
}
