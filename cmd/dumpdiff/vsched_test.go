package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// A capture of a JDK 25 service (dumpdiff capture --pid, 3 moments) read
// as the user reads it: the scheduler beside each moment joins its dump,
// and the verdict says the numbers (testdata/verdicts/vthread-sched-*;
// their README.md wrote the expected verdicts from the program first).
func TestVThreadSchedulerCapture(t *testing.T) {
	t.Parallel()
	dir := func(name string) string { return filepath.Join("..", "..", "testdata", "verdicts", name) }
	for _, tt := range []struct {
		name, want, remedy string
	}{
		{"vthread-sched-cpu", "virtual-thread scheduler saturated: 4 of 4 carriers mounted at every moment, queued 1,143 → 1,600 → 2,075; " +
			"the 4 mounted virtual threads all run (CPU-bound: a virtual thread yields its carrier only when it waits): 4 in running at com.example.vsched.Pricing.simulate(QuoteService.java:71)",
			"virtual threads add no CPU"},
		{"vthread-sched-pinned", "virtual-thread scheduler saturated: 4 of 4 carriers mounted at every moment, queued 705 → 1,694 → 2,455; " +
			"1 of the 4 mounted virtual threads waits while mounted (pinned: its carrier does no work): " +
			"3 in running at com.example.vsched.QuoteService.lambda$main$1(QuoteService.java:39), 1 in vthread-pinned at com.example.vsched.RateTable.load(QuoteService.java:97)",
			"initialize the class at startup"},
		{"vthread-sched-healthy", "", ""},
		{"vthread-sched-tomcat-cpu", "virtual-thread scheduler saturated: 2 of 2 carriers mounted at every moment, queued 112 → 157 → 220; " +
			"the 2 mounted virtual threads all run (CPU-bound: a virtual thread yields its carrier only when it waits): 2 in running at com.example.vsched.Passwords.check(TomcatLogin.java:83)",
			"bounded platform thread pool"},
		{"vthread-sched-tomcat-healthy", "", ""},
	} {
		doc := jsonReport(t, dir(tt.name))
		var got []string
		for _, f := range doc.Findings {
			if f.Kind == "vthread-scheduler-saturated" {
				got = append(got, f.Summary)
				if len(f.Scheduler) != 3 || f.Scheduler[2] == nil || f.Scheduler[2].Parallelism < 2 || !strings.Contains(f.Remedy, tt.remedy) {
					t.Errorf("%s: scheduler %v, remedy %q", tt.name, f.Scheduler, f.Remedy)
				}
			}
		}
		switch {
		case tt.want == "" && len(got) > 0:
			t.Errorf("%s, the healthy control: %q", tt.name, got)
		case tt.want != "" && (len(got) != 1 || !strings.HasPrefix(got[0], tt.want)):
			t.Errorf("%s: %q\nwant %q", tt.name, got, tt.want)
		}
	}
}
