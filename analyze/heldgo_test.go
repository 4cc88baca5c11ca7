package analyze

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/parse"
)

// heldDump writes one debug=2 dump of generated goroutines: each is
// "id state frames..." with frames as "func:line" (top first), all created
// by main.main.
func heldDump(gs [][]string) string {
	var b strings.Builder
	for _, g := range gs {
		fmt.Fprintf(&b, "goroutine %s [%s]:\n", g[0], g[1])
		for _, f := range g[2:] {
			fn, line, _ := strings.Cut(f, ":")
			fmt.Fprintf(&b, "%s(...)\n\t/src/app/main.go:%s +0x1d\n", fn, line)
		}
		b.WriteString("created by main.main in goroutine 1\n\t/src/app/main.go:9 +0x2c\n\n")
	}
	return b.String()
}

// sendUnder is a send under a call the goroutine's own function made
// (process under batchWorker); sendOwn the same send in the goroutine's
// own function (a producer's loop); recvUnder a receive under a call (a
// rest).
var (
	sendUnder = []string{"chan send", "runtime.chansend1:1", "main.process:52", "main.batchWorker:57"}
	sendOwn   = []string{"chan send", "runtime.chansend1:1", "main.feed:70"}
	recvUnder = []string{"chan receive", "runtime.chanrecv1:1", "main.await:80", "main.collector:84"}
)

// TestHeldGoroutinesProperty: on generated moments (2–4 dumps), the
// goroutines in a send under a call that keep their id and stack at every
// moment give one held-moments stuck finding from HeldWaitMin of them,
// counting exactly them, or the stuck pool's critical one where they are
// most of their pool; the same sends by goroutines replaced at each
// moment (new ids: a busy service's brief waits), or held in their own
// function's send, or held in a receive (a rest), or seen at only some
// moments, give none. With the moments' times closer than HeldSpanSeconds,
// none either. Seeded; the seed is in the failure.
func TestHeldGoroutinesProperty(t *testing.T) {
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 33))
		n := 2 + rng.IntN(3)
		held := rng.IntN(4)     // same id, same stack, every moment
		replaced := rng.IntN(6) // the same send, new ids at each moment
		ownHeld := rng.IntN(4)  // held in their own function's send
		restHeld := rng.IntN(4) // held in a receive under a call
		partial := rng.IntN(3)  // held, but missing at one moment
		close := rng.IntN(5) == 0
		next := 1000
		var ins []Input
		base := time.Date(2026, 12, 7, 2, 0, 0, 0, time.UTC)
		for m := range n {
			var gs [][]string
			add := func(id int, shape []string) { gs = append(gs, append([]string{fmt.Sprint(id)}, shape...)) }
			for i := range held {
				add(10+i, sendUnder)
			}
			for range replaced {
				add(next, sendUnder)
				next++
			}
			for i := range ownHeld {
				add(100+i, sendOwn)
			}
			for i := range restHeld {
				add(200+i, recvUnder)
			}
			for i := range partial {
				if m != n-2 {
					add(300+i, sendUnder)
				}
			}
			ds, err := parse.Parse(fmt.Sprintf("%d.txt", m), strings.NewReader(heldDump(gs)))
			if err != nil || len(ds) != 1 {
				t.Fatalf("seed %d: %v", seed, err)
			}
			step := 5 * time.Second
			if close {
				step = time.Second
			}
			ins = append(ins, Input{Dump: ds[0], Taken: base.Add(time.Duration(m) * step)})
		}
		r := Analyze(ins, Options{})
		var got []Finding
		for _, f := range r.Findings {
			if f.Basis == "held-moments" {
				got = append(got, f)
			}
		}
		want := held >= HeldWaitMin && !(close && time.Duration(n-1)*time.Second < HeldSpanSeconds*time.Second)
		if !want {
			if len(got) > 0 {
				t.Errorf("seed %d (n %d held %d replaced %d own %d rest %d partial %d close %v): %d held-moments findings, want none: %+v",
					seed, n, held, replaced, ownHeld, restHeld, partial, close, len(got), got[0].Wait)
			}
			continue
		}
		if len(got) == 0 {
			// Most of their pool, the very same at every moment: the stuck
			// pool's own finding (critical) stands for the ids' one.
			for _, f := range r.Findings {
				if f.Kind == KindStuck && f.Severity == Critical && f.State == "chan-send" && f.Same >= held {
					got = append(got, f)
				}
			}
			if len(got) == 1 {
				continue
			}
		}
		if len(got) != 1 || got[0].Wait == nil || got[0].Wait.Held != held || got[0].Wait.HeldMoments != n ||
			!strings.HasPrefix(got[0].Culprit, "main.process ") || got[0].Kind != KindStuck {
			t.Errorf("seed %d (n %d held %d replaced %d own %d rest %d partial %d close %v): findings %+v, want one stuck at main.process:52 counting %d",
				seed, n, held, replaced, ownHeld, restHeld, partial, close, got, held)
			continue
		}
		if want := time.Duration(n-1) * 5 * time.Second; !close && got[0].Wait.HeldSpan != want {
			t.Errorf("seed %d: span %v, want %v", seed, got[0].Wait.HeldSpan, want)
		}
	}
}

