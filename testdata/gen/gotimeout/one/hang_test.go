package one

import (
	"sync"
	"testing"
)

// TestTransfer takes two mutexes in one order while a goroutine it starts
// takes them in the other: both wait for ever, and go test's -timeout
// panics with the goroutine dump.
func TestTransfer(t *testing.T) {
	var a, b sync.Mutex
	aHeld, bHeld := make(chan struct{}), make(chan struct{})
	go func() {
		b.Lock()
		close(bHeld)
		<-aHeld
		a.Lock()
	}()
	a.Lock()
	close(aHeld)
	<-bHeld
	b.Lock()
}

// TestQuick passes; it is not running when the timeout fires.
func TestQuick(t *testing.T) {}
