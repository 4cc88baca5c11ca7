package analyze

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestLoneLockWaitProperty: the lone lock waiter (sameLockWait) is stuck
// only with everything its threshold asks for. From every committed run
// with such a waiter, moments are drawn and changed at random: how many
// (2 to 4, cycling the three dumps), the span between the first and the
// last (3 s to 30 s), the lock object at one moment moved to another
// address, or a holder printed for it (an ownable synchronizer held by
// another thread). The waiter is stuck exactly when every moment has the
// same lock, there are 3 or more spanning 10 s or more, and no holder
// is printed.
func TestLoneLockWaitProperty(t *testing.T) {
	type run struct{ dir, waiter string }
	runs := []run{{"liblock-stuck", "ui-writer"}, {"jdk25-liblock-stuck", "ui-writer"}}
	r := rand.New(rand.NewPCG(33, 10))
	tried, stuck := 0, 0
	for _, rn := range runs {
		base := loadMoments(t, filepath.Join("..", "testdata", "verdicts", rn.dir), []string{"1", "2", "3"})
		for range 60 {
			n := 2 + r.IntN(3)
			span := time.Duration(3+r.IntN(28)) * time.Second
			moved, holder := r.IntN(4) == 0, r.IntN(4) == 0
			at := r.IntN(n)
			t0 := time.Date(2026, 12, 7, 1, 0, 0, 0, time.UTC)
			var in []Input
			for m := range n {
				d := cloneDump(base[m%3].Dump)
				d.Time = t0.Add(span * time.Duration(m) / time.Duration(n-1))
				for _, th := range d.Threads {
					if th.Name() != rn.waiter {
						continue
					}
					for i := range th.JVM.Locks {
						if l := &th.JVM.Locks[i]; l.Kind == parse.LockParking && m == at {
							if moved {
								l.Address = "0x00000000deadbeef"
							}
							if holder {
								for _, o := range d.Threads {
									if o.Name() == "index-reader" {
										o.JVM.Locks = append(o.JVM.Locks, parse.Lock{Kind: parse.LockOwnable, Address: l.Address, Class: l.Class, Frame: -1})
									}
								}
							}
						}
					}
				}
				in = append(in, Input{Label: fmt.Sprint(m + 1), Dump: d})
			}
			want := n >= StuckLockMoments && span >= StuckLockSpan*time.Second && !moved && !holder
			got := false
			for _, f := range Analyze(in, Options{}).Findings {
				got = got || f.Kind == KindStuck && f.Pool == rn.waiter
			}
			tried++
			if got {
				stuck++
			}
			if got != want {
				t.Errorf("%s: %d moments over %s, moved %v, holder printed %v (at %d): stuck %v, want %v", rn.dir, n, span, moved, holder, at, got, want)
			}
		}
	}
	t.Logf("lone lock waiters drawn: %d, stuck %d", tried, stuck)
}

// cloneDump copies d deep enough to change its threads' locks and time.
func cloneDump(d *parse.Dump) *parse.Dump {
	c := *d
	c.Threads = make([]*parse.Thread, len(d.Threads))
	for i, t := range d.Threads {
		tc := *t
		if t.JVM != nil {
			j := *t.JVM
			j.Locks = append([]parse.Lock(nil), t.JVM.Locks...)
			tc.JVM = &j
		}
		c.Threads[i] = &tc
	}
	return &c
}

