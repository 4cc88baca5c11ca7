package analyze

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// pasteGoroutine writes one debug=2 goroutine: its header with a printed
// wait, its frames "func:line" top first.
func pasteGoroutine(b *strings.Builder, id, minutes int, state string, frames ...string) {
	if minutes > 0 {
		fmt.Fprintf(b, "goroutine %d [%s, %d minutes]:\n", id, state, minutes)
	} else {
		fmt.Fprintf(b, "goroutine %d [%s]:\n", id, state)
	}
	for _, f := range frames {
		fn, line, _ := strings.Cut(f, ":")
		file := "/src/app/main.go"
		if !strings.HasPrefix(fn, "main.") {
			file = "/usr/local/go/src/" + strings.ReplaceAll(fn[:strings.LastIndexByte(fn[:strings.IndexByte(fn, '.')+1], '/')+1], ".", "") + "x.go"
		}
		fmt.Fprintf(b, "%s(...)\n\t%s:%s +0x1d\n", fn, file, line)
	}
	b.WriteString("created by main.main in goroutine 1\n\t/src/app/main.go:9 +0x2c\n\n")
}

// The rests of a paste: a socket read and a channel receive under a call
// the goroutine's own function made (stuck when chosen and old), a
// worker's receive in its own function and net/http's keep-alive read (a
// library's loop): rests by design whatever their age.
var (
	readUnder = []string{"IO wait", "internal/poll.runtime_pollWait:351", "net.(*conn).Read:196", "main.readReply:111", "main.poll:120"}
	recvCall  = []string{"chan receive", "runtime.chanrecv1:1", "main.awaitSummary:80", "main.report:84"}
	recvOwn   = []string{"chan receive", "runtime.chanrecv2:1", "main.idleWorker:167"}
	keepAlive = []string{"IO wait", "internal/poll.runtime_pollWait:351", "net.(*conn).Read:196", "net/http.(*persistConn).Read:2125",
		"bufio.(*Reader).fill:113", "net/http.(*persistConn).readLoop:2278"}
)

// TestPastedRestProperty: in one generated Go paste a person cut (no
// goroutine 1), rests under a call of the goroutine's own printed as
// waiting WorkRestMinutes or more are stuck (work-wait) when they are
// ChosenShare or more of the paste; never in a whole dump (goroutine 1
// in it), never below WorkRestMinutes, and never for rests in a
// goroutine's own function or a library's loop, however old. Seeded.
func TestPastedRestProperty(t *testing.T) {
	for seed := range uint64(400) {
		rng := rand.New(rand.NewPCG(seed, 35))
		k := rng.IntN(2)
		shape := [][]string{readUnder, recvCall}[k]
		culprit := []string{"main.readReply ", "main.awaitSummary "}[k]
		chosen := 1 + rng.IntN(3)
		age := []int{0, 1, WorkRestMinutes - 1, WorkRestMinutes, 88, 300}[rng.IntN(6)]
		own := rng.IntN(4) // old rests in their own function
		lib := rng.IntN(4) // old keep-alive reads
		whole := rng.IntN(4) == 0
		var b strings.Builder
		id := 20
		if whole {
			pasteGoroutine(&b, 1, 0, "select", "main.main:30")
		}
		for range chosen {
			pasteGoroutine(&b, id, age, shape[0], shape[1:]...)
			id++
		}
		for range own {
			pasteGoroutine(&b, id, 300, recvOwn[0], recvOwn[1:]...)
			id++
		}
		for range lib {
			pasteGoroutine(&b, id, 300, keepAlive[0], keepAlive[1:]...)
			id++
		}
		ds, err := parse.Parse("paste.txt", strings.NewReader(b.String()))
		if err != nil || len(ds) != 1 {
			t.Fatalf("seed %d: %v", seed, err)
		}
		r := Analyze([]Input{{Dump: ds[0]}}, Options{})
		var got []Finding
		for _, f := range r.Findings {
			if f.Kind == KindStuck && strings.HasPrefix(f.Culprit, culprit) {
				got = append(got, f)
			}
		}
		app := chosen + own + lib
		if whole {
			app++
		}
		want := !whole && age >= WorkRestMinutes && float64(chosen) >= ChosenShare*float64(app)
		if want != (len(got) == 1) || len(got) > 1 {
			t.Errorf("seed %d (%s ×%d, %d minutes, own %d, keep-alive %d, whole %v): %d stuck findings naming it, want %v\n%s",
				seed, shape[0], chosen, age, own, lib, whole, len(got), want, b.String())
			continue
		}
		if want && (got[0].Wait == nil || got[0].Wait.Goroutines != chosen) {
			t.Errorf("seed %d: told %+v, want %d goroutines", seed, got[0].Wait, chosen)
		}
		for _, f := range r.Findings {
			if strings.Contains(f.Culprit, "idleWorker") || strings.Contains(f.Culprit, "readLoop") {
				t.Errorf("seed %d: a rest by design is a finding: %s %s", seed, f.Kind, f.Culprit)
			}
		}
	}
}
