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

const hikariDuring1 = "../testdata/scenarios/hikari-pool-exhausted/during-1.txt" // jstack -l, 36 threads

// TestJVMTextBadThreadLines checks frame and lock lines that do not parse:
// each is recorded in Skipped, and the thread goes on after it.
func TestJVMTextBadThreadLines(t *testing.T) {
	const parkCut = "\t- parking to wait for  <0x00000000e0227178> (a java.util.concurrent"
	tests := []struct {
		name  string
		input func(t *testing.T) string
		want  dumpSummary
		// skipped are the dump's Skipped entries.
		skipped []Skipped
		// thread, when set, names a thread whose frames and locks must equal
		// those of the same thread in the intact jstack-l.txt.
		thread string
	}{
		{
			name:    "frame line cut at end of input (head -c 20000)",
			input:   func(t *testing.T) string { return readInput(t, hikariDuring1)[:20000] },
			want:    dumpSummary{Line: 1, Threads: 19, Skipped: 1},
			skipped: []Skipped{{Line: 294, Text: "\tat java.util.con", Reason: "line cut at end of input; " + truncatedReason}},
		},
		{
			name: "lock line cut at end of input",
			input: func(t *testing.T) string {
				s := readInput(t, hikariDuring1)
				return s[:strings.Index(s, parkCut)+len(parkCut)]
			},
			want:    dumpSummary{Line: 1, Threads: 17, Skipped: 1},
			skipped: []Skipped{{Line: 217, Text: parkCut, Reason: "line cut at end of input; " + truncatedReason}},
		},
		{
			name: "a bad frame and a bad lock line inside a stack",
			input: func(t *testing.T) string {
				s := readInput(t, jstackL)
				return cutLines(s, 1, 94) + "\tat java.util.con\n\t- locked <0x1234> (a java.util.concurrent\n" + cutLines(s, 95, 0)
			},
			want: dumpSummary{Line: 1, Threads: 29, Skipped: 2},
			skipped: []Skipped{
				{Line: 95, Text: "\tat java.util.con", Reason: "frame line not understood"},
				{Line: 96, Text: "\t- locked <0x1234> (a java.util.concurrent", Reason: "lock line not understood"},
			},
			thread: "Common-Cleaner",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dumps, err := Parse("x", strings.NewReader(tt.input(t)))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if diff := cmp.Diff([]dumpSummary{tt.want}, summarize(dumps)); diff != "" {
				t.Fatalf("dumps (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.skipped, dumps[0].Skipped); diff != "" {
				t.Errorf("skipped (-want +got):\n%s", diff)
			}
			if tt.thread == "" {
				return
			}
			intact, err := Parse("x", strings.NewReader(readInput(t, jstackL)))
			if err != nil {
				t.Fatal(err)
			}
			want, got := threadNamed(intact[0], tt.thread), threadNamed(dumps[0], tt.thread)
			if want == nil || got == nil || len(want.Frames) == 0 {
				t.Fatalf("thread %q: intact %v, damaged %v", tt.thread, want, got)
			}
			if diff := cmp.Diff(want.Frames, got.Frames); diff != "" {
				t.Errorf("frames of %q (-intact +damaged):\n%s", tt.thread, diff)
			}
			if diff := cmp.Diff(want.Locks(), got.Locks()); diff != "" {
				t.Errorf("locks of %q (-intact +damaged):\n%s", tt.thread, diff)
			}
		})
	}
}

// TestJVMLockLineCut checks lock lines that lost their end: no lock is made
// of them.
func TestJVMLockLineCut(t *testing.T) {
	for _, in := range []string{
		"parking to wait for  <0x00000000e0227178> (a java.util.concurrent",
		"parking to wait for  <0x00000000e0227178> (",
		"locked <0x00000000e0227178> (a",
		"waiting on <0x00000000d7338608",
	} {
		if l, ok := parseLockLine([]byte(in), newInterner(), false); ok {
			t.Errorf("parseLockLine(%q) = %+v, true; want false", in, l)
		}
	}
	// A shell prompt echoed into the middle of a line (tda's jstack.log,
	// line 64): the line still ends with its class.
	const prompt = "waiting on <0x00000000d7338608> irockel@spunky:~/Entwicklung/tda/tda-git/tda/dist$ (a java.lang.ref.ReferenceQueue$Lock)"
	want := Lock{Kind: LockWaitingOn, Address: "0x00000000d7338608", Class: "java.lang.ref.ReferenceQueue$Lock"}
	l, ok := parseLockLine([]byte(prompt), newInterner(), false)
	if diff := cmp.Diff(want, l); !ok || diff != "" {
		t.Errorf("parseLockLine(%q) ok=%v (-want +got):\n%s", prompt, ok, diff)
	}
}

func threadNamed(d *Dump, name string) *Thread {
	for _, th := range d.Threads {
		if th.Name() == name {
			return th
		}
	}
	return nil
}

