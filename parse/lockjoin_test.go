package parse

import (
	"strings"
	"testing"
)

// The owners of j.u.c locks a JDK 25 JSON dump names none of are joined
// from Thread.print -l beside it where one lock of a class is waited for
// and held (testdata/jvm/jdk25-lock-owners/README.md says what each
// program holds).
func TestJoinLockOwners(t *testing.T) {
	load := func(t *testing.T, path string) *Dump {
		t.Helper()
		ds, err := ParseFile(path)
		if err != nil || len(ds) != 1 {
			t.Fatalf("%s: %v (%d dumps)", path, err, len(ds))
		}
		return ds[0]
	}
	const dir = "../testdata/jvm/jdk25-lock-owners/"
	t.Run("one lock", func(t *testing.T) {
		js, text := load(t, dir+"one/dump.json"), load(t, dir+"one/locks.txt")
		n, notes := JoinLockOwners(js, text, "Thread.print -l beside")
		if n != 1 || len(notes) != 0 {
			t.Fatalf("joined %d, notes %q; want 1 and none", n, notes)
		}
		var addr string
		for _, th := range js.Threads {
			for _, l := range th.Locks() {
				if l.Kind == LockOwnable {
					if th.Name() != "capture-test-lock-holder" || l.From != "Thread.print -l beside" || !strings.HasPrefix(l.Class, "java.util.concurrent.locks.ReentrantLock$") {
						t.Errorf("joined %+v onto %q", l, th.Name())
					}
					addr = l.Address
				}
			}
		}
		waiters := 0
		for _, th := range js.Threads {
			for _, l := range th.Locks() {
				if l.Kind == LockParking && l.Address == addr {
					waiters++
				}
			}
		}
		if waiters != 8 {
			t.Errorf("%d threads park on the joined lock %q, want the program's 8", waiters, addr)
		}
	})
	t.Run("two locks of one class", func(t *testing.T) {
		js, text := load(t, dir+"two/dump.json"), load(t, dir+"two/locks.txt")
		n, notes := JoinLockOwners(js, text, "Thread.print -l beside")
		if n != 0 || len(notes) != 1 || !strings.Contains(notes[0], "park on 2 such locks and 2 are held there") {
			t.Errorf("joined %d, notes %q; want none joined and why", n, notes)
		}
		for _, th := range js.Threads {
			for _, l := range th.Locks() {
				if l.From != "" {
					t.Errorf("%q got %+v", th.Name(), l)
				}
			}
		}
	})
	t.Run("platform waiters, two locks of one class held", func(t *testing.T) {
		// 8 platform threads park on main's ReentrantLock while the
		// acceptor holds its socket's (NioSocketImpl's) lock of the same
		// class: the waiters, printed in both dumps, tell which.
		js, text := load(t, dir+"platform/dump.json"), load(t, dir+"platform/locks.txt")
		n, notes := JoinLockOwners(js, text, "Thread.print -l beside")
		if n != 1 || len(notes) != 0 {
			t.Fatalf("joined %d, notes %q; want 1 and none", n, notes)
		}
		for _, th := range js.Threads {
			for _, l := range th.Locks() {
				if l.From != "" && th.Name() != "main" {
					t.Errorf("the lock joined onto %q, not main: %+v", th.Name(), l)
				}
			}
		}
	})
	t.Run("nothing beside", func(t *testing.T) {
		if n, notes := JoinLockOwners(load(t, dir+"one/dump.json"), nil, "x"); n != 0 || notes != nil {
			t.Errorf("joined %d, %q", n, notes)
		}
	})
}
