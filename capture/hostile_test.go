package capture

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode"
)

// Endpoints that misbehave on purpose: redirects off the target, servers
// that echo credentials back, bytes meant for the terminal, bodies that are
// not dumps. Everything listens on loopback; 127.0.0.2 stands for "another
// host", and a request that reaches it fails the test.

// The secrets every hostile test gives: a header value (an API key), and a
// password in the target URL, which Go's client sends as Basic auth.
const (
	hostileKey  = "api-key-7f3a9c21d4"
	hostileUser = "ops"
	hostilePass = "pw-Xq8!k2"
)

// hostileForms are hostileKey and hostilePass in every form they may be
// echoed in: as sent, as the Basic header Go makes of the URL's user
// info, and escaped in a URL.
func hostileForms() []string {
	basic := base64.StdEncoding.EncodeToString([]byte(hostileUser + ":" + hostilePass))
	return []string{hostileKey, hostilePass, basic, strings.TrimRight(basic, "="), "pw-Xq8%21k2"}
}

// hostilePlan is a one-moment plan for target with both secrets.
func hostilePlan(t *testing.T, target Target) Plan {
	t.Helper()
	if target.Kind == KindPprof || target.Kind == KindActuator {
		target.URL = strings.Replace(target.URL, "http://", "http://"+hostileUser+":"+hostilePass+"@", 1)
	}
	return Plan{
		Targets: []Target{target},
		Count:   1,
		Timeout: 5 * time.Second,
		Headers: http.Header{"X-Api-Key": {hostileKey}},
		OutDir:  filepath.Join(t.TempDir(), "out"),
	}
}

// otherHost is a server on 127.0.0.2 (another host, as far as a URL can
// tell) serving a real dump: the test fails if any request reaches it.
func otherHost(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Skipf("cannot listen on 127.0.0.2 (another loopback address) here: %v", err)
	}
	var hits atomic.Int32
	var keys atomic.Value
	s := &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		keys.Store(r.Header.Get("X-Api-Key"))
		w.Write(realDump(t))
	})}}
	s.Start()
	t.Cleanup(func() {
		s.Close()
		if n := hits.Load(); n > 0 {
			t.Errorf("%d requests reached the other host (X-Api-Key %q): a redirect was followed off the target", n, keys.Load())
		}
	})
	return s.URL
}

// leaks fails the test when s holds a secret in any form, or a byte that
// a terminal acts on.
func leaks(t *testing.T, what, s string) {
	t.Helper()
	for _, form := range hostileForms() {
		if strings.Contains(s, form) {
			t.Errorf("%s holds the secret %q:\n%s", what, form, s)
		}
	}
	for i, r := range s {
		if r != '\n' && (r < 0x20 || r == 0x7f || (r >= 0x80 && !unicode.IsPrint(r) && r != ' ')) {
			t.Errorf("%s holds the control character %U at byte %d: %q", what, r, i, s)
			break
		}
	}
}

// leaksAnywhere checks progress, Run's error and every string the
// manifest stores (decoded: the JSON encoder escapes C0 controls itself).
func leaksAnywhere(t *testing.T, dir, progress string, err error) {
	t.Helper()
	leaks(t, "progress (stderr)", progress)
	if err != nil {
		leaks(t, "Run error", err.Error())
	}
	raw := readFile(t, dir, ManifestName)
	leaks(t, "manifest.json", raw)
	m, rerr := ReadManifest(dir)
	if rerr != nil {
		t.Fatal(rerr)
	}
	leaks(t, "manifest error", m.Error)
	for _, f := range m.Files {
		leaks(t, "manifest file error", f.Error+" "+f.Warning+" "+f.Note)
	}
	for _, tr := range m.Targets {
		leaks(t, "manifest target", tr.Source+" "+tr.LastError)
	}
}

