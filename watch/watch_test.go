package watch

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/capture"
	"github.com/dumpdiff/dumpdiff/internal/watchtest"
)

// TestRingCap runs watch for a hundred fast moments of a real pprof server: the ring never holds more than --keep moments, its folder holds
// exactly the files its manifest lists, and with a byte bound smaller
// than --keep moments the bytes of the ring stay under it.
func TestRingCap(t *testing.T) {
	srv := pprofServer(t, nil)
	url := "http://" + srv.Addr
	r := start(t, Config{Targets: []capture.Target{capture.PprofTarget("api", url)}, Every: 15 * time.Millisecond, Keep: 5})
	// Until the 100th moment (a slow machine takes longer, never more).
	reps := r.takes(t, "api", "moment kept", func(d takeDecision) bool { return d.read }, 100, 5*time.Minute)
	if err := r.stop(t); err != nil {
		t.Fatal(err)
	}
	m, err := capture.ReadManifest(filepath.Join(r.cfg.Dir, "api"))
	if err != nil {
		t.Fatal(err)
	}
	// After every tick, the ring never over --keep.
	for _, rep := range reps {
		if len(rep.ring) > 5 {
			t.Errorf("after moment %s the ring holds %d moments, --keep 5", rep.label, len(rep.ring))
		}
	}
	if len(m.Moments) != 5 || m.Moments[4].Index < 99 {
		t.Fatalf("after the run: %d moments, last index %d (want 5 of at least 100 taken)", len(m.Moments), m.Moments[len(m.Moments)-1].Index)
	}
	listed := map[string]bool{capture.ManifestName: true}
	sizes := map[string]int64{}
	for _, f := range m.Files {
		if f.Path != "" {
			listed[f.Path] = true
			sizes[f.Moment] += f.Size
		}
	}
	var one int64 // the largest moment (the one stopped in flight may hold its debug=1 alone)
	for _, n := range sizes {
		one = max(one, n)
	}
	for _, name := range ringFiles(t, filepath.Join(r.cfg.Dir, "api")) {
		if !listed[name] && !strings.HasPrefix(name, ".") {
			t.Errorf("%s is in the ring's folder but not in its manifest", name)
		}
		delete(listed, name)
	}
	if len(listed) > 0 {
		t.Errorf("the manifest lists files that are gone: %v", listed)
	}

	// Bytes: a bound of two and a half moments.
	bound := one * 5 / 2
	r2 := start(t, Config{Targets: []capture.Target{capture.PprofTarget("api", url)}, Every: 15 * time.Millisecond, Keep: 40, MaxBytes: bound})
	// While thirty-two moments are taken (moments, not a span of time: a
	// loaded machine takes fewer in a second), never over the bound,
	// after any of them; the page says the same.
	reps = r2.takes(t, "api", "moment kept", func(d takeDecision) bool { return d.read }, 32, 5*time.Minute)
	if v := metricValue(r2.scrape(t), `dumpdiff_ring_bytes{target="api"}`); v < 1 || v > float64(bound) {
		t.Errorf("dumpdiff_ring_bytes %v, want some and at most --max-bytes %d", v, bound)
	}
	r2.stop(t)
	for _, rep := range reps {
		if rep.ringBytes > bound {
			t.Errorf("after moment %s the ring holds %d bytes, over --max-bytes %d", rep.label, rep.ringBytes, bound)
		}
	}
	var onDisk int64
	m2, _ := capture.ReadManifest(filepath.Join(r2.cfg.Dir, "api"))
	for _, f := range m2.Files {
		onDisk += f.Size
	}
	if onDisk > bound || len(m2.Moments) < 1 || len(m2.Moments) > 3 {
		t.Errorf("with --max-bytes %d: %d bytes in %d moments", bound, onDisk, len(m2.Moments))
	}
}

// metricValue is the value of the series named exactly as given on a
// metrics page; -1 when absent.
func metricValue(page, series string) float64 {
	for _, line := range strings.Split(page, "\n") {
		if v, ok := strings.CutPrefix(line, series+" "); ok {
			f, _ := strconv.ParseFloat(strings.TrimSpace(v), 64)
			return f
		}
	}
	return -1
}

