package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dumpdiff/dumpdiff/mcpserver"
)

// bigDebug1 writes a goroutine profile (debug=1, as /debug/pprof/goroutine
// writes it) of total goroutines parked on channels in one handler, in
// stacks distinct stacks (a different wait function each), total/stacks
// goroutines each.
func bigDebug1(t *testing.T, path string, total, stacks int) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "goroutine profile: total %d\n", total)
	for i := 0; i < stacks; i++ {
		pc := 0x500000 + i*16
		fmt.Fprintf(&b, "%d @ 0x43e1ae 0x40a4c5 0x40a0b2 %#x 0x6a1f20 0x6a1e01 0x471e61\n", total/stacks, pc)
		fmt.Fprintf(&b, "#\t0x43e1ad\truntime.gopark+0xcd\t\t/usr/local/go/src/runtime/proc.go:435\n")
		fmt.Fprintf(&b, "#\t0x40a4c4\truntime.chanrecv+0x3e4\t\t/usr/local/go/src/runtime/chan.go:664\n")
		fmt.Fprintf(&b, "#\t0x40a0b1\truntime.chanrecv1+0x11\t\t/usr/local/go/src/runtime/chan.go:506\n")
		fmt.Fprintf(&b, "#\t%#x\tmain.wait%d+0x1f\t\t/app/wait.go:%d\n", pc-1, i, 10+i)
		fmt.Fprintf(&b, "#\t0x6a1f1f\tmain.(*server).handle+0x3f\t\t/app/main.go:40\n")
		fmt.Fprintf(&b, "#\t0x6a1e00\tmain.(*server).serve.func1+0x20\t/app/main.go:30\n\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestMCPMillionGoroutinesInPages: a moment of 1,000,000 goroutines in
// 5,000 distinct stacks answers in pages: each page's JSON within the
// server's byte bound (48 KiB) even when 500 items are asked for, the
// pages together hold every group once, and their counts add up to the
// state's. Sizes, not times: nothing here is timed.
func TestMCPMillionGoroutinesInPages(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: a 1M-goroutine analysis")
	}
	const total, stacks = 1_000_000, 5_000
	root := t.TempDir()
	bigDebug1(t, filepath.Join(root, "before.txt"), 100, 10)
	bigDebug1(t, filepath.Join(root, "during.txt"), total, stacks)
	cs := mcpClient(t, mcpserver.Config{Roots: []string{root}})
	var v mcpserver.Verdict
	callTool(t, cs, "analyze", map[string]any{"paths": []string{"before.txt", "during.txt"}, "order": "args"}, &v)
	if got := v.Analyses[0].Moments[1].Threads; got < total {
		t.Fatalf("the during moment has %d goroutines, want %d", got, total)
	}
	// The state with the most goroutines at during.
	var p mcpserver.Pools
	callTool(t, cs, "pools", map[string]any{"analysis_id": v.AnalysisID}, &p)
	var best mcpserver.StateRow
	for _, s := range p.States {
		if atDuring(s) > atDuring(best) {
			best = s
		}
	}
	if atDuring(best) < total {
		t.Fatalf("no state holds the %d goroutines: %+v", total, p.States)
	}
	seen := map[int]bool{}
	sum, pages := 0, 0
	for cursor := ""; ; pages++ {
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "groups", Arguments: map[string]any{"analysis_id": v.AnalysisID,
			"pool": best.Pool, "state": best.State, "via": best.Via, "moment": "during", "limit": 500, "cursor": cursor}})
		if err != nil || res.IsError {
			t.Fatalf("groups page %d: %v %s", pages, err, toolText(res))
		}
		raw, _ := json.Marshal(res.StructuredContent)
		if len(raw) > mcpserver.DefaultPageBytes+4096 {
			t.Fatalf("page %d is %d bytes, over the bound %d", pages, len(raw), mcpserver.DefaultPageBytes)
		}
		var g mcpserver.Groups
		if err := json.Unmarshal(raw, &g); err != nil {
			t.Fatal(err)
		}
		for _, x := range g.Groups {
			if seen[x.Index] {
				t.Fatalf("group %d on two pages", x.Index)
			}
			seen[x.Index] = true
			sum += x.Count
		}
		if cursor = g.NextCursor; cursor == "" {
			break
		}
	}
	if len(seen) != stacks || sum != atDuring(best) || pages < 2 {
		t.Errorf("%d pages held %d groups of %d goroutines; want %d groups of %d in several pages", pages+1, len(seen), sum, stacks, atDuring(best))
	}
	t.Logf("%d goroutines in %d groups: %d pages of at most %d bytes", sum, len(seen), pages+1, mcpserver.DefaultPageBytes)
}

// atDuring is a state's goroutines at the second moment; 0 for none.
func atDuring(s mcpserver.StateRow) int {
	if len(s.Counts) < 2 {
		return 0
	}
	return s.Counts[1]
}
