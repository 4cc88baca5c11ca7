package analyze

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dumpdiff/dumpdiff/parse"
)

func nop(*Pass) []Finding { return nil }

// TestNewTableRefuses: a table that does not hold is refused, with what is
// wrong, before any detector runs (the package's own table panics with
// this error on the first analysis).
func TestNewTableRefuses(t *testing.T) {
	a := &Detector{Name: "a", Run: nop}
	b := &Detector{Name: "b", Run: nop, Requires: []*Detector{a}}
	outside := &Detector{Name: "outside", Run: nop}
	cyc1 := &Detector{Name: "c1", Run: nop}
	cyc2 := &Detector{Name: "c2", Run: nop, Requires: []*Detector{cyc1}}
	cyc3 := &Detector{Name: "c3", Run: nop, Requires: []*Detector{cyc2}}
	cyc1.Requires = []*Detector{cyc3}
	self := &Detector{Name: "self", Run: nop}
	self.Requires = []*Detector{self}
	tests := []struct {
		name string
		ds   []*Detector
		err  string
	}{
		{"nil", []*Detector{a, nil}, "detector 1 of the table is nil"},
		{"unnamed", []*Detector{{Run: nop}}, "detector 0 of the table has no name"},
		{"listed twice", []*Detector{a, b, a}, "detector a is listed twice"},
		{"same name", []*Detector{a, {Name: "a", Run: nop}}, "two detectors are named a"},
		{"no run", []*Detector{{Name: "x"}}, "detector x has no Run"},
		{"nil requirement", []*Detector{{Name: "x", Run: nop, Requires: []*Detector{nil}}}, "detector x requires a nil detector"},
		{"unknown requirement", []*Detector{a, {Name: "x", Run: nop, Requires: []*Detector{outside}}},
			"detector x requires outside, which is not in the table"},
		{"required twice", []*Detector{a, {Name: "x", Run: nop, Requires: []*Detector{a, a}}}, "detector x requires a twice"},
		{"cycle", []*Detector{a, cyc2, cyc1, cyc3}, "detectors require each other in a cycle: c2 → c1 → c3 → c2"},
		{"self", []*Detector{self}, "detectors require each other in a cycle: self → self"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := newTable(tt.ds)
			if err == nil || err.Error() != tt.err {
				t.Errorf("newTable: %v, want %q", err, tt.err)
			}
		})
	}
}

// TestRunOrder: each detector runs after what it requires, in listing
// order otherwise, and sees what it requires in run order.
func TestRunOrder(t *testing.T) {
	a := &Detector{Name: "a", Run: nop}
	b := &Detector{Name: "b", Run: nop}
	c := &Detector{Name: "c", Run: nop, Requires: []*Detector{b, a}}
	d := &Detector{Name: "d", Run: nop, Requires: []*Detector{c}}
	tb, err := newTable([]*Detector{d, b, a, c})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, x := range tb.order {
		got = append(got, x.Name)
	}
	if want := []string{"b", "a", "c", "d"}; !slices.Equal(got, want) {
		t.Errorf("run order %v, want %v", got, want)
	}
	if got, want := tb.scope[tb.index[c]], []int{0, 1}; !slices.Equal(got, want) {
		t.Errorf("c's scope %v, want %v (b, a in run order)", got, want)
	}
	// The package's table: run in the order the story needs (the claims of
	// the first to claim stand).
	got = nil
	for _, x := range detectors().order {
		got = append(got, x.Name)
	}
	// kept-alive before stuck: a JVM kept alive by its waiters is their
	// story, which the missed-signal rule reads (it claims no thread);
	// executor-leak before explosion, which leaves the leak's threads out.
	want := []string{"deadlock", "spinning", "contention", "event-loop-blocked", "pool-exhausted", "executor-leak", "explosion", "timeline", "leaked",
		"kept-alive", "stuck", "saturated", "common-pool-starved", "vthread-scheduler-saturated"}
	if !slices.Equal(got, want) {
		t.Errorf("run order %v, want %v", got, want)
	}
}

