//go:build unix

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dumpdiff/dumpdiff/capture"
	"github.com/dumpdiff/dumpdiff/internal/testwait"
	"github.com/dumpdiff/dumpdiff/mcpserver"
	"github.com/dumpdiff/dumpdiff/watch"
)

// makeWatchFolder makes a real watch folder, root/watch: watch.Run in the
// test's process, its target a command printing the HikariCP scenario's
// dumps in turn (before, then the pool exhausted) as --exec takes them; a
// trigger opens a bundle whatever the verdict. It returns once the folder
// has a bundle and watch has stopped (the open incident's reports written
// as it stands).
func makeWatchFolder(t *testing.T, root string) string {
	t.Helper()
	scen, err := filepath.Abs("../../testdata/scenarios/hikari-pool-exhausted")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "watch")
	counter := filepath.Join(root, "n")
	cmd := fmt.Sprintf(`n=$(cat %[1]s 2>/dev/null || echo 0); echo $((n+1)) > %[1]s; `+
		`case $n in 0|1) f=before ;; 2) f=during-1 ;; *) f=during-2 ;; esac; cat %[2]s/$f.txt`, counter, scen)
	trig := make(chan string, 1)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- watch.Run(ctx, watch.Config{Targets: []capture.Target{capture.ExecTarget("svc", cmd)}, Every: 50 * time.Millisecond,
			Keep: 10, Dir: dir, Trigger: trig, Quiet: true})
	}()
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			cancel()
			if err := <-done; err != nil {
				t.Errorf("watch: %v", err)
			}
		}
	}
	defer stop()
	testwait.Eventually(t, 30*time.Second, func() error {
		m, err := capture.ReadManifest(filepath.Join(dir, "svc"))
		if err != nil || len(m.Moments) < 4 {
			return fmt.Errorf("the ring has not 4 moments yet (%v)", err)
		}
		return nil
	})
	trig <- "test"
	testwait.Eventually(t, 30*time.Second, func() error {
		bundles, _ := filepath.Glob(filepath.Join(dir, "incidents", "*", "incident.json"))
		if len(bundles) == 0 {
			return fmt.Errorf("no incident bundle yet")
		}
		return nil
	})
	stop() // the open incident's reports are written as it stands
	return dir
}

// TestMCPWatchBundle: the server lists a real watch folder's incidents and
// analyzes the bundle: the bundle's findings, moments and warnings are what
// `dumpdiff --format json BUNDLE` says.
func TestMCPWatchBundle(t *testing.T) {
	root := t.TempDir()
	root, _ = filepath.EvalSymlinks(root)
	makeWatchFolder(t, root)
	cs := mcpClient(t, mcpserver.Config{Roots: []string{root}})
	var incs mcpserver.Incidents
	callTool(t, cs, "incidents", map[string]any{"folder": "watch"}, &incs)
	if len(incs.Incidents) == 0 || incs.Unreadable != "" {
		t.Fatalf("incidents: %+v", incs)
	}
	inc := incs.Incidents[0]
	t.Logf("incident: %+v", inc)
	if inc.Target != "svc" || inc.Moments < 2 || inc.Verdict == "" || len(inc.Reports) != 2 {
		t.Errorf("the incident: %+v", inc)
	}
	var b mcpserver.Bundle
	callTool(t, cs, "bundle", map[string]any{"bundle": inc.Bundle}, &b)
	want, stderr := cliJSON(t, inc.Bundle)
	if d := cmp.Diff(want.Findings, findingsOf(t, cs, b.Verdict.AnalysisID, b.Verdict)); d != "" {
		t.Errorf("the bundle's findings differ from the JSON report's (-json +mcp):\n%s", d)
	}
	if d := cmp.Diff(want.Moments, b.Verdict.Analyses[0].Moments); d != "" {
		t.Errorf("the bundle's moments differ (-json +mcp):\n%s", d)
	}
	if d := cmp.Diff(cliNotes(stderr), b.Verdict.Warnings); d != "" {
		t.Errorf("the bundle's warnings differ (-command +mcp):\n%s", d)
	}
	if len(want.Findings) == 0 {
		t.Errorf("the bundle of the exhausted pool has no finding")
	}
	// The bundle's Markdown report (watch's own) is a resource.
	rr, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: inc.Reports[0]})
	if err != nil {
		t.Fatal(err)
	}
	want2, _ := os.ReadFile(filepath.Join(inc.Bundle, "report.md"))
	if rr.Contents[0].Text != string(want2) {
		t.Errorf("the bundle's report.md as a resource is not the file")
	}
}
