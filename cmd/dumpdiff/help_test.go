package main

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os/exec"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/dumpdiff/dumpdiff/internal/javatest"
	"github.com/dumpdiff/dumpdiff/tui"
)

// TestRootHelpShowsExamples: the first help a new user reads says that a
// folder is an input and shows the main job, a ticket format and the TUI.
func TestRootHelpShowsExamples(t *testing.T) {
	code, out, errs := runArgs(t, "--help")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"DUMP|FOLDER...", "Examples:", "dumpdiff before.txt during.txt after.txt", "dumpdiff tui ", "-f markdown", "time"} {
		if !strings.Contains(out, want) {
			t.Errorf("root --help lacks %q:\n%s", want, out)
		}
	}
}

// TestTUIHelpNamesEveryKey: tui --help lists the keys of the TUI's own key
// map (the footer's and the help screen's source), so it cannot drift.
func TestTUIHelpNamesEveryKey(t *testing.T) {
	code, out, errs := runArgs(t, "tui", "--help")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	keys := strings.Split(strings.TrimRight(tui.KeysText(), "\n"), "\n")
	if len(keys) < 15 {
		t.Fatalf("the key map lists %d keys:\n%s", len(keys), tui.KeysText())
	}
	for _, k := range keys {
		if !strings.Contains(out, k) {
			t.Errorf("tui --help lacks the key line %q", k)
		}
	}
	for _, k := range []string{"compare stacks", "export Markdown", "filter", "next target"} {
		if !strings.Contains(out, k) {
			t.Errorf("tui --help lacks %q", k)
		}
	}
}

// TestMistypedFlagSuggestsProperty: every flag of every command, mistyped by
// one random edit (a letter dropped, doubled, swapped or replaced), gets a
// suggestion of a flag within that distance, and the suggestion names the
// intended flag whenever no other flag is as close; a flag of another
// command names that command. Nothing is suggested for a word far from
// every flag.
func TestMistypedFlagSuggestsProperty(t *testing.T) {
	root := newRootCmd()
	rng := rand.New(rand.NewPCG(31, 34))
	cmds := append([]*cobra.Command{root}, root.Commands()...)
	tried := 0
	for _, c := range cmds {
		var names []string
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden && f.Name != "help" && len(f.Name) >= 4 {
				names = append(names, f.Name)
			}
		})
		for _, name := range names {
			for range 4 {
				typo := mistype(rng, name)
				if c.Flags().Lookup(typo) != nil {
					continue // the edit made another real flag
				}
				tried++
				err := unknownFlag(c, fmt.Errorf("unknown flag: --%s", typo))
				if err == nil {
					t.Errorf("%s --%s (for --%s): no suggestion", c.CommandPath(), typo, name)
					continue
				}
				// The intended flag, unless another is at least as close.
				ambiguous := false
				c.Flags().VisitAll(func(f *pflag.Flag) {
					ambiguous = ambiguous || (f.Name != name && !f.Hidden && editDistance(typo, f.Name) <= editDistance(typo, name))
				})
				if !ambiguous && !strings.Contains(err.Error(), "did you mean --"+name+"?") {
					t.Errorf("%s --%s: %v, want --%s", c.CommandPath(), typo, err, name)
				}
			}
		}
	}
	if tried < 100 {
		t.Errorf("only %d typos tried", tried)
	}
	if err := unknownFlag(root, fmt.Errorf("unknown flag: --zzzzzzzz")); err != nil {
		t.Errorf("a word far from every flag got %v", err)
	}
	if err := unknownFlag(root, fmt.Errorf("unknown flag: --pid")); err == nil || !strings.Contains(err.Error(), "dumpdiff capture") {
		t.Errorf("--pid given to the main command: %v, want it named a flag of capture", err)
	}
	code, _, errs := runArgs(t, "--fromat", "json", "x.txt")
	if code == 0 || !strings.Contains(errs, "did you mean --format?") {
		t.Errorf("--fromat: exit %d, %s", code, errs)
	}
}

// mistype makes one random edit in s.
func mistype(rng *rand.Rand, s string) string {
	b := []byte(s)
	i := rng.IntN(len(b))
	switch rng.IntN(4) {
	case 0: // dropped
		return string(append(b[:i:i], b[i+1:]...))
	case 1: // doubled
		return string(append(b[:i+1:i+1], b[i:]...))
	case 2: // swapped with the next
		if i+1 < len(b) {
			b[i], b[i+1] = b[i+1], b[i]
		}
		return string(b)
	default: // replaced
		b[i] = "abcdefghijklmnopqrstuvwxyz"[rng.IntN(26)]
		return string(b)
	}
}

// TestCaptureRefusesMomentFlags: capture names and orders its moments
// itself; --labels and --order there are refused (before anything is
// dumped), and hidden from its help.
func TestCaptureRefusesMomentFlags(t *testing.T) {
	out := t.TempDir() + "/dumps"
	for _, args := range [][]string{{"--labels", "a,b"}, {"--order", "args"}, {"--sort", "time"}} {
		code, _, errs := runArgs(t, append([]string{"capture", "--out", out, "http://127.0.0.1:1/"}, args...)...)
		if code == 0 || !strings.Contains(errs, "means nothing to capture") {
			t.Errorf("capture %v: exit %d, %s", args, code, errs)
		}
	}
	_, help, _ := runArgs(t, "capture", "--help")
	for _, f := range momentFlags {
		if strings.Contains(help, "--"+f+" ") {
			t.Errorf("capture --help shows --%s", f)
		}
	}
}

