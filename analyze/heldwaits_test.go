package analyze

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestHeldWaitFixtures (issue 33, what one dump and few threads can say):
// real Java 17 programs (testdata/verdicts/onedump-*, READMEs written from
// the source before dumpdiff ran). A lone untimed read is the process's
// only work: stuck on one dump's evidence, and stuck on three. Two of 8
// workers reading among idle ones say nothing in a whole dump, but pasted
// alone (excerpt.txt) they are the story, on one dump's evidence. A DB
// pool of 2 with one waiter is exhausted when the very same waiter is there
// at three moments, under c3p0, DBCP2 and Tomcat JDBC; one dump of it, and
// the pools at a light load, say nothing.
func TestHeldWaitFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	oneDump := func(basis string) func(t *testing.T, f Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, basis)
			eq(t, "severity", f.Severity, Warning)
		}
	}
	tests := []fixtureCase{
		{"onedump-read-alone", []string{"1"}, []want{{KindStuck, "main", "socket-read", func(t *testing.T, f Finding) {
			oneDump("one-dump-process")(t, f)
			eq(t, "culprit", strings.HasPrefix(f.Culprit, "com.example.onedump.OneDumpApp$QuoteClient.fetch("), true)
			eq(t, "remedy", strings.Contains(f.Remedy, "set a read timeout"), true)
		}}}},
		{"onedump-read-alone", []string{"1", "2", "3"}, []want{{KindStuck, "main", "socket-read", func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, "held-process")
			eq(t, "same", f.Same, 1)
		}}}},
		{"onedump-read-pool-stuck", []string{"1"}, nil},
		{"onedump-read-pool-stuck", []string{"1", "2", "3"}, nil},
		{"onedump-read-pool-stuck", []string{"excerpt.txt"}, []want{{KindStuck, "ingest-worker-*", "socket-read", func(t *testing.T, f Finding) {
			oneDump("one-dump-cut")(t, f)
			eq(t, "culprit", strings.HasPrefix(f.Culprit, "com.example.onedump.OneDumpApp$IngestClient.pull("), true)
			eq(t, "remedy", strings.Contains(f.Remedy, "set a read timeout"), true)
		}}}},
		{"onedump-read-pool-healthy", []string{"1"}, nil},
		{"onedump-read-pool-healthy", []string{"2"}, nil},
		{"onedump-read-pool-healthy", []string{"1", "2", "3"}, nil},
		// Two reading threads pasted alone cannot show that their peer
		// answers: one dump's evidence, said with its caveat (README).
		{"onedump-read-pool-healthy", []string{"excerpt.txt"}, []want{{KindStuck, "ingest-worker-*", "socket-read", oneDump("one-dump-cut")}}},
	}
	for _, lib := range []string{"c3p0", "dbcp2", "tomcat"} {
		tests = append(tests,
			fixtureCase{"onedump-pool-" + lib, []string{"1", "2", "3"}, []want{{KindDBPoolExhausted, "report-worker-*", "db-pool-wait", func(t *testing.T, f Finding) {
				eq(t, "basis", f.Basis, "persists")
				eq(t, "counts", fmt.Sprint(f.Counts), "[1 1 1]")
				eq(t, "culprit", strings.HasPrefix(f.Culprit, "com.example.onedump.OneDumpApp$ReportService.render("), true)
			}}}},
			fixtureCase{"onedump-pool-" + lib, []string{"1"}, nil},
			fixtureCase{"onedump-pool-" + lib, []string{"3"}, nil},
			fixtureCase{"onedump-pool-healthy-" + lib, []string{"1", "2", "3"}, nil},
			fixtureCase{"onedump-pool-healthy-" + lib, []string{"1"}, nil},
		)
	}
	runFixtureCases(t, dir, tests)
}

// TestHeldWaitRule derives the rule from generated dumps: a pool of n
// workers, k of them in a socket read with no timeout inside their task,
// the rest idle in getTask. Whole, one dump is a finding only when every
// worker reads (k == n: the dump holds no other application thread); cut
// as a paste of the k readers and j idle workers, only when the readers are
// ChosenShare of what was pasted. Whatever the counts, the finding says it
// is one dump's evidence (its Basis).
func TestHeldWaitRule(t *testing.T) {
	for n := 1; n <= 12; n++ {
		for k := 1; k <= n; k++ {
			whole := jstackPool(n, k, true)
			checkHeld(t, fmt.Sprintf("whole %d of %d", k, n), whole, k == n, "one-dump-process")
			// The paste: the readers and the first j idle workers, without
			// the dump's head (as a person cuts threads out of a jstack).
			entries := strings.Split(whole, "\n\n\"")
			for j := 0; j <= n-k; j++ {
				paste := "\"" + strings.Join(entries[1:1+k+j], "\n\n\"") + "\n"
				want := float64(k) >= ChosenShare*float64(k+j)
				checkHeld(t, fmt.Sprintf("paste of %d readers and %d idle", k, j), paste, want, "one-dump-cut")
			}
		}
	}
}

// checkHeld analyzes text as one moment and checks that it says the
// workers stuck in their read on one dump's evidence (basis) when want,
// and says no such thing otherwise.
func checkHeld(t *testing.T, name, text string, want bool, basis string) {
	t.Helper()
	ds, err := parse.Parse("dump.txt", strings.NewReader(text))
	if err != nil || len(ds) != 1 {
		t.Fatalf("%s: parse: %v", name, err)
	}
	if cut := basis == "one-dump-cut"; ds[0].Cut != cut {
		t.Fatalf("%s: Cut %v, want %v (excerpt %q)", name, ds[0].Cut, cut, ds[0].Excerpt)
	}
	got := false
	for _, f := range Analyze([]Input{{Dump: ds[0]}}, Options{}).Findings {
		if f.Kind == KindStuck && f.State == "socket-read" {
			got = true
			// Its severity is a warning unless what it causes is more (a
			// pool of SaturatedMin, every thread held: saturated on one dump).
			if f.Basis != basis {
				t.Errorf("%s: stuck with basis %q, want %q", name, f.Basis, basis)
			}
		}
	}
	if got != want {
		t.Errorf("%s: stuck on one dump %v, want %v", name, got, want)
	}
}
