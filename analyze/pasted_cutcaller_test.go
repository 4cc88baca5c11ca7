package analyze

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestPastedCutCallerProperty: a JVM thread pasted cut above its
// application (an issue's paste ends where the person stopped copying),
// waiting for a peer in a socket read under JDK streams and a drawn
// library's calls, gets as its culprit the deepest frame the paste shows
// outside the thread plumbing: the call into the library or the JDK API
// (druid#1653's ConnectionImpl.setAutoCommit). When the paste keeps an
// application frame, that frame stays the culprit; a whole dump (its
// "Full thread dump" line) whose thread has no application frame keeps
// none: the deepest library frame of a whole stack is its own loop, not
// a call of the application's. Seeded.
func TestPastedCutCallerProperty(t *testing.T) {
	top := []string{"java.net.SocketInputStream.socketRead0(Native Method)", "java.net.SocketInputStream.read(SocketInputStream.java:150)",
		"java.io.BufferedInputStream.fill(BufferedInputStream.java:246)", "java.io.BufferedInputStream.read(BufferedInputStream.java:265)"}
	libs := []string{"com.mysql.jdbc.MysqlIO", "org.apache.http.impl.io.SessionInputBufferImpl", "redis.clients.jedis.Connection",
		"org.postgresql.core.PGStream", "sun.net.www.http.HttpClient", "okhttp3.internal.http1.Http1ExchangeCodec"}
	plumbing := []string{"java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1136)",
		"java.util.concurrent.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:635)", "java.lang.Thread.run(Thread.java:840)"}
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 61))
		var frames []string
		frames = append(frames, top[:1+rng.IntN(len(top))]...)
		nlib := 1 + rng.IntN(4)
		for i := range nlib {
			l := libs[rng.IntN(len(libs))]
			frames = append(frames, fmt.Sprintf("%s.call%d(%s.java:%d)", l, i, l[strings.LastIndexByte(l, '.')+1:], 100+i))
		}
		napp := rng.IntN(3)
		for i := range napp {
			frames = append(frames, fmt.Sprintf("com.example.shop.Svc%d.handle(Svc%d.java:%d)", i, i, 40+i))
		}
		frames = append(frames, plumbing...)
		whole := rng.IntN(4) == 0
		keep := len(frames)
		if !whole {
			keep = 2 + rng.IntN(len(frames)-1) // the paste ends after frame keep-1
		}
		var b strings.Builder
		if whole {
			b.WriteString("2026-12-07 10:00:00\nFull thread dump OpenJDK 64-Bit Server VM (17.0.15+6 mixed mode, sharing):\n\n")
		} else {
			b.WriteString("It blocks forever here:\n\n")
		}
		b.WriteString("\"fetch-1\" #31 prio=5 os_prio=0 cpu=12.00ms elapsed=600.00s tid=0x00007f0 nid=0x1f runnable  [0x00007f1]\n   java.lang.Thread.State: RUNNABLE\n")
		for _, f := range frames[:keep] {
			b.WriteString("\tat " + f + "\n")
		}
		ds, err := parse.Parse("paste.txt", strings.NewReader(b.String()))
		if err != nil || len(ds) != 1 || len(ds[0].Threads) != 1 {
			t.Fatalf("seed %d: %v\n%s", seed, err, b.String())
		}
		r := Analyze([]Input{{Dump: ds[0]}}, Options{})
		// The expected culprit, from the frames kept.
		want := ""
		for _, f := range frames[:keep] {
			if strings.HasPrefix(f, "com.example.") {
				want = f[:strings.IndexByte(f, '(')]
				break
			}
		}
		if want == "" && !whole {
			for i := keep - 1; i > 0; i-- {
				if !strings.HasPrefix(frames[i], "java.util.concurrent.") && !strings.HasPrefix(frames[i], "java.lang.Thread.") {
					want = frames[i][:strings.IndexByte(frames[i], '(')]
					break
				}
			}
		}
		var got []string
		for _, p := range r.Pools {
			for _, g := range p.States {
				got = append(got, g.Culprit)
			}
		}
		if len(got) != 1 {
			t.Fatalf("seed %d: %d state groups, want 1\n%s", seed, len(got), b.String())
		}
		short := want
		if i := strings.LastIndexByte(want, '.'); i > 0 {
			if j := strings.LastIndexByte(want[:i], '.'); j >= 0 {
				short = want[j+1:]
			}
		}
		if want == "" && got[0] != "" || want != "" && !strings.Contains(got[0], short) {
			t.Errorf("seed %d (whole %v, kept %d of %d frames, %d app): culprit %q, want %q\n%s", seed, whole, keep, len(frames), napp, got[0], want, b.String())
		}
	}
}

// TestCutFrameTooEarly: a frame line a paste cut in its name is the
// application's only when what is left is past a class and a method and
// past every framework package it could be the start of (mojarra's paste
// ending in "at com.sun" named com.sun its culprit).
func TestCutFrameTooEarly(t *testing.T) {
	for fn, app := range map[string]bool{"com.sun": false, "org.apache": false, "com.acme": false, "java.util.conc": false,
		"com.notnoop.apns.internal.Utilities.parseF": true, "com.acme.shop.Cart.ad": true, "org.apache.catalina.core.Std": false} {
		f := &parse.Frame{Func: fn, Note: parse.CutNote}
		if got := isAppFrame(parse.RuntimeJVM, f); got != app {
			t.Errorf("isAppFrame(cut %q) = %v, want %v", fn, got, app)
		}
	}
}
