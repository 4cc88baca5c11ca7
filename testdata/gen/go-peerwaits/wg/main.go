// Command wg waits on sync.WaitGroups and writes its own debug=2 goroutine
// dumps (stdlib only, so that Go 1.13 builds it as Go 1.26 does).
//
// Both modes (healthy waits, at rest for minutes by design):
//   - main.exportAll waits for 3 exporters it started, each still in a
//     10-minute sleep (a slow export): alive, they will call Done;
//   - main.indexAll hands 2 tasks to a pool of 2 workers as closures
//     (main.indexAll.func1), still in their 10-minute sleep: they will
//     call Done.
//
// stuck adds:
//   - main.runBatch waits for 4 batchWorkers it started, which all
//     returned on their error path without calling Done: nothing is left
//     to count the group down;
//   - main.(*shutdown).wait waits for 2 closers (closures of itself) that
//     returned early, the same way.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sync"
	"time"
)

func exportAll() {
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go exporter(&wg)
	}
	wg.Wait()
}

func exporter(wg *sync.WaitGroup) {
	defer wg.Done()
	time.Sleep(10 * time.Minute)
}

type pool struct{ tasks chan func() }

func newPool(n int) *pool {
	p := &pool{tasks: make(chan func())}
	for i := 0; i < n; i++ {
		go p.worker()
	}
	return p
}

func (p *pool) worker() {
	for t := range p.tasks {
		t()
	}
}

func indexAll(p *pool) {
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		p.tasks <- func() {
			defer wg.Done()
			time.Sleep(10 * time.Minute)
		}
	}
	wg.Wait()
}

func runBatch(n int) {
	var wg sync.WaitGroup
	wg.Add(n)
	for i := 0; i < n; i++ {
		go batchWorker(&wg, i)
	}
	wg.Wait()
}

// batchWorker forgets Done on its error path (every item "fails" here).
func batchWorker(wg *sync.WaitGroup, i int) {
	if err := process(i); err != nil {
		return
	}
	wg.Done()
}

func process(i int) error { return fmt.Errorf("item %d: bad input", i) }

type shutdown struct{ wg sync.WaitGroup }

func (s *shutdown) wait() {
	for i := 0; i < 2; i++ {
		s.wg.Add(1)
		go func(i int) {
			if i >= 0 { // the early return skips Done
				return
			}
			s.wg.Done()
		}(i)
	}
	s.wg.Wait()
}

// housekeeping allocates a little every 100 ms, as a service does: the
// runtime stamps a goroutine's wait at the first GC after it began, and a
// program that allocates nothing is collected only every 2 minutes.
func housekeeping() {
	var keep [][]byte
	t := time.NewTicker(100 * time.Millisecond)
	for range t.C {
		keep = append(keep, make([]byte, 256<<10))
		if len(keep) > 8 {
			keep = keep[1:]
		}
	}
}

func main() {
	mode := flag.String("mode", "stuck", "stuck or healthy")
	out := flag.String("out", ".", "folder for the dumps")
	first := flag.Duration("first", 75*time.Second, "when the first dump is written")
	flag.Parse()
	go housekeeping()
	go exportAll()
	go indexAll(newPool(2))
	if *mode == "stuck" {
		go runBatch(4)
		go (&shutdown{}).wait()
	}
	time.Sleep(*first)
	for i := 1; i <= 3; i++ {
		f, err := os.Create(filepath.Join(*out, fmt.Sprintf("%d.txt", i)))
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.Lookup("goroutine").WriteTo(f, 2); err != nil {
			log.Fatal(err)
		}
		f.Close()
		if i < 3 {
			time.Sleep(5 * time.Second)
		}
	}
}
