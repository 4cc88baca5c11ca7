package promtest

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// exposition is a /metrics page the test rewrites while Prometheus scrapes
// it.
type exposition struct {
	mu   sync.Mutex
	text string
}

func (e *exposition) set(text string) {
	e.mu.Lock()
	e.text = text
	e.mu.Unlock()
}

func (e *exposition) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/metrics" {
		http.NotFound(w, r)
		return
	}
	e.mu.Lock()
	text := e.text
	e.mu.Unlock()
	w.Header().Set("Content-Type", "text/plain; version=0.0.4")
	io.WriteString(w, text)
}

// is accepts a result of one series with the value want.
func is(want float64) func([]Sample) bool {
	return func(s []Sample) bool { return len(s) == 1 && s[0].Value == want }
}

func empty(s []Sample) bool { return len(s) == 0 }

// TestScrape runs a real Prometheus against a page the test serves: a
// value it changes is seen within a few scrapes, a series it drops leaves
// instant queries as soon as Prometheus writes its stale marker (not after
// the 5 m lookback), and a target that refuses connections is up 0 with
// the reason.
func TestScrape(t *testing.T) {
	page := &exposition{}
	page.set("# TYPE promtest_probe gauge\npromtest_probe{target=\"a\"} 3\npromtest_probe{target=\"b\"} 1\n")
	srv := httptest.NewServer(page) // on 127.0.0.1:0
	t.Cleanup(srv.Close)            // registered first, so it closes after Prometheus has stopped
	live := srv.Listener.Addr().String()
	dead := closedAddr(t)

	started := time.Now()
	prom := Start(t, live, dead)
	t.Logf("Start: %v (ready, then the first scrape of each target)", time.Since(started).Round(time.Millisecond))

	prom.WaitFor(t, `promtest_probe{target="a"}`, 5*time.Second, is(3))
	up := prom.WaitFor(t, `up{job="dumpdiff"}`, 5*time.Second, func(s []Sample) bool { return len(s) == 2 })
	for _, s := range up {
		want := map[string]float64{live: 1, dead: 0}[s.Metric["instance"]]
		if s.Value != want {
			t.Errorf("%v, want %v", s, want)
		}
	}
	for _, g := range prom.Targets(t) {
		switch g.Instance {
		case live:
			if g.Health != "up" || g.LastError != "" || g.LastScrape.IsZero() {
				t.Errorf("live target: %v, scraped at %v; want up without an error", g, g.LastScrape)
			}
		case dead:
			if g.Health != "down" || g.LastError == "" {
				t.Errorf("dead target: %v; want down with the reason", g)
			}
		default:
			t.Errorf("a target nobody asked for: %v", g)
		}
	}

	// One scrape changes a and drops b.
	page.set("# TYPE promtest_probe gauge\npromtest_probe{target=\"a\"} 5\n")
	changed := time.Now()
	prom.WaitFor(t, `promtest_probe{target="a"}`, 5*time.Second, is(5))
	t.Logf("a = 5 seen after %v", time.Since(changed).Round(time.Millisecond))
	prom.WaitFor(t, `promtest_probe{target="b"}`, 5*time.Second, empty)
	t.Logf("b gone after %v", time.Since(changed).Round(time.Millisecond))
}

// closedAddr is a 127.0.0.1 address that refuses connections: a port
// listened on and closed.
func closedAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

func TestSampleString(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   Sample
		want string
	}{
		{"labels sorted", Sample{Metric: map[string]string{"__name__": "up", "job": "dumpdiff", "instance": "127.0.0.1:9"}, Value: 1}, `up{instance="127.0.0.1:9",job="dumpdiff"} 1`},
		{"no labels", Sample{Metric: map[string]string{"__name__": "up"}, Value: 0.5}, "up 0.5"},
		{"no name", Sample{Metric: map[string]string{"job": "x"}, Value: 2}, `{job="x"} 2`},
		{"scalar", Sample{Metric: map[string]string{}, Value: 7}, "7"},
	} {
		if got := tc.in.String(); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestConfigYAML(t *testing.T) {
	got := configYAML([]string{"127.0.0.1:1", "[::1]:2"})
	want := `global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: dumpdiff
    static_configs:
      - targets: ["127.0.0.1:1", "[::1]:2"]
`
	if got != want {
		t.Errorf("configYAML:\n%s\nwant:\n%s", got, want)
	}
}
