package parse

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// goRecords are three goroutines of one dump, each ending in its newline.
var goRecords = []string{
	"goroutine 1 [chan receive]:\nmain.main()\n\t/src/main.go:12 +0x1d\n",
	"goroutine 7 [sync.Mutex.Lock]:\nsync.(*Mutex).Lock(0xc0000a6000)\n\t/usr/lib/go/src/sync/mutex.go:90 +0x2f\nmain.post(...)\n\t/src/main.go:30\ncreated by main.main in goroutine 1\n\t/src/main.go:11 +0x6a\n",
	"goroutine 9 [select]:\nmain.loop()\n\t/src/loop.go:3 +0x1\n",
}

// TestGoNotesBetweenGoroutines: a note between two goroutines is skipped
// with its position and what it is, and the dump stays one moment with
// every goroutine and frame.
func TestGoNotesBetweenGoroutines(t *testing.T) {
	const (
		unknown = "line not understood in a Go dump"
		goleak  = "goleak's line before a goroutine: skipped"
		gotest  = "go test line between goroutines: skipped"
		timeout = "go test's timeout panic between goroutines: skipped"
	)
	tests := []struct {
		note   string
		reason string
	}{
		{" Goroutine 7 in state sync.Mutex.Lock, with sync.(*Mutex).Lock on top of the stack:", goleak},
		{"[Goroutine 7 in state sync.Mutex.Lock, with sync.(*Mutex).Lock on top of the stack:", goleak},
		{"## the stuck one", unknown},
		{"2026-12-01T10:00:00.123Z INFO orders: tick", unknown},
		{"=== RUN   TestPool/case_3", gotest},
		{"--- FAIL: TestPool (2.00s)", gotest},
		{"panic: test timed out after 2s", timeout},
	}
	// Line 5 is the note in each layout: after goroutine 1's blank line,
	// then right before goroutine 7's header or after a blank line.
	layouts := []struct {
		name string
		sep  string
	}{{"note then header", ""}, {"note then blank", "\n"}}
	for _, tt := range tests {
		for _, lay := range layouts {
			t.Run(tt.note+"/"+lay.name, func(t *testing.T) {
				in := goRecords[0] + "\n" + tt.note + "\n" + lay.sep + goRecords[1] + "\n" + goRecords[2]
				dumps, err := Parse("notes.txt", strings.NewReader(in))
				if err != nil {
					t.Fatal(err)
				}
				if len(dumps) != 1 || len(dumps[0].Threads) != 3 {
					t.Fatalf("%v; want one dump of 3 goroutines", summarize(dumps))
				}
				for _, th := range dumps[0].Threads {
					if len(th.Frames) == 0 {
						t.Errorf("goroutine %d lost its frames", th.ID)
					}
				}
				want := []Skipped{{Line: 5, Text: tt.note, Reason: tt.reason}}
				if diff := cmp.Diff(want, dumps[0].Skipped); diff != "" {
					t.Errorf("skipped (-want +got):\n%s", diff)
				}
			})
		}
	}
}

