package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	_ "net/http/pprof"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/report"
)

func runArgs(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

const goScenario = "../../testdata/scenarios/go-slow-upstream-leak"

// jsonReport runs the main job with --format json and decodes its output
// with the report's own protocol types (strict: unknown fields fail).
func jsonReport(t *testing.T, args ...string) *report.JSONReport {
	t.Helper()
	code, out, errs := runArgs(t, append([]string{"--format", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	doc, err := report.DecodeJSON(strings.NewReader(out))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return doc
}

// momentLabels lists a report's moment labels, comma-separated.
func momentLabels(doc *report.JSONReport) string {
	var labels []string
	for _, m := range doc.Moments {
		labels = append(labels, m.Label)
	}
	return strings.Join(labels, ",")
}

func TestParseStats(t *testing.T) {
	code, out, errs := runArgs(t, "parse", "--stats", goScenario+"/before.txt", goScenario+"/before.pb.gz", goScenario+"/before-debug1.txt")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want := goScenario + "/before.txt format=go-text threads=4 skipped=0\n" +
		goScenario + "/before.pb.gz format=go-proto threads=4 skipped=0\n" +
		goScenario + "/before-debug1.txt format=go-debug1 threads=4 skipped=0\n"
	if out != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", out, want)
	}
}

func TestParseErrors(t *testing.T) {
	dir := t.TempDir()
	notDump := filepath.Join(dir, "notes.txt")
	os.WriteFile(notDump, []byte("hello\nworld\n"), 0o644)
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"missing file", []string{"parse", "--stats", filepath.Join(dir, "nope.txt")}, "nope.txt"},
		{"no dump", []string{"parse", "--stats", notDump}, notDump + ": no dump found"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := runArgs(t, tt.args...)
			if code != 1 || !strings.Contains(errs, tt.want) || out != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 and %q on stderr", code, out, errs, tt.want)
			}
		})
	}
}

func TestMainJobGoScenario(t *testing.T) {
	doc := jsonReport(t, goScenario)
	if got := momentLabels(doc); got != "before,during-1,during-2,after,after-2" {
		t.Errorf("moments %s, want before,during-1,during-2,after,after-2 (folder order by label)", got)
	}
	kinds := map[string]bool{}
	for _, f := range doc.Findings {
		kinds[f.Kind+" "+f.Pool+" "+f.State] = true
	}
	// At after-2 the upstream calls have returned and the leaked senders
	// have not: the leak is not recovered, the slow dependency is.
	for _, want := range []string{"not-recovered main.(*server).handleSearch chan-send", "recovered net/http server connections http-client-wait"} {
		if !kinds[want] {
			t.Errorf("no finding %q in %v", want, kinds)
		}
	}
	for k := range kinds {
		if strings.HasPrefix(k, "deadlock") || strings.HasPrefix(k, "explosion") || strings.HasPrefix(k, "growing") ||
			k == "not-recovered net/http server connections http-client-wait" {
			t.Errorf("false finding %q", k)
		}
	}
}

