package parse

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestSplitShapes(t *testing.T) {
	type split struct {
		Text, Stamp, Source string
		Partial             bool
	}
	tests := []struct {
		name  string
		shape func([]byte, *prefixLine) bool
		line  string
		want  *split // nil: the line does not carry the shape
	}{
		{"indent spaces", splitIndent, "    goroutine 1 [running]:", &split{Text: "goroutine 1 [running]:", Source: "    "}},
		{"indent tab", splitIndent, "\t\t/a.go:1 +0x1", &split{Text: "/a.go:1 +0x1", Source: "\t\t"}},
		{"indent none", splitIndent, "goroutine 1 [running]:", nil},
		{"quote", splitQuote, "> goroutine 1", &split{Text: "goroutine 1", Source: "> "}},
		{"quote nested", splitQuote, "> > \t/a.go:1", &split{Text: "\t/a.go:1", Source: "> > "}},
		{"quote tight", splitQuote, ">>x", &split{Text: "x", Source: ">>"}},
		{"kubectl", splitKubectl, "2026-12-01T10:38:11.089203512Z goroutine 1 [running]:",
			&split{Text: "goroutine 1 [running]:", Stamp: "2026-12-01T10:38:11.089203512Z"}},
		{"kubectl offset", splitKubectl, "2026-12-01T11:38:11+01:00 \tat a.B.c(B.java:1)",
			&split{Text: "\tat a.B.c(B.java:1)", Stamp: "2026-12-01T11:38:11+01:00"}},
		{"kubectl empty text", splitKubectl, "2026-12-01T10:38:11Z ", &split{Stamp: "2026-12-01T10:38:11Z"}},
		{"kubectl no space", splitKubectl, "2026-12-01T10:38:11Zgoroutine", nil},
		{"kubectl bad time", splitKubectl, "2026-12-01 10:38:11 goroutine", nil},
		{"cri full", splitCRI, "2026-12-01T10:38:11.1Z stderr F goroutine 1 [running]:",
			&split{Text: "goroutine 1 [running]:", Stamp: "2026-12-01T10:38:11.1Z", Source: "stderr"}},
		{"cri partial", splitCRI, "2026-12-01T10:38:11.1Z stdout P abc",
			&split{Text: "abc", Stamp: "2026-12-01T10:38:11.1Z", Source: "stdout", Partial: true}},
		{"cri empty", splitCRI, "2026-12-01T10:38:11.1Z stdout F", &split{Stamp: "2026-12-01T10:38:11.1Z", Source: "stdout"}},
		{"cri no stream", splitCRI, "2026-12-01T10:38:11.1Z goroutine 1", nil},
		{"docker", splitDocker, `{"log":"\u0009/a.go:1 +0x1\n","stream":"stderr","time":"2026-12-01T10:38:11.089203512Z"}`,
			&split{Text: "\t/a.go:1 +0x1", Stamp: "2026-12-01T10:38:11.089203512Z", Source: "stderr"}},
		{"docker escapes", splitDocker, `{"log":"\"main\" \u003c\u0026\u003e \\ \ud83d\ude00\r\n","stream":"stdout","time":"2026-12-01T10:38:11Z"}`,
			&split{Text: "\"main\" <&> \\ \U0001F600", Stamp: "2026-12-01T10:38:11Z", Source: "stdout"}},
		{"docker partial", splitDocker, `{"log":"abc","stream":"stdout","time":"2026-12-01T10:38:11Z"}`,
			&split{Text: "abc", Stamp: "2026-12-01T10:38:11Z", Source: "stdout", Partial: true}},
		{"docker attrs", splitDocker, `{"log":"x\n","stream":"stdout","attrs":{"tag":"a,b}"},"time":"2026-12-01T10:38:11Z"}`,
			&split{Text: "x", Stamp: "2026-12-01T10:38:11Z", Source: "stdout"}},
		{"docker key order", splitDocker, `{"time":"2026-12-01T10:38:11Z", "stream":"stdout", "log":"x\n"}`,
			&split{Text: "x", Stamp: "2026-12-01T10:38:11Z", Source: "stdout"}},
		{"docker no time", splitDocker, `{"log":"x\n","stream":"stdout"}`, nil},
		{"docker bad escape", splitDocker, `{"log":"\q","stream":"stdout","time":"2026-12-01T10:38:11Z"}`, nil},
		{"docker trailing junk", splitDocker, `{"log":"x\n","stream":"stdout","time":"2026-12-01T10:38:11Z"} x`, nil},
		{"other json", splitDocker, `{"threads":[]}`, nil},
		{"journal short", splitSyslog, "Dec 01 10:59:39 vm checkout[6131]: goroutine 1 [running]:",
			&split{Text: "goroutine 1 [running]:", Stamp: "Dec 01 10:59:39", Source: "vm checkout[6131]"}},
		{"journal tab shown as 8 spaces", splitSyslog, "Dec 01 10:59:39 vm checkout[6131]:         /a.go:1 +0x1",
			&split{Text: "\t/a.go:1 +0x1", Stamp: "Dec 01 10:59:39", Source: "vm checkout[6131]"}},
		{"journal 16 spaces", splitSyslog, "Dec 01 10:59:39 vm j[1]:                 x",
			&split{Text: "\t\tx", Stamp: "Dec 01 10:59:39", Source: "vm j[1]"}},
		{"journal precise", splitSyslog, "Dec 01 10:59:39.434403 vm checkout[6131]: x",
			&split{Text: "x", Stamp: "Dec 01 10:59:39.434403", Source: "vm checkout[6131]"}},
		{"journal iso", splitSyslog, "2026-12-01T10:59:40+0000 vm orders[6220]: x",
			&split{Text: "x", Stamp: "2026-12-01T10:59:40+0000", Source: "vm orders[6220]"}},
		{"rsyslog traditional", splitSyslog, "Dec  1 10:59:39 host java: x",
			&split{Text: "x", Stamp: "Dec  1 10:59:39", Source: "host java"}},
		{"rsyslog rfc 3339", splitSyslog, "2026-12-01T10:59:39.434403+00:00 host java[7]: x",
			&split{Text: "x", Stamp: "2026-12-01T10:59:39.434403+00:00", Source: "host java[7]"}},
		{"syslog empty message", splitSyslog, "Dec 01 10:59:39 vm j[1]:", &split{Stamp: "Dec 01 10:59:39", Source: "vm j[1]"}},
		{"syslog no tag", splitSyslog, "Dec 01 10:59:39 vm just words", nil},
		{"syslog bad pid", splitSyslog, "Dec 01 10:59:39 vm j[x]: x", nil},
		{"syslog bad month", splitSyslog, "Foo 01 10:59:39 vm j[1]: x", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var pl prefixLine
			ok := tt.shape([]byte(tt.line), &pl)
			if tt.want == nil {
				if ok {
					t.Fatalf("split %q: ok, text %q; want no prefix", tt.line, pl.text)
				}
				return
			}
			if !ok {
				t.Fatalf("split %q: not ok", tt.line)
			}
			got := split{Text: string(pl.text), Stamp: string(pl.stamp), Source: string(pl.source), Partial: pl.partial}
			if diff := cmp.Diff(*tt.want, got); diff != "" {
				t.Errorf("split %q (-want +got):\n%s", tt.line, diff)
			}
		})
	}
}

