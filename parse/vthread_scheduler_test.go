package parse

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The scheduler's readings, as real JVMs printed them: jcmd on Temurin 25
// in the QuoteService captures (testdata/verdicts/vthread-sched-*:
// saturated by CPU-bound requests, by pinned ones, and the healthy
// control, whose line adds "delayed") and the Tomcat ones, and the
// MXBean's toString.
func TestVThreadSchedulerFixtures(t *testing.T) {
	verdicts := filepath.Join("..", "testdata", "verdicts")
	tests := []struct {
		glob string
		want []VThreadScheduler // in file name order
	}{
		{"vthread-sched-cpu/*-vthread-scheduler.txt", []VThreadScheduler{
			{State: "Running", Parallelism: 4, Size: 4, Mounted: 4, Queued: 1143, Delayed: -1},
			{State: "Running", Parallelism: 4, Size: 4, Mounted: 4, Queued: 1600, Delayed: -1},
			{State: "Running", Parallelism: 4, Size: 4, Mounted: 4, Queued: 2075, Delayed: -1}}},
		{"vthread-sched-pinned/*-vthread-scheduler.txt", []VThreadScheduler{
			{State: "Running", Parallelism: 4, Size: 4, Mounted: 4, Queued: 705, Delayed: -1},
			{State: "Running", Parallelism: 4, Size: 4, Mounted: 4, Queued: 1694, Delayed: -1},
			{State: "Running", Parallelism: 4, Size: 4, Mounted: 4, Queued: 2455, Delayed: -1}}},
		{"vthread-sched-healthy/*-vthread-scheduler.txt", []VThreadScheduler{
			{State: "Running", Parallelism: 4, Size: 4, Mounted: 0, Queued: 0, Delayed: 8},
			{State: "Running", Parallelism: 4, Size: 4, Mounted: 0, Queued: 0, Delayed: 9},
			{State: "Running", Parallelism: 4, Size: 4, Mounted: 0, Queued: 0, Delayed: 9}}},
		{"vthread-sched-tomcat-cpu/*-vthread-scheduler.txt", []VThreadScheduler{
			{State: "Running", Parallelism: 2, Size: 2, Mounted: 2, Queued: 112, Delayed: 0},
			{State: "Running", Parallelism: 2, Size: 2, Mounted: 2, Queued: 157, Delayed: 0},
			{State: "Running", Parallelism: 2, Size: 2, Mounted: 2, Queued: 220, Delayed: 0}}},
		{"vthread-sched-tomcat-healthy/*-vthread-scheduler.txt", []VThreadScheduler{
			{State: "Running", Parallelism: 2, Size: 2, Mounted: 0, Queued: 0, Delayed: 2},
			{State: "Running", Parallelism: 2, Size: 2, Mounted: 1, Queued: 0, Delayed: 1},
			{State: "Running", Parallelism: 2, Size: 2, Mounted: 0, Queued: 0, Delayed: 2}}},
		{"../jvm/vthread-scheduler/mxbean-25.txt", []VThreadScheduler{
			{Parallelism: 2, Size: 2, Mounted: 2, Queued: 18, Delayed: -1}}},
	}
	for _, tt := range tests {
		files, _ := filepath.Glob(filepath.Join(verdicts, tt.glob))
		if len(files) != len(tt.want) {
			t.Fatalf("%s: %d files, want %d (regenerate with make fixtures)", tt.glob, len(files), len(tt.want))
		}
		for i, f := range files {
			ds, err := ParseFile(f)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if len(ds) != 1 || ds[0].Format != FormatVThreadScheduler || ds[0].Scheduler == nil || len(ds[0].Threads) != 0 || len(ds[0].Skipped) != 0 {
				t.Fatalf("%s: %d dumps %+v", f, len(ds), ds[0])
			}
			got := *ds[0].Scheduler
			got.Pool = ""
			if diff := cmp.Diff(tt.want[i], got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", f, diff)
			}
			if !strings.Contains(f, "mxbean") && (ds[0].ProcessID == 0 || !strings.HasPrefix(ds[0].Scheduler.Pool, "java.util.concurrent.ForkJoinPool@")) {
				t.Errorf("%s: pid %d, pool %q", f, ds[0].ProcessID, ds[0].Scheduler.Pool)
			}
		}
	}
	// A JVM before JDK 24 refuses the command: its answer is no reading.
	if _, err := ParseFile(filepath.Join("..", "testdata", "jvm", "vthread-scheduler", "jcmd-17-refused.txt")); err == nil {
		t.Error("the refusal of a Java 17 JVM read as a scheduler")
	}
}

