package watch

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestREADMEPrometheus checks the README's Prometheus scrape job and alert
// rule with Debian's promtool: the scrape config is valid, the rule file
// is valid, and the alert fires (promtool test rules) on a critical
// finding open for two minutes and not on a warning; and the Alertmanager
// receiver that points at /trigger with amtool.
func TestREADMEPrometheus(t *testing.T) {
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Skip("no promtool (Debian's prometheus package): the README's Prometheus YAML is not checked")
	}
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	s = s[strings.Index(s, "## Watch"):]
	s = s[:strings.Index(s[3:], "\n## ")+3]
	var blocks []string
	for rest := s; ; {
		i := strings.Index(rest, "```yaml\n")
		if i < 0 {
			break
		}
		rest = rest[i+len("```yaml\n"):]
		j := strings.Index(rest, "```")
		blocks = append(blocks, rest[:j])
		rest = rest[j+3:]
	}
	if len(blocks) != 3 {
		t.Fatalf("the Watch section has %d yaml blocks, want the scrape job, the rule and the Alertmanager receiver", len(blocks))
	}
	// By what each holds, in whatever order the README tells them.
	slices.SortFunc(blocks, func(a, b string) int { return yamlRank(a) - yamlRank(b) })
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	check := func(args ...string) {
		t.Helper()
		if out, err := exec.Command(promtool, args...).CombinedOutput(); err != nil {
			t.Errorf("promtool %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	// The receiver pointing Alertmanager at /trigger, in a configuration
	// that routes to it, checked by Alertmanager's own amtool.
	if amtool, err := exec.LookPath("amtool"); err != nil {
		t.Log("no amtool (Debian's prometheus-alertmanager): the README's receiver is not checked")
	} else {
		am := write("alertmanager.yml", "route:\n  receiver: dumpdiff\n"+blocks[2])
		if out, err := exec.Command(amtool, "check-config", am).CombinedOutput(); err != nil {
			t.Errorf("amtool check-config: %v\n%s", err, out)
		}
	}
	check("check", "config", write("prometheus.yml", blocks[0]))
	rules := write("rules.yml", blocks[1])
	check("check", "rules", rules)
	check("test", "rules", write("rules_test.yml", `rule_files: [rules.yml]
evaluation_interval: 15s
tests:
  - interval: 15s
    input_series:
      - series: 'dumpdiff_findings{target="svc",kind="not-recovered",pool="main.(*workerPool).start",severity="critical"}'
        values: '1x12'
      - series: 'dumpdiff_findings{target="api",kind="growing",pool="main.leak",severity="warning"}'
        values: '1x12'
    alert_rule_test:
      - eval_time: 30s
        alertname: ThreadPoolNeverRecovers
        exp_alerts: []
      - eval_time: 2m
        alertname: ThreadPoolNeverRecovers
        exp_alerts:
          - exp_labels: {target: svc, kind: not-recovered, pool: "main.(*workerPool).start"}
            exp_annotations:
              summary: "not-recovered in main.(*workerPool).start on svc: the incident bundle is under dumpdiff's DIR/incidents/"
`))
}

// yamlRank orders the README's blocks: the scrape job, the rule file, the
// Alertmanager receiver.
func yamlRank(b string) int {
	switch {
	case strings.Contains(b, "scrape_configs:"):
		return 0
	case strings.Contains(b, "groups:"):
		return 1
	}
	return 2
}
