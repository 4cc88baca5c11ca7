package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/report"
)

// TestGoTraceAsDumps reads each flight recorder snapshot of testdata/gotrace
// (Go 1.25, 1.26, 1.27; testdata/gen/gotrace) beside the debug=2 dumps the
// same run wrote at each second, and wants one answer from both: the same
// findings (kind, pool, state), and at the last moment the same pools with
// the same goroutines in each state. The expected verdicts are the
// README's, written from the program before dumpdiff read its output.
func TestGoTraceAsDumps(t *testing.T) {
	dirs, _ := filepath.Glob("../../testdata/gotrace/*-go1.*")
	if len(dirs) < 16 {
		t.Fatalf("want 4 scenarios × 3 Go versions (and leak, mutex × Go 1.22, 1.23) in testdata/gotrace, found %d", len(dirs))
	}
	want := map[string][]string{ // scenario → the finding kinds the README expects
		"leak":    {"growing"},
		"mutex":   {"contention", "stuck"},
		"pool":    {"stuck"},
		"healthy": nil,
	}
	for _, dir := range dirs {
		name := filepath.Base(dir)
		scenario := name[:strings.Index(name, "-go1.")]
		t.Run(name, func(t *testing.T) {
			tr := jsonReport(t, filepath.Join(dir, "flight.trace"))
			d2 := jsonReport(t, filepath.Join(dir, "debug2"))
			if len(tr.Moments) < 4 {
				t.Fatalf("%d moments in a 5 s snapshot, want one a generation (about a second): %v", len(tr.Moments), tr.Moments)
			}
			if got := kinds(tr); !slices.Equal(got, want[scenario]) {
				t.Errorf("trace findings %v, want %v", got, want[scenario])
			}
			// The stuck waits began inside the trace (the recorder starts
			// first): each finding on them says how long, measured.
			if scenario == "mutex" || scenario == "pool" {
				for _, f := range tr.Findings {
					if f.Wait.MeasuredSeconds < 3 || f.Wait.AtLeast {
						t.Errorf("%s %s: measured wait %+v, want an exact wait of the run's length (about 5 s)", f.Kind, f.State, f.Wait)
					}
				}
			}
			if a, b := findingKeys(tr), findingKeys(d2); !slices.Equal(a, b) {
				t.Errorf("findings differ:\n trace  %v\n debug2 %v", a, b)
			}
			// Pools and states at the last moment. The leak grows by 20
			// goroutines a second and the snapshot is taken just after the
			// last dump: a burst may fall between them. The main goroutine
			// writes both, at two calls: the dump shows it in pprof's
			// writer, the trace where its last event left it (os.Create,
			// just before WriteTo); it is left out.
			a, b := lastStates(tr), lastStates(d2)
			a, b = withoutPool(a, "main"), withoutPool(b, "main")
			if strings.HasSuffix(name, "-go1.22") {
				// Go 1.22's format writes no stack for a goroutine blocked
				// since before the trace began (1.23 added it): the
				// runtime's own, which debug=2 leaves out, cannot be told
				// there and read as unclassified.
				a = withoutPool(a, "unknown")
			}
			if scenario == "leak" || scenario == "healthy" {
				// Busy goroutines move between states all the time: the
				// two instants a few milliseconds apart agree on the
				// states, not on each state's count; and one state held
				// for a millisecond (a fetch's sleep) may be in one only.
				a, b = keysOnly(a), keysOnly(b)
				if ca, cb := common(a, b), common(b, a); len(a)-len(ca) <= 1 && len(b)-len(cb) <= 1 && len(ca) >= 3 {
					a, b = ca, cb
				}
				if !slices.Contains(a, "main.fetch/chan-send") && scenario == "leak" {
					t.Errorf("last moment without the leak: trace %v, debug2 %v", lastStates(tr), lastStates(d2))
				}
			}
			if !slices.Equal(a, b) {
				t.Errorf("last moment differs:\n trace  %v\n debug2 %v", a, b)
			}
		})
	}
}

// kinds are the distinct kinds of r's findings above info, sorted. (An
// info finding tells of a moment: a generation's boundary may fall on a
// burst of requests in flight that a dump a few milliseconds away misses.)
func kinds(r *report.JSONReport) []string {
	var out []string
	for _, f := range r.Findings {
		if f.Severity != "info" && !slices.Contains(out, f.Kind) {
			out = append(out, f.Kind)
		}
	}
	slices.Sort(out)
	return out
}

func findingKeys(r *report.JSONReport) []string {
	var out []string
	for _, f := range r.Findings {
		if f.Severity != "info" {
			out = append(out, f.Kind+" "+f.Pool+" "+f.State)
		}
	}
	slices.Sort(out)
	return out
}

// lastStates are "pool/state=count" at r's last moment, sorted.
func lastStates(r *report.JSONReport) []string {
	var out []string
	for _, p := range r.Pools {
		for _, s := range p.States {
			if n := s.Counts[len(s.Counts)-1]; n > 0 {
				out = append(out, fmt.Sprintf("%s/%s=%d", p.Name, s.State, n))
			}
		}
	}
	slices.Sort(out)
	return out
}

func keysOnly(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = x[:strings.LastIndex(x, "=")]
	}
	return out
}

// common is the elements of xs that ys also has.
func common(xs, ys []string) []string {
	var out []string
	for _, x := range xs {
		if slices.Contains(ys, x) {
			out = append(out, x)
		}
	}
	return out
}

func withoutPool(xs []string, pool string) []string {
	var out []string
	for _, x := range xs {
		if !strings.HasPrefix(x, pool+"/") {
			out = append(out, x)
		}
	}
	return out
}
