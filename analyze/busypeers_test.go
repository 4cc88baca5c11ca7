package analyze

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/parse"
)

// busyMoments writes three jstack moments (JDK 17, 8 s apart, every
// worker's cpu= growing 30% of the wall clock) of a pool of workers
// running one application loop (Work.loop calling Work.add or
// Work.remove). stacks[w][m] is worker w+1's top frame and its
// application branch ("A": under Work.add, "B": under Work.remove).
func busyMoments(stacks [][][2]string) []Input {
	var in []Input
	t0 := time.Date(2026, 12, 7, 4, 0, 0, 0, time.UTC)
	for m := range 3 {
		var s strings.Builder
		at := t0.Add(time.Duration(m) * 8 * time.Second)
		fmt.Fprintf(&s, "%s\nFull thread dump OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1 mixed mode, sharing):\n\n", at.Format("2006-01-02 15:04:05"))
		for w, byM := range stacks {
			elapsed := 30 + 8*float64(m)
			cpu := 1000 * (3 + 2.4*float64(m))
			fmt.Fprintf(&s, "\"worker-%d\" #%d prio=5 os_prio=0 cpu=%.2fms elapsed=%.2fs tid=0x00007f00000%04x nid=0x%x runnable  [0x00007f0000000000]\n   java.lang.Thread.State: RUNNABLE\n",
				w+1, 20+w, cpu, elapsed, w, 0x200+w)
			top, branch := byM[m][0], byM[m][1]
			fmt.Fprintf(&s, "\tat %s\n", top)
			if branch == "A" {
				s.WriteString("\tat com.example.Work.add(Work.java:36)\n\tat com.example.Work.loop(Work.java:134)\n")
			} else {
				s.WriteString("\tat com.example.Work.remove(Work.java:40)\n\tat com.example.Work.loop(Work.java:132)\n")
			}
			s.WriteString("\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)\n\n")
		}
		ds, err := parse.Parse(fmt.Sprintf("%d.txt", m+1), strings.NewReader(s.String()))
		if err != nil {
			panic(err)
		}
		in = append(in, Input{Dump: ds[0]})
	}
	return in
}

