package tui

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestShortLabels: the common prefix and suffix go only where a word ends,
// never a whole label, and a '#' stays with its number.
func TestShortLabels(t *testing.T) {
	for _, tt := range []struct {
		name       string
		full, want []string
	}{
		{"same file in three folders", []string{"goroutines.debug2", "goroutines.debug2 (2)", "goroutines.debug2 (3)"},
			[]string{"debug2", "debug2 (2)", "debug2 (3)"}},
		{"dumps of one log", []string{"samurai__openjdk-17+35__blocker-example#1", "samurai__openjdk-17+35__blocker-example#2"},
			[]string{"#1", "#2"}},
		{"targets", []string{"checkout-api-1/before", "checkout-api-1/during-1"}, []string{"before", "during-1"}},
		{"a common end", []string{"before-debug1", "during-1-debug1", "after-debug1"}, []string{"before", "during-1", "after"}},
		{"both ends", []string{"api-1/before.prof", "api-1/during.prof"}, []string{"before", "during"}},
		{"a whole label is never dropped", []string{"before", "before-the-deploy"}, []string{"before", "before-the-deploy"}},
		{"an end inside a word stays", []string{"first-moment", "second-moment"}, []string{"first", "second"}},
		{"a number stays whole", []string{"threads-dump-10", "threads-dump-110"}, []string{"10", "110"}},
		{"short labels are read whole", []string{"dump-1", "dump-2"}, []string{"dump-1", "dump-2"}},
		{"no cut inside a time", []string{"2024-01-01 10:00:00", "2024-01-01 10:05:00"}, []string{"10:00:00", "10:05:00"}},
		{"prefix too short", []string{"ab-first-moment", "ab-second-moment"}, []string{"ab-first", "ab-second"}},
		{"one moment", []string{"goroutines.debug2"}, []string{"goroutines.debug2"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, shortLabels(tt.full)); diff != "" {
				t.Errorf("shortLabels(%q) (-want +got):\n%s", tt.full, diff)
			}
		})
	}
}
