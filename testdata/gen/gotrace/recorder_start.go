//go:build !go1.25

package main

import (
	"log"
	"os"
	"runtime/trace"
)

// recorder is a whole execution trace written as the run goes (Go before
// 1.25 has no flight recorder in runtime/trace).
type recorder struct{ f *os.File }

func startRecorder(path string) *recorder {
	f, err := os.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	if err := trace.Start(f); err != nil {
		log.Fatal(err)
	}
	return &recorder{f: f}
}

func (r *recorder) stop() {
	trace.Stop()
	if err := r.f.Close(); err != nil {
		log.Fatal(err)
	}
}
