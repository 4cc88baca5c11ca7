package tui

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestShortLabels: the common prefix goes only where a word ends, never
// a whole label, and a '#' stays with its number.
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
		{"a short label keeps them all", []string{"before", "before-the-deploy"}, []string{"before", "before-the-deploy"}},
		{"no cut inside a time", []string{"2024-01-01 10:00:00", "2024-01-01 10:05:00"}, []string{"10:00:00", "10:05:00"}},
		{"prefix too short", []string{"ab-first-moment", "ab-second-moment"}, []string{"ab-first-moment", "ab-second-moment"}},
		{"one moment", []string{"goroutines.debug2"}, []string{"goroutines.debug2"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, shortLabels(tt.full)); diff != "" {
				t.Errorf("shortLabels(%q) (-want +got):\n%s", tt.full, diff)
			}
		})
	}
}
