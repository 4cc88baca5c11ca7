package parse

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const watchdogDir = "../testdata/watchdog"

// watchdogMoment is what testdata/watchdog/README.md expects of one report.
type watchdogMoment struct {
	threads, skipped int
	blocked          time.Duration // the server thread's wait as printed; 0 if none
	excerpt          bool          // the server thread alone
	top              string        // the server thread's top frame
}

// TestWatchdogFixtures reads each file of testdata/watchdog as its README
// says (expectations written before dumpdiff ran) and compares the
// canonical form with its golden (-update rewrites it).
func TestWatchdogFixtures(t *testing.T) {
	socket := "java.net.SocketInputStream.socketRead0"
	tests := []struct {
		file string
		want []watchdogMoment
	}{
		{"jdk17-stuck.log", []watchdogMoment{
			{1, 0, 1 * time.Second, true, "WatchdogLike.onChunkLoad"},
			{1, 0, 2 * time.Second, true, "WatchdogLike.onChunkLoad"},
			{1, 0, 3 * time.Second, true, "WatchdogLike.onChunkLoad"},
			{9, 14, 0, false, "WatchdogLike.onChunkLoad"},
		}},
		{"jdk17-healthy.log", []watchdogMoment{{9, 0, 0, false, "java.lang.Thread.sleep"}}},
		{"spigot-watchdog__written-from-the-format.log", []watchdogMoment{{9, 25, 0, false, socket}}},
		{"paper-watchdog__written-from-the-format.log", []watchdogMoment{
			{1, 0, 10 * time.Second, true, "com.example.regions.RegionIndex.overlaps"},
			{1, 1, 15 * time.Second, true, "com.example.regions.RegionIndex.overlaps"},
			{1, 0, 20 * time.Second, true, "com.example.regions.RegionIndex.overlaps"},
			{12, 22, 0, false, "com.example.regions.RegionIndex.overlaps"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			dumps, err := ParseFile(filepath.Join(watchdogDir, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if len(dumps) != len(tt.want) {
				t.Fatalf("got %d dumps, want %d", len(dumps), len(tt.want))
			}
			for i, d := range dumps {
				w := tt.want[i]
				server := watchdogThread(d, "Server thread")
				if server == nil {
					t.Fatalf("#%d: no server thread", i+1)
				}
				got := watchdogMoment{d.ThreadCount(), len(d.Skipped), server.JVM.BlockedFor, d.Excerpt != "", server.Frames[0].Func}
				if got != w {
					t.Errorf("#%d: got %+v, want %+v", i+1, got, w)
				}
				if d.Format != FormatJVMText || d.Kind != "watchdog" || !d.NoMonitors {
					t.Errorf("#%d: format %s kind %q NoMonitors %v", i+1, d.Format, d.Kind, d.NoMonitors)
				}
				for _, s := range d.Skipped {
					if s.Line <= 0 || s.Reason == "" {
						t.Errorf("#%d: skipped without position or reason: %+v", i+1, s)
					}
				}
			}
			for i := range dumps {
				dumps[i].Source.File = tt.file
			}
			checkGolden(t, filepath.Join("testdata/golden/watchdog", tt.file+".canonical"), dumps)
		})
	}
}

func watchdogThread(d *Dump, name string) *Thread {
	for _, th := range d.Threads {
		if th.Name() == name {
			return th
		}
	}
	return nil
}

// watchdogLogPrefix is the log layout of a committed file's lines: the
// time and the logger's words before the watchdog's text.
var watchdogLogPrefix = regexp.MustCompile(`^\[[0-9:]+( ERROR)?\]( \[[^\]]+\])?:? ?`)

// watchdogRewrites are the ways a watchdog's report reaches an engineer
// (testdata/watchdog/README.md, "Read but not copied"): each keeps the
// threads, their states and frames. Records of other loggers stay as
// they are, under their own layout.
var watchdogRewrites = []struct {
	name string
	fn   func(lines []string) []string
}{
	{"as written", func(l []string) []string { return l }},
	{"no log prefix", func(l []string) []string {
		return mapOwn(l, func(s string) string { return s })
	}},
	{"TABs lost, bars escaped (a rendered page)", func(l []string) []string {
		out := make([]string, len(l))
		for i, s := range l {
			p := watchdogLogPrefix.FindString(s)
			body := strings.TrimLeft(s[len(p):], "\t")
			out[i] = p + strings.ReplaceAll(body, " | ", ` \| `)
		}
		return out
	}},
	{"another logger's layout", func(l []string) []string {
		return mapOwn(l, func(s string) string { return "2019-10-22 18:33:44 [ERROR] " + s })
	}},
	{"a host panel's layout", func(l []string) []string {
		return mapOwn(l, func(s string) string { return "22.12 04:06:20 [Server] ERROR " + s })
	}},
	{"indented four spaces (a Markdown code block)", func(l []string) []string {
		out := make([]string, len(l))
		for i, s := range l {
			out[i] = "    " + s
		}
		return out
	}},
	{"one record: the first line prefixed, the rest raw", func(l []string) []string {
		out := make([]string, len(l))
		first := true
		for i, s := range l {
			p := watchdogLogPrefix.FindString(s)
			if !first && isOwnRecord(s) {
				out[i] = s[len(p):]
				continue
			}
			first = first && !isOwnRecord(s)
			out[i] = s
		}
		return out
	}},
}

// isOwnRecord is a line the watchdog logged (the committed files' own
// layouts), not another logger's record.
func isOwnRecord(s string) bool {
	return strings.Contains(s, "Watchdog Thread/ERROR]: ") || strings.Contains(s, " ERROR]: ")
}

// mapOwn rewrites the watchdog's own records: fn gets the text without the
// committed layout.
func mapOwn(l []string, fn func(string) string) []string {
	out := make([]string, len(l))
	for i, s := range l {
		if !isOwnRecord(s) {
			out[i] = s
			continue
		}
		out[i] = fn(s[len(watchdogLogPrefix.FindString(s)):])
	}
	return out
}

// watchdogKey is what a rewrite must keep of a file's reports: each
// thread's name, id, state and frames, in order.
func watchdogKey(dumps []*Dump) string {
	var b strings.Builder
	for _, d := range dumps {
		fmt.Fprintf(&b, "dump %q\n", d.Excerpt)
		for _, th := range d.Threads {
			fmt.Fprintf(&b, " %q %d %s %v\n", th.Name(), th.ID, th.State, th.JVM.BlockedFor)
			for _, f := range th.Frames {
				fmt.Fprintf(&b, "  %s %s:%d %s %s\n", f.Func, f.File, f.Line, f.Module, f.Note)
			}
		}
	}
	return b.String()
}

// TestWatchdogRewritten is the metamorphic test: every committed report,
// rewritten each way it is pasted, cut into its reports, or with its
// records re-prefixed, reads to the same threads.
func TestWatchdogRewritten(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(watchdogDir, "*.log"))
	if len(files) < 4 {
		t.Fatalf("%d files in %s", len(files), watchdogDir)
	}
	cases := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
		want, err := Parse(file, strings.NewReader(string(data)))
		if err != nil {
			t.Fatal(err)
		}
		key := watchdogKey(want)
		for _, rw := range watchdogRewrites {
			if rw.name == "one record: the first line prefixed, the rest raw" && len(want) > 1 {
				continue // one record holds one report: cut below
			}
			text := strings.Join(rw.fn(lines), "\n") + "\n"
			got, err := Parse(file, strings.NewReader(text))
			if err != nil {
				t.Errorf("%s, %s: %v", filepath.Base(file), rw.name, err)
				continue
			}
			cases++
			if diff := cmp.Diff(key, watchdogKey(got)); diff != "" {
				t.Errorf("%s, %s: threads differ (-as committed +rewritten):\n%s", filepath.Base(file), rw.name, diff)
			}
		}
		// Cut into its reports: each alone reads as that moment.
		for i, d := range want {
			end := len(lines)
			if i+1 < len(want) {
				end = want[i+1].Source.Line - 1
			}
			part := strings.Join(lines[d.Source.Line-1:end], "\n") + "\n"
			got, err := Parse(file, strings.NewReader(part))
			if err != nil || len(got) != 1 {
				t.Errorf("%s, report %d alone: %d dumps, %v", filepath.Base(file), i+1, len(got), err)
				continue
			}
			cases++
			if diff := cmp.Diff(watchdogKey(want[i:i+1]), watchdogKey(got)); diff != "" {
				t.Errorf("%s, report %d alone (-whole +cut):\n%s", filepath.Base(file), i+1, diff)
			}
		}
	}
	t.Logf("%d rewritten inputs", cases)
}

// TestWatchdogLines: the reader's edges, each with the position of what it
// skips.
func TestWatchdogLines(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		threads []string // name/id/state/frames
		skipped []string // "line: reason"
		err     bool     // no dump
		dumps   int      // how many; 0: not checked
	}{
		{
			name: "a thread line in prose is no dump",
			in:   "the log said Current Thread: Server thread and stopped\nCurrent Thread: Server thread\nthen nothing\n",
			err:  true,
		},
		{
			name: "a heading in prose with no thread after it is no dump",
			in:   "The server has stopped responding! This is (probably) not a Spigot bug.\nI restarted it.\n",
			err:  true,
		},
		{
			name:    "two threads, no heading",
			in:      "Current Thread: a\n\tPID: 5 | Suspended: false | Native: false | State: WAITING\n\tStack:\n\t\tjava.lang.Object.wait(Native Method)\n------------------------------\nCurrent Thread: b\n\tPID: 6 | Suspended: false | Native: false | State: RUNNABLE\n\tStack:\n",
			threads: []string{"a/5/WAITING/1", "b/6/RUNNABLE/0"},
		},
		{
			name:    "a thread line without its PID line is skipped with its position",
			in:      "Current Thread: a\n\tPID: 5 | Suspended: false | Native: false | State: WAITING\n\tStack:\n\t\tjava.lang.Object.wait(Native Method)\nCurrent Thread: lost\nCurrent Thread: b\n\tPID: 6 | Suspended: false | Native: false | State: RUNNABLE\n\tStack:\n",
			threads: []string{"a/5/WAITING/1", "b/6/RUNNABLE/0"},
			skipped: []string{"5: a watchdog thread line without its PID line"},
		},
		{
			name:    "the server thread printed twice is one thread",
			in:      "Current Thread: Server thread\n\tPID: 1 | Suspended: false | Native: false | State: RUNNABLE\n\tStack:\n\t\tapp//a.B.c(B.java:1)\n------------------------------\nEntire Thread Dump:\n------------------------------\nCurrent Thread: Server thread\n\tPID: 1 | Suspended: false | Native: false | State: RUNNABLE\n\tStack:\n\t\tapp//a.B.c(B.java:2)\n",
			threads: []string{"Server thread/1/RUNNABLE/1"},
			skipped: []string{"9: thread 1 printed again by the watchdog (Server thread): its first print kept", "10: a line of a thread printed again by the watchdog", "11: a line of a thread printed again by the watchdog"},
		},
		{
			name:    "a stray line between threads is skipped, counted",
			in:      "Current Thread: a\n\tPID: 5 | Suspended: false | Native: false | State: TIMED_WAITING\n\tStack:\n\t\tjava.lang.Thread.sleep(Native Method)\nStopping server\nCurrent Thread: b\n\tPID: 6 | Suspended: false | Native: false | State: RUNNABLE\n",
			threads: []string{"a/5/TIMED_WAITING/1", "b/6/RUNNABLE/0"},
			skipped: []string{"5: a line of another source inside the watchdog's report"},
			dumps:   1,
		},
		{
			name:    "lines of another shape end the report",
			in:      "Current Thread: a\n\tPID: 5 | Suspended: false | Native: false | State: TIMED_WAITING\n\tStack:\n\t\tjava.lang.Thread.sleep(Native Method)\nStopping server\nbye\nCurrent Thread: b\n\tPID: 6 | Suspended: false | Native: false | State: RUNNABLE\n",
			threads: []string{"a/5/TIMED_WAITING/1", "b/6/RUNNABLE/0"},
			dumps:   2,
		},
		{
			name: "a bad state is no PID line",
			in:   "Current Thread: a\n\tPID: 5 | Suspended: false | Native: false | State: SLEEPY\n",
			err:  true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dumps, err := Parse("w.log", strings.NewReader(tt.in))
			if tt.err {
				if err == nil {
					t.Fatalf("got %d dumps, want none", len(dumps))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.dumps > 0 && len(dumps) != tt.dumps {
				t.Errorf("got %d dumps, want %d", len(dumps), tt.dumps)
			}
			var threads []string
			for _, d := range dumps {
				for _, th := range d.Threads {
					threads = append(threads, fmt.Sprintf("%s/%d/%s/%d", th.Name(), th.ID, th.State, len(th.Frames)))
				}
			}
			if diff := cmp.Diff(tt.threads, threads); diff != "" {
				t.Errorf("threads (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.skipped, skippedAt(dumps)); diff != "" {
				t.Errorf("skipped (-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzWatchdog: any text, seeded with the committed reports and their
// rewrites, parses without a panic, every skipped line with its position.
func FuzzWatchdog(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(watchdogDir, "*.log"))
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		text := string(data)
		f.Add([]byte(text[:min(len(text), 4<<10)]))
		lines := strings.Split(text[:min(len(text), 2<<10)], "\n")
		for _, rw := range watchdogRewrites {
			f.Add([]byte(strings.Join(rw.fn(lines), "\n")))
		}
	}
	f.Add([]byte("Current Thread: x\n\tPID: 1 \\| Suspended: false \\| Native: true \\| State: BLOCKED\nStack:\na.b(C)\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dumps, _ := Options{MaxLine: 4 << 10}.Parse("fuzz.log", strings.NewReader(string(data)))
		checkDumps(t, dumps)
		for _, d := range dumps {
			for _, s := range d.Skipped {
				if s.Line <= 0 {
					t.Fatalf("skipped line without position: %+v", s)
				}
			}
			for _, s := range d.Partial {
				if s.Line <= 0 {
					t.Fatalf("partial line without position: %+v", s)
				}
			}
		}
	})
}

// skippedAt is every line the dumps skipped, "line: reason", in order:
// what a form's table test compares with the lines it expects skipped.
func skippedAt(dumps []*Dump) []string {
	var out []string
	for _, d := range dumps {
		for _, s := range d.Skipped {
			out = append(out, fmt.Sprintf("%d: %s", s.Line, s.Reason))
		}
	}
	return out
}
