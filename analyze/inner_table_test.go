package analyze

import (
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestPinnedInnerStateReadsSignaturesFile: what a pinned virtual thread
// waits on underneath is classified by the analysis's table, a signatures
// file's rows first, as every other state is (real JDK 25 dump). The row
// stops at the pinned park frame, so it classifies the inner stack only.
func TestPinnedInnerStateReadsSignaturesFile(t *testing.T) {
	ds, err := parse.ParseFile("../testdata/libs/jdk25-pinned/dump.txt")
	if err != nil {
		t.Fatal(err)
	}
	ext, err := ParseExtensions(strings.NewReader(`[signature]
id       = rates-lock-wait
runtime  = jvm
category = waiting
resource = lock
anchors  = com.example.pinned.Rates.compare
depth    = 12
unless   = java.lang.VirtualThread.parkOnCarrierThread
explain  = waiting for the rates lock
`), "sig.txt")
	if err != nil {
		t.Fatal(err)
	}
	r := Analyze([]Input{{Dump: ds[0]}}, Options{Extensions: ext})
	for _, p := range r.Pools {
		if !strings.HasPrefix(p.Name, "price-sort-") {
			continue
		}
		for _, g := range p.States {
			if g.State == "vthread-pinned" {
				if g.Via != "rates-lock-wait" {
					t.Errorf("pinned %s threads wait underneath on %q, want the signatures file's rates-lock-wait", p.Name, g.Via)
				}
				return
			}
		}
	}
	t.Fatal("no pinned price-sort group in the dump")
}
