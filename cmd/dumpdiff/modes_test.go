//go:build unix

package main

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/capture"
	"github.com/dumpdiff/dumpdiff/internal/modetest"
)

// TestCaptureModes: capture writes dumps, which hold thread names, pprof
// labels and stacks, and a manifest; each is readable by its owner only
// (0600), and each folder it makes for --out, parents included, is 0700.
// Both kinds of target write (an HTTP endpoint on 127.0.0.1 and a
// command), with --analyze, then --append rewrites the manifest. Under a
// umask of 0, nothing hides a wider mode.
func TestCaptureModes(t *testing.T) {
	modetest.Umask(t, 0)
	srv := httptest.NewServer(http.DefaultServeMux) // this process's net/http/pprof
	defer srv.Close()
	dump, _ := filepath.Abs("../../testdata/libs/jvm-saturated-stays/1.txt")
	root := filepath.Join(t.TempDir(), "dumps")
	out := filepath.Join(root, "svc", "today") // three folders capture makes
	code, stdout, errs := runArgs(t, "capture", srv.URL, "--exec", "cat "+dump, "--every", "10ms", "--count", "2", "--out", out, "--analyze")
	if code != 0 || !strings.Contains(stdout, "VERDICT") {
		t.Fatalf("capture --analyze: exit %d, stderr %q, stdout %.200q", code, errs, stdout)
	}
	if code, _, errs := runArgs(t, "capture", srv.URL, "--exec", "cat "+dump, "--count", "1", "--out", out, "--append"); code != 0 {
		t.Fatalf("capture --append: exit %d: %s", code, errs)
	}
	m, err := capture.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	want := 1 // the manifest
	for _, f := range m.Files {
		if f.Path != "" {
			want++
		}
	}
	if files, dirs := modetest.Check(t, root); files != want || dirs != 3 || len(m.Moments) != 3 {
		t.Errorf("walked %d files and %d folders under %s, want the manifest and the %d files it lists of %d moments (3), in 3 folders",
			files, dirs, root, want-1, len(m.Moments))
	}
}
