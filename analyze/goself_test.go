package analyze

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestSelfLockProperty (issue 33, "cycles of every kind", "the holder
// first"; go-self-lock): random worlds of a goroutine waiting for a lock
// (a sync.Mutex, an RWMutex's Lock or an inlined RLock) that an outer
// frame of its own stack, a method of the same value, may hold — random
// package and type names, receiver addresses, the lock's offset in its
// value, 0 to 3 frames of another type between the two (a callback),
// Go 1.26 frames (stale '?' words) or Go 1.13 frames, 0 to 3 goroutines
// of the value's methods queued behind the lock, an accept loop and
// sleepers beside, pasted as written, prefixed or indented, at 1 to 3
// moments. Told as a deadlock of that one goroutine, the queued ones
// blocked behind it, exactly when the wait is proven long (minutes
// printed, or the same goroutine at two moments or more); critical then.
// Never told: the goroutine moved on by the next moment (a writer took
// the lock between moments), the outer frame on another value of the same
// type (nested locks on two receivers), another goroutine inside the
// value outside the lock's waiters (it may hold the lock), one dump
// with no minute, the inner method locking another object's mutex (its
// printed address outside the value: a parameter's lock, as a Docker
// daemon's reducePsContainer locks its container). Seeded.
func TestSelfLockProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 4242))
	kinds := []string{"self", "self", "moved", "nested", "holder", "param"}
	told := map[string]int{}
	for c := range 300 {
		kind := kinds[c%len(kinds)]
		shape := pasteShapes[rng.IntN(len(pasteShapes))]
		pkg := []string{"main", "example/app", "github.com/acme/shop/internal/orders"}[rng.IntN(3)]
		typ := pkg + ".(*" + []string{"registry", "store", "service", "cache"}[rng.IntN(4)] + ")"
		outerFn := typ + "." + []string{"Refresh", "handle", "Flush", "Reload"}[rng.IntN(4)]
		innerFn := typ + "." + []string{"count", "commit", "size", "lookup"}[rng.IntN(4)]
		go113 := rng.IntN(2) == 0
		lockKind := []string{"mutex", "rwlock", "rlock"}[rng.IntN(3)]
		if kind == "param" {
			lockKind = "mutex" // its address printed: another object's
		}
		base := uint64(0xc000010000 + 0x100*rng.IntN(4096))
		if !go113 {
			base = uint64(0x1f2b84500000 + 0x100*rng.IntN(4096))
		}
		off := uint64(8 * rng.IntN(40))
		recv := base
		outerRecv := recv
		if kind == "nested" {
			outerRecv = recv + 0x2000 + uint64(0x100*rng.IntN(16)) // another value of the type
		}
		lock := recv + off
		if kind == "param" {
			// The inner method locks a parameter's mutex (another object,
			// far from the value): the same receiver, no tie.
			lock = recv + 0x100000 + off
		}
		between := rng.IntN(4)
		queued := rng.IntN(4)
		moments := 1 + rng.IntN(3)
		if kind == "moved" {
			moments = 2 + rng.IntN(2)
		}
		minutes := 0
		if rng.IntN(3) == 0 {
			minutes = 1 + rng.IntN(9)
		}
		// lockFrames are the frames of a wait on the lock, top first, and
		// the header's state.
		lockFrames := func(minutes int) (string, string) {
			age := ""
			if minutes > 0 {
				age = fmt.Sprintf(", %d minutes", minutes)
			}
			var b strings.Builder
			switch {
			case go113 && lockKind == "rlock":
				fmt.Fprintf(&b, "sync.runtime_SemacquireMutex(0x%x, 0x0, 0x0)\n\t/usr/local/go/src/runtime/sema.go:71 +0x47\n"+
					"sync.(*RWMutex).RLock(...)\n\t/usr/local/go/src/sync/rwmutex.go:50\n", lock+0x1c)
				return "semacquire" + age, b.String()
			case go113:
				fmt.Fprintf(&b, "sync.runtime_SemacquireMutex(0x%x, 0x0, 0x1)\n\t/usr/local/go/src/runtime/sema.go:71 +0x47\n"+
					"sync.(*Mutex).lockSlow(0x%x)\n\t/usr/local/go/src/sync/mutex.go:138 +0xfc\nsync.(*Mutex).Lock(...)\n\t/usr/local/go/src/sync/mutex.go:81\n", lock+4, lock)
				if lockKind == "rwlock" {
					fmt.Fprintf(&b, "sync.(*RWMutex).Lock(0x%x)\n\t/usr/local/go/src/sync/rwmutex.go:98 +0x97\n", lock)
				}
				return "semacquire" + age, b.String()
			case lockKind == "rlock":
				b.WriteString("sync.runtime_SemacquireRWMutexR(0x0?, 0x0?, 0x0?)\n\t/usr/local/go/src/runtime/sema.go:100 +0x25\n" +
					"sync.(*RWMutex).RLock(...)\n\t/usr/local/go/src/sync/rwmutex.go:74\n")
				return "sync.RWMutex.RLock" + age, b.String()
			default:
				fmt.Fprintf(&b, "internal/sync.runtime_SemacquireMutex(0x0?, 0x0?, 0x0?)\n\t/usr/local/go/src/runtime/sema.go:95 +0x25\n"+
					"internal/sync.(*Mutex).lockSlow(0x%x)\n\t/usr/local/go/src/internal/sync/mutex.go:149 +0x15d\n"+
					"internal/sync.(*Mutex).Lock(...)\n\t/usr/local/go/src/internal/sync/mutex.go:70\nsync.(*Mutex).Lock(...)\n\t/usr/local/go/src/sync/mutex.go:46\n", lock)
				if lockKind == "rwlock" {
					fmt.Fprintf(&b, "sync.(*RWMutex).Lock(0x%x)\n\t/usr/local/go/src/sync/rwmutex.go:148 +0x25\n", lock)
				}
				return "sync.Mutex.Lock" + age, b.String()
			}
		}
		// The inner method's receiver: Go 1.26 often prints a stale word
		// ('?'), which says nothing; an inlined RLock prints no address,
		// so the receiver must.
		innerRecv := fmt.Sprintf("0x%x", recv)
		if !go113 && lockKind != "rlock" && rng.IntN(2) == 0 {
			innerRecv = "0x1312d00?"
		}
		world := func(selfID int) (string, string) {
			var b strings.Builder
			state, top := lockFrames(minutes)
			fmt.Fprintf(&b, "goroutine %d [%s]:\n%s%s(%s, 0x1)\n\t/src/app/store.go:51 +0x2b\n", selfID, state, top, innerFn, innerRecv)
			for i := range between {
				fmt.Fprintf(&b, "%s.(*wrapper%d).Set(0x%x, {0x73077f, 0xe})\n\t/src/app/wrap.go:%d +0x4d\n", pkg, i, 0xc000200000+0x40*i, 20+i)
			}
			fmt.Fprintf(&b, "%s(0x%x)\n\t/src/app/store.go:45 +0x6d\ncreated by main.main in goroutine 1\n\t/src/app/main.go:180 +0x1e5\n\n", outerFn, outerRecv)
			for q := range queued {
				state, top := lockFrames(0)
				fmt.Fprintf(&b, "goroutine %d [%s]:\n%s%s.Get(0x%x, {0x1f2b84598004, 0x2})\n\t/src/app/store.go:57 +0x5d\ncreated by main.main in goroutine 1\n\t/src/app/main.go:183 +0xb37\n\n",
					selfID+1+q, state, top, typ, recv)
			}
			if kind == "holder" {
				fmt.Fprintf(&b, "goroutine 700 [IO wait]:\ninternal/poll.runtime_pollWait(0x7f39, 0x72)\n\t/usr/local/go/src/runtime/netpoll.go:351 +0x85\n"+
					"%s.sync(0x%x)\n\t/src/app/store.go:90 +0x44\ncreated by main.main in goroutine 1\n\t/src/app/main.go:185 +0x1f\n\n", typ, recv)
			}
			fmt.Fprintf(&b, "goroutine 950 [IO wait]:\ninternal/poll.runtime_pollWait(0x7f39, 0x72)\n\t/usr/local/go/src/runtime/netpoll.go:351 +0x85\n"+
				"net.(*TCPListener).Accept(0x2ad47cb82440)\n\t/usr/local/go/src/net/tcpsock.go:387 +0x30\n"+
				"net/http.(*Server).Serve(0x2ad47cbf0100, {0x7ad9c8, 0x2ad47cb82440})\n\t/usr/local/go/src/net/http/server.go:3434 +0x30c\n"+
				"created by main.main in goroutine 1\n\t/src/app/main.go:207 +0x365\n\n")
			goSleeper(&b, 960, pkg+".janitor", 123)
			return shape(b.String()), fmt.Sprintf("goroutine %d", selfID)
		}
		var in []Input
		var self string
		for m := range moments {
			id := 20
			if kind == "moved" && m == moments-1 {
				id = 400 // it got the lock and went on; others came to the same lines
			}
			text, s := world(id)
			if m == 0 {
				self = s
			}
			ds, err := parse.Parse(fmt.Sprintf("%d.txt", m+1), strings.NewReader(text))
			if err != nil {
				t.Fatal(err)
			}
			in = append(in, Input{Dump: ds[0]})
		}
		r := Analyze(in, Options{})
		var got []Finding
		for _, f := range r.Findings {
			if f.Kind == KindDeadlock && f.Basis == basisSelfLock {
				got = append(got, f)
			}
		}
		want := kind == "self" && (minutes > 0 || moments > 1)
		desc := fmt.Sprintf("case %d (%s, go113 %v, %s, %d between, %d queued, %d moments, %d minutes)", c, kind, go113, lockKind, between, queued, moments, minutes)
		if !want {
			if len(got) > 0 {
				t.Fatalf("%s: want no self-deadlock, got %+v", desc, got)
			}
			continue
		}
		if len(got) != 1 {
			t.Fatalf("%s: want one self-deadlock, got %+v", desc, r.Findings)
		}
		f := got[0]
		if len(f.Cycle) != 1 || f.Cycle[0].Name != self || f.Severity != Critical || len(f.Blocked) != queued {
			t.Fatalf("%s: want %s alone, critical, %d blocked; got %+v", desc, self, queued, f)
		}
		if sl := f.SelfLock; sl == nil || !strings.HasPrefix(sl.Frame, outerFn) || sl.InValue != (lockKind != "rlock") || sl.InValue && sl.Offset != off {
			t.Fatalf("%s: want the tie to %s (in value %v, +%#x), got %+v", desc, outerFn, lockKind != "rlock", off, f.SelfLock)
		}
		told[kind]++
	}
	if told["self"] < 50 {
		t.Fatalf("too few worlds told: %v", told)
	}
}

