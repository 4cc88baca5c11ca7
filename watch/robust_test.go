package watch

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/capture"
	"github.com/dumpdiff/dumpdiff/internal/testwait"
	"github.com/dumpdiff/dumpdiff/internal/watchtest"
)

// realJVMDump is a Java 17 jcmd dump of the watch tests' service
// (testdata/libs, README there).
const realJVMDump = "../testdata/libs/jvm-saturated-stays/1.txt"

// TestInvalidUTF8Names: a thread name that is not UTF-8 (a command's
// output, a pprof label) is served with U+FFFD, and the scrape works: a
// label value that is not UTF-8 fails the whole page.
func TestInvalidUTF8Names(t *testing.T) {
	b, err := os.ReadFile(realJVMDump)
	if err != nil {
		t.Fatal(err)
	}
	b = bytes.ReplaceAll(b, []byte(`"req-exec-`), []byte("\"w\xffrk-"))
	dump := filepath.Join(t.TempDir(), "dump.txt")
	os.WriteFile(dump, b, 0o644)
	r := start(t, Config{Targets: []capture.Target{capture.ExecTarget("cmd", "cat "+dump)}, Every: 50 * time.Millisecond})
	r.waitMoments(t, "cmd", 2, time.Minute)
	resp, err := http.Get(r.metrics + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	page := new(bytes.Buffer)
	page.ReadFrom(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(page.String(), "pool=\"w\ufffdrk-*\"") {
		t.Fatalf("status %d, page:\n%s", resp.StatusCode, page)
	}
}

// TestSkippedTicks: a target whose moment takes 1.5 ticks misses one tick
// a moment, and dumpdiff_ticks_skipped_total says so.
func TestSkippedTicks(t *testing.T) {
	r := start(t, Config{Targets: []capture.Target{capture.ExecTarget("slow", "sleep 0.15; cat "+absPath(t, realJVMDump))}, Every: 100 * time.Millisecond})
	m := r.waitMoments(t, "slow", 4, time.Minute)
	page := r.scrape(t)
	if v := metricValue(page, `dumpdiff_ticks_skipped_total{target="slow"}`); v < 2 {
		t.Errorf("ticks skipped %v after %d moments of 150 ms at 100 ms a tick", v, len(m.Moments))
	}
	if v := metricValue(page, `dumpdiff_incidents_total{target="slow"}`); v != 0 {
		t.Errorf("dumpdiff_incidents_total is %v, not 0 from the start", v)
	}
}

func absPath(t *testing.T, p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestAlertDefault: the zero Alert opens incidents on critical findings
// only.
func TestAlertDefault(t *testing.T) {
	c := Config{Targets: []capture.Target{capture.ExecTarget("x", "true")}, Dir: "d", Every: time.Second}
	if err := c.defaults(); err != nil || c.Alert != analyze.Critical {
		t.Fatalf("zero Alert after defaults: %v, %v", c.Alert, err)
	}
	c.Alert = analyze.Warning
	if c.defaults(); c.Alert != analyze.Warning {
		t.Fatalf("Warning after defaults: %v", c.Alert)
	}
}

// TestHookBounded: an --on-incident command that runs past its bound,
// with a child holding its output, is killed, group and all, and watch's
// stop does not wait for it.
func TestHookBounded(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("process groups")
	}
	old := onIncidentTimeout
	onIncidentTimeout = 300 * time.Millisecond
	t.Cleanup(func() { onIncidentTimeout = old })
	lb := &logBuf{}
	pidFile := filepath.Join(t.TempDir(), "child")
	w := &watcher{cfg: Config{OnIncident: "sleep 30 & echo $! > " + pidFile + "; echo started; wait", Log: lb}}
	began := time.Now()
	w.onIncident(t.TempDir(), "open")
	w.onIncidentWait()
	if took := time.Since(began); took > 5*time.Second {
		t.Fatalf("the hook held watch %v", took)
	}
	if !strings.Contains(lb.String(), "--on-incident| started") || !strings.Contains(lb.String(), "killed") {
		t.Errorf("log:\n%s", lb)
	}
	// Its own child, not any sleep on the machine: gone with its group.
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid := strings.TrimSpace(string(b))
	testwait.Eventually(t, 10*time.Second, func() error {
		st, err := os.ReadFile("/proc/" + pid + "/stat")
		if err != nil || strings.Contains(string(st), ") Z ") {
			return nil // gone (or a zombie waiting for its reaper)
		}
		return fmt.Errorf("the hook's child %s is still running: %s", pid, st)
	})
}

// TestTargetGoesDown: a Go service killed during an incident: the
// incident closes (a crash is how many end), its findings and threads
// are no longer served, and the target is up 0.
func TestTargetGoesDown(t *testing.T) {
	svc := watchtest.StartGoService(t)
	r := start(t, Config{Targets: []capture.Target{capture.PprofTarget("svc", svc.URL())}, Every: 250 * time.Millisecond, Keep: 10})
	r.waitMoments(t, "svc", 3, time.Minute)
	svc.Phase(t, "exhaust")
	r.waitDecisions(t, "svc", "incident opened", opened, 1, time.Minute)
	svc.Stop()
	// The tick that closed it cleared the target's series before it ended.
	r.waitDecisions(t, "svc", "incident closed as the target stopped answering", closed("the target stopped answering"), 1, time.Minute)
	page := r.scrape(t)
	if strings.Contains(page, `dumpdiff_findings{`) || strings.Contains(page, `dumpdiff_threads{`) {
		t.Errorf("a dead target's verdict is still served:\n%s", page)
	}
	if v := metricValue(page, `dumpdiff_target_up{target="svc"}`); v != 0 {
		t.Errorf("up %v", v)
	}
	if v := metricValue(page, `dumpdiff_incident_open{target="svc"}`); v != 0 {
		t.Errorf("incident_open %v", v)
	}
}

// TestFullDiskEviction: a disk filled by another writer while the ring
// turns (a 2 MiB tmpfs, skipped where none can be mounted): watch goes on
// and, once there is room again, every file of the ring is one its
// manifest lists. (A moment forgotten while the manifest cannot be
// written is capture's TestRecorderForgetFullDisk.)
func TestFullDiskEviction(t *testing.T) {
	mnt := watchtest.Tmpfs(t, "2m")
	srv := pprofServer(t, nil)
	r := start(t, Config{Targets: []capture.Target{capture.PprofTarget("svc", "http://"+srv.Addr)}, Every: 20 * time.Millisecond,
		Dir: mnt, MinFree: -1, Keep: 3})
	r.waitMoments(t, "svc", 3, 20*time.Second)
	filler := filepath.Join(mnt, "filler")
	f, err := os.Create(filler)
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 64<<10)
	for {
		if _, err := f.Write(chunk); err != nil {
			break // the disk is full
		}
	}
	f.Close()
	// Watch met the full disk, then moments are written again.
	r.takes(t, "svc", "the disk's trouble", func(d takeDecision) bool { return d.diskSay != "" }, 1, time.Minute)
	os.Remove(filler)
	r.takes(t, "svc", "moments written again", func(d takeDecision) bool { return d.diskBack }, 1, time.Minute)
	// The ring turns over once more than it holds after the disk has room.
	r.more(t, "svc", 4, time.Minute)
	if err := r.stop(t); err != nil {
		t.Fatal(err)
	}
	m, err := capture.ReadManifest(filepath.Join(mnt, "svc"))
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{capture.ManifestName: true}
	for _, f := range m.Files {
		listed[f.Path] = true
	}
	for _, name := range ringFiles(t, filepath.Join(mnt, "svc")) {
		if !listed[name] && !strings.HasPrefix(name, ".") {
			t.Errorf("%s is left in the ring, listed by no manifest", name)
		}
	}
}

// TestThreadSeriesBound: dumpdiff_threads has at most --series series of
// (pool, state) a target, the largest; the rest is summed per state under
// pool "other", so what the service names its pools cannot grow it.
func TestThreadSeriesBound(t *testing.T) {
	r := &analyze.Result{Moments: make([]analyze.Moment, 2)}
	for i := range 30 {
		p := &analyze.Pool{Name: fmt.Sprintf("pool-%02d", i), Counts: []int{0, 100 - i}}
		for j, state := range []string{"socket-read", "chan-receive"} {
			p.States = append(p.States, &analyze.Group{Pool: p.Name, State: state, Counts: []int{0, 100 - i - 50*j}})
		}
		r.Pools = append(r.Pools, p)
	}
	// A pool really named "other", among the largest: the rest of its
	// state joins it, one series per label set.
	r.Pools = append(r.Pools, &analyze.Pool{Name: "other", Counts: []int{0, 200},
		States: []*analyze.Group{{Pool: "other", State: "socket-read", Counts: []int{0, 200}}}})
	m := newMetrics(Build{})
	m.verdict("svc", r, 6)
	got := m.threads["svc"]
	seen := map[[2]string]bool{}
	for _, s := range got {
		if k := [2]string{s.pool, s.state}; seen[k] {
			t.Errorf("two series for %v", k)
		} else {
			seen[k] = true
		}
	}
	if got[0].pool != "other" || got[0].state != "socket-read" || got[0].n <= 200 {
		t.Errorf("the pool named other: %+v", got[0])
	}
	got = got[1:]
	if len(got) != 5+1 { // pool-00..04, and other chan-receive (other socket-read is got[0])
		t.Fatalf("%d series, want 5 and one other per state: %+v", len(got), got)
	}
	want := map[string]int{}
	total := 0
	for _, p := range r.Pools {
		for _, g := range p.States {
			total += g.Counts[1]
		}
	}
	sum := m.threads["svc"][0].n
	for _, s := range got {
		sum += s.n
		if s.pool == "other" {
			want[s.state] = s.n
		}
	}
	if sum != total {
		t.Errorf("the series sum to %d of %d threads", sum, total)
	}
	for i, s := range got[:5] {
		if s.pool != fmt.Sprintf("pool-%02d", i) || s.state != "socket-read" {
			t.Errorf("series %d is %+v, want the %d-th largest", i, s, i+1)
		}
	}
	if want["chan-receive"] == 0 {
		t.Errorf("no other for chan-receive: %+v", got)
	}
}

// TestActuatorTarget: an Actuator thread dump endpoint (a real HTTP
// server on 127.0.0.1 serving the Boot 3 JSON a real JVM wrote,
// testdata/jvm/actuator) is watched like the other kinds: .json moments
// in its ring, its threads served.
func TestActuatorTarget(t *testing.T) {
	body, err := os.ReadFile("../testdata/jvm/actuator/threaddump-boot3.json")
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/actuator/threaddump", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	})
	l, srv := listen(t, mux)
	defer srv.Close()
	url := "http://" + l + "/actuator/threaddump"
	r := start(t, Config{Targets: []capture.Target{capture.ActuatorTarget("boot", url)}, Every: 50 * time.Millisecond})
	m := r.waitMoments(t, "boot", 3, 20*time.Second)
	for _, f := range m.Files {
		if f.Path != "" && !strings.HasSuffix(f.Path, ".json") {
			t.Errorf("an Actuator moment kept as %s", f.Path)
		}
	}
	page := r.scrape(t) // after the moments' ticks: their metrics are set
	if v := metricValue(page, `dumpdiff_target_up{target="boot"}`); v != 1 {
		t.Errorf("dumpdiff_target_up of the Actuator target: %v", v)
	}
	if !strings.Contains(page, `dumpdiff_threads{pool=`) {
		t.Errorf("no threads served for the Actuator target")
	}
}

// listen serves h on 127.0.0.1.
func listen(t *testing.T, h http.Handler) (string, *http.Server) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(ln)
	return ln.Addr().String(), srv
}
