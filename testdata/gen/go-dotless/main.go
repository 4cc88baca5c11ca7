// Command app (module example/app: a module path with no dot, as `go
// mod init example/app` makes) runs internal/batch.RunBatch from two
// places: a goroutine main starts, and a request to its own HTTP server
// on 127.0.0.1 (with -client=false: a goroutine main.scheduler starts). With -stuck the batches' workers block in their send and
// both RunBatch calls wait in WaitGroup.Wait for good; without it the
// results are buffered and batches run in a loop (healthy). Writes its
// own debug=2 dumps with -out (-n of them, 3 s apart), else waits for
// SIGQUIT. Written for dumpdiff's testdata; stdlib only, builds with Go
// 1.13 too.
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"runtime/pprof"
	"time"

	"example/app/internal/batch"
)

// scheduler starts a nightly batch on a goroutine of its own (the
// second caller, in a pool of its own: created by main.scheduler).
func scheduler(jobs []int, buffered bool) {
	go func() {
		for {
			batch.RunBatch(jobs, buffered)
			time.Sleep(time.Millisecond)
		}
	}()
}

func main() {
	stuck := flag.Bool("stuck", false, "unbuffered results: the workers block")
	out := flag.String("out", "", "file prefix for debug=2 dumps (none: wait for SIGQUIT)")
	n := flag.Int("n", 2, "dumps to write, 3 s apart")
	client := flag.Bool("client", true, "ask the program's own server (the second caller is a request); false: the second caller is a goroutine a scheduler starts")
	flag.Parse()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	jobs := []int{1000, 2000, 3000, 4000}
	http.HandleFunc("/batch", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, batch.RunBatch(jobs, !*stuck))
	})
	go http.Serve(ln, nil)
	go func() {
		for {
			batch.RunBatch(jobs, !*stuck)
			time.Sleep(time.Millisecond)
		}
	}()
	if *client {
		go func() {
			for {
				resp, err := http.Get("http://" + ln.Addr().String() + "/batch")
				if err == nil {
					resp.Body.Close()
				}
				time.Sleep(time.Millisecond)
			}
		}()
	} else {
		go scheduler(jobs, !*stuck)
	}
	if *out == "" {
		select {}
	}
	time.Sleep(2 * time.Second)
	for i := 1; i <= *n; i++ {
		f, err := os.Create(fmt.Sprintf("%s%d.txt", *out, i))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		pprof.Lookup("goroutine").WriteTo(f, 2)
		f.Close()
		if i < *n {
			time.Sleep(3 * time.Second)
		}
	}
}