// catalinaLog is a real Tomcat log with three kill -3 dumps of 35 threads:
// date lines 35, 390, 737; JNI lines 347, 702, 1049. Its second dump's
// thread "http-nio-8080-exec-2" has its header at line 499 and its state
// line at 500, after the blank line 498 that ends the thread before it.
const catalinaLog = corpusDir + "/jvm/dumpdiff-gen__openjdk-17.0.15__catalina-out-log-with-3-sigquit-dumps.log"

// TestJVMTextTruncated checks that a dump cut in the middle of a thread
// says so in Skipped, and that a dump that merely prints no JNI line does not.
func TestJVMTextTruncated(t *testing.T) {
	const state500 = "   java.lang.Thread.State: TIMED_WAITING (sleeping)"
	header499 := func(t *testing.T) string {
		return strings.TrimSuffix(cutLines(readInput(t, catalinaLog), 499, 499), "\n")
	}
	tests := []struct {
		name    string
		input   func(t *testing.T) string
		want    []dumpSummary
		skipped func(t *testing.T) []Skipped // of all dumps, in order
	}{
		{
			name:    "kill -3 log cut at line 500, inside a thread",
			input:   func(t *testing.T) string { return cutLines(readInput(t, catalinaLog), 1, 500) },
			want:    []dumpSummary{{Line: 35, Threads: 35}, {Line: 390, Threads: 15, Skipped: 1}},
			skipped: func(*testing.T) []Skipped { return []Skipped{{Line: 500, Text: state500, Reason: truncatedReason}} },
		},
		{
			name: "cut dump followed by the next dump",
			input: func(t *testing.T) string {
				s := readInput(t, catalinaLog)
				return cutLines(s, 1, 500) + cutLines(s, 737, 0)
			},
			want:    []dumpSummary{{Line: 35, Threads: 35}, {Line: 390, Threads: 15, Skipped: 1}, {Line: 501, Threads: 35}},
			skipped: func(*testing.T) []Skipped { return []Skipped{{Line: 500, Text: state500, Reason: truncatedReason}} },
		},
		{
			name:  "cut after a Java thread's header",
			input: func(t *testing.T) string { return cutLines(readInput(t, catalinaLog), 1, 499) },
			want:  []dumpSummary{{Line: 35, Threads: 35}, {Line: 390, Threads: 15, Skipped: 1}},
			skipped: func(t *testing.T) []Skipped {
				return []Skipped{{Line: 499, Text: header499(t), Reason: truncatedReason}}
			},
		},
		{
			name: "cut inside a Java thread's header: no thread is made of it",
			input: func(t *testing.T) string {
				return cutLines(readInput(t, catalinaLog), 1, 498) + header499(t)[:40]
			},
			want: []dumpSummary{{Line: 35, Threads: 35}, {Line: 390, Threads: 14, Skipped: 1}},
			skipped: func(t *testing.T) []Skipped {
				return []Skipped{{Line: 499, Text: header499(t)[:40], Reason: "line cut at end of input; " + truncatedReason}}
			},
		},
		{
			name: "whole header as last line without newline: kept, dump flagged",
			input: func(t *testing.T) string {
				return cutLines(readInput(t, catalinaLog), 1, 498) + header499(t)
			},
			want: []dumpSummary{{Line: 35, Threads: 35}, {Line: 390, Threads: 15, Skipped: 1}},
			skipped: func(t *testing.T) []Skipped {
				return []Skipped{{Line: 499, Text: header499(t), Reason: truncatedReason}}
			},
		},
		{
			name:    "cut at the blank line between threads: nothing to tell",
			input:   func(t *testing.T) string { return cutLines(readInput(t, catalinaLog), 1, 498) },
			want:    []dumpSummary{{Line: 35, Threads: 35}, {Line: 390, Threads: 14}},
			skipped: func(*testing.T) []Skipped { return nil },
		},
		{
			name: "complete dump without a final newline",
			input: func(t *testing.T) string {
				return strings.TrimRight(readInput(t, jstackL), "\n")
			},
			want:    []dumpSummary{{Line: 1, Threads: 29}},
			skipped: func(*testing.T) []Skipped { return nil },
		},
		{
			name: "paste without Full thread dump line, cut in a frame: only the cut line",
			input: func(t *testing.T) string {
				s := cutLines(readInput(t, jstackL), 14, 27) // "main" and "Reference Handler" up to its third frame
				return s[:len(s)-20]
			},
			want: []dumpSummary{{Line: 1, Threads: 2, Skipped: 1}},
			skipped: func(t *testing.T) []Skipped {
				line := strings.TrimSuffix(cutLines(readInput(t, jstackL), 27, 27), "\n")
				return []Skipped{{Line: 14, Text: line[:len(line)-19], Reason: "line cut at end of input"}}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dumps, err := Parse("x", strings.NewReader(tt.input(t)))
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
			if diff := cmp.Diff(tt.skipped(t), got); diff != "" {
				t.Errorf("skipped (-want +got):\n%s", diff)
			}
		})
	}
}
