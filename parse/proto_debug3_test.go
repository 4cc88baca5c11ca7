package parse

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/pprof/profile"
)

// debug3Text is debug=2 of the goroutines debug3Profile carries: what
// CockroachDB's debug=3 must read as (its creators' functions aside,
// which debug=3 does not carry).
const debug3Text = `goroutine 1 [chan receive, 12 minutes]:
main.main()
	/src/main.go:9 +0x1d

goroutine 100 [chan receive, 5 minutes]:
main.worker()
	/src/main.go:15 +0x25
created by main.main in goroutine 1
	/src/main.go:8 +0x1f

goroutine 101 [chan receive]:
main.worker()
	/src/main.go:15 +0x25
created by main.main in goroutine 1
	/src/main.go:8 +0x1f

goroutine 105 [running]:
main.fetch()
	/src/main.go:25 +0x25
created by main.worker in goroutine 100
	/src/main.go:14 +0x1f
`

// debug3Profile builds a debug=3 profile with github.com/google/pprof/profile
// (synthetic, beside the real files TestDebug3RealMatchesDebug2 reads): one
// sample of value 1 per goroutine, the go::goroutine* labels beside a
// program's label, the numbers as numeric labels (as the fork writes them)
// except goroutine 101's, written as strings (read too).
func debug3Profile() *profile.Profile {
	fnMain := &profile.Function{ID: 1, Name: "main.main", Filename: "/src/main.go"}
	fnWorker := &profile.Function{ID: 2, Name: "main.worker", Filename: "/src/main.go"}
	fnFetch := &profile.Function{ID: 3, Name: "main.fetch", Filename: "/src/main.go"}
	locMain := &profile.Location{ID: 1, Address: 0x1001, Line: []profile.Line{{Function: fnMain, Line: 9}}}
	locWorker := &profile.Location{ID: 2, Address: 0x1002, Line: []profile.Line{{Function: fnWorker, Line: 15}}}
	locFetch := &profile.Location{ID: 3, Address: 0x1003, Line: []profile.Line{{Function: fnFetch, Line: 25}}}
	num := func(id, parent, wait int64) map[string][]int64 {
		m := map[string][]int64{"go::goroutine": {id}}
		if parent != 0 {
			m["go::goroutine_created_by"] = []int64{parent}
		}
		if wait != 0 {
			m["go::goroutine_wait_minutes"] = []int64{wait}
		}
		return m
	}
	return &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "goroutine", Unit: "count"}},
		PeriodType: &profile.ValueType{Type: "goroutine", Unit: "count"},
		Period:     1,
		Sample: []*profile.Sample{
			{Location: []*profile.Location{locMain}, Value: []int64{1}, NumLabel: num(1, 0, 12),
				Label: map[string][]string{"go::goroutine_state": {"chan receive"}}},
			{Location: []*profile.Location{locWorker}, Value: []int64{1}, NumLabel: num(100, 1, 5),
				Label: map[string][]string{"go::goroutine_state": {"chan receive"}, "cluster": {"prod"}}},
			{Location: []*profile.Location{locWorker}, Value: []int64{1},
				Label: map[string][]string{"go::goroutine": {"101"}, "go::goroutine_created_by": {"1"},
					"go::goroutine_state": {"chan receive"}, "cluster": {"prod"}}},
			{Location: []*profile.Location{locFetch}, Value: []int64{1}, NumLabel: num(105, 100, 0),
				Label: map[string][]string{"go::goroutine_state": {"running"}}},
		},
		Location: []*profile.Location{locMain, locWorker, locFetch},
		Function: []*profile.Function{fnMain, fnWorker, fnFetch},
	}
}

// TestProtoDebug3: each goroutine of a debug=3 profile has the id, state,
// wait and parent debug=2 prints for it, its program's labels without the
// runtime's, and its frames.
func TestProtoDebug3(t *testing.T) {
	var buf bytes.Buffer
	if err := debug3Profile().Write(&buf); err != nil {
		t.Fatal(err)
	}
	got, err := Parse("goroutine.pb.gz", &buf)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Parse("goroutine.txt", strings.NewReader(debug3Text))
	if err != nil {
		t.Fatal(err)
	}
	type facts struct {
		ID, Parent  int64
		State       string
		WaitMinutes int
		Weight      int
		Top         string
		Labels      map[string]string
	}
	of := func(d *Dump) []facts {
		var out []facts
		for _, th := range d.Threads {
			f := facts{ID: th.ID, State: th.State, WaitMinutes: th.WaitMinutes, Weight: th.Weight, Top: th.Frames[0].Func, Labels: th.Labels}
			if th.CreatedBy != nil {
				f.Parent = th.CreatedBy.Parent
			}
			out = append(out, f)
		}
		return out
	}
	wantFacts := of(want[0])
	wantFacts[1].Labels = map[string]string{"cluster": "prod"} // debug=2 of Go 1.26 prints no labels
	wantFacts[2].Labels = map[string]string{"cluster": "prod"}
	if diff := cmp.Diff(wantFacts, of(got[0])); diff != "" {
		t.Errorf("debug=3 goroutines differ from debug=2's (-want +got):\n%s", diff)
	}
	if got[0].Format != FormatGoProto || got[0].ThreadCount() != 4 {
		t.Errorf("format %s, %d goroutines; want go-proto, 4", got[0].Format, got[0].ThreadCount())
	}
}

// TestProtoDebug0Unchanged: an ordinary debug=0 sample (no go::goroutine
// label) keeps its weight and labels and gets no id or state.
func TestProtoDebug0Unchanged(t *testing.T) {
	d, err := parseProto("p", encodeProfileRaw(t, goroutineProfile("goroutine")), newInterner())
	if err != nil {
		t.Fatal(err)
	}
	for _, th := range d[0].Threads {
		if th.ID != 0 || th.State != "" || th.CreatedBy != nil {
			t.Errorf("debug=0 sample read as a debug=3 goroutine: %+v", th)
		}
	}
}

func encodeProfileRaw(t *testing.T, p *profile.Profile) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := p.WriteUncompressed(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
