package analyze

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestJournalFixturesKeepVerdict: the real moments read back from the
// journal (testdata/journal: export, verbose, and short with a thread an
// entry, where the culprit frame is a line under the entry's first
// without the prefix) give the findings of the moments themselves, with
// the same culprit and pool frame; the idle twins stay quiet (the
// expectation of its README).
func TestJournalFixturesKeepVerdict(t *testing.T) {
	verdict := func(in []Input) string {
		var out []string
		for _, f := range Analyze(in, Options{}).Findings {
			out = append(out, fmt.Sprintf("%s %s %s culprit=%s pool=%s", f.Kind, f.Pool, f.Basis, f.Culprit, f.PoolFrame))
		}
		slices.Sort(out)
		return strings.Join(out, "; ")
	}
	for dir, src := range map[string]string{
		"hc4-export": "libs/jvm-httpclient4-pool", "hc4-verbose": "libs/jvm-httpclient4-pool", "hc4-short-multiline": "libs/jvm-httpclient4-pool",
		"idle-export": "libs/jvm-idle-libs", "idle-short-multiline": "libs/jvm-idle-libs",
	} {
		want := verdict(loadMoments(t, filepath.Join("..", "testdata", src), []string{"1", "2"}))
		if strings.HasPrefix(dir, "idle") != (want == "") {
			t.Fatalf("%s: source verdict %q", src, want)
		}
		if !strings.HasPrefix(dir, "idle") && !strings.Contains(want, "culprit=com.example.http4.InventoryClient.fetch(InventoryClient.java:13)") {
			t.Fatalf("%s: source verdict %q", src, want)
		}
		got := verdict(loadMoments(t, filepath.Join("..", "testdata", "journal", dir), []string{"1.txt.gz", "2.txt.gz"}))
		eq(t, dir, got, want)
	}
}
