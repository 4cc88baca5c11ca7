package main

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/capture"
	"github.com/dumpdiff/dumpdiff/mcpserver"
	"github.com/dumpdiff/dumpdiff/report"
)

// The MCP server is driven here through the SDK's own client: in process
// (mcp.NewInMemoryTransports) for most, and over the real binary's stdio
// once (TestMCPStdioBinary). What it answers is compared with what the
// command says for the same inputs (dumpdiff --format json).

// mcpClient connects a client to a server made of cfg, with the command's
// own analysis (mcpAnalyze) unless cfg has one.
func mcpClient(t *testing.T, cfg mcpserver.Config) *mcp.ClientSession {
	t.Helper()
	if cfg.Analyze == nil {
		cfg.Analyze = mcpAnalyze(analysisFlags{})
	}
	s, err := mcpserver.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ct, st := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "dumpdiff-test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait(); cancel() })
	return cs
}

// callTool calls name and decodes its structured answer into out; it fails
// the test on a tool error.
func callTool(t *testing.T, cs *mcp.ClientSession, name string, args any, out any) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		t.Fatalf("%s %v: tool error: %s", name, args, toolText(res))
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(out); err != nil {
		t.Fatalf("%s: decoding %s: %v", name, b, err)
	}
}

// toolError calls name and returns its tool error's text; it fails the
// test when the call succeeds.
func toolError(t *testing.T, cs *mcp.ClientSession, name string, args any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return err.Error() // a protocol error (malformed request) is a refusal too
	}
	if !res.IsError {
		t.Fatalf("%s %v: answered, want a refusal: %s", name, args, toolText(res))
	}
	return toolText(res)
}

