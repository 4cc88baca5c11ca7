package main

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestVersion: `dumpdiff version` and `--version` say the module version,
// the commit when the build has one, and the Go version.
func TestVersion(t *testing.T) {
	re := regexp.MustCompile(`^dumpdiff \S+( commit [0-9a-f]{1,12}(\+modified)?( \(\S+\))?)? go1\.\d+`)
	for _, args := range [][]string{{"version"}, {"--version"}} {
		code, out, errs := runArgs(t, args...)
		if code != 0 || !re.MatchString(out) {
			t.Errorf("%v: exit %d, %q %q", args, code, out, errs)
		}
	}
}

// TestDidYouMean: a mistyped subcommand is not read as a dump file.
func TestDidYouMean(t *testing.T) {
	for _, tt := range []struct{ arg, want string }{
		{"captur", `unknown command "captur": did you mean "capture"?`},
		{"pars", `did you mean "parse"?`},
		{"verison", `did you mean "version"?`},
	} {
		code, _, errs := runArgs(t, tt.arg)
		if code == 0 || !strings.Contains(errs, tt.want) {
			t.Errorf("%s: exit %d, stderr %q, want %q", tt.arg, code, errs, tt.want)
		}
	}
	// A real file whose name is close to a command is read as a dump.
	if code, _, errs := runArgs(t, "nonexistent-dump.txt"); code == 0 || strings.Contains(errs, "did you mean") {
		t.Errorf("a missing file: exit %d, %q", code, errs)
	}
}

