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

// limitRun is how a generated pool's threads are run.
type limitRun int

const (
	runRight limitRun = iota // some thread, at some moment, runs the row's loop
	runOther                 // every thread runs another pool's loop
	runNone                  // no loop: threads started one per task
)

func (k limitRun) String() string { return [...]string{"right loop", "another loop", "no loop"}[k] }

// limitPoolName is a thread of a pool named like row pattern prefix…suffix
// ("http-nio-8080-exec-3", "qtp1431467659-12", "task-5").
func limitPoolName(prefix, suffix string, id, n int) string {
	if suffix == "" {
		return strings.TrimSuffix(prefix, "*") + fmt.Sprint(n)
	}
	return prefix + fmt.Sprint(id) + strings.TrimSuffix(suffix, "*") + fmt.Sprint(n)
}

// limitStack is one thread's frames: a random wait and application
// frames, over loop (none when "") and Thread.run.
func limitStack(rng *rand.Rand, loop string) []string {
	tops := [][]string{
		{"sun.nio.ch.SocketDispatcher.read0", "sun.nio.ch.NioSocketImpl.implRead"},
		{"jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park", "java.util.concurrent.LinkedBlockingQueue.take"},
		{"java.lang.Thread.sleep"},
		{"java.lang.Object.wait", "com.example.Jobs.await"},
	}
	fs := append([]string(nil), tops[rng.Intn(len(tops))]...)
	fs = append(fs, "com.example.Handler.handle", "com.example.Handler.lambda$submit$0")
	if loop != "" {
		fs = append(fs, loop)
	}
	return append(fs, "java.lang.Thread.run")
}

// otherLoops are the loops of pools other than the row with these loops:
// every known pool loop none of whose frames the row's loops match.
func otherLoops(loops []string) []string {
	var out []string
	all := append([]string(nil), poolLoops...)
	for _, k := range knownMax {
		all = append(all, k.loops...)
	}
	for _, l := range all {
		if !anyPrefix(l, loops) && !strings.HasPrefix(l, "java.lang.VirtualThread") {
			out = append(out, l)
		}
	}
	return out
}

// limitPoolInputs are the moments of one generated pool.
func limitPoolInputs(rng *rand.Rand, prefix, suffix string, loops []string, run limitRun) []Input {
	id := 1000 + rng.Intn(9000)
	moments := 1 + rng.Intn(3)
	others := otherLoops(loops)
	// the one thread that shows the right loop (runRight): the others may
	// show none, as a pool's thread caught outside its loop never is but a
	// partial stack could be; one is enough.
	rightAt, rightThread := rng.Intn(moments), 0
	var in []Input
	t0 := time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)
	for m := range moments {
		d := &parse.Dump{Format: parse.FormatJVMText, Time: t0.Add(time.Duration(m) * 15 * time.Second)}
		n := 2 + rng.Intn(9)
		for i := range n {
			loop := ""
			switch run {
			case runRight:
				if m == rightAt && i == rightThread || rng.Intn(2) == 0 {
					loop = loops[rng.Intn(len(loops))]
				}
			case runOther:
				loop = others[rng.Intn(len(others))]
			}
			t := &parse.Thread{JVM: &parse.JVM{Name: limitPoolName(prefix, suffix, id, i+1)}, State: "WAITING", Weight: 1}
			for _, f := range limitStack(rng, loop) {
				t.Frames = append(t.Frames, &parse.Frame{Func: f})
			}
			d.Threads = append(d.Threads, t)
		}
		in = append(in, Input{Label: fmt.Sprintf("m%d", m), Dump: d})
	}
	return in
}

