package report

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/parse"
)

// TestHungTests: go test's own timeout dump (testdata/formats, real) names
// the tests that hung in the text header and verdict, in the title and
// verdict of the document views, and in the JSON moment; a dump of no
// test timeout says nothing of tests.
func TestHungTests(t *testing.T) {
	ds, err := parse.ParseFile(filepath.Join("..", "testdata", "formats", "go-test-timeout-v.txt"))
	if err != nil {
		t.Fatal(err)
	}
	r := analyze.Analyze([]analyze.Input{{Dump: ds[0]}}, analyze.Options{})
	const tests = "TestDrainA (2s), TestDrainB (2s)"
	render := func(format string) string {
		var b bytes.Buffer
		if err := Generate(&b, r, Options{Format: Format(format), Width: 100}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	text := render("text")
	_, verdict, _ := strings.Cut(text, "VERDICT")
	if !strings.Contains(text, "go test timed out running "+tests) {
		t.Errorf("the text's moments do not name the hung tests:\n%s", text)
	}
	if !strings.Contains(strings.Join(strings.Fields(verdict), " "), "while running "+tests+": the tests that hung") {
		t.Errorf("text verdict does not name the hung tests:\n%s", verdict)
	}
	for _, f := range []string{"markdown", "jira", "slack", "html"} {
		// Jira escapes parentheses and hyphens: compare without its backslashes.
		if out := strings.ReplaceAll(render(f), `\`, ""); !strings.Contains(out, "running "+tests) {
			t.Errorf("%s does not name the hung tests:\n%s", f, out)
		}
	}
	var doc struct {
		Moments []struct {
			RunningTests []string `json:"running_tests"`
		} `json:"moments"`
	}
	if err := json.Unmarshal([]byte(render("json")), &doc); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(doc.Moments[0].RunningTests, ", "); got != tests {
		t.Errorf("JSON running_tests = %q, want %q", got, tests)
	}

	other, err := parse.ParseFile(filepath.Join("..", "testdata", "go", "go1.26.8-debug2.txt"))
	if err != nil {
		t.Fatal(err)
	}
	r = analyze.Analyze([]analyze.Input{{Dump: other[0]}}, analyze.Options{})
	if strings.Contains(render("text"), "go test timed out") {
		t.Errorf("a dump of no test timeout speaks of tests")
	}
}
