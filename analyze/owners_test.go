package analyze

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestFormatsFixtureFindings: the real dumps of testdata/formats give the
// findings their sources describe (testdata/formats/README.md): each
// deadlock with its members, the ThreadInfo contention with its holder,
// none where the source describes none; an excerpt is said in a warning.
func TestFormatsFixtureFindings(t *testing.T) {
	tests := []struct {
		file       string
		deadlock   []string // members, sorted; nil for none
		contention string   // the holder of a contention finding; "" for none
		excerpt    bool
	}{
		{"openj9-docs__javacore-deadlock-excerpt.txt", []string{"Worker Thread 1", "Worker Thread 2", "Worker Thread 3"}, "", true},
		{"openj9-docs__javacore-threads-excerpt.txt", nil, "", true},
		{"intellij__simple-deadlock.txt", []string{"Thread-1", "Thread-2"}, "", false},
		{"intellij__virtual-threads-deadlock.txt", []string{"Scope-A-worker-0", "Scope-B-worker-0"}, "", false},
		{"threadinfo-jdk17__three-way.txt", []string{"ring-0", "ring-1", "ring-2"}, "holder", false},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			ds, err := parse.ParseFile(filepath.Join("..", "testdata", "formats", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			r := Analyze([]Input{{Dump: ds[0]}}, Options{})
			var members []string
			holder := ""
			for _, f := range r.Findings {
				switch f.Kind {
				case KindDeadlock:
					if members != nil {
						t.Errorf("a second deadlock: %s", f.ID)
					}
					members = []string{}
					for _, c := range f.Cycle {
						members = append(members, c.Name)
						if c.WaitsFor == nil || c.WaitsFor.Holder == "" {
							t.Errorf("%s: no holder for what it waits for", c.Name)
						}
					}
					sort.Strings(members)
				case KindContention:
					if f.Lock != nil && f.Lock.Owner != nil {
						holder = f.Lock.Owner.Name
					}
				}
			}
			if fmt.Sprint(members) != fmt.Sprint(tt.deadlock) || (members == nil) != (tt.deadlock == nil) {
				t.Errorf("deadlock members %v, want %v", members, tt.deadlock)
			}
			if holder != tt.contention {
				t.Errorf("contention holder %q, want %q", holder, tt.contention)
			}
			said := false
			for _, w := range r.Warnings {
				said = said || strings.Contains(w, "an excerpt")
			}
			if said != tt.excerpt {
				t.Errorf("excerpt warned: %v, want %v (%q)", said, tt.excerpt, r.Warnings)
			}
		})
	}
}

// javacoreRing writes a javacore excerpt of n threads, each blocked on a
// monitor owned by the next, ring order shuffled in the file; held says
// whether each record also prints the lock it entered (5XESTACKTRACE),
// as J9 does, or only its "Blocked on ... Owned by" line.
func javacoreRing(rng *rand.Rand, n int, held bool) (string, []string) {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("Worker Thread %d", rng.Intn(1000)*10+i)
	}
	var b strings.Builder
	for _, i := range rng.Perm(n) {
		next := (i + 1) % n
		fmt.Fprintf(&b, "3XMTHREADINFO      %q J9VMThread:0x%X, omrthread_t:0x1, java/lang/Thread:0x2, state:B, prio=5\n", names[i], 0x9000+i)
		fmt.Fprintf(&b, "3XMJAVALTHREAD            (java/lang/Thread getId:0x%X, isDaemon:false)\n", 0x40+i)
		fmt.Fprintf(&b, "3XMTHREADBLOCK     Blocked on: java/lang/Object@0xB%03X Owned by: %q (J9VMThread:0x%X, java/lang/Thread:0x2)\n", next, names[next], 0x9000+next)
		b.WriteString("3XMTHREADINFO3           Java callstack:\n")
		b.WriteString("4XESTACKTRACE                at WorkerThread.run(DeadLockTest.java:35)\n")
		if held {
			fmt.Fprintf(&b, "5XESTACKTRACE                   (entered lock: java/lang/Object@0xB%03X, entry count: 1)\n", i)
		}
		b.WriteString("...\n")
	}
	sorted := append([]string(nil), names...)
	sort.Strings(sorted)
	return b.String(), sorted
}

// TestJavacoreOwnersDeadlock: a ring of N threads written as javacore
// records is one deadlock of the N, whether the owners are printed by
// the waiters alone (Blocked on ... Owned by) or by the holders too; two
// threads of one name are told apart by the owner's J9VMThread.
func TestJavacoreOwnersDeadlock(t *testing.T) {
	rng := rand.New(rand.NewSource(32))
	for trial := 0; trial < 40; trial++ {
		n := 2 + rng.Intn(6)
		held := trial%2 == 0
		text, want := javacoreRing(rng, n, held)
		ds, err := parse.Parse("ring.txt", strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		r := Analyze([]Input{{Dump: ds[0]}}, Options{})
		var got []string
		for _, f := range r.Findings {
			if f.Kind == KindDeadlock {
				for _, c := range f.Cycle {
					got = append(got, c.Name)
				}
			}
		}
		sort.Strings(got)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("trial %d (n=%d, held=%v): deadlock members %v, want %v\n%s", trial, n, held, got, want, text)
		}
	}
}

// TestPrintedOwnerAmbiguous: an owner named without an id, where two
// threads have that name, names no one: no holder is guessed.
func TestPrintedOwnerAmbiguous(t *testing.T) {
	d := &parse.Dump{Format: parse.FormatJVMText}
	lock := parse.Lock{Kind: parse.LockWaitingTo, Address: "0x1", Class: "java.lang.Object", Owner: "twin"}
	d.Threads = []*parse.Thread{
		{Weight: 1, State: "BLOCKED", JVM: &parse.JVM{Name: "w", Locks: []parse.Lock{lock}}},
		{Weight: 1, State: "RUNNABLE", JVM: &parse.JVM{Name: "twin"}},
		{Weight: 1, State: "RUNNABLE", JVM: &parse.JVM{Name: "twin"}},
	}
	if h := holders(d); h["0x1"] != nil {
		t.Errorf("holder %q guessed among two threads of one name", h["0x1"].Name())
	}
	lock.OwnerID = 7
	d.Threads[0].JVM.Locks[0] = lock
	d.Threads[2].ID = 7
	if h := holders(d); h["0x1"] != d.Threads[2] {
		t.Errorf("the owner's id does not pick the twin with id 7")
	}
}

// TestJavacoreWaiterNotHolder: in IBM J9's javacore (shared corpus), a
// thread woken from Object.wait and blocked re-entering LogToFile prints
// the lock as entered in its stack, and "Owned by" names the thread that
// holds it: the holder is that owner, not the waiter.
func TestJavacoreWaiterNotHolder(t *testing.T) {
	ds, err := parse.ParseFile(filepath.Join("..", "..", "shared", "corpus", "jvm", "ibm-flamegrapher__ibm-j9-jdk8-sr5fp41-linux__javacore.txt"))
	if err != nil {
		t.Skipf("shared corpus not present: %v", err)
	}
	h := holders(ds[0])
	if o := h["0x00000000E06FA928"]; o == nil || o.Name() != "Default Executor-thread-135" {
		t.Errorf("holder of LogToFile@0x00000000E06FA928 = %v, want Default Executor-thread-135 (its Owned by)", o)
	}
}