func TestFailOn(t *testing.T) {
	code, _, errs := runArgs(t, "--fail-on", "growing,not-recovered", goScenario)
	if code != 3 || !strings.Contains(errs, "not-recovered") {
		t.Errorf("exit %d, stderr %q; want 3 naming not-recovered", code, errs)
	}
	code, _, errs = runArgs(t, "--fail-on", "deadlock", goScenario)
	if code != 0 {
		t.Errorf("exit %d (%s); want 0 without a deadlock", code, errs)
	}
	code, _, errs = runArgs(t, "--fail-on", "nonsense", goScenario)
	if code != 1 || !strings.Contains(errs, `unknown --fail-on "nonsense": want critical, warning or a kind`) {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	// By severity, in any case: the Go scenario has a critical finding.
	for _, v := range []string{"critical", "CRITICAL", "warning", "Not-Recovered"} {
		if code, _, errs := runArgs(t, "--fail-on", v, goScenario); code != 3 || !strings.Contains(errs, "(critical) present (--fail-on)") {
			t.Errorf("--fail-on %s: exit %d, stderr %q", v, code, errs)
		}
	}
	// The bulkhead fix gives only an info finding: nothing to fail on.
	if code, _, errs := runArgs(t, "--fail-on", "warning", "../../testdata/scenarios/slow-upstream-bulkhead"); code != 0 {
		t.Errorf("--fail-on warning on the healthy fix: exit %d, %s", code, errs)
	}
}

// TestEnumFlags: enum flags in any case; a clear error for a bad value;
// -i with a report flag is refused, not silently ignored.
func TestEnumFlags(t *testing.T) {
	for _, args := range [][]string{{"--format", "JSON"}, {"-f", "Json"}, {"--color", "NEVER"}, {"--sort", "Time"}} {
		if code, _, errs := runArgs(t, append(args, goScenario+"/before.txt")...); code != 0 {
			t.Errorf("%v: exit %d, %s", args, code, errs)
		}
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--color", "blue"}, `unknown --color "blue": want auto, always or never`},
		{[]string{"--sort", "size"}, `unknown --order "size": want time or args`},
		{[]string{"--order", "size"}, `unknown --order "size": want time or args`},
		{[]string{"--format", "yaml"}, `unknown --format "yaml"`},
		{[]string{"-i", "-f", "json"}, "-i opens the TUI, which takes no --format: drop one of them"},
		{[]string{"-i", "--fail-on", "critical"}, "-i opens the TUI, which takes no --fail-on"},
	} {
		code, _, errs := runArgs(t, append(tt.args, goScenario+"/before.txt")...)
		if code == 0 || !strings.Contains(errs, tt.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tt.args, code, errs, tt.want)
		}
	}
}

func TestLabelsFlag(t *testing.T) {
	code, out, errs := runArgs(t, "--format", "json", "--labels", "a,b", goScenario+"/before.txt", goScenario+"/after.txt")
	if code != 0 || !strings.Contains(out, `"label": "a"`) || !strings.Contains(out, `"label": "b"`) {
		t.Errorf("exit %d, stderr %q, stdout %.300s", code, errs, out)
	}
	code, _, errs = runArgs(t, "--labels", "a", goScenario+"/before.txt", goScenario+"/after.txt")
	if code != 1 || !strings.Contains(errs, "--labels gives 1 labels for 2 moments") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

func TestNoColorWhenPiped(t *testing.T) {
	_, out, _ := runArgs(t, goScenario)
	if strings.ContainsRune(out, 0x1b) {
		t.Error("escape bytes in piped output")
	}
	_, out, _ = runArgs(t, "--color", "always", goScenario)
	if !strings.ContainsRune(out, 0x1b) {
		t.Error("--color always gave no colour")
	}
}

func TestLessLabel(t *testing.T) {
	in := []string{"after", "during-10", "before", "during-2", "during-1"}
	for i := range in {
		for j := i + 1; j < len(in); j++ {
			if lessLabel(in[j], in[i]) {
				in[i], in[j] = in[j], in[i]
			}
		}
	}
	if got := strings.Join(in, " "); got != "before during-1 during-2 during-10 after" {
		t.Errorf("order %s", got)
	}
}

// TestCaptureThenAnalyze captures a real pprof server (this test's own
// process, net/http/pprof on 127.0.0.1) whose goroutines change between
// moments, then analyzes the folder through its manifest.
func TestCaptureThenAnalyze(t *testing.T) {
	stop := make(chan struct{})
	defer close(stop)
	// Goroutines that pile up between moments: a leak of blocked senders,
	// ten more after each request the capture makes. Driven by the capture,
	// not a clock, so that the later moments hold more of them however
	// slowly a loaded machine runs the test.
	srv := httptest.NewServer(leakOnEachRequest(http.DefaultServeMux, stop))
	defer srv.Close()
	out := t.TempDir()
	code, report, errs := runArgs(t, "capture", srv.URL, "--every", "100ms", "--count", "3", "--out", out, "--analyze")
	if code != 0 {
		t.Fatalf("capture exit %d: %s", code, errs)
	}
	if !strings.Contains(report, "dumpdiff · Go · 3 moments") {
		t.Errorf("--analyze printed no report:\n%s", report)
	}
	if strings.Contains(report, "no time in dump") {
		t.Errorf("Go moments of a capture should show when they were taken (manifest):\n%s", report)
	}
	doc := jsonReport(t, out)
	if len(doc.Moments) != 3 {
		t.Fatalf("%d moments, want 3 (each moment counted once: debug=2 primary, proto beside it)", len(doc.Moments))
	}
	found := false
	for _, p := range doc.Pools {
		// The senders' creator is the handler leakOnEachRequest returns.
		if strings.HasSuffix(p.Name, "leakOnEachRequest.func1") {
			found = true
			t.Logf("leaking pool %s: %v", p.Name, p.Counts)
			if p.Counts[2] <= p.Counts[0] {
				t.Errorf("leaking pool did not grow: %v", p.Counts)
			}
		}
	}
	if !found {
		t.Errorf("no pool for the test's leaking goroutines in %+v", doc.Pools)
	}
}

// leakOnEachRequest serves h, then leaves ten goroutines blocked until
// stop.
func leakOnEachRequest(h http.Handler, stop chan struct{}) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r)
		for range 10 {
			go leakySender(stop)
		}
	})
}

