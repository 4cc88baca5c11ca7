// Package stoptest is a stopper's shutdown hang as a test meets it (the
// shape of cockroach's util/stop before PR 1055, written here from its
// description): Stop takes the stopper's mutex and waits for the workers;
// a worker, at the top of its loop, starts a task, which takes the same
// mutex. go test -timeout ends it with the goroutines' stacks.
//
// TestStopHealthy is its twin: Stop waits without the mutex, and the
// workers, told to stop, are in a last slow task (a sleep) when the
// test's own deadline comes.
package stoptest

import (
	"sync"
	"testing"
	"time"
)

type stopper struct {
	mu       sync.Mutex
	stopping bool
	wg       sync.WaitGroup
	holdLock bool
}

func (s *stopper) runWorker(f func()) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		f()
	}()
}

// startTask reports whether a task may start: not once stopping.
func (s *stopper) startTask() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.stopping
}

func (s *stopper) stop() {
	if s.holdLock {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.stopping = true
	} else {
		s.mu.Lock()
		s.stopping = true
		s.mu.Unlock()
	}
	s.wg.Wait()
}

func scan(s *stopper, slow bool) {
	for {
		if !s.startTask() {
			if slow {
				time.Sleep(10 * time.Minute) // a last flush
			}
			return
		}
		time.Sleep(time.Millisecond) // a task; the stop is seen by startTask
	}
}

func run(t *testing.T, holdLock bool) {
	s := &stopper{holdLock: holdLock}
	for i := 0; i < 3; i++ {
		s.runWorker(func() { scan(s, !holdLock) })
	}
	time.Sleep(50 * time.Millisecond)
	s.stop()
}

func TestStopDeadlock(t *testing.T) { run(t, true) }

func TestStopHealthy(t *testing.T) { run(t, false) }