// TestPassRefuses: a detector that reads the findings of one it does not
// require, claims what it does not declare, or reads claims while
// requiring no detector that makes them panics.
func TestPassRefuses(t *testing.T) {
	g := &Group{Counts: []int{1}, Threads: [][]*parse.Thread{{{}}}}
	claimer := &Detector{Name: "claimer", Claims: ClaimsGroups, Run: func(p *Pass) []Finding {
		p.ClaimGroup(g, "claimer x")
		return []Finding{{ID: "claimer x"}}
	}}
	silent := &Detector{Name: "silent", Run: nop}
	tests := []struct {
		name string
		run  func(p *Pass) []Finding
		req  []*Detector
		want string
	}{
		{"found", func(p *Pass) []Finding { p.Found(claimer); return nil }, []*Detector{silent},
			"detector reader reads the findings of claimer, which it does not require"},
		{"undeclared claim", func(p *Pass) []Finding { p.ClaimGroup(g, "y"); return nil }, []*Detector{claimer},
			"detector reader claims groups but does not declare it (Detector.Claims)"},
		{"thread claims", func(p *Pass) []Finding { p.ThreadClaim(0, g.Threads[0][0]); return nil }, []*Detector{claimer},
			"detector reader reads threads claims but requires no detector that makes them"},
		{"explained", func(p *Pass) []Finding { p.explainedBy(g, 0); return nil }, []*Detector{silent},
			"detector reader reads groups claims but requires no detector that makes them"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reader := &Detector{Name: "reader", Requires: tt.req, Run: tt.run}
			tb, err := newTable([]*Detector{claimer, silent, reader})
			if err != nil {
				t.Fatal(err)
			}
			defer func() {
				if got := fmt.Sprint(recover()); got != tt.want {
					t.Errorf("panic %q, want %q", got, tt.want)
				}
			}()
			detect(tb, &Result{Moments: make([]Moment, 1)}, Options{}, &classes{}, nil)
		})
	}
	// What it requires it reads.
	reader := &Detector{Name: "reader", Requires: []*Detector{claimer}, Run: func(p *Pass) []Finding {
		if got := p.GroupClaim(g); got != "claimer x" {
			t.Errorf("GroupClaim %q, want claimer x", got)
		}
		if got := len(p.Found(claimer)) + len(p.FoundAll()); got != 2 {
			t.Errorf("found %d, want claimer's finding twice", got)
		}
		return nil
	}}
	tb, err := newTable([]*Detector{claimer, silent, reader})
	if err != nil {
		t.Fatal(err)
	}
	detect(tb, &Result{Moments: make([]Moment, 1)}, Options{}, &classes{}, nil)
}

// fixtureInputs are the moments of every fixture folder under testdata's
// scenarios, verdicts and libs, as the command reads a folder (every dump
// in it, by name), and every such dump alone.
func fixtureInputs(t *testing.T) map[string][]Input {
	t.Helper()
	out := map[string][]Input{}
	for _, top := range []string{"scenarios", "verdicts", "libs"} {
		dirs, err := os.ReadDir(filepath.Join("..", "testdata", top))
		if err != nil {
			t.Fatal(err)
		}
		for _, dir := range dirs {
			if !dir.IsDir() {
				continue
			}
			path := filepath.Join("..", "testdata", top, dir.Name())
			files, err := os.ReadDir(path)
			if err != nil {
				t.Fatal(err)
			}
			var all []Input
			for _, f := range files {
				name := f.Name()
				if f.IsDir() || !(strings.HasSuffix(name, ".txt") || strings.HasSuffix(name, ".gz") || strings.HasSuffix(name, ".json")) {
					continue
				}
				ds, err := parse.ParseFile(filepath.Join(path, name))
				if err != nil || len(ds) == 0 {
					continue // not a dump (an expectations file)
				}
				for _, d := range ds {
					all = append(all, Input{Dump: d})
				}
				out[top+"/"+dir.Name()+"/"+name] = []Input{{Dump: ds[0]}}
			}
			if len(all) > 0 {
				out[top+"/"+dir.Name()] = all
			}
			if top == "scenarios" {
				// In their moments' order, whole, without before and alone.
				for cut, in := range cuts(loadScenario(t, dir.Name())) {
					out[top+"/"+dir.Name()+" "+cut] = in
				}
			}
		}
	}
	return out
}

