package promtest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/internal/testwait"
)

// Alertmanager is a running Alertmanager (Debian's
// /usr/bin/prometheus-alertmanager, 0.25), stopped when the test that
// started it ends.
type Alertmanager struct {
	// Addr is where it listens: "127.0.0.1:PORT" (Config.Alertmanager).
	Addr string
	srv  *Server // the process handling, shared with Prometheus's
}

// StartAlertmanager runs an Alertmanager whose one receiver posts every
// alert at once (no group wait, a 1 s group interval) to webhook, an
// http://127.0.0.1 URL, and returns once it is ready. Clustering is off
// (no gossip port, no peer names to resolve). The test is skipped when no
// prometheus-alertmanager is on PATH.
func StartAlertmanager(t testing.TB, webhook string) *Alertmanager {
	t.Helper()
	bin, err := exec.LookPath("prometheus-alertmanager")
	if err != nil {
		if bin, err = exec.LookPath("alertmanager"); err != nil {
			t.Skip("prometheus-alertmanager not on PATH (Debian: apt-get install prometheus-alertmanager): this is tested against a real Alertmanager only")
		}
	}
	if !strings.HasPrefix(webhook, "http://127.0.0.1:") {
		t.Fatalf("promtest: webhook %q is not on 127.0.0.1", webhook)
	}
	dir := t.TempDir()
	config := filepath.Join(dir, "alertmanager.yml")
	yml := "route:\n  receiver: hook\n  group_by: ['alertname']\n  group_wait: 0s\n  group_interval: 1s\n  repeat_interval: 1h\n" +
		"receivers:\n  - name: hook\n    webhook_configs:\n      - url: " + strconv.Quote(webhook) + "\n        send_resolved: true\n"
	if err := os.WriteFile(config, []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	s := spawn(t, bin, func(addr, url string) []string {
		return []string{"--config.file=" + config, "--storage.path=" + filepath.Join(dir, "data"),
			"--web.listen-address=" + addr, "--web.external-url=" + url + "/", "--cluster.listen-address=", "--log.level=warn"}
	})
	testwait.Eventually(t, readyWithin, func() error {
		select {
		case <-s.exited:
			t.Fatalf("promtest: alertmanager exited before it was ready (%v); its last lines:\n%s", s.cmd.ProcessState, s.stderr.lastLines(20))
		default:
		}
		if err := s.ready(); err != nil {
			return fmt.Errorf("promtest: alertmanager at %s not ready: %v; its last lines:\n%s", s.URL, err, s.stderr.lastLines(20))
		}
		return nil
	})
	return &Alertmanager{Addr: strings.TrimPrefix(s.URL, "http://"), srv: s}
}