// TestResume stops watch and starts it again on the same folder: the ring
// goes on from the moments it holds, and files watch did not write (in the
// folder, in the ring, a plain capture's folder) are never touched.
func TestResume(t *testing.T) {
	srv := pprofServer(t, nil)
	url := "http://" + srv.Addr
	dir := t.TempDir()
	mine := filepath.Join(dir, "notes.txt")
	os.WriteFile(mine, []byte("mine"), 0o644)
	cfg := Config{Targets: []capture.Target{capture.PprofTarget("api", url)}, Every: 20 * time.Millisecond, Keep: 6, Dir: dir}
	r := start(t, cfg)
	first := r.waitMoments(t, "api", 3, time.Minute)
	r.stop(t)
	m, _ := capture.ReadManifest(filepath.Join(dir, "api"))
	if m.Finished.IsZero() {
		t.Error("the stopped ring's manifest has no finish time")
	}
	inRing := filepath.Join(dir, "api", "mine.txt")
	os.WriteFile(inRing, []byte("mine too"), 0o644)

	r = start(t, cfg)
	r.more(t, "api", 7, time.Minute) // the ring of 6 turns over
	r.stop(t)
	// The first moment of this run joined the ring the last left.
	if reps := r.ticks.of("api"); !slices.Contains(reps[0].ring, m.Moments[len(m.Moments)-1].Label) {
		t.Errorf("after the first moment of the second run the ring is %v: %s of the first run is not in it", reps[0].ring, m.Moments[len(m.Moments)-1].Label)
	}
	m2, _ := capture.ReadManifest(filepath.Join(dir, "api"))
	if len(m2.PreviousRuns) != 1 || m2.Moments[len(m2.Moments)-1].Index <= m.Moments[len(m.Moments)-1].Index {
		t.Errorf("resumed ring: %d previous runs, indexes %v then %v", len(m2.PreviousRuns), labels(m), labels(m2))
	}
	if len(m2.Moments) > 6 || slices.Contains(labels(m2), first.Moments[0].Label) {
		t.Errorf("the resumed ring kept %d moments (%v): the oldest should be gone", len(m2.Moments), labels(m2))
	}
	for path, want := range map[string]string{mine: "mine", inRing: "mine too"} {
		if b, err := os.ReadFile(path); err != nil || string(b) != want {
			t.Errorf("%s, which watch did not write: %q %v", path, b, err)
		}
	}

	// A plain capture where a ring would go: refused, untouched.
	plain := filepath.Join(dir, "other")
	if _, err := capture.Run(context.Background(), capture.Plan{Targets: []capture.Target{capture.PprofTarget("other", url)}, OutDir: plain, Count: 1}, nil); err != nil {
		t.Fatal(err)
	}
	before := ringFiles(t, plain)
	err := Run(context.Background(), Config{Targets: []capture.Target{capture.PprofTarget("other", url)}, Every: time.Second, Dir: dir})
	if err == nil || !strings.Contains(err.Error(), "not by watch") {
		t.Fatalf("a plain capture's folder as a ring: %v", err)
	}
	if after := ringFiles(t, plain); !slices.Equal(before, after) {
		t.Errorf("the plain capture's folder changed: %v → %v", before, after)
	}
}

// TestTargetDiesAndReturns: a target that stops listening is up 0, its
// refusals are counted, it is retried with backoff, and when it listens
// again on the same port it is up 1 and its ring goes on; the other
// target never stops.
func TestTargetDiesAndReturns(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	flaky := pprofServer(t, l)
	steady := pprofServer(t, nil)
	r := start(t, Config{Targets: []capture.Target{capture.PprofTarget("flaky", "http://"+addr), capture.PprofTarget("steady", "http://"+steady.Addr)},
		Every: 25 * time.Millisecond, Timeout: 10 * time.Second}) // a loaded machine answers slowly; the dead one is refused at once
	r.waitMoments(t, "flaky", 2, time.Minute)
	flaky.Close()
	isDown := func(d takeDecision) bool { return d.down != "" }
	r.takes(t, "flaky", "moment without a dump", isDown, 1, time.Minute)
	page := r.scrape(t)
	if v := metricValue(page, `dumpdiff_target_up{target="flaky"}`); v != 0 {
		t.Errorf("dumpdiff_target_up of the dead target: %v", v)
	}
	// Backoff: after the k-th failure in a row the next try is at least
	// 1, 2, 4, 8 ticks later on the grid (later still on a loaded machine,
	// never sooner).
	reps := r.takes(t, "flaky", "moment without a dump", isDown, 5, time.Minute)
	var fails []tickReport
	for _, rep := range reps {
		if isDown(rep.take) {
			fails = append(fails, rep)
		}
	}
	for k := 1; k < len(fails); k++ {
		if gap, least := fails[k].at.Sub(fails[k-1].at), time.Duration(backoffTicks(k, r.cfg.Every))*r.cfg.Every; gap < least {
			t.Errorf("try %d after failure %d: %v after the one before, want at least %v (backoff)", k+1, k, gap, least)
		}
	}
	// The first failure may be the request the close cut (not-a-dump);
	// the next ones are refusals.
	if v := metricValue(r.scrape(t), `dumpdiff_capture_errors_total{reason="refused",target="flaky"}`); v < 1 {
		t.Errorf("no refusal counted after 5 moments without a dump")
	}
	r.more(t, "steady", 5, time.Minute) // the steady target goes on
	l2, err := net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("port %s not free again: %v", addr, err)
	}
	pprofServer(t, l2)
	r.takes(t, "flaky", "up again", func(d takeDecision) bool { return d.upAgain }, 1, time.Minute)
	if v := metricValue(r.scrape(t), `dumpdiff_target_up{target="flaky"}`); v != 1 {
		t.Errorf("dumpdiff_target_up after the return: %v", v)
	}
	if err := r.stop(t); err != nil {
		t.Fatal(err)
	}
}

