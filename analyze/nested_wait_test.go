package analyze

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestTwoSidedWaits (issue 33, "two-sided waits tied"): real programs run
// here (testdata/verdicts/twosided-*, nested-queue-*, each README written
// from the source before dumpdiff ran). A holder that waits, untimed, for
// a notify or a Condition's signal while threads that would send it are
// blocked on a lock it holds is a deadlock with the holder first (a
// monitor, then a ReentrantLock with a Condition of another lock; a
// tutorial's producer holding its queue while it waits on "not full");
// producers and consumers of one buffer all waiting on it, nobody inside,
// are a lost wake-up. The controls are quiet.
func TestTwoSidedWaits(t *testing.T) {
	nested := func(holder, state, lockClass string, members int) want {
		return want{KindDeadlock, holder, state, func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, "nested-wait")
			eq(t, "members", len(f.Cycle), members)
			eq(t, "holder first", strings.HasPrefix(f.Cycle[0].Name, strings.TrimSuffix(holder, "*")), true)
			eq(t, "lock", f.Lock != nil && f.Lock.Class == lockClass && f.Lock.Owner != nil, true)
		}}
	}
	lost := want{KindDeadlock, "", "object-wait", func(t *testing.T, f Finding) {
		eq(t, "basis", f.Basis, "lost-wakeup")
		eq(t, "members", len(f.Cycle), 6)
		sides := map[string]bool{}
		for _, m := range f.Cycle {
			sides[m.Culprit[:strings.IndexByte(m.Culprit, '(')]] = true
		}
		eq(t, "sides", len(sides), 2)
	}}
	stuck := []want{
		nested("session-keeper", "object-wait", "com.example.twosided.SessionTable", 6),
		nested("ledger-closer", "park", "java.util.concurrent.locks.ReentrantLock$NonfairSync", 5),
		lost,
	}
	all := []string{"1", "2", "3"}
	runFixtureCases(t, filepath.Join("..", "testdata", "verdicts"), []fixtureCase{
		{"twosided-stuck", all, stuck},
		{"jdk25-twosided-stuck", all, stuck},
		{"twosided-stuck", []string{"2", "3"}, stuck},
		{"twosided-healthy", all, nil},
		{"nested-queue-stuck", all, []want{nested("producer-*", "object-wait", "com.example.twosided.WorkQueue", 4)}},
		{"nested-queue-healthy", all, nil},
	})
	// One dump cannot show that the waits stay.
	r := Analyze(loadMoments(t, filepath.Join("..", "testdata", "verdicts", "twosided-stuck"), []string{"1"}), Options{})
	for _, f := range r.Findings {
		if f.Basis == "nested-wait" || f.Basis == "lost-wakeup" {
			t.Errorf("one dump: %s %s", f.Kind, f.Basis)
		}
	}
}

// twoSidedMoment writes one jstack dump: a holder "keeper-1" that has
// entered a Table and waits on a signal object (untimed or not, with
// JDK 17's "<no object reference available>" or the address), n threads
// blocked on the Table (in Table's code or in another class's), maybe a
// free application thread (runnable), and a Buffer waited on by put and
// take waiters.
func twoSidedMoment(at time.Time, timed, noRef, tiedClass, free bool, n, puts, takes int, inside bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\nFull thread dump OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1 mixed mode, sharing):\n\n", at.Format("2006-01-02 15:04:05"))
	state := "WAITING (on object monitor)"
	if timed {
		state = "TIMED_WAITING (on object monitor)"
	}
	on := "<0x00000000e0000100> (a java.lang.Object)"
	if noRef {
		on = "<no object reference available>"
	}
	fmt.Fprintf(&b, "\"keeper-1\" #12 prio=5 os_prio=0 cpu=1.00ms elapsed=60.00s tid=0x00007f0000001000 nid=0x100 in Object.wait()  [0x00007f0000000000]\n"+
		"   java.lang.Thread.State: %s\n\tat java.lang.Object.wait(java.base@17.0.15/Native Method)\n\t- waiting on %s\n"+
		"\tat com.example.Table.awaitSignal(Table.java:30)\n\t- locked <0x00000000e0000100> (a java.lang.Object)\n"+
		"\tat com.example.Table.keep(Table.java:20)\n\t- locked <0x00000000e0000200> (a com.example.Table)\n"+
		"\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)\n\n", state, on)
	caller := "com.example.Table.refresh(Table.java:40)"
	if !tiedClass {
		caller = "com.example.Client.call(Client.java:9)"
	}
	for i := range n {
		fmt.Fprintf(&b, "\"blocked-%d\" #%d prio=5 os_prio=0 cpu=1.00ms elapsed=60.00s tid=0x00007f00000%02x000 nid=0x%x waiting for monitor entry  [0x00007f0000000000]\n"+
			"   java.lang.Thread.State: BLOCKED (on object monitor)\n\tat %s\n\t- waiting to lock <0x00000000e0000200> (a com.example.Table)\n"+
			"\tat com.example.Loop.run(Loop.java:5)\n\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)\n\n", i+1, 20+i, 0x10+i, 0x200+i, caller)
	}
	if free {
		b.WriteString("\"ticker-1\" #40 prio=5 os_prio=0 cpu=900.00ms elapsed=60.00s tid=0x00007f0000004000 nid=0x400 runnable  [0x00007f0000000000]\n" +
			"   java.lang.Thread.State: RUNNABLE\n\tat com.example.Ticker.tick(Ticker.java:12)\n\tat com.example.Ticker.run(Ticker.java:5)\n" +
			"\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)\n\n")
	}
	wait := func(name string, id int, method string, line int) {
		fmt.Fprintf(&b, "\"%s\" #%d prio=5 os_prio=0 cpu=1.00ms elapsed=60.00s tid=0x00007f00000%02x000 nid=0x%x in Object.wait()  [0x00007f0000000000]\n"+
			"   java.lang.Thread.State: WAITING (on object monitor)\n\tat java.lang.Object.wait(java.base@17.0.15/Native Method)\n\t- waiting on <no object reference available>\n"+
			"\tat java.lang.Object.wait(java.base@17.0.15/Object.java:338)\n\tat com.example.Buffer.%s(Buffer.java:%d)\n\t- locked <0x00000000e0000300> (a com.example.Buffer)\n"+
			"\tat com.example.Loop.run(Loop.java:5)\n\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)\n\n", name, id, id, 0x300+id, method, line)
	}
	for i := range puts {
		wait(fmt.Sprintf("feed-%d", i+1), 50+i, "put", 12)
	}
	for i := range takes {
		wait(fmt.Sprintf("drain-%d", i+1), 60+i, "take", 22)
	}
	if inside {
		b.WriteString("\"auditor-1\" #70 prio=5 os_prio=0 cpu=1.00ms elapsed=60.00s tid=0x00007f0000007000 nid=0x700 waiting on condition  [0x00007f0000000000]\n" +
			"   java.lang.Thread.State: TIMED_WAITING (sleeping)\n\tat java.lang.Thread.sleep(java.base@17.0.15/Native Method)\n" +
			"\tat com.example.Buffer.audit(Buffer.java:40)\n\tat com.example.Auditor.run(Auditor.java:5)\n" +
			"\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)\n\n")
	}
	return b.String()
}