// TestLockScope: the scope a lock waiter's caller shares with the code
// that holds the lock when no address is printed.
func TestLockScope(t *testing.T) {
	for _, tt := range []struct{ fn, want string }{
		{"main.(*cache).get", "main.(*cache)"},
		{"main.(*cache).get.func1", "main.(*cache)"},
		{"main.rwStuck.func2", "main.rwStuck"},
		{"main.rwStuck.func2.1", "main.rwStuck"},
		{"main.main.gowrap2", "main.main"},
		{"github.com/acme/shop/internal/orders.refresh.func3", "github.com/acme/shop/internal/orders.refresh"},
		{"main.rwStuck", ""},
		{"main.func1", ""}, // a function named func1 in main, no closure
		{"github.com/acme/v2.funcs", ""},
	} {
		if got := lockScope(tt.fn); got != tt.want {
			t.Errorf("lockScope(%q) = %q, want %q", tt.fn, got, tt.want)
		}
	}
	for _, tt := range []struct {
		addr string
		want bool
	}{{"0x0", true}, {"0xc000012345", false}, {"main.(*cache)", false}, {"0xfff", true}} {
		if got := unprintedAddr(tt.addr); got != tt.want {
			t.Errorf("unprintedAddr(%q) = %v", tt.addr, got)
		}
	}
}

