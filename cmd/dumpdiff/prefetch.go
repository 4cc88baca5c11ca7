package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
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

// While dumps are read and analyzed (and, for a report, until it is
// written and the process exits), the collector is off, under a memory
// limit sized from the input. Reading builds the moments and little
// else: nearly the whole heap is live, so every collection marks it all
// again to free almost nothing. Measured, 3 × 1M goroutines (911 MB a
// file), 6 interleaved runs: CPU median 6.31 -> 5.69 s and wall 3.31 ->
// 2.99 s against GOGC=400, peak RSS 700 -> 768 MB. (At the default 100,
// 10-15% of a parse's CPU was marking and write barriers; 400, kept
// before this, halved the collections.)
//
// The limit is what keeps this safe: the parsers allocate at most about
// 1.5 times what they read, of which most is kept (measured on every
// corpus file: a 911 MB Go dump allocates 0.2 of its size, a jstack up to
// 2.4 times a small file's, with 1 MiB of read buffer a file), and the
// analysis about 80 bytes a goroutine. So the collector starts again only
// past loadLimitFactor times the input (a gzip file counted as
// gzipRatio times its size), or loadLimitFloor for small inputs, and then
// runs as the limit asks, never short of what the heap holds live. An
// input of unknown size (standard input, a pipe) keeps the GOGC=400 of
// before instead. A GOGC or GOMEMLIMIT the user set is kept.
//
// The TUI, which browses the result for minutes, gets the usual settings
// back once its analysis is made.
const (
	loadGCPercent   = 400     // when the input's size is unknown
	loadLimitFactor = 4       // the memory limit, in input bytes
	loadLimitFloor  = 1 << 30 // the least memory limit (small inputs)
	gzipRatio       = 20      // what a gzip file is counted as, in its bytes
)

// loadGC sets the collector for reading and analyzing args (files,
// folders, "-"; see loadGCPercent) and returns the function that restores
// the previous settings.
func loadGC(args []string) (restore func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	n, known := inputBytes(args)
	if !known {
		old := debug.SetGCPercent(loadGCPercent)
		return func() { debug.SetGCPercent(old) }
	}
	oldLimit := debug.SetMemoryLimit(max(loadLimitFloor, loadLimitFactor*n))
	old := debug.SetGCPercent(-1)
	return func() {
		debug.SetGCPercent(old)
		debug.SetMemoryLimit(oldLimit)
	}
}

// inputBytes is how much the analysis of args reads: regular files, and
// folders' files two levels down (a capture's); a gzip file counts
// gzipRatio times. known is false for "-", a pipe or a device.
func inputBytes(args []string) (n int64, known bool) {
	add := func(path string, st os.FileInfo) bool {
		if !st.Mode().IsRegular() {
			return false
		}
		size := st.Size()
		if f, err := os.Open(path); err == nil {
			var head [2]byte
			if k, _ := f.Read(head[:]); k == 2 && head[0] == 0x1f && head[1] == 0x8b {
				size *= gzipRatio
			}
			f.Close()
		}
		n += size
		return true
	}
	for _, a := range args {
		st, err := os.Stat(a)
		if a == "-" || err != nil {
			return 0, false
		}
		if !st.IsDir() {
			if !add(a, st) {
				return 0, false
			}
			continue
		}
		// The walk does not follow links; the folder and its files are
		// followed here, as the loader reads them.
		root, err := filepath.EvalSymlinks(a)
		if err != nil {
			return 0, false
		}
		filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if e.IsDir() {
				if strings.Count(p[len(root):], string(filepath.Separator)) >= 2 {
					return filepath.SkipDir
				}
				return nil
			}
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
				add(p, st)
			}
			return nil
		})
	}
	return n, true
}