func leakySender(stop chan struct{}) {
	ch := make(chan int)
	select {
	case ch <- 1:
	case <-stop:
	}
}

func TestSortTime(t *testing.T) {
	dir := "../../testdata/scenarios/slow-upstream-no-timeout/"
	doc := jsonReport(t, "--sort", "time", dir+"after.txt", dir+"before.txt", dir+"during-2.txt")
	if got := momentLabels(doc); got != "before,during-2,after" {
		t.Errorf("--sort time gave %v, want before,during-2,after (by the jstack date lines)", got)
	}
	code, _, errs := runArgs(t, "--sort", "size", dir+"after.txt")
	if code != 1 || !strings.Contains(errs, `unknown --order "size"`) {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

func runIn(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// TestFolderOfNumberedDumps: jstack.1, jstack.2, jstack.3 in a folder are
// three moments (not one name with two dumps dropped as "encodings").
func TestFolderOfNumberedDumps(t *testing.T) {
	src := "../../testdata/scenarios/slow-upstream-no-timeout/"
	dir := t.TempDir()
	for i, m := range []string{"before", "during-1", "after"} {
		b, err := os.ReadFile(src + m + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "jstack."+string(rune('1'+i))), b, 0o644)
	}
	code, out, errs := runArgs(t, "--format", "json", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, l := range []string{`"label": "jstack.1"`, `"label": "jstack.2"`, `"label": "jstack.3"`, `"kind": "not-recovered"`} {
		if !strings.Contains(out, l) {
			t.Errorf("output lacks %s", l)
		}
	}
}

// TestMixedRuntimes: a Go dump and a JVM dump are never one timeline.
func TestMixedRuntimes(t *testing.T) {
	code, out, errs := runArgs(t, goScenario+"/before.txt", "../../testdata/scenarios/slow-upstream-no-timeout/before.txt")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"=== go dumps ===", "=== jvm dumps ===", "dumpdiff · Go · 1 moment", "dumpdiff · JVM · 1 moment"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestStdin(t *testing.T) {
	b, err := os.ReadFile(goScenario + "/after.txt")
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := runIn(t, string(b), "parse", "--stats", "-")
	if code != 0 || out != "- format=go-text threads=904 skipped=0\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	code, out, errs = runIn(t, string(b), "--format", "json", "-")
	if code != 0 || !strings.Contains(out, `"label": "stdin"`) {
		t.Errorf("exit %d, stderr %q, stdout %.200s", code, errs, out)
	}
	code, _, errs = runIn(t, string(b), "-", "-")
	if code != 1 || !strings.Contains(errs, "given twice") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

func TestBadLabels(t *testing.T) {
	for _, l := range []string{"a,", "a,a"} {
		code, _, errs := runArgs(t, "--labels", l, goScenario+"/before.txt", goScenario+"/after.txt")
		if code != 1 || !strings.Contains(errs, "--labels") {
			t.Errorf("--labels %q: exit %d, stderr %q", l, code, errs)
		}
	}
	code, out, errs := runArgs(t, "--format", "json", "--labels", " a , b ", goScenario+"/before.txt", goScenario+"/after.txt")
	if code != 0 || !strings.Contains(out, `"label": "a"`) || !strings.Contains(out, `"label": "b"`) {
		t.Errorf("trimmed labels: exit %d, stderr %q", code, errs)
	}
}

// TestCaptureSeveralInstances captures two "instances" behind a load
// balancer with --exec (each command prints the next real jstack dump of
// its scenario at every moment), then compares them: the stuck instance and
// the healthy one side by side, then each on its own timeline.
func TestCaptureSeveralInstances(t *testing.T) {
	tmp := t.TempDir()
	script := func(name, scenario string) string {
		dir, _ := filepath.Abs("../../testdata/scenarios/" + scenario)
		counter := filepath.Join(tmp, name+".n")
		// Prints before.txt, during-1.txt, after.txt on its 1st, 2nd, 3rd run.
		return `n=$(cat ` + counter + ` 2>/dev/null || echo 0); n=$((n+1)); echo $n > ` + counter + `; ` +
			`case $n in 1) f=before;; 2) f=during-1;; *) f=after;; esac; cat ` + dir + `/$f.txt`
	}
	out := filepath.Join(tmp, "dumps")
	code, _, errs := runArgs(t, "capture", "--exec", script("a", "slow-upstream-no-timeout"), "--exec", script("b", "slow-upstream-bulkhead"),
		"--every", "50ms", "--count", "3", "--out", out)
	if code != 0 {
		t.Fatalf("capture exit %d: %s", code, errs)
	}
	code, text, errs := runArgs(t, out)
	if code != 0 {
		t.Fatalf("analysis exit %d: %s", code, errs)
	}
	for _, want := range []string{"INSTANCES", "exec-1", "exec-2", "critical, 0 warning: not-recovered http-nio-18080-exec-*", "no alarm",
		"=== target exec-1 ===", "=== target exec-2 ==="} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q:\n%s", want, text)
		}
	}
}

// TestCaptureSleepLeak: goroutines that pile up in time.Sleep are idle for
// capacity, but a pool of them that only grows is a leak: captured from a
// real pprof server (this test process) while they pile up. They pile up
// as the dumps are asked for (30 more before each goroutine profile is
// served), not with the clock: every moment holds more than the last
// however slow the machine.
func TestCaptureSleepLeak(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/debug/pprof/goroutine" {
			for range 30 {
				go sleeper()
			}
		}
		http.DefaultServeMux.ServeHTTP(w, r)
	}))
	defer srv.Close()
	out := t.TempDir()
	code, _, errs := runArgs(t, "capture", srv.URL, "--every", "150ms", "--count", "3", "--out", out)
	if code != 0 {
		t.Fatalf("capture exit %d: %s", code, errs)
	}
	doc := jsonReport(t, out)
	for _, f := range doc.Findings {
		if f.Kind == "growing" && strings.HasSuffix(f.Pool, "TestCaptureSleepLeak.func1") && f.State == "sleep" {
			return
		}
	}
	t.Errorf("no growing finding for the sleeping goroutines: %+v", doc.Findings)
}

