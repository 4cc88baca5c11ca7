//go:build unix

package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/capture"
	"github.com/dumpdiff/dumpdiff/internal/modetest"
	"github.com/dumpdiff/dumpdiff/internal/testwait"
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

// TestWatchModes: watch writes rings (dumps and manifests) and, when an
// incident opens, a bundle of its moments with the reports; each file is
// 0600 and each folder it makes (--out and its parent, a ring, incidents/,
// a bundle) 0700. The target is a command that prints the real dumps of
// a JVM whose request pool stays stuck (testdata/libs/jvm-saturated-stays),
// one per moment, the last one again after it; the run is cancelled once
// the incident has taken a moment after it opened.
func TestWatchModes(t *testing.T) {
	modetest.Umask(t, 0)
	tmp := t.TempDir()
	dir, _ := filepath.Abs("../../testdata/libs/jvm-saturated-stays")
	counter := filepath.Join(tmp, "n")
	script := `n=$(cat ` + counter + ` 2>/dev/null || echo 0); n=$((n+1)); echo $n > ` + counter + `; ` +
		`cat ` + dir + `/$(( n < 5 ? n : 5 )).txt`
	root := filepath.Join(tmp, "watch")
	out := filepath.Join(root, "out")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	log := testwait.NewLog("incident moment")
	done := make(chan int, 1)
	var stdout strings.Builder
	go func() {
		done <- run(ctx, []string{"watch", "--exec", script, "--every", "20ms", "--out", out, "--min-free", "0"}, strings.NewReader(""), &stdout, log)
	}()
	select {
	case <-log.Seen():
		cancel()
	case code := <-done:
		t.Fatalf("watch ended (exit %d) before an incident took a moment:\n%s", code, log)
	case <-time.After(time.Minute): // a bound on a hang, not a wait for an event
		t.Fatalf("no incident moment within a minute:\n%s", log)
	}
	if code := <-done; code != 0 {
		t.Fatalf("watch after cancel: exit %d:\n%s", code, log)
	}
	bundles, _ := filepath.Glob(filepath.Join(out, "incidents", "*"))
	if len(bundles) != 1 {
		t.Fatalf("bundles %v, want 1:\n%s", bundles, log)
	}
	files, dirs := modetest.Check(t, root)
	// Folders: watch/, out/, the ring, incidents/, the bundle. Files: at
	// least each manifest, a moment in each, and the bundle's reports.
	if dirs != 5 || files < 7 {
		t.Errorf("walked %d files and %d folders under %s, want at least 7 files in 5 folders", files, dirs, root)
	}
}