// Redirects that leave the target's origin fail the moment with both
// locations named; nothing of the other location is fetched, and no
// header or credential is sent there.
func TestRedirectOffTarget(t *testing.T) {
	t.Parallel()
	other := otherHost(t)
	sameHostOtherPort := newHandlerServer(t, func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("a redirect to another port was followed: %s", r.URL)
	})
	redirector := func(to string) string {
		return newHandlerServer(t, func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, to+r.URL.RequestURI(), http.StatusFound)
		}).URL
	}
	var loops atomic.Int32
	loop := newHandlerServer(t, func(w http.ResponseWriter, r *http.Request) {
		loops.Add(1)
		http.Redirect(w, r, "/again"+r.URL.RequestURI(), http.StatusTemporaryRedirect)
	})
	tests := []struct {
		name   string
		target func() Target
		want   []string
	}{{
		name:   "pprof to another host",
		target: func() Target { return PprofTarget("svc", redirector(other)) },
		want:   []string{"redirect refused", "redirected to " + other + "/debug/pprof/goroutine?debug=1", "off the target"},
	}, {
		name:   "pprof to another port of the same host",
		target: func() Target { return PprofTarget("svc", redirector(sameHostOtherPort.URL)) },
		want:   []string{"redirect refused", "redirected to " + sameHostOtherPort.URL + "/debug/pprof/goroutine?debug=1"},
	}, {
		name:   "Actuator to another host",
		target: func() Target { return ActuatorTarget("svc", redirector(other)+"/actuator/threaddump") },
		want:   []string{"redirect refused", "redirected to " + other + "/actuator/threaddump", "off the target"},
	}, {
		// The count is the target's own; only package handler's
		// endpoint is sent elsewhere.
		name: "handler endpoint to another host",
		target: func() Target {
			debug1 := realDebug1(t)
			return PprofTarget("svc", newHandlerServer(t, func(w http.ResponseWriter, r *http.Request) {
				if strings.HasSuffix(r.URL.Path, HandlerPath) {
					http.Redirect(w, r, other+r.URL.RequestURI(), http.StatusFound)
					return
				}
				w.Write(debug1)
			}).URL)
		},
		want: []string{"handler: ", "redirect refused", "redirected to " + other + "/debug/pprof" + HandlerPath},
	}, {
		name:   "a loop on the target",
		target: func() Target { return PprofTarget("svc", loop.URL) },
		want:   []string{"redirect refused", "more than 3 redirects"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			target := tt.target()
			p := hostilePlan(t, target)
			m, out, err := run(t, context.Background(), p, nil)
			checkOutDir(t, p.OutDir, m)
			if err == nil || !strings.Contains(err.Error(), "no dump captured") {
				t.Errorf("Run error = %v, want no dump captured", err)
			}
			var failed []File
			for _, f := range m.Files {
				if f.Primary {
					failed = append(failed, f)
				}
			}
			if len(failed) != 1 || failed[0].OK() || !containsAll(failed[0].Error, tt.want...) {
				t.Fatalf("files %+v, want one failed primary saying %q", m.Files, tt.want)
			}
			// Both locations: the target's, without its user info.
			from := strings.Replace(target.URL, "http://", "", 1)
			if !strings.Contains(failed[0].Error, from) {
				t.Errorf("error %q does not name the target's location %s", failed[0].Error, from)
			}
			if tr := m.Targets[0]; tr.Fate != FateFailed || tr.Failed != 1 || tr.LastError != failed[0].Error {
				t.Errorf("target record %+v, want fate failed", tr)
			}
			leaksAnywhere(t, p.OutDir, out, err)
		})
	}
	t.Cleanup(func() { // after the parallel subtests
		if n := loops.Load(); n != 4 {
			t.Errorf("the loop was asked %d times, want 4 (the request and 3 redirects)", n)
		}
	})
}

