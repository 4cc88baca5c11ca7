// Command cgocalls holds goroutines in cgo calls for dumpdiff's fixtures
// (testdata/gen/go-cgo/gen.sh): each goroutine in a C call holds an OS
// thread of its own until the call returns.
//
//	-mode block         999 goroutines each in a C call that does not return (sleep(3600))
//	-mode busy-healthy  4 workers each calling a short C function (1 ms) in a loop
//
// It serves net/http/pprof on 127.0.0.1 and writes its address to -addr-file.
package main

/*
#include <unistd.h>
static void output(unsigned int secs) { sleep(secs); }
static void work(void) { usleep(1000); }
*/
import "C"

import (
	"flag"
	"io/ioutil"
	"net"
	"net/http"
	_ "net/http/pprof"
	"sync"
)

func blocked(ready *sync.WaitGroup) {
	ready.Done()
	C.output(3600) // the C call does not return within the run
}

func worker() {
	for {
		C.work()
	}
}

func main() {
	mode := flag.String("mode", "block", "block or busy")
	addrFile := flag.String("addr-file", "", "write the pprof address here")
	flag.Parse()
	switch *mode {
	case "block":
		var ready sync.WaitGroup
		for i := 0; i < 999; i++ {
			ready.Add(1)
			go blocked(&ready)
		}
		ready.Wait()
	case "busy":
		for i := 0; i < 4; i++ {
			go worker()
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	if *addrFile != "" {
		ioutil.WriteFile(*addrFile, []byte(ln.Addr().String()), 0644) // ioutil: Go 1.13 builds it too
	}
	http.Serve(ln, nil)
}
