package watch

import (
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/capture"
	"github.com/dumpdiff/dumpdiff/internal/captured"
	"github.com/dumpdiff/dumpdiff/internal/javatest"
	"github.com/dumpdiff/dumpdiff/parse"
)

// The scheduler's series are the last moment's reading, read as the ring
// reads a moment (internal/captured): a real capture of a JDK 25 service
// saturated by CPU-bound virtual threads and its healthy control
// (testdata/verdicts/vthread-sched-*), and none for a moment without a
// reading (a JVM before JDK 24) or a target that is down.
func TestVThreadSchedulerMetrics(t *testing.T) {
	t.Parallel()
	analysis := func(name string) *analyze.Result {
		dir := filepath.Join("..", "testdata", "verdicts", name)
		m, err := capture.ReadManifest(dir)
		if err != nil {
			t.Fatal(err)
		}
		read := func(path string, _ bool) ([]*parse.Dump, error) { return parse.ParseFile(filepath.Join(dir, path)) }
		var in []analyze.Input
		for _, mo := range m.Moments {
			x, ok, err := captured.Input(m, m.Targets[0].Name, mo.Label, read, func(n string) { t.Error(n) })
			if err != nil || !ok {
				t.Fatalf("%s %s: %v", name, mo.Label, err)
			}
			in = append(in, x)
		}
		return analyze.Analyze(in, analyze.Options{})
	}
	m := newMetrics(Build{})
	scrape := func() map[string]float64 {
		rec := httptest.NewRecorder()
		m.handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
		out := map[string]float64{}
		for line := range strings.Lines(rec.Body.String()) {
			if name, rest, ok := strings.Cut(line, "{"); ok && strings.HasPrefix(name, "dumpdiff_vthread_scheduler_") {
				labels, v, _ := strings.Cut(rest, "} ")
				f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
				if err != nil {
					t.Fatalf("%q: %v", line, err)
				}
				out[name+"{"+labels+"}"] = f
			}
		}
		return out
	}
	m.verdict("quotes", analysis("vthread-sched-cpu"), 20)
	m.verdict("quotes-ok", analysis("vthread-sched-healthy"), 20)
	got := scrape()
	for series, want := range map[string]float64{
		`dumpdiff_vthread_scheduler_parallelism{target="quotes"}`:    4,
		`dumpdiff_vthread_scheduler_mounted{target="quotes"}`:        4,
		`dumpdiff_vthread_scheduler_queued{target="quotes"}`:         2075,
		`dumpdiff_vthread_scheduler_parallelism{target="quotes-ok"}`: 4,
		`dumpdiff_vthread_scheduler_mounted{target="quotes-ok"}`:     0,
		`dumpdiff_vthread_scheduler_queued{target="quotes-ok"}`:      0,
	} {
		if v, ok := got[series]; !ok || v != want {
			t.Errorf("%s = %v (served %v), want %v", series, v, ok, want)
		}
	}
	if len(got) != 6 {
		t.Errorf("series %v, want 3 per target", got)
	}
	// The same target's next moment has no reading: its series go.
	r := analysis("vthread-sched-cpu")
	r.Moments[len(r.Moments)-1].Dump.Scheduler = nil
	m.verdict("quotes", r, 20)
	m.clear("quotes-ok")
	if got := scrape(); len(got) != 0 {
		t.Errorf("series left: %v", got)
	}
}

// A real JDK 25 service watched by pid (testdata/gen/java-vsched's
// QuoteService, its requests CPU-bound on 2 carriers, 50 arriving a second
// for the 10 a second they can serve): each moment reads the scheduler
// beside the dump, its series are served, and the incident opens on the
// saturated scheduler with the readings in its bundle.
func TestVThreadSchedulerWatched(t *testing.T) {
	bin := javatest.JDK25Bin(t)
	if _, err := exec.LookPath("jcmd"); err != nil {
		t.Skip("jcmd not on PATH")
	}
	pid := javatest.InBin(bin).Start(t, "../testdata/gen/java-vsched/src/com/example/vsched/QuoteService.java",
		[]string{"-Xmx128m", "-XX:TieredStopAtLevel=1", "-Djdk.virtualThreadScheduler.parallelism=2"}, "cpu", "20")
	r := start(t, Config{Targets: []capture.Target{capture.JVMTarget("quotes", pid)}, Every: 500 * time.Millisecond, Keep: 20})
	r.waitDecisions(t, "quotes", "an incident opened on the saturated scheduler", func(d decision) bool {
		for _, f := range d.opened {
			if f.Kind == analyze.KindVThreadSchedulerSaturated && f.Severity == analyze.Critical {
				return d.open
			}
		}
		return false
	}, 1, 60*time.Second)
	page := r.scrape(t)
	value := func(series string) float64 {
		for line := range strings.Lines(page) {
			if v, ok := strings.CutPrefix(line, series+" "); ok {
				f, _ := strconv.ParseFloat(strings.TrimSpace(v), 64)
				return f
			}
		}
		t.Fatalf("no %s on the metrics page", series)
		return 0
	}
	if p, m, q := value(`dumpdiff_vthread_scheduler_parallelism{target="quotes"}`), value(`dumpdiff_vthread_scheduler_mounted{target="quotes"}`),
		value(`dumpdiff_vthread_scheduler_queued{target="quotes"}`); p != 2 || m != 2 || q < analyze.SchedMinQueued {
		t.Errorf("parallelism %v, mounted %v, queued %v: want 2 of 2 mounted and the queue past %d", p, m, q, analyze.SchedMinQueued)
	}
	if err := r.stop(t); err != nil {
		t.Fatal(err)
	}
	bundles, _ := filepath.Glob(filepath.Join(r.cfg.Dir, incidentsDir, "*-quotes*"))
	if len(bundles) != 1 {
		t.Fatalf("bundles %v, want 1", bundles)
	}
	m, err := capture.ReadManifest(bundles[0])
	if err != nil {
		t.Fatal(err)
	}
	readings := 0
	for _, f := range m.Files {
		if f.Kind == capture.FileVThreadScheduler && f.OK() {
			readings++
		}
	}
	if readings < analyze.SchedMinMoments {
		t.Errorf("%d scheduler readings in the bundle: %+v", readings, m.Files)
	}
	if !strings.Contains(r.log.String(), "virtual-thread scheduler saturated: 2 of 2 carriers mounted") {
		t.Errorf("the log does not say the scheduler's numbers:\n%s", r.log)
	}
}