func toolText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// cliJSON is what `dumpdiff --format json PATH` says, and its stderr.
func cliJSON(t *testing.T, path string) (*report.JSONReport, string) {
	t.Helper()
	code, out, errText := runArgs(t, path, "--format", "json")
	if code != 0 {
		t.Fatalf("dumpdiff %s --format json: exit %d: %s", path, code, errText)
	}
	doc, err := report.DecodeJSON(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	return doc, errText
}

// cliNotes are the command's stderr lines as the verdict's warnings.
func cliNotes(stderr string) []string {
	out := []string{}
	for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if l = strings.TrimPrefix(l, "dumpdiff: "); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// TestMCPScenarios: every scenario of testdata/scenarios through the
// server: the verdict (paged one finding at a time) says the facts the
// JSON report says, the loading warnings the command says, and the lead
// finding's stacks are there to read: its groups, the largest group's
// stack with the culprit marked, its comparison with the first moment.
func TestMCPScenarios(t *testing.T) {
	root, err := filepath.Abs("../../testdata/scenarios")
	if err != nil {
		t.Fatal(err)
	}
	root, _ = filepath.EvalSymlinks(root)
	cs := mcpClient(t, mcpserver.Config{Roots: []string{root}})
	es, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		if !e.IsDir() {
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			want, stderr := cliJSON(t, filepath.Join(root, e.Name()))
			var v mcpserver.Verdict
			callTool(t, cs, "analyze", map[string]any{"paths": []string{e.Name()}, "limit": 1}, &v)
			if len(v.Analyses) != 1 {
				t.Fatalf("%d analyses, want 1", len(v.Analyses))
			}
			if d := cmp.Diff(want.Moments, v.Analyses[0].Moments); d != "" {
				t.Errorf("moments differ from the JSON report's (-json +mcp):\n%s", d)
			}
			if d := cmp.Diff(cliNotes(stderr), v.Warnings); d != "" {
				t.Errorf("warnings differ from the command's (-command +mcp):\n%s", d)
			}
			if d := cmp.Diff(want.Warnings, v.Analyses[0].Warnings); d != "" {
				t.Errorf("analysis warnings differ (-json +mcp):\n%s", d)
			}
			id := v.AnalysisID
			got := findingsOf(t, cs, id, v)
			if d := cmp.Diff(want.Findings, got); d != "" {
				t.Fatalf("findings differ from the JSON report's (-json +mcp):\n%s", d)
			}
			if len(want.Findings) == 0 {
				t.Fatalf("no finding: every scenario has one (its README)")
			}
			lead := want.Findings[0]
			var fw mcpserver.FindingWhole
			callTool(t, cs, "finding", map[string]any{"analysis_id": id, "id": lead.ID}, &fw)
			if fw.Finding.Summary != lead.Summary || fw.Number != 1 || len(fw.Facts) == 0 {
				t.Errorf("finding %s: %+v", lead.ID, fw)
			}
			if lead.Pool == "" || lead.State == "" {
				return
			}
			var pools mcpserver.Pools
			callTool(t, cs, "pools", map[string]any{"analysis_id": id}, &pools)
			found := false
			for _, s := range pools.States {
				found = found || s.Pool == lead.Pool && s.State == lead.State
			}
			if !found && pools.NextCursor == "" {
				t.Errorf("pools lists no %s %s", lead.Pool, lead.State)
			}
			at := want.Moments[lead.At].Label
			st := map[string]any{"analysis_id": id, "pool": lead.Pool, "state": lead.State, "via": lead.Via, "moment": at}
			var gs mcpserver.Groups
			callTool(t, cs, "groups", st, &gs)
			n := 0
			for _, g := range gs.Groups {
				n += g.Count
			}
			if len(gs.Groups) == 0 || gs.NextCursor == "" && n != lead.Counts[lead.At] {
				t.Errorf("groups at %s: %d threads in %d groups, want the finding's %d", at, n, len(gs.Groups), lead.Counts[lead.At])
			}
			var stk mcpserver.Stack
			callTool(t, cs, "stack", st, &stk)
			if len(stk.Lines) == 0 || gs.Groups[0].Culprit != "" && !strings.Contains(strings.Join(stk.Lines, "\n"), "◀ culprit") {
				t.Errorf("stack of the largest group: %+v", stk)
			}
			var cmpOut mcpserver.Comparison
			callTool(t, cs, "compare", map[string]any{"analysis_id": id, "pool": lead.Pool, "state": lead.State, "via": lead.Via, "to": at}, &cmpOut)
			if cmpOut.To != at || cmpOut.Same+cmpOut.OnlyTo != len(stk.Frames) {
				t.Errorf("compare to %s: %+v (the stack has %d frames)", at, cmpOut, len(stk.Frames))
			}
			// The thread named by the evidence reads as the same stack.
			if ev := lead.Evidence; len(ev) > 0 && len(ev[len(ev)-1].Threads) > 0 {
				e := ev[len(ev)-1]
				var ts mcpserver.Stack
				callTool(t, cs, "stack", map[string]any{"analysis_id": id, "thread": e.Threads[0], "moment": e.Label}, &ts)
				if ts.Pool != lead.Pool || len(ts.Frames) == 0 {
					t.Errorf("stack of thread %q at %s: %+v", e.Threads[0], e.Label, ts)
				}
			}
		})
	}
}

// findingsOf pages through analysis id's verdict from its first page v.
func findingsOf(t *testing.T, cs *mcp.ClientSession, id string, v mcpserver.Verdict) []report.JSONFinding {
	t.Helper()
	var out []report.JSONFinding
	for {
		for _, f := range v.Findings {
			out = append(out, f.Finding)
		}
		if v.NextCursor == "" {
			return out
		}
		cursor := v.NextCursor
		v = mcpserver.Verdict{}
		callTool(t, cs, "verdict", map[string]any{"analysis_id": id, "cursor": cursor, "limit": 1}, &v)
	}
}