// A redirect within the target's origin (a path moved behind a proxy) is
// followed, with the headers; the dumps are the target's.
func TestRedirectSameOrigin(t *testing.T) {
	t.Parallel()
	var keys atomic.Int32
	s := newPprofServer(t, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if p, ok := strings.CutPrefix(r.URL.Path, "/old"); ok {
				http.Redirect(w, r, p+"?"+r.URL.RawQuery, http.StatusMovedPermanently)
				return
			}
			if r.Header.Get("X-Api-Key") == hostileKey {
				keys.Add(1)
			}
			next.ServeHTTP(w, r)
		})
	})
	p := hostilePlan(t, PprofTarget("svc", s.URL+"/old/debug/pprof"))
	m, out, err := run(t, context.Background(), p, nil)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	checkOutDir(t, p.OutDir, m)
	if n := len(m.Dumps("svc")); n != 1 {
		t.Errorf("%d dumps, want 1: %+v", n, m.Files)
	}
	if keys.Load() < 2 {
		t.Errorf("the header reached the final location %d times, want every request (2)", keys.Load())
	}
	if tr := m.Targets[0]; tr.Fate != FateOK || tr.Dumps != 1 || tr.Failed != 0 {
		t.Errorf("target record %+v, want fate ok", tr)
	}
	leaksAnywhere(t, p.OutDir, out, err)
}

func TestSameOrigin(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		from, to string
		want     bool
	}{
		{"http://h:6060", "http://h:6060", true},
		{"http://H:6060", "http://h:6060", true},
		{"http://h", "http://h:80", true},
		{"http://h", "https://h", true},           // upgrade, default ports
		{"http://h:8443", "https://h:8443", true}, // upgrade, same explicit port
		{"http://h:6060", "https://h:6061", false},
		{"http://h:6060", "https://h", false},
		{"https://h", "http://h", false}, // downgrade: credentials in the clear
		{"http://h:6060", "http://h:6061", false},
		{"http://h:6060", "http://g:6060", false},
		{"http://h.example:6060", "http://h.example.evil:6060", false},
		{"http://[::1]:6060", "http://[::1]:6060", true},
		{"http://[::1]:6060", "http://[::2]:6060", false},
		{"http://127.0.0.1:6060", "http://127.0.0.2:6060", false},
	} {
		from, to := mustURL(t, tt.from), mustURL(t, tt.to)
		if got := sameOrigin(from.Scheme, from.Host, to.Scheme, to.Host); got != tt.want {
			t.Errorf("sameOrigin(%s, %s) = %v, want %v", tt.from, tt.to, got, tt.want)
		}
	}
}

func mustURL(t *testing.T, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// A server that echoes the request's headers in its error body, ending in
// escape sequences, has neither the credentials nor the escapes reach
// progress, the manifest or the error; the escapes show as text.
func TestEchoedSecretsAndEscapes(t *testing.T) {
	t.Parallel()
	const attack = "\x1b]0;pwned\x07\x1b[2K\u009b31m\u202eevil"
	echo := func(w http.ResponseWriter, r *http.Request) {
		var b strings.Builder
		r.Header.Write(&b)
		// The credentials come last, so the quoted line holds them.
		fmt.Fprintf(&b, "denied %s for %s %s", attack, r.Header.Get("Authorization"), r.Header.Get("X-Api-Key"))
		http.Error(w, b.String(), http.StatusInternalServerError)
	}
	// The echo cut by the error body's read limit: the credentials
	// straddle errorBodyBytes.
	cutEcho := func(w http.ResponseWriter, r *http.Request) {
		pad := strings.Repeat("x", errorBodyBytes-len(hostileKey)/2)
		http.Error(w, pad+r.Header.Get("X-Api-Key")+" and more", http.StatusBadGateway)
	}
	for _, tt := range []struct {
		name string
		h    http.HandlerFunc
		want []string
	}{
		{"echo", echo, []string{"HTTP 500 Internal Server Error", `denied \x1b]0;pwned\x07\x1b[2K\u009b31m\u202eevil for Basic REDACTED REDACTED`}},
		{"echo cut at the read limit", cutEcho, []string{"HTTP 502 Bad Gateway", "xxx..."}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := hostilePlan(t, PprofTarget("svc", newHandlerServer(t, tt.h).URL))
			m, out, err := run(t, context.Background(), p, nil)
			checkOutDir(t, p.OutDir, m)
			if len(m.Files) != 1 || !containsAll(m.Files[0].Error, tt.want...) {
				t.Errorf("files %+v, want an error saying %q", m.Files, tt.want)
			}
			leaksAnywhere(t, p.OutDir, out, err)
		})
	}
}

