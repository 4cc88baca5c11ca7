package parse

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestGoTextCapturesInOneFile checks where one Go text dump ends and the
// next begins when several crash tracebacks share a file.
func TestGoTextCapturesInOneFile(t *testing.T) {
	const (
		sigquit  = "../testdata/go/go1.26.8-sigquit.txt"                                        // 36 goroutines
		debug2   = "../testdata/go/go1.26.8-debug2.txt"                                         // 30 goroutines
		crash    = "testdata/go/go1.26.8-gotraceback-crash-sigquit.txt"                         // 14 goroutines, 6 Ms
		deadlock = corpusDir + "/go/dumpdiff-gen__go1.26.8__fatal-deadlock-gotraceback-all.txt" // 5 goroutines
		deadMsg  = "fatal error: all goroutines are asleep - deadlock!"
	)
	tests := []struct {
		name  string
		parts []string // file paths, or literal lines when not a path
		want  []dumpSummary
	}{
		{
			name:  "two SIGQUIT dumps appended are two dumps",
			parts: []string{sigquit, sigquit},
			want: []dumpSummary{
				{Line: 1, Kind: "sigquit", Threads: 36},
				{Line: -1, Kind: "sigquit", Threads: 36}, // -1: first line after the first part
			},
		},
		{
			name:  "a log line between two SIGQUIT dumps belongs to neither",
			parts: []string{sigquit, "2026/11/29 12:00:00 server restarted\n", sigquit},
			want: []dumpSummary{
				{Line: 1, Kind: "sigquit", Threads: 36},
				{Line: -1, Kind: "sigquit", Threads: 36},
			},
		},
		{
			name:  "two fatal errors with a log line between",
			parts: []string{deadlock, "log line\n", deadlock},
			want: []dumpSummary{
				{Line: 1, Kind: "panic", Headline: deadMsg, Threads: 5},
				{Line: -1, Kind: "panic", Headline: deadMsg, Threads: 5},
			},
		},
		{
			name:  "a SIGQUIT after a fatal error is a new dump",
			parts: []string{deadlock, sigquit},
			want: []dumpSummary{
				{Line: 1, Kind: "panic", Headline: deadMsg, Threads: 5},
				{Line: -1, Kind: "sigquit", Threads: 36},
			},
		},
		{
			name:  "GOTRACEBACK=crash: each M's SIGQUIT after ----- is the same dump",
			parts: []string{crash},
			want:  []dumpSummary{{Line: 1, Kind: "sigquit", Threads: 14}},
		},
		{
			// The go-profiler-notes console session (runtime.Stack output,
			// then ^\): the corpus counts one dump.
			name:  "a dump without prologue then SIGQUIT stays one dump",
			parts: []string{debug2, sigquit},
			want:  []dumpSummary{{Line: 1, Kind: "sigquit", Threads: 66}},
		},
		{
			// The shape of syzkaller reports: console log, "REPORT:", the
			// crash extracted from it. The corpus counts one dump.
			name:  "syzkaller REPORT: marker keeps one dump",
			parts: []string{deadlock, "REPORT:\n", deadlock},
			want:  []dumpSummary{{Line: 1, Kind: "panic", Headline: deadMsg, Threads: 10, Skipped: 1}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var in bytes.Buffer
			firstLen := 0 // line number of the first line after the first part
			for i, p := range tt.parts {
				if strings.HasSuffix(p, ".txt") {
					in.WriteString(readInput(t, filepath.FromSlash(p)))
				} else {
					in.WriteString(p)
				}
				if i == len(tt.parts)-2 {
					firstLen = lineCount(in.String()) + 1
				}
			}
			want := append([]dumpSummary(nil), tt.want...)
			for i := range want {
				if want[i].Line == -1 {
					want[i].Line = firstLen
				}
			}
			dumps, err := Parse("x", &in)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if diff := cmp.Diff(want, summarize(dumps)); diff != "" {
				t.Errorf("dumps (-want +got):\n%s", diff)
			}
		})
	}
}
