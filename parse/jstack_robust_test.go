package parse

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const jstackL = "../testdata/jvm/jstack-l.txt" // 29 threads; SMR block at line 4, first header at line 14

// TestJVMTextWithoutFullDumpLine checks pastes of a jstack dump that lost
// their first lines: the SMR block or the first thread header starts the dump.
func TestJVMTextWithoutFullDumpLine(t *testing.T) {
	tests := []struct {
		name     string
		from, to int // lines of jstack-l.txt
		prefix   string
		want     []dumpSummary
	}{
		{name: "from the SMR block", from: 4, want: []dumpSummary{{Line: 1, Threads: 29}}},
		{name: "cut inside the SMR block, from the first thread header", from: 7, want: []dumpSummary{{Line: 8, Threads: 29}}},
		{name: "from the first thread header", from: 14, want: []dumpSummary{{Line: 1, Threads: 29}}},
		{name: "from the second thread header, after log lines", from: 23,
			prefix: "10:00:00.001 INFO [main] \"quoted\" word in a log line\n\"GET /health HTTP/1.1\" 200 prio=high\n",
			want:   []dumpSummary{{Line: 3, Threads: 28}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := tt.prefix + cutLines(readInput(t, jstackL), tt.from, tt.to)
			dumps, err := Parse("x", strings.NewReader(in))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if diff := cmp.Diff(tt.want, summarize(dumps)); diff != "" {
				t.Errorf("dumps (-want +got):\n%s", diff)
			}
		})
	}
}

// TestJVMTextQuotedLogLinesAreNoDump checks that log lines starting with a
// quote do not pass for thread headers.
func TestJVMTextQuotedLogLinesAreNoDump(t *testing.T) {
	for _, in := range []string{
		"\"main\" started\n\tat nothing\n",
		"\"GET /health HTTP/1.1\" 200 prio=5 tid=12\n",
		"\"worker\" prio=5 nid=0x1 runnable\n", // no tid=0x
	} {
		_, err := Parse("x", strings.NewReader(in))
		var nd *NoDumpError
		if !errors.As(err, &nd) {
			t.Errorf("Parse(%q): err = %v, want a NoDumpError", in, err)
		}
	}
}