// A status line with escape sequences (a raw server: net/http would not
// write one) is shown inert.
func TestStatusLineInert(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				br := bufio.NewReader(c)
				for { // the request's head
					l, err := br.ReadString('\n')
					if err != nil || l == "\r\n" {
						break
					}
				}
				fmt.Fprintf(c, "HTTP/1.1 503 Busy\x1b]0;owned\x07 now\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
			}()
		}
	}()
	p := hostilePlan(t, PprofTarget("svc", "http://"+ln.Addr().String()))
	m, out, err := run(t, context.Background(), p, nil)
	checkOutDir(t, p.OutDir, m)
	if len(m.Files) != 1 || !strings.Contains(m.Files[0].Error, `HTTP 503 Busy\x1b]0;owned\x07 now`) {
		t.Errorf("files %+v, want the status shown inert", m.Files)
	}
	leaksAnywhere(t, p.OutDir, out, err)
}

// A 200 body that is not a dump is refused from its first bytes, before
// anything is written: an endless page, a gzip bomb of zeros (sent with
// Content-Encoding: gzip, which the client inflates). While the body
// would still be coming, no temp file exists: the server looks.
func TestNotADumpRefusedBeforeWriting(t *testing.T) {
	t.Parallel()
	debug1 := realDebug1(t)
	var bomb bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&bomb, gzip.BestCompression)
	zw.Write(make([]byte, 64<<20)) // 64 MiB of zeros in ~64 KiB
	zw.Close()
	for _, tt := range []struct {
		name string
		body func(w http.ResponseWriter, dir string) bool // false: a temp file was seen
		want []string
	}{{
		name: "endless HTML page",
		body: func(w http.ResponseWriter, dir string) bool {
			w.Header().Set("Content-Type", "text/html")
			page := []byte("<html><body>" + strings.Repeat("<p>please log in</p>", 1000))
			for i := 0; ; i++ {
				if _, err := w.Write(page); err != nil {
					return true // the client hung up
				}
				w.(http.Flusher).Flush()
				if tempFiles(dir) > 0 {
					return false
				}
				if i > 200 { // 4 MiB: the client should have refused long ago
					return true
				}
				// The page's pace, not synchronization: a body that
				// keeps coming, looked at between its writes.
				time.Sleep(time.Millisecond)
			}
		},
		want: []string{`not a goroutine dump: body starts with "<html><body><p>please log in</p>`, "refused before writing"},
	}, {
		name: "gzip bomb",
		body: func(w http.ResponseWriter, dir string) bool {
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(bomb.Bytes())
			w.(http.Flusher).Flush()
			// Not synchronization: the span the server looks for a temp
			// file in while the client inflates. A slow client only makes
			// the look weaker (nothing written yet), never a false failure.
			time.Sleep(50 * time.Millisecond)
			return tempFiles(dir) == 0
		},
		want: []string{`not a goroutine dump: body starts with "\x00\x00`, "refused before writing"},
	}} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), "out")
			var sawTemp atomic.Bool
			s := newHandlerServer(t, fullDumpOnly(debug1, func(w http.ResponseWriter, r *http.Request) {
				if !tt.body(w, dir) {
					sawTemp.Store(true)
				}
			}))
			p := hostilePlan(t, PprofTarget("svc", s.URL))
			p.OutDir = dir
			m, out, err := run(t, context.Background(), p, nil)
			checkOutDir(t, dir, m)
			if sawTemp.Load() {
				t.Error("a temp file was written while the body came: not refused from its first bytes")
			}
			f := filesOf(m, "svc", FileGoroutine)
			if len(f) != 1 || !containsAll(f[0].Error, tt.want...) {
				t.Errorf("dump files %+v, want an error saying %q", f, tt.want)
			}
			leaksAnywhere(t, dir, out, err)
		})
	}
}

