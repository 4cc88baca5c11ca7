package capture

import (
	"bytes"
	"compress/gzip"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/pprof"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// realDump is this process's goroutine dump, debug=2: real runtime bytes
// for handlers that then damage them.
func realDump(t *testing.T) []byte {
	t.Helper()
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("GET", "/debug/pprof/goroutine?debug=2", nil)
	pprof.Handler("goroutine").ServeHTTP(rec, req)
	return rec.Body.Bytes()
}

// Each fault is a real server (or a closed port) failing in one way. Every
// fault must give a one-line error naming target and moment, recorded in the
// manifest, nothing partial on disk, and the schedule going on (two moments).
func TestPprofFaults(t *testing.T) {
	t.Parallel()
	dump := realDump(t)
	closed := func() string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		return "http://" + addr
	}
	tests := []struct {
		name     string
		url      func() string
		plan     Plan
		want     []string // substrings of every primary error
		protoErr string   // non-empty: the primary succeeds and the proto beside fails with this
	}{{
		name: "connection refused",
		url:  closed,
		want: []string{"connection refused", "is the process running"},
	}, {
		name: "slow endpoint",
		url: func() string {
			return newHandlerServer(t, func(w http.ResponseWriter, r *http.Request) {
				select {
				case <-r.Context().Done():
				case <-time.After(5 * time.Second):
				}
			}).URL
		},
		plan: Plan{Timeout: 50 * time.Millisecond},
		want: []string{"no complete answer within 50ms", "per-request timeout"},
	}, {
		name: "401",
		url: func() string {
			return newHandlerServer(t, func(w http.ResponseWriter, r *http.Request) {
				http.Error(w, "who are you", http.StatusUnauthorized)
			}).URL
		},
		want: []string{"HTTP 401 Unauthorized", "pprof needs authentication"},
	}, {
		name: "403",
		url: func() string {
			return newHandlerServer(t, func(w http.ResponseWriter, r *http.Request) {
				http.Error(w, "no", http.StatusForbidden)
			}).URL
		},
		want: []string{"HTTP 403 Forbidden", "pprof needs authentication"},
	}, {
		name: "404 pprof not exposed",
		url: func() string {
			return newHandlerServer(t, http.NotFound).URL
		},
		want: []string{"HTTP 404 Not Found", "pprof is not exposed"},
	}, {
		name: "500 with body",
		url: func() string {
			return newHandlerServer(t, func(w http.ResponseWriter, r *http.Request) {
				http.Error(w, "profile busy", http.StatusInternalServerError)
			}).URL
		},
		want: []string{"HTTP 500 Internal Server Error", "profile busy"},
	}, {
		name: "truncated body, content-length",
		url: func() string {
			return newHandlerServer(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Length", "1000000")
				w.Write(dump[:len(dump)/2])
			}).URL
		},
		want: []string{"body truncated after", "connection closed early"},
	}, {
		name: "truncated dump, cut mid-line",
		url: func() string {
			return newHandlerServer(t, func(w http.ResponseWriter, r *http.Request) {
				w.Write(dump[:len(dump)-3])
			}).URL
		},
		want: []string{"truncated goroutine dump", "is not complete"},
	}, {
		name: "truncated dump, cut after a function line",
		url: func() string {
			cut := dump[:bytes.LastIndex(dump, []byte("\n\t"))+1]
			return newHandlerServer(t, func(w http.ResponseWriter, r *http.Request) {
				w.Write(cut)
			}).URL
		},
		want: []string{"truncated goroutine dump", "not a frame's file line"},
	}, {
		name: "non-dump body",
		url: func() string {
			return newHandlerServer(t, func(w http.ResponseWriter, r *http.Request) {
				w.Write([]byte("<html><body>Welcome</body></html>\n"))
			}).URL
		},
		want: []string{"not a goroutine dump", `"<html><body>Welcome</body></html>"`},
	}, {
		name: "empty body",
		url: func() string {
			return newHandlerServer(t, func(w http.ResponseWriter, r *http.Request) {}).URL
		},
		want: []string{"empty body"},
	}, {
		name: "size cap exceeded",
		url:  func() string { return newPprofServer(t, nil).URL },
		plan: Plan{MaxBytes: 1000},
		want: []string{"exceeds the size cap of 1000 bytes"},
	}, {
		name: "size cap exceeded, chunked",
		url: func() string {
			return newHandlerServer(t, func(w http.ResponseWriter, r *http.Request) {
				for range 10 {
					w.Write(dump)
					w.(http.Flusher).Flush()
				}
			}).URL
		},
		plan: Plan{MaxBytes: int64(3 * len(dump))},
		want: []string{"exceeds the size cap"},
	}, {
		name: "corrupt proto beside a good dump",
		url: func() string {
			var gz bytes.Buffer
			zw := gzip.NewWriter(&gz)
			zw.Write(bytes.Repeat([]byte("profile"), 1000))
			zw.Close()
			return newHandlerServer(t, func(w http.ResponseWriter, r *http.Request) {
				switch {
				case r.URL.Query().Get("debug") == "0":
					w.Write(gz.Bytes()[:gz.Len()-20])
				case strings.HasSuffix(r.URL.Path, "/goroutine"):
					w.Write(dump)
				default:
					http.NotFound(w, r)
				}
			}).URL
		},
		protoErr: "truncated or corrupt gzipped profile",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := tt.plan
			p.Targets = []Target{PprofTarget("svc", tt.url())}
			p.Count, p.Every, p.OutDir = 2, time.Millisecond, t.TempDir()
			m, out, err := run(t, context.Background(), p, nil)
			checkOutDir(t, p.OutDir, m)
			if got := labels(m); !slices.Equal(got, []string{"1", "2"}) {
				t.Errorf("moments %v, want the schedule to go on: [1 2]", got)
			}
			if tt.protoErr != "" {
				if err != nil {
					t.Fatalf("Run: %v", err)
				}
				for _, f := range filesOf(m, "svc", FileGoroutineProto) {
					if !strings.Contains(f.Error, tt.protoErr) {
						t.Errorf("proto error %q, want %q", f.Error, tt.protoErr)
					}
				}
				if n := len(m.Dumps("svc")); n != 2 {
					t.Errorf("%d dumps, want 2", n)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), "no dump captured") {
				t.Errorf("Run error = %v, want no dump captured", err)
			}
			if len(m.Files) != 2 {
				t.Fatalf("%d files, want 2 failed primaries (nothing beside a failed one): %+v", len(m.Files), m.Files)
			}
			for i, f := range m.Files {
				prefix := "svc at " + []string{"1", "2"}[i] + ": goroutine debug=2: "
				if !strings.HasPrefix(f.Error, prefix) || !containsAll(f.Error, tt.want...) {
					t.Errorf("error %q, want prefix %q and %q", f.Error, prefix, tt.want)
				}
				if strings.Contains(f.Error, "\n") {
					t.Errorf("error is not one line: %q", f.Error)
				}
				if !strings.Contains(out, "FAIL "+f.Error) {
					t.Errorf("progress does not show %q", f.Error)
				}
			}
		})
	}
}

