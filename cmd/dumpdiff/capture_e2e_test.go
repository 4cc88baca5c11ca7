package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/internal/testwait"
)

// TestCaptureRunningScenario runs the real go-slow-upstream service (the
// program that wrote testdata/scenarios/go-slow-upstream-leak) on
// 127.0.0.1, captures it with `dumpdiff capture --load` around its own
// bounded load, analyzes the folder, and expects the verdicts of the
// committed fixtures: both the no-timeout upstream calls and the leaked
// senders grow at every moment. About 12 s.
func TestCaptureRunningScenario(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skips the 12 s live scenario")
	}
	src, _ := filepath.Abs("../../testdata/gen/go-slow-upstream")
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "slowupstream")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = src
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the scenario service: %v\n%s", err, out)
	}
	addrFile := filepath.Join(tmp, "addr")
	srv := exec.Command(bin, "serve", "-addr-file", addrFile)
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Process.Kill(); srv.Wait() })
	// The service writes "ADDR\n" once it listens: whole when the
	// newline is there.
	var addr []byte
	testwait.Eventually(t, 30*time.Second, func() error {
		var err error
		if addr, err = os.ReadFile(addrFile); err != nil || !bytes.HasSuffix(addr, []byte("\n")) {
			return fmt.Errorf("the scenario service did not start: %q, %v", addr, err)
		}
		return nil
	})
	base := "http://" + strings.TrimSpace(string(addr))
	out := filepath.Join(tmp, "dumps")
	load := bin + " load -base " + base + " -rate 20 -duration 6s -timeout 2s"
	code, _, errs := runArgs(t, "capture", base, "--load", load, "--during-every", "2500ms", "--after", "2s", "--out", out)
	if code != 0 {
		t.Fatalf("capture exit %d: %s", code, errs)
	}
	doc := jsonReport(t, out)
	if n := len(doc.Moments); n < 3 || doc.Moments[0].Label != "before" || doc.Moments[n-1].Label != "after" {
		t.Fatalf("moments %+v, want before, during-N..., after", doc.Moments)
	}
	has := func(pool, state string) bool {
		for _, f := range doc.Findings {
			if f.Pool == pool && f.State == state && (f.Kind == "growing" || f.Kind == "not-recovered") {
				return true
			}
		}
		return false
	}
	if !has("main.(*server).handleSearch", "chan-send") || !has("net/http server connections", "http-client-wait") {
		t.Errorf("verdicts differ from the committed fixture's: %+v", doc.Findings)
	}
	for _, f := range doc.Findings {
		if f.Kind == "deadlock" || f.Kind == "explosion" || f.Kind == "saturated" {
			t.Errorf("false finding: %s %s", f.Kind, f.Summary)
		}
	}
	// The lead says since when from the load's start, which the manifest
	// recorded (issue 34: "since 17:53:18, +10 s after the load began").
	text, _ := textReport(t, out)
	lead, _, _ := strings.Cut(text, "\n\n")
	if !regexp.MustCompile(`since \d\d:\d\d:\d\d \(during-\d+, \+\d+s after the load began\)`).MatchString(lead) {
		t.Errorf("the lead does not say since when from the load's start:\n%s", lead)
	}
}
