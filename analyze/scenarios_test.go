package analyze

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// loadScenario parses testdata/scenarios/NAME/{before,during-1,during-2,after}.txt:
// real dumps written by real servers (see each folder's README.md).
func loadScenario(t *testing.T, name string) []Input {
	t.Helper()
	dir := filepath.Join("..", "testdata", "scenarios", name)
	var in []Input
	for _, m := range []string{"before", "during-1", "during-2", "after"} {
		path := filepath.Join(dir, m+".txt")
		if _, err := os.Stat(path); err != nil {
			t.Fatalf("scenario %s has no %s.txt: the fixtures are committed; regenerate with make fixtures", name, m)
		}
		ds, err := parse.ParseFile(path)
		if err != nil {
			t.Fatal(err)
		}
		in = append(in, Input{Label: m, Dump: ds[0]})
	}
	return in
}

// TestScenarioVerdicts checks the verdict of each real incident: the
// findings it must give (kind, pool, state, with the numbers in the
// summary) and the findings it must not give (nothing false).
func TestScenarioVerdicts(t *testing.T) {
	type want struct {
		kind, pool, state string
		summary           []string // regular expressions the summary must match
	}
	tests := []struct {
		scenario string
		want     []want
		never    []string // finding kinds that would be false
	}{
		{"slow-upstream-no-timeout", []want{
			{KindNotRecovered, "http-nio-18080-exec-*", "socket-read", []string{`^200 of 200 `, `still 200 at after`, `200 are the same threads`, `UpstreamClient\.fetch`}},
			{KindSaturated, "http-nio-18080-exec-*", "socket-read", []string{`none idle`, `Tomcat maxThreads`}},
		}, []string{KindDeadlock, KindExplosion, KindContention, KindRecovered, KindLeaked}},
		{"slow-upstream-bulkhead", nil, []string{KindNotRecovered, KindSaturated, KindDeadlock, KindExplosion, KindContention, KindGrowing}},
		{"completablefuture-thread-per-task", []want{
			{KindExplosion, "Thread-*", "socket-read", []string{`created per task`, `UpstreamClient\.fetch`, `threads ×[0-9.]+: 3\d at before → [12]\d\d\d at`}},
			{KindNotRecovered, "Thread-*", "socket-read", []string{`UpstreamClient\.fetch`}},
		}, []string{KindDeadlock, KindContention, KindSaturated}},
		{"mypage-pool-stuck", []want{
			{KindNotRecovered, "mypage-*", "socket-read", []string{`^(6\d|7\d) of 80 mypage-\* threads`, `still (6\d|7\d) at after`, `UpstreamClient\.fetch`}},
		}, []string{KindDeadlock, KindExplosion, KindContention, KindSaturated}},
		{"hikari-pool-exhausted", []want{
			{KindDBPoolExhausted, "http-nio-18080-exec-*", "db-pool-wait", []string{`DB connection pool exhausted`, `(8\d|9\d) http-nio-18080-exec-\* threads wait`, `about 10 connections`, `health check com\.example\.shop\.HealthServlet`, `recovered: 0 waiting at after`}},
		}, []string{KindNotRecovered, KindSaturated, KindDeadlock, KindExplosion, KindContention, KindGrowing}},
		{"go-slow-upstream-leak", []want{
			{KindGrowing, "main.(*server).handleSearch", "chan-send", []string{`before 0`, `after 150`, `handleSearch\.func1`}},
			{KindGrowing, "net/http server connections", "http-client-wait", []string{`after 150`, `handleItems`}},
		}, []string{KindDeadlock, KindExplosion, KindContention, KindSaturated}},
	}
	for _, tt := range tests {
		t.Run(tt.scenario, func(t *testing.T) {
			r := Analyze(loadScenario(t, tt.scenario), Options{})
			for _, w := range tt.want {
				found := false
				for _, f := range r.Findings {
					if f.Kind != w.kind || f.Pool != w.pool || f.State != w.state {
						continue
					}
					found = true
					for _, s := range w.summary {
						if !regexp.MustCompile(s).MatchString(f.Summary) {
							t.Errorf("%s %s %s: summary does not match %q:\n%s", w.kind, w.pool, w.state, s, f.Summary)
						}
					}
				}
				if !found {
					t.Errorf("no %s finding for %s in %s", w.kind, w.pool, w.state)
				}
			}
			for _, f := range r.Findings {
				for _, k := range tt.never {
					if f.Kind == k {
						t.Errorf("false finding: %s %s", f.Kind, f.Summary)
					}
				}
			}
			if t.Failed() {
				for _, f := range r.Findings {
					t.Logf("got %s %s %s: %s", f.Kind, f.Pool, f.State, f.Summary)
				}
			}
		})
	}
}
