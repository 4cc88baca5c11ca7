package analyze

import (
	"math/rand"
	"slices"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/parse"
)

// The oracle: identities as maps, per group and moment (what the builder
// kept before the sorted merge), and the counts read from them.

func oracleAlways(ids []map[int64]string) int {
	if len(ids) < 2 || ids[0] == nil {
		return 0
	}
	n := 0
	for id, c := range ids[0] {
		ok := true
		for m := 1; m < len(ids); m++ {
			if cm, in := ids[m][id]; !in || cm != c {
				ok = false
				break
			}
		}
		if ok {
			n++
		}
	}
	return n
}

func oracleStayed(ids []map[int64]string) int {
	n := len(ids)
	if n < 2 || ids[n-1] == nil {
		return 0
	}
	k := 0
	for id, c := range ids[n-1] {
		if cm, in := ids[n-2][id]; !in || cm != c {
			continue
		}
		ok := true
		for m := n - 3; m >= 0; m-- {
			cm, in := ids[m][id]
			if !in {
				for e := m - 1; e >= 0; e-- {
					if _, was := ids[e][id]; was {
						ok = false
						break
					}
				}
				break
			}
			if cm != c {
				ok = false
				break
			}
		}
		if ok {
			k++
		}
	}
	return k
}

func oracleSame(counts []int, ids []map[int64]string) int {
	start := -1
	for i := 1; i < len(counts); i++ {
		if counts[i] > counts[0] {
			start = i
			break
		}
	}
	if start < 0 || start == len(counts)-1 || ids[start] == nil {
		return 0
	}
	n := 0
	for id := range ids[start] {
		ok := true
		for m := start + 1; m < len(ids); m++ {
			if _, in := ids[m][id]; !in {
				ok = false
				break
			}
		}
		if ok {
			n++
		}
	}
	return n
}

// TestIdentitiesMatchMaps checks the sorted merge of identities against
// maps per group and moment, on random moments: duplicate ids in one
// moment (the later wins), threads that leave and come back, culprits
// that change, CPU printed at some moments only.
//
// It runs twice: as one merge, and split into up to three ranges of any
// size (cuts fall between duplicate ids, ranges come out empty).
func TestIdentitiesMatchMaps(t *testing.T) {
	t.Run("one range", identitiesMatchMaps)
	t.Run("ranges", func(t *testing.T) {
		defer func(m int, p func() int) { idRangeMin, idRangeParts = m, p }(idRangeMin, idRangeParts)
		idRangeMin, idRangeParts = 1, func() int { return 3 }
		identitiesMatchMaps(t)
	})
}

func identitiesMatchMaps(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for trial := range 3000 {
		n := 1 + rng.Intn(5)
		ngroups := 1 + rng.Intn(4)
		culprits := []string{"", "a.f", "b.g"}
		groups := make([]*Group, ngroups)
		for i := range groups {
			groups[i] = &Group{Counts: make([]int, n)}
			for m := range n {
				groups[i].Counts[m] = rng.Intn(4)
			}
		}
		b := &builder{n: n}
		maps := make([][]map[int64]string, ngroups)        // group → moment → id → culprit
		cpus := make([]map[int64][]time.Duration, ngroups) // group → id → cpu per moment
		for g := range maps {
			maps[g] = make([]map[int64]string, n)
			cpus[g] = map[int64][]time.Duration{}
		}
		for m := range n {
			mb := &momentBuild{m: m}
			var slots []*slot
			for g := range groups {
				for _, c := range culprits {
					slots = append(slots, &slot{lg: &localGroup{g: groups[g]}, c: &classified{culprit: c}, n: int32(len(slots))})
				}
			}
			mb.table = slots
			k := rng.Intn(12)
			for range k {
				id := int64(rng.Intn(8)) - 2
				if id == 0 {
					id = 7
				}
				si := rng.Intn(len(slots))
				var cpu time.Duration
				if rng.Intn(2) == 0 {
					cpu = time.Duration(rng.Intn(5))
				}
				mb.ids = append(mb.ids, idEntry{id: id, pos: int32(len(mb.ids)), slot: int32(si)})
				if cpu > 0 { // as the build keeps them: up to the last one printed
					mb.cpus = append(mb.cpus, make([]time.Duration, len(mb.ids)-1-len(mb.cpus))...)
					mb.cpus = append(mb.cpus, cpu)
				}
				g := si / len(culprits)
				if maps[g][m] == nil {
					maps[g][m] = map[int64]string{}
				}
				maps[g][m][id] = slots[si].c.culprit
				if cpu > 0 {
					v := cpus[g][id]
					if v == nil {
						v = make([]time.Duration, n)
						cpus[g][id] = v
					}
					v[m] = cpu
				}
			}
			b.ms = append(b.ms, mb)
		}
		b.identities()
		for g, gr := range groups {
			var cpu time.Duration
			cpuThreads := 0
			for _, v := range cpus[g] {
				first, last := -1, -1
				for i, c := range v {
					if c > 0 {
						if first < 0 {
							first = i
						}
						last = i
					}
				}
				if first >= 0 && last > first {
					cpuThreads++
					if v[last] > v[first] {
						cpu += v[last] - v[first]
					}
				}
			}
			want := [5]int64{int64(oracleSame(gr.Counts, maps[g])), int64(oracleAlways(maps[g])), int64(oracleStayed(maps[g])),
				int64(cpu), int64(cpuThreads)}
			got := [5]int64{int64(gr.Same), int64(gr.Always), int64(gr.Stayed), int64(gr.CPU), int64(gr.CPUThreads)}
			if got != want {
				t.Fatalf("trial %d, group %d of %d moments: got same/always/stayed/cpu/cpuThreads %v, want %v", trial, g, n, got, want)
			}
		}
	}
}