// TestJDKLockCaller: a lock wait with no application frame (the JDK
// taking its own lock) is named by the frame that called the lock; any
// other wait, or a stack of the lock plumbing alone, has no culprit.
func TestJDKLockCaller(t *testing.T) {
	lock := &Signature{ID: "lock-wait", Resource: "lock"}
	park := &Signature{ID: "park", Resource: "condition"}
	// judge4 12 (JDK 21.0.8, adoptium/adoptium-support#1343): the LDAP
	// pool's connection closure under ReentrantLock.lock.
	ldap := thread("WAITING", "java.util.concurrent.locks.AbstractQueuedSynchronizer.acquire",
		"java.util.concurrent.locks.AbstractQueuedSynchronizer.acquire", "java.util.concurrent.locks.ReentrantLock$Sync.lock",
		"java.util.concurrent.locks.ReentrantLock.lock", "com.sun.jndi.ldap.pool.Connections.removePooledConnection",
		"com.sun.jndi.ldap.LdapClient.processConnectionClosure", "java.lang.Thread.run")
	tests := []struct {
		name string
		t    *parse.Thread
		sig  *Signature
		want string
	}{
		{"ldap", ldap, lock, "com.sun.jndi.ldap.pool.Connections.removePooledConnection"},
		{"not a lock", ldap, park, ""},
		{"plumbing alone", thread("WAITING", "jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park",
			"java.util.concurrent.locks.ReentrantLock.lock", "java.lang.Thread.run"), lock, ""},
		{"no frames", thread("WAITING"), lock, ""},
	}
	for _, tt := range tests {
		got := ""
		if f := jdkLockCaller(parse.RuntimeJVM, tt.t, tt.sig); f != nil {
			got = f.Func
		}
		if got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
	// On the real paste: the finding's culprit, where main's was empty.
	ds, err := parse.Parse("ldap.txt", strings.NewReader("\"Thread-7\" #29048760 daemon prio=5 os_prio=0 cpu=5.38ms elapsed=10104.56s tid=0x00007edd27cb4fa0 nid=316041 waiting on condition  [0x00007edd1f51a000]\n"+
		"   java.lang.Thread.State: WAITING (parking)\n"+
		"\tat jdk.internal.misc.Unsafe.park(java.base@21.0.8/Native Method)\n"+
		"\t- parking to wait for  <0x0000000400a9eaf8> (a java.util.concurrent.locks.ReentrantLock$NonfairSync)\n"+
		"\tat java.util.concurrent.locks.LockSupport.park(java.base@21.0.8/LockSupport.java:221)\n"+
		"\tat java.util.concurrent.locks.AbstractQueuedSynchronizer.acquire(java.base@21.0.8/AbstractQueuedSynchronizer.java:754)\n"+
		"\tat java.util.concurrent.locks.ReentrantLock$Sync.lock(java.base@21.0.8/ReentrantLock.java:153)\n"+
		"\tat java.util.concurrent.locks.ReentrantLock.lock(java.base@21.0.8/ReentrantLock.java:322)\n"+
		"\tat com.sun.jndi.ldap.pool.Connections.removePooledConnection(java.naming@21.0.8/Connections.java:251)\n"+
		"\tat com.sun.jndi.ldap.Connection.run(java.naming@21.0.8/Connection.java:1041)\n"+
		"\tat java.lang.Thread.run(java.base@21.0.8/Thread.java:1583)\n"))
	if err != nil {
		t.Fatal(err)
	}
	r := Analyze([]Input{{Dump: ds[0]}}, Options{})
	found := false
	for _, f := range r.Findings {
		found = found || strings.HasPrefix(f.Culprit, "com.sun.jndi.ldap.pool.Connections.removePooledConnection(")
	}
	if !found {
		t.Errorf("no finding names the LDAP pool's lock caller: %v", r.Findings)
	}
}

// TestHoldingPasteProperty: every thread of the committed verdict runs
// (testdata/verdicts/*/1.txt) blocked on a lock while it holds another,
// pasted alone as a ticket pastes it, gives a stuck finding that names
// every monitor it holds (but the one it waits on, and a pool worker's
// own lock), up to three.
func TestHoldingPasteProperty(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "verdicts", "*", "1.txt"))
	tried := 0
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		ds, err := parse.ParseFile(file)
		if err != nil || ds[0].Format.Runtime() != parse.RuntimeJVM {
			continue
		}
		for _, th := range ds[0].Threads {
			if th.State != "BLOCKED" || th.Name() == "" {
				continue
			}
			want := heldWhileWaiting([]*parse.Thread{th})
			if len(want) == 0 {
				continue
			}
			// The thread's text: its header to the blank line after it.
			text := string(b)
			i := strings.Index(text, "\""+th.Name()+"\" ")
			if i < 0 {
				continue
			}
			j := strings.Index(text[i:], "\n\n")
			if j < 0 {
				j = len(text) - i
			}
			paste := "The thread that holds it:\n\n```\n" + text[i:i+j] + "\n```\n"
			pd, err := parse.Parse("paste.md", strings.NewReader(paste))
			if err != nil {
				t.Errorf("%s %s: %v", file, th.Name(), err)
				continue
			}
			tried++
			var got []LockRef
			for _, f := range Analyze([]Input{{Dump: pd[0]}}, Options{}).Findings {
				if f.Kind == KindStuck {
					got = f.Holding
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s %s pasted alone: holding %v, want %v", file, th.Name(), got, want)
			}
		}
	}
	t.Logf("blocked holders pasted alone: %d", tried)
	if tried < 3 {
		t.Errorf("only %d blocked holders in the verdict runs: the testdata has more", tried)
	}
}

