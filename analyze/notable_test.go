package analyze

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// The threads to look at first: what each program's source holds, and none
// in a healthy idle service (the controls).
func TestNotable(t *testing.T) {
	both := []string{"1", "2"}
	for _, tt := range []struct {
		dir  string
		want []string // "thread|why" of each line, in order; nil for none
	}{
		// Controls: idle servers, executors, the idle machinery.
		{"jvm-jetty-idle", nil}, {"jvm-netty-idle", nil}, {"jvm-executors", nil}, {"jvm-idle-libs", nil},
		{"jvm-idle-libs-jdk25", nil}, {"jvm-task-sleep-idle", nil}, {"jvm-kept-alive-serving", nil},
		// SleepyApp's request thread waits on futures its saturated pool
		// completes; the finding tells of the pool, not of it.
		{"jvm-task-sleep", []string{"checkout|the only thread of its pool is waiting"}},
		// ForkJoinApp's main joins the starved common pool's futures.
		{"jvm-common-pool-starved", []string{"main|main is waiting, not in a pool's loop"}},
	} {
		t.Run(tt.dir, func(t *testing.T) {
			r := Analyze(loadMoments(t, filepath.Join("..", "testdata", "libs", tt.dir), both), Options{})
			var got []string
			for _, n := range r.Notable {
				got = append(got, n.Thread+"|"+n.Why)
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("notable %q, want %q", got, tt.want)
			}
		})
	}
}

// A real service with no finding whose workers block on a monitor
// (corpus: three kill -3 dumps of a log server in catalina.out): the first
// screen names them.
func TestNotableCorpus(t *testing.T) {
	r := Analyze(corpusInputs(t, corpusJVM+"dumpdiff-gen__openjdk-17.0.15__catalina-out-log-with-3-sigquit-dumps.log"), Options{})
	if len(r.Findings) != 0 || len(r.Notable) != 1 || r.Notable[0].State != "monitor-blocked" || r.Notable[0].Count != 2 {
		t.Errorf("findings %d, notable %+v: want no finding and the two workers blocked on a monitor", len(r.Findings), r.Notable)
	}
}

// notables keeps nothing a thread between its passes but a bit: keeping
// each thread's stack info was 80 bytes a thread, 76 MB of the 3 × 1M
// analysis's peak (issue 31; the collector is off while dumpdiff reads, so
// every byte allocated is a byte of its peak). 20,000 goroutines, most of
// them possibly notable (waiting on a lock), and main waiting.
func TestNotablesBytesPerThread(t *testing.T) {
	const n = 20000
	var b strings.Builder
	b.WriteString("goroutine 1 [sync.Mutex.Lock]:\n" +
		"internal/sync.runtime_SemacquireMutex(0xc000099994?, 0x0?, 0x0?)\n\t/usr/local/go/src/runtime/sema.go:95 +0x25\n" +
		"internal/sync.(*Mutex).lockSlow(0xc000099990)\n\t/usr/local/go/src/internal/sync/mutex.go:149 +0x15d\n" +
		"internal/sync.(*Mutex).Lock(...)\n\t/usr/local/go/src/internal/sync/mutex.go:70\n" +
		"sync.(*Mutex).Lock(...)\n\t/usr/local/go/src/sync/mutex.go:46\n" +
		"main.main()\n\t/src/main.go:12 +0x1f\n\n")
	// One goroutine runs: a process whose every goroutine waits on a lock
	// is a finding of its own (heldWaits), which notables leave to it.
	b.WriteString("goroutine 2 [running]:\nmain.work()\n\t/src/main.go:40 +0x1f\ncreated by main.start in goroutine 1\n\t/src/main.go:31 +0x1f\n\n")
	for i := range n - 2 {
		fmt.Fprintf(&b, "goroutine %d [sync.Mutex.Lock]:\n"+
			"internal/sync.runtime_SemacquireMutex(0xc000012344?, 0x0?, 0x0?)\n\t/usr/local/go/src/runtime/sema.go:95 +0x25\n"+
			"internal/sync.(*Mutex).lockSlow(0xc000012340)\n\t/usr/local/go/src/internal/sync/mutex.go:149 +0x15d\n"+
			"internal/sync.(*Mutex).Lock(...)\n\t/usr/local/go/src/internal/sync/mutex.go:70\n"+
			"sync.(*Mutex).Lock(...)\n\t/usr/local/go/src/sync/mutex.go:46\n"+
			"main.update%d()\n\t/src/main.go:%d +0x2a\n"+
			"created by main.start in goroutine 1\n\t/src/main.go:30 +0x1f\n\n", i+3, i%3, 20+i%3)
	}
	ds, err := parse.Parse("notables.txt", strings.NewReader(b.String()))
	if err != nil || len(ds) != 1 || len(ds[0].Threads) != n {
		t.Fatalf("parse: %v", err)
	}
	r, opt, bd := prepare([]Input{{Dump: ds[0]}}, Options{})
	runDetectors(r, opt, bd.classes, bd.goLocks)
	got := notables(r, bd.classes)
	if len(got) == 0 || got[0].Thread != "goroutine 1" {
		t.Fatalf("notables %+v: want main (goroutine 1) first", got)
	}
	const runs = 5
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		notables(r, bd.classes)
	}
	runtime.ReadMemStats(&after)
	perThread := float64(after.TotalAlloc-before.TotalAlloc) / runs / n
	// The bit a thread is an eighth of a byte; the rest (the pools' sizes,
	// the lines) does not grow with the threads.
	if perThread > 1 {
		t.Errorf("notables allocates %.2f bytes a thread, want at most 1 (a bit a thread and a few lines)", perThread)
	}
	t.Logf("%.3f bytes a thread", perThread)
}
