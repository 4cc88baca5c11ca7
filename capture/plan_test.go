package capture

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestPprofBase(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want, err string
	}{
		{"host only", "http://127.0.0.1:6060", "http://127.0.0.1:6060/debug/pprof", ""},
		{"base with slash", "http://h:6060/debug/pprof/", "http://h:6060/debug/pprof", ""},
		{"goroutine URL with query", "http://h:6060/debug/pprof/goroutine?debug=1", "http://h:6060/debug/pprof", ""},
		{"leak URL", "https://h/debug/pprof/goroutineleak", "https://h/debug/pprof", ""},
		{"prefix", "http://h/admin/debug/pprof/goroutine", "http://h/admin/debug/pprof", ""},
		{"other path", "http://h/admin", "http://h/admin/debug/pprof", ""},
		{"user info kept for requests", "http://u:p@h", "http://u:p@h/debug/pprof", ""},
		{"no scheme", "127.0.0.1:6060", "http://127.0.0.1:6060/debug/pprof", ""},
		{"other scheme", "ftp://h", "", "scheme must be http or https"},
		{"bad URL", "http://u:pa ss@h:x", "", "bad pprof URL: "},
		{"no host", "http:///debug/pprof", "", "no host"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := pprofBase(tt.in)
			checkErr(t, err, tt.err)
			if got != tt.want {
				t.Errorf("pprofBase(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestPlanNormalize(t *testing.T) {
	t.Parallel()
	good := []Target{PprofTarget("a b/c", "http://h")}
	tests := []struct {
		name string
		plan Plan
		err  string
	}{
		{"fixed", Plan{Targets: good, Count: 3, Every: time.Second, OutDir: "o"}, ""},
		{"single moment needs no interval", Plan{Targets: good, Count: 1, OutDir: "o"}, ""},
		{"no targets", Plan{Count: 1, OutDir: "o"}, "no targets"},
		{"no out dir", Plan{Targets: good, Count: 1}, "no output folder"},
		{"count 0", Plan{Targets: good, OutDir: "o"}, "count must be at least 1, got 0"},
		{"no interval", Plan{Targets: good, Count: 2, OutDir: "o"}, "every must be at least 1ms"},
		{"load without interval", Plan{Targets: good, Load: "sleep 1", OutDir: "o"}, "during-every must be at least"},
		{"bad pid", Plan{Targets: []Target{JVMTarget("", 0)}, Count: 1, OutDir: "o"}, "target 1 (jvm): bad pid 0"},
		{"empty command", Plan{Targets: []Target{ExecTarget("", " ")}, Count: 1, OutDir: "o"}, "empty command"},
		{"unknown kind", Plan{Targets: []Target{{Kind: "ssh"}}, Count: 1, OutDir: "o"}, `unknown target kind "ssh"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := tt.plan.normalize()
			checkErr(t, err, tt.err)
			if err != nil {
				return
			}
			if p.Timeout != DefaultTimeout || p.MaxBytes != DefaultMaxBytes || p.After != DefaultAfter {
				t.Errorf("defaults not applied: %v %v %v", p.Timeout, p.MaxBytes, p.After)
			}
			if p.Targets[0].Name != "a_b_c" {
				t.Errorf("name %q, want a_b_c", p.Targets[0].Name)
			}
		})
	}
}

func TestFixedLabel(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		i, n int
		want string
	}{{1, 1, "1"}, {3, 9, "3"}, {3, 10, "03"}, {10, 10, "10"}, {7, 120, "007"}} {
		if got := fixedLabel(tt.i, tt.n); got != tt.want {
			t.Errorf("fixedLabel(%d, %d) = %q, want %q", tt.i, tt.n, got, tt.want)
		}
	}
}

func TestRedaction(t *testing.T) {
	t.Parallel()
	if got := redactURL("http://u:secret@h:1/debug/pprof?token=secret"); got != "http://h:1/debug/pprof?REDACTED" {
		t.Errorf("redactURL = %q", got)
	}
	h := http.Header{"Authorization": {"Bearer abcdef"}, "X-K": {"ab"}}
	if got := (Plan{Headers: h}).secrets().scrub("sent Bearer abcdef, then abcdef, and ab"); got != "sent REDACTED, then REDACTED, and ab" {
		t.Errorf("scrub = %q", got)
	}
}

// A refused plan is a *PlanError listing every problem on one line, and
// nothing is created.
func TestRunRefusesPlan(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "out")
	m, err := Run(context.Background(), Plan{
		Targets: []Target{JVMTarget("", -1), ExecTarget("", "")},
		OutDir:  dir,
	}, nil)
	pe, ok := errors.AsType[*PlanError](err)
	if !ok {
		t.Fatalf("Run error %v (%T), want *PlanError", err, err)
	}
	if len(pe.Problems) != 3 {
		t.Errorf("problems %q, want 3", pe.Problems)
	}
	want := "invalid plan: count must be at least 1, got 0; target 1 (jvm): bad pid -1; target 2 (exec): empty command"
	if err.Error() != want {
		t.Errorf("Run error\n%s\nwant\n%s", err, want)
	}
	if m != nil {
		t.Errorf("manifest %+v, want nil", m)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("out folder: %v, want not created", err)
	}
}
