package analyze

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// feederWaits are what a feeder's workers may be stuck in (a wait for
// something other than a channel), as Go 1.26 prints them.
var feederWaits = []struct{ state, frames string }{
	{"select", "golang.org/x/sync/semaphore.(*Weighted).Acquire(0x1, {0x2, 0x3}, 0x1)\n\t/mod/semaphore.go:77 +0x351\n"},
	{"sync.WaitGroup.Wait", "sync.runtime_SemacquireWaitGroup(0x1?, 0x0?)\n\t/go/src/runtime/sema.go:114 +0x2e\nsync.(*WaitGroup).Wait(0x1)\n\t/go/src/sync/waitgroup.go:118 +0x48\n"},
	{"sync.Mutex.Lock", "sync.runtime_SemacquireMutex(0x1?, 0x0?, 0x1?)\n\t/go/src/runtime/sema.go:95 +0x25\nsync.(*Mutex).lockSlow(0x1)\n\t/go/src/sync/mutex.go:149 +0x15d\nsync.(*Mutex).Lock(...)\n\t/go/src/sync/mutex.go:70\n"},
}

// TestFeederBehindStuckWorkersProperty: 300 generated one-dump processes,
// each a feeder (a closure of main.start, in a chan send for minutes) and,
// started by the same function, a pool of workers that are either stuck
// in a wait that is not a channel's (semaphore, WaitGroup, mutex), or
// absent (the receivers returned). Randomly the feeder runs under a
// request's handler instead (its siblings are other requests). The
// feeder's remedy is send-behind-busy-pool exactly when its workers are
// stuck there and it serves no request; receiver-gone when it serves no
// request and no worker is left (main.start returned too); orphaned-send
// otherwise.
func TestFeederBehindStuckWorkersProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 7))
	behind := remedyText(t, "send-behind-busy-pool")
	orphaned := remedyText(t, "orphaned-send")
	gone := remedyText(t, "receiver-gone")
	for c := range 300 {
		var b strings.Builder
		b.WriteString("goroutine 1 [select (no cases), 20 minutes]:\nmain.main()\n\t/src/main.go:70 +0x1\n\n")
		workers := rng.IntN(9) // 0: the receivers are gone
		w := feederWaits[rng.IntN(len(feederWaits))]
		minutes := 1 + rng.IntN(30)
		handler := rng.IntN(4) == 0
		id := 10
		for range workers {
			fmt.Fprintf(&b, "goroutine %d [%s, %d minutes]:\n%smain.(*pool).process(0x1, 0x2?)\n\t/src/main.go:47 +0x3f\nmain.(*pool).worker(...)\n\t/src/main.go:42\ncreated by main.start in goroutine 1\n\t/src/main.go:75 +0x5e\n\n",
				id, w.state, minutes, w.frames)
			id++
		}
		fmt.Fprintf(&b, "goroutine %d [chan send, %d minutes]:\nmain.start.func1()\n\t/src/main.go:79 +0x30\n", id, minutes)
		if handler {
			for j, f := range handlerFrames {
				fmt.Fprintf(&b, "%s(0x1)\n\t/go/src/net/http/server.go:%d +0x2a\n", f, 2000+j)
			}
			b.WriteString("created by net/http.(*Server).Serve in goroutine 1\n\t/go/src/net/http/server.go:3454 +0x485\n\n")
		} else {
			b.WriteString("created by main.start in goroutine 1\n\t/src/main.go:77 +0x67\n\n")
		}
		ds, err := parse.Parse("feeder.txt", strings.NewReader(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		r := Analyze([]Input{{Dump: ds[0]}}, Options{})
		var got string
		for _, f := range r.Findings {
			if f.State == "chan-send" {
				got = f.Remedy
			}
		}
		want := orphaned
		if workers == 0 && !handler {
			// The receivers returned and so did main.start, which made
			// the feeder: nobody is left to receive (receiver-gone).
			want = gone
		}
		if workers > 0 && !handler {
			if !stuckWorkers(r) {
				t.Fatalf("case %d: %d workers in %s for %d minutes: no finding tells them\n%s", c, workers, w.state, minutes, b.String())
			}
			want = behind
		}
		if got != want {
			t.Fatalf("case %d: %d workers in %s for %d minutes, handler %v: remedy\n%q\nwant\n%q\nfindings: %+v", c, workers, w.state, minutes, handler, got, want, r.Findings)
		}
	}
}

// stuckWorkers: a finding that stays names the workers' pool in a wait
// that is not a channel's: a permit, a WaitGroup, a lock.
func stuckWorkers(r *Result) bool {
	for _, f := range r.Findings {
		if f.Pool == "main.start" && f.State != "chan-send" && f.Resource != "channel" && f.Resource != "" && !f.Recovered {
			switch f.Kind {
			case KindStuck, KindNotRecovered, KindLeaked, KindSaturated, KindGrowing, KindContention:
				return true
			}
		}
	}
	return false
}

func remedyText(t *testing.T, id string) string {
	t.Helper()
	for _, r := range remedies {
		if r.ID == id {
			return r.Text
		}
	}
	t.Fatalf("no remedy row %q", id)
	return ""
}