// TestSortIDs checks the radix sort against a stable comparison sort:
// negative ids, equal ids kept in order, ids sharing bytes.
func TestSortIDs(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for _, size := range []int{0, 1, 255, 256, 1000, 70000} {
		for _, spread := range []int64{3, 1 << 20, 1 << 62} {
			ids := make([]idEntry, size)
			for i := range ids {
				ids[i] = idEntry{id: rng.Int63n(spread) - spread/2, pos: int32(i)}
			}
			want := slices.Clone(ids)
			slices.SortStableFunc(want, func(a, b idEntry) int {
				switch {
				case a.id < b.id:
					return -1
				case a.id > b.id:
					return 1
				}
				return 0
			})
			if got := sortIDs(ids); !slices.Equal(got, want) {
				t.Fatalf("size %d spread %d: radix order differs from a stable sort", size, spread)
			}
		}
	}
	// In order already (equal ids side by side): given back as it is.
	ids := make([]idEntry, 1000)
	for i := range ids {
		ids[i] = idEntry{id: int64(i/3) - 100, pos: int32(i)}
	}
	want := slices.Clone(ids)
	if got := sortIDs(ids); !slices.Equal(got, want) {
		t.Fatalf("ids in order came back out of order")
	}
}

// TestAnalyzeNoMoments: no input is an empty analysis, not a panic (the
// identities' ranges had indexed the largest moment of none).
func TestAnalyzeNoMoments(t *testing.T) {
	if r := Analyze(nil, Options{}); len(r.Moments) != 0 || len(r.Pools) != 0 {
		t.Errorf("no input: %d moments, %d pools", len(r.Moments), len(r.Pools))
	}
}

// TestMixedRuntimesKeepJVMCPU: JVM moments analyzed after a Go moment (a
// caller may mix runtimes; the CLI splits them) keep their threads' CPU
// times. (Not the same totals as alone: in a Go analysis a thread's
// identity is its id, not its name and nid.)
func TestMixedRuntimesKeepJVMCPU(t *testing.T) {
	var jvm []Input
	for _, f := range []string{"before.txt", "during-1.txt", "during-2.txt"} {
		ds, err := parse.ParseFile("../testdata/scenarios/hikari-pool-exhausted/" + f)
		if err != nil {
			t.Fatal(err)
		}
		jvm = append(jvm, Input{Dump: ds[0]})
	}
	gd, err := parse.ParseFile("../testdata/go/go1.26.8-debug2.txt")
	if err != nil {
		t.Fatal(err)
	}
	cpu := func(r *Result) (d time.Duration, n int) {
		for _, p := range r.Pools {
			for _, g := range p.States {
				d += g.CPU
				n += g.CPUThreads
			}
		}
		return d, n
	}
	if d, n := cpu(Analyze(jvm, Options{})); d == 0 || n == 0 {
		t.Fatalf("JVM moments alone: CPU %v over %d threads, want some", d, n)
	}
	if d, n := cpu(Analyze(append([]Input{{Dump: gd[0]}}, jvm...), Options{})); d == 0 || n == 0 {
		t.Errorf("JVM moments after a Go moment: CPU %v over %d threads, want some", d, n)
	}
}

// TestSampleWeightReadsThreadLabel: a report counts "+N more" beside the
// samples it shows; a sample that stands for a debug=1 record of N
// goroutines must count N, and every other label (a JVM thread named like a
// number, a goroutine id) one.
func TestSampleWeightReadsThreadLabel(t *testing.T) {
	cases := []struct {
		rt   parse.Runtime
		th   parse.Thread
		want int
	}{
		{parse.RuntimeGo, parse.Thread{Weight: 5067}, 5067},
		{parse.RuntimeGo, parse.Thread{ID: 42, Weight: 1}, 1},
		{parse.RuntimeGo, parse.Thread{}, 1},
	}
	for _, c := range cases {
		label := threadLabel(c.rt, &c.th)
		if got := SampleWeight(label); got != c.want {
			t.Errorf("SampleWeight(%q) = %d, want %d", label, got, c.want)
		}
	}
	for _, label := range []string{"12 goroutines-pool", "0 goroutines", "-3 goroutines", "pool-1-thread-7", "goroutines"} {
		if got := SampleWeight(label); got != 1 {
			t.Errorf("SampleWeight(%q) = %d, want 1", label, got)
		}
	}
}
