package parse

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDebug3RealMatchesDebug2 reads CockroachDB's goroutine?debug=3 as its
// fork of the runtime wrote it (testdata/formats/cockroach-go-debug3.pb.gz,
// made by testdata/gen/debug3/gen.sh) beside the debug=2 the same program
// served a few milliseconds later: every goroutine has the id, parent,
// state and wait debug=2 prints for it, and the same functions on its
// stack, once the frames a traceback hides are taken off (debug=3 has
// them, as debug=0 has: runtime.gopark ← runtime.chanrecv...). The
// goroutine serving the request (running) differs in its frames only: one
// was writing debug=3, the other debug=2.
func TestDebug3RealMatchesDebug2(t *testing.T) {
	counts := formatsCounts(t)
	d3, err := ParseFile(filepath.Join(formatsDir, "cockroach-go-debug3.pb.gz"))
	if err != nil {
		t.Fatal(err)
	}
	d2, err := ParseFile(filepath.Join(formatsDir, "cockroach-go-debug2.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(d3) != 1 || len(d2) != 1 {
		t.Fatalf("got %d and %d dumps, want 1 and 1", len(d3), len(d2))
	}
	if d3[0].Format != FormatGoProto || d2[0].Format != FormatGoText {
		t.Errorf("formats %s, %s; want go-proto, go-text", d3[0].Format, d2[0].Format)
	}
	if n := d3[0].ThreadCount(); n != counts["cockroach-go-debug3.pb.gz"] {
		t.Errorf("debug=3: %d goroutines, COUNTS.tsv says %d (go tool pprof -raw)", n, counts["cockroach-go-debug3.pb.gz"])
	}
	if n := d2[0].ThreadCount(); n != counts["cockroach-go-debug2.txt"] {
		t.Errorf("debug=2: %d goroutines, COUNTS.tsv says %d (grep)", n, counts["cockroach-go-debug2.txt"])
	}
	type facts struct {
		Parent      int64
		State       string
		WaitMinutes int
		Funcs       string
	}
	of := func(d *Dump) map[int64]facts {
		out := map[int64]facts{}
		for _, th := range d.Threads {
			if th.Weight != 1 {
				t.Errorf("goroutine %d: weight %d, want 1", th.ID, th.Weight)
			}
			f := facts{State: th.State, WaitMinutes: th.WaitMinutes}
			if th.CreatedBy != nil {
				f.Parent = th.CreatedBy.Parent
			}
			if th.State != "running" {
				var fs []string
				for _, fr := range th.Frames {
					if tracebackShows(fr.Func) {
						fs = append(fs, fr.Func)
					}
				}
				f.Funcs = strings.Join(fs, " < ")
			}
			if _, dup := out[th.ID]; dup {
				t.Errorf("goroutine %d twice", th.ID)
			}
			out[th.ID] = f
		}
		return out
	}
	got, want := of(d3[0]), of(d2[0])
	// Each request is served by goroutines of its own (net/http's reader
	// of the connection, started per request): those are in one dump
	// only. Every other goroutine is in both, with the same facts.
	for _, d := range []*Dump{d3[0], d2[0]} {
		other := want
		if d == d2[0] {
			other = got
		}
		for _, th := range d.Threads {
			if _, ok := other[th.ID]; ok {
				continue
			}
			if !servesHTTP(th) && !servesHTTP(byID(d, th.CreatedBy)) {
				t.Errorf("%s: goroutine %d (%s) is not in the other dump", d.Format, th.ID, th.State)
			}
			delete(got, th.ID)
			delete(want, th.ID)
		}
	}
	if len(got) < 20 {
		t.Errorf("%d goroutines in both dumps, want the program's 19 and its connection's", len(got))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("debug=3 differs from debug=2 of the same moment (-debug=2 +debug=3):\n%s", diff)
	}

	// What the program made (testdata/gen/debug3/main.go): waits of 2, 1
	// and 0 minutes, parents other than main, its pprof labels kept and
	// the runtime's taken off.
	waits := map[int]int{}
	labelled := 0
	for _, th := range d3[0].Threads {
		waits[th.WaitMinutes]++
		for k := range th.Labels {
			if strings.HasPrefix(k, "go::") {
				t.Errorf("goroutine %d keeps the runtime's label %s", th.ID, k)
			}
		}
		if th.Labels["fetch"] != "" {
			labelled++
			if th.CreatedBy == nil || th.CreatedBy.Parent == 1 {
				t.Errorf("fetch goroutine %d: parent %v, want the fanout goroutine", th.ID, th.CreatedBy)
			}
		}
	}
	if waits[2] == 0 || waits[1] == 0 || waits[0] == 0 || labelled != 3 {
		t.Errorf("waits %v, %d labelled fetch goroutines; want some of 2, 1 and 0 minutes, 3 labelled", waits, labelled)
	}
}

// servesHTTP reports whether th is one of net/http's goroutines serving a
// connection (its handler, its reader): one per request. A goroutine not
// yet run has no frames in debug=3 (the reader a request started a moment
// before): its creator is read instead (byID).
func servesHTTP(th *Thread) bool {
	if th == nil {
		return false
	}
	for _, f := range th.Frames {
		if strings.HasPrefix(f.Func, "net/http.") {
			return true
		}
	}
	return false
}

// byID returns the goroutine of d that c names as the creator; nil if c is
// nil or names none of d's.
func byID(d *Dump, c *Creator) *Thread {
	if c == nil {
		return nil
	}
	for _, th := range d.Threads {
		if th.ID == c.Parent {
			return th
		}
	}
	return nil
}

// tracebackShows reports whether a Go traceback (debug=2, a panic, at the
// default GOTRACEBACK) prints a frame of fn: not the runtime's own
// unexported functions (runtime.gopark, runtime.chanrecv, runtime.main),
// which a profile's stacks keep.
func tracebackShows(fn string) bool {
	rest, ok := strings.CutPrefix(fn, "runtime.")
	return !ok || (rest != "" && rest[0] >= 'A' && rest[0] <= 'Z')
}

// TestDebug3LockSites: debug=3 carries no call arguments, so its lock
// waiters are keyed by the frame that takes the lock; the goroutines that
// wait on one mutex in debug=2 (one address) share one site in debug=3.
// (A WaitGroup or Cond waiter has an address in debug=2 and no site.)
func TestDebug3LockSites(t *testing.T) {
	d3, err := ParseFile(filepath.Join(formatsDir, "cockroach-go-debug3.pb.gz"))
	if err != nil {
		t.Fatal(err)
	}
	d2, err := ParseFile(filepath.Join(formatsDir, "cockroach-go-debug2.txt"))
	if err != nil {
		t.Fatal(err)
	}
	addrs, sites := map[string]int{}, map[string]int{}
	locks := map[string]bool{"sync.Mutex.Lock": true, "sync.RWMutex.RLock": true, "sync.RWMutex.Lock": true}
	for _, th := range d2[0].Threads {
		if th.WaitAddr != "" && locks[th.State] {
			addrs[th.WaitAddr]++
		}
	}
	for _, th := range d3[0].Threads {
		if th.WaitAddr != "" {
			if !strings.HasPrefix(th.WaitAddr, LockSitePrefix) {
				t.Errorf("goroutine %d: %q is no site", th.ID, th.WaitAddr)
			}
			sites[th.WaitAddr]++
		}
	}
	if len(addrs) == 0 || len(sites) != len(addrs) {
		t.Fatalf("debug=2 locks %v, debug=3 sites %v: want one site a lock", addrs, sites)
	}
	for a, n := range addrs {
		found := false
		for _, m := range sites {
			found = found || m == n
		}
		if !found {
			t.Errorf("lock %s has %d waiters in debug=2, no site as many in debug=3 (%v)", a, n, sites)
		}
	}
}
