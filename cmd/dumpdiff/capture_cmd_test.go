package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/internal/javatest"

	"github.com/dumpdiff/dumpdiff/capture"
	"github.com/dumpdiff/dumpdiff/report"
)

// A folder that holds a capture is never overwritten: a second capture into
// it is refused (nothing touched), --append continues it (the manifest
// keeps every moment, labels go on), and a folder of other files is refused.
func TestCaptureNeverOverwrites(t *testing.T) {
	srv := httptest.NewServer(http.DefaultServeMux)
	defer srv.Close()
	out := filepath.Join(t.TempDir(), "dumps")
	if code, _, errs := runArgs(t, "capture", srv.URL, "--every", "10ms", "--count", "2", "--out", out); code != 0 {
		t.Fatalf("first capture: exit %d: %s", code, errs)
	}
	before, err := os.ReadFile(filepath.Join(out, capture.ManifestName))
	if err != nil {
		t.Fatal(err)
	}

	code, _, errs := runArgs(t, "capture", srv.URL, "--count", "1", "--out", out)
	if code != 1 || !strings.Contains(errs, "--out "+out+" already holds a capture (2 moments, started ") ||
		!strings.Contains(errs, "add --append to continue it, or give a new folder") {
		t.Errorf("second capture without --append: exit %d, stderr %q", code, errs)
	}
	if after, _ := os.ReadFile(filepath.Join(out, capture.ManifestName)); !bytes.Equal(after, before) {
		t.Error("the refused capture touched the manifest")
	}

	code, _, errs = runArgs(t, "capture", srv.URL, "--every", "10ms", "--count", "2", "--out", out, "--append")
	if code != 0 {
		t.Fatalf("--append: exit %d: %s", code, errs)
	}
	m, err := capture.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, mo := range m.Moments {
		got = append(got, fmt.Sprintf("%s/%d", mo.Label, mo.Run))
	}
	if strings.Join(got, " ") != "1/0 2/0 3/1 4/1" || len(m.PreviousRuns) != 1 || len(m.Targets) != 1 {
		t.Errorf("appended manifest: moments %v, %d previous runs, %d targets; want 1 2 then 3 4, one earlier run, one target",
			got, len(m.PreviousRuns), len(m.Targets))
	}
	if doc := jsonReport(t, out); len(doc.Moments) != 4 {
		t.Errorf("the appended capture analyzes as %d moments, want 4", len(doc.Moments))
	}

	other := t.TempDir()
	os.WriteFile(filepath.Join(other, "notes.txt"), []byte("mine"), 0o644)
	code, _, errs = runArgs(t, "capture", srv.URL, "--count", "1", "--out", other)
	if code != 1 || !strings.Contains(errs, "is not empty and holds no capture") {
		t.Errorf("capture into a folder of other files: exit %d, stderr %q", code, errs)
	}
}

