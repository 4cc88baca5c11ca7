package capture

import (
	"bytes"
	"cmp"
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

// realDebug1 is this process's goroutine profile, debug=1.
func realDebug1(t *testing.T) []byte {
	t.Helper()
	rec := httptest.NewRecorder()
	pprof.Handler("goroutine").ServeHTTP(rec, httptest.NewRequest("GET", "/debug/pprof/goroutine?debug=1", nil))
	return rec.Body.Bytes()
}

// fullDumpOnly answers the count first asked for (debug=1) truly, 404 for
// the endpoints a Go 1.26 pprof does not serve (goroutineleak, package
// handler), and serves every other request with h: a target whose full
// dump fails in one way.
func fullDumpOnly(debug1 []byte, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Query().Get("debug") == "1":
			w.Write(debug1)
		case strings.HasSuffix(r.URL.Path, HandlerPath), strings.HasSuffix(r.URL.Path, "/goroutineleak"):
			http.NotFound(w, r)
		default:
			h(w, r)
		}
	}
}

// Each fault is a real server (or a closed port) failing in one way. Every
// fault must give a one-line error naming target and moment, recorded in the
// manifest as the moment's primary, nothing partial on disk, and the
// schedule going on (two moments). A fault of every request shows on the
// count asked first (debug=1); a fault of the full dump only, on debug=2.
func TestPprofFaults(t *testing.T) {
	t.Parallel()
	dump, debug1 := realDump(t), realDebug1(t)
	full := func(h http.HandlerFunc) string { return newHandlerServer(t, fullDumpOnly(debug1, h)).URL }
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
		name string
		url  func() string
		plan Plan
		what string   // the file that fails: "goroutine debug=1" unless set
		want []string // substrings of every primary error
	}{{
		name: "connection refused",
		url:  closed,
		// A refusal at the first moment stops the run (TestStopsEarly);
		// kept trying, every moment records it.
		plan: Plan{KeepTrying: true},
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
			return full(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Length", "1000000")
				w.Write(dump[:len(dump)/2])
			})
		},
		what: "goroutine debug=2",
		want: []string{"body truncated after", "connection closed early"},
	}, {
		name: "truncated dump, cut mid-line",
		url: func() string {
			return full(func(w http.ResponseWriter, r *http.Request) {
				w.Write(dump[:len(dump)-3])
			})
		},
		what: "goroutine debug=2",
		want: []string{"truncated goroutine dump", "is not complete"},
	}, {
		name: "truncated dump, cut after a function line",
		url: func() string {
			cut := dump[:bytes.LastIndex(dump, []byte("\n\t"))+1]
			return full(func(w http.ResponseWriter, r *http.Request) {
				w.Write(cut)
			})
		},
		what: "goroutine debug=2",
		want: []string{"truncated goroutine dump", "not a frame's file line"},
	}, {
		name: "non-dump body",
		url: func() string {
			return full(func(w http.ResponseWriter, r *http.Request) {
				w.Write([]byte("<html><body>Welcome</body></html>\n"))
			})
		},
		what: "goroutine debug=2",
		want: []string{"not a goroutine dump", `"<html><body>Welcome</body></html>"`},
	}, {
		name: "non-dump body for the count",
		url: func() string {
			return newHandlerServer(t, func(w http.ResponseWriter, r *http.Request) {
				w.Write([]byte("<html><body>Welcome</body></html>\n"))
			}).URL
		},
		want: []string{"not a goroutine profile (debug=1)", `"<html><body>Welcome</body></html>"`},
	}, {
		name: "empty body",
		url: func() string {
			return full(func(w http.ResponseWriter, r *http.Request) {})
		},
		what: "goroutine debug=2",
		want: []string{"empty body"},
	}, {
		name: "size cap exceeded",
		url:  func() string { return newPprofServer(t, nil).URL },
		plan: Plan{MaxBytes: 1000},
		want: []string{"exceeds the size cap of 1000 bytes"},
	}, {
		name: "size cap exceeded, chunked",
		url: func() string {
			return full(func(w http.ResponseWriter, r *http.Request) {
				for range 10 {
					w.Write(dump)
					w.(http.Flusher).Flush()
				}
			})
		},
		plan: Plan{MaxBytes: int64(3 * len(dump))},
		what: "goroutine debug=2",
		want: []string{"exceeds the size cap"},
	}, {
		// Over the pause budget the proto is the moment's dump.
		name: "corrupt proto over the pause budget",
		url: func() string {
			var gz bytes.Buffer
			zw := gzip.NewWriter(&gz)
			zw.Write(bytes.Repeat([]byte("profile"), 1000))
			zw.Close()
			return full(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Query().Get("debug") == "0" {
					w.Write(gz.Bytes()[:gz.Len()-20])
					return
				}
				w.Write(dump)
			})
		},
		plan: Plan{MaxPause: time.Nanosecond},
		what: "goroutine debug=0",
		want: []string{"truncated or corrupt gzipped profile"},
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
			if err == nil || !strings.Contains(err.Error(), "no dump captured") {
				t.Errorf("Run error = %v, want no dump captured", err)
			}
			what := cmp.Or(tt.what, "goroutine debug=1")
			if err != nil && !strings.Contains(err.Error(), "all 2 attempts failed; first: svc at 1: "+what+": ") {
				t.Errorf("Run error %q does not name the first failed dump", err)
			}
			var primaries []File
			for _, f := range m.Files {
				switch {
				case f.Primary:
					primaries = append(primaries, f)
				case what == "goroutine debug=1" || f.Kind != FileGoroutineDebug1 || !f.OK():
					t.Errorf("file %+v beside a failed dump: want only the count asked first", f)
				}
			}
			if len(primaries) != 2 {
				t.Fatalf("%d primaries, want 2 failed ones: %+v", len(primaries), m.Files)
			}
			for i, f := range primaries {
				prefix := "svc at " + []string{"1", "2"}[i] + ": " + what + ": "
				if !strings.HasPrefix(f.Error, prefix) || !containsAll(f.Error, tt.want...) {
					t.Errorf("error %q, want prefix %q and %q", f.Error, prefix, tt.want)
				}
				if strings.Contains(f.Error, "\n") {
					t.Errorf("error is not one line: %q", f.Error)
				}
				// The first failure whole; the same one at the next moment
				// as "as at 1" (failMemory).
				shown := "FAIL " + f.Error
				if i == 1 {
					shown = "FAIL svc at 2: as at 1 ("
				}
				if !strings.Contains(out, shown) {
					t.Errorf("progress does not show %q", shown)
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
	if f := filesOf(m, "echo", FileGoroutineDebug1); len(f) != 1 || !strings.Contains(f[0].Error, "you sent REDACTED and") {
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
