package captured

import (
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/parse"
)

// TestCreators: a goroutine the trace shows no creator for takes the one
// the moment's debug=2 dump prints for its id; one the trace saw created
// keeps its own; ids the dump does not hold stay without.
func TestCreators(t *testing.T) {
	dump := "goroutine 7 [chan receive]:\nmain.park.func1()\n\t/app/main.go:72 +0x1d\ncreated by main.park in goroutine 1\n\t/app/main.go:70 +0x2a\n\n" +
		"goroutine 8 [chan receive]:\nmain.park.func1()\n\t/app/main.go:72 +0x1d\ncreated by main.park in goroutine 1\n\t/app/main.go:70 +0x2a\n"
	ds, err := parse.Parse("m.txt", strings.NewReader(dump))
	if err != nil {
		t.Fatal(err)
	}
	own := &parse.Creator{Func: "main.serve", Line: 9, Parent: 3}
	trace := &parse.Dump{Format: parse.FormatGoTrace, Threads: []*parse.Thread{{ID: 7}, {ID: 8, CreatedBy: own}, {ID: 9}}}
	Creators([]analyze.Input{{Dump: trace}}, ds[0])
	if c := trace.Threads[0].CreatedBy; c == nil || c.Func != "main.park" || c.Parent != 1 {
		t.Errorf("goroutine 7 created by %+v, want main.park in goroutine 1 (from the dump)", c)
	}
	if trace.Threads[1].CreatedBy != own {
		t.Errorf("goroutine 8's own creator replaced by %+v", trace.Threads[1].CreatedBy)
	}
	if trace.Threads[2].CreatedBy != nil {
		t.Errorf("goroutine 9, not in the dump, given %+v", trace.Threads[2].CreatedBy)
	}
}
