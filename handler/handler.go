// Package handler serves a Go process's full goroutine dump in one stop of
// the world, for teams who own the service and want it cheap to dump.
//
// net/http/pprof's goroutine?debug=2 calls runtime.Stack(buf, true) with a
// 1 MiB buffer and, while the dump does not fit, again with a buffer twice
// as large, up to 64 MiB, where it gives up and sends the cut dump. Each call
// stops the world and walks every goroutine, even when its buffer is too
// small: a 100k-goroutine dump is 7 stops, and past 64 MiB the dump is cut.
// Handler sizes its buffer from runtime.NumGoroutine() and what the last
// dump weighed per goroutine, so a dump is one stop, and it has no cap.
//
//	mux.Handle(handler.Path, handler.New()) // beside net/http/pprof
//
// dumpdiff capture asks for Path under the target's pprof base first and
// falls back to net/http/pprof when it answers 404. The body is the text
// of goroutine?debug=2; on Go 1.27+ a garbage collection marks leaked
// goroutines first, as goroutineleak?debug=2 does (?leaks=0 skips it).
// Response headers say what it cost:
//
//	Dumpdiff-Goroutines: 100004   runtime.NumGoroutine() before the dump
//	Dumpdiff-Stop: 362.1ms        how long runtime.Stack held the world stopped
//	Dumpdiff-Walks: 1             how many walks it took (2 when the guess was short)
//
// A HEAD request takes no dump: it answers Dumpdiff-Goroutines only, to tell
// the handler is there.
//
// Serve it where pprof is served: behind the same authentication, never to
// the open internet. It imports only the standard library.
package handler

import (
	"io"
	"net/http"
	"runtime"
	"runtime/pprof"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Path is where dumpdiff capture looks for the handler, under the pprof
// base path ("/debug/pprof").
const Path = "/debug/pprof/dumpdiff/goroutine"

const (
	// firstGuess is the buffer per goroutine before any dump was taken:
	// a goroutine of a dozen frames prints about 1 KiB.
	firstGuess = 2 << 10
	// slack is added to the buffer: goroutines started between the count
	// and the stop.
	slack = 1 << 20
)

// Handler serves the full goroutine dump. The zero value is ready to use;
// New returns one. It is safe for concurrent use: dumps are taken one at a
// time (two at once would only stop the world twice).
type Handler struct {
	mu   sync.Mutex   // one dump at a time
	perG atomic.Int64 // bytes per goroutine of the last dump, plus a quarter
}

// New returns a Handler.
func New() *Handler { return &Handler{} }

// ServeHTTP writes the dump.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if r.Method == http.MethodHead {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Dumpdiff-Goroutines", strconv.Itoa(runtime.NumGoroutine()))
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	var leakCheck time.Duration
	ran := false
	if r.URL.Query().Get("leaks") != "0" {
		start := time.Now()
		if ran = markLeaks(); ran {
			leakCheck = time.Since(start)
		}
	}
	n := runtime.NumGoroutine()
	buf, walks, stop := h.dump(n)
	hd := w.Header()
	hd.Set("Content-Type", "text/plain; charset=utf-8")
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Content-Length", strconv.Itoa(len(buf)))
	hd.Set("Dumpdiff-Goroutines", strconv.Itoa(n))
	hd.Set("Dumpdiff-Stop", stop.String())
	hd.Set("Dumpdiff-Walks", strconv.Itoa(walks))
	if ran {
		// The leak collection is a GC cycle before the dump, not the
		// dump's walk: told apart, so that the stop per goroutine capture
		// learns from Dumpdiff-Stop stays the walk's.
		hd.Set("Dumpdiff-Leak-Check", leakCheck.String())
	}
	w.Write(buf)
}

// dump takes runtime.Stack of every goroutine into one buffer sized for n
// goroutines; in the rare case it is too small (goroutines grew, deeper
// stacks) it doubles and walks again. stop is the time spent in
// runtime.Stack: the world is stopped throughout.
func (h *Handler) dump(n int) (buf []byte, walks int, stop time.Duration) {
	per := h.perG.Load()
	if per == 0 {
		per = firstGuess
	}
	size := int64(n)*per + slack
	for {
		buf = make([]byte, size)
		start := time.Now()
		k := runtime.Stack(buf, true)
		stop += time.Since(start)
		walks++
		if k < len(buf) {
			buf = buf[:k]
			break
		}
		size *= 2
	}
	if n > 0 {
		h.perG.Store(int64(len(buf))/int64(n) + int64(len(buf))/int64(n)/4 + 1)
	}
	return buf, walks, stop
}

// markLeaks runs the goroutine leak detection of Go 1.27+ (a garbage
// collection that marks goroutines blocked forever as leaked, which the
// dump then prints), through the goroutineleak profile, whose own output
// (the leaked goroutines only) is discarded. Before Go 1.27 there is no
// such profile and nothing is done.
func markLeaks() bool {
	p := pprof.Lookup("goroutineleak")
	if p == nil {
		return false
	}
	p.WriteTo(io.Discard, 1)
	return true
}