// sleeper is a goroutine in time.Sleep, the state under test; it outlives
// the test by up to a minute, as a leaked one would.
func sleeper() { time.Sleep(time.Minute) }

// TestJSONSeveralAnalyses: Go and JVM dumps given together are two
// analyses in ONE JSON document.
func TestJSONSeveralAnalyses(t *testing.T) {
	code, out, errs := runArgs(t, "--format", "json", goScenario+"/before.txt", "../../testdata/scenarios/slow-upstream-no-timeout/before.txt")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc struct {
		Version  string `json:"version"`
		Analyses []struct {
			Runtime string `json:"runtime"`
		} `json:"analyses"`
		Instances []any `json:"instances"`
	}
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if dec.More() {
		t.Error("more than one JSON document")
	}
	if doc.Version != report.SchemaVersion || len(doc.Analyses) != 2 || doc.Analyses[0].Runtime != "go" || doc.Analyses[1].Runtime != "jvm" || len(doc.Instances) != 0 {
		t.Errorf("document %+v", doc)
	}
}

func TestFlagValues(t *testing.T) {
	code, _, errs := runArgs(t, "--fail-on", "db-pool-exhausted", "../../testdata/scenarios/hikari-pool-exhausted")
	if code != 3 || !strings.Contains(errs, "db-pool-exhausted") {
		t.Errorf("--fail-on db-pool-exhausted: exit %d, stderr %q", code, errs)
	}
	code, _, errs = runArgs(t, "--color", "bogus", goScenario)
	if code != 1 || !strings.Contains(errs, `unknown --color "bogus"`) {
		t.Errorf("--color bogus: exit %d, stderr %q", code, errs)
	}
}

