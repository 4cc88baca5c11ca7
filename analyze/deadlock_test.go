package analyze

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestDeadlocks runs the deadlock finder on real dumps of the shared corpus:
// JVM-reported monitor and ReentrantLock deadlocks, an RWLock parking
// deadlock the JVM did not report (found from the lock lines), a JVM report
// that lists a thread only waiting on the cycle, and a healthy dump that
// must give none. Each gives one finding: its cycle, and the threads that
// only wait on it folded in.
func TestDeadlocks(t *testing.T) {
	for _, tt := range []struct {
		file    string
		basis   string   // "" for no deadlock
		cycle   []string // member names, in finding order
		blocked int
		check   func(t *testing.T, f Finding)
	}{
		{"jvm/dumpdiff-gen__openjdk-17.0.15__jstack-l-monitor-deadlock.txt", "jvm-report",
			[]string{"transfer-checking-to-savings", "transfer-savings-to-checking"}, 1, func(t *testing.T, f Finding) {
				eq(t, "blocked", f.Blocked[0].Name, "auditor") // waits for an account the cycle holds
			}},
		{"jvm/dumpdiff-gen__openjdk-17.0.15__jstack-l-reentrantlock-deadlock.txt", "jvm-report", []string{"ledger-writer", "audit-writer"}, 1,
			func(t *testing.T, f Finding) {
				m := f.Cycle[0]
				eq(t, "culprit", m.Culprit, "corpusgen.Deadlock.lockBoth(Deadlock.java:50)")
				eq(t, "waits for", m.WaitsFor.Address, "0x000000069ec1bdd0")
				eq(t, "holder", m.WaitsFor.Holder, "audit-writer")
			}},
		{"jvm/dumpling__hotspot-24.65-b04__rwlock-parking-deadlock.log", "lock-graph", nil, 3, func(t *testing.T, f Finding) {
			eq(t, "cycle", len(f.Cycle), 2)
			eq(t, "class", strings.Contains(f.Cycle[0].WaitsFor.Class, "ReentrantReadWriteLock$NonfairSync"), true)
		}},
		// The JVM reports three threads; two form the cycle, the third waits on it.
		{"jvm/dumpling__hotspot-20.14-b01__monitor-deadlock.log", "jvm-report", nil, 1, func(t *testing.T, f Finding) {
			eq(t, "cycle", len(f.Cycle), 2)
		}},
		{"jvm/dumpdiff-gen__openjdk-17.0.15__jstack-l-3000-threads.txt", "", nil, 0, nil},
	} {
		t.Run(tt.file, func(t *testing.T) {
			ds, err := parse.ParseFile(filepath.Join("..", "..", "shared", "corpus", tt.file))
			if err != nil {
				t.Skipf("shared corpus not present: %v", err)
			}
			r := Analyze([]Input{{Dump: ds[0]}}, Options{})
			var got []Finding
			for _, f := range r.Findings {
				if f.Kind == KindDeadlock {
					got = append(got, f)
				}
			}
			if tt.basis == "" {
				if len(got) != 0 {
					t.Fatalf("false deadlock: %+v", got[0])
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("%d deadlock findings, want 1: %+v", len(got), got)
			}
			f := got[0]
			eq(t, "basis", f.Basis, tt.basis)
			eq(t, "blocked", len(f.Blocked), tt.blocked)
			if tt.cycle != nil {
				var names []string
				for _, m := range f.Cycle {
					names = append(names, m.Name)
				}
				eq(t, "cycle", strings.Join(names, ", "), strings.Join(tt.cycle, ", "))
			}
			for _, m := range f.Cycle {
				if m.WaitsFor == nil || m.WaitsFor.Holder == "" {
					t.Errorf("cycle member %q: no lock or holder: %+v", m.Name, m.WaitsFor)
				}
			}
			if tt.check != nil {
				tt.check(t, f)
			}
			for _, o := range r.Findings {
				if o.Kind == KindContention {
					t.Errorf("contention beside the deadlock (one cause, one story): %+v", o)
				}
			}
		})
	}
}

// TestMixedEncodingsSamePools: the same program's goroutines, once as
// debug=2 text and once as a proto, land in the same pools (no fake movement).
func TestMixedEncodingsSamePools(t *testing.T) {
	var in []Input
	for _, f := range []string{"go/go-profiler-notes__go1.15.6__lookup-goroutine-debug2-set1.txt", "go/go-profiler-notes__go1.15.6__lookup-goroutine-debug0-set1.pb.gz"} {
		ds, err := parse.ParseFile(filepath.Join("..", "..", "shared", "corpus", f))
		if err != nil {
			t.Skipf("shared corpus not present: %v", err)
		}
		in = append(in, Input{Dump: ds[0]})
	}
	r := Analyze(in, Options{})
	for _, p := range r.Pools {
		if p.Counts[0] != p.Counts[1] {
			t.Errorf("pool %s moved %v between two encodings of one moment", p.Name, p.Counts)
		}
	}
	if len(r.Warnings) == 0 || !strings.Contains(r.Warnings[len(r.Warnings)-1], "entry function") {
		t.Errorf("no warning about pooling by entry function: %v", r.Warnings)
	}
}

// TestMonitorVia: threads resting in Object.wait are told apart by the
// library whose monitor they wait on (a real SAP JVM log of the corpus:
// the server's request pool waits on com.sap.engine.lib.util.WaitQueue).
func TestMonitorVia(t *testing.T) {
	ds, err := parse.ParseFile(filepath.Join("..", "..", "shared", "corpus", "jvm", "threadlogic__sapjvm-2008__stdout-log-with-2-dumps.log"))
	if err != nil {
		t.Skipf("shared corpus not present: %v", err)
	}
	r := Analyze([]Input{{Dump: ds[0]}}, Options{})
	n := 0
	for _, p := range r.Pools {
		for _, g := range p.States {
			if g.State == "object-wait" && g.Via == "com.sap.engine.lib.util.WaitQueue" {
				n += g.Counts[0]
			}
		}
	}
	if n < 10 {
		t.Errorf("%d threads in object-wait via com.sap.engine.lib.util.WaitQueue, want at least 10", n)
	}
}
