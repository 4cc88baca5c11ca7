package parse

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseGoDebug1(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []*Dump
	}{
		{
			name: "records, labels, aligned frames",
			text: "goroutine profile: total 4\n" +
				"3 @ 0x48618e 0x41896e 0x689255 0x48da21\n" +
				"#\t0x689254\tmain.child+0x94\tcorpusgen/states/main.go:153\n" +
				"\n" +
				"1 @ 0x48618e 0x464b85 0x689505 0x48da21\n" +
				"# labels: {\"pool\":\"ingest\", \"route\":\"/api/v1/items[0],[1]\"}\n" +
				"#\t0x4920d2\tsync.(*Cond).Wait+0x72\t\t\tsync/cond.go:71\n" +
				"#\t0x689504\tmain.labeledWorker+0x64\tcorpusgen/states/main.go:183\n" +
				"\n",
			want: []*Dump{{
				Source: Source{File: "test.txt", Line: 1}, Format: FormatGoDebug1, HeaderTotal: 4,
				Threads: []*Thread{
					{Weight: 3, Line: 2, Frames: []*Frame{fr("main.child", "corpusgen/states/main.go", 153)},
						GoExtra: &GoExtra{PCs: []uint64{0x48618e, 0x41896e, 0x689255, 0x48da21}, FramePCs: []uint64{0x689254}}},
					{Weight: 1, Line: 5, Labels: map[string]string{"pool": "ingest", "route": "/api/v1/items[0],[1]"},
						Frames:  []*Frame{fr("sync.(*Cond).Wait", "sync/cond.go", 71), fr("main.labeledWorker", "corpusgen/states/main.go", 183)},
						GoExtra: &GoExtra{PCs: []uint64{0x48618e, 0x464b85, 0x689505, 0x48da21}, FramePCs: []uint64{0x4920d2, 0x689504}}},
				},
			}},
		},
		{
			name: "goroutineleak profile, unsymbolized record",
			text: "goroutineleak profile: total 2\n" +
				"1 @ 0x48c6aa 0x418c9c\n" +
				"# labels: {\"job\":\"import[batch=7],retry\"}\n" +
				"#\t0x681af8\tmain.fetchWithTimeout.func1+0x38\tcorpusgen/leak/main.go:33\n" +
				"\n" +
				"1 @ 0x48c6aa 0x419bce\n" +
				"\n",
			want: []*Dump{{
				Source: Source{File: "test.txt", Line: 1}, Format: FormatGoDebug1, Kind: "goroutineleak", HeaderTotal: 2,
				Threads: []*Thread{
					{Weight: 1, Line: 2, Labels: map[string]string{"job": "import[batch=7],retry"},
						Frames:  []*Frame{fr("main.fetchWithTimeout.func1", "corpusgen/leak/main.go", 33)},
						GoExtra: &GoExtra{PCs: []uint64{0x48c6aa, 0x418c9c}, FramePCs: []uint64{0x681af8}}},
					{Weight: 1, Line: 6, GoExtra: &GoExtra{PCs: []uint64{0x48c6aa, 0x419bce}}},
				},
			}},
		},
		{
			name: "a bad line inside is skipped, log output after ends the dump",
			text: "some log line before\n" +
				"goroutine profile: total 2\n" +
				"1 @ 0x48618e\n" +
				"#\tgarbage\n" +
				"#\t0x689254\tmain.child+0x94\tcorpusgen/states/main.go:153\n" +
				"\n" +
				"1 @ 0x48618e\n" +
				"#\t0x689254\tmain.child+0x94\tcorpusgen/states/main.go:153\n" +
				"2024/01/01 12:00:00 served /debug/pprof/goroutine\n" +
				"2024/01/01 12:00:01 more log\n",
			want: []*Dump{{
				Source: Source{File: "test.txt", Line: 2}, Format: FormatGoDebug1, HeaderTotal: 2,
				Threads: []*Thread{
					{Weight: 1, Line: 3, Frames: []*Frame{fr("main.child", "corpusgen/states/main.go", 153)},
						GoExtra: &GoExtra{PCs: []uint64{0x48618e}, FramePCs: []uint64{0x689254}}},
					{Weight: 1, Line: 7, Frames: []*Frame{fr("main.child", "corpusgen/states/main.go", 153)},
						GoExtra: &GoExtra{PCs: []uint64{0x48618e}, FramePCs: []uint64{0x689254}}},
				},
				Skipped: []Skipped{{Line: 4, Text: "#\tgarbage", Reason: "frame line not understood"}},
			}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mustParse(t, tt.text)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseLabelSet(t *testing.T) {
	tests := []struct {
		name, in string
		want     map[string]string
		rest     string
	}{
		{"debug1", `{"job":"import[batch=7],retry"}`, map[string]string{"job": "import[batch=7],retry"}, ""},
		{"1.26", `{"pool": "ingest", "route": "/api/v1/items[0],[1]"}]:`, map[string]string{"pool": "ingest", "route": "/api/v1/items[0],[1]"}, "]:"},
		{"1.27 bare", `{pool: ingest, route: /x}:`, map[string]string{"pool": "ingest", "route": "/x"}, ":"},
		{"escaped quote and brace", `{"note": "say \"hi\"}"}`, map[string]string{"note": `say "hi"}`}, ""},
		{"hex escape", `{k: "\x01"}`, map[string]string{"k": "\x01"}, ""},
		{"empty", `{}`, map[string]string{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, rest, ok := parseLabelSet([]byte(tt.in), newInterner())
			if !ok {
				t.Fatalf("parseLabelSet(%q) not ok", tt.in)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("labels (-want +got):\n%s", diff)
			}
			if string(rest) != tt.rest {
				t.Errorf("rest = %q, want %q", rest, tt.rest)
			}
		})
	}
	for _, bad := range []string{`{`, `{"k": "v"`, `{k v}`, `{"k: v}`, `{k: "\q"}`} {
		if _, _, ok := parseLabelSet([]byte(bad), newInterner()); ok {
			t.Errorf("parseLabelSet(%q) ok, want failure", bad)
		}
	}
}

// TestGoDebug1Cut checks debug=1 profiles cut short or appended to one
// another: the header's total is compared with the records' sum.
func TestGoDebug1Cut(t *testing.T) {
	const (
		leak   = "../testdata/scenarios/go-slow-upstream-leak/during-2-debug1.txt" // total 630, 113 lines
		header = "goroutine profile: total 630"
		cut    = "profile says total 630, records sum to 223: truncated?"
	)
	tests := []struct {
		name    string
		input   func(s string) string
		want    []dumpSummary
		skipped []Skipped // of all dumps, in order
	}{
		{
			name:  "whole profile",
			input: func(s string) string { return s },
			want:  []dumpSummary{{Line: 1, Threads: 630}},
		},
		{
			name:    "first 20 lines (head -n 20)",
			input:   func(s string) string { return cutLines(s, 1, 20) },
			want:    []dumpSummary{{Line: 1, Threads: 223, Skipped: 1}},
			skipped: []Skipped{{Line: 1, Text: header, Reason: cut}},
		},
		{
			name:  "two profiles appended are two dumps",
			input: func(s string) string { return s + s },
			want:  []dumpSummary{{Line: 1, Threads: 630}, {Line: 114, Threads: 630}},
		},
		{
			name:    "a cut profile then a whole one",
			input:   func(s string) string { return cutLines(s, 1, 20) + s },
			want:    []dumpSummary{{Line: 1, Threads: 223, Skipped: 1}, {Line: 21, Threads: 630}},
			skipped: []Skipped{{Line: 1, Text: header, Reason: cut}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dumps, err := Parse("x", strings.NewReader(tt.input(readInput(t, leak))))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if diff := cmp.Diff(tt.want, summarize(dumps)); diff != "" {
				t.Errorf("dumps (-want +got):\n%s", diff)
			}
			var got []Skipped
			for _, d := range dumps {
				got = append(got, d.Skipped...)
			}
			if diff := cmp.Diff(tt.skipped, got); diff != "" {
				t.Errorf("skipped (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDebug1RecordStart: a record line starts a profile only when a frame
// or labels line follows it; a count and addresses in a log are passed
// over, and the lines after them are read as they are.
func TestDebug1RecordStart(t *testing.T) {
	tests := []struct {
		name, in string
		threads  int // -1: no dump
	}{
		{"record and frame", "2 @ 0x1 0x2\n#\t0x1\tmain.f+0x1\t/a.go:3\n", 2},
		{"record and labels", "2 @ 0x1\n# labels: {\"k\":\"v\"}\n#\t0x1\tmain.f+0x1\t/a.go:3\n", 2},
		{"record and prose", "2 @ 0x1 0x2\nthe cache held 2 @ 0x1\n", -1},
		{"not addresses", "2 @ home\n#\t0x1\tmain.f+0x1\t/a.go:3\n", -1},
		{"record then a goroutine", "2 @ 0x1\ngoroutine 1 [running]:\nmain.main()\n\t/a.go:3 +0x1\n", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dumps, err := Parse("t.txt", strings.NewReader(tt.in))
			if tt.threads < 0 {
				if err == nil {
					t.Fatalf("read %d dumps, want none", len(dumps))
				}
				return
			}
			if err != nil || len(dumps) != 1 || dumps[0].ThreadCount() != tt.threads {
				t.Fatalf("%d dumps (%v); want 1 of %d", len(dumps), err, tt.threads)
			}
		})
	}
}