// TestTwoSidedWaitsProperty: over generated dumps, a holder waiting for a
// notify while holding a lock is a nested-wait deadlock exactly when its
// wait is untimed, it stays at two moments or more, some thread is
// blocked on its lock, and either a blocked thread runs the holder's
// class or no application thread is free (runnable, or waiting with a
// timeout) to notify; JDK 17's wait without an object reference is read
// as the monitor its caller printed. Threads waiting on one Buffer from
// its put and its take are a lost wake-up exactly when both sides wait,
// at two moments or more, and no other thread is inside the Buffer.
func TestTwoSidedWaitsProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 10))
	base := time.Date(2026, 12, 6, 18, 0, 0, 0, time.UTC)
	for i := range 400 {
		timed, noRef, tiedClass, free := rng.IntN(4) == 0, rng.IntN(2) == 0, rng.IntN(2) == 0, rng.IntN(2) == 0
		n, puts, takes := rng.IntN(4), rng.IntN(3), rng.IntN(3)
		inside := rng.IntN(3) == 0
		moments := 1 + rng.IntN(3)
		if free && rng.IntN(2) == 0 {
			inside = false
		}
		var in []Input
		for m := range moments {
			text := twoSidedMoment(base.Add(time.Duration(m)*5*time.Second), timed, noRef, tiedClass, free, n, puts, takes, inside)
			ds, err := parse.Parse(fmt.Sprintf("%d.txt", m+1), strings.NewReader(text))
			if err != nil {
				t.Fatal(err)
			}
			in = append(in, Input{Dump: ds[0]})
		}
		// The auditor sleeps with a timeout in application code: a free
		// thread too.
		wantNested := !timed && moments >= 2 && n > 0 && (tiedClass || !free && !inside)
		wantLost := moments >= 2 && puts > 0 && takes > 0 && !inside
		var nested, lost int
		for _, f := range Analyze(in, Options{}).Findings {
			switch f.Basis {
			case "nested-wait":
				nested++
				if f.Cycle[0].Name != "keeper-1" || f.Lock == nil || f.Lock.Class != "com.example.Table" {
					t.Errorf("case %d: nested wait led by %s on %+v", i, f.Cycle[0].Name, f.Lock)
				}
			case "lost-wakeup":
				lost++
				if len(f.Cycle) != puts+takes {
					t.Errorf("case %d: lost wake-up of %d threads, want %d", i, len(f.Cycle), puts+takes)
				}
			}
		}
		desc := fmt.Sprintf("case %d (timed %v, noRef %v, tied %v, free %v, %d blocked, %d put, %d take, inside %v, %d moments)",
			i, timed, noRef, tiedClass, free, n, puts, takes, inside, moments)
		if (nested == 1) != wantNested || nested > 1 {
			t.Errorf("%s: %d nested waits, want %v", desc, nested, wantNested)
		}
		if (lost == 1) != wantLost || lost > 1 {
			t.Errorf("%s: %d lost wake-ups, want %v", desc, lost, wantLost)
		}
	}
}
