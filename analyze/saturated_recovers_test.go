package analyze

import (
	"fmt"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestSaturatedRecovers: a pool saturated in a socket read that has room
// again at the last moment is a recovered saturation (warning); the same
// pool still saturated is critical. Real Java 17 dumps of one service
// (testdata/libs/jvm-saturated-*, README there), and the JDK 17 executors
// of jvm-task-sleep (saturated to the end) as a second control.
func TestSaturatedRecovers(t *testing.T) {
	cases := []struct {
		dir       string
		n         int
		recovered bool
		severity  Severity
	}{
		{"jvm-saturated-recovers", 5, true, Warning},
		{"jvm-saturated-stays", 5, false, Critical},
		{"jvm-task-sleep", 2, false, Critical},
	}
	for _, c := range cases {
		t.Run(c.dir, func(t *testing.T) {
			var in []Input
			for i := 1; i <= c.n; i++ {
				ds, err := parse.ParseFile(fmt.Sprintf("../testdata/libs/%s/%d.txt", c.dir, i))
				if err != nil {
					t.Fatal(err)
				}
				in = append(in, Input{Dump: ds[0]})
			}
			r := Analyze(in, Options{})
			var sat *Finding
			for i := range r.Findings {
				if r.Findings[i].Kind == KindSaturated {
					sat = &r.Findings[i]
				}
			}
			if sat == nil {
				t.Fatalf("no saturated finding: %+v", r.Findings)
			}
			if sat.Recovered != c.recovered || sat.Severity != c.severity {
				t.Errorf("saturated %s: recovered %v severity %v, want %v %v", sat.Pool, sat.Recovered, sat.Severity, c.recovered, c.severity)
			}
		})
	}
}
