package analyze

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestValueHolderProperty: in 600 generated debug=2 dumps, 2 to 4
// goroutines wait a few minutes for the sync.Mutex (Go 1.26's state or Go
// 1.13's semacquire, receivers marked "?" or not) of one value of *main.store, from
// its methods get and put (receiver V, the lock V+8), beside: 0 to 2
// goroutines inside other methods of V (in a syscall, a sleep, an I/O
// wait or a select) that do not wait for the lock, 0 to 3 goroutines in
// methods of other values of *main.store, and a goroutine of V that waits
// for another lock. The contention finding names its holder by receiver
// (basis owner-by-receiver) exactly when one goroutine of V is inside a
// method waiting in no Lock and the receivers are printed without the
// "?" of a value the runtime is not sure of, and then names that goroutine;
// the lock's own waiters and the other values' goroutines never are.
func TestValueHolderProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 91))
	told := 0
	for c := range 600 {
		old := rng.IntN(2) == 0
		q := ""
		if !old && rng.IntN(2) == 0 {
			q = "?"
		}
		v := 0xc000010000 + uint64(rng.IntN(64))*0x100
		waiters := 2 + rng.IntN(3)
		holders := rng.IntN(3)
		others := rng.IntN(4)
		nested := rng.IntN(3) == 0
		var b strings.Builder
		b.WriteString("goroutine 1 [chan receive]:\nmain.main()\n\t/src/main.go:70 +0x1\n\n")
		id := 10
		lockState := "sync.Mutex.Lock, 3 minutes"
		if old {
			lockState = "semacquire, 3 minutes"
		}
		var order []int
		for i := range waiters {
			m := []string{"get", "put"}[i%2]
			fmt.Fprintf(&b, "goroutine %d [%s]:\nsync.runtime_SemacquireMutex(0x1%s, 0x0, 0x1)\n\t/go/src/runtime/sema.go:95 +0x25\n", id, lockState, q)
			fmt.Fprintf(&b, "sync.(*Mutex).lockSlow(%#x)\n\t/go/src/sync/mutex.go:173 +0x15d\nsync.(*Mutex).Lock(%#x)\n\t/go/src/sync/mutex.go:92 +0x55\n", v+8, v+8)
			fmt.Fprintf(&b, "main.(*store).%s(%#x%s, {0x6, 0x1})\n\t/src/store.go:%d +0x1\nmain.handle()\n\t/src/main.go:30 +0x1\ncreated by main.main in goroutine 1\n\t/src/main.go:3 +0x1\n\n", m, v, q, 20+i%2)
			id++
		}
		kinds := []string{
			"[syscall, 3 minutes]:\nsyscall.Syscall(0x4a, 0x6, 0x0, 0x0)\n\t/go/src/syscall/syscall_linux.go:73 +0x1\nsyscall.Fsync(0x6)\n\t/go/src/syscall/zsyscall_linux_amd64.go:423 +0x1\nos.(*File).Sync(0xc00008a000)\n\t/go/src/os/file_posix.go:169 +0x1\n",
			"[sleep, 3 minutes]:\ntime.Sleep(0x8bb2c97000)\n\t/go/src/runtime/time.go:363 +0x165\n",
			"[IO wait, 3 minutes]:\ninternal/poll.runtime_pollWait(0x7f, 0x72)\n\t/go/src/runtime/netpoll.go:351 +0x85\nnet.(*conn).Read(0xc000012345, {0x1, 0x2, 0x3})\n\t/go/src/net/net.go:194 +0x45\n",
			"[select, 3 minutes]:\n",
		}
		for i := range holders {
			fmt.Fprintf(&b, "goroutine %d %s", id, kinds[rng.IntN(len(kinds))])
			fmt.Fprintf(&b, "main.(*store).flush(%#x%s)\n\t/src/store.go:%d +0x1\n", v, q, 40+i)
			b.WriteString("created by main.main in goroutine 1\n\t/src/main.go:4 +0x1\n\n")
			order = append(order, id)
			id++
		}
		for i := range others {
			fmt.Fprintf(&b, "goroutine %d %s", id, kinds[rng.IntN(len(kinds))])
			fmt.Fprintf(&b, "main.(*store).flush(%#x%s)\n\t/src/store.go:%d +0x1\n", v+0x10000+uint64(i)*0x100, q, 40+i)
			b.WriteString("created by main.main in goroutine 1\n\t/src/main.go:5 +0x1\n\n")
			id++
		}
		if nested {
			// In a method of V, but waiting in Lock for another lock
			// (main.registry's): no holder by value (it may hold V's lock
			// and wait, or be one more of V's goroutines).
			fmt.Fprintf(&b, "goroutine %d [%s]:\nsync.runtime_SemacquireMutex(0x1, 0x0, 0x1)\n\t/go/src/runtime/sema.go:95 +0x25\n", id, lockState)
			b.WriteString("sync.(*Mutex).Lock(0xc0000f0008)\n\t/go/src/sync/mutex.go:92 +0x55\nmain.(*registry).add(0xc0000f0000)\n\t/src/reg.go:9 +0x1\n")
			fmt.Fprintf(&b, "main.(*store).register(%#x)\n\t/src/store.go:60 +0x1\ncreated by main.main in goroutine 1\n\t/src/main.go:6 +0x1\n\n", v)
		}
		ds, err := parse.Parse("d.txt", strings.NewReader(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		r := Analyze([]Input{{Dump: ds[0]}}, Options{})
		var f *Finding
		for i := range r.Findings {
			if r.Findings[i].Kind == KindContention && r.Findings[i].Lock != nil && r.Findings[i].Lock.Address == fmt.Sprintf("%#x", v+8) {
				f = &r.Findings[i]
			}
		}
		desc := fmt.Sprintf("case %d (go1.13 %v, q %q, %d waiters, %d holders of V, %d of other values, nested %v)", c, old, q, waiters, holders, others, nested)
		if f == nil {
			t.Fatalf("%s: no contention finding on V's lock\n%s", desc, b.String())
		}
		byValue := f.Basis == "owner-by-receiver"
		// A receiver marked "?" may be wrong (Go 1.18+): never matched.
		if byValue != (holders == 1 && q == "") {
			t.Fatalf("%s: basis %s\n%s", desc, f.Basis, b.String())
		}
		if byValue {
			told++
			want := fmt.Sprintf("goroutine %d", order[0])
			if f.Lock.Owner == nil || f.Lock.Owner.Name != want || f.Lock.OwnerReceiver != fmt.Sprintf("%#x", v) || !f.Lock.OwnerInferred {
				t.Fatalf("%s: owner %+v receiver %q, want %s at %#x\n%s", desc, f.Lock.Owner, f.Lock.OwnerReceiver, want, v, b.String())
			}
		}
	}
	if told < 100 {
		t.Errorf("a holder by receiver drawn %d times in 600", told)
	}
}

// TestValueHolderFixtures judges the real dumps of go-lock-value (Go 1.13
// and 1.26; READMEs written before dumpdiff ran): on Go 1.13 each of the
// two stuck locks is led by its holder told by receiver (the sleeper in
// compact, the reader in pull), on Go 1.26, whose receivers print as
// "0x0?", the contentions are found without a holder; the healthy
// controls, each lock held for a moment under load, stay quiet.
func TestValueHolderFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	holders := map[string]bool{}
	holder := func(t *testing.T, f Finding) {
		eq(t, "basis", f.Basis, "owner-by-receiver")
		fn, _, _ := strings.Cut(f.Lock.Owner.Culprit, " (")
		holders[fn] = true
		eq(t, "holder "+fn, fn == "main.(*store).pause" || fn == "main.(*store).pull", true)
	}
	noHolder := func(t *testing.T, f Finding) { eq(t, "basis", f.Basis, "owner-unknown") }
	all := []string{"1.txt.gz", "2.txt.gz", "3.txt.gz"}
	runFixtureCases(t, dir, []fixtureCase{
		{"go-lock-value-stuck-go113", all, []want{
			{KindContention, "main.main", "mutex-wait", holder},
			{KindContention, "main.main", "mutex-wait", holder},
		}},
		{"go-lock-value-stuck-go113", []string{"3.txt.gz"}, []want{
			{KindContention, "main.main", "mutex-wait", holder},
			{KindContention, "main.main", "mutex-wait", holder},
		}},
		{"go-lock-value-stuck", all, []want{
			{KindContention, "main.main", "mutex-wait", noHolder},
			{KindContention, "main.main", "mutex-wait", noHolder},
		}},
		{"go-lock-value-healthy", all, nil},
		{"go-lock-value-healthy", []string{"3.txt.gz"}, nil},
		{"go-lock-value-healthy-go113", all, nil},
		{"go-lock-value-healthy-go113", []string{"3.txt.gz"}, nil},
	})
	eq(t, "holders named", len(holders), 2) // each lock its own
}