// scopeDiff runs the detectors over one build of in twice, each detector
// seeing what it requires and then every detector run before it, and
// names the detectors whose findings differ, in run order. The first
// named reads beyond its Requires: what it requires gave the same
// findings and claims both times.
func scopeDiff(in []Input, opt Options) []string {
	r, opt, b := prepare(in, opt)
	narrow := detect(detectors(), r, opt, b.classes, b.goLocks)
	opt.wideScope = true
	wide := detect(detectors(), r, opt, b.classes, b.goLocks)
	var out []string
	for _, d := range detectors().order {
		a, w := byDetector(narrow, d.Name), byDetector(wide, d.Name)
		if diff := cmp.Diff(w, a); diff != "" {
			out = append(out, d.Name+" (-wide +scoped):\n"+diff)
		}
	}
	return out
}

func byDetector(fs []Finding, name string) []Finding {
	var out []Finding
	for _, f := range fs {
		if f.Detector == name {
			out = append(out, f)
		}
	}
	return out
}

// TestDetectorScope: each detector sees the findings and claims of what
// it requires and of nothing else. Run over every fixture, seeing every
// detector run before it must change no detector's findings: when it
// does, the first detector named reads beyond its Requires (a claim or a
// finding of a detector it does not require), and its Requires must name
// what it reads. Found panics outright on a detector not required.
func TestDetectorScope(t *testing.T) {
	ins := fixtureInputs(t)
	t.Logf("%d inputs", len(ins))
	if len(ins) < 100 {
		t.Fatalf("%d fixture inputs: the fixtures are committed", len(ins))
	}
	for name, in := range ins {
		for _, opt := range []Options{{}, {PoolBy: "label:handler"}} {
			if diff := scopeDiff(in, opt); len(diff) > 0 {
				t.Errorf("%s %+v: a detector reads beyond its Requires:\n%s", name, opt.PoolBy, strings.Join(diff, "\n"))
			}
		}
	}
}

// TestWideScopeSeesBeyond: a detector that requires one claimer and not
// the other, where the other claimed first, reads another claim when it
// sees every detector run before it: the difference TestDetectorScope
// looks for when a detector reads beyond its Requires.
func TestWideScopeSeesBeyond(t *testing.T) {
	g := &Group{Counts: []int{1}, Threads: [][]*parse.Thread{{{}}}}
	first := &Detector{Name: "first", Claims: ClaimsGroups, Run: func(p *Pass) []Finding { p.ClaimGroup(g, "first"); return nil }}
	second := &Detector{Name: "second", Claims: ClaimsGroups, Run: func(p *Pass) []Finding { p.ClaimGroup(g, "second"); return nil }}
	reader := &Detector{Name: "reader", Requires: []*Detector{second}, Run: func(p *Pass) []Finding {
		return []Finding{{ID: "read " + p.GroupClaim(g)}}
	}}
	tb, err := newTable([]*Detector{first, second, reader})
	if err != nil {
		t.Fatal(err)
	}
	r := &Result{Moments: make([]Moment, 1)}
	narrow := detect(tb, r, Options{}, &classes{}, nil)
	wide := detect(tb, r, Options{wideScope: true}, &classes{}, nil)
	if narrow[0].ID != "read second" || wide[0].ID != "read first" {
		t.Errorf("scoped %q, wide %q: want read second, read first", narrow[0].ID, wide[0].ID)
	}
}
