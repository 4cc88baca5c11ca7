package analyze

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// goMutexWaiter writes a debug=2 goroutine waiting in sync.Mutex.Lock for
// the mutex at addr, called from fn at line, after minutes of wait (0:
// none printed).
func goMutexWaiter(b *strings.Builder, id int, addr, fn string, line, minutes int) {
	state := "sync.Mutex.Lock"
	if minutes > 0 {
		state += fmt.Sprintf(", %d minutes", minutes)
	}
	fmt.Fprintf(b, "goroutine %d [%s]:\n"+
		"internal/sync.runtime_SemacquireMutex(0x0?, 0x0?, 0x0?)\n\t/usr/local/go/src/runtime/sema.go:95 +0x25\n"+
		"internal/sync.(*Mutex).lockSlow(%s)\n\t/usr/local/go/src/internal/sync/mutex.go:149 +0x15d\n"+
		"internal/sync.(*Mutex).Lock(...)\n\t/usr/local/go/src/internal/sync/mutex.go:70\n"+
		"sync.(*Mutex).Lock(...)\n\t/usr/local/go/src/sync/mutex.go:46\n"+
		"%s(0x1, 0x2)\n\t/src/main.go:%d +0x2a\n"+
		"created by main.start in goroutine 1\n\t/src/main.go:90 +0x1f\n\n", id, state, addr, fn, line)
}

// TestGoLockRingProperty: goroutines that each took one mutex in a
// function and wait at its next Lock line for the mutex the next one took
// (a ring of 2 to 6, transfer(a, b) beside transfer(b, a) and longer
// chains of it) are one deadlock of exactly the ring, whatever the ring's
// order in the dump, the addresses and the waiters queued behind it (at
// another line: blocked on it, not in it); the same shapes broken open —
// the last lock held by a goroutine past the function's Locks, in a read —
// or a crowd on one mutex at one line are no deadlock. 300 generated
// dumps. (A chain whose last lock nobody in the dump holds looks, at one
// Lock line, like the ring itself: which lock each took first is not
// printed.)
func TestGoLockRingProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 4))
	for c := range 300 {
		n := 2 + rng.IntN(5)
		broken := c%3 == 2
		crowd := c%5 == 4
		behind := rng.IntN(4)
		addrs := make([]string, n+1)
		for i := range addrs {
			addrs[i] = fmt.Sprintf("0xc%09x", 0x100000+rng.IntN(1<<20)*64+i*8)
		}
		var b strings.Builder
		order := rng.Perm(n)
		id := 10
		for _, i := range order {
			next := addrs[(i+1)%n]
			if broken && i == n-1 {
				next = addrs[n] // a lock nobody of the ring holds
			}
			goMutexWaiter(&b, id, next, "main.transfer", 327, rng.IntN(3))
			id++
		}
		if broken {
			// The holder of the chain's last lock: in the function past
			// its Lock calls, reading.
			fmt.Fprintf(&b, "goroutine %d [IO wait, 1 minutes]:\n"+
				"internal/poll.runtime_pollWait(0x7f0a, 0x72)\n\t/usr/local/go/src/runtime/netpoll.go:351 +0x85\n"+
				"net.(*conn).Read(0xc0000a4000, {0xc0000b6000, 0x1000, 0x1000})\n\t/usr/local/go/src/net/net.go:194 +0x45\n"+
				"main.transfer(0x1, 0x2)\n\t/src/main.go:330 +0x2a\n"+
				"created by main.start in goroutine 1\n\t/src/main.go:90 +0x1f\n\n", id)
			id++
		}
		for range behind {
			goMutexWaiter(&b, id, addrs[rng.IntN(n)], "main.audit", 40, 0)
			id++
		}
		if crowd {
			for range 20 {
				goMutexWaiter(&b, id, addrs[n], "main.report", 55, 1)
				id++
			}
		}
		ds, err := parse.Parse("ring.txt", strings.NewReader(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		r := Analyze([]Input{{Dump: ds[0]}}, Options{})
		var cycles []Finding
		for _, f := range r.Findings {
			if f.Kind == KindDeadlock {
				cycles = append(cycles, f)
			}
		}
		if broken {
			if len(cycles) != 0 {
				t.Fatalf("case %d: a broken chain of %d (+%d behind, crowd %v) is no deadlock: got %s", c, n, behind, crowd, cycles[0].ID)
			}
			continue
		}
		if len(cycles) != 1 {
			t.Fatalf("case %d: a ring of %d (+%d behind, crowd %v): %d deadlocks, want 1", c, n, behind, crowd, len(cycles))
		}
		f := cycles[0]
		if len(f.Cycle) != n || f.Basis != "go-lock-graph" {
			t.Fatalf("case %d: ring of %d: cycle of %d, basis %s", c, n, len(f.Cycle), f.Basis)
		}
		for _, m := range f.Cycle {
			// Two: each holds the other's; more: which holds which is not
			// printed.
			if m.WaitsFor == nil || n == 2 && (m.WaitsFor.Holder == "" || m.WaitsFor.Holder == m.Name) || n > 2 && m.WaitsFor.Holder != "" {
				t.Fatalf("case %d: member %s of %d waits for %+v", c, m.Name, n, m.WaitsFor)
			}
		}
		if len(f.Blocked) != behind {
			t.Fatalf("case %d: %d blocked behind the ring, want %d", c, len(f.Blocked), behind)
		}
	}
}
