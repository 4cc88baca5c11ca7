package analyze

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestBlockedWarningFindings: the checker's warnings made here
// (testdata/formats/README.md, "A blocked-thread checker's warnings") give
// what their program did: the event loop blocked (in a latch wait, behind
// a monitor, whatever its top frame shows: the checker says its task ran
// past the limit), culprit the task; the worker warned once and finished
// (the healthy control) gives nothing above info.
func TestBlockedWarningFindings(t *testing.T) {
	tests := []struct {
		mode    string
		culprit string // "" for no finding above info
	}{
		{"loop-latch", "Checker.handleRequest"},
		{"loop-lock", "Checker.lambda$main$"},
		{"worker-once", ""},
	}
	for _, jdk := range []string{"17", "25"} {
		for _, tt := range tests {
			file := "blocked-warning-jdk" + jdk + "__" + tt.mode + ".txt"
			t.Run(file, func(t *testing.T) {
				ds, err := parse.ParseFile(filepath.Join("..", "testdata", "formats", file))
				if err != nil {
					t.Fatal(err)
				}
				var in []Input
				for _, d := range ds {
					in = append(in, Input{Dump: d})
				}
				r := Analyze(in, Options{})
				var above []Finding
				for _, f := range r.Findings {
					if f.Severity > Info {
						above = append(above, f)
					}
				}
				if tt.culprit == "" {
					for _, f := range above {
						t.Errorf("healthy control: %s %s (%s)", f.Kind, f.Pool, f.Culprit)
					}
					return
				}
				if len(above) == 0 || above[0].Kind != KindEventLoopBlocked || !strings.Contains(above[0].Culprit, tt.culprit) {
					for _, f := range above {
						t.Logf("%s %s %s", f.Kind, f.Pool, f.Culprit)
					}
					t.Fatalf("want event-loop-blocked first, culprit %s", tt.culprit)
				}
			})
		}
	}
}