// TestHeldNoIDs: debug=1 records carry no id: what is held is records
// (the weaker evidence), never goroutines by id.
func TestHeldNoIDs(t *testing.T) {
	rec := "goroutine profile: total 3\n3 @ 0x1 0x2\n#\t0x1\tmain.process+0x1\t/src/app/main.go:52\n#\t0x2\tmain.batchWorker+0x1\t/src/app/main.go:57\n\n"
	var ins []Input
	for m := range 3 {
		ds, err := parse.Parse(fmt.Sprintf("%d.txt", m), strings.NewReader(rec))
		if err != nil {
			t.Fatal(err)
		}
		ins = append(ins, Input{Dump: ds[0]})
	}
	r := Analyze(ins, Options{})
	if h := heldGoroutines(r, nil); h == nil || !h.records || len(h.held) != 1 {
		t.Errorf("debug=1 records: %+v, want the one record held as a record", h)
	}
}

// TestHeldRecordsProperty: debug=1 profiles print no ids; a record of an
// HTTP client's wait under a call (main.fetch under main.worker) with the
// same count at every moment is held (HeldRecords, the weaker evidence)
// from HeldWaitMin; a count that changes between moments, or a record
// missing at one, is not. Seeded.
func TestHeldRecordsProperty(t *testing.T) {
	rec := func(n int) string {
		return fmt.Sprintf("%d @ 0x1 0x2 0x3 0x4\n", n) +
			"#\t0x1\tnet/http.(*persistConn).roundTrip+0x83c\t/usr/local/go/src/net/http/transport.go:2911\n" +
			"#\t0x2\tnet/http.(*Client).Get+0x5f\t/usr/local/go/src/net/http/client.go:489\n" +
			"#\t0x3\tmain.fetch+0xb4\t/src/app/main.go:40\n" +
			"#\t0x4\tmain.worker+0x20\t/src/app/main.go:50\n\n"
	}
	for seed := range uint64(100) {
		rng := rand.New(rand.NewPCG(seed, 34))
		n := 2 + rng.IntN(3)
		count := 1 + rng.IntN(5)
		change := rng.IntN(3) == 0 // the count differs at one moment
		miss := rng.IntN(4) == 0   // the record is missing at one moment
		odd := rng.IntN(n)
		var ins []Input
		for m := range n {
			c := count
			if change && m == odd {
				c++
			}
			body := rec(c)
			if miss && m == odd {
				body = ""
			}
			total := c
			if body == "" {
				total = 0
			}
			text := fmt.Sprintf("goroutine profile: total %d\n", total+1) + body +
				"1 @ 0x9\n#\t0x9\tmain.main+0x10\t/src/app/main.go:9\n\n"
			ds, err := parse.Parse(fmt.Sprintf("%d.txt", m), strings.NewReader(text))
			if err != nil || len(ds) != 1 {
				t.Fatalf("seed %d: %v", seed, err)
			}
			ins = append(ins, Input{Dump: ds[0]})
		}
		r := Analyze(ins, Options{})
		var got []Finding
		for _, f := range r.Findings {
			if f.Basis == "held-moments" {
				got = append(got, f)
			}
		}
		want := count >= HeldWaitMin && !change && !miss
		switch {
		case want && (len(got) != 1 || !got[0].Wait.HeldRecords || got[0].Wait.Held != count):
			t.Errorf("seed %d (n %d count %d): findings %+v, want one counting %d from records", seed, n, count, got, count)
		case !want && len(got) > 0:
			t.Errorf("seed %d (n %d count %d change %v miss %v): %d held-moments findings, want none", seed, n, count, change, miss, len(got))
		}
	}
}
