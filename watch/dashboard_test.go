package watch

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/capture"
	"github.com/dumpdiff/dumpdiff/internal/promtest"
	"github.com/dumpdiff/dumpdiff/internal/watchtest"
)

// TestGrafanaDashboard: every panel query of deploy/grafana's dashboard
// runs against a real Prometheus scraping a real watch of the Go test
// service and returns series (Grafana's variables given as a user's
// "All": $target .*, $__rate_interval 1m, $__range 5m).
func TestGrafanaDashboard(t *testing.T) {
	b, err := os.ReadFile("../deploy/grafana/dumpdiff-watch.json")
	if err != nil {
		t.Fatal(err)
	}
	var dash struct {
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	if err := json.Unmarshal(b, &dash); err != nil {
		t.Fatalf("the dashboard is not JSON: %v", err)
	}
	if len(dash.Panels) == 0 {
		t.Fatal("no panels")
	}
	svc := watchtest.StartGoService(t)
	r := start(t, Config{Targets: []capture.Target{capture.PprofTarget("svc", svc.URL())}, Every: 250 * time.Millisecond})
	prom := promtest.Start(t, strings.TrimPrefix(r.metrics, "http://"))
	prom.WaitFor(t, `dumpdiff_capture_seconds_count{target="svc"} > 8`, 60*time.Second, func(s []promtest.Sample) bool { return len(s) > 0 })
	vars := strings.NewReplacer("$target", ".*", "$__rate_interval", "1m", "$__range", "5m")
	for _, p := range dash.Panels {
		for _, q := range p.Targets {
			expr := vars.Replace(q.Expr)
			prom.WaitFor(t, expr, 30*time.Second, func(s []promtest.Sample) bool { return len(s) > 0 })
		}
	}
}
