// Command sigterm is a test-only program for TestSIGTERMMidCapture: a
// capture wired as a command wires it (signal.NotifyContext around Run), so
// the test can stop it with a real SIGTERM while a dump is in flight.
//
//	sigterm OUTDIR FASTCOMMAND SLOWCOMMAND
//
// It takes two moments of two exec targets, "fast" and "slow", prints
// progress lines on stderr, and exits 1 with "capture: <error>" when Run
// fails.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/dumpdiff/dumpdiff/capture"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: sigterm OUTDIR FASTCOMMAND SLOWCOMMAND")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	_, err := capture.Run(ctx, capture.Plan{
		Targets: []capture.Target{
			capture.ExecTarget("fast", os.Args[2]),
			capture.ExecTarget("slow", os.Args[3]),
		},
		Count:   2,
		Every:   time.Millisecond,
		OutDir:  os.Args[1],
		Timeout: time.Minute, // only the signal may end the slow command
	}, &capture.LineProgress{W: os.Stderr})
	if err != nil {
		fmt.Fprintln(os.Stderr, "capture:", err)
		os.Exit(1)
	}
}