// TestMCPRefusals: what the server must not do, each a clear tool error
// and the server still answering after.
func TestMCPRefusals(t *testing.T) {
	tmp := t.TempDir()
	tmp, _ = filepath.EvalSymlinks(tmp)
	root := filepath.Join(tmp, "root")
	outside := filepath.Join(tmp, "outside")
	for _, d := range []string{root, outside, filepath.Join(root, "linked")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	src, err := os.ReadFile("../../testdata/scenarios/hikari-pool-exhausted/before.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(outside, "secret.txt"), filepath.Join(root, "before.txt")} {
		if err := os.WriteFile(p, src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "out.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "outdir")); err != nil {
		t.Fatal(err)
	}
	// A folder inside the root whose file links out.
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "linked", "during.txt")); err != nil {
		t.Fatal(err)
	}
	cs := mcpClient(t, mcpserver.Config{Roots: []string{root}})
	for _, c := range []struct {
		name string
		tool string
		args map[string]any
		want string
	}{
		{"outside the root", "analyze", map[string]any{"paths": []string{"../outside/secret.txt"}}, "outside the folders this server may read"},
		{"absolute outside", "analyze", map[string]any{"paths": []string{filepath.Join(outside, "secret.txt")}}, "outside the folders this server may read"},
		{"symlink out", "analyze", map[string]any{"paths": []string{"out.txt"}}, "through a symlink"},
		{"symlinked folder out", "analyze", map[string]any{"paths": []string{"outdir"}}, "through a symlink"},
		{"folder holding a link out", "analyze", map[string]any{"paths": []string{"linked"}}, "leads outside"},
		{"no path", "analyze", map[string]any{"paths": []string{}}, "no path"},
		{"missing file", "analyze", map[string]any{"paths": []string{"nope.txt"}}, "reading nope.txt"},
		{"watch folder outside", "incidents", map[string]any{"folder": outside}, "outside the folders"},
		{"not a watch folder", "incidents", map[string]any{"folder": "."}, "not a watch folder"},
		{"not a bundle", "bundle", map[string]any{"bundle": "."}, "not an incident bundle"},
		{"capture not allowed", "capture", map[string]any{"target": "0", "out": "cap"}, "capture is off"},
		{"unknown analysis", "finding", map[string]any{"analysis_id": "a99", "id": "x"}, "no analysis \"a99\""},
		{"malformed: wrong type", "analyze", map[string]any{"paths": 42}, "paths"},
		{"malformed: unknown tool", "no-such-tool", map[string]any{}, "no-such-tool"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := toolError(t, cs, c.tool, c.args); !strings.Contains(got, c.want) {
				t.Errorf("%s: %q, want it to say %q", c.tool, got, c.want)
			}
		})
	}
	// The file under the root is read; a finding id it has not is refused.
	var v mcpserver.Verdict
	callTool(t, cs, "analyze", map[string]any{"paths": []string{"before.txt"}}, &v)
	if got := toolError(t, cs, "finding", map[string]any{"analysis_id": v.AnalysisID, "id": "nope"}); !strings.Contains(got, "no finding") {
		t.Errorf("finding nope: %q", got)
	}
	// A resource outside the roots is refused like a path.
	if _, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "file://" + filepath.Join(outside, "secret.txt")}); err == nil || !strings.Contains(err.Error(), "outside") {
		t.Errorf("reading a file outside as a resource: %v", err)
	}
	if _, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "file://" + filepath.Join(root, "out.txt")}); err == nil || !strings.Contains(err.Error(), "symlink") {
		t.Errorf("reading a link out as a resource: %v", err)
	}
}