// TestReaderHeldProperty (issue 33, "the holder first"): random worlds of
// a sync.RWMutex whose writer waits in Lock for the readers to leave
// (writerDrains) while 0 to 3 readers queue behind it, the read holder a
// goroutine of the same scope — another method of the same type (Go 1.13
// or 1.26 frames) or another closure of the same function (no receiver,
// no address) — waiting on a channel, asleep, in a socket read or
// running, the same at 2 or 3 moments, pasted as written, prefixed or
// indented. The holder is named: a deadlock it leads where it waits on a
// channel (go-lock-chan), else the waiters' contention, queued behind the
// writer, likely held for reading by it. Never named: the waiters gone by
// the last moment (the reader finished), two goroutines of the scope out
// of the lock (which reads is not told), a writer queued behind another
// writer (Mutex.Lock under RWMutex.Lock: a writer may hold it). Seeded.
func TestReaderHeldProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 9191))
	kinds := []string{"held", "held", "held", "finish", "two", "writer"}
	named := map[string]int{}
	for c := range 240 {
		kind := kinds[c%len(kinds)]
		shape := pasteShapes[rng.IntN(len(pasteShapes))]
		pkg := []string{"main", "example/app"}[rng.IntN(2)]
		method := rng.IntN(2) == 0
		go113 := method && rng.IntN(2) == 0
		act := []string{"chan", "sleep", "io", "running"}[rng.IntN(4)]
		readers := rng.IntN(4)
		moments := 2 + rng.IntN(2)
		recv := fmt.Sprintf("0x%x", 0xc000010000+0x100*rng.IntN(4096))
		fn := func(name string) string {
			if method {
				return fmt.Sprintf("%s.(*catalog).%s(%s)", pkg, name, recv)
			}
			return fmt.Sprintf("%s.rwStuck.%s()", pkg, map[string]string{"scan": "func1", "add": "func2", "size": "func3", "audit": "func4"}[name])
		}
		world := func(m int) string {
			var b strings.Builder
			base := 20
			if kind == "finish" && m == moments-1 {
				base = 400
			}
			created := "created by " + pkg + ".start in goroutine 1\n\t/src/app/main.go:90 +0x1f\n\n"
			switch act {
			case "chan":
				fmt.Fprintf(&b, "goroutine %d [chan receive]:\n%s\n\t/src/app/main.go:130 +0x4d\n%s", base, fn("scan"), created)
			case "sleep":
				fmt.Fprintf(&b, "goroutine %d [sleep]:\ntime.Sleep(0x3b9aca00)\n\t/usr/local/go/src/runtime/time.go:363 +0x165\n%s\n\t/src/app/main.go:130 +0x4d\n%s", base, fn("scan"), created)
			case "io":
				fmt.Fprintf(&b, "goroutine %d [IO wait]:\ninternal/poll.runtime_pollWait(0x7f8962a60000, 0x72)\n\t/usr/local/go/src/runtime/netpoll.go:351 +0x85\n"+
					"internal/poll.(*FD).Read(0xc0000a6000, {0xc000100000, 0x1000, 0x1000})\n\t/usr/local/go/src/internal/poll/fd_unix.go:165 +0x27a\n"+
					"net.(*conn).Read(0xc0000a8000, {0xc000100000, 0x1000, 0x1000})\n\t/usr/local/go/src/net/net.go:196 +0x45\n%s\n\t/src/app/main.go:130 +0x4d\n%s", base, fn("scan"), created)
			case "running":
				fmt.Fprintf(&b, "goroutine %d [running]:\n%s\n\t/src/app/main.go:131 +0x4d\n%s", base, fn("scan"), created)
			}
			if kind == "finish" && m == moments-1 {
				return shape(b.String()) // the reader finished: nobody waits any more
			}
			addr := "0x0?"
			if go113 {
				addr = recv
			}
			switch {
			case kind == "writer" && go113:
				fmt.Fprintf(&b, "goroutine %d [semacquire]:\nsync.runtime_SemacquireMutex(0x%x, 0x0, 0x1)\n\t/usr/local/go/src/runtime/sema.go:71 +0x47\n"+
					"sync.(*Mutex).lockSlow(%s)\n\t/usr/local/go/src/sync/mutex.go:138 +0xfc\nsync.(*Mutex).Lock(...)\n\t/usr/local/go/src/sync/mutex.go:81\n"+
					"sync.(*RWMutex).Lock(%s)\n\t/usr/local/go/src/sync/rwmutex.go:98 +0x97\n%s\n\t/src/app/main.go:134 +0x1e\n%s", base+1, 0xc000010004, recv, recv, fn("add"), created)
			case kind == "writer":
				fmt.Fprintf(&b, "goroutine %d [sync.Mutex.Lock]:\ninternal/sync.runtime_SemacquireMutex(0x0?, 0x0?, 0x0?)\n\t/usr/local/go/src/runtime/sema.go:95 +0x25\n"+
					"internal/sync.(*Mutex).lockSlow(0x0?)\n\t/usr/local/go/src/internal/sync/mutex.go:149 +0x15d\ninternal/sync.(*Mutex).Lock(...)\n\t/usr/local/go/src/internal/sync/mutex.go:70\n"+
					"sync.(*Mutex).Lock(...)\n\t/usr/local/go/src/sync/mutex.go:46\nsync.(*RWMutex).Lock(0x0?)\n\t/usr/local/go/src/sync/rwmutex.go:148 +0x25\n%s\n\t/src/app/main.go:134 +0x1e\n%s", base+1, fn("add"), created)
			case go113:
				fmt.Fprintf(&b, "goroutine %d [semacquire]:\nsync.runtime_SemacquireMutex(0x%x, 0x0, 0x0)\n\t/usr/local/go/src/runtime/sema.go:71 +0x47\n"+
					"sync.(*RWMutex).Lock(%s)\n\t/usr/local/go/src/sync/rwmutex.go:103 +0x88\n%s\n\t/src/app/main.go:134 +0x1e\n%s", base+1, 0xc000010008, addr, fn("add"), created)
			default:
				fmt.Fprintf(&b, "goroutine %d [sync.RWMutex.Lock]:\nsync.runtime_SemacquireRWMutex(0x0?, 0x0?, 0x0?)\n\t/usr/local/go/src/runtime/sema.go:105 +0x25\n"+
					"sync.(*RWMutex).Lock(%s)\n\t/usr/local/go/src/sync/rwmutex.go:155 +0x6b\n%s\n\t/src/app/main.go:134 +0x1e\n%s", base+1, addr, fn("add"), created)
			}
			for i := range readers {
				if go113 {
					fmt.Fprintf(&b, "goroutine %d [semacquire]:\nsync.runtime_SemacquireMutex(0x%x, 0x0, 0x0)\n\t/usr/local/go/src/runtime/sema.go:71 +0x47\n", base+2+i, 0xc00001000c)
				} else {
					fmt.Fprintf(&b, "goroutine %d [sync.RWMutex.RLock]:\nsync.runtime_SemacquireRWMutexR(0x0?, 0x0?, 0x0?)\n\t/usr/local/go/src/runtime/sema.go:100 +0x25\n", base+2+i)
				}
				fmt.Fprintf(&b, "sync.(*RWMutex).RLock(...)\n\t/usr/local/go/src/sync/rwmutex.go:74\n%s\n\t/src/app/main.go:137 +0x34\n%s", fn("size"), created)
			}
			if kind == "two" {
				fmt.Fprintf(&b, "goroutine 300 [sleep]:\ntime.Sleep(0x3b9aca00)\n\t/usr/local/go/src/runtime/time.go:363 +0x165\n%s\n\t/src/app/main.go:150 +0x4d\n%s", fn("audit"), created)
			}
			fmt.Fprintf(&b, "goroutine %d [select]:\n%s.ticker()\n\t/src/app/main.go:99 +0x1\n%s", 900+m, pkg, created)
			return shape(b.String())
		}
		var in []Input
		for m := range moments {
			ds, err := parse.Parse(fmt.Sprintf("%d.txt", m+1), strings.NewReader(world(m)))
			if err != nil {
				t.Fatal(err)
			}
			in = append(in, Input{Dump: ds[0]})
		}
		r := Analyze(in, Options{})
		holder := "goroutine 20"
		by := ""
		for _, f := range r.Findings {
			switch {
			case f.Kind == KindDeadlock && len(f.Cycle) > 0 && f.Cycle[0].Name == holder:
				by = "deadlock"
			case f.Kind == KindContention && f.Lock != nil && f.Lock.Owner != nil && f.Lock.Owner.Name == holder && f.Basis == "queued-writer":
				by = "contention"
			}
		}
		desc := fmt.Sprintf("case %d (%s, %s, method %v, go113 %v, %d readers, %d moments)", c, kind, act, method, go113, readers, moments)
		if kind != "held" {
			if by != "" {
				t.Fatalf("%s: the holder is named (%s): %+v", desc, by, r.Findings)
			}
			continue
		}
		want := "contention"
		if act == "chan" {
			want = "deadlock"
		}
		if by != want {
			t.Fatalf("%s: want the holder named by a %s, got %q: %+v", desc, want, by, r.Findings)
		}
		named[want]++
	}
	if named["deadlock"] == 0 || named["contention"] < 20 {
		t.Fatalf("too few worlds named their holder: %v", named)
	}
}
