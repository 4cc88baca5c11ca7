package analyze

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// debug1Record writes one debug=1 record of n goroutines at fn: hidden
// runtime PCs (the park debug=1 does not print) above its one printed
// frame, or none (a frame printed at the top, as a read's poll wait is).
func debug1Record(b *strings.Builder, n int, fn string, pc uint64, hidden int) {
	fmt.Fprintf(b, "%d @", n)
	for i := range hidden {
		fmt.Fprintf(b, " %#x", 0x43a0ae+uint64(i)*0x1f0)
	}
	fmt.Fprintf(b, " %#x 0x471b61\n#\t%#x\t%s+0x287\t/src/x/conn.go:189\n\n", pc+1, pc, fn)
}

// TestDebug1MassOneMomentProperty: one debug=1 profile alone, with or
// without its header: goroutines of one stack parked where debug=1 hides
// the wait, at least LeakMassMin (LeakFlatMin when parked in a select: two
// hidden frames) and LeakMassShare of the profile, are a possible leak
// said as info (one moment cannot tell a leak from as many live ones), or
// as a warning from LeakAloneShare of the profile (no live objects'
// goroutines beside them) and LeakAloneMin goroutines (past a pool sized
// by hand, alone in its process too), never above; fewer, a smaller share, a stack
// whose wait is printed (a poll wait's frame), or two moments never. Seeded.
func TestDebug1MassOneMomentProperty(t *testing.T) {
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 32))
		n := []int{1, 10, LeakMassMin - 1, LeakMassMin, 100, LeakAloneMin - 1, LeakAloneMin, 3000}[rng.IntN(8)]
		others := []int{0, 3, 40, 120, 2000}[rng.IntN(5)]
		hidden := []int{0, 2, 3}[rng.IntN(3)]
		header := rng.IntN(2) == 0
		var b strings.Builder
		if header {
			fmt.Fprintf(&b, "goroutine profile: total %d\n", n+others)
		}
		debug1Record(&b, n, "github.com/example/driver.(*conn).startWatcher.func1", 0x132e737, hidden)
		if others > 0 {
			debug1Record(&b, others, "main.serve", 0x14a2f11, 2)
		}
		ds, err := parse.Parse("d1.txt", strings.NewReader(b.String()))
		if err != nil || len(ds) != 1 {
			t.Fatalf("seed %d: %v\n%s", seed, err, b.String())
		}
		r := Analyze([]Input{{Dump: ds[0]}}, Options{})
		var got []Finding
		for _, f := range r.Findings {
			if f.Severity > Warning || f.Severity == Warning && f.Basis != "mass-one" {
				t.Errorf("seed %d: %s %s %s %s from one debug=1 moment", seed, f.Severity, f.Kind, f.Pool, f.Basis)
			}
			if f.Basis == "mass-one" && strings.Contains(f.Pool, "startWatcher") {
				got = append(got, f)
			}
		}
		floor := LeakMassMin
		if hidden == 2 {
			floor = LeakFlatMin
		}
		want := hidden > 0 && n >= floor && float64(n) >= LeakMassShare*float64(n+others)
		if len(got) == 1 {
			sev := Info
			if n >= LeakAloneMin && float64(n) >= LeakAloneShare*float64(n+others) {
				sev = Warning
			}
			if got[0].Severity != sev {
				t.Errorf("seed %d (n %d, others %d): severity %s, want %s", seed, n, others, got[0].Severity, sev)
			}
		}
		if want != (len(got) == 1) || len(got) > 1 {
			t.Errorf("seed %d (n %d, others %d, hidden %d, header %v): %d mass-one findings, want %v\n%s", seed, n, others, hidden, header, len(got), want, b.String())
		}
		// Two moments: the existing rules (flat or growing) judge, not this one.
		r2 := Analyze([]Input{{Dump: ds[0]}, {Dump: ds[0]}}, Options{})
		for _, f := range r2.Findings {
			if f.Basis == "mass-one" {
				t.Errorf("seed %d: mass-one over two moments", seed)
			}
		}
	}
}

