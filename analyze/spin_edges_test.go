package analyze

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/parse"
)

// spinMoment writes one jstack -l moment at time at of a thread "loop-1"
// with cpu= cpu and elapsed= life: its application frames
// (com.example.Loop.run, and app on top of it when app is set) under
// depth frames of library code named after the moment (so that two
// moments' library frames share no function), under top: "" for running
// library code, "selector" for a selectNow's epoll, "sleep0" for a
// Thread.sleep(0) the JVM prints RUNNABLE.
func spinMoment(at time.Time, m int, cpu, life time.Duration, top, app string, depth int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\nFull thread dump OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1 mixed mode, sharing):\n\n", at.Format("2006-01-02 15:04:05"))
	fmt.Fprintf(&b, "\"loop-1\" #12 prio=5 os_prio=0 cpu=%.2fms elapsed=%.2fs tid=0x00007f0000001000 nid=0x100 runnable  [0x00007f0000000000]\n"+
		"   java.lang.Thread.State: RUNNABLE\n", float64(cpu)/float64(time.Millisecond), life.Seconds())
	switch top {
	case "selector":
		b.WriteString("\tat sun.nio.ch.EPoll.wait(java.base@17.0.15/Native Method)\n" +
			"\tat sun.nio.ch.EPollSelectorImpl.doSelect(java.base@17.0.15/EPollSelectorImpl.java:118)\n" +
			"\tat sun.nio.ch.SelectorImpl.lockAndDoSelect(java.base@17.0.15/SelectorImpl.java:129)\n" +
			"\tat sun.nio.ch.SelectorImpl.selectNow(java.base@17.0.15/SelectorImpl.java:151)\n")
	case "sleep0":
		b.WriteString("\tat java.lang.Thread.sleep(java.base@17.0.15/Native Method)\n")
	}
	for i := range depth {
		fmt.Fprintf(&b, "\tat org.apache.commons.gen.M%dF%d.call(M%dF%d.java:%d)\n", m, depth-i, m, depth-i, 10+i)
	}
	if app != "" {
		fmt.Fprintf(&b, "\tat com.example.Loop.%s(Loop.java:%d)\n", app, 30+m)
	}
	b.WriteString("\tat com.example.Loop.run(Loop.java:20)\n" +
		"\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)\n\n   Locked ownable synchronizers:\n\t- None\n\n")
	return b.String()
}

// TestSpinningScheduleProperty: over generated moment sequences, a thread
// busy for the same application call at three dumps taken on a 5 s
// schedule, each dump up to 1 s early or late (the dates print whole
// seconds), under library code of any depth (0–30 frames, none shared
// between moments), is spinning on its CPU growth alone, whatever its top
// frame: running library code, a selectNow that returns at once
// (SpinRestCPUShare), a Thread.sleep(0); so is it over two dumps 5 s
// apart, for its CPU in those frames (a third of a core or more over 5 s)
// is past SpinMinCPU: the CPU is the evidence, not the span. The same
// sequences stay quiet when the CPU did not grow (under the share) and
// when the thread does other application work at each moment.
func TestSpinningScheduleProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 5))
	base := time.Date(2026, 12, 6, 18, 0, 0, 0, time.UTC)
	analyze := func(t *testing.T, texts []string) []Finding {
		var in []Input
		for i, text := range texts {
			ds, err := parse.Parse(fmt.Sprintf("%d.txt", i+1), strings.NewReader(text))
			if err != nil {
				t.Fatal(err)
			}
			in = append(in, Input{Dump: ds[0]})
		}
		return Analyze(in, Options{}).Findings
	}
	jitter := func() time.Duration { return time.Duration((rng.Float64()*2 - 1) * float64(time.Second)) }
	for i := range 400 {
		top := []string{"", "selector", "sleep0"}[rng.IntN(3)]
		depth := rng.IntN(31)
		floor := SpinCPUShare
		if top == "selector" {
			floor = SpinRestCPUShare
		}
		c := []string{"spins", "cpu-flat", "two-dumps", "other-work"}[rng.IntN(4)]
		share := 0.3 + 0.7*rng.Float64() // a hot loop's share of a core on a shared host
		if c == "cpu-flat" {
			share = floor * 0.9 * rng.Float64()
		}
		moments := []int{0, 1, 2}
		if c == "two-dumps" {
			moments = moments[1:]
		}
		// The thread has lived a minute, mostly idle, before the first
		// dump: its life's share stays under SpinLifeShare.
		life0, cpu0 := 60*time.Second+time.Duration(rng.IntN(600))*time.Second, time.Duration(rng.IntN(5000))*time.Millisecond
		var texts []string
		var first time.Time
		for _, m := range moments {
			at := base.Add(time.Duration(m)*5*time.Second + jitter())
			if first.IsZero() {
				first = at
			}
			wall := at.Sub(first)
			app := ""
			if c == "other-work" {
				app = []string{"importOrders", "sendMail", "rebuildIndex"}[m]
			}
			texts = append(texts, spinMoment(at, m, cpu0+time.Duration(share*float64(wall)), life0+wall, top, app, depth))
		}
		want := c == "spins" || c == "two-dumps"
		var got []string
		for _, f := range analyze(t, texts) {
			got = append(got, f.Kind+" "+f.Pool)
		}
		spins := len(got) == 1 && got[0] == KindSpinning+" loop-*"
		if spins != want || !want && len(got) > 0 {
			t.Errorf("case %d (%s, top %q, depth %d, share %.2f): findings %v, want spinning %v", i, c, top, depth, share, got, want)
		}
	}
}

