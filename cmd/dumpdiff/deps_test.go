package main

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// TestDependencyPolicy holds the house's import table (README.md, Layout) as
// policy: data flows capture → parse → analyze → report | tui,
// and no package may import one to its right. Direct imports are checked:
// what an allowed package brings with it is that package's business.
func TestDependencyPolicy(t *testing.T) {
	const mod = "github.com/dumpdiff/dumpdiff/"
	// internal/words (plural, natural order) is shared by every package.
	allowed := map[string][]string{
		"parse":          {"internal/words"},
		"capture":        {"internal/private"},
		"analyze":        {"parse", "internal/words"},
		"report":         {"analyze", "parse", "internal/words"},
		"tui":            {"analyze", "parse", "report", "internal/words", "internal/private"},
		"handler":        {},
		"internal/words": {},
		// The modes of what dumpdiff writes: capture, watch and tui.
		"internal/private": {},
		// Test helpers: no package may import them outside its tests.
		"internal/javatest":   {},
		"internal/benchinput": {"analyze", "parse"},
		"internal/hprofgen":   {},
		"internal/captured":   {"analyze", "capture", "parse"},
		"internal/promtest":   {"internal/testwait"},
		"internal/testwait":   {},
		"internal/modetest":   {"internal/private"},
		"internal/watchtest":  {"internal/javatest", "internal/testwait"},
		"watch":               {"analyze", "capture", "parse", "report", "internal/bearer", "internal/captured", "internal/private"},
		// The bearer-token check of the HTTP endpoints (watch, mcpserver).
		"internal/bearer": {},
		// The MCP server: the analysis and its views through their own
		// packages; the command hands it the command's loading.
		"mcpserver": {"analyze", "capture", "parse", "report", "watch", "internal/bearer"},

		// The benchmark's generator of heap dumps (make bench-hprof).
		"internal/hprofgen/cmd/hprofgen": {"internal/hprofgen"},
	}
	// Third-party imports per package: the profile format and the execution
	// trace reader (Go's own, from x/exp) for parse, the
	// charm libraries for the TUI only; report measures terminal cells with
	// x/ansi but styles nothing with lipgloss (its colours are ANSI
	// sequences of its own); the rest is standard library.
	thirdParty := map[string][]string{
		"parse":               {"github.com/google/pprof/", "golang.org/x/exp/trace"},
		"capture":             {},
		"analyze":             {},
		"report":              {"github.com/charmbracelet/x/ansi"},
		"handler":             {},
		"internal/words":      {},
		"internal/private":    {},
		"internal/modetest":   {},
		"internal/javatest":   {},
		"internal/benchinput": {},
		"internal/hprofgen":   {},
		"internal/captured":   {},
		"internal/promtest":   {},
		"internal/testwait":   {},
		"internal/watchtest":  {},
		"watch":               {"github.com/prometheus/client_golang/"},
		"internal/bearer":     {},
		"mcpserver":           {"github.com/modelcontextprotocol/go-sdk/"},
		"tui":                 {"charm.land/", "github.com/charmbracelet/", "github.com/lucasb-eyer/go-colorful", "github.com/mattn/go-runewidth", "github.com/rivo/uniseg", "github.com/clipperhouse/"},
	}
	for pkg, ok := range allowed {
		out, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, mod+pkg).Output()
		if err != nil {
			t.Fatalf("go list %s: %v", pkg, err)
		}
		for _, dep := range strings.Fields(string(out)) {
			if !strings.Contains(strings.SplitN(dep, "/", 2)[0], ".") {
				continue // standard library
			}
			if inner, found := strings.CutPrefix(dep, mod); found {
				good := false
				for _, a := range ok {
					if inner == a {
						good = true
					}
				}
				if !good {
					t.Errorf("%s imports %s: not allowed by the house table", pkg, inner)
				}
				continue
			}
			if tp, limited := thirdParty[pkg]; limited {
				good := false
				for _, p := range tp {
					if strings.HasPrefix(dep, p) {
						good = true
					}
				}
				if !good {
					t.Errorf("%s depends on %s: only the standard library%s", pkg, dep, map[bool]string{true: " and " + strings.Join(tp, ", "), false: ""}[len(tp) > 0])
				}
			}
		}
	}
}

// TestREADMELayout checks README.md's Layout table against the tree: every
// package of the module is in it, and every folder it names exists.
func TestREADMELayout(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	start := strings.Index(s, "## Layout\n")
	if start < 0 {
		t.Fatal("README.md has no Layout section")
	}
	section := s[start:]
	if end := strings.Index(section[len("## Layout\n"):], "\n## "); end >= 0 {
		section = section[:len("## Layout\n")+end]
	}
	out, err := exec.Command("go", "list", "github.com/dumpdiff/dumpdiff/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		dir := strings.TrimPrefix(strings.TrimPrefix(pkg, "github.com/dumpdiff/dumpdiff"), "/")
		if dir == "" || !strings.Contains(section, "`"+dir+"/`") && !strings.Contains(section, "`"+dir+"`") {
			t.Errorf("the Layout section does not name %s", dir)
		}
	}
	for _, m := range regexp.MustCompile("\\| `([a-z/]+)/?` \\|").FindAllStringSubmatch(section, -1) {
		if st, err := os.Stat("../../" + m[1]); err != nil || !st.IsDir() {
			t.Errorf("the Layout section names %s, which is not a folder of the repository", m[1])
		}
	}
}
