package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/dumpdiff/dumpdiff/capture"
	"github.com/dumpdiff/dumpdiff/report"
	"github.com/spf13/cobra"
)

func newCaptureCmd() *cobra.Command {
	var (
		pids        []int
		execs       []string
		out         string
		every       time.Duration
		count       int
		load        string
		duringEvery time.Duration
		after       time.Duration
		timeout     time.Duration
		maxMiB      int64
		headers     []string
		doAnalyze   bool
		af          analysisFlags
	)
	cmd := &cobra.Command{
		Use:   "capture [URL...] [--pid PID] [--exec CMD] --out DIR",
		Short: "Pull dumps live from Go (pprof) and JVM processes, on a schedule or around a load",
		Example: `  dumpdiff capture http://127.0.0.1:6060 --every 15s --count 4 --out dumps/
  dumpdiff capture --pid 4242 --load 'wrk -d30s http://127.0.0.1:8080/' --during-every 10s --out dumps/ --analyze
  dumpdiff capture --exec 'kubectl exec api-0 -- jcmd 1 Thread.print -l' --every 10s --count 3 --out dumps/`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return fmt.Errorf("--out DIR is required")
			}
			plan := capture.Plan{OutDir: out, Timeout: timeout, MaxBytes: maxMiB << 20, Load: load}
			for _, u := range args {
				plan.Targets = append(plan.Targets, capture.PprofTarget("", u))
			}
			for _, p := range pids {
				plan.Targets = append(plan.Targets, capture.JVMTarget("", p))
			}
			for _, c := range execs {
				plan.Targets = append(plan.Targets, capture.ExecTarget("", c))
			}
			if len(plan.Targets) == 0 {
				return fmt.Errorf("nothing to capture: give a pprof URL, --pid or --exec")
			}
			warn := func(flag, why string) {
				if cmd.Flags().Changed(flag) {
					fmt.Fprintf(cmd.ErrOrStderr(), "dumpdiff: --%s is ignored %s\n", flag, why)
				}
			}
			if load != "" {
				plan.Every, plan.After = duringEvery, after
				warn("every", "with --load (use --during-every)")
				warn("count", "with --load (the load's length decides)")
			} else {
				plan.Every, plan.Count = every, count
				warn("during-every", "without --load")
				warn("after", "without --load")
			}
			if len(headers) > 0 {
				plan.Headers = http.Header{}
				for _, h := range headers {
					k, v, ok := strings.Cut(h, ":")
					if !ok {
						return fmt.Errorf("--header %q: want 'Name: value'", strings.SplitN(h, ":", 2)[0])
					}
					plan.Headers.Add(strings.TrimSpace(k), strings.TrimSpace(v))
				}
			}
			m, err := capture.Run(cmd.Context(), plan, capture.NewProgress(cmd.ErrOrStderr()))
			if m != nil && m.Failed() > 0 && err == nil {
				fmt.Fprintf(cmd.ErrOrStderr(), "dumpdiff: %d capture(s) failed; see %s/manifest.json\n", m.Failed(), out)
			}
			if err != nil {
				// A refused plan created nothing, and an interruption's text
				// already names the folder.
				if m == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
					return fmt.Errorf("capture: %w", err)
				}
				return fmt.Errorf("capture: %w (what was captured is in %s)", err, out)
			}
			if doAnalyze {
				af.stdin = cmd.InOrStdin()
				rs, err := af.analyze([]string{out}, cmd.ErrOrStderr())
				if err != nil {
					return err
				}
				if err := report.GenerateMany(cmd.OutOrStdout(), rs, report.Options{Format: "text", Color: wantColor("auto", cmd.OutOrStdout())}); err != nil {
					return err
				}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.IntSliceVar(&pids, "pid", nil, "a local JVM to dump with jcmd Thread.print -l (jstack -l as fallback); repeatable")
	f.StringArrayVar(&execs, "exec", nil, "a shell command that prints a dump (e.g. through kubectl exec); repeatable")
	f.StringVar(&out, "out", "", "folder for the dumps and manifest.json (created if needed)")
	f.DurationVar(&every, "every", 15*time.Second, "interval between moments on a fixed schedule")
	f.IntVar(&count, "count", 4, "number of moments on a fixed schedule")
	f.StringVar(&load, "load", "", "a load command: dump before it, every --during-every while it runs, and --after it exits")
	f.DurationVar(&duringEvery, "during-every", 10*time.Second, "interval between dumps while --load runs")
	f.DurationVar(&after, "after", capture.DefaultAfter, "delay after the load exits before the last dump")
	f.DurationVar(&timeout, "timeout", capture.DefaultTimeout, "per request or command")
	f.Int64Var(&maxMiB, "max-size", capture.DefaultMaxBytes>>20, "size cap per response, in MiB")
	f.StringArrayVar(&headers, "header", nil, "an HTTP header sent to pprof endpoints ('Authorization: Bearer ...'); never recorded")
	f.BoolVar(&doAnalyze, "analyze", false, "print the report when the capture ends")
	af.register(cmd)
	return cmd
}
