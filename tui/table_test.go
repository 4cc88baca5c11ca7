package tui

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFitMoments: the tiers of fitMoments, the first that fits: whole
// labels, compact ones, labels cut to a budget, then moments left out
// from the middle (the first ones, the selected and the last stay).
func TestFitMoments(t *testing.T) {
	labels := []string{"before", "during-1", "during-2", "after", "after-2"}
	// As a table's count columns of small counts: one lead, at least
	// minMomentW cells, two more for the selected moment's brackets.
	cost := func(sel int) func(k, lw int) int {
		return func(k, lw int) int {
			if k == sel {
				return 1 + max(minMomentW, lw) + 2
			}
			return 1 + max(minMomentW, lw)
		}
	}
	tests := []struct {
		name   string
		full   []string
		sel    int
		avail  int
		idx    []int    // moments shown, gapCol where some are left out
		labels []string // headers of the moments shown, in order
		over   bool     // the selected and last moments alone take more than avail
	}{
		{"all fit", labels, 4, 41, []int{0, 1, 2, 3, 4}, labels, false},
		{"all fit, no selection", labels, -1, 39, []int{0, 1, 2, 3, 4}, labels, false},
		{"selection moves, same width", labels, 0, 41, []int{0, 1, 2, 3, 4}, labels, false},
		{"one short: labels cut, all shown", labels, 4, 40, []int{0, 1, 2, 3, 4},
			[]string{"before", "dur…g-1", "dur…g-2", "after", "after-2"}, false},
		{"cut to the floor", labels, 4, 33, []int{0, 1, 2, 3, 4},
			[]string{"be…re", "du…-1", "du…-2", "after", "af…-2"}, false},
		{"below the floor: a gap", labels, 4, 30, []int{0, 1, 2, gapCol, 4},
			[]string{"be…re", "du…-1", "du…-2", "af…-2"}, false},
		{"a gap leaves room: labels longer", labels, 4, 25, []int{0, 1, gapCol, 4},
			[]string{"before", "du…g-1", "af…r-2"}, false},
		{"selected in the middle stays", labels, 2, 26, []int{0, gapCol, 2, gapCol, 4},
			[]string{"be…re", "du…-2", "af…-2"}, false},
		{"no room: selected and last", labels, 1, 10, []int{gapCol, 1, gapCol, 4},
			[]string{"du…-1", "af…-2"}, true},
		{"compact before cut", []string{"goroutines.debug2", "goroutines.debug2 (2)", "goroutines.debug2 (3)"}, -1, 30,
			[]int{0, 1, 2}, []string{"debug2", "debug2 (2)", "debug2 (3)"}, false},
		{"cuts told apart", []string{"2024-01-01 10:00:00", "2024-01-01 10:05:00", "2024-01-01 10:10:00"}, -1, 24,
			[]int{0, 1, 2}, []string{"…:00:00", "…:05:00", "…:10:00"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fitMoments(tt.full, shortLabels(tt.full), []int{tt.sel}, tt.avail, gapW, cost(tt.sel))
			if diff := cmp.Diff(tt.idx, f.idx); diff != "" {
				t.Errorf("moments shown (-want +got):\n%s", diff)
			}
			var got []string
			for _, k := range f.idx {
				if k != gapCol {
					got = append(got, f.labels[k])
				}
			}
			if diff := cmp.Diff(tt.labels, got); diff != "" {
				t.Errorf("labels (-want +got):\n%s", diff)
			}
			if f.total() > tt.avail && !tt.over {
				t.Errorf("moments take %d cells, more than %d", f.total(), tt.avail)
			}
			if f.hidden() == 0 && len(f.idx) != len(tt.full) {
				t.Errorf("no moment hidden, but %d shown of %d", len(f.idx), len(tt.full))
			}
		})
	}
}
