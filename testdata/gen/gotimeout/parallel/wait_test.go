package parallel

import "testing"

// TestDrainA and TestDrainB run in parallel; each waits on a channel that
// nobody sends on, so both are running when go test's -timeout fires.
func TestDrainA(t *testing.T) {
	t.Parallel()
	<-make(chan int)
}

func TestDrainB(t *testing.T) {
	t.Parallel()
	select {}
}

func TestQuick(t *testing.T) {}
