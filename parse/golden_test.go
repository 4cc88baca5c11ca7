package parse

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// update rewrites golden files: `go test ./parse -update`, then review the diff.
var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// checkGolden compares the canonical form of dumps with the golden file,
// or rewrites it with -update.
func checkGolden(t *testing.T, golden string, dumps []*Dump) {
	t.Helper()
	var got bytes.Buffer
	if err := WriteCanonical(&got, dumps); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got.String()); diff != "" {
		t.Errorf("canonical form differs from %s (-want +got):\n%s", golden, diff)
	}
}
