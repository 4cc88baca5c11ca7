// Command gostackparse-stats parses each goroutine dump with
// github.com/DataDog/gostackparse and prints its goroutine count: the peer's
// whole-process equivalent of `dumpdiff parse --stats`, for bench/compare.sh.
//
//	gostackparse-stats FILE...
package main

import (
	"fmt"
	"os"

	"github.com/DataDog/gostackparse"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: gostackparse-stats FILE...")
		os.Exit(2)
	}
	status := 0
	for _, name := range os.Args[1:] {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, "gostackparse-stats:", err)
			status = 1
			continue
		}
		// Parse reads through its own bufio.Reader; no extra buffering here.
		goroutines, errs := gostackparse.Parse(f)
		f.Close()
		fmt.Printf("%s goroutines=%d errors=%d\n", name, len(goroutines), len(errs))
	}
	os.Exit(status)
}
