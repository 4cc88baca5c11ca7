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
