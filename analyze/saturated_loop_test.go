package analyze

import (
	"fmt"
	"math/rand"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/parse"
)

// saturatedLoopInputs are three moments, 5 s apart, of one set of threads
// named prefix-N (the very same threads at each moment: same id and nid),
// every one in a socket read inside the task com.example.Handler runs,
// under an executor's loop when pooled, else on a thread of its own.
func saturatedLoopInputs(prefix string, n int, pooled bool) []Input {
	frames := []string{
		"sun.nio.ch.SocketDispatcher.read0", "sun.nio.ch.SocketDispatcher.read", "sun.nio.ch.NioSocketImpl.tryRead",
		"sun.nio.ch.NioSocketImpl.implRead", "sun.nio.ch.NioSocketImpl.read", "java.net.Socket$SocketInputStream.read",
		"com.example.Client.call", "com.example.Handler.lambda$spawn$0",
	}
	if pooled {
		frames = append(frames, "java.util.concurrent.ThreadPoolExecutor.runWorker", "java.util.concurrent.ThreadPoolExecutor$Worker.run")
	}
	frames = append(frames, "java.lang.Thread.run")
	t0 := time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)
	var in []Input
	for m := range 3 {
		d := &parse.Dump{Format: parse.FormatJVMText, Time: t0.Add(time.Duration(m) * 5 * time.Second)}
		for i := range n {
			t := &parse.Thread{ID: int64(40 + i), State: "RUNNABLE", Weight: 1,
				JVM: &parse.JVM{Name: fmt.Sprintf("%s-%d", prefix, i+1), NativeID: fmt.Sprintf("0x%x", 0x7000+i)}}
			for _, f := range frames {
				t.Frames = append(t.Frames, &parse.Frame{Func: f})
			}
			d.Threads = append(d.Threads, t)
		}
		in = append(in, Input{Label: fmt.Sprintf("m%d", m+1), Dump: d})
	}
	return in
}

// TestSaturatedByLoopNotName: generated sets of threads, all held in one
// read inside their task at three moments, named Thread-N (the JVM's name
// for a thread nobody named, also what a ThreadFactory returning new
// Thread(r) gives an executor's workers) or worker-N, run by an executor's
// loop or on threads of their own. A pool a pool's loop runs is saturated
// whatever its name; Thread-N threads of their own are no pool; and a
// crowd made one per task (CrowdMin and more: the thread-per-task finding
// claims it) is told once, as that crowd, never also as a saturated pool.
func TestSaturatedByLoopNotName(t *testing.T) {
	rng := rand.New(rand.NewSource(33))
	got := map[string]int{}
	for i := range 240 {
		prefix := []string{"Thread", "worker"}[rng.Intn(2)]
		pooled := rng.Intn(2) == 0
		n := 2 + rng.Intn(23)
		if rng.Intn(3) == 0 {
			n = CrowdMin + rng.Intn(80)
		}
		res := Analyze(saturatedLoopInputs(prefix, n, pooled), Options{})
		var saturated, crowd bool
		for _, f := range res.Findings {
			saturated = saturated || f.Kind == KindSaturated
			crowd = crowd || f.Kind == KindExplosion
		}
		// Threads of their own with a name of their own are a set the
		// saturated rule judges by size as before (from SaturatedMin: under
		// it, threads each in a loop of their own are no pool to fill).
		want := pooled || prefix == "worker" && n >= SaturatedMin && n < CrowdMin
		name := fmt.Sprintf("case %d: %d threads %s-N, pooled %v", i, n, prefix, pooled)
		if saturated != want {
			t.Errorf("%s: saturated %v, want %v", name, saturated, want)
		}
		if crowd && saturated {
			t.Errorf("%s: a thread-per-task crowd is also said as a saturated pool", name)
		}
		if !pooled && n >= CrowdMin && !crowd {
			t.Errorf("%s: a crowd of threads of their own gives no thread-per-task finding", name)
		}
		got[fmt.Sprintf("saturated=%v", saturated)]++
	}
	t.Logf("240 generated cases: %v", got)
}
