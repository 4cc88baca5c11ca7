package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"sync"

	"github.com/dumpdiff/dumpdiff/parse"
)

// prefetch parses files ahead of the loader, a few at a time: the moments
// of one analysis are independent, and at 1M goroutines a moment's parse
// is seconds of CPU, so on 2 cores the second moment is read while the
// first is. The loader still takes the results in its own order (get
// waits for the one it asks for), so warnings, errors and moment order are
// exactly those of a sequential read; a file never started is parsed when
// asked for.
type prefetch struct {
	mu   sync.Mutex
	jobs map[string]*parseJob
	sem  chan struct{}
}

type parseJob struct {
	done  chan struct{}
	dumps []*parse.Dump
	err   error
}

// newPrefetch runs up to prefetchParallel() parses at once.
func newPrefetch() *prefetch {
	return &prefetch{jobs: map[string]*parseJob{}, sem: make(chan struct{}, prefetchParallel())}
}

// prefetchParallel is how many files are parsed at once: more than
// GOMAXPROCS, because a parse runs on one core (on a small machine the Go
// text parser does not split itself) and GOMAXPROCS at a time leaves cores
// idle at the tail: 3 moments on 2 cores took two rounds, the second on
// one core (7.5 s against 4.8 s for all three side by side, at 1M
// goroutines each). Each parse holds only its own moment and a few
// buffers beyond it (all moments are kept for the analysis anyway); the
// bound keeps open files and those buffers few with many small dumps.
func prefetchParallel() int {
	return max(8, 2*runtime.GOMAXPROCS(0))
}

// start begins parsing paths in the background (each path once).
func (p *prefetch) start(paths ...string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, path := range paths {
		if _, ok := p.jobs[path]; ok {
			continue
		}
		j := &parseJob{done: make(chan struct{})}
		p.jobs[path] = j
		go func() {
			p.sem <- struct{}{}
			defer func() { <-p.sem }()
			j.dumps, j.err = parse.ParseFile(path)
			close(j.done)
		}()
	}
}

// get is parse.ParseFile(path), from the background parse when one was
// started. A result is handed out once: the loader does not hold every
// moment twice.
func (p *prefetch) get(path string) ([]*parse.Dump, error) {
	if p == nil {
		return parse.ParseFile(path)
	}
	p.mu.Lock()
	j, ok := p.jobs[path]
	delete(p.jobs, path)
	p.mu.Unlock()
	if !ok {
		return parse.ParseFile(path)
	}
	<-j.done
	return j.dumps, j.err
}

// loadGCPercent is the garbage collector's target while dumps are read
// and analyzed. Reading builds the moments and little else: nearly the
// whole heap is live, so each collection at the default 100 marks it all
// again to free almost nothing (at 1M goroutines a moment, 10-15% of a
// parse's CPU went to marking and write barriers). At 400 the heap may
// grow five-fold between collections instead of two-fold, so there are
// about half as many, each still marking a live heap; what a parse frees
// (map growth, read buffers) is small, so the peak grows little: 3 × 1M
// goroutines, 5 interleaved runs with GOGC=400 for the whole run, CPU
// median 8.55 -> 7.50 s, peak RSS 826 -> 881 MB. A GOGC the user set is
// kept.
//
// The percent holds through the analysis too, and for a report until the
// process exits: the analysis makes about 80 bytes a goroutine, most of
// it kept (the groups' thread lists), and the default percent restored
// before it collected at once (its goal, twice the heap marked during the
// parse, was behind the heap), marking the whole live heap to free a
// tenth of it: 3 × 1M goroutines, 0.45 CPU-s. Restored between analysis
// and report, the same collection came while the report was written. The
// TUI, which browses the result for minutes, gets the usual percent back
// once its analysis is made.
const loadGCPercent = 400

// loadGC sets loadGCPercent for the duration of a load (and what follows
// it, see loadGCPercent) and returns the function that restores the
// previous percent.
func loadGC() (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(loadGCPercent)
	return func() { debug.SetGCPercent(old) }
}
