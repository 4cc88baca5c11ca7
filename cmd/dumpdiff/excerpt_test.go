package main

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/report"
)

// TestExcerptVerdicts (issue 32): a paste of part of a dump gives the
// findings the whole dump gives for what the paste holds, and says it is
// an excerpt. The whole dump is the oracle (testdata/formats/README.md
// says how each paste was cut from it): a JVM deadlock report alone, its
// summaries alone, a paste from a state line give the whole jstack's two
// deadlocks (its threads, the locks each waits for and their holders);
// panicparse's and gotraceanalyzer's listings of a Go dump give its
// leak; a healthy dump's listing stays as quiet as the dump.
func TestExcerptVerdicts(t *testing.T) {
	const dir = "../../testdata/formats/"
	for _, tt := range []struct {
		paste, whole string
		// rename maps the whole dump's thread names to the paste's (a
		// thread whose header the paste lost is "(unnamed 1)").
		rename map[string]string
		// kinds are the findings the sources' READMEs name, so that the
		// comparison is not of two empty reports where findings are due.
		kinds []string
	}{
		{paste: "jstack-jdk17__deadlock-report.txt", whole: "jstack-jdk17__deadlocks-whole.txt", kinds: []string{"deadlock", "deadlock"}},
		{paste: "jstack-jdk17__deadlock-summary.md", whole: "jstack-jdk17__deadlocks-whole.txt", kinds: []string{"deadlock", "deadlock"}},
		{paste: "jstack-jdk17__from-state-line.txt", whole: "jstack-jdk17__deadlocks-whole.txt", rename: map[string]string{"ring-0": "(unnamed 1)"},
			kinds: []string{"deadlock", "deadlock"}},
		{paste: "panicparse__go-long-wait-leak.txt", whole: "../verdicts/go-long-wait-leak/2.txt", kinds: []string{"leaked"}},
		{paste: "gotraceanalyzer__go-long-wait-leak.txt", whole: "../verdicts/go-long-wait-leak/2.txt", kinds: []string{"leaked"}},
		{paste: "panicparse__go1.26.8-debug2.txt", whole: "../go/go1.26.8-debug2.txt"}, // healthy: no finding
	} {
		t.Run(tt.paste, func(t *testing.T) {
			whole := jsonReport(t, dir+tt.whole)
			paste := jsonReport(t, dir+tt.paste)
			var kinds []string
			for _, f := range paste.Findings {
				kinds = append(kinds, f.Kind)
			}
			if strings.Join(kinds, ",") != strings.Join(tt.kinds, ",") {
				t.Errorf("findings %q, want %q", kinds, tt.kinds)
			}
			want := findingsPrint(whole, tt.rename)
			if got := findingsPrint(paste, nil); got != want {
				t.Errorf("findings of the paste:\n%s\nthe whole dump's:\n%s", got, want)
			}
			said := false
			for _, w := range paste.Warnings {
				said = said || strings.Contains(w, "an excerpt, not a whole dump")
			}
			if !said {
				t.Errorf("no warning says the paste is an excerpt: %q", paste.Warnings)
			}
		})
	}
}

// findingsPrint is what a paste must keep of a report's findings: each
// finding's kind, severity and count, and for a deadlock its cycle (each
// thread, the lock it waits for and that lock's holder), names mapped by
// rename.
func findingsPrint(doc *report.JSONReport, rename map[string]string) string {
	name := func(n string) string {
		if r, ok := rename[n]; ok {
			return r
		}
		return n
	}
	var out []string
	for _, f := range doc.Findings {
		s := fmt.Sprintf("%s %s %v", f.Kind, f.Severity, f.Counts)
		var cycle []string
		for _, c := range f.Cycle {
			cycle = append(cycle, fmt.Sprintf("%s waits for %s held by %s", name(c.Name), c.WaitsFor.Address, name(c.WaitsFor.Holder)))
		}
		sort.Strings(cycle)
		out = append(out, s+" "+strings.Join(cycle, "; "))
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}
