package analyze

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// scenarioMoments are the moments of each scenario folder, in order; a
// folder not listed has before, during-1, during-2 and after.
// go-slow-upstream-leak adds after-2, taken once the slow upstream calls have
// all returned (see its README.md).
var scenarioMoments = map[string][]string{
	"go-slow-upstream-leak": {"before", "during-1", "during-2", "after", "after-2"},
}

// loadScenario parses testdata/scenarios/NAME/MOMENT.txt for the moments of
// NAME (scenarioMoments): real dumps written by real servers (see each
// folder's README.md).
func loadScenario(t *testing.T, name string) []Input {
	t.Helper()
	dir := filepath.Join("..", "testdata", "scenarios", name)
	moments := scenarioMoments[name]
	if moments == nil {
		moments = []string{"before", "during-1", "during-2", "after"}
	}
	var in []Input
	for _, m := range moments {
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
		never    []string // findings that would be false: "kind", or "kind pool state" for one pool and state
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
		// At after both faults hold 150 goroutines; at after-2 the upstream
		// calls have returned (a slow dependency) and the senders have not (a leak).
		{"go-slow-upstream-leak", []want{
			{KindNotRecovered, "main.(*server).handleSearch", "chan-send", []string{`^150 of 150 `, `0 at before`, `still 150 at after-2`, `\d+ are the same goroutines stuck there from during-1 to after-2`, `handleSearch\.func1`}},
			{KindRecovered, "net/http server connections", "http-client-wait", []string{`rose from 0 at before to 150 at after`, `back to 0 at after-2`, `handleItems`}},
		}, []string{KindDeadlock, KindExplosion, KindContention, KindSaturated, KindGrowing, KindLeaked,
			KindNotRecovered + " net/http server connections http-client-wait"}},
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
					if k == f.Kind || k == f.Kind+" "+f.Pool+" "+f.State {
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
