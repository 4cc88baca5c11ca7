package handler

import (
	"bytes"
	"fmt"
	"net/http"
	"runtime/trace"
	"strconv"
	"sync"
	"time"
)

// FlightPath is where dumpdiff capture looks for a Flight, under the pprof
// base path ("/debug/pprof").
const FlightPath = "/debug/pprof/dumpdiff/flight"

// Flight serves the last seconds of the process's execution trace, kept in
// memory by runtime/trace's flight recorder (Go 1.25+): every goroutine's
// state and stack about once a second, and every change of state between
// them with its time. dumpdiff reads the snapshot as one moment a second,
// with exact wait times — the seconds before an incident, even when nobody
// was taking dumps.
//
//	f, err := handler.NewFlight(10*time.Second, 16<<20)
//	if err == nil {
//		mux.Handle(handler.FlightPath, f) // beside Path and net/http/pprof
//	}
//
// It is opt-in because tracing costs the service something all the time
// (Go's team puts it at a few percent of CPU; the README has what it cost
// here): the recorder runs from NewFlight until Stop. Window and MaxBytes
// bound what it keeps: at least Window of trace, at most MaxBytes (the
// older seconds go first when the bytes are reached). A GET writes the
// snapshot (application/octet-stream; Dumpdiff-Window and Dumpdiff-Bytes
// say the bounds and the size); a HEAD answers the bounds without a
// snapshot, to tell the endpoint is there. One snapshot at a time: the
// recorder allows one writer, so a second request while one is written
// waits for it. Dumpdiff-Write says how long the snapshot took.
//
// Serve it where pprof is served, behind the same authentication: a trace
// holds function names, file paths and goroutine stacks.
type Flight struct {
	fr       *trace.FlightRecorder
	window   time.Duration
	maxBytes uint64
	// mu serializes WriteTo: the recorder refuses a second concurrent
	// writer, and a snapshot is taken into buf before any byte is sent so
	// that a slow client does not hold the recorder.
	mu sync.Mutex
}

// NewFlight starts a flight recorder keeping at least window of trace and
// at most maxBytes (window 0 and maxBytes 0 take the runtime's defaults).
// It fails when another flight recorder or trace cannot run beside it.
func NewFlight(window time.Duration, maxBytes uint64) (*Flight, error) {
	fr := trace.NewFlightRecorder(trace.FlightRecorderConfig{MinAge: window, MaxBytes: maxBytes})
	if err := fr.Start(); err != nil {
		return nil, fmt.Errorf("starting the flight recorder: %w", err)
	}
	return &Flight{fr: fr, window: window, maxBytes: maxBytes}, nil
}

// Stop ends the recorder; a request after it answers 503.
func (f *Flight) Stop() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fr != nil {
		f.fr.Stop()
		f.fr = nil
	}
}

// ServeHTTP writes the recorder's snapshot.
func (f *Flight) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	hd := w.Header()
	hd.Set("Dumpdiff-Window", f.window.String())
	hd.Set("Dumpdiff-Max-Bytes", strconv.FormatUint(f.maxBytes, 10))
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fr == nil || !f.fr.Enabled() {
		http.Error(w, "the flight recorder is stopped", http.StatusServiceUnavailable)
		return
	}
	if r.Method == http.MethodHead {
		hd.Set("Content-Type", "application/octet-stream")
		return
	}
	var buf bytes.Buffer
	start := time.Now()
	if _, err := f.fr.WriteTo(&buf); err != nil {
		http.Error(w, "writing the flight recorder's snapshot: "+err.Error(), http.StatusInternalServerError)
		return
	}
	hd.Set("Content-Type", "application/octet-stream")
	hd.Set("Content-Disposition", `attachment; filename="flight.trace"`)
	hd.Set("Content-Length", strconv.Itoa(buf.Len()))
	hd.Set("Dumpdiff-Write", time.Since(start).String())
	w.Write(buf.Bytes())
}
