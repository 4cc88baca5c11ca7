package parse

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// TestToolHeaderDeadlockProperty: a two-thread deadlock written in each
// tool header family (jvm_tool_headers.go), with random names (quotes,
// spaces, '#', digits), reads as two threads with their names, each
// waiting for the lock the other holds, owned by the other: no
// "(unnamed N)", nothing skipped.
func TestToolHeaderDeadlockProperty(t *testing.T) {
	r := rand.New(rand.NewSource(33))
	parts := []string{"worker", "-", "a", " ", "#2", `"`, "pool-8-thread-", "1", "B", "é", "[x]"}
	name := func() string {
		for {
			var b strings.Builder
			for n := 1 + r.Intn(4); n > 0; n-- {
				b.WriteString(parts[r.Intn(len(parts))])
			}
			s := b.String()
			if strings.HasPrefix(s, `"`) || strings.HasSuffix(s, `"`) || strings.Contains(s, `" `) || strings.TrimSpace(s) != s {
				continue // a name HotSpot's quoting cannot be told by either
			}
			return s
		}
	}
	families := []struct {
		kind   string
		thread func(n, owner string, id, oid int, lock, held string) string
	}{
		{"#N STATE on X owned by", func(n, o string, id, oid int, lock, held string) string {
			return fmt.Sprintf("\"%s\" #%d BLOCKED on java.lang.Object@%s owned by \"%s\" #%d\n\tat app.M.f%d(M.java:%d)\n\t- locked java.lang.Object@%s\n\tat java.lang.Thread.run(Thread.java:840)\n", n, id, lock, o, oid, id, id, held)
		}},
		{"#N state= / waiting on", func(n, o string, id, oid int, lock, held string) string {
			return fmt.Sprintf("\"%s\" #%d state=BLOCKED\n    waiting on java.lang.Object@%s owned by \"%s\" #%d\n    at app.M.f%d(M.java:%d)\n    - locked java.lang.Object@%s\n    at java.lang.Thread.run(Thread.java:840)\n", n, id, lock, o, oid, id, id, held)
		}},
		{"Geode tid= owned by", func(n, o string, id, oid int, lock, held string) string {
			return fmt.Sprintf("\"%s\" tid=0x%x owned by \"%s\" tid=0x%x\n   - locked synchronizer <0x%x> (a java.util.concurrent.ThreadPoolExecutor$Worker)\n   java.lang.Thread.State: BLOCKED\n\tat app.M.f%d(M.java:%d)\n\t- waiting to lock <0x%s> (a java.lang.Object)\n\t- locked <0x%s> (a java.lang.Object)\n\tat java.lang.Thread.run(Thread.java:748)\n", n, id, o, oid, 0x1000+id, id, id, lock, held)
		}},
	}
	for i := 0; i < 600; i++ {
		f := families[i%len(families)]
		a, b := name(), name()
		if a == b {
			continue
		}
		ia, ib := 10+r.Intn(50), 60+r.Intn(50)
		la, lb := fmt.Sprintf("%x", 0x1000000+r.Intn(0xffffff)), fmt.Sprintf("%x", 0x2000000+r.Intn(0xffffff))
		text := f.thread(a, b, ia, ib, la, lb) + "\n" + f.thread(b, a, ib, ia, lb, la)
		if r.Intn(2) == 0 {
			text = "some prose before the paste\n\n" + text
		}
		ds, err := Parse("p.txt", strings.NewReader(text))
		if err != nil || len(ds) != 1 {
			t.Fatalf("%s: %v, %d dumps\n%s", f.kind, err, len(ds), text)
		}
		d := ds[0]
		if len(d.Threads) != 2 || len(d.Skipped) != 0 {
			t.Fatalf("%s: %d threads, skipped %v\n%s", f.kind, len(d.Threads), d.Skipped, text)
		}
		for k, want := range []struct{ name, owner, lock string }{{a, b, la}, {b, a, lb}} {
			th := d.Threads[k]
			if th.Name() != want.name {
				t.Fatalf("%s: thread %d named %q, want %q\n%s", f.kind, k, th.Name(), want.name, text)
			}
			found := false
			for _, l := range th.Locks() {
				if l.Kind == LockWaitingTo && l.Owner == want.owner && strings.TrimPrefix(l.Address, "0x") == want.lock {
					found = true
				}
			}
			if !found {
				t.Fatalf("%s: %q waits for no lock %s owned by %q: %+v\n%s", f.kind, want.name, want.lock, want.owner, th.Locks(), text)
			}
		}
	}
}

// TestIsToolThreadHeader: the families it claims, and lines it leaves
// (prose with a quote, HotSpot's own headers are isHotSpotHeader's).
func TestIsToolThreadHeader(t *testing.T) {
	for _, tt := range []struct {
		line string
		want bool
	}{
		{`"worker-a" #12 BLOCKED on java.lang.Object@1b2c3d4 owned by "worker-b" #13`, true},
		{`"worker-a" #12 state=WAITING`, true},
		{`"worker-a" daemon #12 RUNNABLE`, true},
		{`"pool-8-thread-2" tid=0x16 owned by "pool-8-thread-1" tid=0x15`, true},
		{`"pool-8-thread-2" tid=0x16`, true},
		{`"a" b" #3 TIMED_WAITING`, true},
		{`"main" #1 prio=5 os_prio=0 tid=0x1 nid=0x2 runnable`, false},
		{`"hello" #1 is the best`, false},
		{`"hello" #1 A`, false},
		{`"x" tid=0x16 and more`, false},
		{`he said "x" #12 BLOCKED`, false},
	} {
		if got := isToolThreadHeader([]byte(tt.line)); got != tt.want {
			t.Errorf("isToolThreadHeader(%q) = %v, want %v", tt.line, got, tt.want)
		}
	}
}
