package analyze

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestHungTest: the real dumps go test printed when a test passed its
// -timeout (testdata/formats/go-test-timeout*.txt, plain and -v) give one
// stuck finding on go test's own verdict, its culprit in the hung test;
// the same goroutines without go test's header give none (nothing says
// their wait has a deadline that passed).
func TestHungTest(t *testing.T) {
	for _, name := range []string{"go-test-timeout.txt", "go-test-timeout-v.txt",
		// Older Go: no "running tests:" before 1.20, one tab in at 1.20.
		"go-test-timeout-go1.13.txt", "go-test-timeout-go1.16.txt", "go-test-timeout-go1.18.txt", "go-test-timeout-go1.20.txt"} {
		ds, err := parse.ParseFile(filepath.Join("..", "testdata", "formats", name))
		if err != nil {
			t.Fatal(err)
		}
		var hung []Finding
		for _, f := range Analyze([]Input{{Dump: ds[0]}}, Options{}).Findings {
			if f.Basis == "test-timeout" {
				hung = append(hung, f)
			}
		}
		if got := RunningTests(ds[0]); len(got) == 0 || !strings.HasPrefix(got[0], "Test") {
			t.Errorf("%s: running tests %q, want the hung test", name, got)
		}
		if len(hung) != 1 || hung[0].Kind != KindStuck || !strings.Contains(hung[0].Culprit, ".Test") {
			t.Errorf("%s: test-timeout findings %+v, want one stuck finding whose culprit is in the test", name, hung)
			continue
		}
		ds[0].RunningTests, ds[0].Headline = nil, ""
		for _, f := range Analyze([]Input{{Dump: ds[0]}}, Options{}).Findings {
			if f.Basis == "test-timeout" {
				t.Errorf("%s without go test's header: %s %s", name, f.Kind, f.Basis)
			}
		}
	}
}
