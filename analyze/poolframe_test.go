package analyze

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestPoolFrameIsTheDeepestAnchorAboveTheCaller (issue 33, "culprits of
// pool exhaustion name the caller and the pool's wait frame"): over
// generated waits on every pool row of the built-in table (its anchors
// stacked in random order and number, with the pool library's own frames
// between them, under a park and the JDK's queue, above random
// application frames and a worker's run), the pool frame is the anchor
// frame nearest the application's caller; an anchor below the caller
// (the application's own wrapper called again deeper) is not the pool's;
// a stack with no anchor above the caller has none (a JDK park alone).
func TestPoolFrameIsTheDeepestAnchorAboveTheCaller(t *testing.T) {
	rng := rand.New(rand.NewSource(33))
	var rows []*Signature
	for i := range builtinTable {
		s := &builtinTable[i]
		if s.Runtime == parse.RuntimeJVM && s.Resource != "" && len(s.Anchors) > 0 && strings.HasSuffix(s.ID, "-pool-wait") {
			rows = append(rows, s)
		}
	}
	if len(rows) < 4 {
		t.Fatalf("%d pool rows in the table", len(rows))
	}
	concrete := func(a string) string { // an anchor's glob made a method
		return strings.ReplaceAll(a, "*", "x")
	}
	for i := range 600 {
		row := rows[rng.Intn(len(rows))]
		fr := func(fn string, line int) *parse.Frame {
			return &parse.Frame{Func: fn, File: fn[strings.LastIndexByte(fn[:strings.LastIndexByte(fn, '.')], '.')+1:] + ".java", Line: line}
		}
		frames := []*parse.Frame{fr("jdk.internal.misc.Unsafe.park", 1), fr("java.util.concurrent.locks.LockSupport.parkNanos", 2)}
		if rng.Intn(2) == 0 {
			frames = append(frames, fr("java.util.concurrent.SynchronousQueue$TransferStack.awaitFulfill", 3))
		}
		var want *parse.Frame
		for k := range 1 + rng.Intn(3) {
			a := row.Anchors[rng.Intn(len(row.Anchors))]
			lib := a[:strings.LastIndexByte(a, '.')]
			if rng.Intn(2) == 0 {
				frames = append(frames, fr(concrete(lib)+".helper", 10+k))
			}
			want = fr(concrete(a), 100+k)
			frames = append(frames, want)
		}
		withCaller := rng.Intn(4) != 0
		if withCaller {
			frames = append(frames, fr("com.example.app.Repo"+fmt.Sprint(rng.Intn(9))+".load", 20))
			if rng.Intn(3) == 0 { // an anchor of the pool below the caller: not the pool this caller waits in
				frames = append(frames, fr(concrete(row.Anchors[0]), 999))
			}
			frames = append(frames, fr("com.example.app.Worker.run", 30))
		}
		frames = append(frames, fr("java.lang.Thread.run", 840))
		th := &parse.Thread{State: "TIMED_WAITING", Frames: frames}
		got := poolFrame([]*Signature{row}, parse.RuntimeJVM, th)
		if got != want {
			t.Fatalf("%d %s: pool frame %v, want %v in\n%s", i, row.ID, got, want, stackText(frames))
		}
		bare := &parse.Thread{State: "WAITING", Frames: []*parse.Frame{frames[0], frames[1], fr("com.example.app.Repo.load", 20), fr("java.lang.Thread.run", 840)}}
		if got := poolFrame([]*Signature{row}, parse.RuntimeJVM, bare); got != nil {
			t.Fatalf("%d: a park under the application has pool frame %v", i, got)
		}
	}
}

func stackText(fs []*parse.Frame) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "\tat %s\n", FrameString(f))
	}
	return b.String()
}

// TestPoolFindingsNameCallerAndPool: every pool-exhausted finding of the
// committed real pool runs (HikariCP, HttpClient 4 and 5, commons-pool2
// alone and under Jedis, and the pools read by structure) names the
// pool's frame, a frame of the pool's library (not the JDK's park), and
// the application's caller where the stacks have one; the healthy
// twins of the same libraries have no such finding.
func TestPoolFindingsNameCallerAndPool(t *testing.T) {
	for _, c := range []struct {
		dir     string
		moments []string
		pool    string // the package the pool frame is in
	}{
		{"scenarios/hikari-pool-exhausted", []string{"before", "during-1", "during-2", "after"}, "com.zaxxer.hikari."},
		{"libs/jvm-httpclient4-pool", []string{"1", "2"}, "org.apache.http."},
		{"libs/jvm-httpclient5-pool", []string{"1", "2"}, "org.apache.hc."},
		{"libs/jvm-commons-pool2", []string{"1", "2"}, "org.apache.commons.pool2."},
		{"libs/jvm-redis-pool", []string{"1", "2"}, "org.apache.commons.pool2."},
		{"verdicts/borrow-tomcat-dbcp-stuck", []string{"1", "2", "3"}, "org.apache.tomcat.dbcp."},
		{"verdicts/borrow-dbcp1-stuck", []string{"1", "2", "3"}, "org.apache.commons.pool."},
		{"libs/jvm-idle-libs", []string{"1", "2"}, ""},
	} {
		r := Analyze(loadMoments(t, filepath.Join("..", "testdata", c.dir), c.moments), Options{})
		n := 0
		for _, f := range r.Findings {
			if !strings.HasSuffix(f.Kind, "-pool-exhausted") {
				continue
			}
			n++
			if !strings.HasPrefix(f.PoolFrame, c.pool) {
				t.Errorf("%s %s: pool frame %q (frame %q), want one in %s", c.dir, f.Kind, f.PoolFrame, f.Frame, c.pool)
			}
			if f.Culprit == "" {
				t.Errorf("%s %s: no caller", c.dir, f.Kind)
			}
		}
		if (n > 0) != (c.pool != "") {
			t.Errorf("%s: %d pool-exhausted findings", c.dir, n)
		}
	}
}
