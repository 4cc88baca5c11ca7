package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependencyPolicy holds the house's import table (STYLE.md "The shape of
// the house") as policy: data flows capture → parse → analyze → report | tui,
// and no package may import one to its right. Direct imports are checked:
// what an allowed package brings with it is that package's business.
func TestDependencyPolicy(t *testing.T) {
	const mod = "github.com/dumpdiff/dumpdiff/"
	// internal/words (plural, natural order) is shared by every package.
	allowed := map[string][]string{
		"parse":          {"internal/words"},
		"capture":        {},
		"analyze":        {"parse", "internal/words"},
		"report":         {"analyze", "parse", "internal/words"},
		"tui":            {"analyze", "parse", "report", "internal/words"},
		"handler":        {},
		"internal/words": {},
	}
	// Third-party imports per package: the profile format for parse, the
	// charm libraries for the TUI only; report measures terminal cells with
	// x/ansi but styles nothing with lipgloss (its colours are ANSI
	// sequences of its own); the rest is standard library.
	thirdParty := map[string][]string{
		"parse":          {"github.com/google/pprof/"},
		"capture":        {},
		"analyze":        {},
		"report":         {"github.com/charmbracelet/x/ansi"},
		"handler":        {},
		"internal/words": {},
		"tui":            {"charm.land/", "github.com/charmbracelet/", "github.com/lucasb-eyer/go-colorful", "github.com/mattn/go-runewidth", "github.com/rivo/uniseg", "github.com/clipperhouse/"},
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