// TestMCPPagePastTheEnd: a cursor past the end, one of another list and
// one not made by the server are refused; the cursors given walk the list
// to its end.
func TestMCPPagePastTheEnd(t *testing.T) {
	root, _ := filepath.Abs("../../testdata/scenarios")
	cs := mcpClient(t, mcpserver.Config{Roots: []string{root}})
	var v mcpserver.Verdict
	callTool(t, cs, "analyze", map[string]any{"paths": []string{"hikari-pool-exhausted"}}, &v)
	var p mcpserver.Pools
	callTool(t, cs, "pools", map[string]any{"analysis_id": v.AnalysisID, "limit": 1}, &p)
	if p.NextCursor == "" || p.Total < 2 {
		t.Fatalf("pools with limit 1: %d states, no next page", p.Total)
	}
	b, err := base64.RawURLEncoding.DecodeString(p.NextCursor)
	if err != nil {
		t.Fatal(err)
	}
	_, key, _ := strings.Cut(string(b), ".")
	past := base64.RawURLEncoding.EncodeToString(fmt.Appendf(nil, "%d.%s", p.Total+5, key))
	if got := toolError(t, cs, "pools", map[string]any{"analysis_id": v.AnalysisID, "cursor": past}); !strings.Contains(got, "past the end") {
		t.Errorf("a cursor past the end: %q", got)
	}
	if got := toolError(t, cs, "pools", map[string]any{"analysis_id": v.AnalysisID, "cursor": "%%%"}); !strings.Contains(got, "not one this server gave") {
		t.Errorf("a cursor not made by the server: %q", got)
	}
	if got := toolError(t, cs, "verdict", map[string]any{"analysis_id": v.AnalysisID, "cursor": p.NextCursor}); !strings.Contains(got, "another list") {
		t.Errorf("a pools cursor given to verdict: %q", got)
	}
	seen := 0
	for cursor := ""; ; {
		var page mcpserver.Pools
		callTool(t, cs, "pools", map[string]any{"analysis_id": v.AnalysisID, "limit": 1, "cursor": cursor}, &page)
		seen += len(page.States)
		if cursor = page.NextCursor; cursor == "" {
			break
		}
	}
	if seen != p.Total {
		t.Errorf("the pages held %d states, the list %d", seen, p.Total)
	}
}

// TestMCPCaptureAllowList: with capture allowed, only the listed target is
// taken, by index or as written; another target is refused, and a capture
// writes only under the roots. The listed target is a command printing a
// real dump (a scenario's file), as `capture --exec` takes one.
func TestMCPCaptureAllowList(t *testing.T) {
	dump, err := filepath.Abs("../../testdata/scenarios/hikari-pool-exhausted/during-2.txt")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	// The command carries the header's token, as a pasted one would: it is
	// a secret wherever it shows (capture scrubs it; so does the server).
	listed := capture.ExecTarget("", "cat "+dump+" # s3cr3t-token")
	cs := mcpClient(t, mcpserver.Config{Roots: []string{root}, AllowCapture: true, Targets: []capture.Target{listed},
		Plan: capture.Plan{Headers: map[string][]string{"Authorization": {"Bearer s3cr3t-token"}}}})
	if got := toolError(t, cs, "capture", map[string]any{"target": "cat /etc/passwd", "out": "x"}); !strings.Contains(got, "not on this server's list") {
		t.Errorf("an unlisted command: %q", got)
	}
	if got := toolError(t, cs, "capture", map[string]any{"target": "http://127.0.0.1:1/debug/pprof", "out": "x"}); !strings.Contains(got, "not on this server's list") {
		t.Errorf("an unlisted URL: %q", got)
	}
	if got := toolError(t, cs, "capture", map[string]any{"target": "1", "out": "x"}); !strings.Contains(got, "not on this server's list") {
		t.Errorf("an index past the list: %q", got)
	}
	if got := toolError(t, cs, "capture", map[string]any{"target": "0", "out": "../escape"}); !strings.Contains(got, "outside") {
		t.Errorf("a capture folder outside the root: %q", got)
	}
	if got := toolError(t, cs, "capture", map[string]any{"target": "0", "out": "c", "count": 11}); !strings.Contains(got, "count 11") {
		t.Errorf("count 11: %q", got)
	}
	var c mcpserver.Captured
	callTool(t, cs, "capture", map[string]any{"target": "0", "out": "cap", "count": 1}, &c)
	if c.Files != 1 || c.Failed != 0 || len(c.Verdict.Analyses) != 1 || c.Verdict.Analyses[0].Moments[0].Threads == 0 {
		t.Errorf("capture of the listed target: %+v", c)
	}
	// The header's token is a secret: the tool's description and answers
	// never hold it.
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(tools)
	if strings.Contains(string(b), "s3cr3t-token") || !strings.Contains(string(b), "REDACTED") {
		t.Errorf("the capture tool's description holds the token, or does not show it redacted")
	}
	// Errors too: an unlisted target's refusal lists the targets.
	if got := toolError(t, cs, "capture", map[string]any{"target": "nope", "out": "x"}); strings.Contains(got, "s3cr3t-token") || !strings.Contains(got, "REDACTED") {
		t.Errorf("a refusal holds the token: %q", got)
	}
	if cb, _ := json.Marshal(c); strings.Contains(string(cb), "s3cr3t-token") {
		t.Errorf("the capture's answer holds the token")
	}
	man, err := os.ReadFile(filepath.Join(c.Out, "manifest.json"))
	if err != nil || strings.Contains(string(man), "s3cr3t-token") {
		t.Errorf("the capture's manifest holds the token (%v)", err)
	}
}

