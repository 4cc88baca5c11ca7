// Package collect gathers the results of parallel lookups (written for
// dumpdiff's testdata, issue 33: a go test timeout whose collector waits
// while the workers it started block in their sends).
package collect

import (
	"errors"
	"sync"
	"time"
)

// Gather runs one worker per key, each sending its result on an
// unbuffered channel, and returns at the first error: the workers that
// have not sent yet block in their send for good, and the WaitGroup's
// closer with them, while Gather's caller waits for the done channel
// that only the closer closes.
func Gather(keys []string, done chan struct{}) error {
	results := make(chan error)
	var wg sync.WaitGroup
	for _, k := range keys {
		wg.Add(1)
		go func(k string) {
			defer wg.Done()
			results <- lookup(k)
		}(k)
	}
	go func() {
		wg.Wait()
		close(done)
	}()
	for range keys {
		if err := <-results; err != nil {
			return err
		}
	}
	return nil
}

func lookup(k string) error {
	if k == "" {
		return errors.New("empty key")
	}
	time.Sleep(50 * time.Millisecond) // a lookup: the error comes first
	return nil
}