// TestSpinningEdgeFixtures judges the real programs of the spinning edges
// (testdata/verdicts/{jvm,jdk25}-spin-{sleep0,deep,selectnow,resubmit},
// three jstack dumps on a 5 s schedule that span 9.35–11 s; see each
// README.md, written from the source before dumpdiff ran) and their
// healthy control, the same shapes at rest.
func TestSpinningEdgeFixtures(t *testing.T) {
	busy := func(loop string) func(t *testing.T, f Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "severity", f.Severity, Warning) // nothing waits for it
			eq(t, "basis", f.Basis, "cpu-growth")
			eq(t, "loop caller", strings.Contains(f.ID, loop), true)
			cpuShare(t, f)
		}
	}
	poller := func(name, loop string) want { return want{KindSpinning, name, "running", busy(loop)} }
	var tests []fixtureCase
	for _, jdk := range []string{"jvm", "jdk25"} {
		all := []string{"1", "2", "3"}
		tests = append(tests,
			fixtureCase{jdk + "-spin-sleep0", all, []want{
				poller("flag-poller", "SleepZeroApp.awaitFlagSleeping"), poller("yield-poller", "SleepZeroApp.awaitFlagYielding"),
				poller("spin-poller", "SleepZeroApp.awaitFlagSpinning")}},
			fixtureCase{jdk + "-spin-deep", all, []want{poller("config-reloader", "DeepSpinApp$ConfigReloader.load")}},
			fixtureCase{jdk + "-spin-selectnow", all, []want{{KindSpinning, "ingest-poller", "running", func(t *testing.T, f Finding) {
				busy("SelectNowApp.pollLoop")(t, f)
				if share := float64(f.CPU) / float64(f.Wall); share < SpinRestCPUShare {
					t.Errorf("a selector's top frame spins from SpinRestCPUShare; got %.2f", share)
				}
			}}}},
			fixtureCase{jdk + "-spin-resubmit", all, []want{poller("retry-*", "ResubmitApp$RetryTask.run")}},
			fixtureCase{jdk + "-rest-edges", all, nil},
			// Two dumps 5 s apart: config-reloader burned 1.3 s (jvm) and
			// 2.0 s (jdk25) of CPU in the same frames between them, past
			// SpinMinCPU, 13.7-13.8 s old at the last (past SpinMinAge):
			// the CPU is the evidence, whatever the span.
			fixtureCase{jdk + "-spin-deep", []string{"2", "3"}, []want{poller("config-reloader", "DeepSpinApp$ConfigReloader.load")}},
		)
	}
	// A public source (parttimenerd/jthreaddump's cpu-hotspot scenario,
	// OpenJDK 25 on macOS, dumps 2 s apart): a pool computing at a core
	// each over 8.3 s of its own elapsed=, over SpinMinWall; with the sixth
	// dump, where the pool is gone, the computation ended: nothing.
	hot := []string{"dump-0.txt", "dump-1.txt", "dump-2.txt", "dump-3.txt", "dump-4.txt"}
	tests = append(tests,
		fixtureCase{"public-jthreaddump-cpu-hotspot", hot, []want{{KindSpinning, "pool-4-thread-*", "running", func(t *testing.T, f Finding) {
			busy("TestScenarios$1.hotMethod")(t, f)
			eq(t, "threads", f.Counts[4], 4)
		}}}},
		fixtureCase{"public-jthreaddump-cpu-hotspot", append(hot, "dump-5.txt"), nil},
	)
	runFixtureCases(t, filepath.Join("..", "testdata", "verdicts"), tests)
}
