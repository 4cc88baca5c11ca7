package analyze

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var updateReadme = flag.Bool("update-readme", false, "rewrite README.md's generated tables from the code")

// readmeTables are README.md's sections generated from the tables in code,
// between <!-- NAME --> and <!-- /NAME --> markers.
func readmeTables() map[string]string {
	var d strings.Builder
	d.WriteString("| detector | kinds | requires | claims | what it finds | what it folds into its story |\n|---|---|---|---|---|---|\n")
	for _, x := range Detectors() {
		req := "—"
		if len(x.Requires) > 0 {
			var ns []string
			for _, r := range x.Requires {
				ns = append(ns, r.Name)
			}
			req = strings.Join(ns, ", ")
		}
		fmt.Fprintf(&d, "| `%s` | %s | %s | %s | %s | %s |\n", x.Name, "`"+strings.Join(x.Kinds, "`, `")+"`", req, x.Claims, x.Doc, x.Folds)
	}
	var th strings.Builder
	th.WriteString("| threshold | detector | value | what it protects against |\n|---|---|---|---|\n")
	for _, d := range Detectors() {
		for _, x := range d.Thresholds {
			fmt.Fprintf(&th, "| `%s` | `%s` | %s | %s |\n", x.Name, d.Name, strconv.FormatFloat(x.Value, 'g', -1, 64), x.Doc)
		}
	}
	for _, x := range NamingThresholds {
		fmt.Fprintf(&th, "| `%s` | pool names | %s | %s |\n", x.Name, strconv.FormatFloat(x.Value, 'g', -1, 64), x.Doc)
	}
	var res strings.Builder
	res.WriteString("| resource | what the waiters wait for | pooled: finding |\n|---|---|---|\n")
	for _, x := range resources {
		pool := "—"
		if x.Pool != "" {
			pool = "`" + PoolExhaustedKind(x.ID) + "`"
		}
		fmt.Fprintf(&res, "| `%s` | %s | %s |\n", x.ID, x.Noun, pool)
	}
	var lim strings.Builder
	lim.WriteString("| pool name | default maximum | what | only when its threads run |\n|---|---|---|---|\n")
	for _, k := range knownMax {
		name := k.prefix + "…" + k.suffix
		if k.suffix == "" {
			name = k.prefix
		}
		fmt.Fprintf(&lim, "| `%s` | %d | %s | `%s` |\n", name, k.max, k.what, strings.Join(k.loops, "`, `"))
	}
	return map[string]string{"detectors": d.String(), "thresholds": th.String(), "resources": res.String(), "limits": lim.String()}
}

// TestREADMETables checks that README.md's detector, threshold and
// resource tables are the ones in the code; go test ./analyze
// -update-readme rewrites them.
func TestREADMETables(t *testing.T) {
	path := filepath.Join("..", "README.md")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for name, want := range readmeTables() {
		open, closing := "<!-- "+name+" -->\n", "<!-- /"+name+" -->"
		i := strings.Index(doc, open)
		j := strings.Index(doc, closing)
		if i < 0 || j < i {
			t.Errorf("README.md has no %q … %q section", open, closing)
			continue
		}
		got := doc[i+len(open) : j]
		if got != want {
			if *updateReadme {
				doc = doc[:i+len(open)] + want + doc[j:]
				continue
			}
			t.Errorf("README.md's %s table differs from the code (go test ./analyze -update-readme rewrites it):\n%s", name, want)
		}
	}
	if *updateReadme {
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDetectorTable keeps the table sound: it passes newTable (see
// TestNewTableRefuses), every kind a detector makes is listed in Kinds, every
// resource a signature or via row names is in the resources table, and
// every threshold is documented (TestThresholdsBeside: beside its
// detector).
func TestDetectorTable(t *testing.T) {
	ds := Detectors()
	if _, err := newTable(ds); err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, d := range ds {
		if names[d.Name] {
			t.Errorf("two detectors named %s", d.Name)
		}
		names[d.Name] = true
		if d.Doc == "" || d.Folds == "" || d.Run == nil || len(d.Kinds) == 0 {
			t.Errorf("detector %s lacks Doc, Folds, Run or Kinds", d.Name)
		}
		for _, th := range d.Thresholds {
			if th.Doc == "" {
				t.Errorf("detector %s: threshold %s does not say what it protects against", d.Name, th.Name)
			}
		}
		for _, k := range d.Kinds {
			if kindOrder(k) == len(Kinds) {
				t.Errorf("detector %s makes kind %s, not in Kinds", d.Name, k)
			}
		}
	}
	for _, s := range signatures {
		if s.Resource != "" && resourceByID(s.Resource) == nil {
			t.Errorf("signature %s names unknown resource %q", s.ID, s.Resource)
		}
		if s.Category == Waiting && s.Resource == "" {
			t.Errorf("waiting signature %s (%s) names no resource", s.ID, s.Runtime)
		}
	}
	for _, v := range vias {
		if v.Holds != "" && resourceByID(v.Holds) == nil {
			t.Errorf("via %s holds unknown resource %q", v.ID, v.Holds)
		}
	}
}