// --analyze takes the main job's --format and --fail-on, checked before
// the capture starts.
func TestCaptureAnalyzeFlags(t *testing.T) {
	srv := httptest.NewServer(http.DefaultServeMux)
	defer srv.Close()
	out := filepath.Join(t.TempDir(), "dumps")
	code, stdout, errs := runArgs(t, "capture", srv.URL, "--count", "1", "--out", out, "--analyze", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if doc, err := report.DecodeJSON(strings.NewReader(stdout)); err != nil || len(doc.Moments) != 1 {
		t.Errorf("--analyze --format json: %v\n%.300s", err, stdout)
	}
	code, _, errs = runArgs(t, "capture", srv.URL, "--count", "1", "--out", t.TempDir(), "--analyze", "--fail-on", "bogus")
	if code != 1 || !strings.Contains(errs, `unknown --fail-on "bogus"`) {
		t.Errorf("--fail-on bogus: exit %d, stderr %q", code, errs)
	}
	// A JVM whose request threads stay stuck (each moment prints the next
	// real jstack dump of the slow-upstream scenario): --fail-on that kind
	// exits 3, after the Markdown report.
	tmp := t.TempDir()
	dir, _ := filepath.Abs("../../testdata/scenarios/slow-upstream-no-timeout")
	counter := filepath.Join(tmp, "n")
	script := `n=$(cat ` + counter + ` 2>/dev/null || echo 0); n=$((n+1)); echo $n > ` + counter + `; ` +
		`case $n in 1) f=before;; 2) f=during-1;; *) f=after;; esac; cat ` + dir + `/$f.txt`
	code, stdout, errs = runArgs(t, "capture", "--exec", script, "--every", "10ms", "--count", "3", "--out", filepath.Join(tmp, "d"),
		"--analyze", "--format", "markdown", "--fail-on", "not-recovered")
	if code != 3 || !strings.Contains(errs, "finding not-recovered (critical) present (--fail-on)") || !strings.HasPrefix(stdout, "#") {
		t.Errorf("--fail-on not-recovered: exit %d, stderr %q, stdout %.80q", code, errs, stdout)
	}
}

// buildDumpdiff builds the command, for tests that need a real process.
func buildDumpdiff(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "dumpdiff")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// Ctrl-C (a real SIGINT to a real dumpdiff process) while a load runs: the
// schedule stops, the load is stopped, every file is kept, the manifest is
// written, --analyze still reports what was captured, one line says so,
// and the exit status is 130. The load's output is shown as it runs,
// prefixed, and kept in the manifest.
func TestCaptureInterruptAnalyzes(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds dumpdiff")
	}
	srv := httptest.NewServer(http.DefaultServeMux)
	defer srv.Close()
	bin := buildDumpdiff(t)
	out := filepath.Join(t.TempDir(), "dumps")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang fails, not blocks
	defer cancel()
	load := "echo 'Running 30s test @ http://127.0.0.1/'; sleep 30; echo never"
	cmd := exec.CommandContext(ctx, bin, "capture", srv.URL, "--load", load, "--during-every", "50ms",
		"--out", out, "--analyze", "--format", "json")
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var lines []string
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if strings.Contains(sc.Text(), " ok   ") && strings.Contains(sc.Text(), " during-2 goroutine ") {
			break // two moments during the load are on disk
		}
	}
	seenLoad := false
	for _, l := range lines {
		seenLoad = seenLoad || strings.HasSuffix(l, " load| Running 30s test @ http://127.0.0.1/")
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(stderr)
	err = cmd.Wait()
	t.Logf("stderr:\n%s\n%s", strings.Join(lines, "\n"), rest)
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("exit: %v, want status 130", err)
	}
	if !seenLoad {
		t.Error("the load's output was not shown as it ran (load| ...)")
	}
	after := strings.Split(strings.TrimSpace(string(rest)), "\n")
	// One summary line. A fetch the signal cut midway also says so on a
	// FAIL line of its own ("interrupted, nothing kept"), when Ctrl-C
	// lands during a moment rather than between two: that is not a second
	// summary.
	var said []string
	for _, l := range after {
		if strings.Contains(l, "interrupted after ") {
			said = append(said, l)
		}
	}
	if len(said) != 1 || !strings.Contains(said[0], " kept in "+out) {
		t.Errorf("want one line saying what was kept, got %q", said)
	}
	doc, err := report.DecodeJSON(&stdout)
	if err != nil {
		t.Fatalf("--analyze after Ctrl-C: %v\n%.300s", err, stdout.String())
	}
	m, err := capture.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	if m.Finished.IsZero() || !strings.Contains(m.Error, "interrupt signal received") || m.Load == nil ||
		!strings.Contains(m.Load.OutputTail, "Running 30s test") || m.Load.Running() {
		t.Errorf("manifest: finished %v, error %q, load %+v", m.Finished, m.Error, m.Load)
	}
	if n := len(doc.Moments); n < 3 || doc.Moments[0].Label != "before" {
		t.Errorf("analyzed moments %+v, want before and the during moments taken", doc.Moments)
	}
}

