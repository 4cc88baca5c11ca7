package parse

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// hprofCounts is a row of testdata/hprof/COUNTS.tsv: what the jstack -l
// taken just before each heap dump says, counted by awk (counts.sh).
type hprofCounts struct {
	file                                     string
	expected                                 int // Java threads less those HotSpot hides from heap dumps
	runnable, blocked, waiting, timedWaiting int
	pools                                    map[string]int // "task" -> task-N threads
}

func readHPROFCounts(t *testing.T) []hprofCounts {
	t.Helper()
	f, err := os.Open("../testdata/hprof/COUNTS.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []hprofCounts
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		col := strings.Split(sc.Text(), "\t")
		if len(col) != 12 {
			t.Fatalf("COUNTS.tsv: bad line %q", sc.Text())
		}
		n := make([]int, len(col))
		for i := 1; i < len(col); i++ {
			if n[i], err = strconv.Atoi(col[i]); err != nil {
				t.Fatalf("COUNTS.tsv: bad line %q", sc.Text())
			}
		}
		out = append(out, hprofCounts{file: col[0], expected: n[3], runnable: n[4], blocked: n[5], waiting: n[6], timedWaiting: n[7],
			pools: map[string]int{"task": n[8], "report": n[9], "worker": n[10], "http": n[11]}})
	}
	if len(out) == 0 {
		t.Fatal("COUNTS.tsv: no rows")
	}
	return out
}

// TestHPROFFixtures reads the real heap dumps of testdata/hprof (JDK 17 and
// Temurin 25) and checks them against the jstack -l taken just before
// each: the thread count and states as awk counted them (COUNTS.tsv), and,
// thread by thread (matched by the Java thread id), the name, daemon flag,
// priority and JavaThread address (jstack's tid=); for the pools'
// threads, which stay where they are between the two, the state and the
// stack frame by frame (all but a few tasks still connecting when
// jstack ran) and the class of the lock a parked one waits for.
func TestHPROFFixtures(t *testing.T) {
	for _, c := range readHPROFCounts(t) {
		t.Run(c.file, func(t *testing.T) {
			dumps, err := ParseFile(filepath.Join("../testdata/hprof", c.file))
			if err != nil {
				t.Fatal(err)
			}
			if len(dumps) != 1 || dumps[0].Format != FormatHPROF {
				t.Fatalf("%d dumps, format %s", len(dumps), dumps[0].Format)
			}
			d := dumps[0]
			if len(d.Skipped) > 0 {
				t.Errorf("skipped: %+v", d.Skipped)
			}
			if len(d.Threads) != c.expected {
				t.Errorf("%d threads, jstack says %d", len(d.Threads), c.expected)
			}
			states := map[string]int{}
			pools := map[string]int{}
			for _, th := range d.Threads {
				states[th.State]++
				if i := strings.LastIndexByte(th.Name(), '-'); i > 0 {
					if _, err := strconv.Atoi(th.Name()[i+1:]); err == nil {
						pools[th.Name()[:i]]++
					}
				}
			}
			for p, n := range c.pools {
				if pools[p] != n {
					t.Errorf("%s-N: %d threads, jstack says %d", p, pools[p], n)
				}
			}
			// Read once, as from standard input: the same threads, and
			// the names that lie before their threads (in every real dump
			// here) said not read; the file took a second pass for them.
			f, err := os.Open(filepath.Join("../testdata/hprof", c.file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			one, err := Parse("-", f)
			if err != nil {
				t.Fatal(err)
			}
			said := false
			for _, sk := range one[0].Skipped {
				said = said || strings.Contains(sk.Reason, "cannot be read again")
			}
			if len(one[0].Threads) != len(d.Threads) || !said {
				t.Errorf("one pass: %d threads (a file: %d), skipped %+v", len(one[0].Threads), len(d.Threads), one[0].Skipped)
			}
			js, err := ParseFile(filepath.Join("../testdata/hprof", strings.TrimSuffix(c.file, ".hprof.gz")+".jstack.txt"))
			if err != nil {
				t.Fatal(err)
			}
			var moved []string // pool threads whose state or stack differ from jstack's
			byID := map[int64]*Thread{}
			for _, th := range js[0].Threads {
				byID[th.ID] = th
			}
			for _, th := range d.Threads {
				j := byID[th.ID]
				if j == nil {
					t.Errorf("thread #%d %q: not in the jstack", th.ID, th.Name())
					continue
				}
				if th.Name() != j.Name() || th.Daemon != j.Daemon || th.Priority != j.Priority || th.TID != j.TID {
					t.Errorf("thread #%d: %q daemon %v prio %d tid %s; jstack: %q %v %d %s", th.ID, th.Name(), th.Daemon, th.Priority, th.TID,
						j.Name(), j.Daemon, j.Priority, j.TID)
				}
				pool := strings.HasPrefix(th.Name(), "task-") || strings.HasPrefix(th.Name(), "report-") || strings.HasPrefix(th.Name(), "worker-")
				if !pool {
					continue
				}
				// A detail the heap dump gives (parking, sleeping, on object
				// monitor) is jstack's; jstack's header word for a RUNNABLE
				// thread ("runnable") is not in the file.
				same := th.State == j.State && (th.StateDetail == "" || th.StateDetail == j.StateDetail) && len(th.Frames) == len(j.Frames)
				for i := 0; same && i < len(th.Frames); i++ {
					f, g := th.Frames[i], j.Frames[i]
					same = f.Func == g.Func && f.File == g.File && f.Line == g.Line && f.Note == g.Note
				}
				if !same {
					moved = append(moved, th.Name())
					continue
				}
				if parkClass(th) != parkClass(j) {
					t.Errorf("%s: parks on %q; jstack: %q", th.Name(), parkClass(th), parkClass(j))
				}
			}
			// A task thread may still be connecting when jstack runs (its
			// connection not accepted yet) and reading when the dump is
			// taken: a few of them; nothing else of a pool moves (report-N
			// stuck, worker-N idle).
			for _, name := range moved {
				if !strings.HasPrefix(name, "task-") {
					t.Errorf("%s differs from jstack in state or stack", name)
				}
			}
			if len(moved) > 5 {
				t.Errorf("%d task threads differ from jstack in state or stack: %v", len(moved), moved)
			} else if len(moved) > 0 {
				t.Logf("tasks that moved on between jstack and the dump: %v", moved)
			}
			// States as awk counted them in the jstack, less the threads
			// that changed state in the moment between (matched by id:
			// main leaves its sleep to fill the heap; the healthy
			// service's client sleeps and calls in turn).
			want := map[string]int{"RUNNABLE": c.runnable, "BLOCKED": c.blocked, "WAITING": c.waiting, "TIMED_WAITING": c.timedWaiting}
			for _, th := range d.Threads {
				if j := byID[th.ID]; j != nil && j.State != th.State {
					want[j.State]--
					want[th.State]++
					t.Logf("%s: %s in the jstack, %s in the heap dump", th.Name(), j.State, th.State)
					if strings.Contains(th.Name(), "-") && th.Name() != "Attach Listener" && !slices.Contains(moved, th.Name()) {
						t.Errorf("%s changed state between jstack and the dump", th.Name())
					}
				}
			}
			for st, n := range want {
				if states[st] != n {
					t.Errorf("%s: %d threads, jstack says %d (less those that moved)", st, states[st], n)
				}
			}
		})
	}
}

// parkClass is the class of the lock t parks on; "" when none.
func parkClass(t *Thread) string {
	for _, l := range t.Locks() {
		if l.Kind == LockParking {
			return l.Class
		}
	}
	return ""
}
