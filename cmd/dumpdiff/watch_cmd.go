package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/watch"
	"github.com/spf13/cobra"
)

func newWatchCmd() *cobra.Command {
	var (
		src         sourceFlags
		out         string
		every       time.Duration
		keep        int
		maxBytes    string
		minFree     string
		listen      string
		quiet       bool
		alert       string
		incidentMax int
		onIncident  string
		series      int
		poolBy      string
		signatures  string
		tokenFile   string
	)
	cmd := &cobra.Command{
		Use:   "watch [URL...] [--pid PID] [--exec CMD] [--actuator URL] --out DIR",
		Short: "Always-on flight recorder: a ring of recent moments per target, a rolling verdict, incident bundles and Prometheus metrics",
		Long: `watch captures every target every --every into a ring of its last --keep moments under
--out, analyzes each ring after every moment as dumpdiff analyzes a capture, and when a
finding of --alert severity opens it writes an incident bundle (the healthy moments
before it, every moment until it closes, manifest.json and the reports) under
DIR/incidents/. With --listen it serves Prometheus metrics at /metrics and takes triggers
at POST /trigger (Alertmanager's webhook payload, or ?target=NAME&reason=TEXT): a moment
now that opens an incident bundle whatever the verdict; SIGUSR1 triggers every target. It
runs until SIGINT or SIGTERM, then writes every manifest and exits 0.`,
		Example: `  dumpdiff watch http://127.0.0.1:6060 --every 15s --keep 40 --out /var/lib/dumpdiff --listen 127.0.0.1:9464
  dumpdiff watch --pid 4242 --every 30s --out ring/ --on-incident 'notify-team "$1"'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return fmt.Errorf("--out DIR is required")
			}
			plan, err := src.plan(cmd, args)
			if err != nil {
				return err
			}
			cfg := watch.Config{Targets: plan.Targets, Every: every, Keep: keep, Dir: out, Listen: listen,
				IncidentMax: incidentMax, OnIncident: onIncident, TopSeries: series,
				Timeout: plan.Timeout, MaxFile: plan.MaxBytes, MaxPause: plan.MaxPause, Headers: plan.Headers, Locks: plan.Locks, ForceAttach: plan.ForceAttach,
				Log: cmd.ErrOrStderr(), Quiet: quiet, Build: buildFrom(debug.ReadBuildInfo()).Build}
			if cfg.MaxBytes, err = parseSize("--max-bytes", maxBytes); err != nil {
				return err
			}
			if cfg.MinFree, err = parseSize("--min-free", minFree); err != nil {
				return err
			}
			if cfg.MinFree == 0 {
				cfg.MinFree = -1 // --min-free 0: no floor
			}
			switch strings.ToLower(alert) {
			case "critical":
				cfg.Alert = analyze.Critical
			case "warning":
				cfg.Alert = analyze.Warning
			default:
				return fmt.Errorf("unknown --alert %q: want critical or warning", alert)
			}
			if poolBy != "" && !strings.HasPrefix(poolBy, "label:") {
				return fmt.Errorf("unknown --pool-by %q: want label:KEY", poolBy)
			}
			sigPath, explicit := signatures, signatures != ""
			if !explicit {
				sigPath = defaultSignatures()
			}
			ext, err := loadExtensions(sigPath, explicit)
			if err != nil {
				return err
			}
			cfg.Analysis = analyze.Options{PoolBy: poolBy, Extensions: ext}
			if cfg.TriggerToken, err = readTokenFile(tokenFile); err != nil {
				return err
			}
			trig, stop := triggerSignal()
			defer stop()
			cfg.Trigger = trig
			if err := watch.Run(cmd.Context(), cfg); err != nil {
				return fmt.Errorf("watch: %w", err)
			}
			return nil
		},
	}
	src.register(cmd)
	f := cmd.Flags()
	f.StringVar(&out, "out", "", "folder of the rings (one per target) and of incidents/; a folder watch wrote before is resumed")
	f.DurationVar(&every, "every", 15*time.Second, "interval between moments")
	f.IntVar(&keep, "keep", watch.DefaultKeep, "moments each ring holds; the oldest is removed first")
	f.StringVar(&maxBytes, "max-bytes", "1GiB", "bound of every ring together on disk (each target gets an equal share): bytes, or with KiB, MiB, GiB")
	f.StringVar(&minFree, "min-free", "256MiB", "no moment is written while the file system of --out has less free space than this; 0: no floor")
	f.BoolVar(&quiet, "quiet", false, "no line per moment on stderr (incidents, a target down or back, start and stop are still said)")
	f.StringVar(&listen, "listen", "", "serve Prometheus metrics at http://ADDR/metrics (e.g. 127.0.0.1:9464)")
	f.StringVar(&alert, "alert", "critical", "severity of a finding that opens an incident: critical or warning")
	f.IntVar(&incidentMax, "incident-max", watch.DefaultIncidentMax, "moments an incident takes after it opens before it is closed unrecovered")
	f.StringVar(&onIncident, "on-incident", "", "shell command run when an incident opens and closes: $1 and DUMPDIFF_INCIDENT are the bundle's folder, DUMPDIFF_INCIDENT_EVENT is open or close")
	f.IntVar(&series, "series", watch.DefaultTopSeries, "dumpdiff_threads series per target: the largest (pool, state) pairs; the rest summed per state as pool=\"other\"")
	f.StringVar(&poolBy, "pool-by", "", "group goroutines by a pprof label instead of their creator: label:KEY")
	f.StringVar(&signatures, "signatures", "", "a signatures file that adds or overrides states and pool sizes (default "+defaultSignatures()+" when present)")
	f.StringVar(&tokenFile, "token-file", "", "file holding the bearer token POST /trigger requires (needed for triggers when --listen is not a loopback address)")
	return cmd
}

// parseSize reads a byte count: "1073741824", "512MiB", "1GiB", "64KiB"
// (also KB, MB, GB, K, M, G, all powers of 1024).
func parseSize(flag, s string) (int64, error) { return parseSizeUnit(flag, s, 1) }

// parseSizeUnit is parseSize where a bare number counts in bare units
// (--max-size was a number of MiB before it took units).
func parseSizeUnit(flag, s string, bare int64) (int64, error) {
	t := strings.TrimSpace(s)
	mult := bare
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"B", 1}} {
		if v, ok := strings.CutSuffix(t, u.suffix); ok {
			t, mult = strings.TrimSpace(v), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n < 0 {
		if bare == 1<<20 {
			return 0, fmt.Errorf("%s %q: want a size such as 512MiB or 1GiB (a bare number is MiB)", flag, s)
		}
		return 0, fmt.Errorf("%s %q: want a size such as 1073741824, 512MiB or 1GiB", flag, s)
	}
	return n * mult, nil
}

// readTokenFile reads the bearer token of --token-file (watch's triggers,
// the MCP server's HTTP): the file's text without surrounding space; ""
// when path is "". An empty file is an error, not "no token".
func readTokenFile(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("--token-file: %w", err)
	}
	tok := strings.TrimSpace(string(b))
	if tok == "" {
		return "", fmt.Errorf("--token-file %s is empty", path)
	}
	return tok, nil
}
