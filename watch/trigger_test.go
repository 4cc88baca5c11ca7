package watch

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/capture"
	"github.com/dumpdiff/dumpdiff/internal/promtest"
	"github.com/dumpdiff/dumpdiff/internal/watchtest"
)

// postTrigger posts body (JSON when it starts with '{') to /trigger.
func postTrigger(t *testing.T, base, query, body, token string) (int, triggerAnswer, http.Header) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, base+"/trigger"+query, strings.NewReader(body))
	if strings.HasPrefix(body, "{") {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var a triggerAnswer
	json.Unmarshal(b, &a)
	return resp.StatusCode, a, resp.Header
}

// amFiring is Alertmanager's webhook payload (version 4) for one firing
// alert, as its webhook receiver posts it.
const amFiring = `{"receiver":"dumpdiff","status":"firing","alerts":[{"status":"firing","labels":{"alertname":"HighLatency","target":"svc","severity":"page"},"annotations":{"summary":"p99 over 2s"},"startsAt":"2026-12-06T21:00:00Z","endsAt":"0001-01-01T00:00:00Z","generatorURL":"http://127.0.0.1:9090/graph","fingerprint":"5c3c1e2a1b0d9f0e"}],"groupLabels":{"alertname":"HighLatency"},"commonLabels":{"alertname":"HighLatency","target":"svc"},"commonAnnotations":{},"externalURL":"http://127.0.0.1:9093","version":"4","groupKey":"{}:{alertname=\"HighLatency\"}","truncatedAlerts":0}`

// TestTrigger: a healthy service, no finding; Alertmanager's payload naming
// the target opens an incident bundle now, holding the ring's moments
// before and the triggered one, with the alert said in its manifest; it
// closes at the next moment with no finding open. A second trigger within
// TriggerMinGap is refused with Retry-After, a resolved notice takes
// nothing, and an unknown target is a 404.
func TestTrigger(t *testing.T) {
	svc := watchtest.StartGoService(t)
	r := start(t, Config{Targets: []capture.Target{capture.PprofTarget("svc", svc.URL())}, Every: 300 * time.Millisecond})
	r.waitMoments(t, "svc", 3, 30*time.Second)

	code, a, _ := postTrigger(t, r.metrics, "", amFiring, "")
	if code != http.StatusAccepted || len(a.Accepted) != 1 || a.Accepted[0] != "svc" || a.Reason != "alert HighLatency (Alertmanager)" {
		t.Fatalf("Alertmanager's payload: %d %+v", code, a)
	}
	// A loaded machine can make the service's start look like a finding
	// that opened an incident before the trigger: the trigger then joins it.
	reps := r.waitDecisions(t, "svc", "trigger that opened or joined an incident", triggered("alert HighLatency (Alertmanager)"), 1, time.Minute)
	joined := decisions(reps, func(d decision) bool { return d.trigger != "" && !d.open }) > 0

	code, a, hdr := postTrigger(t, r.metrics, "?reason=again", "", "")
	if code != http.StatusTooManyRequests || a.Limited["svc"] <= 0 || hdr.Get("Retry-After") == "" {
		t.Errorf("a second trigger within %v: %d %+v (Retry-After %q)", TriggerMinGap, code, a, hdr.Get("Retry-After"))
	}
	resolved := strings.ReplaceAll(amFiring, `"status":"firing"`, `"status":"resolved"`)
	if code, a, _ := postTrigger(t, r.metrics, "", resolved, ""); code != http.StatusOK || len(a.Accepted) != 0 {
		t.Errorf("a resolved notice: %d %+v, want nothing taken", code, a)
	}
	if code, a, _ := postTrigger(t, r.metrics, "?target=nope", "", ""); code != http.StatusNotFound || len(a.Unknown) != 1 {
		t.Errorf("an unknown target: %d %+v", code, a)
	}
	if resp, err := http.Get(r.metrics + "/trigger"); err != nil || resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET /trigger: %v %v", resp, err)
	}

	if joined {
		t.Skipf("an incident opened by a finding before the trigger (the service's start under load); the trigger joined it:\n%s", r.log)
	}
	// It closes at the first later moment with no finding open (the
	// next, on a healthy service; later when a loaded machine shows one).
	r.waitDecisions(t, "svc", "incident closed as recovered", closed("recovered after"), 1, 2*time.Minute)
	bundles, _ := filepath.Glob(filepath.Join(r.cfg.Dir, incidentsDir, "*-svc*"))
	if len(bundles) != 1 {
		t.Fatalf("bundles %v, want the triggered one; log:\n%s", bundles, r.log)
	}
	m, err := capture.ReadManifest(bundles[0])
	if err != nil {
		t.Fatal(err)
	}
	if m.Trigger != "alert HighLatency (Alertmanager)" || len(m.Moments) < 4 {
		t.Errorf("bundle: trigger %q, %d moments; want the alert and the 3+ moments before, the triggered one and one after", m.Trigger, len(m.Moments))
	}
}

