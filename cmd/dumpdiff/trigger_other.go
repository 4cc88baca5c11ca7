//go:build !unix

package main

// triggerSignal: no SIGUSR1 here; triggers come through POST /trigger.
func triggerSignal() (<-chan string, func()) { return nil, func() {} }
