package analyze

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestDeadlocks runs the deadlock finder on real dumps of the shared corpus:
// JVM-reported monitor and ReentrantLock deadlocks, and an RWLock parking
// deadlock the JVM did not report (found from the lock lines), and a healthy
// dump that must give none.
func TestDeadlocks(t *testing.T) {
	for _, tt := range []struct {
		file string
		want []string // substrings of the one deadlock summary; nil: no deadlock
	}{
		{"jvm/dumpdiff-gen__openjdk-17.0.15__jstack-l-monitor-deadlock.txt", []string{"JVM-reported deadlock between 2 threads", "held by"}},
		{"jvm/dumpdiff-gen__openjdk-17.0.15__jstack-l-reentrantlock-deadlock.txt", []string{`"ledger-writer" at corpusgen.Deadlock.lockBoth(Deadlock.java:50) waits for <0x000000069ec1bdd0>`, `held by "audit-writer"`}},
		{"jvm/dumpling__hotspot-24.65-b04__rwlock-parking-deadlock.log", []string{"lock-cycle deadlock between 2 threads", "ReentrantReadWriteLock$NonfairSync"}},
		{"jvm/dumpdiff-gen__openjdk-17.0.15__jstack-l-3000-threads.txt", nil},
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
			if tt.want == nil {
				if len(got) != 0 {
					t.Fatalf("false deadlock: %s", got[0].Summary)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("%d deadlock findings, want 1: %+v", len(got), got)
			}
			for _, w := range tt.want {
				if !strings.Contains(got[0].Summary, w) {
					t.Errorf("summary lacks %q:\n%s", w, got[0].Summary)
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
