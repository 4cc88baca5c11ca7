package analyze

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestGoleakVerdict: go test's output when goleak fails a test
// (testdata/formats/goleak-v*.txt, goleak 1.1.12, 1.2.1 and 1.3.0; the
// README says what the test leaves behind) gives goleak's verdict as
// leak findings of the goroutines it printed, by creator: the pool's 4
// workers that Close forgot and the 2 goroutines of the silent
// connection. The same goroutines without goleak's report (a plain dump:
// Kind cleared) give no leak-check finding: only goleak's verdict says
// they outlived their test.
func TestGoleakVerdict(t *testing.T) {
	for _, v := range []string{"1.1.12", "1.2.1", "1.3.0"} {
		name := "goleak-v" + v + ".txt"
		ds, err := parse.ParseFile(filepath.Join("..", "testdata", "formats", name))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range Analyze([]Input{{Dump: ds[0]}}, Options{}).Findings {
			if f.Basis == "leak-check" {
				got = append(got, fmt.Sprintf("%s %s %d", f.Kind, f.Pool, f.Counts[f.At]))
			}
		}
		slices.Sort(got)
		want := []string{"leaked example.com/leaky.dialSilent 2", "leaked example.com/leaky.newPool 4"}
		if !slices.Equal(got, want) {
			t.Errorf("%s: leak-check findings %q, want %q", name, got, want)
		}
		ds[0].Kind, ds[0].Headline = "", ""
		for _, f := range Analyze([]Input{{Dump: ds[0]}}, Options{}).Findings {
			if f.Basis == "leak-check" || f.Basis == "runtime" {
				t.Errorf("%s without goleak's report: %s %s %s", name, f.Kind, f.Basis, f.Pool)
			}
		}
	}
}
