package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCPUTablesBeside gives a real JDK 17 dump of a regex runaway
// (testdata/verdicts/cpu-beside-regex) as JDK 8 prints it (no cpu=,
// elapsed=) with the ps -L taken with it, wherever a user puts the table:
// a second file on the command line (after or before the dump), a folder
// holding both, the same file before or after the dump. Each reads the
// rows as the threads' CPU (said on stderr) and finds validator-1
// spinning on its life's CPU; the dump alone finds nothing, and so does
// the healthy batch (cpu-beside-batch) in every form.
func TestCPUTablesBeside(t *testing.T) {
	strip := regexp.MustCompile(` cpu=[0-9.]+ms elapsed=[0-9.]+s`)
	for _, tt := range []struct {
		dir  string
		spin bool
	}{{"cpu-beside-regex", true}, {"cpu-beside-batch", false}} {
		src := filepath.Join("..", "..", "testdata", "verdicts", tt.dir)
		dump, err := os.ReadFile(filepath.Join(src, "1.txt"))
		if err != nil {
			t.Fatal(err)
		}
		ps, err := os.ReadFile(filepath.Join(src, "ps-L.out"))
		if err != nil {
			t.Fatal(err)
		}
		jdk8 := strip.ReplaceAllString(string(dump), "")
		tmp := t.TempDir()
		write := func(name, text string) string {
			p := filepath.Join(tmp, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			return p
		}
		d := write("jstack.txt", jdk8)
		p := write("ps.out", string(ps))
		write("both/1.txt", jdk8)
		write("both/ps-L.out", string(ps))
		forms := map[string][]string{
			"second file":       {d, p},
			"table given first": {p, d},
			"folder":            {filepath.Join(tmp, "both")},
			"same file, before": {write("before.txt", string(ps)+"\n"+jdk8)},
			"same file, after":  {write("after.txt", jdk8+"\n"+string(ps))},
		}
		for name, args := range forms {
			t.Run(tt.dir+"/"+name, func(t *testing.T) {
				code, out, errs := runArgs(t, append([]string{"--color", "never"}, args...)...)
				if code != 0 {
					t.Fatalf("exit %d: %s", code, errs)
				}
				if !strings.Contains(errs, "rows of a ps table") {
					t.Errorf("stderr says nothing of the table:\n%s", errs)
				}
				spins := strings.Contains(out, "spinning validator-*")
				if spins != tt.spin {
					t.Errorf("spinning %v, want %v:\n%s", spins, tt.spin, out)
				}
				if tt.spin && !strings.Contains(out, "by the ps line beside the dump") {
					t.Errorf("the finding does not say its evidence is the ps line:\n%s", out)
				}
			})
		}
		t.Run(tt.dir+"/dump alone", func(t *testing.T) {
			_, out, _ := runArgs(t, "--color", "never", d)
			if strings.Contains(out, "spinning") && strings.Contains(out, "WARNING") || strings.Contains(out, "CRITICAL") {
				t.Errorf("a finding from the JDK 8 dump alone:\n%s", out)
			}
		})
	}
	// A file of CPU rows with no JVM dump to read them with is said, not
	// taken for a dump.
	_, _, errs := runArgs(t, "--color", "never", filepath.Join("..", "..", "testdata", "verdicts", "cpu-beside-regex", "ps-L.out"))
	if !strings.Contains(errs, "no dump") {
		t.Errorf("a ps table alone: %s", errs)
	}
}