// TestTriggerToken: with a token, a trigger without it is 401 and one with
// it is taken; without a token, a listener that is not loopback refuses
// triggers (403).
func TestTriggerToken(t *testing.T) {
	w := &watcher{cfg: Config{TriggerToken: "s3cret", now: time.Now, Log: io.Discard}}
	tw := &target{w: w, name: "svc", trig: make(chan trigger, 1)}
	w.targets = []*target{tw}
	srv := httptest.NewServer(http.HandlerFunc(w.triggerHandler))
	defer srv.Close()
	if code, _, hdr := postTrigger(t, srv.URL, "", "", ""); code != http.StatusUnauthorized || hdr.Get("WWW-Authenticate") == "" {
		t.Errorf("no token: %d", code)
	}
	if code, _, _ := postTrigger(t, srv.URL, "", "", "wrong"); code != http.StatusUnauthorized {
		t.Errorf("a wrong token: %d", code)
	}
	if code, a, _ := postTrigger(t, srv.URL, "", "", "s3cret"); code != http.StatusAccepted || len(a.Accepted) != 1 {
		t.Errorf("the token: %d %+v", code, a)
	}
	if got := <-tw.trig; got.reason != "POST /trigger" {
		t.Errorf("triggered with %q", got.reason)
	}
	w.cfg.TriggerToken = ""
	w.cfg.Listener = nil // no loopback listener known: as one on 0.0.0.0
	if code, _, _ := postTrigger(t, srv.URL, "", "", ""); code != http.StatusForbidden {
		t.Errorf("no token, not loopback: %d, want 403", code)
	}
}

// TestAlertmanagerTrigger: a real Prometheus evaluates a real rule on the
// watched service's series and sends the firing alert to a real
// Alertmanager, whose webhook receiver points at watch's /trigger: the
// alert, with its target label, opens an incident bundle that holds the
// moments before and the triggered one, the alert named in its manifest.
// (The rule stands for the user's own: any alert carrying target="svc"
// or dumpdiff_target="svc" triggers that target; one naming none triggers
// every target.)
func TestAlertmanagerTrigger(t *testing.T) {
	svc := watchtest.StartGoService(t)
	r := start(t, Config{Targets: []capture.Target{capture.PprofTarget("svc", svc.URL())}, Every: 500 * time.Millisecond})
	r.waitMoments(t, "svc", 3, 30*time.Second)
	am := promtest.StartAlertmanager(t, r.metrics+"/trigger")
	rules := "groups:\n  - name: dumpdiff-test\n    rules:\n      - alert: ServiceWatched\n        expr: dumpdiff_target_up{target=\"svc\"} == 1\n        labels:\n          severity: page\n"
	promtest.StartWith(t, promtest.Config{Targets: []string{strings.TrimPrefix(r.metrics, "http://")}, Rules: rules, Alertmanager: am.Addr})
	reps := r.waitDecisions(t, "svc", "trigger from Alertmanager", triggered("alert ServiceWatched (Alertmanager)"), 1, 2*time.Minute)
	if decisions(reps, func(d decision) bool { return d.trigger != "" && !d.open }) > 0 {
		t.Skipf("an incident opened by a finding before the alert (the service's start under load); the alert joined it:\n%s", r.log)
	}
	bundles, _ := filepath.Glob(filepath.Join(r.cfg.Dir, incidentsDir, "*-svc*"))
	if len(bundles) == 0 {
		t.Fatalf("no bundle; log:\n%s", r.log)
	}
	m, err := capture.ReadManifest(bundles[0])
	if err != nil {
		t.Fatal(err)
	}
	if m.Trigger != "alert ServiceWatched (Alertmanager)" || len(m.Moments) < 4 {
		t.Errorf("bundle: trigger %q, %d moments; want the alert, the 3+ moments before and the triggered one", m.Trigger, len(m.Moments))
	}
}

// TestTriggerCarried: a trigger for a target that stopped answering is not
// lost: its moment gets no dump, the log says so, and the first later
// moment that answers (the service started again on its port) is the
// triggered one, opening the incident with the trigger's reason.
func TestTriggerCarried(t *testing.T) {
	svc := watchtest.StartGoService(t)
	r := start(t, Config{Targets: []capture.Target{capture.PprofTarget("svc", svc.URL())}, Every: 250 * time.Millisecond})
	r.waitMoments(t, "svc", 2, 30*time.Second)
	svc.Stop()
	r.takes(t, "svc", "a moment without a dump", func(d takeDecision) bool { return d.down != "" }, 1, time.Minute)
	code, a, _ := postTrigger(t, r.metrics, "?reason=p99+over+2s", "", "")
	if code != http.StatusAccepted || len(a.Accepted) != 1 {
		t.Fatalf("trigger: %d %+v", code, a)
	}
	// The triggered moment is taken and gets no answer before the service
	// is back: said in the log.
	r.until(t, "svc", time.Minute, func([]tickReport) error {
		if r.log.count("trigger (p99 over 2s) not answered") == 0 {
			return fmt.Errorf("no line for the trigger not answered:\n%s", r.log)
		}
		return nil
	})
	if n := decisions(r.ticks.of("svc"), triggered("p99 over 2s")); n != 0 {
		t.Fatalf("a decision took the trigger while the target was down (%d)", n)
	}
	svc.Restart(t)
	r.waitDecisions(t, "svc", "the carried trigger answered", triggered("p99 over 2s"), 1, 2*time.Minute)
}
