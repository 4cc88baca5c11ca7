package analyze

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestLeadCulpritProperty (issue 33, "the holder first"): goroutines wait
// 9 minutes for one sync.Mutex from several callers (the GoBench-like
// etcd case: four in (*authStore).Authenticate, one in
// (*batchTxBuffered).Commit), in random groups, sizes and dump order, in
// three forms: go test's timeout panic (the stuck test-timeout finding),
// the runtime's "all goroutines are asleep" (its deadlock, led by a lock
// waiter) and a plain SIGQUIT (contention, the minutes printed). The
// finding's culprit is the caller most of the waiters share, never
// whichever group the runtime printed first; with a goroutine of the
// waiters' own function past its Lock (in a read, waiting too), that
// inferred holder leads instead. Seeded.
func TestLeadCulpritProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 5))
	callers := []string{"go.etcd.io/etcd/auth.(*authStore).Authenticate", "go.etcd.io/etcd/mvcc/backend.(*batchTxBuffered).Commit",
		"go.etcd.io/etcd/auth.(*authStore).UserAdd", "go.etcd.io/etcd/mvcc.(*store).Compact"}
	forms := []string{"timeout", "asleep", "sigquit"}
	for c := range 240 {
		form := forms[c%len(forms)]
		k := 2 + rng.IntN(3)
		// Group sizes with one strict largest.
		sizes := make([]int, k)
		for i := range sizes {
			sizes[i] = 1 + rng.IntN(3)
		}
		big := rng.IntN(k)
		sizes[big] = 1 + slicesMax(sizes)
		if form == "sigquit" && sum(sizes) < ContentionMin {
			sizes[big] += ContentionMin - sum(sizes)
		}
		holder := c%4 == 3
		var order []int
		for g, n := range sizes {
			for range n {
				order = append(order, g)
			}
		}
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		var b strings.Builder
		switch form {
		case "timeout":
			b.WriteString("panic: test timed out after 10m0s\n\trunning tests:\n\t\tTestAuth (10m0s)\n\n")
		case "asleep":
			b.WriteString("fatal error: all goroutines are asleep - deadlock!\n\n")
		}
		id := 5
		entry := "go.etcd.io/etcd/auth.TestAuth.func1"
		for _, g := range order {
			fmt.Fprintf(&b, "goroutine %d [sync.Mutex.Lock, 9 minutes]:\n"+
				"internal/sync.runtime_SemacquireMutex(0x0?, 0x0?, 0x0?)\n\t/usr/local/go/src/runtime/sema.go:95 +0x25\n"+
				"internal/sync.(*Mutex).lockSlow(0xc0001a4010)\n\t/usr/local/go/src/internal/sync/mutex.go:149 +0x15d\n"+
				"internal/sync.(*Mutex).Lock(...)\n\t/usr/local/go/src/internal/sync/mutex.go:70\n"+
				"sync.(*Mutex).Lock(...)\n\t/usr/local/go/src/sync/mutex.go:46\n"+
				"%s(0xc0001a4000)\n\t/src/etcd/%d.go:%d +0x2a\n"+
				"%s()\n\t/src/etcd/auth_test.go:40 +0x1f\n"+
				"created by go.etcd.io/etcd/auth.TestAuth in goroutine 4\n\t/src/etcd/auth_test.go:38 +0x55\n\n", id, callers[g], g, 100+g, entry)
			id++
		}
		want := fmt.Sprintf("%s (%d.go:%d)", callers[big], big, 100+big)
		if holder && form == "asleep" {
			// Past the waiters' own Lock line, in a channel receive
			// nobody will send to: the holder, the root.
			fmt.Fprintf(&b, "goroutine %d [chan receive, 9 minutes]:\n"+
				"%s(0xc0001a4000)\n\t/src/etcd/%d.go:%d +0x2a\n"+
				"%s()\n\t/src/etcd/auth_test.go:40 +0x1f\n"+
				"created by go.etcd.io/etcd/auth.TestAuth in goroutine 4\n\t/src/etcd/auth_test.go:38 +0x55\n\n", id, callers[k-1], k-1, 200, entry)
			want = fmt.Sprintf("%s (%d.go:%d)", callers[k-1], k-1, 200)
		} else if holder {
			// Past the waiters' own Lock line, in its read: the holder.
			fmt.Fprintf(&b, "goroutine %d [IO wait, 9 minutes]:\n"+
				"internal/poll.runtime_pollWait(0x7f0a, 0x72)\n\t/usr/local/go/src/runtime/netpoll.go:351 +0x85\n"+
				"os.(*File).Read(0xc0000a4000, {0xc0000b6000, 0x1000, 0x1000})\n\t/usr/local/go/src/os/file.go:124 +0x45\n"+
				"%s(0xc0001a4000)\n\t/src/etcd/%d.go:%d +0x2a\n"+
				"%s()\n\t/src/etcd/auth_test.go:40 +0x1f\n"+
				"created by go.etcd.io/etcd/auth.TestAuth in goroutine 4\n\t/src/etcd/auth_test.go:38 +0x55\n\n", id, callers[k-1], k-1, 200, entry)
			want = fmt.Sprintf("%s (%d.go:%d)", callers[k-1], k-1, 200)
		}
		ds, err := parse.Parse("lead.txt", strings.NewReader(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		r := Analyze([]Input{{Dump: ds[0]}}, Options{})
		got, basis := "", ""
		for _, f := range r.Findings {
			switch {
			case form == "timeout" && f.Basis == "test-timeout", form == "asleep" && f.Basis == "go-runtime":
				got, basis = f.Culprit, f.Basis
			case form == "sigquit" && f.Kind == KindContention:
				got, basis = f.Culprit, f.Basis
				if holder {
					if f.Lock == nil || f.Lock.Owner == nil {
						t.Fatalf("case %d (sigquit): no holder inferred\n%s", c, b.String())
					}
					got = f.Lock.Owner.Culprit
				}
			}
		}
		if got != want {
			t.Fatalf("case %d (%s, sizes %v, holder %v): culprit %q (basis %q), want %q\n%s", c, form, sizes, holder, got, basis, want, b.String())
		}
	}
}

func slicesMax(xs []int) int {
	m := 0
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}
