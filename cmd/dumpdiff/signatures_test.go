package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain keeps a developer's own signatures file out of the tests: the
// default location is an empty config folder.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "dumpdiff-config-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CONFIG_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

const contention = "../../testdata/verdicts/jvm-contention"

// TestSignaturesFile: --signatures teaches a state and a pool size; the
// default location is read when present; a bad file is refused with every
// bad line's position.
func TestSignaturesFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "team.signatures")
	os.WriteFile(good, []byte("[signature]\nid = price-cache-wait\nruntime = jvm\ncategory = waiting\nresource = monitor\n"+
		"anchors = com.example.cache.PriceCache.get\ndepth = 3\n\n[pool]\nname = worker-*\nmax = 12\nwhat = pricing workers\n"), 0o644)
	doc := jsonReport(t, "--signatures", good, contention+"/1.txt", contention+"/2.txt")
	states := ""
	for _, p := range doc.Pools {
		if p.Name == "worker-*" {
			for _, s := range p.States {
				states += s.State
			}
		}
	}
	if states != "price-cache-wait" {
		t.Errorf("worker-* states = %q, want price-cache-wait", states)
	}

	// The same file at the default location.
	cfg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfg)
	os.MkdirAll(filepath.Join(cfg, "dumpdiff"), 0o755)
	data, _ := os.ReadFile(good)
	os.WriteFile(filepath.Join(cfg, "dumpdiff", "signatures"), data, 0o644)
	if _, out, _ := runArgs(t, contention+"/1.txt"); !strings.Contains(out, "price-cache-wait") {
		t.Errorf("default signatures file not read:\n%s", out)
	}

	bad := filepath.Join(dir, "bad.signatures")
	os.WriteFile(bad, []byte("[signature]\nid = x\nruntime = cobol\n[pool]\nname = y\nmax = -1\n"), 0o644)
	code, _, errs := runArgs(t, "--signatures", bad, contention+"/1.txt")
	if code == 0 {
		t.Fatal("a bad signatures file was accepted")
	}
	for _, want := range []string{"bad.signatures:3: runtime \"cobol\": want jvm or go", "bad.signatures:6: max \"-1\"", "bad.signatures:4: [pool] needs a name"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	if code, _, errs := runArgs(t, "--signatures", filepath.Join(dir, "absent"), contention+"/1.txt"); code == 0 || !strings.Contains(errs, "reading signatures") {
		t.Errorf("a missing --signatures file: exit %d, %s", code, errs)
	}
}
