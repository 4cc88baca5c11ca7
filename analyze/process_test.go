package analyze

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// genJVMMoment is one generated moment of a JVM: its lifetime threads with
// the nids given (each printed or left out at random, as excerpts and
// formats do), application threads that come and go with nids of their
// own, the pid and the version printed or not, the version in a text
// dump's or a JSON dump's words.
func genJVMMoment(rng *rand.Rand, label string, nids map[string]uint64, pid int, version string) Moment {
	d := &parse.Dump{Format: parse.FormatJVMText}
	if rng.IntN(2) == 0 {
		d.ProcessID = pid
	}
	switch rng.IntN(3) {
	case 0:
		d.Version = "OpenJDK 64-Bit Server VM (" + version + " mixed mode, sharing)"
	case 1:
		d.Version = version // as a JSON dump prints it
	}
	add := func(name string, nid uint64) {
		nidText := fmt.Sprintf("0x%x", nid)
		if rng.IntN(4) == 0 {
			nidText = fmt.Sprint(nid) // decimal, as some tools print it
		}
		d.Threads = append(d.Threads, &parse.Thread{JVM: &parse.JVM{Name: name, NativeID: nidText}})
	}
	for _, name := range jvmLifetimeThreads {
		if name != "Finalizer" || rng.IntN(5) > 0 {
			add(name, nids[name])
		}
	}
	for i := range rng.IntN(20) {
		add(fmt.Sprintf("worker-%d", i), uint64(rng.IntN(1<<20)+1))
	}
	// A thread of the application named like a lifetime thread, twice: no
	// proof of anything.
	if rng.IntN(4) == 0 {
		add("Finalizer", uint64(rng.IntN(1<<20)+1))
	}
	rng.Shuffle(len(d.Threads), func(i, j int) { d.Threads[i], d.Threads[j] = d.Threads[j], d.Threads[i] })
	return Moment{Label: label, Dump: d}
}

func genNIDs(rng *rand.Rand) map[string]uint64 {
	out := map[string]uint64{}
	for _, name := range jvmLifetimeThreads {
		out[name] = uint64(rng.IntN(1<<20) + 1)
	}
	return out
}

// TestProcessWarningsProperty: generated moments of one JVM (threads that
// come and go, lifetime threads left out at random, nids printed in hex
// or decimal, pid and version printed or not, in either format's words)
// never draw a caution; one moment swapped for another process's (its
// own nids, pid and version) draws exactly the cautions of the pairs it
// is in, naming both moments.
func TestProcessWarningsProperty(t *testing.T) {
	for seed := range 500 {
		rng := rand.New(rand.NewPCG(uint64(seed), 33))
		nids, pid, version := genNIDs(rng), 1000+rng.IntN(1000), "17.0.15+6-Debian"
		n := 2 + rng.IntN(4)
		var ms []Moment
		for i := range n {
			ms = append(ms, genJVMMoment(rng, fmt.Sprintf("m%d", i+1), nids, pid, version))
		}
		if w := processWarnings(ms); len(w) != 0 {
			t.Fatalf("seed %d: one process draws %q", seed, w)
		}
		k := rng.IntN(n)
		other := genNIDs(rng)
		for name, v := range other {
			if v == nids[name] {
				other[name] = v + 1
			}
		}
		ms[k] = genJVMMoment(rng, ms[k].Label, other, pid+1, "21.0.4+7-LTS")
		w := processWarnings(ms)
		want := 0
		if k > 0 {
			want++
		}
		if k < n-1 {
			want++
		}
		if len(w) != want {
			t.Fatalf("seed %d: moment %d of %d from another process draws %d cautions, want %d: %q", seed, k+1, n, len(w), want, w)
		}
		for _, c := range w {
			if !strings.HasPrefix(c, ms[k].Label+" and ") && !strings.Contains(c, "and "+ms[k].Label+" are not") {
				t.Fatalf("seed %d: a caution that does not name %s: %q", seed, ms[k].Label, c)
			}
		}
	}
}

// TestProcessWarningsReal: real dumps. Two runs of one program (the
// lock-order fixture's monitor and ReentrantLock runs) are two processes;
// every folder of one process's dumps in several formats or moments (the
// JDK 25 libraries in four formats, the recorded scenarios) is one.
func TestProcessWarningsReal(t *testing.T) {
	two := loadMoments(t, filepath.Join("..", "testdata", "verdicts", "jvm-lock-order-deadlock"), []string{"dump", "dump-reentrantlock"})
	r := Analyze(two, Options{})
	if len(r.Cautions) != 1 || !strings.Contains(r.Cautions[0], `"Reference Handler" thread is another OS thread`) || r.Warnings[0] != r.Cautions[0] {
		t.Errorf("two runs: cautions %q, warnings %q", r.Cautions, r.Warnings)
	}
	one := map[string][]string{
		"libs/jdk25-pinned":                           {"jstack.txt", "jcmd-print.txt", "dump.txt", "dump.json"},
		"libs/jdk25-vthreads":                         nil,
		"scenarios/hikari-pool-exhausted":             {"before", "during-1", "during-2", "after"},
		"scenarios/slow-upstream-no-timeout":          {"before", "during-1", "during-2", "after"},
		"scenarios/completablefuture-thread-per-task": {"before", "during-1", "during-2", "after"},
	}
	for dir, moments := range one {
		path := filepath.Join("..", "testdata", dir)
		if moments == nil {
			ents, _ := os.ReadDir(path)
			for _, e := range ents {
				if n := e.Name(); strings.HasSuffix(n, ".txt") || strings.HasSuffix(n, ".json") {
					moments = append(moments, n)
				}
			}
		}
		if _, err := os.Stat(path); err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		if r := Analyze(loadMoments(t, path, moments), Options{}); len(r.Cautions) != 0 {
			t.Errorf("%s, one process: %q", dir, r.Cautions)
		}
	}
}
