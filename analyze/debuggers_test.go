package analyze

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// debuggerDump reads one file of testdata/debuggers (its README says how
// each was made: Delve's listings and the runtime's debug=2 dump of one
// process at one moment, our GoLand fixture from Delve's frames).
func debuggerDump(t *testing.T, name string) map[int64]*parse.Thread {
	t.Helper()
	ds, err := parse.ParseFile(filepath.Join("..", "testdata", "debuggers", name))
	if err != nil {
		t.Fatal(err)
	}
	m := map[int64]*parse.Thread{}
	for _, th := range ds[0].Threads {
		m[th.ID] = th
	}
	return m
}

// sameCulprit compares two first application frames: the same function
// and line, and the same file but for Delve's paths, relative to its
// working directory ("./blocked/main.go").
func sameCulprit(a, b *parse.Frame) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Func == b.Func && a.Line == b.Line &&
		(a.File == b.File || strings.HasSuffix(a.File, strings.TrimPrefix(b.File, ".")) || strings.HasSuffix(b.File, strings.TrimPrefix(a.File, ".")))
}

// TestDebuggersAgreeWithDebug2: the goroutines a debugger lists and the
// runtime's debug=2 dump of the same moment are the same goroutines with
// the same blocking state (the signature the analysis files them under)
// and the same culprit (first application frame): Delve's goroutines -t of
// Delve 1.27.2 and 1.23.1, and our GoLand fixture, which prints no state:
// its goroutines are filed by their frames alone.
func TestDebuggersAgreeWithDebug2(t *testing.T) {
	for _, tt := range []struct{ listing, debug2 string }{
		{"delve-v1.27.2.goroutines-t.txt", "delve-v1.27.2.debug2.txt"},
		{"delve-v1.23.1.goroutines-t.txt", "delve-v1.23.1.debug2.txt"},
		{"goland__blocked.txt", "delve-v1.27.2.debug2.txt"},
	} {
		t.Run(tt.listing, func(t *testing.T) {
			listed, rt := debuggerDump(t, tt.listing), debuggerDump(t, tt.debug2)
			both, app := 0, 0
			for id, g := range listed {
				r := rt[id]
				if r == nil {
					continue // the runtime's own goroutines, which debug=2 hides (parse's TestDelveAgreesWithDebug2)
				}
				both++
				gs, rs := classify(parse.RuntimeGo, g), classify(parse.RuntimeGo, r)
				gid, rid := "unclassified", "unclassified"
				if gs != nil {
					gid = gs.ID
				}
				if rs != nil {
					rid = rs.ID
				}
				if gid != rid {
					t.Errorf("goroutine %d [%s]: filed as %s, the runtime's dump as %s", id, r.State, gid, rid)
				}
				gc, rc := culprit(parse.RuntimeGo, g), culprit(parse.RuntimeGo, r)
				if gc == nil && g.Extra().FramesElided {
					continue // -t cut the stack above it (10 frames: goroutine 1's)
				}
				if !sameCulprit(gc, rc) {
					t.Errorf("goroutine %d: culprit %v, the runtime's dump %v", id, gc, rc)
				}
				if rc != nil {
					app++
				}
			}
			if both < 10 || app < 8 {
				t.Errorf("%d goroutines in both, %d with a culprit: too few to compare", both, app)
			}
		})
	}
}

// TestDebuggerListingsAsDebug2: a listing of the blocked program read
// alone is one moment, said to be an excerpt, and what it finds the
// debug=2 dump of the same moment finds too (kind and culprit function: the Go
// work-wait and one-dump rules read Delve's waits and states as
// debug=2's; pools may differ, the listing naming no creator without -g).
func TestDebuggerListingsAsDebug2(t *testing.T) {
	keys := func(name string) (map[string]bool, []string) {
		ds, err := parse.ParseFile(filepath.Join("..", "testdata", "debuggers", name))
		if err != nil {
			t.Fatal(err)
		}
		r := Analyze([]Input{{Dump: ds[0]}}, Options{})
		out := map[string]bool{}
		for _, f := range r.Findings {
			fn, _, _ := strings.Cut(f.Culprit, " (") // the function: a plain listing's one location may be another line of it
			out[f.Kind+" "+fn] = true
		}
		return out, r.Warnings
	}
	want, _ := keys("delve-v1.27.2.debug2.txt")
	if len(want) == 0 {
		t.Fatal("the debug=2 dump of the blocked program gives no finding")
	}
	for _, name := range []string{"delve-v1.27.2.goroutines.txt", "delve-v1.27.2.goroutines-t.txt", "goland__blocked.txt"} {
		got, warnings := keys(name)
		said := false
		for _, w := range warnings {
			said = said || strings.Contains(w, "an excerpt")
		}
		if !said {
			t.Errorf("%s: not said to be an excerpt: %q", name, warnings)
		}
		for k := range got {
			if !want[k] {
				t.Errorf("%s: finding %q, which the debug=2 dump of the same moment does not give (%v)", name, k, want)
			}
		}
	}
}