// TestTruncatedGzipKeepsWhatWasRead: a dump cut in transfer still gives
// what was read before the cut, with the cut said on stderr.
func TestTruncatedGzipKeepsWhatWasRead(t *testing.T) {
	raw, err := os.ReadFile(goScenario + "/after.txt")
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(raw)
	zw.Close()
	cut := filepath.Join(t.TempDir(), "after.txt.gz")
	os.WriteFile(cut, gz.Bytes()[:gz.Len()/2], 0o644)

	code, out, errs := runArgs(t, "parse", "--stats", cut)
	if code != 1 || !strings.Contains(errs, "gzip stream truncated") || !strings.HasPrefix(out, cut+" format=go-text threads=") {
		t.Errorf("parse: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	code, out, errs = runArgs(t, cut)
	if code != 0 || !strings.Contains(errs, "analyzing the 1 dump(s) read before the cut") || !strings.Contains(out, "dumpdiff · Go · 1 moment") {
		t.Errorf("main job: exit %d, stderr %q, stdout %.200s", code, errs, out)
	}
}

// TestPoolByLabelFromAux: the Go 1.26 debug=2 dumps print no labels; the
// debug=1 and proto files beside them do, and --pool-by label:route joins
// them to the goroutines of each moment.
func TestPoolByLabelFromAux(t *testing.T) {
	doc := jsonReport(t, "--pool-by", "label:route", goScenario)
	got := map[string][]int{}
	for _, p := range doc.Pools {
		got[p.Name] = p.Counts
	}
	// COUNTS.tsv (grep on the debug=1 files): 150 leaked search senders at
	// after; 3 goroutines per items request (handler, readLoop, writeLoop).
	if c := got["route=/api/search"]; len(c) != 5 || c[3] != 150 {
		t.Errorf("route=/api/search %v, want 150 at after", c)
	}
	if c := got["route=/api/items"]; len(c) != 5 || c[3] != 450 {
		t.Errorf("route=/api/items %v, want 450 at after", c)
	}
}

func TestPoolByLabelWithoutLabels(t *testing.T) {
	code, out, errs := runArgs(t, "--pool-by", "label:route", goScenario+"/before.txt", goScenario+"/after.txt")
	if code != 0 || !strings.Contains(out, `no goroutine carries the pprof label "route"`) {
		t.Errorf("exit %d, stderr %q; want a warning that no goroutine carries the label:\n%s", code, errs, out)
	}
}