// A Spring Boot Actuator endpoint (a real HTTP server on 127.0.0.1 at
// Spring's path, answering JSON only when asked for it, in the shape of
// ThreadDumpEndpoint's descriptor) is captured as .json moments that the
// main job reads as a JVM's.
func TestCaptureActuator(t *testing.T) {
	const body = `{"threads":[{"threadName":"http-nio-8080-exec-1","threadId":31,"blockedTime":-1,"blockedCount":0,` +
		`"waitedTime":-1,"waitedCount":3,"lockOwnerId":-1,"daemon":true,"inNative":true,"suspended":false,` +
		`"threadState":"RUNNABLE","priority":5,"stackTrace":[{"moduleName":"java.base","moduleVersion":"17.0.15",` +
		`"methodName":"read0","fileName":"SocketDispatcher.java","lineNumber":-2,"nativeMethod":true,` +
		`"className":"sun.nio.ch.SocketDispatcher"}],"lockedMonitors":[],"lockedSynchronizers":[]},` +
		`{"threadName":"main","threadId":1,"blockedTime":-1,"blockedCount":0,"waitedTime":-1,"waitedCount":0,` +
		`"lockOwnerId":-1,"daemon":false,"inNative":false,"suspended":false,"threadState":"WAITING","priority":5,` +
		`"stackTrace":[],"lockedMonitors":[],"lockedSynchronizers":[]}]}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/actuator/threaddump" || r.Header.Get("Accept") != "application/json" {
			http.Error(w, "not acceptable", http.StatusNotAcceptable)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(body))
	}))
	defer srv.Close()
	out := filepath.Join(t.TempDir(), "dumps")
	code, _, errs := runArgs(t, "capture", srv.URL+"/actuator/threaddump", "--every", "10ms", "--count", "2", "--out", out)
	if code != 0 {
		t.Fatalf("capture: exit %d: %s", code, errs)
	}
	doc := jsonReport(t, out)
	if len(doc.Moments) != 2 || doc.Moments[0].Threads != 2 || !strings.HasSuffix(doc.Moments[0].File, ".json") {
		t.Errorf("moments %+v, want 2 moments of 2 threads from the .json files", doc.Moments)
	}
}

// A capture that kept dumps while some moments of some targets failed exits
// with partialStatus (4), says how much on stderr, and records every
// target's fate in the manifest; one that kept nothing exits 1.
func TestCapturePartialExitStatus(t *testing.T) {
	ok := httptest.NewServer(http.DefaultServeMux)
	defer ok.Close()
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "profile busy", http.StatusInternalServerError)
	}))
	defer broken.Close()
	var asked atomic.Int32 // fails from its second moment on
	flaky := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("debug") == "1" && asked.Add(1) > 1 {
			http.Error(w, "gone away", http.StatusServiceUnavailable)
			return
		}
		http.DefaultServeMux.ServeHTTP(w, r)
	}))
	defer flaky.Close()
	closed := func() string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		return "http://" + ln.Addr().String()
	}

	t.Run("some targets fail", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "dumps")
		code, stdout, errs := runArgs(t, "capture", ok.URL, broken.URL, flaky.URL, "--every", "10ms", "--count", "2",
			"--out", out, "--analyze", "--format", "json")
		if code != 4 {
			t.Fatalf("exit %d, want 4 (some captures failed): %s", code, errs)
		}
		want := "dumpdiff: 2 of 3 targets failed at least one moment (3 of their dumps missing; first: "
		if !strings.Contains(errs, want) || !strings.Contains(errs, "every target's fate is in "+filepath.Join(out, "manifest.json")) {
			t.Errorf("stderr %q, want %q", errs, want)
		}
		if !strings.Contains(stdout, `"findings"`) {
			t.Errorf("--analyze printed no report:\n%s", stdout)
		}
		m, err := capture.ReadManifest(out)
		if err != nil {
			t.Fatal(err)
		}
		var fates []string
		for _, tr := range m.Targets {
			fates = append(fates, fmt.Sprintf("%s:%d/%d", tr.Fate, tr.Dumps, tr.Failed))
		}
		if got := strings.Join(fates, " "); got != "ok:2/0 failed:0/2 partial:1/1" {
			t.Errorf("fates %s, want ok:2/0 failed:0/2 partial:1/1", got)
		}
		if !strings.Contains(m.Targets[1].LastError, "profile busy") {
			t.Errorf("last error %q", m.Targets[1].LastError)
		}
	})
	t.Run("26 of 27 fail", func(t *testing.T) {
		args := []string{"capture", ok.URL}
		for range 26 {
			args = append(args, closed())
		}
		out := filepath.Join(t.TempDir(), "dumps")
		code, _, errs := runArgs(t, append(args, "--count", "1", "--out", out)...)
		if code != 4 || !strings.Contains(errs, "26 of 27 targets failed at least one moment (26 of their dumps missing") {
			t.Errorf("exit %d, stderr %q; want 4 and the count", code, errs)
		}
	})
	t.Run("all fail", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "dumps")
		code, _, errs := runArgs(t, "capture", broken.URL, "--count", "1", "--out", out)
		if code != 1 || !strings.Contains(errs, "no dump captured") {
			t.Errorf("exit %d, stderr %q; want 1, no dump captured", code, errs)
		}
	})
	t.Run("all captured", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "dumps")
		if code, _, errs := runArgs(t, "capture", ok.URL, "--count", "1", "--out", out); code != 0 || strings.Contains(errs, "failed at least") {
			t.Errorf("exit %d, stderr %q; want 0 and no failure said", code, errs)
		}
	})
}

// startVirtual25 compiles testdata/gen/java-live/Virtual.java on a JDK 25
// (javatest.JDK25Bin; skipped without one), starts it with args and
// returns its pid once every task is parked.
func startVirtual25(t *testing.T, args ...string) string {
	t.Helper()
	jdk := javatest.InBin(javatest.JDK25Bin(t))
	return strconv.Itoa(jdk.Start(t, "../../testdata/gen/java-live/Virtual.java", []string{"-Xmx128m", "-XX:TieredStopAtLevel=1"}, args...))
}

// A JDK 25 service running its tasks on virtual threads, captured by the
// real command: every virtual thread is counted under its executor; a
// jstack of the same process lists platform threads only, and the report
// says so.
// jvmTestTimeout is capture's --timeout in tests that attach to a real
// JVM: the 10 s default is for a live incident; under a loaded test
// machine a real jcmd attach took 17.8 s (a fresh clone's make test beside
// another, load 35 on 2 cores).
const jvmTestTimeout = "3m"

func TestCaptureVirtualThreads(t *testing.T) {
	pid := startVirtual25(t, "2000", "0")
	dir := t.TempDir()
	out := filepath.Join(dir, "dumps")
	code, stdoutText, errs := runArgs(t, "capture", "--pid", pid, "--count", "1", "--out", out, "--analyze", "--format", "json", "--timeout", jvmTestTimeout)
	if code != 0 {
		t.Fatalf("capture: exit %d: %s", code, errs)
	}
	var rep report.JSONReport
	if err := json.Unmarshal([]byte(stdoutText), &rep); err != nil {
		t.Fatalf("report: %v\n%s", err, stdoutText)
	}
	virtual := 0
	for _, p := range rep.Pools {
		if p.Name == "java.util.concurrent.ThreadPerTaskExecutor@*" {
			virtual = p.Counts[0]
		}
	}
	if len(rep.Moments) != 1 || rep.Moments[0].Threads < 2000 || virtual != 2000 {
		t.Errorf("moments %+v, executor pool %d: want every one of the 2000 virtual threads", rep.Moments, virtual)
	}
	for _, w := range rep.Warnings {
		if strings.Contains(w, "virtual threads") {
			t.Errorf("the JSON moment is warned about: %q", w)
		}
	}

	js, err := exec.Command("jstack", pid).Output()
	if err != nil {
		t.Fatalf("jstack: %v", err)
	}
	jsFile := filepath.Join(dir, "jstack.txt")
	if err := os.WriteFile(jsFile, js, 0o644); err != nil {
		t.Fatal(err)
	}
	code, text, errs := runArgs(t, "--format", "json", jsFile)
	if code != 0 || !strings.Contains(text, "this JVM runs virtual threads") || !strings.Contains(text, "Thread.dump_to_file -format=json") {
		t.Errorf("jstack report (exit %d, %s) lacks the virtual-thread warning:\n%s", code, errs, text)
	}
}

// Virtual threads parked on a ReentrantLock: capture takes Thread.print -l
// beside the JSON moment, and the analysis names the platform holder from
// it, saying where the owner came from.
func TestCaptureVirtualThreadLockOwner(t *testing.T) {
	pid := startVirtual25(t, "5", "8", "1")
	out := filepath.Join(t.TempDir(), "dumps")
	code, stdoutText, errs := runArgs(t, "capture", "--pid", pid, "--count", "1", "--out", out, "--analyze", "--format", "json", "--timeout", jvmTestTimeout)
	if code != 0 {
		t.Fatalf("capture: exit %d: %s", code, errs)
	}
	var rep report.JSONReport
	if err := json.Unmarshal([]byte(stdoutText), &rep); err != nil {
		t.Fatalf("report: %v\n%s", err, stdoutText)
	}
	var found bool
	for _, f := range rep.Findings {
		if f.Kind != "contention" {
			continue
		}
		found = true
		if f.Basis != "owner-joined" || f.Lock.Owner.Name != "capture-test-lock-holder" || f.Lock.OwnerFrom != "Thread.print -l beside" || f.Counts[0] != 8 {
			t.Errorf("contention %+v: want 8 waiters, owner capture-test-lock-holder joined from Thread.print -l", f)
		}
	}
	if !found {
		t.Errorf("no contention finding: %s", stdoutText)
	}
}
