package analyze

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// pairWorld is one generated process over several moments: two goroutines
// that may wait on two package-level mutexes in opposite orders, beside
// others that rest, move, or stay put where they could hold a lock.
type pairWorld struct {
	moments int
	stays   bool // the pair is the same goroutines, lines and locks at every moment
	third   bool // a goroutine, out of any rest, stays in one place at every moment
	extra   bool // a third waiter queues on one of the pair's locks
	resting int  // goroutines resting in their own loop (the same at every moment)
	movers  int  // goroutines taking the locks in order, at another place each moment
}

func (w pairWorld) cycle() bool { return w.moments >= HeldWaitMin && w.stays && !w.third && !w.extra }

// lockWaiter writes one goroutine waiting in sync.(*Mutex).Lock for addr
// at fn:line.
func lockWaiter(b *strings.Builder, id int, addr uint64, fn string, line int) {
	fmt.Fprintf(b, "goroutine %d [sync.Mutex.Lock]:\ninternal/sync.runtime_SemacquireMutex(0x0?, 0x0?, 0x0?)\n\t/usr/local/go/src/runtime/sema.go:95 +0x25\n"+
		"internal/sync.(*Mutex).lockSlow(0x%x)\n\t/usr/local/go/src/internal/sync/mutex.go:149 +0x15d\n"+
		"internal/sync.(*Mutex).Lock(...)\n\t/usr/local/go/src/internal/sync/mutex.go:70\n"+
		"sync.(*Mutex).Lock(...)\n\t/usr/local/go/src/sync/mutex.go:46\n"+
		"%s(0x0?)\n\t/app/main.go:%d +0x79\nmain.main.func4()\n\t/app/main.go:205 +0x18\ncreated by main.main in goroutine 1\n\t/app/main.go:203 +0x1bd\n\n", id, addr, fn, line)
}

// dump writes moment m of w.
func (w pairWorld) dump(rng *rand.Rand, m int) string {
	const ledger, stock = 0xa62428, 0xa62430
	var b strings.Builder
	b.WriteString("goroutine 1 [sleep]:\ntime.Sleep(0x3b9aca00)\n\t/usr/local/go/src/runtime/time.go:338 +0x167\nmain.main()\n\t/app/main.go:20 +0x25\n\n")
	if w.stays || m == 0 {
		lockWaiter(&b, 24, stock, "main.debit", 63)
		lockWaiter(&b, 25, ledger, "main.restock", 74)
	} else {
		// The pair moved on: other goroutines, or the same ones elsewhere.
		lockWaiter(&b, 24+2*m, stock, "main.debit", 63)
		lockWaiter(&b, 25, ledger, "main.restock", 74+m%2)
	}
	if w.extra {
		lockWaiter(&b, 30, ledger, "main.audit", 90)
	}
	if w.third {
		b.WriteString("goroutine 40 [IO wait]:\ninternal/poll.runtime_pollWait(0x7f39778ce800, 0x72)\n\t/usr/local/go/src/runtime/netpoll.go:351 +0x85\n" +
			"internal/poll.(*FD).Read(0xc000188180, {0xc0001a1000, 0x1000, 0x1000})\n\t/usr/local/go/src/internal/poll/fd_unix.go:165 +0x2ae\n" +
			"net.(*conn).Read(0xc00006c0a8, {0xc0001a1000?, 0x0?, 0x72?})\n\t/usr/local/go/src/net/net.go:196 +0x45\n" +
			"main.flush(0xc000120000)\n\t/app/main.go:140 +0x25\nmain.main.func6()\n\t/app/main.go:210 +0x18\ncreated by main.main in goroutine 1\n\t/app/main.go:208 +0x1c9\n\n")
	}
	for i := 0; i < w.resting; i++ {
		fmt.Fprintf(&b, "goroutine %d [chan receive]:\nmain.worker(0xc000120000)\n\t/app/main.go:120 +0x25\ncreated by main.main in goroutine 1\n\t/app/main.go:115 +0x9a\n\n", 100+i)
	}
	for i := 0; i < w.movers; i++ {
		// Caught at one of the ordered function's lines, a new goroutine
		// each moment: progress.
		// Their own two locks: had they queued on the pair's, they would
		// stay behind it.
		id := 1000 + 100*m + i
		switch rng.Intn(3) {
		case 0:
			lockWaiter(&b, id, 0xb00000, "main.orderedDebit", 81)
		case 1:
			lockWaiter(&b, id, 0xb00008, "main.orderedDebit", 82)
		default:
			fmt.Fprintf(&b, "goroutine %d [sleep]:\ntime.Sleep(0x3b9aca00)\n\t/usr/local/go/src/runtime/time.go:338 +0x167\nmain.orderedDebit(0x0?)\n\t/app/main.go:83 +0x25\n"+
				"main.main.func7()\n\t/app/main.go:220 +0x18\ncreated by main.main in goroutine 1\n\t/app/main.go:218 +0x1c9\n\n", id)
		}
	}
	return b.String()
}

