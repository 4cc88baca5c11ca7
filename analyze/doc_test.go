package analyze

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestDocNamesFiles: every file the package documentation names as
// holding a step exists, so the map of the steps cannot outlive a rename.
func TestDocNamesFiles(t *testing.T) {
	b, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	names := regexp.MustCompile(`[a-z_*]+\.go\b`).FindAllString(string(b), -1)
	if len(names) < 10 {
		t.Fatalf("doc.go names %d files, want the steps' files", len(names))
	}
	for _, name := range names {
		if m, _ := filepath.Glob(name); len(m) == 0 {
			t.Errorf("doc.go names %s, which is not in the package", name)
		}
	}
}
