package main

import (
	"runtime"
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