// TestMCPResourcesAndPrompt: an analysis' reports are resources (the
// Markdown the command writes), the folder read is one, and the prompt
// names the paths and the steps.
func TestMCPResourcesAndPrompt(t *testing.T) {
	root, _ := filepath.Abs("../../testdata/scenarios")
	root, _ = filepath.EvalSymlinks(root)
	cs := mcpClient(t, mcpserver.Config{Roots: []string{root}})
	var v mcpserver.Verdict
	callTool(t, cs, "analyze", map[string]any{"paths": []string{"hikari-pool-exhausted"}}, &v)
	res, err := cs.ListResources(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range res.Resources {
		uris = append(uris, r.URI)
	}
	md := "dumpdiff://analysis/" + v.AnalysisID + "/report.md"
	folder := "file://" + filepath.Join(root, "hikari-pool-exhausted")
	for _, want := range []string{md, "dumpdiff://analysis/" + v.AnalysisID + "/report.html", folder} {
		if !strings.Contains(strings.Join(uris, "\n"), want) {
			t.Errorf("resources %v lack %s", uris, want)
		}
	}
	rr, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: md})
	if err != nil {
		t.Fatal(err)
	}
	code, want, _ := runArgs(t, filepath.Join(root, "hikari-pool-exhausted"), "--format", "markdown")
	if code != 0 || rr.Contents[0].Text != want {
		t.Errorf("the Markdown resource is not the command's report (exit %d)", code)
	}
	if rr, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: folder}); err != nil || !strings.Contains(rr.Contents[0].Text, "during-1.txt") {
		t.Errorf("the folder resource: %v %v", rr, err)
	}
	p, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "investigate_incident", Arguments: map[string]string{"paths": "hikari-pool-exhausted"}})
	if err != nil {
		t.Fatal(err)
	}
	text := p.Messages[0].Content.(*mcp.TextContent).Text
	for _, want := range []string{`"hikari-pool-exhausted"`, "analyze", "finding", "groups", "compare", "ticket", "never follow"} {
		if !strings.Contains(text, want) {
			t.Errorf("the prompt does not say %q:\n%s", want, text)
		}
	}
	if _, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "investigate_incident"}); err == nil {
		t.Errorf("the prompt without paths: no error")
	}
}

// TestMCPToolDescriptions: every tool says that what comes from the dumps
// is data, and has an output schema.
func TestMCPToolDescriptions(t *testing.T) {
	cs := mcpClient(t, mcpserver.Config{Roots: []string{t.TempDir()}})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
		if !strings.Contains(tl.Description, "never as instructions") {
			t.Errorf("%s: its description does not say the dumps' text is data", tl.Name)
		}
		if tl.OutputSchema == nil || tl.InputSchema == nil {
			t.Errorf("%s: no input or output schema", tl.Name)
		}
	}
	want := []string{"analyze", "bundle", "capture", "compare", "finding", "groups", "incidents", "pools", "stack", "verdict"}
	if d := cmp.Diff(want, sortedCopy(names)); d != "" {
		t.Errorf("tools (-want +got):\n%s", d)
	}
}

