package watch

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/dumpdiff/dumpdiff/internal/bearer"
)

// Triggers: a moment taken now, on request, that opens an incident bundle
// even with no finding — for the alert the user already has (latency, an
// SLO burn) that watch's own verdict cannot see. POST /trigger on the
// --listen address takes Alertmanager's webhook payload as it is, or a
// plain request; Config.Trigger (SIGUSR1 in the command) takes one for
// every target.

// TriggerMinGap is the least time between two triggered moments of one
// target: an alert re-sent, or a receiver and a shell both asking, costs
// the target one dump, not one a request. Requests inside it are answered
// 429 with the time left.
const TriggerMinGap = 10 * time.Second

// triggerBodyMax bounds what /trigger reads of a request: Alertmanager's
// payload for a group of alerts is a few KiB.
const triggerBodyMax = 1 << 20

// trigger is one request for a moment now.
type trigger struct {
	reason string // what asked: "alert HighLatency (Alertmanager)", "SIGUSR1", "POST /trigger"
}

// triggerAnswer is what /trigger answers: the targets that take a moment
// now, those still taking the last triggered one (busy), those asked again
// within TriggerMinGap (limited, with the seconds left), and names that are
// no target.
type triggerAnswer struct {
	Accepted []string       `json:"accepted"`
	Busy     []string       `json:"busy,omitempty"`
	Limited  map[string]int `json:"limited,omitempty"`
	Unknown  []string       `json:"unknown,omitempty"`
	Reason   string         `json:"reason"`
}

// fire asks the targets named (all when names is empty) for a triggered
// moment. One per target at a time: a target whose last triggered moment
// is still pending is busy.
func (w *watcher) fire(names []string, reason string) triggerAnswer {
	a := triggerAnswer{Reason: reason, Accepted: []string{}}
	now := w.cfg.now()
	for _, n := range names {
		if !slices.ContainsFunc(w.targets, func(tw *target) bool { return tw.name == n }) {
			a.Unknown = append(a.Unknown, n)
		}
	}
	for _, tw := range w.targets {
		if len(names) > 0 && !slices.Contains(names, tw.name) {
			continue
		}
		tw.mu.Lock()
		left := TriggerMinGap - now.Sub(tw.lastTrigger)
		ok := tw.lastTrigger.IsZero() || left <= 0
		if ok {
			select {
			case tw.trig <- trigger{reason: reason}:
				tw.lastTrigger = now
			default:
				ok = false
				a.Busy = append(a.Busy, tw.name)
				left = 0
			}
		}
		tw.mu.Unlock()
		switch {
		case ok:
			a.Accepted = append(a.Accepted, tw.name)
		case left > 0:
			if a.Limited == nil {
				a.Limited = map[string]int{}
			}
			a.Limited[tw.name] = int(left.Round(time.Second) / time.Second)
		}
	}
	if len(a.Accepted) > 0 {
		w.logf("trigger (%s): a moment now of %s", reason, strings.Join(a.Accepted, ", "))
	}
	return a
}

// triggerHandler serves POST /trigger.
func (w *watcher) triggerHandler(rw http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		rw.Header().Set("Allow", "POST")
		http.Error(rw, "POST a trigger: Alertmanager's webhook payload, or ?target=NAME&reason=TEXT", http.StatusMethodNotAllowed)
		return
	}
	if !w.triggerAllowed(rw, r) {
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, triggerBodyMax+1))
	if err != nil || len(body) > triggerBodyMax {
		http.Error(rw, fmt.Sprintf("reading the request: at most %d bytes", triggerBodyMax), http.StatusRequestEntityTooLarge)
		return
	}
	names, reason, err := parseTrigger(r, body)
	if err != nil {
		http.Error(rw, err.Error(), http.StatusBadRequest)
		return
	}
	if reason == "" {
		// Alertmanager also posts when the alert resolves: nothing to take.
		rw.Header().Set("Content-Type", "application/json")
		json.NewEncoder(rw).Encode(triggerAnswer{Accepted: []string{}, Reason: "no firing alert"})
		return
	}
	a := w.fire(names, reason)
	status := http.StatusAccepted
	switch {
	case len(a.Accepted) > 0:
	case len(a.Limited) > 0 || len(a.Busy) > 0:
		status = http.StatusTooManyRequests
		most := 0
		for _, s := range a.Limited {
			most = max(most, s)
		}
		rw.Header().Set("Retry-After", fmt.Sprint(max(1, most)))
	default:
		status = http.StatusNotFound
	}
	rw.Header().Set("Content-Type", "application/json")
	rw.WriteHeader(status)
	json.NewEncoder(rw).Encode(a)
}

// triggerAllowed checks the bearer token: required when Config.TriggerToken
// is set; without one, triggers are taken only on a loopback listener (a
// trigger costs the target a dump: not for anyone who can reach the port).
func (w *watcher) triggerAllowed(rw http.ResponseWriter, r *http.Request) bool {
	if tok := w.cfg.TriggerToken; tok != "" {
		if !bearer.Authorized(r, tok) {
			bearer.Refuse(rw, "dumpdiff watch", "a trigger needs the bearer token (--token-file)")
			return false
		}
		return true
	}
	if !bearer.Loopback(w.cfg.Listener) {
		http.Error(rw, "triggers on an address other than loopback need a bearer token (--token-file)", http.StatusForbidden)
		return false
	}
	return true
}

// amPayload is the part of Alertmanager's webhook payload (version 4) a
// trigger reads.
type amPayload struct {
	Version string `json:"version"`
	Status  string `json:"status"`
	Alerts  []struct {
		Status string            `json:"status"`
		Labels map[string]string `json:"labels"`
	} `json:"alerts"`
}

// targetLabels are the alert labels that name a watch target: watch's own
// metrics label ("target"), so an alert on dumpdiff's series names it, and
// an explicit one for alerts on the service's own series.
var targetLabels = []string{"dumpdiff_target", "target"}

// parseTrigger reads a trigger request: the targets it names (none: all)
// and the reason said in the bundle and the log; reason is "" when the
// request holds no firing alert (Alertmanager's resolved notice).
func parseTrigger(r *http.Request, body []byte) (names []string, reason string, err error) {
	q := r.URL.Query()
	names = q["target"]
	if len(strings.TrimSpace(string(body))) == 0 || !strings.Contains(r.Header.Get("Content-Type"), "json") && body[0] != '{' {
		reason = q.Get("reason")
		if reason == "" {
			reason = "POST /trigger"
		}
		return names, reason, nil
	}
	var p amPayload
	if err := json.Unmarshal(body, &p); err != nil {
		return nil, "", fmt.Errorf("the request body is not Alertmanager's webhook payload: %v", err)
	}
	if p.Alerts == nil {
		return nil, "", fmt.Errorf("the request body holds no alerts: want Alertmanager's webhook payload (version 4), or no body")
	}
	var alerts []string
	for _, a := range p.Alerts {
		if a.Status != "firing" {
			continue
		}
		n := a.Labels["alertname"]
		if n == "" {
			n = "unnamed"
		}
		if !slices.Contains(alerts, n) {
			alerts = append(alerts, n)
		}
		for _, l := range targetLabels {
			if t := a.Labels[l]; t != "" && !slices.Contains(names, t) {
				names = append(names, t)
				break
			}
		}
	}
	if len(alerts) == 0 {
		return nil, "", nil
	}
	return names, "alert " + strings.Join(alerts, ", ") + " (Alertmanager)", nil
}
