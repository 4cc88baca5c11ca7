package parse

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestGoLineAfterFunc: the line after a function line is read as
// classifyGoLineParen reads it, though the scanner takes a file line
// there without classifying it (goroutine_text.go, gsWantFile).
func TestGoLineAfterFunc(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		frames  []string // "func file:line" of each goroutine's frames, joined by " | "
		noStack bool
		skipped []Skipped
		partial []Skipped // frames kept without their file
	}{
		// A function line without its file line is kept as a frame
		// without a file (issue 33: the culprit is often that frame),
		// and said in Partial.
		{"blank", "goroutine 1 [running]:\nmain.main()\n\ngoroutine 2 [select]:\nmain.f()\n\t/a.go:1 +0x1\n",
			[]string{"main.main :0", "main.f /a.go:1"}, false, nil,
			[]Skipped{{Line: 2, Text: "main.main", Reason: "function line without its file line: read as a frame without its file"}}},
		{"no stack", "goroutine 1 [running]:\nmain.main()\n\tgoroutine running on other thread; stack unavailable\nmain.f()\n\t/a.go:1 +0x1\n",
			[]string{"main.main :0 | main.f /a.go:1"}, true, nil,
			[]Skipped{{Line: 2, Text: "main.main", Reason: "function line without its file line: read as a frame without its file"}}},
		{"tab alone", "goroutine 1 [running]:\nmain.main()\n\t\nmain.f()\n\t/a.go:2\n",
			[]string{"main.main :0 | main.f /a.go:2"}, false, nil,
			[]Skipped{{Line: 3, Text: "\t", Reason: "file line without a line number: its function read as a frame without its file"}}},
		{"path starting with g", "goroutine 1 [running]:\nmain.main()\n\tg/a.go:3 +0x1\n",
			[]string{"main.main g/a.go:3"}, false, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dumps, err := Parse("t.txt", strings.NewReader(tt.in))
			if err != nil || len(dumps) != 1 {
				t.Fatalf("got %d dumps, %v", len(dumps), err)
			}
			var frames []string
			for _, th := range dumps[0].Threads {
				var fs []string
				for _, f := range th.Frames {
					fs = append(fs, f.Func+" "+f.File+":"+strconv.Itoa(f.Line))
				}
				frames = append(frames, strings.Join(fs, " | "))
			}
			if diff := cmp.Diff(tt.frames, frames); diff != "" {
				t.Errorf("frames (-want +got):\n%s", diff)
			}
			if got := dumps[0].Threads[0].NoStack; got != tt.noStack {
				t.Errorf("NoStack = %v", got)
			}
			if diff := cmp.Diff(tt.skipped, dumps[0].Skipped); diff != "" {
				t.Errorf("skipped (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.partial, dumps[0].Partial); diff != "" {
				t.Errorf("partial (-want +got):\n%s", diff)
			}
		})
	}
}

// TestGoWaitReason: a wait reason the switch knows is the string the
// interner would give; one it does not know goes through the interner.
func TestGoWaitReason(t *testing.T) {
	in := newInterner()
	for _, r := range []string{"chan receive", "select", "sync.Mutex.Lock", "IO wait", "select (no cases)", "running", "cleanup wait", "a reason from Go 1.40"} {
		if got := goWaitReason([]byte(r), in); got != r {
			t.Errorf("goWaitReason(%q) = %q", r, got)
		}
	}
	if _, ok := in.strs["a reason from Go 1.40"]; !ok {
		t.Errorf("an unknown reason was not interned")
	}
}
