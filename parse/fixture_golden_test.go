package parse

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// fixtureNow is Options.Now for the committed fixtures: journalctl's short
// output prints no year, and the fixtures were written on 2026-12-01.
var fixtureNow = time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)

// fixtureDirs are the real dumps of the Actuator, JFR and pasted-dump
// generators (testdata/gen/{actuator,jfr,pasted}); their goldens are in
// testdata/golden/DIR/NAME.canonical.
var fixtureDirs = []string{"../testdata/jvm/actuator", "../testdata/jfr", "../testdata/pasted"}

// TestFixtureGolden parses every fixture but the .jfr recordings (which
// need the jfr tool: TestJFRRecording) and compares its canonical form with
// its golden; -update rewrites them.
func TestFixtureGolden(t *testing.T) {
	for _, dir := range fixtureDirs {
		files, err := filepath.Glob(filepath.Join(dir, "*"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no fixtures in %s (%v)", dir, err)
		}
		for _, path := range files {
			name := filepath.Base(path)
			if name == "README.md" || strings.HasSuffix(name, ".jfr") {
				continue
			}
			t.Run(filepath.Base(dir)+"/"+name, func(t *testing.T) {
				dumps, err := Options{Now: fixtureNow}.ParseFile(path)
				if err != nil {
					t.Fatal(err)
				}
				for _, d := range dumps {
					d.Source.File = name
				}
				checkGolden(t, filepath.Join("testdata/golden", filepath.Base(dir), name+".canonical"), dumps)
			})
		}
	}
}

// TestPastedVariants: every collected, pasted or re-encoded form of the two
// real dumps gives the same threads as the program's own output (for the
// journal, which holds another run: its messages alone), with the
// prefix named, the prefix's time when the dump prints none, and nothing
// skipped but lines of another stream or process.
func TestPastedVariants(t *testing.T) {
	const dir = "../testdata/pasted"
	tests := []struct {
		file, base, prefix string
		time               string // RFC 3339 of Dump.Time; "" for "the base dump's time"
	}{
		{"go-sigquit.docker.log", "go-sigquit.stderr.txt", "docker json-file", "prefix"},
		{"go-sigquit.cri.log", "go-sigquit.stderr.txt", "cri", "prefix"},
		{"go-sigquit.kubectl.log", "go-sigquit.stderr.txt", "kubectl --timestamps", "prefix"},
		{"go-sigquit.journal-short.log", "go-sigquit.journal-cat.txt", "syslog", "prefix"},
		{"go-sigquit.journal-short-precise.log", "go-sigquit.journal-cat.txt", "syslog", "prefix"},
		{"go-sigquit.indent4.md", "go-sigquit.stderr.txt", "indent", ""},
		{"go-sigquit.tab.txt", "go-sigquit.stderr.txt", "indent", ""},
		{"go-sigquit.quote.txt", "go-sigquit.stderr.txt", "quote", ""},
		{"go-sigquit.utf8-bom.txt", "go-sigquit.stderr.txt", "", ""},
		{"jvm-kill3.docker.log", "jvm-kill3.stdout.txt", "docker json-file", ""},
		{"jvm-kill3.cri.log", "jvm-kill3.stdout.txt", "cri", ""},
		{"jvm-kill3.kubectl.log", "jvm-kill3.stdout.txt", "kubectl --timestamps", ""},
		{"jvm-kill3.journal-short.log", "jvm-kill3.journal-cat.txt", "syslog", ""},
		{"jvm-kill3.journal-short-iso.log", "jvm-kill3.journal-cat.txt", "syslog", ""},
		{"jvm-kill3.indent4.md", "jvm-kill3.stdout.txt", "indent", ""},
		{"jvm-kill3.quote.txt", "jvm-kill3.stdout.txt", "quote", ""},
		{"jvm-kill3.utf16le-bom-crlf.txt", "jvm-kill3.stdout.txt", "", ""},
		{"jvm-kill3.utf16be-bom.txt", "jvm-kill3.stdout.txt", "", ""},
	}
	bases := map[string]*Dump{}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			base := bases[tt.base]
			if base == nil {
				ds, err := ParseFile(filepath.Join(dir, tt.base))
				if err != nil || len(ds) != 1 || ds[0].Prefix != "" {
					t.Fatalf("%s: %v, %d dumps, want 1", tt.base, err, len(ds))
				}
				base = ds[0]
				bases[tt.base] = base
			}
			dumps, err := Options{Now: fixtureNow}.ParseFile(filepath.Join(dir, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if len(dumps) != 1 {
				t.Fatalf("got %d dumps, want 1", len(dumps))
			}
			d := dumps[0]
			if d.Prefix != tt.prefix || d.Format != base.Format {
				t.Errorf("prefix %q, format %s; want %q, %s", d.Prefix, d.Format, tt.prefix, base.Format)
			}
			if diff := cmp.Diff(viewThreads(base), viewThreads(d)); diff != "" {
				t.Errorf("threads differ from %s (-base +variant):\n%s", tt.base, diff)
			}
			switch {
			case tt.time == "prefix" && (d.Time.IsZero() || d.Time.Year() != 2026):
				t.Errorf("time %v: want the time of the first line's prefix", d.Time)
			case tt.time == "" && !d.Time.Equal(base.Time):
				t.Errorf("time %v, want the dump's own %v", d.Time, base.Time)
			}
			for _, s := range d.Skipped {
				if s.Line <= 0 || !strings.Contains(s.Text, "tick") && !strings.Contains(s.Text, "cron[") {
					t.Errorf("skipped %d %q (%s): only the other stream's or process's lines may be", s.Line, s.Text, s.Reason)
				}
			}
		})
	}
}