// TestUnwritableFolder: a folder that cannot be made is a clear error
// before anything is captured.
func TestUnwritableFolder(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	err := Run(context.Background(), Config{Targets: []capture.Target{capture.PprofTarget("api", "http://127.0.0.1:1")}, Every: time.Second, Dir: filepath.Join(file, "ring")})
	if err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Fatalf("a folder under a file: %v", err)
	}
}

// TestDiskFills runs watch on a real 1 MiB tmpfs (skipped where this
// process may not mount one): when the disk fills, each moment that
// cannot be written is a "disk" error and one line, never a crash; what
// was recorded before stays readable; the target stays up.
func TestDiskFills(t *testing.T) {
	mnt := watchtest.Tmpfs(t, "1m")
	srv := pprofServer(t, nil)
	r := start(t, Config{Targets: []capture.Target{capture.PprofTarget("api", "http://"+srv.Addr)}, Every: 20 * time.Millisecond,
		Dir: mnt, MinFree: -1, Keep: 1000, MaxBytes: 1 << 30})
	// The tick that met the full disk counted it before it ended.
	r.takes(t, "api", "the disk's trouble", func(d takeDecision) bool { return d.diskSay != "" }, 1, time.Minute)
	page := r.scrape(t)
	if v := metricValue(page, `dumpdiff_capture_errors_total{reason="disk",target="api"}`); v < 1 {
		t.Errorf("no disk error counted:\n%s\nlog:\n%s", page, r.log)
	}
	if v := metricValue(page, `dumpdiff_target_up{target="api"}`); v != 1 {
		t.Errorf("the target is not to blame for a full disk: up %v", v)
	}
	if n := r.log.count("cannot") + r.log.count("no space"); n > 3 {
		t.Errorf("a full disk said %d times:\n%s", n, r.log)
	}
	if err := r.stop(t); err != nil {
		t.Fatal(err)
	}
	m, err := capture.ReadManifest(filepath.Join(mnt, "api"))
	if err != nil {
		t.Fatalf("the ring's manifest after the disk filled: %v", err)
	}
	for _, f := range m.Files {
		if f.Path == "" {
			continue
		}
		if st, err := os.Stat(filepath.Join(mnt, "api", f.Path)); err != nil || st.Size() != f.Size {
			t.Errorf("%s recorded before the disk filled: %v", f.Path, err)
		}
	}
	if len(m.Moments) == 0 {
		t.Error("nothing was recorded before the disk filled")
	}
}

// TestFiftyTargets watches 50 real pprof servers at once for a few ticks:
// every ring fills, and the heap it takes is logged (the README's figure).
func TestFiftyTargets(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	if raceDetector {
		// Its figure is the heap of 50 rings, which the race detector's
		// instrumentation does not show; and 500 dumps of this whole
		// process under it took 200 s at load 40 (go test -race -count=5
		// is bounded by the 10 minutes of go test). What the loops share
		// (the metrics, the log, the trigger's lock) two targets share as
		// fifty do: TestTargetDiesAndReturns runs two side by side.
		t.Skip("-race: a heap figure and a load, no race the two-target tests do not have")
	}
	var ts []capture.Target
	for i := range 50 {
		srv := pprofServer(t, nil)
		ts = append(ts, capture.PprofTarget(fmt.Sprintf("svc%02d", i), "http://"+srv.Addr))
	}
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	// Quiet: 50 lines a tick say nothing this test reads. The bound is a
	// broken program's: each moment of each target dumps this whole test
	// process (some 330 goroutines), and three test suites on two cores
	// took 9 moments of the 10 in a minute (a fresh clone's make test).
	// The tick log keeps no analyses: the heap is what watch holds.
	r := startWith(t, Config{Targets: ts, Every: 200 * time.Millisecond, Keep: 10, Quiet: true}, &tickLog{lean: true, next: make(chan struct{})})
	for _, tg := range ts {
		r.waitMoments(t, tg.Name, 10, 5*time.Minute)
	}
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	page := r.scrape(t)
	if err := r.stop(t); err != nil {
		t.Fatal(err)
	}
	for _, tg := range ts {
		if v := metricValue(page, fmt.Sprintf(`dumpdiff_target_up{target=%q}`, tg.Name)); v != 1 {
			t.Errorf("%s: up %v", tg.Name, v)
		}
	}
	t.Logf("50 targets, rings of up to 10 moments: heap in use %.1f MiB more than before (%d goroutines in the test process)",
		float64(int64(after.HeapInuse)-int64(before.HeapInuse))/(1<<20), runtime.NumGoroutine())
}
