package analyze

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// BenchmarkSpinningRunnable is the spinning detector's worst case: three
// moments of 50,000 goroutines all runnable in the same functions, the
// very same goroutines at every moment (every one is followed and
// compared, and all 150,000 spin and are claimed), against
// BenchmarkDetectors' real dump with one running goroutine (no cost seen
// there). On 2 shared cores: the first version took 157 ms and 401,803
// allocations an op; following only the last moment's runnable threads,
// in one flat slice sized up front, comparing each pair of stacks once
// and making a frame's string once took it to ~70 ms and 931 (the
// claims of 150,000 threads are most of what is left; before the
// detector, the other detectors took 0.03 ms on this input).
func BenchmarkSpinningRunnable(b *testing.B) {
	var in []Input
	for m := range 3 {
		var sb strings.Builder
		for i := range 50000 {
			fmt.Fprintf(&sb, "goroutine %d [runnable]:\nmain.work(...)\n\t/x/main.go:%d +0x1\nmain.loop()\n\t/x/main.go:20 +0x2\ncreated by main.main in goroutine 1\n\t/x/main.go:5 +0x3\n\n", i+2, 10+m)
		}
		ds, err := parse.Parse(fmt.Sprintf("%d.txt", m), strings.NewReader(sb.String()))
		if err != nil {
			b.Fatal(err)
		}
		in = append(in, Input{Dump: ds[0]})
	}
	r, opt, bd := prepare(in, Options{})
	for b.Loop() {
		runDetectors(r, opt, bd.classes, bd.goLocks)
	}
	b.ReportMetric(150000, "goroutines/op")
}