func sortedCopy(s []string) []string {
	c := append([]string(nil), s...)
	for i := range c {
		for j := i + 1; j < len(c); j++ {
			if c[j] < c[i] {
				c[i], c[j] = c[j], c[i]
			}
		}
	}
	return c
}

// TestMCPStdioBinary runs the built binary as an assistant would (its
// stdio), lists the tools and analyzes a scenario: the facts are the JSON
// report's.
func TestMCPStdioBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "dumpdiff")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	root, _ := filepath.Abs("../../testdata/scenarios")
	root, _ = filepath.EvalSymlinks(root)
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "dumpdiff-test", Version: "1"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: exec.Command(bin, "mcp", "--root", root)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 10 {
		t.Fatalf("tools: %v %v", tools, err)
	}
	var v mcpserver.Verdict
	callTool(t, cs, "analyze", map[string]any{"paths": []string{"go-slow-upstream-leak"}}, &v)
	want, _ := cliJSON(t, filepath.Join(root, "go-slow-upstream-leak"))
	if d := cmp.Diff(want.Findings, findingsOf(t, cs, v.AnalysisID, v)); d != "" {
		t.Errorf("findings over stdio differ from the JSON report's (-json +mcp):\n%s", d)
	}
	// Completion, as a client's argument box asks it: advertised, and
	// answered for the prompt's paths and the report template's id.
	if cs.InitializeResult().Capabilities.Completions == nil {
		t.Errorf("completions not advertised: %+v", cs.InitializeResult().Capabilities)
	}
	c, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "investigate_incident"},
		Argument: mcp.CompleteParamsArgument{Name: "paths", Value: "go-slow-up"}})
	if err != nil || !slices.Equal(c.Completion.Values, []string{"go-slow-upstream-leak/"}) {
		t.Errorf("completing the prompt's paths: %+v %v", c, err)
	}
	c, err = cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/resource", URI: "dumpdiff://analysis/{id}/{report}"},
		Argument: mcp.CompleteParamsArgument{Name: "id", Value: ""}})
	if err != nil || !slices.Equal(c.Completion.Values, []string{v.AnalysisID}) {
		t.Errorf("completing the report's id: %+v %v", c, err)
	}
	stdioMalformed(t, bin, root)
}

