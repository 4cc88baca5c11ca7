// Command go-feeder is a feeder and a pool of 4 workers on one unbuffered
// channel, started by one function, each job taken under a mutex; it
// writes its own debug=2 goroutine dumps at 65, 70 and 75 s (the runtime
// prints a wait in minutes from one minute, dated at a garbage collection
// after the goroutine blocked: churn keeps it collecting) into -out as
// 1.txt, 2.txt, 3.txt.
//
// stuck: a goroutine takes the mutex and never gives it back (a call with
// no deadline, simulated by a sleep of an hour): the 4 workers wait in
// Lock, the feeder's send waits for them.
//
// healthy: the same, the holder gives the mutex back after 10 ms; the
// workers keep up with a job every 20 ms.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sync"
	"time"
)

type pool struct {
	mu   sync.Mutex
	jobs chan int
	done int
}

func (p *pool) worker() {
	for j := range p.jobs {
		p.process(j)
	}
}

func (p *pool) process(j int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += j & 1
}

func (p *pool) hold(d time.Duration) {
	p.mu.Lock()
	time.Sleep(d) // the call under the lock, simulated
	p.mu.Unlock()
}

func start(hold time.Duration, every time.Duration) {
	p := &pool{jobs: make(chan int)}
	for range 4 {
		go p.worker()
	}
	go p.hold(hold)
	time.Sleep(100 * time.Millisecond)
	go func() {
		for j := 0; ; j++ {
			p.jobs <- j
			time.Sleep(every)
		}
	}()
}

// churn allocates 64 KiB a millisecond and drops it every 64: the
// collector runs a few times a second, as in a service.
func churn() {
	var keep [][]byte
	for {
		keep = append(keep, make([]byte, 1<<16))
		if len(keep) > 64 {
			keep = nil
		}
		time.Sleep(time.Millisecond)
	}
}

func main() {
	mode := flag.String("mode", "stuck", "stuck or healthy")
	out := flag.String("out", ".", "folder for 1.txt, 2.txt, 3.txt")
	flag.Parse()
	switch *mode {
	case "stuck":
		start(time.Hour, 0)
	case "healthy":
		start(10*time.Millisecond, 20*time.Millisecond)
	default:
		fmt.Fprintln(os.Stderr, "mode:", *mode)
		os.Exit(2)
	}
	begin := time.Now()
	// (A single runtime.GC at 1 s was tried first: the waits printed no
	// minutes at 65 s; a collector that runs on its own, as a service's
	// does, dates them.)
	// The runtime dates a goroutine's wait (the minutes debug=2 prints)
	// at a collection after it blocked; a service allocates and collects
	// as it runs, this program hardly does: churn stands for that.
	go churn()
	for i := 1; i <= 3; i++ {
		time.Sleep(time.Until(begin.Add(time.Duration(60+5*i) * time.Second)))
		f, err := os.Create(filepath.Join(*out, fmt.Sprintf("%d.txt", i)))
		if err != nil {
			panic(err)
		}
		if err := pprof.Lookup("goroutine").WriteTo(f, 2); err != nil {
			panic(err)
		}
		f.Close()
	}
}
