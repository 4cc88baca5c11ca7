package parse

import (
	"os"
	"strconv"
	"testing"
)

// TestIdenticalStacksShareFrames checks that goroutines with identical
// stacks share one Frames slice (the memory a 1M-goroutine dump needs, and
// what lets the analysis tell identical stacks apart by address), and that
// the shared slice is capped at its length, so that appending to one
// goroutine's frames never writes into another's.
func TestIdenticalStacksShareFrames(t *testing.T) {
	dumps := parseFixture(t, "../testdata/go/go1.26.8-debug2.txt")
	byStack := map[string][]*Thread{}
	for _, th := range dumps[0].Threads {
		if len(th.Frames) == 0 {
			continue
		}
		k := ""
		for _, fr := range th.Frames {
			k += fr.Func + "\x00" + fr.File + "\x00" + strconv.Itoa(fr.Line) + "\n"
		}
		byStack[k] = append(byStack[k], th)
	}
	shared := 0
	for _, ts := range byStack {
		for _, th := range ts[1:] {
			if &th.Frames[0] != &ts[0].Frames[0] {
				t.Fatalf("goroutines %d and %d have identical stacks in two slices", ts[0].ID, th.ID)
			}
			shared++
		}
		if cap(ts[0].Frames) != len(ts[0].Frames) {
			t.Errorf("goroutine %d: shared frames have cap %d > len %d", ts[0].ID, cap(ts[0].Frames), len(ts[0].Frames))
		}
	}
	if shared == 0 {
		t.Fatal("the fixture holds no two goroutines with identical stacks: the test checks nothing")
	}
	// Distinct stacks stay distinct.
	for k, ts := range byStack {
		for k2, ts2 := range byStack {
			if k != k2 && &ts[0].Frames[0] == &ts2[0].Frames[0] {
				t.Fatalf("two distinct stacks share a slice")
			}
		}
	}
}

// TestEqualCreatorsShared checks that goroutines with equal creators
// (function, file line and parent) share one *Creator and that different
// creators stay apart.
func TestEqualCreatorsShared(t *testing.T) {
	dumps := parseFixture(t, "../testdata/go/go1.26.8-debug2.txt")
	byValue := map[Creator]*Creator{}
	shared := 0
	for _, th := range dumps[0].Threads {
		c := th.CreatedBy
		if c == nil {
			continue
		}
		if c.File == "" || c.Line == 0 {
			t.Fatalf("goroutine %d: creator %+v without its file line", th.ID, *c)
		}
		if p, ok := byValue[*c]; ok {
			if p != c {
				t.Fatalf("goroutine %d: creator %+v equal to an earlier one in another struct", th.ID, *c)
			}
			shared++
			continue
		}
		byValue[*c] = c
	}
	if shared == 0 || len(byValue) < 2 {
		t.Fatalf("%d shared, %d distinct creators: the fixture checks nothing", shared, len(byValue))
	}
}

// parseFixture parses a committed dump; it must be there.
func parseFixture(t *testing.T, path string) []*Dump {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dumps, err := Parse(path, f)
	if err != nil {
		t.Fatal(err)
	}
	return dumps
}
