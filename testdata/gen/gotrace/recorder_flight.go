//go:build go1.25

package main

import (
	"log"
	"os"
	"runtime/trace"
	"time"
)

// recorder is runtime/trace's flight recorder; stop writes its snapshot.
type recorder struct {
	fr   *trace.FlightRecorder
	path string
}

func startRecorder(path string) *recorder {
	fr := trace.NewFlightRecorder(trace.FlightRecorderConfig{MinAge: 10 * time.Second, MaxBytes: 16 << 20})
	if err := fr.Start(); err != nil {
		log.Fatal(err)
	}
	return &recorder{fr: fr, path: path}
}

func (r *recorder) stop() {
	f, err := os.Create(r.path)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := r.fr.WriteTo(f); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
	r.fr.Stop()
}
