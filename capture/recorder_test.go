package capture

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/internal/watchtest"
)

// TestRecorderRing takes moments from a real pprof server one at a time,
// forgets the oldest, stops, and resumes on the same folder: the ring's
// files are exactly what its manifest lists, indexes are never given
// twice, and a file the recorder did not write is never touched.
func TestRecorderRing(t *testing.T) {
	srv := newPprofServer(t, nil)
	dir := filepath.Join(t.TempDir(), "api")
	plan := Plan{Targets: []Target{PprofTarget("api", srv.URL)}, OutDir: dir, Every: time.Second}
	rec, err := NewRecorder(plan)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, l := range []string{"m1", "m2", "m3"} {
		files, err := rec.Take(ctx, l, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 || !slices.ContainsFunc(files, func(f File) bool { return f.Primary && f.OK() }) {
			t.Fatalf("moment %s: no primary dump among %+v", l, files)
		}
	}
	if _, err := rec.Take(ctx, "m2", time.Now()); !errors.Is(err, ErrMomentExists) {
		t.Errorf("a label taken twice: %v", err)
	}
	// Someone else's file in the ring's folder.
	foreign := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(foreign, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	freed, err := rec.Forget("m1")
	if err != nil || freed <= 0 {
		t.Fatalf("Forget m1: freed %d, %v", freed, err)
	}
	if _, err := rec.Forget("m1"); err == nil {
		t.Error("forgetting a moment twice is no error")
	}
	if err := rec.Close(nil); err != nil {
		t.Fatal(err)
	}
	m := rec.Manifest()
	if got := labels(m); !slices.Equal(got, []string{"m2", "m3"}) {
		t.Errorf("labels after Forget: %v", got)
	}
	if m.Schedule.Kind != scheduleWatch {
		t.Errorf("schedule kind %q", m.Schedule.Kind)
	}
	os.Remove(foreign)
	checkOutDir(t, dir, m) // no file of m1 left, every listed file there
	os.WriteFile(foreign, []byte("mine"), 0o644)

	// A restart resumes the ring: earlier moments kept, indexes go on.
	rec2, err := NewRecorder(plan)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rec2.Take(ctx, "m4", time.Now()); err != nil {
		t.Fatal(err)
	}
	m = rec2.Manifest()
	if got := labels(m); !slices.Equal(got, []string{"m2", "m3", "m4"}) {
		t.Errorf("labels after resume: %v", got)
	}
	var idx []int
	for _, mo := range m.Moments {
		idx = append(idx, mo.Index)
	}
	if !slices.Equal(idx, []int{1, 2, 3}) {
		t.Errorf("indexes %v, want 1 2 3 (m1 was 0)", idx)
	}
	// A ring that forgets all it holds (a byte bound under two moments)
	// goes on counting.
	for _, l := range []string{"m2", "m3", "m4"} {
		if _, err := rec2.Forget(l); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := rec2.Take(ctx, "m5", time.Now()); err != nil {
		t.Fatal(err)
	}
	if mo := rec2.Manifest().Moments; len(mo) != 1 || mo[0].Index != 4 {
		t.Errorf("after forgetting every moment: %+v, want m5 at index 4", mo)
	}
	if len(m.PreviousRuns) != 1 || m.Moments[2].Run != 1 {
		t.Errorf("the restart is not recorded as a run: %d previous runs, run %d", len(m.PreviousRuns), m.Moments[2].Run)
	}
	if b, err := os.ReadFile(foreign); err != nil || string(b) != "mine" {
		t.Errorf("a file the recorder did not write: %q, %v", b, err)
	}
}

// TestRecorderRefusesOthers: a plain capture, or a folder of other files,
// is never taken for a ring (a ring deletes its oldest files).
func TestRecorderRefusesOthers(t *testing.T) {
	srv := newPprofServer(t, nil)
	dir := t.TempDir()
	if _, _, err := run(t, context.Background(), Plan{Targets: []Target{PprofTarget("api", srv.URL)}, OutDir: dir, Count: 1}, nil); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(dir, ManifestName))
	_, err := NewRecorder(Plan{Targets: []Target{PprofTarget("api", srv.URL)}, OutDir: dir, Every: time.Second})
	var oe *OutDirError
	if !errors.As(err, &oe) || !strings.Contains(err.Error(), "not by watch") {
		t.Fatalf("a plain capture: %v", err)
	}
	after, _ := os.ReadFile(filepath.Join(dir, ManifestName))
	if string(before) != string(after) {
		t.Error("the refused capture's manifest was rewritten")
	}
	other := t.TempDir()
	os.WriteFile(filepath.Join(other, "x.txt"), []byte("x"), 0o644)
	if _, err := NewRecorder(Plan{Targets: []Target{PprofTarget("api", srv.URL)}, OutDir: other, Every: time.Second}); !errors.As(err, &oe) {
		t.Fatalf("a folder of other files: %v", err)
	}
}

// TestRecorderFolderGone: the ring's folder removed under a running
// recorder is an error of that Take, with reason disk, not a crash; when
// the folder is back, the next Take records again.
func TestRecorderFolderGone(t *testing.T) {
	srv := newPprofServer(t, nil)
	dir := filepath.Join(t.TempDir(), "ring")
	rec, err := NewRecorder(Plan{Targets: []Target{PprofTarget("api", srv.URL)}, OutDir: dir, Every: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	files, err := rec.Take(context.Background(), "m1", time.Now())
	if err == nil {
		t.Fatal("no error for a folder that is gone")
	}
	for _, f := range files {
		if f.OK() || f.Reason != ReasonDisk {
			t.Errorf("file in a folder that is gone: %+v", f)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := rec.Take(context.Background(), "m2", time.Now()); err != nil {
		t.Fatalf("after the folder is back: %v", err)
	}
	onDisk, err := ReadManifest(dir)
	if err != nil || !slices.Contains(labels(onDisk), "m2") {
		t.Fatalf("manifest after the folder is back: %v %v", onDisk, err)
	}
}

// TestFailureReasons classifies real failures: a port nobody listens on,
// a 404, a page that is no dump, a timeout, a pid that has exited.
func TestFailureReasons(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String()
	l.Close()
	notFound := newHandlerServer(t, func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })
	html := newHandlerServer(t, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("<html>login</html>")) })
	slow := newHandlerServer(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	})
	cases := []struct {
		target Target
		want   string
	}{
		{PprofTarget("refused", closed), ReasonRefused},
		{PprofTarget("notfound", notFound.URL), ReasonHTTPStatus},
		{PprofTarget("html", html.URL), ReasonNotADump},
		{PprofTarget("slow", slow.URL), ReasonTimeout},
		{JVMTarget("gone", exitedPID(t)), ReasonGone},
		{ExecTarget("cmd", "echo hello"), ReasonNotADump},
		{ExecTarget("fails", "exit 3"), ReasonTool},
	}
	for _, c := range cases {
		t.Run(c.target.Name, func(t *testing.T) {
			// Only the slow endpoint is about the timeout; the others get
			// one a loaded machine never reaches (a shell took more than
			// 300 ms to start and run "exit 3" with three test suites on
			// two cores: timeout, not tool).
			timeout := 30 * time.Second
			if c.want == ReasonTimeout {
				timeout = 300 * time.Millisecond
			}
			m, _, _ := run(t, context.Background(), Plan{Targets: []Target{c.target}, OutDir: t.TempDir(), Count: 1, Timeout: timeout}, nil)
			var got []string
			for _, f := range m.Files {
				if f.Error != "" {
					got = append(got, f.Reason)
				}
			}
			if len(got) == 0 || got[0] != c.want {
				t.Errorf("reasons %v, want %s first; files %+v", got, c.want, m.Files)
			}
		})
	}
}

// exitedPID is the pid of a process that has exited.
func exitedPID(t *testing.T) int {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("cannot run true:", err)
	}
	return cmd.Process.Pid
}

// TestCommandErrorLine: a command that fails with a Java stack trace
// (the real jcmd on a pid that is gone) is told by its exception's line,
// not by the trace's last frame.
func TestCommandErrorLine(t *testing.T) {
	if _, err := exec.LookPath("jcmd"); err != nil {
		t.Skip("no jcmd on PATH")
	}
	m, _, _ := run(t, context.Background(), Plan{Targets: []Target{ExecTarget("gone", fmt.Sprintf("jcmd %d Thread.print", exitedPID(t)))},
		OutDir: t.TempDir(), Count: 1}, nil)
	// "No such process", or "Connection refused" when the pid was taken
	// again meanwhile: the exception's line either way, not a frame.
	if len(m.Files) == 0 || !strings.Contains(m.Files[0].Error, "java.io.IOException: ") || strings.Contains(m.Files[0].Error, "JCmd.") {
		t.Fatalf("error line: %+v", m.Files)
	}
}

// TestRecorderForgetFullDisk: a moment forgotten while the disk is full
// (a real 1 MiB tmpfs, skipped where none can be mounted) loses its files
// all the same: the manifest cannot be written, but the disk is freed, and
// once there is room the manifest lists exactly what is left.
func TestRecorderForgetFullDisk(t *testing.T) {
	mnt := watchtest.Tmpfs(t, "1m")
	srv := newPprofServer(t, nil)
	dir := filepath.Join(mnt, "ring")
	rec, err := NewRecorder(Plan{Targets: []Target{PprofTarget("api", srv.URL)}, OutDir: dir, Every: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{"m1", "m2"} {
		if _, err := rec.Take(context.Background(), l, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	var m1 []string
	for _, f := range rec.Manifest().Files {
		if f.Moment == "m1" && f.Path != "" {
			m1 = append(m1, f.Path)
		}
	}
	filler, err := os.Create(filepath.Join(mnt, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	for chunk := make([]byte, 16<<10); ; {
		if _, err := filler.Write(chunk); err != nil {
			break
		}
	}
	filler.Close()
	freed, err := rec.Forget("m1")
	if err == nil {
		t.Error("Forget on a full disk: no error for the manifest it could not write")
	}
	if freed == 0 || len(m1) == 0 {
		t.Errorf("freed %d bytes of %v", freed, m1)
	}
	for _, p := range m1 {
		if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
			t.Errorf("%s of the forgotten moment is still there", p)
		}
	}
	os.Remove(filepath.Join(mnt, "filler"))
	if err := rec.Close(nil); err != nil {
		t.Fatal(err)
	}
	checkOutDir(t, dir, rec.Manifest())
}

// TestReasonDiskOnlyOfOutFolder: a file error is the disk's only where
// the file is the out folder's.
func TestReasonDiskOnlyOfOutFolder(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		path, want string
	}{
		{"/out/ring/.capture-1.tmp", ReasonDisk},
		{".capture-1.tmp", ReasonDisk},
		{"/proc/4242/root/tmp/dumpdiff-1.json", ReasonOther},
		{"/out/ringside/x", ReasonOther},
	} {
		if got := reasonOf(ctx, &fs.PathError{Op: "open", Path: c.path, Err: syscall.EIO}, "/out/ring"); got != c.want {
			t.Errorf("%s: %s, want %s", c.path, got, c.want)
		}
	}
	if got := reasonOf(ctx, fmt.Errorf("x: %w", syscall.ENOSPC), "/out/ring"); got != ReasonDisk {
		t.Errorf("ENOSPC: %s", got)
	}
}
