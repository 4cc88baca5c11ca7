package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/dumpdiff/dumpdiff/capture"
)

// A capture costs the target a dump at every moment (a JVM's safepoint, a
// Go stop of the world): the tool is off unless the server was started
// with it allowed, and then takes only the targets listed at start, with
// a bounded schedule.
const (
	maxCaptureCount = 10
	maxCaptureEvery = 60 * time.Second
)

// CaptureIn asks for a capture.
type CaptureIn struct {
	Target       string `json:"target" jsonschema:"one of the targets the server was started with, as listed in this tool's description (its source or its index)"`
	Count        int    `json:"count,omitempty" jsonschema:"moments to take, 1 to 10 (default 3)"`
	EverySeconds int    `json:"every_seconds,omitempty" jsonschema:"seconds between moments, 1 to 60 (default 5)"`
	Out          string `json:"out" jsonschema:"a new folder under the server's roots for the dumps"`
	Limit        int    `json:"limit,omitempty" jsonschema:"findings in the verdict's first page (default 50)"`
}

// Captured is a capture and its verdict.
type Captured struct {
	Out     string  `json:"out" jsonschema:"the capture's folder"`
	Files   int     `json:"files" jsonschema:"dump files kept"`
	Failed  int     `json:"failed" jsonschema:"files that failed (their errors are in the folder's manifest.json)"`
	Verdict Verdict `json:"verdict"`
}

// targetSources are the allow-list as a client sees it.
func (s *Server) targetSources() []string {
	var out []string
	for i, t := range s.cfg.Targets {
		out = append(out, fmt.Sprintf("%d: %s", i, s.cfg.Plan.Redact(t.Source())))
	}
	return out
}

// pick is the listed target name stands for (its index or its source).
func (s *Server) pick(name string) (capture.Target, error) {
	name = strings.TrimSpace(name)
	if i, err := strconv.Atoi(name); err == nil && i >= 0 && i < len(s.cfg.Targets) {
		return s.cfg.Targets[i], nil
	}
	for _, t := range s.cfg.Targets {
		if name == t.Source() || name == s.cfg.Plan.Redact(t.Source()) || (t.Name != "" && name == t.Name) {
			return t, nil
		}
	}
	return capture.Target{}, fmt.Errorf("target %q is not on this server's list: it captures only %s", name, strings.Join(s.targetSources(), "; "))
}

func (s *Server) captureTool(ctx context.Context, in CaptureIn) (Captured, error) {
	if !s.cfg.AllowCapture {
		return Captured{}, errors.New("capture is off: this server was not started with --allow-capture (and a list of targets); analyze dumps already taken instead")
	}
	if len(s.cfg.Targets) == 0 {
		return Captured{}, errors.New("capture is allowed but no target is listed: start the server with the targets it may capture")
	}
	t, err := s.pick(in.Target)
	if err != nil {
		return Captured{}, err
	}
	if in.Count == 0 {
		in.Count = 3
	}
	if in.EverySeconds == 0 {
		in.EverySeconds = 5
	}
	if in.Count < 1 || in.Count > maxCaptureCount {
		return Captured{}, fmt.Errorf("count %d: want 1 to %d", in.Count, maxCaptureCount)
	}
	every := time.Duration(in.EverySeconds) * time.Second
	if every < time.Second || every > maxCaptureEvery {
		return Captured{}, fmt.Errorf("every_seconds %d: want 1 to %d", in.EverySeconds, int(maxCaptureEvery/time.Second))
	}
	out, err := s.resolveNew(in.Out)
	if err != nil {
		return Captured{}, err
	}
	p := s.cfg.Plan
	p.Targets, p.Count, p.Every, p.OutDir, p.Load, p.Append = []capture.Target{t}, in.Count, every, out, "", false
	m, err := capture.Run(ctx, p, nil)
	if err != nil {
		// capture's errors are scrubbed of the plan's secrets already.
		if m == nil || m.Failed() == len(m.Files) {
			return Captured{}, fmt.Errorf("capture: %w", err)
		}
		return Captured{}, fmt.Errorf("capture: %w (what was captured is in %s)", err, out)
	}
	a, err := s.analyzePaths([]string{out}, AnalyzeOptions{})
	if err != nil {
		return Captured{}, err
	}
	v, err := s.verdict(a, PageIn{Limit: in.Limit})
	if err != nil {
		return Captured{}, err
	}
	return Captured{Out: out, Files: len(m.Files) - m.Failed(), Failed: m.Failed(), Verdict: v}, nil
}

func (s *Server) addCaptureTool() {
	desc := "Capture dumps now from a running process and analyze them: "
	switch {
	case !s.cfg.AllowCapture:
		desc += "OFF on this server (not started with --allow-capture); every call is refused."
	case len(s.cfg.Targets) == 0:
		desc += "allowed, but no target is listed: every call is refused."
	default:
		desc += "it takes only these targets, by index or as written: " + strings.Join(s.targetSources(), "; ") + ". "
	}
	desc += " Each moment costs the target a dump (a JVM safepoint, a Go stop of the world)."
	tool(s, "capture", "Capture and analyze", desc, false, s.captureTool)
}
