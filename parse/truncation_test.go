package parse

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestGoTruncated: a Go dump cut inside a header, a function line or a file
// line, or after a header or function line, says so at the line where it
// was cut; a whole last line without a final newline is not flagged.
func TestGoTruncated(t *testing.T) {
	const head = "goroutine 1 [running]:\nmain.main()\n\t/a.go:1 +0x1\n\n"
	tests := []struct {
		name    string
		in      string
		threads int
		want    []Skipped
	}{
		{"cut inside a function line", head + "goroutine 2 [chan receive]:\nmain.wait(0xc000", 2,
			[]Skipped{{Line: 6, Text: "main.wait(0xc000", Reason: "line not understood; " + goCut}}},
		{"cut inside a header", head + "goroutine 2 [chan rec", 1,
			[]Skipped{{Line: 5, Text: "goroutine 2 [chan rec", Reason: "goroutine header not understood; " + goCut}}},
		{"cut inside a file line", head + "goroutine 2 [chan receive]:\nmain.wait()\n\t/usr/lib/go/src/ru", 2,
			[]Skipped{{Line: 7, Text: "\t/usr/lib/go/src/ru", Reason: goCut}}}, // main.wait kept without its file (Partial)
		{"cut inside a file line's number", head + "goroutine 2 [chan receive]:\nmain.wait()\n\t/a.go:4", 2,
			[]Skipped{{Line: 7, Text: "\t/a.go:4", Reason: goCut}}},
		{"cut after a function line", head + "goroutine 2 [chan receive]:\nmain.wait(0xc000123)\n", 2,
			[]Skipped{{Line: 6, Text: "main.wait(0xc000123)", Reason: goCutAfter}}}, // main.wait kept without its file (Partial)
		{"cut after a header", head + "goroutine 2 [chan receive]:\n", 2,
			[]Skipped{{Line: 5, Text: "goroutine 2 [chan receive]:", Reason: "dump ends after a goroutine header without its stack: truncated"}}},
		{"no final newline", strings.TrimSuffix(head, "\n\n"), 1, nil},
		{"no final newline after created by", head + "goroutine 2 [select]:\nmain.w()\n\t/a.go:2 +0x2\ncreated by main.main in goroutine 1\n\t/a.go:9 +0x3", 2, nil},
		{"whole dump", head, 1, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dumps, err := Parse("cut.txt", strings.NewReader(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if len(dumps) != 1 || len(dumps[0].Threads) != tt.threads {
				t.Fatalf("got %d dumps, want 1 with %d goroutines", len(dumps), tt.threads)
			}
			if diff := cmp.Diff(tt.want, dumps[0].Skipped); diff != "" {
				t.Errorf("skipped (-want +got):\n%s", diff)
			}
		})
	}
}

// TestGoTruncatedInPrefix: the cut is found in a prefixed dump too (the
// last line's end is the prefix's).
func TestGoTruncatedInPrefix(t *testing.T) {
	in := "    goroutine 1 [running]:\n    main.main()\n    \t/a.go:1 +0x1\n\n    goroutine 2 [chan receive]:\n    main.wait(0xc000"
	dumps, err := Parse("cut.md", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []Skipped{{Line: 6, Text: "main.wait(0xc000", Reason: "line not understood; " + goCut}}
	if diff := cmp.Diff(want, dumps[0].Skipped); diff != "" || dumps[0].Prefix != "indent" {
		t.Errorf("prefix %q, skipped (-want +got):\n%s", dumps[0].Prefix, diff)
	}
}
