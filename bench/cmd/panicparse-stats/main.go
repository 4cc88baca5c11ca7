// Command panicparse-stats parses each goroutine dump with
// github.com/maruel/panicparse/v2/stack.ScanSnapshot and prints the goroutine
// count of every snapshot found: the peer's whole-process equivalent of
// `dumpdiff parse --stats`, for bench/compare.sh.
//
// Options are the zero stack.Opts: parse only, no argument naming (O(n²))
// and no path guessing (which reads the local disk), as dumpdiff does.
//
//	panicparse-stats FILE...
package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/maruel/panicparse/v2/stack"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: panicparse-stats FILE...")
		os.Exit(2)
	}
	status := 0
	for _, name := range os.Args[1:] {
		if err := stats(name); err != nil {
			fmt.Fprintln(os.Stderr, "panicparse-stats:", err)
			status = 1
		}
	}
	os.Exit(status)
}

func stats(name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	var in io.Reader = bufio.NewReaderSize(f, 1<<20)
	for k := 1; ; k++ {
		s, suffix, err := stack.ScanSnapshot(in, io.Discard, &stack.Opts{})
		if s != nil {
			fmt.Printf("%s#%d goroutines=%d\n", name, k, len(s.Goroutines))
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if s == nil {
			return nil
		}
		// The bytes after the snapshot may start the next one.
		in = io.MultiReader(bytes.NewReader(suffix), in)
	}
}