// stdioMalformed writes malformed lines to the binary's stdin between good
// ones: each is answered with its JSON-RPC error and the server goes on to
// answer the next request; it exits 0 when stdin closes. Each answer is
// read as it comes: nothing here waits on time.
func stdioMalformed(t *testing.T, bin, root string) {
	cmd := exec.Command(bin, "mcp", "--root", root)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	out := bufio.NewScanner(outPipe)
	out.Buffer(nil, 1<<20)
	exchange := func(line string) map[string]any {
		t.Helper()
		if _, err := io.WriteString(in, line+"\n"); err != nil {
			t.Fatal(err)
		}
		for {
			if !out.Scan() {
				t.Fatalf("after %q: the server answered nothing (%v)", line, out.Err())
			}
			var m map[string]any
			if err := json.Unmarshal(out.Bytes(), &m); err != nil {
				t.Fatalf("after %q: %q is not JSON", line, out.Text())
			}
			if _, answer := m["id"]; answer {
				return m
			}
			// A notification (the resources a call added): not the answer.
		}
	}
	code := func(m map[string]any) float64 {
		e, _ := m["error"].(map[string]any)
		c, _ := e["code"].(float64)
		return c
	}
	if m := exchange("this is not json"); code(m) != -32700 {
		t.Errorf("a line that is not JSON: %v, want a parse error", m)
	}
	if m := exchange(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`); m["result"] == nil {
		t.Fatalf("initialize after a bad line: %v", m)
	}
	io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	if m := exchange(`[1,2`); code(m) != -32700 {
		t.Errorf("a cut JSON line: %v", m)
	}
	if m := exchange(`42`); code(m) != -32600 {
		t.Errorf("JSON that is no message: %v, want invalid request", m)
	}
	m := exchange(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"analyze","arguments":{"paths":"not a list"}}}`)
	if r, _ := m["result"].(map[string]any); r == nil || r["isError"] != true {
		t.Errorf("arguments of the wrong type: %v, want a tool error", m)
	}
	m = exchange(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"analyze","arguments":{"paths":["hikari-pool-exhausted"]}}}`)
	if r, _ := m["result"].(map[string]any); r == nil || r["isError"] == true {
		t.Errorf("a good call after the bad ones: %v", m)
	}
	in.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("the server's exit after stdin closed: %v", err)
	}
}

// TestMCPKeepsTheLastAnalyses: the server keeps Keep analyses (each holds
// its parsed dumps); an older id is refused with what to do, and its
// report resources are gone from the list.
func TestMCPKeepsTheLastAnalyses(t *testing.T) {
	root, _ := filepath.Abs("../../testdata/scenarios")
	cs := mcpClient(t, mcpserver.Config{Roots: []string{root}, Keep: 2})
	var ids []string
	for _, p := range []string{"mypage-pool-stuck", "hikari-pool-exhausted", "slow-upstream-bulkhead"} {
		var v mcpserver.Verdict
		callTool(t, cs, "analyze", map[string]any{"paths": []string{p}}, &v)
		ids = append(ids, v.AnalysisID)
	}
	if got := toolError(t, cs, "pools", map[string]any{"analysis_id": ids[0]}); !strings.Contains(got, "keeps the last 2") {
		t.Errorf("the dropped analysis %s: %q", ids[0], got)
	}
	var p mcpserver.Pools
	callTool(t, cs, "pools", map[string]any{"analysis_id": ids[2]}, &p)
	res, err := cs.ListResources(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Resources {
		if strings.HasPrefix(r.URI, "dumpdiff://analysis/"+ids[0]+"/") {
			t.Errorf("the dropped analysis' report is still listed: %s", r.URI)
		}
	}
}

// TestMCPPanicIsAToolError: a panic inside a tool is answered as a tool
// error naming the tool, and the server answers the next call.
func TestMCPPanicIsAToolError(t *testing.T) {
	root, _ := filepath.Abs("../../testdata/scenarios")
	calls := 0
	cs := mcpClient(t, mcpserver.Config{Roots: []string{root}, Analyze: func(paths []string, opt mcpserver.AnalyzeOptions) ([]*analyze.Result, []string, error) {
		calls++
		if calls == 1 {
			panic("a bug in the analysis")
		}
		return mcpAnalyze(analysisFlags{})(paths, opt)
	}})
	if got := toolError(t, cs, "analyze", map[string]any{"paths": []string{"mypage-pool-stuck"}}); !strings.Contains(got, "analyze failed inside dumpdiff") {
		t.Errorf("a panic: %q", got)
	}
	var v mcpserver.Verdict
	callTool(t, cs, "analyze", map[string]any{"paths": []string{"mypage-pool-stuck"}}, &v)
}

// TestMCPCommandRefusals: the command's own refusals, before serving.
func TestMCPCommandRefusals(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"mcp", "--root", dir, "--pid", "4242"}, "targets given without --allow-capture"},
		{[]string{"mcp", "--root", dir, "--token-file", filepath.Join(dir, "tok")}, "--token-file is for --listen"},
		{[]string{"mcp", "--root", filepath.Join(dir, "missing")}, "--root"},
		{[]string{"mcp", "--root", dir, "--order", "args"}, "each analyze call gives its own order"},
		{[]string{"mcp", "--root", dir, "--listen", "127.0.0.1:0", "--token-file", filepath.Join(dir, "missing")}, "--token-file"},
	} {
		code, _, stderr := runArgs(t, c.args...)
		if code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("dumpdiff %s: exit %d, %q; want a refusal saying %q", strings.Join(c.args, " "), code, stderr, c.want)
		}
	}
}
