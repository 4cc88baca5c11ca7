package analyze

import (
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dumpdiff/dumpdiff/parse"
)

// schedCapture reads testdata/verdicts/NAME, a `dumpdiff capture --pid` of
// QuoteService on Temurin 25: each moment's JSON dump with the scheduler
// read beside it as its Dump.Scheduler (as internal/captured joins them).
func schedCapture(t *testing.T, name string) []Input {
	t.Helper()
	dir := filepath.Join("..", "testdata", "verdicts", name)
	dumps, _ := filepath.Glob(filepath.Join(dir, "*__*.json"))
	if len(dumps) != 3 {
		t.Fatalf("%s: %d moments, want 3 (regenerate with make fixtures)", dir, len(dumps))
	}
	var in []Input
	for i, path := range dumps {
		ds, err := parse.ParseFile(path)
		if err != nil {
			t.Fatal(err)
		}
		ss, err := parse.ParseFile(strings.TrimSuffix(path, ".json") + "-vthread-scheduler.txt")
		if err != nil {
			t.Fatal(err)
		}
		ds[0].Scheduler = ss[0].Scheduler
		in = append(in, Input{Label: string(rune('1' + i)), Dump: ds[0]})
	}
	return in
}

func schedFindings(r *Result) []Finding {
	var out []Finding
	for _, f := range r.Findings {
		if f.Kind == KindVThreadSchedulerSaturated {
			out = append(out, f)
		}
	}
	return out
}

// The verdicts their README.md wrote from the program before dumpdiff
// ran, of two sources: QuoteService saturated by CPU-bound requests and
// by pinned ones (the pinned one the headline), Tomcat's virtual threads
// by PBKDF2 logins; each healthy control quiet.
func TestVThreadSchedulerVerdicts(t *testing.T) {
	readings := func(qs ...int64) []SchedulerReading {
		var out []SchedulerReading
		for _, q := range qs {
			out = append(out, SchedulerReading{Read: true, Parallelism: 4, Size: 4, Mounted: 4, Queued: q})
		}
		return out
	}
	readings2 := func(qs ...int64) []SchedulerReading { // Tomcat's, on 2 carriers
		out := readings(qs...)
		for i := range out {
			out[i].Parallelism, out[i].Size, out[i].Mounted = 2, 2, 2
		}
		return out
	}
	tests := []struct {
		name string
		want *Finding // the facts checked; nil: no finding
	}{
		{"vthread-sched-cpu", &Finding{Pool: "request-*", State: "running", Basis: "running", Since: 0, At: 2,
			Culprit: "com.example.vsched.Pricing.simulate(QuoteService.java:71)", Scheduler: readings(1143, 1600, 2075),
			Holders: []HolderGroup{{Pool: "request-*", State: "running", Culprit: "com.example.vsched.Pricing.simulate(QuoteService.java:71)", Count: 4}}}},
		{"vthread-sched-pinned", &Finding{Pool: "request-*", State: "vthread-pinned", Basis: "pinned", Pinned: 1, Since: 0, At: 2,
			Culprit: "com.example.vsched.RateTable.load(QuoteService.java:97)", Scheduler: readings(705, 1694, 2455),
			Holders: []HolderGroup{{Pool: "request-*", State: "running", Culprit: "com.example.vsched.QuoteService.lambda$main$1(QuoteService.java:39)", Count: 3},
				{Pool: "request-*", State: "vthread-pinned", Culprit: "com.example.vsched.RateTable.load(QuoteService.java:97)", Count: 1}}}},
		{"vthread-sched-healthy", nil},
		{"vthread-sched-tomcat-cpu", &Finding{Pool: "http-nio-127.0.0.1-18557-virt-*", State: "running", Basis: "running", Since: 0, At: 2,
			Culprit:   "com.example.vsched.Passwords.check(TomcatLogin.java:83)",
			Scheduler: readings2(112, 157, 220),
			Holders:   []HolderGroup{{Pool: "http-nio-127.0.0.1-18557-virt-*", State: "running", Culprit: "com.example.vsched.Passwords.check(TomcatLogin.java:83)", Count: 2}}}},
		{"vthread-sched-tomcat-healthy", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Analyze(schedCapture(t, tt.name), Options{})
			fs := schedFindings(r)
			if tt.want == nil {
				if len(fs) > 0 {
					t.Fatalf("the healthy control: %+v", fs)
				}
				for _, f := range r.Findings {
					if f.Severity == Critical {
						t.Errorf("the healthy control has a critical %s %s", f.Kind, f.Pool)
					}
				}
				return
			}
			if len(fs) != 1 {
				t.Fatalf("%d scheduler findings, want 1: %+v", len(fs), r.Findings)
			}
			f := fs[0]
			got := Finding{Pool: f.Pool, State: f.State, Basis: f.Basis, Pinned: f.Pinned, Since: f.Since, At: f.At, Culprit: f.Culprit, Scheduler: f.Scheduler, Holders: f.Holders}
			if diff := cmp.Diff(*tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if f.Severity != Critical || f.Recovered || f.Remedy == "" {
				t.Errorf("severity %s, recovered %v, remedy %q", f.Severity, f.Recovered, f.Remedy)
			}
			// Nothing else of it stands as a cause of its own.
			for _, o := range r.Findings {
				if o.Kind != KindVThreadSchedulerSaturated && o.Severity == Critical {
					t.Errorf("also a critical %s %s %s", o.Kind, o.Pool, o.State)
				}
			}
		})
	}
}

