package analyze

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestSpinningByGrowthOverJitteredSchedules (issue 33, "spinning by
// evidence, not by edges; CPU growth outranks a top frame's look"):
// generated worlds of three jstack moments on a 5 s schedule with the
// jitter of real attaches (each dump 0–1.5 s late, the first slower),
// on hosts that give a runaway anything from a little over SpinCPUShare
// to all of a core at each step (a shared or throttled host), each with its
// random loop frames (an application's own map probe, a chain walk whose
// callee the JIT inlines at some safepoints and not at others). A thread
// whose CPU grows at every step is spinning; a twin in the same frames
// whose CPU grows by next to nothing (off CPU, caught in the same place)
// never is, whatever the schedule.
func TestSpinningByGrowthOverJitteredSchedules(t *testing.T) {
	rng := rand.New(rand.NewSource(33))
	base := time.Date(2026, 12, 7, 16, 0, 0, 0, time.UTC)
	for w := range 120 {
		var when [3]time.Time
		for i := range when {
			late := time.Duration(rng.Intn(1500)) * time.Millisecond
			if i == 0 {
				late += 700 * time.Millisecond // the first attach starts the listener
			}
			when[i] = base.Add(time.Duration(i)*5*time.Second + late)
		}
		type th struct {
			name  string
			spins bool
			share float64 // of a core, at each step (jittered)
			cls   string
			inl   bool // its callee inlined at some moments
		}
		var ths []th
		for k := range 1 + rng.Intn(3) {
			ths = append(ths, th{name: fmt.Sprintf("lookup-%d", k+1), spins: true, share: 1.25*SpinCPUShare + rng.Float64()*(1-1.25*SpinCPUShare),
				cls: fmt.Sprintf("com.example.w%d.Map%d", w, k), inl: rng.Intn(2) == 0})
		}
		ths = append(ths, th{name: "caught-idle", share: rng.Float64() * 0.004, cls: fmt.Sprintf("com.example.w%d.Scanner", w)})
		var in []Input
		cpu := make([]time.Duration, len(ths))
		for m := range 3 {
			var b strings.Builder
			fmt.Fprintf(&b, "%s\nFull thread dump OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1 mixed mode, sharing):\n\n", when[m].Format("2006-01-02 15:04:05"))
			elapsed := 20*time.Second + when[m].Sub(when[0])
			for i, x := range ths {
				if m > 0 {
					step := when[m].Sub(when[m-1])
					cpu[i] += time.Duration(float64(step) * x.share * (0.8 + 0.4*rng.Float64()))
				} else {
					cpu[i] = time.Duration(float64(20*time.Second) * x.share)
				}
				fmt.Fprintf(&b, "\"%s\" #%d prio=5 os_prio=0 cpu=%.2fms elapsed=%.2fs tid=0x00007f00000%04x nid=0x%x runnable  [0x00007f0000000000]\n   java.lang.Thread.State: RUNNABLE\n",
					x.name, 20+i, float64(cpu[i])/1e6, elapsed.Seconds(), i, 100+i)
				if !(x.inl && rng.Intn(2) == 0) {
					fmt.Fprintf(&b, "\tat %s.get(%s.java:%d)\n", x.cls, x.cls[strings.LastIndexByte(x.cls, '.')+1:], 20+rng.Intn(4))
				}
				fmt.Fprintf(&b, "\tat com.example.w%d.App.lambda$run$%d(App.java:60)\n\tat com.example.w%d.App$$Lambda$2/0x00007f8add005800.run(Unknown Source)\n\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)\n\n", w, i, w)
			}
			ds, err := parse.Parse(fmt.Sprintf("%d.txt", m+1), strings.NewReader(b.String()))
			if err != nil || len(ds) != 1 {
				t.Fatalf("world %d moment %d: %v", w, m+1, err)
			}
			in = append(in, Input{Label: fmt.Sprint(m + 1), Dump: ds[0]})
		}
		found := map[string]bool{}
		for _, f := range Analyze(in, Options{}).Findings {
			if f.Kind == KindSpinning {
				for _, ev := range f.Evidence {
					for _, n := range ev.Threads {
						found[n] = true
					}
				}
				found[f.Pool] = true
			}
		}
		for _, x := range ths {
			if found[x.name] != x.spins {
				t.Fatalf("world %d (dumps %s, %s, %s): %s at %.1f%% of a core (inlined callee: %v): spinning %v, want %v",
					w, when[0].Format("05.000"), when[1].Format("05.000"), when[2].Format("05.000"), x.name, 100*x.share, x.inl, found[x.name], x.spins)
			}
		}
	}
}
