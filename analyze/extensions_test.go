package analyze

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestParseExtensionsErrors: every bad line is reported with its position,
// and the good blocks are still read.
func TestParseExtensionsErrors(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string // error messages, in order
		sigs       int
		pools      int
	}{
		{"good", "# ours\n[signature]\nid = acme-wait\nruntime = jvm\ncategory = waiting\nresource = db-connection\nanchors = com.acme.Pool.get\ndepth = 12\n\n[pool]\nname = acme-*\nmax = 64\n", nil, 1, 1},
		{"key before section", "id = x\n", []string{`f:1: "id" before any [signature], [pool], [remedy], [roles] or [hot-loop] line`}, 0, 0},
		{"not key value", "[signature]\nid x\n", []string{`f:2: not a [section] or key = value line: "id x"`, "f:1: [signature] without an id"}, 0, 0},
		{"bad runtime", "[signature]\nid = a\nruntime = ruby\n", []string{`f:3: runtime "ruby": want jvm or go`, `f:1: signature "a" without a runtime (jvm or go)`}, 0, 0},
		{"unknown resource", "[signature]\nid = a\nruntime = go\ncategory = waiting\nresource = beer\nstates = x\n", []string{`f:5: unknown resource "beer" (README lists them)`}, 1, 0},
		{"matches nothing", "[signature]\nid = a\nruntime = go\ncategory = waiting\n", []string{`f:1: signature "a" has neither anchors nor states: it would match nothing`}, 0, 0},
		{"bad depth", "[signature]\nid = a\nruntime = jvm\ncategory = idle\nanchors = x.Y.z\ndepth = 0\n", []string{`f:6: depth "0": want a whole number from 1 to 200`}, 1, 0},
		{"bad pool", "[pool]\nname = x-*\nmax = lots\n[pool]\nmax = 3\n", []string{`f:3: max "lots": want a whole number above 0`, "f:1: [pool] needs a name and a max above 0", "f:4: [pool] needs a name and a max above 0"}, 0, 0},
		{"bad hot loop", "[hot-loop]\nfunc = com.acme.Lru.find slot\nthreads = 0\ncolour = red\n[hot-loop]\nfunc = com.acme.Lru.findSlot\n", []string{
			`f:2: func "com.acme.Lru.find slot": a frame has no spaces (want a function, as a dump prints it)`, `f:3: threads "0": want a whole number from 1 to 1000`,
			`f:4: unknown [hot-loop] key "colour" (want func, top, threads, structure, source)`, "f:1: [hot-loop] needs a func and a structure", "f:5: [hot-loop] needs a func and a structure"}, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ext, err := ParseExtensions(strings.NewReader(tt.text), "f")
			var got []string
			for _, e := range unwrapAll(err) {
				got = append(got, e.Error())
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			eq(t, "signatures", len(ext.Signatures), tt.sigs)
			eq(t, "pools", len(ext.Pools), tt.pools)
			for _, e := range unwrapAll(err) {
				var xe *ExtensionError
				if !errors.As(e, &xe) {
					t.Errorf("%v is not an *ExtensionError", e)
				}
			}
		})
	}
}

func unwrapAll(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// TestExtensionsTeach: a signatures file teaches dumpdiff a team's own
// wait and pool size on a real dump (testdata/verdicts/jvm-contention): the
// workers blocked in PriceCache.get become the team's state, and the
// pool's limit is the configured one.
func TestExtensionsTeach(t *testing.T) {
	ext, err := ParseExtensions(strings.NewReader(`
[signature]
id       = price-cache-wait
runtime  = jvm
category = waiting
resource = monitor
anchors  = com.example.cache.PriceCache.get
depth    = 3
explain  = waiting for the price cache's lock (its refresh reads the price feed while holding it)

[pool]
name = worker-*
max  = 12
what = pricing workers (app.yaml)
`), "team.signatures")
	if err != nil {
		t.Fatal(err)
	}
	in := loadMoments(t, filepath.Join("..", "testdata", "verdicts", "jvm-contention"), []string{"1", "2"})
	r := Analyze(in, Options{Extensions: ext})
	var states []string
	for _, p := range r.Pools {
		if p.Name == "worker-*" {
			for _, g := range p.States {
				states = append(states, g.State)
			}
		}
	}
	eq(t, "worker states", strings.Join(states, ","), "price-cache-wait")
	found := false
	for _, f := range r.Findings {
		if f.Kind == KindSaturated && f.Pool == "worker-*" {
			found = true
			eq(t, "limit", f.Limit, Limit{Size: 12, Source: "configured", What: "pricing workers (app.yaml)"})
		}
	}
	eq(t, "saturated worker-*", found, true)
}
