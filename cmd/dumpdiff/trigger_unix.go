//go:build unix

package main

import (
	"os"
	"os/signal"
	"syscall"
)

// triggerSignal turns SIGUSR1 into watch triggers of every target (`kill
// -USR1 PID` from a shell); stop ends it.
func triggerSignal() (<-chan string, func()) {
	sig := make(chan os.Signal, 1)
	out := make(chan string, 1)
	done := make(chan struct{})
	signal.Notify(sig, syscall.SIGUSR1)
	go func() {
		for {
			select {
			case <-sig:
				select {
				case out <- "SIGUSR1":
				default: // one already waiting: the same moment answers both
				}
			case <-done:
				return
			}
		}
	}()
	return out, func() { signal.Stop(sig); close(done) }
}
