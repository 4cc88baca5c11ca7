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
