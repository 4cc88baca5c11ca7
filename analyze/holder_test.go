package analyze

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// cpuFields are what a jstack header has that JDK 8 does not print (cpu=,
// elapsed=): " cpu=2502.58ms", " elapsed=4.06s".
var cpuFields = regexp.MustCompile(` (cpu=[0-9.]+ms|elapsed=[0-9.]+s)`)

// loadWithoutCPU parses dir's moments with cpu= and elapsed= taken out.
func loadWithoutCPU(t *testing.T, dir string, moments []string) []Input {
	t.Helper()
	return loadRewritten(t, dir, moments, func(_ int, s string) string { return cpuFields.ReplaceAllString(s, "") })
}

// TestSpinningHolderWithoutCPU (issue 33, "the holder first"): a holder
// RUNNABLE in the same frames at every moment while others are blocked on a
// lock it holds is spinning even where the JVM prints no cpu= (JDK 8), on
// the frames alone (basis same-frames-holder), and the waiters' contention
// follows from it. Three real programs (a monitor on JDK 17 and 25, a
// ReentrantLock on JDK 17) with their cpu= taken out; the controls
// (holders sleeping or in a socket read, a CPU loop holding nothing, a
// healthy lock) say no spinning.
func TestSpinningHolderWithoutCPU(t *testing.T) {
	verdicts := filepath.Join("..", "testdata", "verdicts")
	for _, c := range []struct {
		dir     string
		moments []string
		holder  string // "" for none spinning
	}{
		{"jvm-spin-monitor", []string{"1", "2"}, "registry-sync"},
		{"jdk25-spin-monitor", []string{"1", "2"}, "registry-sync"},
		{"holder-spin-stuck", []string{"1", "2", "3"}, "index-rebuilder"},
		// Two dumps 5 s apart are under SpinMinWall: a computation of
		// seconds is not told from a loop, with or without cpu=.
		{"holder-spin-stuck", []string{"2", "3"}, ""},
		{"holder-spin-healthy", []string{"1", "2", "3"}, ""},
		{"jvm-contention", []string{"1", "2"}, ""},
		{"small-pool-stuck", []string{"1", "2", "3"}, ""},
		{"holder-db-stuck", []string{"1", "2", "3"}, ""},
		{"jvm-idle", []string{"1", "2", "3"}, ""},
	} {
		t.Run(c.dir+"/"+strings.Join(c.moments, ","), func(t *testing.T) {
			r := Analyze(loadWithoutCPU(t, filepath.Join(verdicts, c.dir), c.moments), Options{})
			var spin *Finding
			for i, f := range r.Findings {
				if f.Kind == KindSpinning {
					if spin != nil || c.holder == "" {
						t.Fatalf("unexpected spinning %s (%s)", f.Pool, f.Basis)
					}
					spin = &r.Findings[i]
				}
			}
			if c.holder == "" {
				return
			}
			if spin == nil {
				t.Fatalf("no spinning finding; findings %v", kindsOf(r.Findings))
			}
			eq(t, "pool", spin.Pool, c.holder)
			eq(t, "basis", spin.Basis, "same-frames-holder")
			eq(t, "severity", spin.Severity, Critical)
			eq(t, "lock owner", spin.Lock != nil && spin.Lock.Owner.Name == c.holder, true)
			for _, f := range r.Findings {
				if f.Kind == KindContention {
					eq(t, "contention caused by", f.CausedBy, spin.ID)
				}
			}
		})
	}
}

func kindsOf(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Kind+" "+f.Pool+" "+f.State)
	}
	return out
}