// A body that looks like a dump but never ends stops being written at the
// size cap.
func TestEndlessDumpStopsAtCap(t *testing.T) {
	t.Parallel()
	debug1 := realDebug1(t)
	dump := realDump(t)
	dir := filepath.Join(t.TempDir(), "out")
	var largest atomic.Int64
	s := newHandlerServer(t, fullDumpOnly(debug1, func(w http.ResponseWriter, r *http.Request) {
		for range 1 << 16 {
			if _, err := w.Write(dump); err != nil {
				return
			}
			if n := tempBytes(dir); n > largest.Load() {
				largest.Store(n)
			}
		}
	}))
	p := hostilePlan(t, PprofTarget("svc", s.URL))
	p.OutDir, p.MaxBytes = dir, 1<<20
	m, _, _ := run(t, context.Background(), p, nil)
	checkOutDir(t, dir, m)
	f := filesOf(m, "svc", FileGoroutine)
	if len(f) != 1 || !containsAll(f[0].Error, "exceeds the size cap of 1048576 bytes", "stopped writing at the cap") {
		t.Errorf("dump files %+v, want the cap named", f)
	}
	if n := largest.Load(); n > p.MaxBytes {
		t.Errorf("a temp file grew to %d bytes, past the cap of %d", n, p.MaxBytes)
	}
}

// tempFiles counts capture's temp files in dir; tempBytes sums their sizes.
func tempFiles(dir string) int {
	m, _ := filepath.Glob(filepath.Join(dir, ".capture-*.tmp"))
	return len(m)
}

func tempBytes(dir string) int64 {
	m, _ := filepath.Glob(filepath.Join(dir, ".capture-*.tmp"))
	var n int64
	for _, f := range m {
		if st, err := os.Stat(f); err == nil {
			n += st.Size()
		}
	}
	return n
}

func TestInert(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{"plain text", "plain text"},
		{"  two\n\tlines  \r\n", "two lines"},
		{"title \x1b]0;pwned\x07 done", `title \x1b]0;pwned\x07 done`},
		{"clear\x1b[2K", `clear\x1b[2K`},
		{"c1 \u009b31m", `c1 \u009b31m`},
		{"bidi \u202etxt", `bidi \u202etxt`},
		{"zero\u200bwidth", `zero\u200bwidth`},
		{"bad \xff utf8", `bad \xff utf8`},
		{"bell\a del\x7f", `bell\x07 del\x7f`},
		{"ünïcode ✓ 日本", "ünïcode ✓ 日本"},
	} {
		if got := inert(tt.in, 0); got != tt.want {
			t.Errorf("inert(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := inert(inert(tt.in, 0), 0); got != tt.want {
			t.Errorf("inert is not idempotent on %q: %q", tt.in, got)
		}
	}
	if got := inert(strings.Repeat("日", 100), 20); got != "日日日日日..." {
		t.Errorf("cut = %q", got)
	}
	if got := inertLines("a\r\nb\rc\x1b[31m\n  d\t"); got != "a\nb\nc\\x1b[31m\n  d\t" {
		t.Errorf("inertLines = %q", got)
	}
}

// A token in the target URL's query (a gateway that authenticates by
// query) is sent with every request, beside capture's own parameters, and
// never recorded.
func TestQueryTokenSent(t *testing.T) {
	t.Parallel()
	const token = "qtok-55aa77"
	var asked atomic.Int32
	s := newPprofServer(t, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Query().Get("access_token") != token {
				http.Error(w, "bad token in "+r.URL.RawQuery, http.StatusUnauthorized)
				return
			}
			asked.Add(1)
			next.ServeHTTP(w, r)
		})
	})
	p := hostilePlan(t, PprofTarget("svc", s.URL+"/debug/pprof/goroutine?debug=2&access_token="+token))
	m, out, err := run(t, context.Background(), p, nil)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if len(m.Dumps("svc")) != 1 || asked.Load() < 2 {
		t.Errorf("%d dumps, %d requests with the token: %+v", len(m.Dumps("svc")), asked.Load(), m.Files)
	}
	for what, s := range map[string]string{"manifest": readFile(t, p.OutDir, ManifestName), "progress": out} {
		if strings.Contains(s, token) {
			t.Errorf("%s holds the query token:\n%s", what, s)
		}
	}
	leaksAnywhere(t, p.OutDir, out, err)
}