// TestHeldPairProperty: over generated processes of 1–3 moments, two
// goroutines waiting on two mutexes no frame ties to a holder are a
// deadlock (go-held-pair) exactly when they stay (same ids, lines, locks)
// at HeldWaitMin moments or more and no other goroutine out of its rest
// stays put, nor queues on one of their locks; resting workers and
// ordered lockers that progress change nothing. Goroutines of the ordered
// function waiting at moments alone never make a cycle of this basis.
func TestHeldPairProperty(t *testing.T) {
	rng := rand.New(rand.NewSource(33))
	found := 0
	const cases = 1000
	for c := range cases {
		w := pairWorld{moments: 1 + rng.Intn(3), stays: rng.Intn(3) > 0, third: rng.Intn(4) == 0, extra: rng.Intn(5) == 0,
			resting: rng.Intn(20), movers: rng.Intn(4)}
		var in []Input
		for m := range w.moments {
			ds, err := parse.Parse(fmt.Sprintf("%d.txt", m+1), strings.NewReader(w.dump(rng, m)))
			if err != nil {
				t.Fatal(err)
			}
			in = append(in, Input{Dump: ds[0]})
		}
		r := Analyze(in, Options{})
		var pair *Finding
		for i, f := range r.Findings {
			if f.Kind == KindDeadlock && f.Basis == basisHeldPair {
				pair = &r.Findings[i]
			}
		}
		if (pair != nil) != w.cycle() {
			t.Fatalf("case %d: %+v: held-pair deadlock %v, want %v", c, w, pair != nil, w.cycle())
		}
		if pair == nil {
			continue
		}
		found++
		names := map[string]bool{}
		for _, m := range pair.Cycle {
			names[m.Name] = true
		}
		if len(pair.Cycle) != 2 || !names["goroutine 24"] || !names["goroutine 25"] || len(pair.Blocked) != 0 {
			t.Fatalf("case %d: cycle %+v blocked %+v, want goroutines 24 and 25, none blocked", c, pair.Cycle, pair.Blocked)
		}
	}
	if found < 100 {
		t.Errorf("only %d pairs found in %d cases", found, cases)
	}
	t.Logf("%d cases, %d held pairs found", cases, found)
}

// TestHeldPairExpvarFixture: a second real source for the held pair
// (testdata/gen/go-held-expvar, README written before dumpdiff ran):
// expvar's own lock over its keys, held for reading by expvar.Do while
// its function waits for the application's package-level mutex, whose
// holder waits in expvar.Publish for the keys' write lock. No frame names
// either lock: told by the pair staying put over three moments, never by
// one; the twin that publishes after unlocking is quiet.
func TestHeldPairExpvarFixture(t *testing.T) {
	pair := func(t *testing.T, f Finding) {
		eq(t, "basis", f.Basis, basisHeldPair)
		eq(t, "members", len(f.Cycle), 2)
		var at, classes []string
		for _, m := range f.Cycle {
			at = append(at, strings.SplitN(m.Culprit, " ", 2)[0])
			if m.WaitsFor == nil || m.WaitsFor.Holder == "" || m.WaitsFor.Holder == m.Name {
				t.Errorf("member %s: holder %+v, want the other member", m.Name, m.WaitsFor)
			} else {
				classes = append(classes, m.WaitsFor.Class)
			}
		}
		slices.Sort(at)
		slices.Sort(classes)
		eq(t, "members at", strings.Join(at, " "), "main.openSession main.report.func1")
		eq(t, "locks", strings.Join(classes, " "), "sync.Mutex sync.RWMutex")
	}
	all := []string{"1", "2", "3"}
	var tests []fixtureCase
	for _, v := range []struct{ sfx, state string }{{"", "rwmutex-wait"}, {"-go113", "mutex-wait"}} {
		// The finding's state is its first member's: Go 1.13 lists the
		// reporter first.
		tests = append(tests,
			fixtureCase{"go-held-expvar-stuck" + v.sfx, all, []want{{KindDeadlock, "main.main", v.state, pair}}},
			fixtureCase{"go-held-expvar-stuck" + v.sfx, []string{"2", "3"}, []want{{KindDeadlock, "main.main", v.state, pair}}},
			fixtureCase{"go-held-expvar-stuck" + v.sfx, []string{"3"}, nil},
			fixtureCase{"go-held-expvar-healthy" + v.sfx, all, nil},
		)
	}
	runFixtureCases(t, filepath.Join("..", "testdata", "verdicts"), tests)
}
