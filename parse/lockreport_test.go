package parse

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

// TestLockReportLines: the writers' framings and the lines that share
// the words but are no report (H2's lock timeout, prose).
func TestLockReportLines(t *testing.T) {
	tests := []struct {
		line                        string
		waiter, class, hash, holder string // "" waiter: not a report line
	}{
		{"ApplicationImpl pooled thread 0 is waiting to lock java.awt.Component$AWTTreeLock@1caee107 which is held by AWT-EventQueue-0 11.1.3#IU-117.499, eap:true",
			"ApplicationImpl pooled thread 0", "java.awt.Component$AWTTreeLock", "1caee107", "AWT-EventQueue-0 11.1.3#IU-117.499, eap:true"},
		{"\tThread-0 is waiting to lock java.lang.Object@276af2 which is held by main. Locked synchronizers:0 monitors:1",
			"Thread-0", "java.lang.Object", "276af2", "main"},
		{"- pool-1-thread-2 is waiting to lock java.util.concurrent.locks.ReentrantLock$NonfairSync@5e9f23b4 which is held by pool-1-thread-1",
			"pool-1-thread-2", "java.util.concurrent.locks.ReentrantLock$NonfairSync", "5e9f23b4", "pool-1-thread-1"},
		// H2 (org.h2.table.RegularTable): a table, not a LockInfo; no owner.
		{"Session #3 (user: SA) on thread pool-1-thread-2 is waiting to lock PUBLIC.ACCOUNTS (exclusive) while locking PUBLIC.ORDERS (exclusive).", "", "", "", ""},
		{"The writer is waiting to lock the table which is held by the reader", "", "", "", ""},
		{"x is waiting to lock java.lang.Object@zz which is held by y", "", "", "", ""},
		{"x is waiting to lock java.lang.Object@1f which is held by ", "", "", "", ""},
	}
	for _, tt := range tests {
		w, c, h, o, ok := lockReportLine([]byte(tt.line))
		if ok != (tt.waiter != "") || string(w) != tt.waiter || string(c) != tt.class || string(h) != tt.hash || string(o) != tt.holder {
			t.Errorf("%q: %v %q %q %q %q, want %q %q %q %q", tt.line, ok, w, c, h, o, tt.waiter, tt.class, tt.hash, tt.holder)
		}
	}
	for _, text := range []string{tests[3].line + "\n", tests[4].line + "\n"} {
		if ds, err := Parse("h2.log", strings.NewReader(text)); err == nil && len(ds) > 0 {
			t.Errorf("%q read as %d dumps", text, len(ds))
		}
	}
}

// TestLockReportProperty: the lock waits of every committed JVM dump
// (each thread blocked entering a monitor, or parked on a lock, whose
// owner is printed), written as a deadlock detector's lines in each
// writer's framing, read back as the same waits with the same owners.
func TestLockReportProperty(t *testing.T) {
	hash := func(addr string) string {
		h := strings.TrimLeft(strings.TrimPrefix(addr, "0x"), "0")
		if h == "" {
			h = "0"
		}
		return h
	}
	framings := []struct {
		head, line, tail string
	}{
		{"Java-level deadlock has been detected\n\nDeadlock:\n\n", "%s is waiting to lock %s@%s which is held by %s\n", "\nThread stacks\n"},
		{"DeadLock Found!\nJava-level deadlock:\n", "\t%s is waiting to lock %s@%s which is held by %s. Locked synchronizers:0 monitors:1\n", ""},
		{"Deadlock detected\n\n", "- %s is waiting to lock %s@%s which is held by %s\n", "Stack trace information for the threads listed above\n\n"},
	}
	tried, same := 0, 0
	for _, in := range pasteInputs(t) {
		if in.rt != RuntimeJVM || len(in.dumps) != 1 {
			continue
		}
		d := in.dumps[0]
		var want []string
		var lines []string
		names := map[string]bool{}
		for _, th := range d.Threads {
			n := th.Name()
			if n == "" || strings.Contains(n, "\n") || names[n] {
				continue
			}
			for _, l := range th.Locks() {
				if l.Kind != LockWaitingTo || l.Owner == "" || l.Class == "" || !strings.HasPrefix(l.Address, "0x") || strings.ContainsAny(l.Class, " ") {
					continue
				}
				names[n] = true
				want = append(want, fmt.Sprintf("%q enters %s@%s owned by %q", n, l.Class, hash(l.Address), l.Owner))
				lines = append(lines, fmt.Sprintf("%s\x00%s\x00%s\x00%s", n, l.Class, hash(l.Address), l.Owner))
				break // one line a thread, as ThreadInfo gives one lock
			}
		}
		if len(want) == 0 {
			continue
		}
		sort.Strings(want)
		for _, fr := range framings {
			tried++
			var b strings.Builder
			b.WriteString(fr.head)
			for _, l := range lines {
				p := strings.Split(l, "\x00")
				fmt.Fprintf(&b, fr.line, p[0], p[1], p[2], p[3])
			}
			b.WriteString(fr.tail)
			dumps, err := Parse(in.name, strings.NewReader(b.String()))
			if err != nil || len(dumps) != 1 {
				t.Errorf("%s: %d dumps, %v, from:\n%.400s", in.name, len(dumps), err, b.String())
				continue
			}
			var got []string
			for _, th := range dumps[0].Threads {
				for _, l := range th.Locks() {
					if l.Kind == LockWaitingTo {
						got = append(got, fmt.Sprintf("%q enters %s@%s owned by %q", th.Name(), l.Class, hash(l.Address), l.Owner))
					}
				}
			}
			sort.Strings(got)
			if strings.Join(want, "\n") != strings.Join(got, "\n") {
				t.Errorf("%s: the report reads other waits:\n%s", in.name, firstDiff(strings.Join(want, "\n"), strings.Join(got, "\n")))
				continue
			}
			if dumps[0].Excerpt == "" {
				t.Errorf("%s: the report is not said to be an excerpt", in.name)
				continue
			}
			same++
		}
	}
	t.Logf("deadlock detectors' reports written from the dumps' lock waits that read back the same: %d of %d", same, tried)
	if tried < 30 || same != tried {
		t.Errorf("%d of %d read back (the testdata has more than 10 dumps with owned waits, three framings each)", same, tried)
	}
}
