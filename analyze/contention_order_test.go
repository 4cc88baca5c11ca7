package analyze

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestContentionWaitersInDumpOrder: waiters on one lock that the builder
// files in two groups (two creators, so two pools) are named in the
// finding's evidence in the order the dump lists them, as one pass over
// the dump would name them.
func TestContentionWaitersInDumpOrder(t *testing.T) {
	var b strings.Builder
	var want []string
	for i := range 8 {
		id := 10 + i
		creator := "main.startA"
		if i%2 == 1 {
			creator = "main.startB"
		}
		fmt.Fprintf(&b, "goroutine %d [sync.Mutex.Lock]:\n"+
			"internal/sync.runtime_SemacquireMutex(0xc000012344?, 0x0?, 0x0?)\n\t/usr/local/go/src/runtime/sema.go:95 +0x25\n"+
			"internal/sync.(*Mutex).lockSlow(0xc000012340)\n\t/usr/local/go/src/internal/sync/mutex.go:149 +0x15d\n"+
			"internal/sync.(*Mutex).Lock(...)\n\t/usr/local/go/src/internal/sync/mutex.go:70\n"+
			"sync.(*Mutex).Lock(...)\n\t/usr/local/go/src/sync/mutex.go:46\n"+
			"main.update()\n\t/src/main.go:20 +0x2a\n"+
			"created by %s in goroutine 1\n\t/src/main.go:30 +0x1f\n\n", id, creator)
		if len(want) < 5 {
			want = append(want, fmt.Sprintf("goroutine %d", id))
		}
	}
	ds, err := parse.Parse("order.txt", strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	r := Analyze([]Input{{Dump: ds[0]}}, Options{})
	for _, f := range r.Findings {
		if f.Kind != KindContention {
			continue
		}
		if len(f.Evidence) != 1 || f.Evidence[0].Count != 8 {
			t.Fatalf("evidence %+v, want 8 waiters at one moment", f.Evidence)
		}
		if got := f.Evidence[0].Threads; !slices.Equal(got, want) {
			t.Errorf("waiters named %v, want dump order %v", got, want)
		}
		return
	}
	t.Fatalf("no contention finding among %d findings", len(r.Findings))
}

// TestGoHolderInference: a contended Go lock's holder is named when one
// goroutine, not itself waiting on the lock, is in the waiters' function
// past its Lock call; with two such goroutines none is named. The waiters'
// facts are counted by their pools (two creators here, neither a
// majority).
func TestGoHolderInference(t *testing.T) {
	var b strings.Builder
	id := 10
	waiter := func(addr, fn string, line int, creator string) {
		fmt.Fprintf(&b, "goroutine %d [sync.Mutex.Lock]:\n"+
			"internal/sync.runtime_SemacquireMutex(0x%s?, 0x0?, 0x0?)\n\t/usr/local/go/src/runtime/sema.go:95 +0x25\n"+
			"internal/sync.(*Mutex).lockSlow(0x%s)\n\t/usr/local/go/src/internal/sync/mutex.go:149 +0x15d\n"+
			"internal/sync.(*Mutex).Lock(...)\n\t/usr/local/go/src/internal/sync/mutex.go:70\n"+
			"sync.(*Mutex).Lock(...)\n\t/usr/local/go/src/sync/mutex.go:46\n"+
			"%s()\n\t/src/main.go:%d +0x2a\n"+
			"created by %s in goroutine 1\n\t/src/main.go:90 +0x1f\n\n", id, addr, addr, fn, line, creator)
		id++
	}
	holder := func(fn string, line int) {
		fmt.Fprintf(&b, "goroutine %d [IO wait]:\n"+
			"internal/poll.runtime_pollWait(0x7f0a, 0x72)\n\t/usr/local/go/src/runtime/netpoll.go:351 +0x85\n"+
			"net.(*conn).Read(0xc0000a4000, {0xc0000b6000, 0x1000, 0x1000})\n\t/usr/local/go/src/net/net.go:194 +0x45\n"+
			"%s()\n\t/src/main.go:%d +0x2a\n"+
			"created by main.startHolders in goroutine 1\n\t/src/main.go:95 +0x1f\n\n", id, fn, line)
		id++
	}
	for i := range 6 {
		waiter("c000012340", "main.update", 20, []string{"main.startA", "main.startB", "main.startC"}[i%3])
		waiter("c000099990", "main.other", 40, "main.startA")
	}
	holder("main.update", 22) // past update's Lock: the lone holder
	holder("main.other", 42)  // two goroutines past other's Lock: no holder
	holder("main.other", 43)
	ds, err := parse.Parse("holders.txt", strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	r := Analyze([]Input{{Dump: ds[0]}}, Options{})
	got := map[string]*Finding{}
	for i, f := range r.Findings {
		if f.Kind == KindContention {
			got[f.Lock.Address] = &r.Findings[i]
		}
	}
	u, o := got["0xc000012340"], got["0xc000099990"]
	if u == nil || o == nil {
		t.Fatalf("contention findings %v, want both locks", got)
	}
	if u.Basis != "owner-inferred" || u.Lock.Owner == nil || u.Lock.Owner.Name != "goroutine 22" {
		t.Errorf("update's lock: basis %q owner %+v, want goroutine 22 inferred", u.Basis, u.Lock.Owner)
	}
	if o.Basis != "owner-unknown" || o.Lock.Owner != nil {
		t.Errorf("other's lock: basis %q owner %+v, want none (two candidates)", o.Basis, o.Lock.Owner)
	}
	if u.Pool != "" || o.Pool != "main.startA" {
		t.Errorf("pools %q and %q, want none (three creators) and main.startA", u.Pool, o.Pool)
	}
	if u.Culprit != "main.update (main.go:20)" || u.Counts[0] != 6 {
		t.Errorf("update's lock: culprit %q, %d waiters; want main.update (main.go:20), 6", u.Culprit, u.Counts[0])
	}
}

// TestContentionPoolOfItsMoment: a JVM contention finding names the pool
// its waiters are in at the moment it tells. The JDK 25 fixtures' first
// moment is a JSON dump, whose threads carry their executor's container
// ("java.util.concurrent.ThreadPoolExecutor@*"); the same threads in the
// text dump that follows have none ("catalog-*"). A classification cached
// across moments by stack and thread name named the container's pool at
// the text dump, where it holds no thread.
func TestContentionPoolOfItsMoment(t *testing.T) {
	for _, dir := range []string{"jdk25-platform", "jdk25-vthreads"} {
		in := loadMoments(t, "../testdata/libs/"+dir, []string{"dump.json", "dump.txt", "jcmd-print.txt", "jstack.txt"})
		r := Analyze(in, Options{})
		n := 0
		for _, f := range r.Findings {
			if f.Kind != KindContention || f.Pool == "" {
				continue
			}
			n++
			if f.PoolCounts[f.At] < f.Counts[f.At] {
				t.Errorf("%s: %s names pool %s, which holds %d threads at %s where %d wait", dir, f.ID, f.Pool,
					f.PoolCounts[f.At], r.Moments[f.At].Label, f.Counts[f.At])
			}
		}
		if n == 0 {
			t.Errorf("%s: no contention finding names a pool", dir)
		}
	}
}
