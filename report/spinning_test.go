package report

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestSpinningFirstScreen: what an engineer paged for "CPU at 100%,
// requests time out" reads first (issue 27's fixtures, real dumps): the
// verdict's first finding names the hot thread, its loop and whom it
// blocks; the contention it causes follows from it; a pool whose counts
// do not change is shown flagged, with its state rows, when its threads
// spin.
func TestSpinningFirstScreen(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	text := func(t *testing.T, name string) string {
		r := analyzeFiles(t, []string{filepath.Join(dir, name, "1.txt"), filepath.Join(dir, name, "2.txt")})
		var b bytes.Buffer
		if err := Generate(&b, r, Options{Format: FormatText, Width: 100}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	t.Run("monitor", func(t *testing.T) {
		out := text(t, "jvm-spin-monitor")
		verdict := strings.SplitN(out, "\nFINDINGS", 2)[1] // the findings in full, under the lead
		first := strings.SplitN(verdict, "\n  WARNING", 2)[0]
		first = strings.SplitN(first, "\n  CRITICAL  ↳", 2)[0]
		for _, want := range []string{"CRITICAL spinning registry-sync", `"registry-sync" (registry-sync) spins in com.example.spin.Registry.reconnect(Registry.java:14), and 6 threads wait for it; on CPU`,
			"registry-sync holds <0x", "(a com.example.spin.Registry) while it runs", `waiting for it: "worker-1" (monitor-blocked)`} {
			if !strings.Contains(strings.Join(strings.Fields(first), " "), want) {
				t.Errorf("the first finding does not say %q:\n%s", want, first)
			}
		}
		if !strings.Contains(verdict, "↳ contention worker-*") || !strings.Contains(verdict, "follows from the spinning registry-sync finding") {
			t.Errorf("the contention does not follow from the spinning thread:\n%s", verdict)
		}
	})
	t.Run("parser pool", func(t *testing.T) {
		out := text(t, "jvm-spin-parser")
		pools := strings.SplitN(out, "POOLS", 2)[1]
		for _, want := range []string{"! parser-*                  4    4       0", "   ! running                4    4       0"} {
			if !strings.Contains(pools, want) {
				t.Errorf("POOLS has no %q:\n%s", want, pools)
			}
		}
	})
}

// TestSpinningJSON: a spinning finding carries its loop, caller and wall
// time; the other kinds' JSON is as it was, without those keys.
func TestSpinningJSON(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts", "jvm-spin-regex")
	r := analyzeFiles(t, []string{filepath.Join(dir, "1.txt"), filepath.Join(dir, "2.txt")})
	var b bytes.Buffer
	if err := Generate(&b, r, Options{Format: FormatJSON}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Findings []map[string]any `json:"findings"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Findings) != 1 || doc.Findings[0]["kind"] != "spinning" {
		t.Fatalf("findings %v, want one spinning", doc.Findings)
	}
	f := doc.Findings[0]
	if f["caller"] != "com.example.spin.Validator.check(Validator.java:12)" || f["wall_ms"].(float64) < 30000 || len(f["loop"].([]any)) == 0 {
		t.Errorf("loop %v, caller %v, wall_ms %v", f["loop"], f["caller"], f["wall_ms"])
	}
	c := analyzeFiles(t, []string{filepath.Join("..", "testdata", "verdicts", "jvm-contention", "1.txt")})
	b.Reset()
	if err := Generate(&b, c, Options{Format: FormatJSON}); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{`"loop"`, `"caller"`, `"wall_ms"`} {
		if bytes.Contains(b.Bytes(), []byte(k)) {
			t.Errorf("a contention finding's JSON has %s", k)
		}
	}
}
