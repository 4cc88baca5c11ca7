package watch

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/capture"
	"github.com/dumpdiff/dumpdiff/parse"
)

// TestWatchSpeaks: watch says what it watches and where its metrics are
// when it starts, one line per moment with the moment's time and verdict
// (none under Quiet), and what it kept when it stops; the series alerting
// needs exist from the first scrape (every capture-error reason, every
// findings severity and thread category at 0), with the last capture's
// time and the build.
func TestWatchSpeaks(t *testing.T) {
	for _, quiet := range []bool{false, true} {
		t.Run(fmt.Sprintf("quiet=%v", quiet), func(t *testing.T) {
			srv := pprofServer(t, nil)
			url := "http://" + srv.Addr + "/debug/pprof/goroutine"
			r := start(t, Config{Targets: []capture.Target{capture.PprofTarget("api", url)}, Every: 15 * time.Millisecond, Keep: 5,
				Quiet: quiet, Build: Build{Version: "v9.9.9", Commit: "0123456789ab", GoVersion: "go1.26"}})
			r.more(t, "api", 3, time.Minute)
			// Said before the first tick.
			for _, want := range []string{"watching api every 15ms into " + r.cfg.Dir, "metrics at " + r.metrics + "/metrics"} {
				if !strings.Contains(r.log.String(), want) {
					t.Errorf("the start line does not say %q; log:\n%s", want, r.log)
				}
			}
			// The moment's line: target, time, threads, verdict (this test
			// process's own goroutines: the tests before it in the process,
			// with -count above all, may leave some that make a finding).
			tick := regexp.MustCompile(`dumpdiff watch: api \d\d:\d\d:\d\d · \d+ threads \(.*idle.*\) · (no findings|(CRITICAL|WARNING|INFO) .*)\n`)
			ticks := len(tick.FindAllString(r.log.String(), -1))
			if quiet && ticks > 0 || !quiet && ticks < 3 {
				t.Errorf("quiet %v: %d lines per moment; log:\n%s", quiet, ticks, r.log)
			}
			page := r.scrape(t)
			for _, reason := range capture.Reasons {
				if v := metricValue(page, `dumpdiff_capture_errors_total{reason="`+reason+`",target="api"}`); v != 0 {
					t.Errorf("capture errors %s: %v", reason, v)
				}
				if !strings.Contains(page, `dumpdiff_capture_errors_total{reason="`+reason+`",target="api"} 0`) {
					t.Errorf("no zero series for capture errors of reason %s", reason)
				}
			}
			// Every severity served, 0 too (the count is this test process's
			// findings: see the moment's line).
			for _, sev := range []string{"critical", "warning", "info"} {
				if !strings.Contains(page, `dumpdiff_findings_open{severity="`+sev+`",target="api"} `) {
					t.Errorf("no series of open %s findings", sev)
				}
			}
			for _, c := range Categories {
				if !strings.Contains(page, `dumpdiff_thread_categories{category="`+string(c)+`",target="api"} `) {
					t.Errorf("no series of %s threads", c)
				}
			}
			if metricValue(page, `dumpdiff_thread_categories{category="idle",target="api"}`) < 1 {
				t.Errorf("a test process with idle goroutines serves no idle threads:\n%s", page)
			}
			if !strings.Contains(page, `dumpdiff_build_info{commit="0123456789ab",goversion="go1.26",version="v9.9.9"} 1`) {
				t.Errorf("no build info")
			}
			last := metricValue(page, `dumpdiff_last_capture_timestamp_seconds{target="api"}`)
			if now := float64(time.Now().Unix()); last < now-60 || last > now+1 {
				t.Errorf("last capture at %v, now is %v", last, now)
			}
			if err := r.stop(t); err != nil {
				t.Fatal(err)
			}
			if !regexp.MustCompile(`dumpdiff watch: stopped: api \d+ moments \(.*\) in ` + regexp.QuoteMeta(r.cfg.Dir)).MatchString(r.log.String()) {
				t.Errorf("no line of what was kept at stop; log:\n%s", r.log)
			}
		})
	}
}

// TestWhenSaysTheTime: a moment's label (a UTC stamp) is said as its
// local time, whatever the stamp; other labels as they are.
func TestWhenSaysTheTime(t *testing.T) {
	for i := range 200 {
		at := time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * 7919 * time.Second)
		if got, want := when(label(at, time.Minute)), at.Local().Format("15:04:05"); got != want {
			t.Fatalf("when(%s) = %s, want %s", label(at, time.Minute), got, want)
		}
		ms := at.Add(time.Duration(i) * time.Millisecond)
		if got, want := when(label(ms, 100*time.Millisecond)+"-2"), ms.Local().Format("15:04:05.000")+"-2"; got != want {
			t.Fatalf("when(%s-2) = %s, want %s", label(ms, 100*time.Millisecond), got, want)
		}
	}
	if got := when("before"); got != "before" {
		t.Errorf("when(before) = %s", got)
	}
}

// TestIncidentLineSaysTimes: an incident's log line says its moments as
// times, not as the UTC stamps that name their files.
func TestIncidentLineSaysTimes(t *testing.T) {
	dir := "../testdata/scenarios/slow-upstream-no-timeout/"
	var in []analyze.Input
	at := time.Date(2026, 12, 6, 5, 2, 26, 0, time.UTC)
	for i, name := range []string{"before", "during-1", "during-2", "after"} {
		ds, err := parse.ParseFile(dir + name + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		in = append(in, analyze.Input{Label: label(at.Add(time.Duration(i)*15*time.Second), 15*time.Second), Dump: ds[0]})
	}
	r := analyze.Analyze(in, analyze.Options{})
	if len(r.Findings) == 0 {
		t.Fatal("no finding on the scenario")
	}
	line := openLine(r, []*analyze.Finding{&r.Findings[0]})
	if stamp := regexp.MustCompile(`\d{8}T\d{6}Z`); stamp.MatchString(line) {
		t.Errorf("a stamp in the incident line: %s", line)
	}
	if want := at.Add(15 * time.Second).Local().Format("15:04:05"); !strings.Contains(line, want) {
		t.Errorf("the incident line does not say %s: %s", want, line)
	}
}
