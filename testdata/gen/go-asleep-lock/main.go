// Command go-asleep-lock takes a mutex in a goroutine that returns
// without unlocking it on one path (an early return), then a second
// goroutine asks for the mutex while main waits for both on a WaitGroup:
// every goroutine is asleep and the runtime stops the program. Written
// for dumpdiff's testdata (issue 33); stdlib only, builds with Go 1.13.
package main

import (
	"errors"
	"sync"
)

type store struct {
	mu   sync.Mutex
	rows map[string]int
}

// put forgets to unlock when the key is empty.
func (s *store) put(k string, v int) error {
	s.mu.Lock()
	if k == "" {
		return errors.New("empty key")
	}
	s.rows[k] = v
	s.mu.Unlock()
	return nil
}

func main() {
	s := &store{rows: map[string]int{}}
	var wg sync.WaitGroup
	wg.Add(2)
	done := make(chan bool)
	go func() {
		defer wg.Done()
		s.put("", 1)
		close(done)
	}()
	go func() {
		defer wg.Done()
		<-done
		s.put("b", 2)
	}()
	wg.Wait()
}