// TestOrphanedWaitsProperty: the waiters of orphan-stuck (a latch whose
// counter died, a full queue whose consumer died: Java 17 and Temurin
// 25) are stuck exactly when every application thread waits untimed on a
// hand-off at every moment, two moments or more. Drawn at random: how
// many moments, and at one moment a thread added that could be the other
// side (the healthy run's consumer resting in take, or running), or one
// waiter's wait made timed.
func TestOrphanedWaitsProperty(t *testing.T) {
	healthy := loadMoments(t, filepath.Join("..", "testdata", "verdicts", "orphan-healthy"), []string{"1"})[0].Dump
	var consumer *parse.Thread
	for _, th := range healthy.Threads {
		if th.Name() == "metrics-sender" {
			consumer = th
		}
	}
	if consumer == nil {
		t.Fatal("orphan-healthy/1.txt has no metrics-sender")
	}
	r := rand.New(rand.NewPCG(33, 45))
	tried := 0
	for _, dir := range []string{"orphan-stuck", "jdk25-orphan-stuck"} {
		base := loadMoments(t, filepath.Join("..", "testdata", "verdicts", dir), []string{"1", "2", "3"})
		for range 40 {
			n := 1 + r.IntN(3)
			change := r.IntN(4) // 0: none, 1: a consumer resting in take, 2: a thread running, 3: a timed wait
			at := r.IntN(n)
			var in []Input
			for m := range n {
				d := cloneDump(base[m].Dump)
				if m == at {
					switch change {
					case 1:
						d.Threads = append(d.Threads, consumer)
					case 2:
						c := *consumer
						c.State = "RUNNABLE"
						c.Frames = []*parse.Frame{{Func: "com.example.holders.OrphanApp.compute"}, {Func: "java.lang.Thread.run"}}
						d.Threads = append(d.Threads, &c)
					case 3:
						for _, th := range d.Threads {
							if th.Name() == "main" {
								th.State = "TIMED_WAITING"
							}
						}
					}
				}
				in = append(in, Input{Label: fmt.Sprint(m + 1), Dump: d})
			}
			want := n >= 2 && change == 0
			stuck := map[string]bool{}
			for _, f := range Analyze(in, Options{}).Findings {
				if f.Kind == KindStuck {
					stuck[f.Pool] = true
				}
			}
			tried++
			// One dump of the stall: main's latch that nothing in the dump
			// can count down is main's own no-peer finding, said as one
			// dump's warning (no_peer.go); the collector waits for its
			// consumer alone, under every floor.
			if n == 1 && (change == 0 || change == 1) {
				if change == 1 && !stuck["main"] {
					// the consumer resting in take is no counter of main's
					// latch either: main stays stuck
					t.Errorf("%s: 1 moment, a consumer resting in take added: main not stuck", dir)
				}
				if !stuck["main"] || stuck["metrics-collector"] {
					t.Errorf("%s: 1 moment, change %d: stuck %v, want main alone", dir, change, stuck)
				}
				continue
			}
			if got := stuck["main"] && stuck["metrics-collector"]; got != want || !want && (stuck["main"] || stuck["metrics-collector"]) {
				t.Errorf("%s: %d moments, change %d at %d: stuck %v, want both %v", dir, n, change, at, stuck, want)
			}
		}
	}
	t.Logf("orphaned hand-offs drawn: %d", tried)
}
