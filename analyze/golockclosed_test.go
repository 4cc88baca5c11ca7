package analyze

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestClosedLockCycleProperty (issue 33, "cycles of every kind", "the
// holder first"): random one-dump worlds of package-level mutexes, no
// wait age printed. A ring of 2 to 4 goroutines, each in a function of
// its own, holds one mutex and waits at its next Lock for the next one's
// (lockorder1/lockorder2 and longer); bystanders queue on the ring's
// locks in groups sharing one place (two or more goroutines of one
// function at one line); a ticker rests in its own loop. The structure
// proves the ring, and names it, exactly when every goroutine out of its
// rest waits on the locks and each lock is left one holder: then the
// deadlock is the ring (a warning, one moment), its bystanders blocked
// behind it; with two, each member's holder is the other, with more,
// which holds which is not printed. A sleeper beside the ring leaves two
// stories: the ring is told with the sleeper named (go-lock-asleep).
// Broken worlds are never a deadlock: a
// holder that runs, a ring cut open (its last lock held
// by a goroutine in I/O past its Lock). (A ring cut open whose last lock
// nobody in the dump holds, a goroutine gone without its Unlock, looks
// like the ring itself in one dump: the warning says one moment's
// evidence, and a second dump or a minute's age tells.) A lone bystander (a
// place of its own) leaves its lock two candidates: the ring may not be
// named, and if named, only the ring itself. Healthy contention — one
// lock turning over among a crowd with its holder running — is no
// deadlock. Seeded.
func TestClosedLockCycleProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 77))
	named, lone := 0, 0
	for c := range 400 {
		n := 2 + rng.IntN(3)
		kind := []string{"ring", "ring", "ring", "running", "sleeping", "open", "lone", "crowd"}[c%8]
		addr := func(i int) string { return fmt.Sprintf("0x%x", 0x9e4500+8*i) }
		var b strings.Builder
		id := 20
		type member struct{ id, wait int }
		var ring []member
		for _, i := range rng.Perm(n) {
			ring = append(ring, member{id, i})
			wait := (i + 1) % n
			if kind == "open" && i == n-1 {
				wait = n // a lock the ring does not hold
			}
			goMutexWaiter(&b, id, addr(wait), fmt.Sprintf("main.lockorder%d", i+1), 100+10*i, 0)
			id++
		}
		// Bystanders: groups of 2 or 3 at one place, on the ring's locks.
		blocked := 0
		for g := range rng.IntN(4) {
			lock := rng.IntN(n)
			for range 2 + rng.IntN(2) {
				goMutexWaiter(&b, id, addr(lock), fmt.Sprintf("main.bystander%d", g), 200+g, 0)
				id++
				blocked++
			}
		}
		switch kind {
		case "running":
			fmt.Fprintf(&b, "goroutine %d [running]:\nmain.compute(0x1)\n\t/src/main.go:300 +0x2a\ncreated by main.start in goroutine 1\n\t/src/main.go:90 +0x1f\n\n", id)
		case "sleeping":
			fmt.Fprintf(&b, "goroutine %d [sleep]:\ntime.Sleep(0x2faf080)\n\t/usr/local/go/src/runtime/time.go:338 +0x167\nmain.flush(0x1)\n\t/src/main.go:310 +0x2a\ncreated by main.start in goroutine 1\n\t/src/main.go:90 +0x1f\n\n", id)
		case "open":
			fmt.Fprintf(&b, "goroutine %d [IO wait]:\ninternal/poll.runtime_pollWait(0x7f0a, 0x72)\n\t/usr/local/go/src/runtime/netpoll.go:351 +0x85\n"+
				"net.(*conn).Read(0xc0000a4000, {0xc0000b6000, 0x1000, 0x1000})\n\t/usr/local/go/src/net/net.go:194 +0x45\n"+
				"main.refresh(0x1)\n\t/src/main.go:320 +0x2a\ncreated by main.start in goroutine 1\n\t/src/main.go:90 +0x1f\n\n", id)
		case "lone":
			goMutexWaiter(&b, id, addr(rng.IntN(n)), "main.loner", 250, 0)
		case "crowd":
			for range 10 {
				goMutexWaiter(&b, id, addr(7), "main.bump", 260, 0)
				id++
			}
			fmt.Fprintf(&b, "goroutine %d [runnable]:\nmain.bump(0x1, 0x2)\n\t/src/main.go:262 +0x2a\ncreated by main.start in goroutine 1\n\t/src/main.go:90 +0x1f\n\n", id)
		}
		id++
		fmt.Fprintf(&b, "goroutine %d [chan receive]:\nmain.main.func2()\n\t/src/main.go:190 +0x2a\ncreated by main.main in goroutine 1\n\t/src/main.go:188 +0x1f\n\n", id)
		ds, err := parse.Parse("closed.txt", strings.NewReader(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		r := Analyze([]Input{{Dump: ds[0]}}, Options{})
		var dls []Finding
		for _, f := range r.Findings {
			if f.Kind == KindDeadlock {
				dls = append(dls, f)
			}
		}
		var want []string
		for _, m := range ring {
			want = append(want, fmt.Sprintf("goroutine %d", m.id))
		}
		slices.Sort(want)
		members := func(f Finding) []string {
			var ns []string
			for _, m := range f.Cycle {
				ns = append(ns, m.Name)
			}
			slices.Sort(ns)
			return ns
		}
		switch kind {
		case "ring":
			if len(dls) != 1 || !slices.Equal(members(dls[0]), want) {
				t.Fatalf("case %d (%s, ring of %d): want one deadlock of %v, got %d: %v\n%s", c, kind, n, want, len(dls), dls, b.String())
			}
			f := dls[0]
			for _, m := range f.Cycle {
				if m.WaitsFor == nil || n == 2 && kind == "ring" && (m.WaitsFor.Holder == "" || m.WaitsFor.Holder == m.Name) || n > 2 && kind == "ring" && m.WaitsFor.Holder != "" {
					t.Fatalf("case %d: member %s of %d waits for %+v", c, m.Name, n, m.WaitsFor)
				}
			}
			if f.Basis != basisLockClosed || f.Severity != Warning || len(f.Blocked) != blocked {
				t.Fatalf("case %d (%s): basis %s, severity %v, %d blocked, want %s, warning, %d", c, kind, f.Basis, f.Severity, len(f.Blocked), basisLockClosed, blocked)
			}
			named++
		case "lone":
			if len(dls) > 1 || len(dls) == 1 && !slices.Equal(members(dls[0]), want) {
				t.Fatalf("case %d (lone): a deadlock other than the ring %v: %v", c, want, dls)
			}
			lone += len(dls)
		case "sleeping":
			// A sleeper beside the ring: the ring told as the likelier
			// story, the sleeper as the other candidate holder
			// (go-lock-asleep, TestLockCycleAsleepProperty), at info in
			// one dump with no age (goSeverity).
			if len(dls) != 1 || !slices.Equal(members(dls[0]), want) || dls[0].Basis != basisLockAsleep || len(dls[0].Asleep) != 1 || dls[0].Severity != Info {
				t.Fatalf("case %d (sleeping, ring of %d): want one go-lock-asleep info of %v beside its sleeper, got %+v", c, n, want, dls)
			}
		default:
			if len(dls) != 0 {
				t.Fatalf("case %d (%s, ring of %d): no deadlock wanted, got %s\n%s", c, kind, n, dls[0].ID, b.String())
			}
		}
	}
	if named == 0 {
		t.Fatal("no ring named")
	}
	t.Logf("%d rings named; %d of the lone-bystander worlds named their ring", named, lone)
}