// Bad readings: an error at the line, nothing guessed.
func TestVThreadSchedulerErrors(t *testing.T) {
	const pool = "java.util.concurrent.ForkJoinPool@1"
	tests := []struct{ name, in, err string }{
		{"count not a number", "42:\n" + pool + "[Running, parallelism = 4, size = 4, active = x, tasks = 0, submissions = 0]\n",
			`s.txt:2: virtual-thread scheduler: active = "x" is not a count`},
		{"negative", pool + "[Running, parallelism = 4, active = -1, tasks = 0, submissions = 0]\n",
			`s.txt:1: virtual-thread scheduler: active = "-1" is not a count`},
		{"twice", pool + "[Running, parallelism = 4, parallelism = 4, active = 1]\n",
			"s.txt:1: virtual-thread scheduler: parallelism printed twice"},
		{"an item without a value", pool + "[Running, parallelism = 4, busy]\n",
			`s.txt:1: virtual-thread scheduler: item "busy" is not key = value`},
		{"no parallelism", "[size=2, mounted=2, queued=18, parallelism]\n", `s.txt:1: virtual-thread scheduler: item "parallelism" is not key = value`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseVThreadScheduler("s.txt", []byte(tt.in), nil)
			if err == nil || !strings.HasPrefix(err.Error(), tt.err) {
				t.Errorf("error %v, want %q", err, tt.err)
			}
		})
	}
	// JDK 24 prints its timers after the scheduler's line (the format of
	// JDK-8339420's sample, counts of our own): their queued tasks are the
	// pending timeouts, JDK 25's "delayed"; a line of neither is kept.
	jdk24 := "4242:\n" + pool + "[Running, parallelism = 8, size = 8, active = 8, running = 0, steals = 40, tasks = 12, submissions = 300]\n\n" +
		"Delayed task schedulers:\n" +
		"[0] java.util.concurrent.ScheduledThreadPoolExecutor@219727f4[Running, pool size = 1, active threads = 0, queued tasks = 5, completed tasks = 9]\n" +
		"[1] java.util.concurrent.ScheduledThreadPoolExecutor@71602cb5[Running, pool size = 0, active threads = 0, queued tasks = 0, completed tasks = 0]\n" +
		"[2] java.util.concurrent.ScheduledThreadPoolExecutor@3242d43a[Running, pool size = 1, active threads = 0, queued tasks = 2, completed tasks = 1]\n" +
		"Something new: 7\n"
	ds, err := Parse("s.txt", strings.NewReader(jdk24))
	if err != nil || ds[0].Scheduler == nil {
		t.Fatalf("JDK 24: %v %+v", err, ds)
	}
	want := VThreadScheduler{Pool: pool, State: "Running", Parallelism: 8, Size: 8, Mounted: 8, Queued: 312, Delayed: 7}
	if diff := cmp.Diff(want, *ds[0].Scheduler); diff != "" || ds[0].ProcessID != 4242 || len(ds[0].Skipped) != 1 || ds[0].Skipped[0].Line != 8 {
		t.Errorf("JDK 24 (-want +got):\n%s\npid %d, skipped %+v", diff, ds[0].ProcessID, ds[0].Skipped)
	}
	// An item the parser does not know is kept, with its line, not dropped.
	ds, err = parseVThreadScheduler("s.txt", []byte(pool+"[Running, parallelism = 4, active = 4, tasks = 1, submissions = 2, blocked = 3]\n"), nil)
	if err != nil || ds[0].Scheduler.Queued != 3 || len(ds[0].Skipped) != 1 || ds[0].Skipped[0].Text != "blocked = 3" || ds[0].Skipped[0].Line != 1 {
		t.Errorf("err %v, dump %+v", err, ds)
	}
	// The MXBean of a JVM without continuations prints no counts but the
	// parallelism: read as not printed, never as a count.
	ds, err = parseVThreadScheduler("s.txt", []byte("[parallelism=2147483647, size=<unavailable>, mounted=<unavailable>, queued=<unavailable>]"), nil)
	if err != nil || ds[0].Scheduler.Mounted != -1 || ds[0].Scheduler.Queued != -1 || ds[0].Scheduler.Size != -1 {
		t.Errorf("err %v, scheduler %+v", err, ds[0].Scheduler)
	}
}

// Generated readings, printed as jcmd or the MXBean prints them (items in
// any order, a pid line or none, items the parser does not know between):
// each reads back to its counts, through the detection chain.
func TestVThreadSchedulerGenerated(t *testing.T) {
	rng := rand.New(rand.NewPCG(36, 24))
	for i := range 500 {
		want := VThreadScheduler{State: "Running", Parallelism: 1 + rng.IntN(512), Size: rng.IntN(1024), Mounted: rng.IntN(512), Delayed: -1}
		tasks, subs := rng.Int64N(1<<40), rng.Int64N(1<<20)
		items := []string{fmt.Sprintf("parallelism = %d", want.Parallelism), fmt.Sprintf("size = %d", want.Size),
			fmt.Sprintf("active = %d", want.Mounted), fmt.Sprintf("tasks = %d", tasks), fmt.Sprintf("submissions = %d", subs),
			fmt.Sprintf("running = %d", rng.IntN(9)), fmt.Sprintf("steals = %d", rng.Int64())}
		want.Queued = tasks + subs
		mx := rng.IntN(3) == 0
		if mx {
			want.State = ""
			items = []string{fmt.Sprintf("parallelism=%d", want.Parallelism), fmt.Sprintf("size=%d", want.Size),
				fmt.Sprintf("mounted=%d", want.Mounted), fmt.Sprintf("queued=%d", want.Queued)}
		}
		if !mx && rng.IntN(2) == 0 {
			want.Delayed = rng.Int64N(1000)
			items = append(items, fmt.Sprintf("delayed = %d", want.Delayed))
		}
		rng.Shuffle(len(items), func(a, b int) { items[a], items[b] = items[b], items[a] })
		pool := ""
		if !mx {
			pool = fmt.Sprintf("java.util.concurrent.ForkJoinPool@%x", rng.Uint32())
			items = append([]string{want.State}, items...)
		}
		want.Pool = pool
		text := pool + "[" + strings.Join(items, ", ") + "]\n"
		if rng.IntN(2) == 0 {
			text = fmt.Sprintf("%d:\n", 1+rng.IntN(1<<22)) + text
		}
		ds, err := Parse("gen.txt", strings.NewReader(text))
		if err != nil {
			t.Fatalf("case %d %q: %v", i, text, err)
		}
		if ds[0].Scheduler == nil {
			t.Fatalf("case %d %q: read as %s", i, text, ds[0].Format)
		}
		if diff := cmp.Diff(want, *ds[0].Scheduler); diff != "" {
			t.Fatalf("case %d %q (-want +got):\n%s", i, text, diff)
		}
	}
}
