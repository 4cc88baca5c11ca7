package parse

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
)

func TestJFRTextTime(t *testing.T) {
	date := time.Date(2026, 12, 1, 10, 56, 8, 0, time.UTC)
	tests := []struct {
		name, clock string
		date, want  time.Time
	}{
		{"same second", "10:56:08.190", date, date.Add(190 * time.Millisecond)},
		{"another zone", "11:56:08.190", date, date},
		{"with its date", "10:56:08.190 (2026-12-01)", time.Time{}, date.Add(190 * time.Millisecond)},
		{"no date line", "10:56:08.190", time.Time{}, time.Time{}},
		{"not a clock", "N/A", date, date},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := jfrTextTime(tt.date, tt.clock); !got.Equal(tt.want) {
				t.Errorf("jfrTextTime(%v, %q) = %v, want %v", tt.date, tt.clock, got, tt.want)
			}
		})
	}
}

// TestJFRText: the events of jfr print's text form, a cut event, and an
// event whose result is no thread dump.
func TestJFRText(t *testing.T) {
	const dump = "2026-12-01 10:56:08\nFull thread dump OpenJDK 64-Bit Server VM (17.0.15+6 mixed mode):\n\n" +
		"\"main\" #1 prio=5 os_prio=0 tid=0x1 nid=0x2 waiting on condition  [0x3]\n" +
		"   java.lang.Thread.State: TIMED_WAITING (sleeping)\n" +
		"\tat java.lang.Thread.sleep(java.base@17.0.15/Native Method)\n\nJNI global refs: 1, weak refs: 0\n\n"
	in := "jdk.ThreadDump {\n  startTime = 10:56:08.190\n  result = \"" + dump + "\"\n}\n\n" +
		"jdk.ThreadDump {\n  startTime = 10:56:09.191\n  result = \"not a dump\n\"\n}\n\n" +
		"jdk.ThreadDump {\n  startTime = 10:56:10.192\n  result = \"" + strings.Replace(dump, "10:56:08", "10:56:10", 1)
	dumps, err := Parse("p.txt", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(dumps) != 3 {
		t.Fatalf("got %d dumps, want 3", len(dumps))
	}
	if d := dumps[0]; d.Format != FormatJFR || len(d.Threads) != 1 || len(d.Skipped) != 0 ||
		!d.Time.Equal(time.Date(2026, 12, 1, 10, 56, 8, 190e6, time.UTC)) || d.Source.Line != 1 {
		t.Errorf("event 1: %+v", d)
	}
	if d := dumps[1]; len(d.Threads) != 0 || len(d.Skipped) != 1 || d.Skipped[0].Line != 17 || d.Source.Line != 15 ||
		d.Skipped[0].Reason != "jdk.ThreadDump result is not a thread dump" {
		t.Errorf("event 2: %+v", d)
	}
	if d := dumps[2]; len(d.Threads) != 1 || !d.Time.Equal(time.Date(2026, 12, 1, 10, 56, 10, 192e6, time.UTC)) {
		t.Errorf("event 3 (cut before its closing lines): %+v", d)
	}
}

func TestClaimJFRJSON(t *testing.T) {
	for head, want := range map[string]bool{
		"{\n  \"recording\": {\n    \"events\": [{": true,
		`{"recording":{"events":[]}}`:               true,
		`{"threads":[]}`:                            false,
		`{"threadDump":{}}`:                         false,
		`[{"recording":1}]`:                         false,
	} {
		if got := claimJFRJSON([]byte(head)); got != want {
			t.Errorf("claimJFRJSON(%q) = %v, want %v", head, got, want)
		}
	}
	_, err := Parse("p.json", strings.NewReader(`{"recording": {"events": {}}}`))
	if se, ok := err.(*SyntaxError); !ok || !strings.Contains(se.Msg, "jfr print --json output at byte") {
		t.Errorf("bad shape: %v", err)
	}
}

// FuzzJFRPrint feeds jfr print's text and JSON outputs to Parse.
func FuzzJFRPrint(f *testing.F) {
	for _, name := range []string{"../testdata/jfr/stuck-pool.jfr.txt", "../testdata/jfr/stuck-pool.jfr.json"} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data[:min(len(data), 6<<10)])
	}
	f.Add([]byte("jdk.ThreadDump {\n  startTime = 10:56:08.190 (2026-12-01)\n  result = \"Full thread dump X:\n\"\n}\n"))
	f.Add([]byte(`{"recording": {"events": [{"type": "jdk.ThreadDump", "values": {"startTime": "2026-12-01T10:56:08Z", "result": "Full thread dump X:\n\"a\" #1 prio=5 tid=0x1 nid=0x2 runnable\n"}}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		dumps, _ := Parse("fuzz.jfr.txt", bytes.NewReader(data))
		checkDumps(t, dumps)
		checkLockFrames(t, dumps)
	})
}
