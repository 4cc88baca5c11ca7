package analyze

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestPoolBarrierFixtures (issue 33): pool tasks that meet at a
// CyclicBarrier, a CountDownLatch and a Phaser whose last party is queued
// behind them wait for peers (basis pool-barrier-wait, its own advice),
// not for work they submitted; the same pools whose last party is a live
// coordinator are quiet (testdata/gen/verdicts-keptalive, Java 17 and
// Temurin 25).
func TestPoolBarrierFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	peers := func(n int) func(t *testing.T, f Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, "pool-barrier-wait")
			eq(t, "threads", len(f.Cycle), n)
			eq(t, "remedy", strings.Contains(f.Remedy, "wait for each other at a latch, barrier or phaser"), true)
		}
	}
	var tests []fixtureCase
	for _, p := range []string{"", "jdk25-"} {
		for _, cut := range [][]string{{"1", "2", "3"}, {"2", "3"}} {
			var ws []want
			for _, pool := range []struct {
				name string
				n    int
			}{{"batch-worker-*", 3}, {"gather-worker-*", 2}, {"phase-worker-*", 2}} {
				ws = append(ws, want{KindDeadlock, pool.name, "latch-wait", peers(pool.n)}, want{KindStuck, pool.name, "latch-wait", nil},
					want{KindSaturated, pool.name, "latch-wait", nil})
			}
			tests = append(tests, fixtureCase{p + "pool-barrier-stuck", cut, ws}, fixtureCase{p + "pool-barrier-healthy", cut, nil})
		}
		tests = append(tests, fixtureCase{p + "pool-barrier-stuck", []string{"1"}, nil})
	}
	runFixtureCases(t, dir, tests)
}

// TestPoolBarrierByStructure (generated): the real pool-barrier-stuck
// dumps with a thread drawn at random added at every moment, and one
// worker's cpu= sometimes grown at the last. A pool's barrier deadlock is
// said exactly when no added thread runs the tasks' class
// (com.example.keptalive2.PoolBarrierApp) outside an untimed wait, none
// runs at all, and none of its workers ran between the dumps.
func TestPoolBarrierByStructure(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts", "pool-barrier-stuck")
	var texts []string
	for _, m := range []string{"1", "2", "3"} {
		b, err := os.ReadFile(filepath.Join(dir, m+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(b))
	}
	states := []struct {
		state, top string
		acts       bool
	}{
		{"TIMED_WAITING (sleeping)", "java.lang.Thread.sleep(java.base@17.0.15/Native Method)", true},
		{"RUNNABLE", "java.io.FileOutputStream.writeBytes(java.base@17.0.15/Native Method)", true},
		{"WAITING (on object monitor)", "java.lang.Object.wait(java.base@17.0.15/Native Method)", false},
	}
	pools := []string{"batch-worker", "gather-worker", "phase-worker"}
	rng := rand.New(rand.NewSource(33))
	said := 0
	for i := range 150 {
		st := states[rng.Intn(len(states))]
		fn := "com.example.other.Poller.run(Poller.java:12)"
		coordinator := false
		if rng.Intn(2) == 0 {
			fn = "com.example.keptalive2.PoolBarrierApp.lambda$coordinate$9(PoolBarrierApp.java:99)"
			coordinator = st.acts
		}
		add := fmt.Sprintf("\"gen-1\" #300 daemon prio=5 os_prio=0 cpu=1.00ms elapsed=9.00s tid=0x00007f0000000300 nid=0xb000 runnable  [0x00007f0000000000]\n   java.lang.Thread.State: %s\n\tat %s\n\tat %s\n\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)\n\n", st.state, st.top, fn)
		ran := ""
		if rng.Intn(3) == 0 {
			ran = pools[rng.Intn(len(pools))]
		}
		cpuRe := regexp.MustCompile(`("` + ran + `-1" #\d+ prio=5 os_prio=0 cpu=)([0-9.]+)ms`)
		var in []Input
		for m, text := range texts {
			text = strings.Replace(text, "\"main\" #1 ", add+"\"main\" #1 ", 1)
			if ran != "" && m == 2 {
				text = cpuRe.ReplaceAllString(text, "${1}99.00ms")
			}
			ds, err := parse.Parse(fmt.Sprintf("%d.txt", m+1), strings.NewReader(text))
			if err != nil {
				t.Fatal(err)
			}
			in = append(in, Input{Label: fmt.Sprint(m + 1), Dump: ds[0]})
		}
		r := Analyze(in, Options{})
		got := map[string]bool{}
		for _, f := range r.Findings {
			if f.Basis == "pool-barrier-wait" || f.Basis == "pool-self-wait" {
				eq(t, "basis", f.Basis, "pool-barrier-wait")
				got[strings.TrimSuffix(f.Pool, "-*")] = true
			}
		}
		for _, pl := range pools {
			// A thread at work anywhere may yet arrive (poolSelfWaits' busy
			// rule, older than this test): only rests and waits leave it.
			want := !coordinator && ran != pl && st.state != "RUNNABLE"
			if got[pl] != want {
				t.Fatalf("case %d: %s deadlock %v, want %v (added %s in %s; ran %q)", i, pl, got[pl], want, st.state, fn, ran)
			}
			if want {
				said++
			}
		}
	}
	if said < 100 || said > 350 {
		t.Fatalf("the draw is lopsided: %d of 450 said", said)
	}
	t.Logf("%d of 450 pools said", said)
}
