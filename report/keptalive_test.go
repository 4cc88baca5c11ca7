package report

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/parse"
)

// The kept-alive advice fits what the threads rest in (each folder's
// README says what the program left running): executors are shut down and
// timers cancelled; a monitor nobody notifies and a queue nothing more
// comes on end only with their own loops.
func TestKeptAliveAdvice(t *testing.T) {
	for _, tt := range []struct {
		dir          string
		want, absent []string
	}{
		{"libs/jvm-kept-alive", []string{"shut their executors down", "cancel their timers (Timer.cancel)"}, []string{"notify"}},
		{"libs/jvm-roles-kept-alive-monitor", []string{"nothing will notify the monitors", "nothing more comes on the queues"},
			[]string{"executor", "Timer.cancel"}},
		// Kept up by a scheduled task (info): said as a fact, with both
		// readings, never "cannot exit".
		{"verdicts/keptalive-heartbeat", []string{"kept up by a scheduled task", "up by design", "shut its executor down"},
			[]string{"cannot exit", "never ends"}},
	} {
		t.Run(tt.dir, func(t *testing.T) {
			var in []analyze.Input
			for _, m := range []string{"1.txt", "2.txt"} {
				ds, err := parse.ParseFile(filepath.Join("..", "testdata", tt.dir, m))
				if err != nil {
					t.Fatal(err)
				}
				in = append(in, analyze.Input{Label: m, Dump: ds[0]})
			}
			r := analyze.Analyze(in, analyze.Options{})
			var text string
			for i := range r.Findings {
				if r.Findings[i].Kind == analyze.KindKeptAlive {
					text = Summary(r, &r.Findings[i])
				}
			}
			if text == "" {
				t.Fatalf("no kept-alive finding: %+v", r.Findings)
			}
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("advice lacks %q: %s", w, text)
				}
			}
			for _, a := range tt.absent {
				if strings.Contains(text, a) {
					t.Errorf("advice speaks of %q: %s", a, text)
				}
			}
		})
	}
}
