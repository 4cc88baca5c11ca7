package analyze

import "testing"

// TestRestFloor: the shortest wait that counts as long in a rest is
// LeakRestOver times the median printed wait of the moment's other
// goroutines (0 for those that print none), and at least LeakWaitMinutes.
func TestRestFloor(t *testing.T) {
	h := func(kv ...int) []minuteCount {
		var out []minuteCount
		for i := 0; i < len(kv); i += 2 {
			out = append(out, minuteCount{kv[i], kv[i+1]})
		}
		return out
	}
	tests := []struct {
		name      string
		others    int
		all, own  []minuteCount
		wantFloor int
	}{
		// go113-select-leak/1.txt.gz for the watchers: 72 others, 13 of
		// them printing 2 minutes (12 workers, main): the median prints none.
		{"most others print no wait", 72, h(1, 100, 2, 113), h(1, 100, 2, 100), LeakWaitMinutes},
		{"no other goroutine", 0, h(3, 50), h(3, 50), LeakWaitMinutes},
		// A process where everything has rested for an hour: a rest of 90
		// minutes is not far longer.
		{"everything rests for an hour", 100, h(60, 80, 90, 20), h(90, 20), LeakRestOver * 60},
		{"6 of 10 others at 10 minutes", 10, h(10, 6), nil, LeakRestOver * 10},
		{"5 of 10 (the lower median prints none)", 10, h(10, 5), nil, LeakWaitMinutes},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eq(t, "floor", restFloor(tt.others, tt.all, tt.own), tt.wantFloor)
		})
	}
	eq(t, "waits from 2", waitsFrom(h(1, 100, 2, 100, 3, 112), 2), WaitFact{MinMinutes: 2, MaxMinutes: 3, Goroutines: 212})
}