// TestBusyLikePeersProperty derives busyLikePeers from generated pools:
// worker-1 runs under the same application frame at every moment, its
// CPU growing 30% of the wall (the CPU-growth rule's evidence), either at
// one top frame throughout (it stays: a loop) or at another at each
// moment, ending at the place X (it moves); its peers run the same loop,
// never twice in a row under the same branch (they are no loop of their
// own), and one of them is at X at one moment (the work passes through
// X) or none ever is. worker-1 spins unless it moved and a peer passes
// through X. When its top frames move inside one call its application
// frame makes at every moment (within: Matcher.matches), it spins
// whatever its peers do: it never came back to the application's code.
func TestBusyLikePeersProperty(t *testing.T) {
	// Library frames of no loop row (hotloops.go): the rule under test
	// is the CPU growth's, not the loop's shape.
	const x = "java.util.zip.CRC32.update(java.base@17.0.15/CRC32.java:76)"
	others := []string{
		"java.lang.Integer.valueOf(java.base@17.0.15/Integer.java:1081)",
		"java.util.ArrayList.add(java.base@17.0.15/ArrayList.java:455)",
		"java.lang.StringLatin1.hashCode(java.base@17.0.15/StringLatin1.java:196)",
		"java.util.Arrays.copyOf(java.base@17.0.15/Arrays.java:3512)",
	}
	rng := rand.New(rand.NewSource(33))
	for i := range 300 {
		moves, passes := rng.Intn(2) == 0, rng.Intn(2) == 0
		// within: worker-1's top frames move inside one library call
		// (Matcher.matches) its application frame makes at every
		// moment: a runaway in the library, kept whatever its peers do.
		within := moves && rng.Intn(3) == 0
		const call = "\n\tat java.util.regex.Matcher.matches(java.base@17.0.15/Matcher.java:729)"
		peers := 1 + rng.Intn(4)
		stacks := make([][][2]string, 1+peers)
		for m := range 3 {
			top := x
			if moves && m < 2 {
				top = others[rng.Intn(len(others))]
				if m == 1 && top == stacks[0][0][0] {
					top = others[(slicesIndex(others, top)+1)%len(others)]
				}
			}
			if within {
				top += call
			}
			stacks[0] = append(stacks[0], [2]string{top, "A"})
		}
		passer := 1 + rng.Intn(peers)
		passAt := rng.Intn(3)
		for w := 1; w <= peers; w++ {
			// Branches alternate (A B A or B A B): never the same loop
			// twice in a row. The passer is under A, at X, at passAt.
			first := []string{"A", "B"}[rng.Intn(2)]
			if passes && w == passer {
				first = []string{"A", "B", "A"}[passAt]
			}
			for m := range 3 {
				branch := first
				if m == 1 {
					branch = map[string]string{"A": "B", "B": "A"}[first]
				}
				top := others[rng.Intn(len(others))]
				if passes && w == passer && m == passAt {
					top = x
				}
				stacks[w] = append(stacks[w], [2]string{top, branch})
			}
		}
		want := !(moves && passes && !within)
		var got []Finding
		for _, f := range Analyze(busyMoments(stacks), Options{}).Findings {
			if f.Kind == KindSpinning {
				got = append(got, f)
			}
		}
		if len(got) != map[bool]int{true: 1, false: 0}[want] {
			var ds []string
			for _, f := range got {
				ds = append(ds, fmt.Sprintf("%s %s %v %v", f.Basis, f.Culprit, f.Counts, f.Evidence))
			}
			t.Fatalf("#%d moves=%v passes=%v (peer %d at moment %d): %d spinning findings, want spinning %v\n%s\nstacks %v", i, moves, passes, passer, passAt, len(got), want, strings.Join(ds, "\n"), stacks)
		}
		if want && (got[0].Basis != "cpu-growth" || got[0].Counts[2] != 1 || got[0].Evidence[len(got[0].Evidence)-1].Threads[0] != "worker-1") {
			t.Fatalf("#%d: %+v, want worker-1 alone, on cpu-growth", i, got[0])
		}
	}
}

func slicesIndex(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

// TestBusyPeersFixtures: the real pools of testdata/verdicts (each
// README's expectation written from the program's source before dumpdiff
// ran). The busy controls given whole are quiet by busyLikePeers; the
// runaway among busy validators keeps its finding with validator-1 in it
// (its three busy peers in it too: each was in a matches call at every
// moment but one, which three dumps cannot tell from one long call, said
// in its README); the runaway fixtures whose threads never came back to
// their application's code, or came back alone, keep theirs.
func TestBusyPeersFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	spinning := func(name string) []Finding {
		var out []Finding
		names, _ := filepath.Glob(filepath.Join(dir, name, "[0-9].txt"))
		for i := range names {
			names[i] = strings.TrimSuffix(filepath.Base(names[i]), ".txt")
		}
		for _, f := range Analyze(loadMoments(t, filepath.Join(dir, name), names), Options{}).Findings {
			if f.Kind == KindSpinning {
				out = append(out, f)
			}
		}
		return out
	}
	for _, quiet := range []string{"treemap-busy-healthy", "hashset-busy-healthy", "busy-peers-healthy"} {
		if fs := spinning(quiet); len(fs) > 0 {
			t.Errorf("%s: %d spinning findings, want none (busy work): %s", quiet, len(fs), fs[0].Culprit)
		}
	}
	fs := spinning("busy-peers-runaway")
	found := false
	for _, f := range fs {
		for _, e := range f.Evidence {
			found = found || slicesIndex(e.Threads, "validator-1") >= 0
		}
	}
	if !found {
		t.Errorf("busy-peers-runaway: validator-1 in no spinning finding (%d findings)", len(fs))
	}
	for _, kept := range []string{"jvm-spin-deep", "jdk25-spin-deep", "jvm-spin-resubmit", "jdk25-spin-resubmit", "jvm-spin-regex", "jvm-spin-parser", "treemap-loop-stuck", "hashset-loop-stuck"} {
		if len(spinning(kept)) == 0 {
			t.Errorf("%s: no spinning finding, want its runaway", kept)
		}
	}
}
