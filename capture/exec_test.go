package capture

import (
	"context"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"
	"testing"
	"time"
)

// writeProfile writes this process's goroutine profile at the given debug
// level: real runtime bytes for commands to print.
func writeProfile(t *testing.T, debug int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "goroutines")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := pprof.Lookup("goroutine").WriteTo(f, debug); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestExecTarget(t *testing.T) {
	t.Parallel()
	text, proto := writeProfile(t, 2), writeProfile(t, 0)
	dir := t.TempDir()
	m, _, err := run(t, context.Background(), Plan{
		Targets: []Target{
			ExecTarget("text", "cat '"+text+"'"),
			ExecTarget("proto", "cat "+proto+" | cat"),
			ExecTarget("", "printf 'warning: kubectl noise\\n'; cat "+text),
		},
		Count: 2, Every: time.Millisecond, OutDir: dir,
	}, nil)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	checkOutDir(t, dir, m)
	want := map[string]struct {
		kind FileKind
		path string
	}{
		"text":   {FileGoroutine, "text__1.txt"},
		"proto":  {FileGoroutineProto, "proto__1.pb.gz"},
		"exec-3": {FileGoroutine, "exec-3__1.txt"},
	}
	for name, w := range want {
		d := m.Dumps(name)
		if len(d) != 2 {
			t.Fatalf("%s: %d dumps, want 2: %+v", name, len(d), m.Files)
		}
		if d[0].Kind != w.kind || d[0].Path != w.path {
			t.Errorf("%s: %s %s, want %s %s", name, d[0].Kind, d[0].Path, w.kind, w.path)
		}
	}
	orig, _ := os.ReadFile(text)
	if got := readFile(t, dir, "text__2.txt"); got != string(orig) {
		t.Errorf("text__2.txt differs from the command's output")
	}
}

func TestExecFaults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		command string
		plan    Plan
		want    string
	}{
		{"failing command", "echo starting; echo 'oops: no such pod' >&2; exit 7", Plan{}, "command: exit status 7: oops: no such pod"},
		{"command not found", "no-such-command-dumpdiff", Plan{}, "exit status 127"},
		{"not a dump", "echo hello world", Plan{}, `not a goroutine or JVM thread dump: output starts with "hello world"`},
		{"empty output", "true", Plan{}, "no output"},
		{"truncated JVM dump", "printf '1234:\\nFull thread dump OpenJDK:\\n\\n\"main\" #1 prio=5\\n'", Plan{}, "truncated JVM thread dump"},
		{"size cap", "yes 'goroutine 1 [running]:' | head -c 100000", Plan{MaxBytes: 1000}, "output exceeds the size cap of 1000 bytes"},
		{"timeout kills the group", "sleep 5; echo late", Plan{Timeout: 100 * time.Millisecond}, "timed out after 100ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := tt.plan
			p.Targets = []Target{ExecTarget("cmd", tt.command)}
			p.Count, p.Every, p.OutDir = 2, time.Millisecond, t.TempDir()
			m, _, err := run(t, context.Background(), p, nil)
			if err == nil {
				t.Error("Run: no error, want no dump captured")
			}
			checkOutDir(t, p.OutDir, m)
			if got := labels(m); !slices.Equal(got, []string{"1", "2"}) {
				t.Errorf("moments %v, want [1 2]", got)
			}
			for _, f := range m.Files {
				prefix := "cmd at " + f.Moment + ": command: "
				if !strings.HasPrefix(f.Error, prefix) || !strings.Contains(f.Error, tt.want) {
					t.Errorf("error %q, want %q ... %q", f.Error, prefix, tt.want)
				}
			}
		})
	}
}
