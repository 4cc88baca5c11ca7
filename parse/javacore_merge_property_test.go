package parse

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestJavacoreMonitorsMergedProperty: a javacore whose threads' own lines
// say nothing of their monitors (IBM's classic JVMs, J9 before Java 7)
// gives each thread what its LOCKS section says: the monitors it owns,
// the one it waits to enter (BLOCKED, with the owner), the one it waits
// to be notified on. Generated worlds: 3–12 threads (names with spaces
// and quotes, two sharing a name in some), 1–4 monitors each with an
// owner or none and drawn waiters, in the classic syntax (sys_thread_t
// ids, "owner") or J9's ("Flat locked by", J9VMThread ids), the LOCKS
// section before or after the THREADS section. Seeded.
func TestJavacoreMonitorsMergedProperty(t *testing.T) {
	type mon struct {
		class, addr string
		owner       int // -1: unowned
		enter       []int
		notify      []int
	}
	for seed := range uint64(300) {
		r := rand.New(rand.NewPCG(seed, 9))
		n := 3 + r.IntN(10)
		classic := r.IntN(2) == 0
		names := make([]string, n)
		ids := make([]string, n)
		for i := range n {
			names[i] = []string{"ExecuteThread: '%d' for queue: 'default'", "Worker Thread %d", "pool-1-thread-%d", "WebContainer : %d"}[r.IntN(4)]
			names[i] = fmt.Sprintf(names[i], i)
			ids[i] = fmt.Sprintf("0x%X", 0x6F10000+i*0x3F0)
		}
		if r.IntN(4) == 0 && n > 3 {
			names[n-1] = names[n-2] // two threads of one name: told by their id
		}
		// Monitors: each thread waits on at most one.
		busy := map[int]bool{}
		var mons []mon
		for k := range 1 + r.IntN(4) {
			m := mon{class: []string{"java.lang.Class", "java.lang.Object", "com.example.Cache"}[r.IntN(3)], addr: fmt.Sprintf("%X/%X", 0x2AD2BF8+k*0x40, 0x2AD2C00+k*0x40), owner: -1}
			if r.IntN(4) != 0 {
				m.owner = r.IntN(n)
			}
			for i := range n {
				if busy[i] || i == m.owner || r.IntN(3) != 0 {
					continue
				}
				busy[i] = true
				if r.IntN(3) == 0 {
					m.notify = append(m.notify, i)
				} else {
					m.enter = append(m.enter, i)
				}
			}
			mons = append(mons, m)
		}
		dupe := names[n-1] == names[n-2]
		ref := func(i int) string {
			if classic {
				return fmt.Sprintf("%q (%s)", names[i], ids[i])
			}
			return fmt.Sprintf("%q (J9VMThread:%s)", names[i], ids[i])
		}
		var locks strings.Builder
		locks.WriteString("0SECTION       LOCKS subcomponent dump routine\nNULL           ===============================\n1LKMONPOOLDUMP Monitor Pool Dump (flat & inflated object-monitors):\n")
		for k, m := range mons {
			fmt.Fprintf(&locks, "2LKMONINUSE      sys_mon_t:0x%08X infl_mon_t: 0x%08X:\n", 0x3FB90+k*0x48, 0x301EE8+k*0x28)
			owner := "<unowned>"
			if m.owner >= 0 {
				if classic {
					owner = "owner " + ref(m.owner) + ", entry count 1"
				} else {
					owner = "Flat locked by " + ref(m.owner) + ", entry count 1"
				}
			}
			fmt.Fprintf(&locks, "3LKMONOBJECT       %s@%s: %s\n", m.class, m.addr, owner)
			if len(m.enter) > 0 {
				locks.WriteString("3LKWAITERQ            Waiting to enter:\n")
				for _, i := range m.enter {
					fmt.Fprintf(&locks, "3LKWAITER                %s\n", ref(i))
				}
			}
			if len(m.notify) > 0 {
				locks.WriteString("3LKNOTIFYQ            Waiting to be notified:\n")
				for _, i := range m.notify {
					fmt.Fprintf(&locks, "3LKWAITNOTIFY            %s\n", ref(i))
				}
			}
		}
		locks.WriteString("NULL           ------------------------------------------------------------------------\n")
		var threads strings.Builder
		threads.WriteString("0SECTION       THREADS subcomponent dump routine\nNULL           =================================\n")
		for i := range n {
			state := []string{"R", "CW"}[r.IntN(2)]
			if classic && slicesHas(mons, func(m mon) []int { return m.enter }, i) {
				state = "MW"
			}
			if classic {
				fmt.Fprintf(&threads, "3XMTHREADINFO      %q (TID:0x%X, sys_thread_t:%s, state:%s, native ID:0x%X) prio=5\n", names[i], 0x2928000+i*0xA0, ids[i], state, 0x100+i)
			} else {
				fmt.Fprintf(&threads, "3XMTHREADINFO      %q J9VMThread:%s, j9thread_t:0x%X, java/lang/Thread:0x%X, state:%s, prio=5\n", names[i], ids[i], 0x7000+i, 0x9000+i, state)
			}
			fmt.Fprintf(&threads, "4XESTACKTRACE          at com.example.Svc.step%d(Svc.java:%d)\n4XESTACKTRACE          at java.lang.Thread.run(Thread.java:568)\n", i, 10+i)
		}
		threads.WriteString("NULL           ------------------------------------------------------------------------\n")
		head := "0SECTION       TITLE subcomponent dump routine\nNULL           ===============================\n1TIDATETIME    Date:                 2006/05/11 at 17:29:14\n"
		text := head + locks.String() + threads.String()
		if r.IntN(2) == 0 {
			text = head + threads.String() + locks.String()
		}
		ds, err := Parse("javacore.txt", strings.NewReader(text))
		if err != nil || len(ds) != 1 || len(ds[0].Threads) != n {
			t.Fatalf("seed %d: %v, %d dumps\n%s", seed, err, len(ds), text)
		}
		th := ds[0].Threads
		// Where two share a name, a classic ref's id is no J9VMThread:
		// only J9's refs tell them apart; the test expects nothing of
		// them then.
		told := func(i int) bool { return !dupe || i < n-2 || !classic }
		for k, m := range mons {
			addr := m.addr
			for i := range n {
				if !told(i) {
					continue
				}
				var got []string
				for _, l := range th[i].Locks() {
					if strings.Contains(l.Address, strings.SplitN(addr, "/", 2)[0]) {
						got = append(got, string(l.Kind)+" owner="+l.Owner)
					}
				}
				var want []string
				if m.owner == i {
					want = append(want, string(LockHeld)+" owner=")
				}
				for _, e := range m.enter {
					if e == i {
						o := ""
						if m.owner >= 0 {
							o = names[m.owner]
						}
						want = append(want, string(LockWaitingTo)+" owner="+o)
						if th[i].State != "BLOCKED" {
							t.Errorf("seed %d: %q waits to enter monitor %d, state %q, want BLOCKED", seed, names[i], k, th[i].State)
						}
					}
				}
				for _, e := range m.notify {
					if e == i {
						want = append(want, string(LockWaitingOn)+" owner=")
					}
				}
				if strings.Join(got, ";") != strings.Join(want, ";") {
					t.Errorf("seed %d (classic %v): %q on monitor %d: %v, want %v\n%s", seed, classic, names[i], k, got, want, text)
				}
			}
		}
	}
}

func slicesHas[M any](ms []M, f func(M) []int, i int) bool {
	for _, m := range ms {
		for _, x := range f(m) {
			if x == i {
				return true
			}
		}
	}
	return false
}