// TestKnownLimitNeedsLoop: generated pools named like each limits row
// (and like a signatures file's [pool] with and without a loop key), run
// by the row's loop, another pool's loop, or none. The row's size applies
// exactly when some thread at some moment runs the row's loop (or the row
// has no loop); otherwise the pool has no known size and says which row
// its name matched.
func TestKnownLimitNeedsLoop(t *testing.T) {
	const acmeLoop = "com.acme.pool.AcmePool$Worker.run"
	ext, err := ParseExtensions(strings.NewReader("[pool]\nname = acme-looped-*\nmax = 64\nwhat = Acme worker pool size\nloop = "+acmeLoop+"\n\n[pool]\nname = acme-named-*\nmax = 12\n"), "sig")
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		prefix, suffix string
		max            int
		what, source   string
		loops          []string // the loops that confirm it; none: its name alone
	}
	rows := []row{
		{"acme-looped-*", "", 64, "Acme worker pool size", "configured", []string{acmeLoop}},
		{"acme-named-*", "", 12, "from the signatures file", "configured", nil},
	}
	for _, k := range knownMax {
		rows = append(rows, row{k.prefix, k.suffix, k.max, k.what, "default", k.loops})
	}
	rng := rand.New(rand.NewSource(33))
	cases := 0
	seen := map[string]int{}
	for range 2000 {
		r := rows[rng.Intn(len(rows))]
		run := limitRun(rng.Intn(3))
		loops := r.loops
		if len(loops) == 0 {
			loops = []string{acmeLoop} // a loop to run by (or not): the name alone decides
		}
		in := limitPoolInputs(rng, r.prefix, r.suffix, loops, run)
		res := Analyze(in, Options{Extensions: ext})
		var pl *Pool
		for _, p := range res.Pools {
			if !p.Internal && p.Name != "main" {
				if pl != nil {
					t.Fatalf("%s: two pools %s and %s", r.prefix, pl.Name, p.Name)
				}
				pl = p
			}
		}
		if pl == nil {
			t.Fatalf("%s%s: no pool", r.prefix, r.suffix)
		}
		got := knownLimitOf(ext, pl.Name, poolThreads(pl))
		confirmed := len(r.loops) == 0 || run == runRight
		cases++
		seen[fmt.Sprintf("%s %v %v", r.source, confirmed, run)]++
		if confirmed {
			if got.Max != r.max || got.Source != r.source || got.What != r.what || got.NamedLike != "" {
				t.Errorf("%s (%s), %s: %+v, want %d (%s) from %s", pl.Name, r.prefix+r.suffix, run, got, r.max, r.what, r.source)
			}
			continue
		}
		if got.Max != 0 || got.Source != "" || !strings.Contains(got.NamedLike, r.what) || !strings.Contains(got.NamedLike, r.loops[0]) {
			t.Errorf("%s (%s), %s: %+v, want no known size, named like %q", pl.Name, r.prefix+r.suffix, run, got, r.what)
		}
	}
	t.Logf("%d generated pools: %v", cases, seen)
}

// TestPoolLoopKey: a [pool]'s loop key is a comma list of frame prefixes;
// an empty one is refused with its position.
func TestPoolLoopKey(t *testing.T) {
	ext, err := ParseExtensions(strings.NewReader("[pool]\nname = a-*\nmax = 4\nloop = com.a.Pool$W.run, com.a.Pool2.loop\n"), "sig")
	if err != nil || len(ext.Pools) != 1 || len(ext.Pools[0].Loops) != 2 || ext.Pools[0].Loops[1] != "com.a.Pool2.loop" {
		t.Fatalf("%+v, %v", ext, err)
	}
	_, err = ParseExtensions(strings.NewReader("[pool]\nname = a-*\nmax = 4\nloop = ,\n"), "sig")
	if err == nil || !strings.Contains(err.Error(), "sig:4: loop") {
		t.Fatalf("want sig:4: loop error, got %v", err)
	}
}

// TestKnownLimitRealPools: real dumps' pools named like a limits row, each
// row's size confirmed by its loop, and the pools whose name alone matches:
// the hprof scene's task-N started one per task, and an application's own
// threads named http-nio-8080-exec-N run by no executor (the Actuator
// fixture's OrdersApp).
func TestKnownLimitRealPools(t *testing.T) {
	for _, c := range []struct {
		file, pool string
		max        int
	}{
		{"scenarios/slow-upstream-no-timeout/during-1.txt", "http-nio-18080-exec-*", 200}, // Tomcat 10.1: TaskThread
		{"libs/jvm-jetty-stuck/1.txt", "qtp1834188994-*", 200},                            // Jetty's QueuedThreadPool runner
		{"libs/jvm-executors/1.txt", "task-*", 8},                                         // Spring's ThreadPoolTaskExecutor
		{"libs/jvm-executors/1.txt", "scheduling-*", 1},                                   // Spring's ThreadPoolTaskScheduler
		{"hprof/threads-jdk17.jstack.txt", "task-*", 0},                                   // a thread per task, no executor
		{"hprof/threads-jdk25.hprof.gz", "task-*", 0},
		{"jvm/actuator/threaddump.txt", "http-nio-8080-exec-*", 0}, // OrdersApp's own threads, named like Tomcat's
	} {
		dumps, err := parse.ParseFile(filepath.Join("..", "testdata", c.file))
		if err != nil {
			t.Fatal(err)
		}
		var in []Input
		for _, d := range dumps {
			in = append(in, Input{Dump: d})
		}
		res := Analyze(in, Options{})
		var pl *Pool
		for _, p := range res.Pools {
			if p.Name == c.pool {
				pl = p
			}
		}
		if pl == nil {
			t.Errorf("%s: no pool %s", c.file, c.pool)
			continue
		}
		got := knownLimitOf(nil, pl.Name, poolThreads(pl))
		if got.Max != c.max || (c.max == 0) != (got.NamedLike != "") {
			t.Errorf("%s %s: %+v, want max %d", c.file, c.pool, got, c.max)
		}
	}
}