// The verdict rests on the scheduler's readings, not on the threads: the
// saturated readings over the healthy control's dumps still make it (with
// no mounted virtual thread to show), the healthy readings over the
// saturated dumps make nothing, and dumps with no reading at all (a JVM
// before JDK 24) make nothing.
func TestVThreadSchedulerReadingsDecide(t *testing.T) {
	cpu, healthy := schedCapture(t, "vthread-sched-cpu"), schedCapture(t, "vthread-sched-healthy")
	swap := func(dumps, readings []Input) []Input {
		var out []Input
		for i := range dumps {
			d := *dumps[i].Dump
			d.Scheduler = readings[i].Dump.Scheduler
			out = append(out, Input{Label: dumps[i].Label, Dump: &d})
		}
		return out
	}
	if fs := schedFindings(Analyze(swap(healthy, cpu), Options{})); len(fs) != 1 || len(fs[0].Holders) != 0 || fs[0].Basis != "" {
		t.Errorf("cpu readings over healthy dumps: %+v", fs)
	}
	if fs := schedFindings(Analyze(swap(cpu, healthy), Options{})); len(fs) != 0 {
		t.Errorf("healthy readings over cpu dumps: %+v", fs)
	}
	none := swap(cpu, cpu)
	for i := range none {
		none[i].Dump.Scheduler = nil
	}
	if fs := schedFindings(Analyze(none, Options{})); len(fs) != 0 {
		t.Errorf("no readings: %+v", fs)
	}
}

// Generated sequences of readings over the healthy control's dumps (its
// moments repeated): a finding exactly when the last SchedMinMoments or
// more readings all have every carrier mounted and SchedMinQueued or more
// queued, and the last queue is not below SchedDrainingShare of the run's
// peak; Since is the run's first moment.
func TestVThreadSchedulerGenerated(t *testing.T) {
	healthy := schedCapture(t, "vthread-sched-healthy")
	rng := rand.New(rand.NewPCG(36, 4))
	fired := 0
	for c := range 300 {
		n := 2 + rng.IntN(6)
		par := 1 + rng.IntN(16)
		in := make([]Input, n)
		sat := make([]bool, n)
		queued := make([]int64, n)
		for m := range n {
			d := *healthy[m%len(healthy)].Dump
			s := &parse.VThreadScheduler{Parallelism: par, Size: par, Mounted: rng.IntN(par + 1), Queued: rng.Int64N(3 * SchedMinQueued), Delayed: -1}
			if rng.IntN(2) == 0 { // saturated more often than chance
				s.Mounted, s.Queued = par, SchedMinQueued+rng.Int64N(5000)
			}
			d.Scheduler = s
			in[m] = Input{Label: string(rune('a' + m)), Dump: &d}
			sat[m] = s.Mounted >= par && s.Queued >= SchedMinQueued
			queued[m] = s.Queued
		}
		run := 0
		for m := n - 1; m >= 0 && sat[m]; m-- {
			run++
		}
		var peak int64
		for m := n - run; m < n; m++ {
			peak = max(peak, queued[m])
		}
		want := run >= SchedMinMoments && float64(queued[n-1]) >= SchedDrainingShare*float64(peak)
		fs := schedFindings(Analyze(in, Options{}))
		if got := len(fs) == 1; got != want || len(fs) > 1 {
			t.Fatalf("case %d: readings %v saturated %v: %d findings, want %v", c, queued, sat, len(fs), want)
		}
		if want {
			fired++
			if fs[0].Since != n-run || fs[0].At != n-1 || fs[0].Scheduler[n-1].Queued != queued[n-1] {
				t.Fatalf("case %d: since %d at %d, want %d %d", c, fs[0].Since, fs[0].At, n-run, n-1)
			}
		}
	}
	if fired < 30 || fired > 270 {
		t.Errorf("%d of 300 cases fired: the generator tests one side only", fired)
	}
}
