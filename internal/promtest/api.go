package promtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/internal/testwait"
)

// Sample is one series of an instant query's result.
type Sample struct {
	Metric map[string]string // the series' labels, __name__ among them; empty for an expression without one (sum, a scalar)
	Value  float64           // its value at the query's time; NaN and ±Inf as Prometheus gives them
}

// String is the series as the exposition format writes it,
// `promtest_probe{target="a"} 3`, or the bare value of a scalar.
func (s Sample) String() string {
	var b strings.Builder
	b.WriteString(s.Metric["__name__"])
	var names []string
	for name := range s.Metric {
		if name != "__name__" {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	if len(names) > 0 {
		b.WriteByte('{')
		for i, name := range names {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "%s=%q", name, s.Metric[name])
		}
		b.WriteByte('}')
	}
	if b.Len() > 0 {
		b.WriteByte(' ')
	}
	b.WriteString(strconv.FormatFloat(s.Value, 'g', -1, 64))
	return b.String()
}

// Target is one scrape target's health as /api/v1/targets reports it.
type Target struct {
	Instance   string    // its instance label: the "127.0.0.1:PORT" given to Start
	ScrapeURL  string    // "http://127.0.0.1:PORT/metrics"
	Health     string    // "up", "down", or "unknown" before its first scrape
	LastError  string    // why its last scrape failed; empty when it succeeded
	LastScrape time.Time // when its last scrape began; zero before the first
}

// String is "127.0.0.1:PORT up", or "down (the error)", for failure
// messages.
func (g Target) String() string {
	if g.LastError != "" {
		return fmt.Sprintf("%s %s (%s)", g.Instance, g.Health, g.LastError)
	}
	return g.Instance + " " + g.Health
}

// Query is the instant query expr, evaluated now. A query Prometheus
// refuses (a syntax error, a timeout) fails the test with its error.
func (s *Server) Query(t testing.TB, expr string) []Sample {
	t.Helper()
	samples, err := s.query(expr)
	if err != nil {
		t.Fatalf("promtest: query %s: %v", expr, err)
	}
	return samples
}

// WaitFor runs Query until ok accepts its result, and returns that result;
// when within passes first, the test fails with expr, the last result and
// the targets' health.
func (s *Server) WaitFor(t testing.TB, expr string, within time.Duration, ok func([]Sample) bool) []Sample {
	t.Helper()
	var samples []Sample
	testwait.Eventually(t, within, func() error {
		if samples = s.Query(t, expr); ok(samples) {
			return nil
		}
		return notAsWanted{s, expr, samples}
	})
	return samples
}

// notAsWanted is WaitFor's last result; the targets' health is asked only
// when it is shown (the test fails), not at every query.
type notAsWanted struct {
	s       *Server
	expr    string
	samples []Sample
}

func (e notAsWanted) Error() string {
	targets, err := e.s.targets()
	diag := fmt.Sprint(targets)
	if err != nil {
		diag = err.Error()
	}
	return fmt.Sprintf("promtest: %s not as wanted: last result %v; targets %s", e.expr, e.samples, diag)
}

// Targets is the health of every scrape target, for diagnostics.
func (s *Server) Targets(t testing.TB) []Target {
	t.Helper()
	targets, err := s.targets()
	if err != nil {
		t.Fatalf("promtest: targets: %v", err)
	}
	return targets
}

// response is the envelope of every /api/v1 answer: Data on success,
// ErrorType and Error otherwise (with a 4xx or 5xx status).
type response[T any] struct {
	Status    string `json:"status"` // "success" or "error"
	Data      T      `json:"data"`
	ErrorType string `json:"errorType"` // "bad_data", "timeout", ...
	Error     string `json:"error"`
}

// get decodes the envelope of GET path?params into data. The body is read
// whatever the HTTP status: an error's reason is in it.
func get[T any](s *Server, path string, params url.Values) (T, error) {
	var r response[T]
	u := s.URL + path
	if len(params) > 0 {
		u += "?" + params.Encode()
	}
	resp, err := s.client.Get(u)
	if err != nil {
		return r.Data, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return r.Data, err
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return r.Data, fmt.Errorf("%s: %s: not the API's JSON (%v): %.200q", path, resp.Status, err, body)
	}
	if r.Status != "success" {
		return r.Data, fmt.Errorf("%s: %s", r.ErrorType, r.Error)
	}
	return r.Data, nil
}

// queryData is /api/v1/query's data: a vector is
// [{"metric": {...}, "value": [1796170728.579, "3"]}, ...], a scalar is one
// [time, "value"] pair.
type queryData struct {
	ResultType string          `json:"resultType"` // "vector", "scalar", "matrix" or "string"
	Result     json.RawMessage `json:"result"`
}

func (s *Server) query(expr string) ([]Sample, error) {
	data, err := get[queryData](s, "/api/v1/query", url.Values{"query": {expr}})
	if err != nil {
		return nil, err
	}
	switch data.ResultType {
	case "vector":
		var series []struct {
			Metric map[string]string `json:"metric"`
			Value  point             `json:"value"`
		}
		if err := json.Unmarshal(data.Result, &series); err != nil {
			return nil, fmt.Errorf("decoding the vector: %v", err)
		}
		samples := make([]Sample, 0, len(series))
		for _, x := range series {
			v, err := x.Value.float()
			if err != nil {
				return nil, err
			}
			samples = append(samples, Sample{Metric: x.Metric, Value: v})
		}
		return samples, nil
	case "scalar":
		var p point
		if err := json.Unmarshal(data.Result, &p); err != nil {
			return nil, fmt.Errorf("decoding the scalar: %v", err)
		}
		v, err := p.float()
		if err != nil {
			return nil, err
		}
		return []Sample{{Metric: map[string]string{}, Value: v}}, nil
	}
	return nil, fmt.Errorf("a %s result: an instant query here wants a vector or a scalar", data.ResultType)
}

// point is [time, "value"]: the value is a string so that NaN and ±Inf
// survive JSON.
type point [2]json.RawMessage

func (p point) float() (float64, error) {
	var text string
	if err := json.Unmarshal(p[1], &text); err != nil {
		return 0, fmt.Errorf("value %s: %v", p[1], err)
	}
	v, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return 0, fmt.Errorf("value %q: %v", text, err)
	}
	return v, nil
}

func (s *Server) targets() ([]Target, error) {
	data, err := get[struct {
		Active []struct {
			Labels     map[string]string `json:"labels"`
			ScrapeURL  string            `json:"scrapeUrl"`
			Health     string            `json:"health"`
			LastError  string            `json:"lastError"`
			LastScrape time.Time         `json:"lastScrape"`
		} `json:"activeTargets"`
	}](s, "/api/v1/targets", nil)
	if err != nil {
		return nil, err
	}
	targets := make([]Target, 0, len(data.Active))
	for _, a := range data.Active {
		targets = append(targets, Target{
			Instance:   a.Labels["instance"],
			ScrapeURL:  a.ScrapeURL,
			Health:     a.Health,
			LastError:  a.LastError,
			LastScrape: a.LastScrape,
		})
	}
	return targets, nil
}
