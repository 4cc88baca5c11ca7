package report

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/dumpdiff/dumpdiff/analyze"
)

// TestChartColoursDistinct: in every chart the HTML report draws, each
// stacked state has a colour of its own: the recorded incidents (the Go
// one stacks a select, an idle connection and a sleep) and generated
// pools of 1 to 9 states of random categories.
func TestChartColoursDistinct(t *testing.T) {
	check := func(t *testing.T, r *analyze.Result, what string) {
		t.Helper()
		rs := buildRows(r, Options{}.withDefaults())
		for i := range rs.findings {
			f := &rs.findings[i]
			seen := map[string]string{}
			for _, s := range chartSlices(r, f, len(rs.moments)) {
				if other, ok := seen[s.color]; ok {
					t.Errorf("%s, finding %d: %s and %s share %s", what, f.num, other, s.name, s.color)
				}
				seen[s.color] = s.name
			}
		}
	}
	dirs, _ := filepath.Glob("../testdata/scenarios/*")
	for _, dir := range dirs {
		check(t, analyzeScenario(t, dir), filepath.Base(dir))
	}
	cats := []analyze.Category{analyze.Waiting, analyze.Idle, analyze.Running, analyze.Other}
	for seed := uint64(1); seed <= 200; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		r := &analyze.Result{Version: "1", Moments: []analyze.Moment{{Label: "before"}, {Label: "after"}}}
		p := &analyze.Pool{Name: "pool-*", Counts: []int{0, 0}}
		for i := range 1 + rng.IntN(9) {
			p.States = append(p.States, &analyze.Group{Pool: p.Name, State: fmt.Sprintf("s%d", i), Category: cats[rng.IntN(len(cats))],
				Counts: []int{rng.IntN(50), 1 + rng.IntN(50)}})
		}
		r.Pools = []*analyze.Pool{p}
		r.Findings = []analyze.Finding{{ID: "f", Kind: analyze.KindGrowing, Pool: p.Name, State: "s0", Counts: p.States[0].Counts,
			PoolCounts: []int{1, 1}, At: 1, Since: 1}}
		check(t, r, fmt.Sprintf("seed %d", seed))
	}
}