// TestDebug1MassOneMomentFixtures: each debug=1 moment of the leak
// fixtures given alone (programs run here, Go 1.26 and Go 1.13: their
// READMEs say the leak) gives the suspect, a warning where it is
// LeakAloneShare of the process and LeakAloneMin strong; the healthy programs'
// debug=1 moments (a busy server, Go 1.26 and Go 1.13; the libraries'
// pools) alone give none.
func TestDebug1MassOneMomentFixtures(t *testing.T) {
	for _, tt := range []struct {
		file string
		want bool
	}{
		{"verdicts/go-mass-leak/1-debug1.txt", true},
		{"verdicts/go113-select-leak/1-debug1.txt", true},
		{"verdicts/go-long-wait-leak/2-debug1.txt", true},
		{"verdicts/go-busy-healthy/1-debug1.txt", false},
		{"verdicts/go113-busy-healthy/2-debug1.txt", false},
		{"libs/go-grpc/1-debug1.txt", false},
		{"libs/go-database-sql/1-debug1.txt", false},
		{"libs/go-generics/1-debug1.txt", false},
		{"scenarios/go-slow-upstream-leak/before-debug1.txt", false},
	} {
		t.Run(tt.file, func(t *testing.T) {
			dir, file := filepath.Split(filepath.Join("..", "testdata", tt.file))
			r := Analyze(loadMoments(t, dir, []string{file}), Options{})
			got := false
			for _, f := range r.Findings {
				if f.Basis == "mass-one" {
					got = true
					sev := Info
					if f.Counts[0] >= LeakFlatMin && float64(f.Counts[0]) >= LeakAloneShare*float64(f.Totals[0]) {
						sev = Warning
					}
					if f.Severity != sev {
						t.Errorf("%s: severity %s, want %s", f.Pool, f.Severity, sev)
					}
				}
			}
			if got != tt.want {
				t.Errorf("mass-one %v, want %v", got, tt.want)
			}
		})
	}
}

// TestDebug1FlatMassProperty: debug=1 profiles at two or three moments in
// which one stack parked where debug=1 hides the wait holds flat (within
// LeakFlatSpread) give at most a suspect said as info: a goroutine per
// session, per subscriber, per entity, made as they come and kept while
// they live, holds as flat as a leak that stopped growing, in a select (two
// hidden frames) or a channel operation (three). Only a mass alone in a
// large process (LeakAloneMin, LeakAloneShare) is a warning. Seeded.
func TestDebug1FlatMassProperty(t *testing.T) {
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 33))
		n := []int{LeakMassMin, 80, LeakFlatMin, 150, 600, LeakAloneMin, 3000, 5067}[rng.IntN(8)]
		others := []int{0, 3, 40, 120, 2000}[rng.IntN(5)]
		hidden := []int{2, 3}[rng.IntN(2)]
		moments := 2 + rng.IntN(2)
		var in []Input
		c, total := n, 0
		for m := range moments {
			if m > 0 {
				c -= rng.IntN(max(1, int(LeakFlatSpread*float64(n))/4)) // flat: a few gone at most
			}
			total = c + others + 1 + m
			var b strings.Builder
			fmt.Fprintf(&b, "goroutine profile: total %d\n", total)
			debug1Record(&b, c, "main.(*session).serve", 0x670ff4, hidden)
			if others > 0 {
				debug1Record(&b, others, "main.serve", 0x14a2f11, 2)
			}
			debug1Record(&b, 1+m, "main.tick", 0x14a3f11, 0) // every moment differs: none a copy of another
			ds, err := parse.Parse(fmt.Sprintf("d1-%d.txt", m), strings.NewReader(b.String()))
			if err != nil || len(ds) != 1 {
				t.Fatalf("seed %d: %v\n%s", seed, err, b.String())
			}
			in = append(in, Input{Dump: ds[0]})
		}
		r := Analyze(in, Options{})
		// Each stack is judged alone: the others (main.serve) hold flat too.
		alone := map[string]bool{"main.(*session).serve": aloneMass(c, total), "main.serve": aloneMass(others, total)}
		saw := map[string]bool{}
		for _, f := range r.Findings {
			if f.Severity < Warning {
				continue
			}
			saw[f.Pool] = true
			if !alone[f.Pool] {
				t.Errorf("seed %d (n %d→%d, others %d, hidden %d, moments %d): %s %s %s %s", seed, n, c, others, hidden, moments, f.Severity, f.Kind, f.Pool, f.Basis)
			}
		}
		if alone["main.(*session).serve"] && !saw["main.(*session).serve"] {
			t.Errorf("seed %d (n %d→%d, others %d): a mass alone in its process is not a warning", seed, n, c, others)
		}
	}
}
