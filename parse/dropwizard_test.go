package parse

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDropwizardReadsAsJstack: Dropwizard's /threads page of a real JVM
// (testdata/gen/dropwizard-threads: metrics-jvm 3.2.6's ThreadDump) reads
// as the jstack -l of the same process at the same moment: each thread the
// program made has the same state, the same frames, and the same wait,
// with the same owner; and holds no lock jstack does not show it holding
// (Dropwizard echoes each wait as "- locked" of the same object).
func TestDropwizardReadsAsJstack(t *testing.T) {
	mine := regexp.MustCompile(`^(lock-[ab]|order-\d|ledger|dw-\d|cache-\d|cache-loader|scheduler)$`)
	for _, s := range []string{"stall", "healthy"} {
		t.Run(s, func(t *testing.T) {
			dw, err := ParseFile(filepath.Join(formatsDir, "dropwizard-jdk17__"+s+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			js, err := ParseFile(filepath.Join(formatsDir, "dropwizard-jdk17__"+s+".jstack.txt"))
			if err != nil {
				t.Fatal(err)
			}
			byName := map[string]*Thread{}
			for _, th := range js[0].Threads {
				byName[th.Name()] = th
			}
			n := 0
			for _, th := range dw[0].Threads {
				if !mine.MatchString(th.Name()) {
					continue
				}
				n++
				j := byName[th.Name()]
				if j == nil {
					t.Errorf("%s: not in the jstack", th.Name())
					continue
				}
				if th.State != j.State {
					t.Errorf("%s: state %q, jstack %q", th.Name(), th.State, j.State)
				}
				if got, want := frameFuncs(th), frameFuncs(j); got != want {
					t.Errorf("%s: frames\n%s\njstack\n%s", th.Name(), got, want)
				}
				if got, want := waitOf(th), waitOf(j); got != want {
					t.Errorf("%s: wait %s, jstack %s", th.Name(), got, want)
				}
				if owner := ownerOf(th); owner != "" {
					if h := jstackHolder(js[0], j); h != owner {
						t.Errorf("%s: waits for %q, jstack shows %q holding it", th.Name(), owner, h)
					}
				}
				for _, l := range th.Locks() {
					if l.Kind == LockHeld && !heldIn(j, l.Class) {
						t.Errorf("%s: holds %s %s, which jstack does not show it holding", th.Name(), l.Address, l.Class)
					}
				}
			}
			if n == 0 {
				t.Fatal("no thread of the program read")
			}
		})
	}
}

func frameFuncs(th *Thread) string {
	var b strings.Builder
	for _, f := range th.Frames {
		fmt.Fprintf(&b, "%s:%d\n", f.Func, f.Line)
	}
	return b.String()
}

// waitOf is a thread's wait: its kind, class, top-frame position and
// owner (jstack prints the owner of a ReentrantLock only under the holder:
// the owner is compared where both print one).
func waitOf(th *Thread) string {
	for _, l := range th.Locks() {
		switch l.Kind {
		case LockWaitingTo, LockWaitingOn, LockParking:
			return fmt.Sprintf("%s %s at frame %d", l.Kind, l.Class, l.Frame)
		}
	}
	return "none"
}

func heldIn(th *Thread, class string) bool {
	for _, l := range th.Locks() {
		if (l.Kind == LockHeld || l.Kind == LockOwnable) && l.Class == class {
			return true
		}
	}
	return false
}

func ownerOf(th *Thread) string {
	for _, l := range th.Locks() {
		if l.Owner != "" {
			return l.Owner
		}
	}
	return ""
}

// jstackHolder names the thread of d that jstack shows holding what th
// waits for (the same address, held or owned), "" if none.
func jstackHolder(d *Dump, th *Thread) string {
	addr := ""
	for _, l := range th.Locks() {
		if l.Kind == LockWaitingTo || l.Kind == LockParking {
			addr = l.Address
		}
	}
	for _, o := range d.Threads {
		for _, l := range o.Locks() {
			if (l.Kind == LockHeld || l.Kind == LockOwnable) && l.Address == addr && o != th {
				return o.Name()
			}
		}
	}
	return ""
}

// TestDropwizardFormProperty: generated pages of Dropwizard's /threads and
// of Jenkins's copy of it (`id=N (0xN) state=S cpu=N%`, the owner quoted
// with its hex id) read every thread with its state, its wait (a park
// under Unsafe.park, a monitor's entry when BLOCKED), the wait's owner and
// id, the monitors held at their frames, and no lock held that is only the
// printer's echo of the wait, whatever the trailers and the order.
func TestDropwizardFormProperty(t *testing.T) {
	rng := rand.New(rand.NewSource(34))
	type want struct {
		state, kind, addr, owner string
		ownerID                  int64
		held                     map[string]int // address → frame
	}
	for trial := 0; trial < 400; trial++ {
		jenkins := rng.Intn(2) == 0
		n := 1 + rng.Intn(12)
		var b strings.Builder
		wants := map[string]want{}
		for i := 0; i < n; i++ {
			name := fmt.Sprintf("worker-%d", i)
			if rng.Intn(4) == 0 {
				name = fmt.Sprintf("dw-%d - GET /orders/%d", 100+i, i)
			}
			id := int64(20 + i)
			w := want{held: map[string]int{}}
			switch rng.Intn(4) {
			case 0:
				w.state = "RUNNABLE"
			case 1:
				w.state, w.kind = "BLOCKED", string(LockWaitingTo)
			case 2:
				w.state, w.kind = "WAITING", string(LockParking)
			default:
				w.state, w.kind = "TIMED_WAITING", string(LockWaitingOn)
			}
			if jenkins {
				fmt.Fprintf(&b, "%q id=%d (0x%x) state=%s cpu=%d%%", name, id, id, w.state, rng.Intn(100))
			} else {
				fmt.Fprintf(&b, "%q id=%d state=%s", name, id, w.state)
			}
			hash := 0x100000 + rng.Intn(0xeffffff)
			w.addr = fmt.Sprintf("%x", hash)
			switch w.kind {
			case string(LockWaitingTo):
				fmt.Fprintf(&b, "\n    - waiting to lock <0x%08x> (a java.lang.Object)", hash)
			case string(LockParking):
				fmt.Fprintf(&b, "\n    - waiting on <0x%08x> (a java.util.concurrent.locks.ReentrantLock$NonfairSync)\n    - locked <0x%08x> (a java.util.concurrent.locks.ReentrantLock$NonfairSync)", hash, hash)
			case string(LockWaitingOn):
				fmt.Fprintf(&b, "\n    - waiting on <0x%08x> (a java.lang.Object)\n    - locked <0x%08x> (a java.lang.Object)", hash, hash)
			default:
				w.addr = ""
			}
			switch rng.Intn(4) {
			case 0:
				b.WriteString(" (running in native)")
			case 1:
				b.WriteString(" (suspended)")
			}
			b.WriteString("\n")
			if w.kind != "" && rng.Intn(3) > 0 {
				w.owner, w.ownerID = fmt.Sprintf("holder-%d", rng.Intn(3)), int64(5+rng.Intn(3))
				if jenkins {
					fmt.Fprintf(&b, "      owned by %q id=%d (0x%x)\n", w.owner, w.ownerID, w.ownerID)
				} else {
					fmt.Fprintf(&b, "     owned by %s id=%d\n", w.owner, w.ownerID)
				}
			}
			frames := 1 + rng.Intn(5)
			for k := 0; k < frames; k++ {
				switch {
				case k == 0 && w.kind == string(LockParking):
					b.WriteString("    at java.base@17.0.15/jdk.internal.misc.Unsafe.park(Native Method)\n")
				case k == 0 && w.kind == string(LockWaitingOn):
					b.WriteString("    at java.base@17.0.15/java.lang.Object.wait(Native Method)\n")
				default:
					fmt.Fprintf(&b, "    at app//com.acme.Svc.step%d(Svc.java:%d)\n", k, 10+k)
				}
				if k > 0 && rng.Intn(3) == 0 {
					h := fmt.Sprintf("%x", 0x200000+rng.Intn(0xeffffff))
					w.held[h] = k
					fmt.Fprintf(&b, "      - locked java.lang.Object@%s\n", h)
				}
			}
			b.WriteString("\n")
			wants[name] = w
		}
		ds, err := Parse("threads.txt", strings.NewReader(b.String()))
		if err != nil {
			t.Fatalf("trial %d: %v\n%s", trial, err, b.String())
		}
		d := ds[0]
		if len(d.Threads) != n || len(d.Skipped) != 0 {
			t.Fatalf("trial %d: %d threads, %d skipped (%v); want %d, 0\n%s", trial, len(d.Threads), len(d.Skipped), d.Skipped, n, b.String())
		}
		for _, th := range d.Threads {
			w, ok := wants[th.Name()]
			if !ok {
				t.Fatalf("trial %d: a thread %q not written\n%s", trial, th.Name(), b.String())
			}
			if th.CPU != 0 {
				t.Errorf("trial %d: %s: CPU %v read from a share", trial, th.Name(), th.CPU)
			}
			if th.State != w.state {
				t.Errorf("trial %d: %s: state %q, want %q", trial, th.Name(), th.State, w.state)
			}
			var kind, addr, owner string
			var ownerID int64
			held := map[string]int{}
			for _, l := range th.Locks() {
				switch l.Kind {
				case LockHeld:
					held[l.Address] = l.Frame
				case LockWaitingTo, LockParking, LockWaitingOn:
					kind, addr, owner, ownerID = string(l.Kind), l.Address, l.Owner, l.OwnerID
					if l.Frame != 0 {
						t.Errorf("trial %d: %s: wait at frame %d, want the top frame", trial, th.Name(), l.Frame)
					}
				}
			}
			if kind != w.kind || addr != w.addr || owner != w.owner || ownerID != w.ownerID {
				t.Errorf("trial %d: %s: wait %s %s owner %q id %d; want %s %s owner %q id %d\n%s", trial, th.Name(),
					kind, addr, owner, ownerID, w.kind, w.addr, w.owner, w.ownerID, b.String())
			}
			if fmt.Sprint(held) != fmt.Sprint(w.held) {
				t.Errorf("trial %d: %s: holds %v, want %v", trial, th.Name(), held, w.held)
			}
		}
		if t.Failed() {
			t.FailNow()
		}
	}
}
