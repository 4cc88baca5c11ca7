package capture

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// checkLoadLabels wants before, during-1..during-k (k >= minDuring), after.
func checkLoadLabels(t *testing.T, got []string, minDuring int) {
	t.Helper()
	if len(got) < 2+minDuring || got[0] != "before" || got[len(got)-1] != "after" {
		t.Fatalf("labels %v, want before, at least %d during, after", got, minDuring)
	}
	for i, l := range got[1 : len(got)-1] {
		if want := "during-" + strconv.Itoa(i+1); l != want {
			t.Errorf("label %d = %q, want %q", i+1, l, want)
		}
	}
}

// Around a real load command: goroutines appear while it runs (started and
// stopped from the load events) and the dumps show it.
func TestLoadSchedule(t *testing.T) {
	t.Parallel()
	s := newPprofServer(t, nil)
	dir := t.TempDir()
	var p *parked
	m, out, err := run(t, context.Background(), Plan{
		Targets: []Target{PprofTarget("api", s.URL)},
		Load:    "echo load-begin; sleep 0.5; echo load-end",
		Every:   50 * time.Millisecond,
		After:   10 * time.Millisecond,
		OutDir:  dir,
	}, func(e Event) {
		switch e.Kind {
		case EventLoadStart:
			p = startParked(4, parkedDuringLoad)
		case EventLoadExit:
			p.stopAndWait()
		}
	})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	checkOutDir(t, dir, m)
	checkLoadLabels(t, labels(m), 1)
	for _, f := range m.Dumps("api") {
		want := 4
		if f.Moment == "before" || f.Moment == "after" {
			want = 0
		}
		if got := strings.Count(readFile(t, dir, f.Path), "capture.parkedDuringLoad("); got != want {
			t.Errorf("%s: %d parked goroutines, want %d", f.Path, got, want)
		}
	}
	l := m.Load
	if l == nil || l.ExitCode != 0 || l.Error != "" || l.Running() || l.OutputTail != "load-begin\nload-end\n" {
		t.Errorf("load record %+v, want exit 0 with output", l)
	}
	if m.Schedule.Kind != "load" || m.Schedule.Every != "50ms" || m.Schedule.After != "10ms" {
		t.Errorf("schedule %+v", m.Schedule)
	}
	if !containsAll(out, "load started: echo load-begin", "load exited: status 0 after", "next after at") {
		t.Errorf("progress lacks load lines:\n%s", out)
	}
}

// A failing load is recorded; the schedule still takes "after".
func TestLoadFails(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	text := writeProfile(t, 2)
	m, _, err := run(t, context.Background(), Plan{
		Targets: []Target{ExecTarget("x", "cat "+text)},
		Load:    "echo boom >&2; exit 3",
		Every:   50 * time.Millisecond,
		After:   -1, // at once
		OutDir:  dir,
	}, nil)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	checkOutDir(t, dir, m)
	checkLoadLabels(t, labels(m), 0)
	if l := m.Load; l.ExitCode != 3 || l.Error != "exit status 3" || l.OutputTail != "boom\n" {
		t.Errorf("load record %+v, want exit 3 with boom", l)
	}
}

