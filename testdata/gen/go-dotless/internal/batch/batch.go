// Package batch runs a batch of jobs on goroutines of their own.
package batch

import "sync"

// RunBatch starts one worker per job, each sending its result on an
// unbuffered channel; it waits for them all, then reads the results.
// With buffered false the workers block in their send (nobody reads
// until Wait returns) and Wait never returns. With buffered true the
// channel holds every result, and the batch ends.
func RunBatch(jobs []int, buffered bool) int {
	size := 0
	if buffered {
		size = len(jobs)
	}
	results := make(chan int, size)
	var wg sync.WaitGroup
	for _, j := range jobs {
		wg.Add(1)
		go func(j int) {
			defer wg.Done()
			results <- work(j)
		}(j)
	}
	wg.Wait()
	close(results)
	sum := 0
	for r := range results {
		sum += r
	}
	return sum
}

func work(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += i % 7
	}
	return s
}
