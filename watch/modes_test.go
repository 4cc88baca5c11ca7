//go:build unix

package watch

import (
	"os"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/capture"
	"github.com/dumpdiff/dumpdiff/internal/modetest"
)

// TestBundleCopyModes: a bundle on a file system the ring is not on
// cannot hard-link its moments and copies them; the copies hold thread
// names and stacks as the ring's files do, so they are 0600 like them,
// as are the rings, manifests and reports, and each folder watch makes
// (Dir and its parent, the ring, incidents/, the bundle) is 0700. The
// hard link fails as link(2) fails across file systems (EXDEV). The
// target prints the real dumps of a JVM whose request pool stays stuck
// (testdata/libs/jvm-saturated-stays), one per moment, the last one
// again after it; watch stops once the incident has taken a moment after
// it opened. Under a umask of 0, nothing hides a wider mode.
func TestBundleCopyModes(t *testing.T) {
	modetest.Umask(t, 0)
	tmp := t.TempDir()
	src := absPath(t, "../testdata/libs/jvm-saturated-stays")
	counter := filepath.Join(tmp, "n")
	script := `n=$(cat ` + counter + ` 2>/dev/null || echo 0); n=$((n+1)); echo $n > ` + counter + `; ` +
		`cat ` + src + `/$(( n < 5 ? n : 5 )).txt`
	root := filepath.Join(tmp, "watch")
	var refused atomic.Int32
	r := start(t, Config{Targets: []capture.Target{capture.ExecTarget("cmd", script)}, Every: 20 * time.Millisecond,
		Dir: filepath.Join(root, "out"), MinFree: -1,
		link: func(oldname, newname string) error {
			refused.Add(1)
			return &os.LinkError{Op: "link", Old: oldname, New: newname, Err: syscall.EXDEV}
		}})
	r.waitDecisions(t, "cmd", "incident moment", added, 1, time.Minute)
	if err := r.stop(t); err != nil {
		t.Fatal(err)
	}
	bundles, _ := filepath.Glob(filepath.Join(r.cfg.Dir, incidentsDir, "*"))
	if len(bundles) != 1 {
		t.Fatalf("bundles %v, want 1:\n%s", bundles, r.log)
	}
	m, err := capture.ReadManifest(bundles[0])
	if err != nil {
		t.Fatal(err)
	}
	copied := 0
	for _, f := range m.Files {
		if f.Path == "" {
			t.Errorf("bundle file of moment %s not kept: %s", f.Moment, f.Error)
			continue
		}
		a, errA := os.Stat(filepath.Join(bundles[0], f.Path))
		b, errB := os.Stat(filepath.Join(r.cfg.Dir, "cmd", f.Path))
		if errA == nil && (errB != nil || !os.SameFile(a, b)) {
			copied++
		}
	}
	if copied == 0 || int(refused.Load()) < copied {
		t.Fatalf("%d bundle files copied, %d links refused: the copy was not taken:\n%s", copied, refused.Load(), r.log)
	}
	files, dirs := modetest.Check(t, root)
	// Folders: root, Dir, the ring, incidents/, the bundle. Files: at
	// least the copies, the bundle's manifest and three reports, the
	// ring's manifest and a moment.
	if dirs != 5 || files < copied+6 {
		t.Errorf("walked %d files and %d folders under %s, want at least %d files in 5 folders", files, dirs, root, copied+6)
	}
}
