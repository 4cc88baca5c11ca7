package analyze

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// riseDump writes a Go dump with k goroutines of main.serve's workers
// reading a socket under main.fetch, and 3 idle ones beside them.
func riseDump(k int) string {
	var b strings.Builder
	id := 10
	for range k {
		fmt.Fprintf(&b, "goroutine %d [IO wait]:\ninternal/poll.runtime_pollWait(0x7f, 0x72)\n\t/usr/local/go/src/runtime/netpoll.go:351 +0x85\n"+
			"internal/poll.(*FD).Read(0xc0001, {0xc0002, 0x1000, 0x1000})\n\t/usr/local/go/src/internal/poll/fd_unix.go:165 +0x27a\n"+
			"net.(*conn).Read(0xc0003, {0xc0002?, 0x0?, 0x0?})\n\t/usr/local/go/src/net/net.go:196 +0x45\n"+
			"main.fetch(0xc0004)\n\t/app/main.go:40 +0x55\ncreated by main.serve in goroutine 1\n\t/app/main.go:20 +0x65\n\n", id)
		id++
	}
	for range 3 {
		fmt.Fprintf(&b, "goroutine %d [select]:\nmain.tick()\n\t/app/main.go:60 +0x40\ncreated by main.main in goroutine 1\n\t/app/main.go:12 +0x30\n\n", id)
		id++
	}
	return b.String()
}

// TestRiseOnceNotCritical: of three moments or more, a rise seen at the
// last one alone (a watch ring's newest tick, a machine that stalled for
// a moment) is not-recovered as a warning, never critical: one moment
// cannot show that threads stay. The same rise at the last two moments is
// critical from NotRecoveredCriticalMin threads, and so is a rise between
// two moments, all a before/after comparison has. Generated: 200 series.
func TestRiseOnceNotCritical(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for i := range 200 {
		n := 3 + rng.IntN(6)
		high := NotRecoveredCriticalMin + rng.IntN(40)
		stay := 1 + rng.IntN(2) // moments at the end that hold the rise
		if i%5 == 0 {
			n, stay = 2, 1 // before and after
		}
		counts := make([]int, n)
		for m := range counts {
			if m >= n-stay {
				counts[m] = high
			}
		}
		var in []Input
		for m, c := range counts {
			ds, err := parse.Parse(fmt.Sprintf("m%d.txt", m), strings.NewReader(riseDump(c)))
			if err != nil {
				t.Fatal(err)
			}
			in = append(in, Input{Label: fmt.Sprintf("m%d", m+1), Dump: ds[0]})
		}
		var got *Finding
		for _, f := range Analyze(in, Options{}).Findings {
			if f.Kind == KindNotRecovered && f.State == "socket-read" {
				got = &f
			}
		}
		if got == nil {
			t.Fatalf("counts %v: no not-recovered finding on the socket read", counts)
		}
		once := n >= 3 && stay == 1
		if once && got.Severity == Critical || !once && got.Severity != Critical {
			t.Errorf("counts %v: not-recovered %s, want critical: %v", counts, got.Severity, !once)
		}
	}
}