// Header values are sent but never written to the manifest, progress or
// errors, even when a server echoes them back.
func TestHeadersNeverRecorded(t *testing.T) {
	t.Parallel()
	const token = "s3cret-token-0123456789"
	authed := newPprofServer(t, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Authorization") != "Bearer "+token || r.Header.Get("X-Api-Key") != "key-"+token {
				http.Error(w, "bad auth", http.StatusUnauthorized)
				return
			}
			next.ServeHTTP(w, r)
		})
	})
	echo := newHandlerServer(t, func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "you sent "+r.Header.Get("Authorization")+" and "+r.Header.Get("X-Api-Key"), http.StatusBadGateway)
	})
	dir := t.TempDir()
	h := http.Header{}
	h.Set("Authorization", "Bearer "+token)
	h.Set("X-Api-Key", "key-"+token)
	m, out, err := run(t, context.Background(), Plan{
		Targets: []Target{
			PprofTarget("authed", strings.Replace(authed.URL, "http://", "http://user:"+token+"@", 1)),
			PprofTarget("echo", echo.URL+"/debug/pprof/goroutine?token="+token),
		},
		Count: 1, OutDir: dir, Headers: h,
	}, nil)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if n := len(m.Dumps("authed")); n != 1 {
		t.Errorf("authed target: %d dumps, want 1 (headers sent): %+v", n, m.Files)
	}
	if f := filesOf(m, "echo", FileGoroutine); len(f) != 1 || !strings.Contains(f[0].Error, "you sent REDACTED and") {
		t.Errorf("echo target files %+v, want a redacted echo", f)
	}
	manifest := readFile(t, dir, ManifestName)
	for where, s := range map[string]string{"manifest": manifest, "progress": out} {
		if strings.Contains(s, token) {
			t.Errorf("%s holds the header value:\n%s", where, s)
		}
	}
	if !strings.Contains(manifest, `"source": "http://127.0.0.1`) {
		t.Errorf("manifest sources:\n%s", manifest)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatal(err)
	}
}
