package capture

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A header value pasted into the load command, an exec command and a target
// name, echoed by the load and by a failing command, and carried by the
// cancel cause, never reaches manifest.json, progress lines or Run's error.
func TestSecretsNeverWritten(t *testing.T) {
	t.Parallel()
	const secret = "SECRET123"
	const header = "Bearer " + secret
	s := newPprofServer(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Authorization") != header {
				http.Error(w, "unauthorized", http.StatusUnauthorized)
				return
			}
			h.ServeHTTP(w, r)
		})
	})
	text := writeProfile(t, 2)
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	dir := filepath.Join(t.TempDir(), "out")
	echoed, moments := false, 0
	m, progress, err := run(t, ctx, Plan{
		Targets: []Target{
			PprofTarget("api", s.URL),
			ExecTarget("", "echo 'Authorization: "+header+"' >/dev/null; cat "+text),
			ExecTarget("t-"+secret, "echo 'denied for token "+secret+"' >&2; exit 1"),
		},
		Headers: http.Header{"Authorization": {header}},
		// curl -v prints the request headers: the load's output holds them too.
		Load:   "echo '> Authorization: " + header + "'; sleep 30",
		Every:  10 * time.Millisecond,
		OutDir: dir,
	}, func(e Event) {
		// Cancelled at the first moment during the load after its echo
		// was read (the line reaches the tail before it reaches us), not
		// at a fixed moment: a loaded machine may start the shell late.
		// Events are never delivered concurrently.
		switch e.Kind {
		case EventLoadOutput:
			echoed = true
		case EventMoment:
			moments++
			if echoed && strings.HasPrefix(e.Moment, "during-") {
				cancel(errors.New("stopped with " + secret))
			}
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run error %v does not wrap context.Canceled", err)
	}
	checkOutDir(t, dir, m)
	manifest, rerr := os.ReadFile(filepath.Join(dir, ManifestName))
	if rerr != nil {
		t.Fatal(rerr)
	}
	for what, got := range map[string]string{
		"manifest.json": string(manifest),
		"progress":      progress,
		"Run error":     err.Error(),
	} {
		if strings.Contains(got, secret) {
			t.Errorf("%s holds the secret:\n%s", what, got)
		}
	}

	// Scrubbed, not dropped: the records still say what ran.
	if want := "echo '> Authorization: REDACTED'; sleep 30"; m.Schedule.Load != want || m.Load == nil || m.Load.Command != want {
		t.Errorf("load recorded as %q and %+v, want %q", m.Schedule.Load, m.Load, want)
	}
	if m.Load != nil && m.Load.OutputTail != "> Authorization: REDACTED\n" {
		t.Errorf("load output tail %q", m.Load.OutputTail)
	}
	wantTargets := []TargetRecord{
		{Name: "api", Kind: KindPprof, Source: redactURL(s.URL + "/debug/pprof")},
		{Name: "exec-2", Kind: KindExec, Source: "echo 'Authorization: REDACTED' >/dev/null; cat " + text},
		{Name: "t-REDACTED", Kind: KindExec, Source: "echo 'denied for token REDACTED' >&2; exit 1"},
	}
	for i, w := range wantTargets {
		if got := m.Targets[i]; got.Name != w.Name || got.Kind != w.Kind || got.Source != w.Source {
			t.Errorf("target %d = %+v, want %+v", i, got, w)
		}
	}
	if len(m.Dumps("api")) == 0 || len(m.Dumps("exec-2")) == 0 {
		t.Errorf("the header was not sent or the command not run: %+v", m.Files)
	}
	if f := filesOf(m, "t-REDACTED", FileUnknown); len(f) == 0 || !strings.Contains(f[0].Error, "denied for token REDACTED") {
		t.Errorf("failing command's error not kept scrubbed: %+v", f)
	}
	kept := len(m.Files) - m.Failed() // 3, or 4 where goroutineleak is served
	if want := fmt.Sprintf("interrupted after %d moments: %d files kept in %s, 0 discarded: stopped with REDACTED (context canceled)", moments, kept, dir); err.Error() != want {
		t.Errorf("Run error\n%s\nwant\n%s", err, want)
	}
}

func TestScrubbedTail(t *testing.T) {
	t.Parallel()
	sec := Plan{Headers: http.Header{"X-Token": {"abcdefgh"}}}.secrets()
	tests := []struct {
		name   string
		writes []string
		want   string
	}{
		{"short", []string{"token abcdefgh\n"}, "token REDACTED\n"},
		{"split across writes", []string{"token abcd", "efgh\n"}, "token REDACTED\n"},
		// The buffer keeps 16..32 bytes: the secret is scrubbed before
		// the 16-byte cut, and the cut line is dropped.
		{"cut after a secret", []string{"1 abcdefgh\n", "22222222222\n", "333\n"}, "22222222222\n333\n"},
		{"cut in a secret", []string{"xxxxxxxxxxxxxxxxxxxxxxxx abcd", "efgh\n4444\n"}, "4444\n"},
		{"cut, one line", []string{strings.Repeat("x", 40)}, strings.Repeat("x", 16)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := &tailBuffer{max: 16}
			for _, w := range tt.writes {
				b.Write([]byte(w))
			}
			if got := b.scrubbedTail(sec); got != tt.want {
				t.Errorf("scrubbedTail = %q, want %q", got, tt.want)
			}
		})
	}
}