func TestSyslogTime(t *testing.T) {
	now := time.Date(2027, 1, 1, 8, 0, 0, 0, time.UTC)
	tests := []struct {
		stamp string
		want  time.Time
	}{
		{"Dec 31 23:59:58", time.Date(2026, 12, 31, 23, 59, 58, 0, time.UTC)}, // last year's, seen just after New Year
		{"Jan 01 07:00:00.250", time.Date(2027, 1, 1, 7, 0, 0, 250e6, time.UTC)},
		{"Jan  2 07:00:00", time.Date(2027, 1, 2, 7, 0, 0, 0, time.UTC)}, // a day ahead: clocks differ, still this year
		{"2026-12-01T10:59:40+0000", time.Date(2026, 12, 1, 10, 59, 40, 0, time.UTC)},
		{"2026-12-01T11:59:40.5+01:00", time.Date(2026, 12, 1, 10, 59, 40, 5e8, time.UTC)},
	}
	for _, tt := range tests {
		t.Run(tt.stamp, func(t *testing.T) {
			if got := syslogTime([]byte(tt.stamp), now); !got.Equal(tt.want) {
				t.Errorf("syslogTime(%q) = %v, want %v", tt.stamp, got, tt.want)
			}
		})
	}
}

// goDump is a small whole Go dump, one line per element.
var goDump = []string{
	"goroutine 1 [chan receive]:",
	"main.main()",
	"\t/src/main.go:12 +0x1d",
	"",
	"goroutine 7 [sync.Mutex.Lock]:",
	"sync.(*Mutex).Lock(0xc0000a6000)",
	"\t/usr/lib/go/src/sync/mutex.go:90 +0x2f",
	"main.post(...)",
	"\t/src/main.go:30",
	"created by main.main in goroutine 1",
	"\t/src/main.go:11 +0x6a",
}

