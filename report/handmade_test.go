package report

import (
	"fmt"
	"time"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/parse"
)

// handmade builds a small analysis by hand: an HTTP pool that goes from
// idle to stuck in socket reads and stays there, a pool with names built to
// break Markdown, and folded JVM-internal pools. It stands in for a real
// analysis in the tests of escaping and layout, where the input must hold
// nasty names no real dump in the corpus has.
func handmade() *analyze.Result {
	t0 := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
	labels := []string{"before", "during-1", "during-2", "after"}
	r := &analyze.Result{Version: "1", Runtime: parse.RuntimeJVM}
	for i, l := range labels {
		m := analyze.Moment{Label: l, Source: parse.Source{File: "/tmp/dumps/" + l + ".txt", Line: 1},
			Format: parse.FormatJVMText, Time: t0.Add(time.Duration(i) * time.Minute)}
		r.Moments = append(r.Moments, m)
	}
	r.Moments[2].Skipped = 3
	r.Moments[3].Time = time.Time{} // a dump that prints no time

	park := &parse.Frame{Func: "jdk.internal.misc.Unsafe.park", Module: "java.base@17.0.15", Note: "Native Method"}
	poll := &parse.Frame{Func: "sun.nio.ch.Net.poll", Module: "java.base@17.0.15", Note: "Native Method"}
	fetch := &parse.Frame{Func: "com.example.shop.UpstreamClient.fetch", File: "UpstreamClient.java", Line: 42}
	run := &parse.Frame{Func: "java.lang.Thread.run", File: "Thread.java", Line: 833, Module: "java.base@17.0.15"}
	names := func(prefix string, n int) []string {
		var s []string
		for i := 1; i <= n; i++ {
			s = append(s, fmt.Sprintf("%s%d", prefix, i))
		}
		return s
	}
	stack := func(name string, frames ...*parse.Frame) *parse.Thread {
		return &parse.Thread{State: "RUNNABLE", Frames: frames, Weight: 1,
			JVM: &parse.JVM{Name: name, Locks: []parse.Lock{{Kind: parse.LockHeld, Address: "0x000000076ab62208", Class: "java.lang.Object", Frame: 1}}}}
	}
	idle := &analyze.Group{Pool: "http-nio-8080-exec-*", State: "idle-pool", Category: analyze.Idle,
		Explain: "parked waiting for work", TopFrame: park.Func, Counts: []int{10, 0, 0, 0},
		Samples: [][]string{names("http-nio-8080-exec-", 3), nil, nil, nil},
		Stacks:  []*parse.Thread{stack("http-nio-8080-exec-1", park, run), nil, nil, nil}}
	read := &analyze.Group{Pool: "http-nio-8080-exec-*", State: "socket-read", Via: "http-client", Category: analyze.Waiting,
		Explain: "reading from a socket", TopFrame: poll.Func, Culprit: fetch.Func + "(UpstreamClient.java:42)",
		Counts:  []int{0, 200, 200, 200},
		Samples: [][]string{nil, names("http-nio-8080-exec-", 5), names("http-nio-8080-exec-", 5), names("http-nio-8080-exec-", 5)},
		Stacks:  []*parse.Thread{nil, stack("http-nio-8080-exec-7", poll, fetch, run), stack("http-nio-8080-exec-7", poll, fetch, run), stack("http-nio-8080-exec-7", poll, fetch, run)},
		Same:    200, CPU: 1500 * time.Millisecond}
	// Every reader at a moment shares one stack.
	read.Shapes = make([][]analyze.Shape, 4)
	for m := 1; m < 4; m++ {
		read.Shapes[m] = []analyze.Shape{{Count: 200, Stack: read.Stacks[m], Samples: read.Samples[m]}}
	}
	http := &analyze.Pool{Name: "http-nio-8080-exec-*", Counts: []int{10, 200, 200, 200}, Max: 200, States: []*analyze.Group{read, idle}}

	nasty := "evil|pool `x` <script>alert(1)</script> **b** [l](u) & #h"
	evil := &analyze.Group{Pool: nasty, State: "lock|wait", Via: "<img src=x>", Category: analyze.Waiting,
		TopFrame: "a.B.c`d", Culprit: "x.Y.z|w(Y.java:1)", Counts: []int{1, 2, 4, 8},
		Samples: [][]string{{"t|1"}, {"t`2", "</details>"}, {"```", "<b>"}, {"@team", "a\nb"}},
		Stacks: []*parse.Thread{nil, nil, nil, {JVM: &parse.JVM{Name: "```\n</details><script>"}, Weight: 1,
			Frames: []*parse.Frame{{Func: "a.B.c`d", File: "B.java", Line: 3}, {Func: "```", Note: "Native Method"}}}}}
	// At after its eight threads split in two stacks: the nasty one and
	// another that differs at its second frame.
	other := &parse.Thread{JVM: &parse.JVM{Name: "t|9"}, Weight: 1, Frames: []*parse.Frame{{Func: "a.B.c`d", File: "B.java", Line: 3}, {Func: "x.Y.z|w", File: "Y.java", Line: 1}}}
	evil.Shapes = [][]analyze.Shape{nil, nil, nil, {{Count: 6, Stack: evil.Stacks[3], Samples: []string{"@team"}}, {Count: 2, Stack: other, Samples: []string{"a\nb"}}}}
	evilPool := &analyze.Pool{Name: nasty, Counts: []int{1, 2, 4, 8}, Max: 8, States: []*analyze.Group{evil}}

	quiet := &analyze.Pool{Name: "HikariPool-1 housekeeper", Counts: []int{1, 1, 1, 1}, Max: 1,
		States: []*analyze.Group{{Pool: "HikariPool-1 housekeeper", State: "timed-wait", Category: analyze.Idle,
			TopFrame: park.Func, Counts: []int{1, 1, 1, 1}}}}
	gc := &analyze.Pool{Name: "GC Thread#*", Internal: true, Counts: []int{4, 4, 4, 4}, Max: 4}
	c2 := &analyze.Pool{Name: "C2 CompilerThread*", Internal: true, Counts: []int{2, 2, 3, 2}, Max: 3}
	r.Pools = []*analyze.Pool{http, evilPool, quiet, gc, c2}
	for i := range r.Moments {
		total := 0
		for _, p := range r.Pools {
			total += p.Counts[i]
		}
		r.Moments[i].Threads = total
		r.Totals = append(r.Totals, total)
	}
	ev := func(counts []int, samples [][]string, from int) []analyze.Evidence {
		var out []analyze.Evidence
		for i := from; i < len(counts); i++ {
			out = append(out, analyze.Evidence{Moment: i, Count: counts[i], Threads: samples[i]})
		}
		return out
	}
	r.Findings = []analyze.Finding{
		// Story order, as the analysis gives it: most severe root first.
		{ID: "not-recovered http", Kind: analyze.KindNotRecovered, Severity: analyze.Critical, Pool: http.Name, State: "socket-read", Via: "http-client",
			Counts: read.Counts, PoolCounts: read.Counts, At: 2,
			Frame: poll.Func, Culprit: read.Culprit, Evidence: ev(read.Counts, read.Samples, 1)},
		{ID: "growing evil", Kind: analyze.KindGrowing, Severity: analyze.Warning, Pool: nasty, State: "lock|wait", Via: "<img src=x>",
			Counts: evil.Counts, PoolCounts: evil.Counts, At: len(evil.Counts) - 1,
			Frame: evil.TopFrame, Culprit: evil.Culprit, Evidence: ev(evil.Counts, evil.Samples, 0)},
	}
	r.Warnings = []string{"during-2.txt: 3 lines skipped (first at line 1042: frame line outside a thread)"}
	return r
}
