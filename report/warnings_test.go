package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/parse"
)

// Every format shows the analysis's warnings: a jstack of a JVM running
// virtual threads (testdata/libs/jdk25-vthreads) says they are not in it,
// in the terminal, the tickets, Slack and JSON alike.
func TestWarningsInEveryFormat(t *testing.T) {
	ds, err := parse.ParseFile("../testdata/libs/jdk25-vthreads/jstack.txt")
	if err != nil {
		t.Fatal(err)
	}
	r := analyze.Analyze([]analyze.Input{{Label: "jstack", Dump: ds[0]}}, analyze.Options{})
	if len(r.Warnings) == 0 {
		t.Fatal("no warning to show")
	}
	for _, f := range Formats() {
		var b bytes.Buffer
		if err := Generate(&b, r, Options{Format: f}); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if !strings.Contains(b.String(), "runs virtual threads") {
			t.Errorf("%s report does not show the warning:\n%s", f, b.String())
		}
	}
}
