package parse

import (
	"fmt"
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
