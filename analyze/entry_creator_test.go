package analyze

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestEntryByCreator: goroutines with one stack started by two of the
// application's creators are two pools, and each pool's entry point names
// its own creator (the classification of a stack is not shared across
// creators).
func TestEntryByCreator(t *testing.T) {
	var b strings.Builder
	for i := range 4 {
		creator := "main.startA"
		if i%2 == 1 {
			creator = "main.startB"
		}
		fmt.Fprintf(&b, "goroutine %d [chan receive]:\n"+
			"main.worker(0xc000012340)\n\t/src/main.go:20 +0x2a\n"+
			"created by %s in goroutine 1\n\t/src/main.go:30 +0x1f\n\n", 10+i, creator)
	}
	ds, err := parse.Parse("entry.txt", strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	r := Analyze([]Input{{Dump: ds[0]}}, Options{})
	seen := 0
	for _, p := range r.Pools {
		if p.Name != "main.startA" && p.Name != "main.startB" {
			continue
		}
		seen++
		for _, g := range p.States {
			for _, e := range g.Entries[0] {
				if !strings.Contains(e.Func, p.Name) {
					t.Errorf("pool %s: entry point %q does not name its creator", p.Name, e.Func)
				}
			}
			if len(g.Entries[0]) == 0 {
				t.Errorf("pool %s: no entry point", p.Name)
			}
		}
	}
	if seen != 2 {
		t.Fatalf("%d of the two creators' pools found", seen)
	}
}
