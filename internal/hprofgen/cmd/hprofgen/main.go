// Command hprofgen writes a HotSpot-shaped heap dump of a given size for
// the reader's benchmark (make bench-hprof): 200 threads of a JDK 17
// layout, their names after the thread objects, and filler objects to the
// size asked.
//
//	go run ./internal/hprofgen/cmd/hprofgen -o heap.hprof -gib 4
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/dumpdiff/dumpdiff/internal/hprofgen"
)

func main() {
	out := flag.String("o", "heap.hprof", "file to write")
	gib := flag.Float64("gib", 4, "size of the heap's filler objects, in GiB")
	threads := flag.Int("threads", 200, "live threads")
	flag.Parse()
	spec := hprofgen.Spec{Layout: hprofgen.JDK17, IDSize: 8, Millis: 1765000000000, FillerBytes: int64(*gib * (1 << 30)), Seed: 1}
	for i := range *threads {
		spec.Threads = append(spec.Threads, hprofgen.Thread{
			Name: fmt.Sprintf("task-%d", i+1), TID: int64(i + 1), Priority: 5, Status: 0x291, Blocker: i%2 == 0,
			Frames: []hprofgen.Frame{
				{Class: "jdk/internal/misc/Unsafe", Method: "park", Line: -3},
				{Class: "java/util/concurrent/locks/LockSupport", Method: "park", File: "LockSupport.java", Line: 341},
				{Class: "com/example/Task", Method: "run", File: "Task.java", Line: 10 + int32(i%7)},
			},
		})
	}
	f, err := os.Create(*out)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	n, err := hprofgen.Write(f, spec)
	if err == nil {
		err = f.Close()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "wrote %s: %d bytes\n", *out, n)
}