// Cancelling while a moment is in flight: the slow file is discarded, the
// fast one kept, the manifest says why, Run says what was kept.
func TestCancelMidMoment(t *testing.T) {
	t.Parallel()
	fast := newPprofServer(t, nil)
	slowInFlight, fastDone := make(chan struct{}), make(chan struct{})
	var once sync.Once
	slow := newHandlerServer(t, fullDumpOnly(realDebug1(t), func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("goroutine 1 [running]:\n"))
		w.(http.Flusher).Flush()
		once.Do(func() { close(slowInFlight) })
		<-r.Context().Done() // a dump that never ends
	}))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-fastDone
		<-slowInFlight
		cancel() // like Ctrl-C: the slow dump is still arriving
	}()
	dir := t.TempDir()
	m, out, err := run(t, ctx, Plan{
		Targets: []Target{PprofTarget("fast", fast.URL), PprofTarget("slow", slow.URL)},
		Count:   3, Every: time.Millisecond, OutDir: dir,
	}, func(e Event) {
		if e.Kind == EventFile && e.File.Target == "fast" && e.File.Primary && e.File.OK() && e.Moment == "1" {
			close(fastDone)
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run error %v, want context.Canceled", err)
	}
	// Kept: fast's debug=1 and dump, slow's debug=1.
	if want := "interrupted after 1 moment: 3 files kept in " + dir + ", 1 discarded: context canceled"; err.Error() != want {
		t.Errorf("Run error %q, want %q", err, want)
	}
	checkOutDir(t, dir, m)
	if m.Error == "" || m.Finished.IsZero() {
		t.Errorf("manifest error %q finished %v, want both set", m.Error, m.Finished)
	}
	if len(m.Dumps("fast")) != 1 || len(filesOf(m, "fast", FileGoroutineDebug1)) != 1 {
		t.Errorf("fast target's files were not kept: %+v", m.Files)
	}
	if f := filesOf(m, "slow", FileGoroutine); len(f) != 1 || !f[0].Interrupted || !strings.HasPrefix(f[0].Error, "slow at 1: goroutine debug=2: interrupted, nothing kept") {
		t.Errorf("slow file %+v, want interrupted", f)
	}
	if m.Faults() != 0 || m.Failed() != 1 {
		t.Errorf("faults %d, failed %d: want the cut file counted as failed, not as a fault", m.Faults(), m.Failed())
	}
	if !strings.HasSuffix(out, " interrupted after 1 moment: 3 files kept in "+dir+", 1 discarded: context canceled\n") {
		t.Errorf("progress lacks the summary:\n%s", out)
	}
}

// Cancelling between moments keeps every file already taken.
func TestCancelBetweenMoments(t *testing.T) {
	t.Parallel()
	s := newPprofServer(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := t.TempDir()
	m, _, err := run(t, ctx, Plan{
		Targets: []Target{PprofTarget("api", s.URL)},
		Count:   5, Every: time.Hour, OutDir: dir, // only a cancel ends the wait
	}, func(e Event) {
		if e.Kind == EventNext && e.Moment == "2" {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run error %v, want context.Canceled", err)
	}
	checkOutDir(t, dir, m)
	if len(m.Moments) != 1 || len(m.Dumps("api")) != 1 || !strings.Contains(m.Error, "interrupted after 1 moment: ") || m.Failed() != 0 {
		t.Errorf("manifest %d moments %d dumps error %q", len(m.Moments), len(m.Dumps("api")), m.Error)
	}
}

// Cancelling while the load runs stops the load's process group and records it.
func TestCancelDuringLoad(t *testing.T) {
	t.Parallel()
	text := writeProfile(t, 2)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := t.TempDir()
	m, _, err := run(t, ctx, Plan{
		Targets: []Target{ExecTarget("x", "cat "+text)},
		Load:    "sleep 30 & sleep 30; wait",
		Every:   time.Hour, OutDir: dir,
	}, func(e Event) {
		if e.Kind == EventLoadStart {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run error %v, want context.Canceled", err)
	}
	checkOutDir(t, dir, m)
	l := m.Load
	if l == nil || l.Running() || l.ExitCode != -1 || !strings.HasPrefix(l.Error, "stopped: capture interrupted") {
		t.Errorf("load record %+v, want stopped", l)
	}
	if got := labels(m); len(got) != 1 || got[0] != "before" {
		t.Errorf("labels %v, want [before]", got)
	}
}

// A load whose background child keeps the output open: the load's end is
// when the shell exits (not when its output closes), with no error.
func TestLoadChildHoldsOutput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	text := writeProfile(t, 2)
	m, _, err := run(t, context.Background(), Plan{
		Targets: []Target{ExecTarget("x", "cat "+text)},
		Load:    "echo started; sleep 3 & exit 0",
		Every:   50 * time.Millisecond,
		After:   -1,
		OutDir:  dir,
	}, nil)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	l := m.Load
	if l.ExitCode != 0 || l.Error != "" || l.OutputTail != "started\n" {
		t.Errorf("load record %+v, want exit 0, no error, output kept", l)
	}
	if d := l.Ended.Sub(l.Started); d > 2*time.Second {
		t.Errorf("load recorded as running %v: its end should be the shell's exit, not its child's", d)
	}
}