func prefixed(prefix string, lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = prefix + l
	}
	return out
}

func join(parts ...[]string) string {
	var all []string
	for _, p := range parts {
		all = append(all, p...)
	}
	return strings.Join(all, "\n") + "\n"
}

// TestPrefixRules checks the rules of prefix.go on small inputs, with the
// exact positions of what is skipped.
func TestPrefixRules(t *testing.T) {
	now := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	kube := func(sec int, lines []string) []string {
		out := make([]string, len(lines))
		for i, l := range lines {
			out[i] = time.Date(2026, 12, 1, 10, 0, sec, i*1000, time.UTC).Format(time.RFC3339Nano) + " " + l
		}
		return out
	}
	journal := func(src string, lines []string) []string {
		out := make([]string, len(lines))
		for i, l := range lines {
			out[i] = "Dec 01 10:59:39 vm " + src + ": " + strings.Replace(l, "\t", "        ", 1)
		}
		return out
	}
	docker := func(stream string, lines []string) []string {
		out := make([]string, len(lines))
		for i, l := range lines {
			l = strings.ReplaceAll(strings.ReplaceAll(l, `"`, `\"`), "\t", `\u0009`)
			out[i] = `{"log":"` + l + `\n","stream":"` + stream + `","time":"2026-12-01T10:00:00.5Z"}`
		}
		return out
	}
	tests := []struct {
		name    string
		in      string
		prefix  string
		time    time.Time
		threads int
		skipped []Skipped
	}{
		{
			name:    "indented paste between prose",
			in:      join([]string{"It hangs:", ""}, prefixed("    ", goDump), []string{"", "Ideas?", "Thanks"}),
			prefix:  "indent",
			threads: 2,
		},
		{
			name:    "a line without the indentation inside the paste",
			in:      join(prefixed("    ", goDump[:6]), []string{"oops, pasted twice"}, prefixed("    ", goDump[6:])),
			prefix:  "indent",
			threads: 2,
			skipped: []Skipped{{Line: 7, Text: "oops, pasted twice", Reason: `line without the indent "    " the dump's other lines begin with`}},
		},
		{
			name:    "the paste ends where its prefix ends",
			in:      join(prefixed("\t", goDump[:4]), []string{"not indented", "goroutine 9 [select]:", "main.loop()", "\t/src/loop.go:3 +0x1"}),
			prefix:  "indent",
			threads: 2, // goroutine 1 from the paste, goroutine 9 read as it is
			// The paste is over, and the Go scanner takes the line between
			// the two as inside its dump, as it does without a prefix.
			skipped: []Skipped{{Line: 5, Text: "not indented", Reason: "line not understood in a Go dump"}},
		},
		{
			name:    "quoted with bare > blank lines",
			in:      join([]string{"On Monday you wrote:"}, strings.Split(strings.ReplaceAll(strings.Join(prefixed("> ", goDump), "\n"), "> \n", ">\n"), "\n")),
			prefix:  "quote",
			threads: 2,
		},
		{
			name:    "kubectl: a line without the time inside the dump",
			in:      join(kube(5, goDump[:2]), []string{"no timestamp here"}, kube(6, goDump[2:])),
			prefix:  "kubectl --timestamps",
			time:    time.Date(2026, 12, 1, 10, 0, 5, 0, time.UTC),
			threads: 2,
			skipped: []Skipped{{Line: 3, Text: "no timestamp here", Reason: "line without the kubectl --timestamps prefix of the dump's other lines"}},
		},
		{
			name:    "kubectl: a JVM dump's own date wins",
			in:      join(kube(5, []string{"2026-12-01 09:59:59", "Full thread dump OpenJDK 64-Bit Server VM (17.0.15+6 mixed mode):", "", `"main" #1 prio=5 os_prio=0 tid=0x1 nid=0x2 waiting on condition  [0x3]`, "   java.lang.Thread.State: TIMED_WAITING (sleeping)", "\tat java.lang.Thread.sleep(java.base@17.0.15/Native Method)", "", "JNI global refs: 1, weak refs: 0"})),
			prefix:  "kubectl --timestamps",
			time:    time.Date(2026, 12, 1, 9, 59, 59, 0, time.UTC),
			threads: 1,
		},
		{
			name:    "docker: the other stream inside the dump",
			in:      join(docker("stdout", []string{"started"}), docker("stderr", goDump[:5]), docker("stdout", []string{"tick 1"}), docker("stderr", goDump[5:]), docker("stdout", []string{"tick 2"})),
			prefix:  "docker json-file",
			time:    time.Date(2026, 12, 1, 10, 0, 0, 5e8, time.UTC),
			threads: 2,
			skipped: []Skipped{{Line: 7, Text: `{"log":"tick 1\n","stream":"stdout","time":"2026-12-01T10:00:00.5Z"}`, Reason: `line from "stdout" inside a dump from "stderr" (docker json-file)`}},
		},
		{
			name: "docker: a line cut in pieces",
			in: join(docker("stderr", goDump[:5]), []string{
				`{"log":"sync.(*Mutex).Lo","stream":"stderr","time":"2026-12-01T10:00:00.5Z"}`,
				`{"log":"ck(0xc0000a6000)\n","stream":"stderr","time":"2026-12-01T10:00:00.5Z"}`,
			}, docker("stderr", goDump[6:])),
			prefix:  "docker json-file",
			time:    time.Date(2026, 12, 1, 10, 0, 0, 5e8, time.UTC),
			threads: 2,
		},
		{
			name: "cri: partial records joined",
			in: join(prefixed("2026-12-01T10:00:01Z stderr F ", goDump[:5]), []string{
				"2026-12-01T10:00:01Z stderr P sync.(*Mutex).Lo",
				"2026-12-01T10:00:01Z stderr F ck(0xc0000a6000)",
			}, prefixed("2026-12-01T10:00:01Z stderr F ", goDump[6:])),
			prefix:  "cri",
			time:    time.Date(2026, 12, 1, 10, 0, 1, 0, time.UTC),
			threads: 2,
		},
		{
			name:    "journal: another process inside the dump, TABs shown as spaces",
			in:      join(journal("cron[1]", []string{"tick"}), journal("checkout[7]", goDump[:3]), journal("cron[1]", []string{"(root) CMD"}), journal("checkout[7]", goDump[3:])),
			prefix:  "syslog",
			time:    time.Date(2026, 12, 1, 10, 59, 39, 0, time.UTC),
			threads: 2,
			skipped: []Skipped{{Line: 5, Text: "Dec 01 10:59:39 vm cron[1]: (root) CMD", Reason: `line from "vm cron[1]" inside a dump from "vm checkout[7]" (syslog)`}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dumps, err := Options{Now: now}.Parse("p.txt", strings.NewReader(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			d := dumps[0]
			threads := 0
			for _, x := range dumps {
				threads += len(x.Threads)
			}
			if d.Prefix != tt.prefix || threads != tt.threads || !d.Time.Equal(tt.time) {
				t.Errorf("prefix %q, %d threads, time %v; want %q, %d, %v", d.Prefix, threads, d.Time, tt.prefix, tt.threads, tt.time)
			}
			if diff := cmp.Diff(tt.skipped, d.Skipped); diff != "" {
				t.Errorf("skipped (-want +got):\n%s", diff)
			}
			// Every goroutine of goDump keeps its frames.
			for _, th := range d.Threads {
				if len(th.Frames) == 0 {
					t.Errorf("goroutine %d lost its frames", th.ID)
				}
			}
		})
	}
}

// FuzzPrefix feeds prefixed dumps to Parse: it must never panic, and every
// skipped line must carry its position.
func FuzzPrefix(f *testing.F) {
	for _, name := range []string{"go-sigquit.docker.log", "go-sigquit.journal-short.log", "jvm-kill3.cri.log", "go-sigquit.indent4.md", "jvm-kill3.quote.txt"} {
		data, err := os.ReadFile(filepath.Join("../testdata/pasted", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data[:min(len(data), 4<<10)])
	}
	f.Add([]byte(join(prefixed("    ", goDump[:5]), []string{"x"}, prefixed("    ", goDump[5:]))))
	f.Add([]byte(`{"log":"goroutine 1 [running]:\n","stream":"stderr","time":"2026-12-01T10:00:00Z"}` + "\n" +
		`{"log":"main.ma","stream":"stderr","time":"2026-12-01T10:00:00Z"}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dumps, _ := Options{MaxLine: 256}.Parse("fuzz.log", bytes.NewReader(data))
		checkDumps(t, dumps)
		for _, d := range dumps {
			for _, s := range d.Skipped {
				if s.Line <= 0 && d.Format != FormatJFR && d.Format != FormatActuatorJSON && d.Format != FormatJVMJSON {
					t.Fatalf("skipped line without position: %+v", s)
				}
			}
		}
	})
}

// TestPrefixedDumpAfterForeignLines: lines of another source read while a
// prefixed dump was being parsed, after its last line, are read again as
// they are. A restarted process (new pid) printing its own dump after the
// first one's end gives a second dump, not records dropped between two.
func TestPrefixedDumpAfterForeignLines(t *testing.T) {
	syslog := func(src string, lines []string) []string {
		out := make([]string, len(lines))
		for i, l := range lines {
			out[i] = "Dec 01 10:59:39 vm " + src + ": " + strings.Replace(l, "\t", "        ", 1)
		}
		return out
	}
	in := join(syslog("checkout[7]", goDump), syslog("checkout[8]", goDump))
	ds, err := Parse("restart.log", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 2 {
		t.Fatalf("%d dumps, want 2 (one per process)", len(ds))
	}
	for i, d := range ds {
		if len(d.Threads) != 2 || d.Prefix != "syslog" {
			t.Errorf("dump %d: %d threads, prefix %q; want 2, syslog", i+1, len(d.Threads), d.Prefix)
		}
		for _, s := range d.Skipped {
			t.Errorf("dump %d skipped line %d %q: %s", i+1, s.Line, s.Text, s.Reason)
		}
	}
}

// TestRsyslogEscapedTabs: rsyslog escapes a TAB as "#011" on receive (its
// default), so a Go dump's file lines and a JVM's "\tat" lines reach
// /var/log/syslog as "#011/app/main.go:12" and "#011at ...".
func TestRsyslogEscapedTabs(t *testing.T) {
	var lines []string
	for _, l := range goDump {
		lines = append(lines, "Dec  1 10:59:39 vm checkout[7]: "+strings.Replace(l, "\t", "#011", 1))
	}
	ds, err := Parse("syslog", strings.NewReader(join(lines)))
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 1 || len(ds[0].Threads) != 2 || len(ds[0].Skipped) != 0 {
		t.Fatalf("%d dumps; want one of 2 goroutines, nothing skipped: %+v", len(ds), ds)
	}
	if f := ds[0].Threads[0].Frames; len(f) == 0 || f[0].File == "" {
		t.Errorf("frames without their file lines: %+v", f)
	}
}

// TestJoinedRecordsKeepLineNumbers: a line cut into partial records is
// numbered by its first piece, and the lines after it keep their own
// numbers; a joined line past MaxLine is skipped with all its pieces, none
// read as a line of its own.
func TestJoinedRecordsKeepLineNumbers(t *testing.T) {
	rec := func(stream, text string, partial bool) string {
		text = strings.ReplaceAll(text, "\t", `\u0009`)
		if !partial {
			text += `\n`
		}
		return `{"log":"` + text + `","stream":"` + stream + `","time":"2026-12-01T10:00:00.5Z"}`
	}
	var lines []string
	for _, l := range goDump[:4] { // lines 1-4
		lines = append(lines, rec("stderr", l, false))
	}
	lines = append(lines, rec("stderr", "goroutine 7 [sync.", true), rec("stderr", "Mutex.Lo", true), rec("stderr", "ck]:", false)) // lines 5-7
	for _, l := range goDump[5:7] {                                                                                                 // lines 8-9
		lines = append(lines, rec("stderr", l, false))
	}
	lines = append(lines, rec("stdout", "tick", false)) // line 10
	for _, l := range goDump[7:] {                      // lines 11-14
		lines = append(lines, rec("stderr", l, false))
	}
	dumps, err := Parse("d.txt", strings.NewReader(strings.Join(lines, "\n")+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	d := dumps[0]
	if len(d.Threads) != 2 || d.Threads[0].Line != 1 || d.Threads[1].Line != 5 {
		for _, th := range d.Threads {
			t.Logf("goroutine %d at line %d", th.ID, th.Line)
		}
		t.Fatalf("%d goroutines; want goroutine 1 at line 1 and goroutine 7 at line 5", len(d.Threads))
	}
	if n := len(d.Threads[1].Frames); n != 2 {
		t.Errorf("goroutine 7 has %d frames, want 2", n)
	}
	if len(d.Skipped) != 1 || d.Skipped[0].Line != 10 {
		t.Errorf("skipped %+v, want the stdout line at line 10", d.Skipped)
	}

	// Past MaxLine: the last piece looks like a header, and must not be one.
	long := []string{
		rec("stderr", goDump[0], false), rec("stderr", goDump[1], false), rec("stderr", goDump[2], false), rec("stderr", "", false),
		rec("stderr", "goroutine 5 [select]:", false),
		rec("stderr", "main.f("+strings.Repeat("a", 30), true), rec("stderr", strings.Repeat("b", 50), true),
		rec("stderr", strings.Repeat("c", 50), true), rec("stderr", "goroutine 9 [x]:", false),
		rec("stderr", "\t/src/main.go:3 +0x1", false),
	}
	dumps, err = Options{MaxLine: 120}.Parse("d.txt", strings.NewReader(strings.Join(long, "\n")+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range dumps {
		for _, th := range x.Threads {
			if th.ID == 9 {
				t.Errorf("the last piece of a skipped long line was read as goroutine 9's header")
			}
		}
	}
	found := false
	for _, s := range dumps[0].Skipped {
		if s.Line == 6 && strings.Contains(s.Reason, "joined") {
			found = true
		}
	}
	if !found {
		t.Errorf("skipped %+v: want the long line at line 6, joined from records", dumps[0].Skipped)
	}
}

// TestPastedDumpsInOnePaste: a paste holding several dumps (an old JVM's
// kill -3 output, two captures appended) keeps each dump under its
// prefix: the line where one ends and the next begins is read again with
// its prefix, not as it was left once the prefix was taken off.
func TestPastedDumpsInOnePaste(t *testing.T) {
	jvm := []string{
		"Full thread dump Java HotSpot(TM) Client VM (1.4.2_03-b02 mixed mode):",
		"",
		`"Thread-1" prio=5 tid=0x0028ea18 nid=0x604 waiting for monitor entry [182ef000..182efd88]`,
		"\tat a.B.run(B.java:26)",
		"\t- waiting to lock <0x100309e0> (a java.lang.Object)",
		"",
		`"Signal Dispatcher" daemon prio=10 tid=0x0009e0b0 nid=0x1c0 waiting on condition [0..0]`,
	}
	goRepeat := append(append(append([]string(nil), goDump...), ""), goDump...) // goroutine 1 again: a second capture
	for _, tt := range []struct {
		name    string
		lines   []string
		threads []int
	}{
		{"JVM, blank line between", append(append(append([]string(nil), jvm...), ""), jvm...), []int{2, 2}},
		{"JVM, no blank line between (HP-UX)", append(append([]string(nil), jvm...), jvm...), []int{2, 2}},
		{"Go, a second capture", goRepeat, []int{2, 2}},
	} {
		for _, pre := range []string{"    ", "> ", "2026-12-01T10:38:11.089Z stderr F "} {
			dumps, err := Parse("paste.txt", strings.NewReader(join(prefixed(pre, tt.lines))))
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, d := range dumps {
				got = append(got, len(d.Threads))
				if d.Prefix == "" || len(d.Skipped) > 0 {
					t.Errorf("%s, %q: dump at line %d: prefix %q, skipped %+v", tt.name, pre, d.Source.Line, d.Prefix, d.Skipped)
				}
			}
			if !slices.Equal(got, tt.threads) {
				t.Errorf("%s, %q: threads per dump %v, want %v", tt.name, pre, got, tt.threads)
			}
		}
	}
}
