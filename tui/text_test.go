package tui

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestColumns(t *testing.T) {
	labels := []string{"before", "during-1", "during-2", "after", "after-2"}
	tests := []struct {
		name  string
		sel   int
		avail int
		want  []int // moment indexes, gapCol for hidden moments
		over  bool  // the selected and last moments alone take more than avail
	}{
		{"all fit", 4, 41, []int{0, 1, 2, 3, 4}, false},
		{"all fit, no selection", -1, 39, []int{0, 1, 2, 3, 4}, false},
		{"selection moves, same width", 0, 41, []int{0, 1, 2, 3, 4}, false},
		{"one short: a gap before the last", 4, 40, []int{0, 1, 2, gapCol, 4}, false},
		{"selected in the middle stays", 2, 30, []int{0, gapCol, 2, gapCol, 4}, false},
		{"selected first", 0, 30, []int{0, 1, gapCol, 4}, false},
		{"no room: selected and last", 1, 10, []int{gapCol, 1, gapCol, 4}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			idx, widths := columns(labels, tt.sel, tt.avail)
			if diff := cmp.Diff(tt.want, idx); diff != "" {
				t.Errorf("columns(sel %d, avail %d) (-want +got):\n%s", tt.sel, tt.avail, diff)
			}
			total := 0
			for _, w := range widths {
				total += w
			}
			if total > tt.avail && !tt.over {
				t.Errorf("columns take %d cells, more than %d", total, tt.avail)
			}
			if h := hidden(labels, idx); (h > 0) != strings.Contains(labelCells(labels, idx, widths, tt.sel), "…") {
				t.Errorf("%d moments hidden but header %q", h, labelCells(labels, idx, widths, tt.sel))
			}
		})
	}
}

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
