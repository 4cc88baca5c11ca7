package parse

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBlockedWarningFixtures: the checker's warnings made here
// (testdata/formats/README.md, "A blocked-thread checker's warnings") read
// as one moment a warning, counted with grep ("has been blocked for"), each
// the warned thread with its stack and how long it was blocked, nothing
// skipped.
func TestBlockedWarningFixtures(t *testing.T) {
	for _, jdk := range []string{"17", "25"} {
		for _, mode := range []string{"loop-latch", "loop-lock", "worker-once"} {
			file := "blocked-warning-jdk" + jdk + "__" + mode + ".txt"
			t.Run(file, func(t *testing.T) {
				path := filepath.Join(formatsDir, file)
				raw, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				warnings := strings.Count(string(raw), " has been blocked for ")
				ds, err := ParseFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if len(ds) != warnings {
					t.Fatalf("got %d moments, want one a warning: %d", len(ds), warnings)
				}
				want := "vert.x-eventloop-thread-0"
				if strings.HasPrefix(mode, "worker") {
					want = "vert.x-worker-thread-0"
				}
				var last time.Duration
				for i, d := range ds {
					if len(d.Threads) != 1 || len(d.Skipped) != 0 || d.Format != FormatJVMText || d.Excerpt == "" {
						t.Fatalf("moment %d: %d threads, %d skipped, format %s, excerpt %q", i, len(d.Threads), len(d.Skipped), d.Format, d.Excerpt)
					}
					th := d.Threads[0]
					if th.Name() != want || len(th.Frames) < 3 || th.BlockedFor <= last {
						t.Errorf("moment %d: %q, %d frames, blocked for %v after %v", i, th.Name(), len(th.Frames), th.BlockedFor, last)
					}
					if jdk == "25" && th.ID == 0 {
						t.Errorf("moment %d: JDK 25's Thread.toString prints the id (#N): not read", i)
					}
					last = th.BlockedFor
				}
			})
		}
	}
}

// TestBlockedWarningLineProperty: a warning line is read whatever the
// thread's name (commas, brackets, quotes, spaces, '#', "Thread["), the
// JDK's Thread.toString (with or without "#id,"), Quarkus's doubled
// "Thread[..]=Thread[..]", the logger's prefix and the text after the
// time; the name, the id and the time come back as written.
func TestBlockedWarningLineProperty(t *testing.T) {
	r := rand.New(rand.NewSource(33))
	parts := []string{"vert.x-eventloop-thread-", "a,b", "]", "[", `"`, " ", "#", "Thread[", "x", "7", "é", ",5,main", "=", "has been"}
	prefixes := []string{"", "13:12:01.907 [vertx-blocked-thread-checker] WARN  i.v.c.i.BlockedThreadChecker - ",
		"WARNING: ", "\t", "2021-01-27 14:48:04,958 WARNING [io.ver.cor.imp.BlockedThreadChecker] (vertx-blocked-thread-checker) "}
	tails := []string{"", ", time limit is 2000", ", time limit is 2000 ms", ", time limit is 2000 ms: io.vertx.core.VertxException: Thread blocked"}
	for i := 0; i < 2000; i++ {
		var b strings.Builder
		for n := 1 + r.Intn(5); n > 0; n-- {
			b.WriteString(parts[r.Intn(len(parts))])
		}
		name := b.String()
		if strings.Contains(name, " has been blocked for ") || strings.Contains(name, "]=Thread[") || strings.HasPrefix(name, "#") {
			continue // not a name a thread's toString can be told by: said at readBlockedWarning
		}
		id := int64(0)
		spec := name + ",5,main"
		if r.Intn(2) == 0 {
			id = int64(1 + r.Intn(100000))
			spec = fmt.Sprintf("#%d,%s", id, spec)
		}
		tstr := "Thread[" + spec + "]"
		if r.Intn(3) == 0 {
			tstr += "=" + tstr
		}
		ms := int64(r.Intn(100000000))
		line := fmt.Sprintf("%sThread %s has been blocked for %d ms%s", prefixes[r.Intn(len(prefixes))], tstr, ms, tails[r.Intn(len(tails))])
		w, ok := readBlockedWarning([]byte(line))
		if !ok || string(w.name) != name || w.id != id || w.ms != ms {
			t.Fatalf("%q: got %q id %d %d ms ok %v; want %q id %d %d ms", line, w.name, w.id, w.ms, ok, name, id, ms)
		}
	}
	for _, line := range []string{
		"Thread Thread[main,5,main] has been blocked", // no time
		"Thread main has been blocked for 5 ms",       // no Thread[...]
		"Thread Thread[main] has been blocked for 5 ms",
		"Thread Thread[main,x,main] has been blocked for 5 ms", // no priority
		"the thread has been blocked for 5 ms",
	} {
		if _, ok := readBlockedWarning([]byte(line)); ok {
			t.Errorf("%q read as a warning", line)
		}
	}
}

// TestBlockedWarningMoments: warnings of k threads over rounds read as one
// moment a round (a thread warned again starts the next), each with its
// threads; a frame line not understood is skipped with its line and said,
// the rest read.
func TestBlockedWarningMoments(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for i := 0; i < 200; i++ {
		k, rounds := 1+r.Intn(4), 1+r.Intn(5)
		var b strings.Builder
		b.WriteString("some log line before\n")
		bad := r.Intn(3) == 0
		badLine := 0
		line := 1
		for round := 0; round < rounds; round++ {
			for j := 0; j < k; j++ {
				fmt.Fprintf(&b, "Jan 13, 2019 4:18:24 PM io.vertx.core.impl.BlockedThreadChecker\nWARNING: Thread Thread[vert.x-eventloop-thread-%d,5,main] has been blocked for %d ms, time limit is 2000 ms\nio.vertx.core.VertxException: Thread blocked\n", j, 2000+1000*round)
				line += 3
				if r.Intn(2) == 0 {
					b.WriteString("\n")
					line++
				}
				b.WriteString("\tat java.lang.Thread.sleep(Native Method)\n")
				line++
				if bad && badLine == 0 {
					b.WriteString("\tat not a frame\n")
					line++
					badLine = line
				}
				b.WriteString("\tat io.netty.channel.nio.NioEventLoop.run(NioEventLoop.java:500) ~[netty-transport-4.1.48.Final.jar:4.1.48.Final]\n")
				line++
			}
		}
		ds, err := Parse("w.log", strings.NewReader(b.String()))
		if err != nil && !bad {
			t.Fatal(err)
		}
		if len(ds) != rounds {
			t.Fatalf("k %d rounds %d: got %d moments", k, rounds, len(ds))
		}
		skipped := 0
		for m, d := range ds {
			if len(d.Threads) != k {
				t.Fatalf("moment %d: %d threads, want %d", m, len(d.Threads), k)
			}
			for j, th := range d.Threads {
				if th.Name() != fmt.Sprintf("vert.x-eventloop-thread-%d", j) || th.BlockedFor != time.Duration(2000+1000*m)*time.Millisecond || len(th.Frames) != 2 && !(bad && m == 0 && j == 0) {
					t.Errorf("moment %d thread %d: %q %v %d frames", m, j, th.Name(), th.BlockedFor, len(th.Frames))
				}
			}
			for _, s := range d.Skipped {
				skipped++
				if s.Line != badLine {
					t.Errorf("skipped line %d, want %d", s.Line, badLine)
				}
			}
		}
		if bad != (skipped == 1) {
			t.Errorf("bad frame %v: %d skipped", bad, skipped)
		}
	}
}