// TestCompletion: through cobra's __complete, the main command and tui
// complete dump files and folders, and every enum flag its values.
func TestCompletion(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
		want []string // lines that must be in the output
	}{
		{"files for the main command", []string{"__complete", "testdata/scen"}, []string{":0"}},
		{"files for tui", []string{"__complete", "tui", "testdata/"}, []string{":0"}},
		{"format", []string{"__complete", "--format", ""}, []string{"text", "markdown", "json", ":4"}},
		{"parse format", []string{"__complete", "parse", "--format", ""}, []string{"text", "json"}},
		{"color", []string{"__complete", "--color", ""}, []string{"auto", "always", "never"}},
		{"sort", []string{"__complete", "--sort", ""}, []string{"args", "time"}},
		{"order", []string{"__complete", "--order", ""}, []string{"args", "time", ":4"}},
		{"watch alert", []string{"__complete", "watch", "--alert", ""}, []string{"critical", "warning", ":4"}},
		{"fail-on kinds and severities", []string{"__complete", "--fail-on", ""}, []string{"deadlock", "stuck", "db-pool-exhausted", "critical", "warning"}},
		{"pool-by label keys of the dumps given", []string{"__complete", "../../testdata/go/go1.26.8-tracebacklabels-debug2.txt", "--pool-by", ""},
			[]string{"label:", "label:job", "label:pool", "label:state"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := runArgs(t, tt.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			lines := strings.Split(strings.TrimSpace(out), "\n")
			for _, w := range tt.want {
				found := false
				for _, l := range lines {
					found = found || l == w
				}
				if !found {
					t.Errorf("completion lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestParseFlags: parse takes the same -f as the main command, in any case.
func TestParseFlags(t *testing.T) {
	for _, args := range [][]string{{"parse", "-f", "json"}, {"parse", "--format", "JSON"}} {
		code, out, errs := runArgs(t, append(args, "../../testdata/jvm/jstack-l.txt")...)
		if code != 0 || !strings.HasPrefix(strings.TrimSpace(out), "[") {
			t.Errorf("%v: exit %d, %.80q %s", args, code, out, errs)
		}
	}
	if code, _, errs := runArgs(t, "parse", "-f", "yaml", "../../testdata/jvm/jstack-l.txt"); code == 0 || !strings.Contains(errs, `unknown --format "yaml": want text or json`) {
		t.Errorf("parse -f yaml: exit %d, %s", code, errs)
	}
}

// TestMixedRuntimesJSON: Go and JVM dumps together warn on stderr, and the JSON
// is the several-analyses document whichever order they come in.
func TestMixedRuntimesJSON(t *testing.T) {
	goDump, jvmDump := "../../testdata/go/go1.26.8-debug2.txt", "../../testdata/jvm/jstack-l.txt"
	for _, args := range [][]string{{goDump, jvmDump}, {jvmDump, goDump}} {
		code, out, errs := runArgs(t, append([]string{"--format", "json"}, args...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		if !strings.Contains(errs, "the dumps come from different runtimes") {
			t.Errorf("%v: no warning: %q", args, errs)
		}
		var doc struct {
			Analyses []json.RawMessage `json:"analyses"`
			Findings []struct {
				Runtime string `json:"runtime"`
				Kind    string `json:"kind"`
			} `json:"findings"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Analyses) != 2 {
			t.Fatalf("%v: not the several-analyses document: %v", args, err)
		}
		// .findings[] reads as in a report of one analysis, each finding
		// naming its runtime: the JVM dump's deadlock is there.
		found := false
		for _, f := range doc.Findings {
			found = found || f.Runtime == "jvm" && f.Kind == "deadlock"
		}
		if !found {
			t.Errorf("%v: top-level findings lack the JVM deadlock: %+v", args, doc.Findings)
		}
	}
}

// TestCaptureFlagErrors: capture's flag values get the same clear errors.
func TestCaptureFlagErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"capture", "--pid", "abc", "--out", t.TempDir()}, `--pid "abc": want a process id (a whole number above 0)`},
		{[]string{"capture", "--pid", "-3", "--out", t.TempDir()}, `--pid "-3": want a process id`},
		{[]string{"capture", "--pid", "1", "--analyze", "--fail-on", "bogus", "--out", t.TempDir()}, `unknown --fail-on "bogus"`},
		{[]string{"capture", "--pid", "1", "--analyze", "--color", "pink", "--out", t.TempDir()}, `unknown --color "pink"`},
	} {
		code, _, errs := runArgs(t, tt.args...)
		if code == 0 || !strings.Contains(errs, tt.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tt.args, code, errs, tt.want)
		}
	}
}

// TestWatchFlagErrors: watch refuses bad flags before it captures or
// creates anything.
func TestWatchFlagErrors(t *testing.T) {
	dir := t.TempDir()
	file := dir + "/file"
	os.WriteFile(file, nil, 0o644)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"watch", "--pid", "1"}, "--out DIR is required"},
		{[]string{"watch", "13428", "--out", dir + "/g"}, `"13428" is not a URL: did you mean --pid 13428?`},
		{[]string{"capture", "13428", "--out", dir + "/h"}, `"13428" is not a URL: did you mean --pid 13428?`},
		{[]string{"watch", "--out", dir + "/a"}, "nothing to capture"},
		{[]string{"watch", "--pid", "1", "--out", dir + "/b", "--alert", "page"}, `unknown --alert "page": want critical or warning`},
		{[]string{"watch", "--pid", "1", "--out", dir + "/c", "--max-bytes", "lots"}, `--max-bytes "lots": want a size`},
		{[]string{"watch", "--pid", "1", "--out", dir + "/d", "--every", "1ms"}, "--every must be at least 10ms"},
		{[]string{"watch", "--pid", "1", "--out", file + "/e"}, "not a directory"},
		{[]string{"watch", "--pid", "1", "--out", dir + "/f", "--listen", "127.0.0.1:99999"}, "--listen 127.0.0.1:99999"},
	} {
		code, _, errs := runArgs(t, tt.args...)
		if code == 0 || !strings.Contains(errs, tt.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tt.args, code, errs, tt.want)
		}
	}
	for _, sub := range []string{"a", "b", "c", "d", "f", "g", "h"} {
		if _, err := os.Stat(dir + "/" + sub); err == nil {
			t.Errorf("a refused watch created %s", sub)
		}
	}
}

// TestParseStatsPrefix: parse --stats says what was stripped from a
// collected dump's lines (real kill -3 and SIGQUIT output, testdata/pasted).
func TestParseStatsPrefix(t *testing.T) {
	code, out, errs := runArgs(t, "parse", "--stats", "../../testdata/pasted/go-sigquit.kubectl.log", "../../testdata/pasted/go-sigquit.indent4.md")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{`go-sigquit.kubectl.log format=go-text threads=22 skipped=0 prefix="kubectl --timestamps"`, "go-sigquit.indent4.md format=go-text threads=22 skipped=0 prefix=indent"} {
		if !strings.Contains(out, want) {
			t.Errorf("stats lack %q:\n%s", want, out)
		}
	}
}

// TestParseStatsExcerpt: parse --stats says a dump that starts in its
// middle is an excerpt (a javacore excerpt of OpenJ9's documentation,
// testdata/formats), and says nothing of a whole one.
func TestParseStatsExcerpt(t *testing.T) {
	code, out, errs := runArgs(t, "parse", "--stats", "../../testdata/formats/openj9-docs__javacore-deadlock-excerpt.txt",
		"../../testdata/formats/intellij__simple-deadlock.txt")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"openj9-docs__javacore-deadlock-excerpt.txt format=jvm-javacore threads=3 skipped=0 excerpt\n",
		"intellij__simple-deadlock.txt format=jvm-text threads=10 skipped=0\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("stats lack %q:\n%s", want, out)
		}
	}
}

// TestFlagValueErrors: a value a flag cannot read says what the flag wants,
// not strconv's or time's message.
func TestFlagValueErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"capture", "--count", "abc", "--out", t.TempDir()}, `--count "abc": want a whole number`},
		{[]string{"capture", "--every", "5", "--out", t.TempDir()}, `--every "5": want a duration with its unit, such as 500ms, 10s or 2m`},
		{[]string{"capture", "--max-pause", "fast", "--out", t.TempDir()}, `--max-pause "fast": want a duration`},
	} {
		code, _, errs := runArgs(t, tt.args...)
		if code == 0 || !strings.Contains(errs, tt.want) || strings.Contains(errs, "strconv") || strings.Contains(errs, "time: ") {
			t.Errorf("%v: exit %d, stderr %q, want %q", tt.args, code, errs, tt.want)
		}
	}
}