// TestJFRRecording reads the committed recording with the JDK's jfr tool
// (skipped without it) and checks it gives the events of its saved JSON
// output, times included.
func TestJFRRecording(t *testing.T) {
	if _, err := (Options{}).findJFR(); err != nil {
		t.Skipf("no jfr tool (%v): the recording is read through its saved outputs only", err)
	}
	got, err := ParseFile("../testdata/jfr/stuck-pool.jfr")
	if err != nil {
		t.Fatal(err)
	}
	want, err := ParseFile("../testdata/jfr/stuck-pool.jfr.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) || len(got) < 5 {
		t.Fatalf("got %d events, want %d (at least 5)", len(got), len(want))
	}
	for i := range got {
		if !got[i].Time.Equal(want[i].Time) || got[i].Format != FormatJFR {
			t.Errorf("event %d: time %v format %s, want %v %s", i, got[i].Time, got[i].Format, want[i].Time, FormatJFR)
		}
		if diff := cmp.Diff(viewThreads(want[i]), viewThreads(got[i])); diff != "" {
			t.Errorf("event %d differs from the saved JSON (-json +jfr):\n%s", i, diff)
		}
	}
}

// TestJFRPrintForms: the text and JSON outputs of jfr print give the same
// events: the text's times (date line and start time) to the millisecond.
func TestJFRPrintForms(t *testing.T) {
	text, err := ParseFile("../testdata/jfr/stuck-pool.jfr.txt")
	if err != nil {
		t.Fatal(err)
	}
	js, err := ParseFile("../testdata/jfr/stuck-pool.jfr.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(text) != len(js) || len(js) < 5 {
		t.Fatalf("text %d events, JSON %d (want at least 5)", len(text), len(js))
	}
	for i := range js {
		if text[i].Format != FormatJFR || len(text[i].Skipped)+len(js[i].Skipped) != 0 {
			t.Errorf("event %d: format %s, skipped %v %v", i, text[i].Format, text[i].Skipped, js[i].Skipped)
		}
		if d := js[i].Time.Sub(text[i].Time); d < 0 || d >= time.Millisecond {
			t.Errorf("event %d: text time %v, JSON %v", i, text[i].Time, js[i].Time)
		}
		if diff := cmp.Diff(viewThreads(js[i]), viewThreads(text[i])); diff != "" {
			t.Errorf("event %d (-json +text):\n%s", i, diff)
		}
	}
}

// TestJFRTool runs ParseFile on a recording with a stand-in jfr (a shell
// script that prints the saved JSON), so the command path is tested on
// every machine: what is run, what a failing jfr says, what a missing one
// says.
func TestJFRTool(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	rec := filepath.Join(dir, "r.jfr")
	if err := os.WriteFile(rec, []byte("FLR\x00\x00\x02\x00\x01rest of a recording"), 0o644); err != nil {
		t.Fatal(err)
	}
	json, _ := filepath.Abs("../testdata/jfr/stuck-pool.jfr.json")
	fake := func(name, script string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"+script), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	args := filepath.Join(dir, "args")
	good := fake("jfr", `echo "$@" > `+args+`; cat `+json+"\n")
	dumps, err := Options{JFR: good}.ParseFile(rec)
	if err != nil || len(dumps) < 5 || dumps[0].Format != FormatJFR {
		t.Fatalf("got %d dumps, %v", len(dumps), err)
	}
	if b, _ := os.ReadFile(args); strings.TrimSpace(string(b)) != "print --json --events jdk.ThreadDump "+rec {
		t.Errorf("jfr ran with %q", b)
	}
	// From a stream: copied to a temporary file first.
	f, _ := os.Open(rec)
	defer f.Close()
	if dumps, err := (Options{JFR: good}).Parse("-", f); err != nil || len(dumps) < 5 {
		t.Errorf("from a stream: %d dumps, %v", len(dumps), err)
	}

	bad := fake("jfr-bad", "echo 'jfr print: Not a valid Flight Recorder file' >&2; exit 1\n")
	if _, err := (Options{JFR: bad}).ParseFile(rec); err == nil || !strings.Contains(err.Error(), "Not a valid Flight Recorder file") {
		t.Errorf("failing jfr: %v", err)
	}
	empty := fake("jfr-empty", `echo '{"recording": {"events": []}}'`+"\n")
	if _, err := (Options{JFR: empty}).ParseFile(rec); err == nil || !strings.Contains(err.Error(), "without jdk.ThreadDump events") {
		t.Errorf("no thread dump events: %v", err)
	}
	if _, err := (Options{JFR: filepath.Join(dir, "none")}).ParseFile(rec); err == nil || !strings.Contains(err.Error(), "jfr tool") {
		t.Errorf("missing Options.JFR: %v", err)
	}
	notFound := func(string) (string, error) { return "", exec.ErrNotFound }
	if _, err := lookupJFR(notFound, ""); err == nil || !strings.Contains(err.Error(), "install a JDK") {
		t.Errorf("no jfr anywhere: %v", err)
	}
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, "bin"), 0o755)
	os.WriteFile(filepath.Join(home, "bin", "jfr"), nil, 0o755)
	if p, err := lookupJFR(notFound, home); err != nil || p != filepath.Join(home, "bin", "jfr") {
		t.Errorf("jfr under JAVA_HOME: %q, %v", p, err)
	}
}