// Every form a server may echo a secret in is scrubbed: as given, escaped
// in a URL, a JSON string or HTML, the Basic form Go's client makes of URL
// user info, a Basic header's decoded user:password, a token of the
// target's own query; values shorter than minSecret and capture's own
// query parameters are not secrets.
func TestPlanSecrets(t *testing.T) {
	t.Parallel()
	p := Plan{
		Headers: http.Header{
			"Authorization":       {"Bearer tok1234<&>"},
			"X-Short":             {"abc"},
			"Proxy-Authorization": {"Basic " + base64.StdEncoding.EncodeToString([]byte("proxyuser:pr0xy-pass"))},
		},
		Targets: []Target{
			PprofTarget("", "http://u:p%40ssw@h:6060/debug/pprof?debug=2&access_token=qtok%2F99"),
			ActuatorTarget("", "http://admin:act-pass@h:8081/actuator/threaddump"),
			ExecTarget("", "x"),
		},
	}
	s := p.secrets()
	for _, form := range []string{
		"Bearer tok1234<&>", "tok1234<&>", "Bearer%20tok1234%3C%26%3E", "Bearer+tok1234%3C%26%3E",
		`tok1234\u003c\u0026\u003e`, "tok1234&lt;&amp;&gt;",
		"p@ssw", "p%40ssw", "p%2540ssw",
		base64.StdEncoding.EncodeToString([]byte("u:p@ssw")),
		strings.TrimRight(base64.StdEncoding.EncodeToString([]byte("u:p@ssw")), "="),
		base64.StdEncoding.EncodeToString([]byte("admin:act-pass")), "act-pass",
		"proxyuser:pr0xy-pass", "pr0xy-pass",
		"qtok%2F99", "qtok/99", "qtok%252F99",
	} {
		text := "echoed <" + form + "> back"
		if got := s.scrub(text); strings.Contains(got, form) || !strings.Contains(got, redacted) {
			t.Errorf("scrub(%q) = %q: the secret's form %q is left", text, got, form)
		}
	}
	for _, kept := range []string{"abc", "debug=2", "2"} {
		if got := s.scrub("a " + kept + " b"); got != "a "+kept+" b" {
			t.Errorf("scrub scrubbed %q, not a secret: %q", kept, got)
		}
	}
	// Longest first: a value is replaced whole before a token inside it.
	if got := s.scrub("Authorization: Bearer tok1234<&>"); got != "Authorization: REDACTED" {
		t.Errorf("scrub of a whole header value = %q", got)
	}
}

// A text cut at its end loses the rest of a secret; its start is scrubbed.
func TestScrubCut(t *testing.T) {
	t.Parallel()
	s := Plan{Headers: http.Header{"X-Key": {"k3y-0123456789"}}}.secrets()
	for _, tt := range []struct{ in, want string }{
		{"you sent k3y-0123456789 and", "you sent REDACTED and"},
		{"you sent k3y-01234", "you sent REDACTED"},
		{"you sent k3y", "you sent REDACTED"},
		{"you sent k3", "you sent k3"}, // minCutSecret: two letters say nothing
		{"nothing here", "nothing here"},
	} {
		if got := s.scrubCut(tt.in); got != tt.want {
			t.Errorf("scrubCut(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
