package report

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestJSONPoolFrame: the pool's own frame of a pool-exhausted finding
// (the text's "waiting in the pool at ...") is in the JSON report as
// pool_frame, and reads back through DecodeJSON; other findings carry "".
// A real HikariCP incident (testdata/scenarios/hikari-pool-exhausted).
func TestJSONPoolFrame(t *testing.T) {
	r := analyzeScenario(t, filepath.Join("..", "testdata", "scenarios", "hikari-pool-exhausted"))
	var b bytes.Buffer
	if err := JSON(&b, r, Options{}); err != nil {
		t.Fatal(err)
	}
	doc, err := DecodeJSON(&b)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for i, jf := range doc.Findings {
		f := r.Findings[i]
		if jf.ID != f.ID || jf.PoolFrame != f.PoolFrame {
			t.Errorf("finding %d %s: pool_frame %q, want %q (%s)", i, jf.ID, jf.PoolFrame, f.PoolFrame, f.ID)
		}
		if strings.HasSuffix(jf.Kind, "-pool-exhausted") {
			seen++
			if !strings.HasPrefix(jf.PoolFrame, "com.zaxxer.hikari.pool.HikariPool.getConnection") {
				t.Errorf("%s: pool_frame %q, want HikariPool.getConnection", jf.ID, jf.PoolFrame)
			}
		} else if jf.PoolFrame != "" {
			t.Errorf("%s (%s): pool_frame %q, want none", jf.ID, jf.Kind, jf.PoolFrame)
		}
	}
	if seen == 0 {
		t.Error("no pool-exhausted finding in hikari-pool-exhausted")
	}
}