// TestSizesTakeUnits: --max-size takes the units --max-bytes and
// --min-free take; a bare number is still MiB.
func TestSizesTakeUnits(t *testing.T) {
	for in, want := range map[string]int64{"512MiB": 512 << 20, "1GiB": 1 << 30, "64": 64 << 20, "100KiB": 100 << 10} {
		got, err := parseSizeUnit("--max-size", in, 1<<20)
		if err != nil || got != want {
			t.Errorf("--max-size %s: %d, %v; want %d", in, got, err, want)
		}
	}
	if _, err := parseSizeUnit("--max-size", "lots", 1<<20); err == nil || !strings.Contains(err.Error(), "512MiB") {
		t.Errorf("--max-size lots: %v", err)
	}
	_, help, _ := runArgs(t, "capture", "--help")
	if !strings.Contains(help, `(default "512MiB")`) {
		t.Errorf("capture --help does not show --max-size in MiB units")
	}
}

// TestVersionWithoutVCS: a build without the toolchain's VCS stamp says
// the commit the linker stamped (make build), and the toolchain's wins.
func TestVersionWithoutVCS(t *testing.T) {
	defer func(c, ct string) { commit, commitTime = c, ct }(commit, commitTime)
	commit, commitTime = "0123456789ab+modified", "2026-12-06T12:00:00Z"
	bi := &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, GoVersion: "go1.26"}
	if got := versionFrom(bi, true); got != "dumpdiff (devel) commit 0123456789ab+modified (2026-12-06T12:00:00Z) go1.26" {
		t.Errorf("stamped: %q", got)
	}
	bi.Settings = []debug.BuildSetting{{Key: "vcs.revision", Value: "fedcba9876543210"}}
	if got := versionFrom(bi, true); !strings.Contains(got, "commit fedcba987654 ") && !strings.HasSuffix(got, "commit fedcba987654 go1.26") {
		t.Errorf("the toolchain's stamp: %q", got)
	}
	commit = ""
	if got := versionFrom(nil, false); !strings.Contains(got, "no build info") {
		t.Errorf("no build info: %q", got)
	}
}

// TestCaptureFailsFast: capture of a port nothing listens on stops after
// its first moment, exit 1, says the refusal once and no "captured in",
// and the same command runs again in the same folder; --keep-trying runs
// the whole schedule.
func TestCaptureFailsFast(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + l.Addr().String()
	l.Close()
	out := t.TempDir() + "/dumps"
	for range 2 {
		code, _, errs := runArgs(t, "capture", url, "--every", "1ms", "--count", "4", "--out", out)
		if code != 1 || !strings.Contains(errs, "stopped after the first moment") || strings.Contains(errs, "captured is in") ||
			strings.Count(errs, "connection refused") != 1 || strings.Contains(errs, "moment 2") || strings.Contains(errs, "already holds") {
			t.Fatalf("exit %d:\n%s", code, errs)
		}
	}
	code, _, errs := runArgs(t, "capture", url, "--every", "1ms", "--count", "3", "--out", out, "--keep-trying")
	if code != 1 || !strings.Contains(errs, "moment 3") || !strings.Contains(errs, "as at 1 (refused)") {
		t.Fatalf("--keep-trying: exit %d:\n%s", code, errs)
	}
}

// TestPidCompletesJVMs: --pid completes the JVMs of this machine (a JVM
// the test starts is offered, with its command line) and nothing else (a
// sleep the test starts is not).
func TestPidCompletesJVMs(t *testing.T) {
	jvm := javatest.OnPath(t).StartSource(t, "Idle", `public class Idle {
	public static void main(String[] a) throws Exception {
		System.out.println("ready");
		System.in.read();
	}
}`, []string{"-Xmx32m"})
	sleep := exec.Command("sleep", "30")
	if err := sleep.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sleep.Process.Kill(); sleep.Wait() })
	for _, cmd := range []string{"capture", "watch"} {
		code, out, errs := runArgs(t, "__complete", cmd, "--pid", "")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		offered := map[string]string{}
		for _, line := range strings.Split(out, "\n") {
			pid, desc, _ := strings.Cut(line, "\t")
			offered[pid] = desc
		}
		if desc, ok := offered[strconv.Itoa(jvm)]; !ok || !strings.Contains(desc, "Idle") {
			t.Errorf("%s --pid: the JVM %d is not offered with its command (%q):\n%s", cmd, jvm, desc, out)
		}
		if _, ok := offered[strconv.Itoa(sleep.Process.Pid)]; ok {
			t.Errorf("%s --pid offers a sleep:\n%s", cmd, out)
		}
		if !strings.Contains(out, ":4") {
			t.Errorf("%s --pid completes file names too:\n%s", cmd, out)
		}
	}
}
