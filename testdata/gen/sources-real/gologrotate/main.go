// Command gologrotate runs the standard library's log.Logger into a
// rotating writer, and writes its own goroutine dumps (pprof debug=2) at the
// given moments: a second, independent source for the Go two-mutex order
// rule (issue 33; testdata/verdicts/src2-go-logrotate and
// src2-go-logrotate-healthy).
//
//	-mode abba     the rotation re-points the logger (SetOutput: the
//	               logger's mutex) while holding the rotator's mutex, and
//	               the logger writes (holding its mutex) into the rotator:
//	               the classic log-rotation deadlock.
//	-mode ordered  the rotation releases its mutex before SetOutput.
package main

import (
	"flag"
	"log"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"time"
)

// rotator is a log sink that is swapped for a fresh one on rotation.
type rotator struct {
	mu     sync.Mutex
	sink   []byte
	rolled int
	logger *log.Logger
}

func (r *rotator) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sink = append(r.sink, p...)
	return len(p), nil
}

// rotate swaps the sink and re-points the logger at the rotator.
func (r *rotator) rotate(ordered bool) {
	r.mu.Lock()
	r.sink = make([]byte, 0, 4096)
	r.rolled++
	if ordered {
		r.mu.Unlock()
		r.logger.SetOutput(r)
		return
	}
	r.logger.SetOutput(r)
	r.mu.Unlock()
}

func worker(l *log.Logger, id int) {
	for i := 0; ; i++ {
		l.Printf("worker %d: request %d served", id, i)
		time.Sleep(time.Millisecond)
	}
}

func rotation(r *rotator, ordered bool) {
	for {
		r.rotate(ordered)
		time.Sleep(time.Millisecond)
	}
}

func main() {
	mode := flag.String("mode", "abba", "abba or ordered")
	out := flag.String("out", ".", "directory for the dumps")
	at := flag.String("at", "3,6,9", "seconds after start of each debug=2 dump")
	flag.Parse()
	start := time.Now()
	r := &rotator{}
	r.logger = log.New(r, "svc ", log.LstdFlags)
	for i := 1; i <= 3; i++ {
		go worker(r.logger, i)
	}
	go rotation(r, *mode == "ordered")
	for i, s := range strings.Split(*at, ",") {
		sec, _ := strconv.ParseFloat(s, 64)
		time.Sleep(time.Until(start.Add(time.Duration(sec * float64(time.Second)))))
		f, err := os.Create(filepath.Join(*out, strconv.Itoa(i+1)+".txt"))
		if err != nil {
			panic(err)
		}
		pprof.Lookup("goroutine").WriteTo(f, 2)
		f.Close()
	}
}
