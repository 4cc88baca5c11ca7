package parse

import (
	"os"
	"regexp"
	"testing"
)

// The files doc.go names exist: a file renamed away fails here.
func TestDocNamesFiles(t *testing.T) {
	b, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	names := regexp.MustCompile(`\b[a-z0-9_]+\.go\b`).FindAllString(string(b), -1)
	if len(names) < 20 {
		t.Fatalf("doc.go names %d files: the pipeline is not there", len(names))
	}
	for _, n := range names {
		if _, err := os.Stat(n); err != nil {
			t.Errorf("doc.go names %s: %v", n, err)
		}
	}
}