// TestGoLeadIn: grpc's leak checker writes "Leaked goroutine: " before
// each goroutine it reports; the records are one dump.
func TestGoLeadIn(t *testing.T) {
	in := "--- FAIL: TestLeak (10.01s)\n" +
		"Leaked goroutine: " + goRecords[1] + "\n" +
		"    leakcheck.go:131: Leaked goroutine: " + goRecords[2]
	dumps, err := Parse("grpc.log", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(dumps) != 1 || len(dumps[0].Threads) != 2 {
		t.Fatalf("%v; want one dump of 2 goroutines", summarize(dumps))
	}
	d := dumps[0]
	if d.Source.Line != 2 || d.Threads[0].ID != 7 || d.Threads[1].ID != 9 || d.Threads[1].Line != 10 {
		t.Errorf("dump at line %d, goroutines %d at %d and %d at %d; want the dump at 2, goroutine 9 at 10",
			d.Source.Line, d.Threads[0].ID, d.Threads[0].Line, d.Threads[1].ID, d.Threads[1].Line)
	}
	if len(d.Threads[0].Frames) != 2 || d.Threads[0].State != "sync.Mutex.Lock" || len(d.Skipped) != 0 {
		t.Errorf("goroutine 7: %d frames, state %q, skipped %+v", len(d.Threads[0].Frames), d.Threads[0].State, d.Skipped)
	}

	// Through t.Errorf: go test indents the message's later lines by 8.
	var b strings.Builder
	b.WriteString("=== RUN   TestLeak\n--- FAIL: TestLeak (10.01s)\n")
	for _, r := range goRecords[1:] {
		lines := strings.Split(strings.TrimSuffix(r, "\n"), "\n")
		b.WriteString("    leakcheck.go:131: Leaked goroutine: " + lines[0] + "\n")
		for _, l := range lines[1:] {
			b.WriteString("        " + l + "\n")
		}
	}
	b.WriteString("FAIL\nFAIL\tgoogle.golang.org/grpc\t10.1s\n")
	dumps, err = Parse("grpc-test.log", strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Parse("records", strings.NewReader(goRecords[1]+"\n"+goRecords[2]))
	if got := dumpFingerprint(dumps); got != dumpFingerprint(want) {
		t.Errorf("t.Errorf form: %s", firstDiff(dumpFingerprint(want), got))
	}
	if len(dumps) == 1 && len(dumps[0].Skipped) != 0 {
		t.Errorf("t.Errorf form: skipped %+v", dumps[0].Skipped)
	}
	for _, line := range []string{"Leaked goroutine: goroutine x", "Leaked goroutine:", "goroutine leaked: goroutine 1 [select]:"} {
		if goLeadIn([]byte(line)) != 0 {
			t.Errorf("goLeadIn(%q) found a header", line)
		}
	}
}

// TestPasteGoesOnAfterANote: inside an indented or quoted paste, a line
// of the person's own that could start a dump but is not one
// ("panic: test timed out", a date) is inside the paste, not its end:
// one dump, the note skipped.
func TestPasteGoesOnAfterANote(t *testing.T) {
	jvm := readInput(t, "../testdata/jvm/jstack-l.txt")
	goText := readInput(t, "../testdata/go/go1.27.3-debug2.txt")
	for _, pre := range []string{"    ", "> "} {
		for _, note := range []string{"panic: test timed out after 2s", "2026-12-01 10:38:11"} {
			for _, src := range []struct {
				rt   Runtime
				text string
			}{{RuntimeJVM, jvm}, {RuntimeGo, goText}} {
				in, _ := betweenThreads(src.text, src.rt, func(k int, _ string) string {
					if k%4 == 1 {
						return "\x00" // marks the note's line: not prefixed
					}
					return ""
				})
				in = mapLines(in, func(_ int, l string) string {
					switch l {
					case "":
						return l
					case "\x00":
						return note
					}
					return pre + l
				})
				orig, _ := Parse("orig", strings.NewReader(src.text))
				dumps, err := Parse("paste", strings.NewReader(in))
				if err != nil {
					t.Fatal(err)
				}
				if len(dumps) != 1 || dumpFingerprint(dumps) != dumpFingerprint(orig) {
					t.Errorf("%s, %q, note %q: %v; want one dump as the original's %v", src.rt, pre, note, summarize(dumps), summarize(orig))
					continue
				}
				if n := strings.Count(in, "\n"+note+"\n"); len(dumps[0].Skipped) != n {
					t.Errorf("%s, %q, note %q: %d skipped, want the %d notes: %+v", src.rt, pre, note, len(dumps[0].Skipped), n, dumps[0].Skipped)
				}
			}
		}
	}
}

// TestJVMDateNoteIsNoDump: a date or a number on its own line between a
// JVM dump's threads (a person's note, a log line) is skipped inside the
// dump, not the start of a new moment; a date followed by a "Full thread
// dump" line still starts one, with its time, as it is, indented or in
// docker's records.
func TestJVMDateNoteIsNoDump(t *testing.T) {
	jvm := readInput(t, "../testdata/jvm/jstack-l.txt")
	orig, err := Parse("orig", strings.NewReader(jvm))
	if err != nil {
		t.Fatal(err)
	}
	docker := func(text string) string {
		return mapLines(text, func(_ int, l string) string {
			l = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\t", `\t`).Replace(l)
			return `{"log":"` + l + `\n","stream":"stdout","time":"2026-12-01T10:38:11Z"}`
		})
	}
	indent := func(text string) string {
		return mapLines(text, func(_ int, l string) string { return "    " + l })
	}
	for _, wrap := range []struct {
		name string
		f    func(string) string
	}{{"as it is", func(s string) string { return s }}, {"indented", indent}, {"docker", docker}} {
		for _, note := range []string{"2026-12-01 10:40:00", "12345:"} {
			in, _ := betweenThreads(jvm, RuntimeJVM, func(k int, _ string) string {
				if k%7 == 3 {
					return note
				}
				return ""
			})
			dumps, err := Parse("notes", strings.NewReader(wrap.f(in)))
			if err != nil {
				t.Fatal(err)
			}
			if len(dumps) != 1 || dumpFingerprint(dumps) != dumpFingerprint(orig) {
				t.Errorf("%s, note %q: %+v; want one dump as the original", wrap.name, note, summarize(dumps))
				continue
			}
			n := 0
			for _, s := range dumps[0].Skipped {
				if s.Text == note || strings.Contains(s.Text, note) {
					n++
				}
			}
			if want := strings.Count(in, "\n"+note+"\n"); n != want {
				t.Errorf("%s, note %q: %d notes skipped, want %d: %+v", wrap.name, note, n, want, dumps[0].Skipped)
			}
		}
		// Two dumps, each with its date line: two moments, two times.
		two := strings.Replace(jvm, "2026-11-29 17:32:33", "2026-11-29 17:32:34", 1)
		dumps, err := Parse("two", strings.NewReader(wrap.f(jvm+"\n"+two)))
		if err != nil {
			t.Fatal(err)
		}
		if len(dumps) != 2 || dumps[0].Time.Equal(dumps[1].Time) || len(dumps[1].Threads) != len(orig[0].Threads) {
			t.Errorf("%s, two dumps: %+v", wrap.name, summarize(dumps))
		}
	}
}

// TestGoTestJSON: go test -json gives each line a test printed in an
// output event of its own; a panic's goroutines are read from those of
// the test that panicked, and the events of other tests between them are
// skipped, counted.
func TestGoTestJSON(t *testing.T) {
	ev := func(test, out string) string {
		b, _ := json.Marshal(map[string]string{"Time": "2025-04-01T08:56:08.596399828-03:00", "Action": "output",
			"Package": "example.com/svc", "Test": test, "Output": out})
		return string(b)
	}
	lines := []string{`{"Time":"2025-04-01T08:56:08.5Z","Action":"run","Package":"example.com/svc","Test":"TestA"}`,
		ev("TestA", "=== RUN   TestA\n"), ev("TestA", "panic: boom [recovered]\n"), ev("TestA", "\n")}
	for i, l := range strings.Split(strings.TrimSuffix(goRecords[1], "\n"), "\n") {
		lines = append(lines, ev("TestA", l+"\n"))
		if i == 2 {
			lines = append(lines, ev("TestB", "=== CONT  TestB\n")) // line 8: another test's output
		}
	}
	lines = append(lines, `{"Time":"2025-04-01T08:56:08.6Z","Action":"fail","Package":"example.com/svc","Test":"TestA","Elapsed":0.01}`)
	dumps, err := Parse("test.json", strings.NewReader(strings.Join(lines, "\n")+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Parse("record", strings.NewReader(goRecords[1]))
	if len(dumps) != 1 || dumpFingerprint(dumps) != dumpFingerprint(want) {
		t.Fatalf("%+v; want one dump of goroutine 7: %s", summarize(dumps), firstDiff(dumpFingerprint(want), dumpFingerprint(dumps)))
	}
	d := dumps[0]
	if d.Prefix != "go test -json" || d.Kind != "panic" || d.Headline != "panic: boom [recovered]" {
		t.Errorf("prefix %q, kind %q, headline %q", d.Prefix, d.Kind, d.Headline)
	}
	if len(d.Skipped) != 1 || d.Skipped[0].Line != 8 {
		t.Errorf("skipped %+v; want TestB's line 8", d.Skipped)
	}

	// The corpus's stream of a real go test -json run with a panic.
	path := corpusDir + "/go/gotestpp__go1.23.4__go-test-json-with-panic.txt"
	readInput(t, path)
	dumps, err = ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// EXPECTED.tsv: one dump of one goroutine (goroutine 20 [running]),
	// whose 5 frames and creator are the Output of 13 events.
	if len(dumps) != 1 || len(dumps[0].Threads) != 1 || len(dumps[0].Threads[0].Frames) != 5 || dumps[0].Threads[0].CreatedBy == nil {
		t.Errorf("%+v; want one dump of one goroutine with 5 frames and its creator", summarize(dumps))
	}
}
