package parse

import (
	"slices"
	"strings"
	"testing"
)

// TestLockArgs: a lock waiter keeps the addresses its frames below the
// Lock print (Go 1.26 debug=2 and Go 1.13's raw words alike), without the
// values Go marks with '?', small numbers, or the lock frames' own; a
// goroutine waiting on no printed lock keeps none.
func TestLockArgs(t *testing.T) {
	const dump = `goroutine 22 [sync.Mutex.Lock]:
internal/sync.runtime_SemacquireMutex(0x18?, 0xf8?, 0x2?)
	/usr/local/go/src/runtime/sema.go:95 +0x25
internal/sync.(*Mutex).lockSlow(0x38fda3154118)
	/usr/local/go/src/internal/sync/mutex.go:149 +0x15d
internal/sync.(*Mutex).Lock(...)
	/usr/local/go/src/internal/sync/mutex.go:70
sync.(*Mutex).Lock(...)
	/usr/local/go/src/sync/mutex.go:46
main.(*account).transfer(0x38fda3154140, 0x38fda3154100, 0xa, 0x38fda3154999?)
	/app/main.go:46 +0x1a6
main.teller({0x78bb20, 0x38fda30f0000}, 0x1)
	/app/main.go:25 +0x59
created by main.main in goroutine 1
	/app/main.go:19 +0x1d1

goroutine 27 [semacquire]:
sync.runtime_SemacquireMutex(0x9a54ec, 0x1300, 0x1)
	/go/src/runtime/sema.go:71 +0x47
sync.(*Mutex).lockSlow(0x9a54e8)
	/go/src/sync/mutex.go:138 +0xfc
sync.(*Mutex).Lock(...)
	/go/src/sync/mutex.go:81
main.reserve(0x9a54e0, 0x9a54e8, 0x2faf080)
	/app/main.go:73 +0x63
created by main.main
	/app/main.go:113 +0x7df

goroutine 5 [chan receive]:
main.worker(0x38fda3154140)
	/app/main.go:80 +0x19
created by main.main in goroutine 1
	/app/main.go:20 +0x37
`
	ds, err := Parse("lockargs.txt", strings.NewReader(dump))
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64][]Receiver{
		22: {{4, 0x38fda3154140}, {4, 0x38fda3154100}, {5, 0x78bb20}, {5, 0x38fda30f0000}},
		27: {{3, 0x9a54e0}, {3, 0x9a54e8}, {3, 0x2faf080}},
		5:  nil,
	}
	n := 0
	for _, th := range ds[0].Threads {
		w, ok := want[int64(th.ID)]
		if !ok {
			continue
		}
		n++
		var got []Receiver
		if th.GoExtra != nil {
			got = th.LockArgs
		}
		if !slices.Equal(got, w) {
			t.Errorf("goroutine %d: LockArgs %x, want %x", th.ID, got, w)
		}
		for _, a := range got {
			if a.Frame >= len(th.Frames) {
				t.Errorf("goroutine %d: frame %d of %d", th.ID, a.Frame, len(th.Frames))
			}
		}
	}
	if n != len(want) {
		t.Errorf("%d of %d goroutines read", n, len(want))
	}
}
