package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/capture"
	"github.com/dumpdiff/dumpdiff/report"
	"github.com/spf13/cobra"
)

func newCaptureCmd() *cobra.Command {
	var (
		out         string
		appendTo    bool
		every       time.Duration
		count       int
		load        string
		duringEvery time.Duration
		after       time.Duration
		doAnalyze   bool
		keepTrying  bool
		src         sourceFlags
		af          analysisFlags
		rf          reportFlags
	)
	cmd := &cobra.Command{
		Use:   "capture [URL...] [--pid PID] [--exec CMD] [--actuator URL] --out DIR",
		Short: "Pull dumps live from Go (pprof), JVM and Spring Boot processes, on a schedule or around a load",
		Example: `  dumpdiff capture http://127.0.0.1:6060 --every 15s --count 4 --out dumps/
  dumpdiff capture --pid 4242 --load 'wrk -d30s http://127.0.0.1:8080/' --during-every 10s --out dumps/ --analyze
  dumpdiff capture http://127.0.0.1:8080/actuator/threaddump --header 'Authorization: Bearer ...' --out dumps/
  dumpdiff capture --exec 'kubectl exec api-0 -- jcmd 1 Thread.print' --every 10s --count 3 --out dumps/ --append`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return fmt.Errorf("--out DIR is required")
			}
			// A capture names its moments and takes them in time order:
			// the analysis flags that shape moments mean nothing here.
			for _, f := range momentFlags {
				if cmd.Flags().Changed(f) {
					return fmt.Errorf("--%s means nothing to capture: a capture names its moments (before, during-N, after) and keeps them in the order taken; give it to the main command that reads the folder", f)
				}
			}
			// Refuse bad report flags before a capture that may take minutes.
			if err := rf.check(); err != nil {
				return err
			}
			plan, err := src.plan(cmd, args)
			if err != nil {
				return err
			}
			plan.OutDir, plan.Append, plan.Load, plan.KeepTrying = out, appendTo, load, keepTrying
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
			if !doAnalyze {
				for _, f := range []string{"format", "fail-on", "color"} {
					warn(f, "without --analyze")
				}
			}
			m, err := capture.Run(cmd.Context(), plan, capture.NewProgress(cmd.ErrOrStderr()))
			interrupted := errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
			if err != nil && !interrupted {
				if oe, ok := errors.AsType[*capture.OutDirError](err); ok {
					return outDirMessage(oe)
				}
				// A refused plan created nothing; a run that kept no dump
				// has nothing to point at (its folder takes the same
				// command again).
				if m == nil || m.Failed() == len(m.Files) {
					return fmt.Errorf("capture: %w", err)
				}
				return fmt.Errorf("capture: %w (what was captured is in %s)", err, out)
			}
			// Some moments of some targets have no dump: said on stderr
			// and, unless a stronger status applies, exit partialStatus.
			var partial error
			if m != nil && err == nil {
				partial = partialCapture(m, len(plan.Targets), out)
				if partial != nil {
					fmt.Fprintln(cmd.ErrOrStderr(), "dumpdiff:", partial)
				}
			}
			// Interrupted: the progress printed its one line ("interrupted
			// after 3 moments: 5 files kept in DIR, ..."); what was captured
			// is still analyzed when asked.
			var failed error // the --fail-on exit, when a finding it names is present
			if doAnalyze && m != nil && hasDump(m) {
				defer loadGC([]string{out})() // until the report is written (see loadGC)
				af.stdin = cmd.InOrStdin()
				rs, notes, err := af.analyze([]string{out})
				for _, n := range notes {
					fmt.Fprintln(cmd.ErrOrStderr(), "dumpdiff:", n)
				}
				if err != nil {
					return err
				}
				if failed, err = rf.generate(cmd.OutOrStdout(), rs); err != nil {
					return err
				}
			}
			switch {
			case interrupted:
				return &exitError{code: interruptStatus(cmd.Context())}
			case failed != nil:
				return failed
			case partial != nil:
				return &exitError{code: partialStatus} // its line is printed above
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&out, "out", "", "folder for the dumps and manifest.json: new or empty, or a capture to continue with --append")
	f.BoolVar(&appendTo, "append", false, "continue the capture already in --out: its moments are kept and these added after them")
	f.DurationVar(&every, "every", 15*time.Second, "interval between moments on a fixed schedule")
	f.IntVar(&count, "count", 4, "number of moments on a fixed schedule")
	f.StringVar(&load, "load", "", "a load command: dump before it, every --during-every while it runs, and --after it exits; its output is shown (load| ...) and kept in the manifest")
	f.DurationVar(&duringEvery, "during-every", 10*time.Second, "interval between dumps while --load runs")
	f.DurationVar(&after, "after", capture.DefaultAfter, "delay after the load exits before the last dump")
	src.register(cmd)
	f.BoolVar(&keepTrying, "keep-trying", false, "run the whole schedule even when no target answers the first moment (nothing listens, the pid is no JVM); without it the run stops there, exit 1")
	f.BoolVar(&doAnalyze, "analyze", false, "print the report when the capture ends (also when interrupted)")
	af.register(cmd)
	for _, f := range momentFlags {
		_ = cmd.Flags().MarkHidden(f)
	}
	rf.register(cmd)
	return cmd
}

// momentFlags are the analysis flags that shape the moments given, hidden
// and refused where dumpdiff takes the moments itself.
var momentFlags = []string{"labels", "order", "sort"}

// sourceFlags are the flags that say what to dump and how, shared by
// capture and watch.
type sourceFlags struct {
	pids, execs, actuators, headers []string
	timeout, maxPause               time.Duration
	maxSize                         string
	forceAttach                     bool
	locks                           bool
}

func (s *sourceFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringSliceVar(&s.pids, "pid", nil, "a local JVM to dump with jcmd Thread.print (jstack as fallback); repeatable")
	f.StringArrayVar(&s.execs, "exec", nil, "a shell command that prints a dump (e.g. through kubectl exec); repeatable")
	f.StringArrayVar(&s.actuators, "actuator", nil, "a Spring Boot Actuator thread dump endpoint, fetched as JSON (a URL ending in /actuator/threaddump is one too); repeatable")
	f.DurationVar(&s.timeout, "timeout", capture.DefaultTimeout, "per request or command")
	f.StringVar(&s.maxSize, "max-size", fmt.Sprintf("%dMiB", capture.DefaultMaxBytes>>20), "size cap per response: with KiB, MiB or GiB (a bare number is MiB, as it was)")
	f.DurationVar(&s.maxPause, "max-pause", capture.DefaultMaxPause, "longest stop of the world one full Go dump may cost the target (estimated from its goroutine count); above it debug=0 and debug=1 are taken instead; 0: no budget")
	f.BoolVar(&s.forceAttach, "force-attach", false, "attach to a --pid even when nothing shows it is a JVM (its memory map unreadable, no hsperfdata file, no java command line): the attach sends SIGQUIT, which kills any other process")
	f.BoolVar(&s.locks, "locks", false, "JVM: always print lock ownership (Thread.print -l: a heap walk inside the safepoint); without it -l is taken only when threads park on a lock whose owner only -l shows")
	f.StringArrayVar(&s.headers, "header", nil, "an HTTP header sent to pprof and Actuator endpoints ('Authorization: Bearer ...'); never recorded, never sent off the target (redirects elsewhere are refused)")
}

// plan is a capture plan with the targets and the settings of the flags.
func (s *sourceFlags) plan(cmd *cobra.Command, args []string) (capture.Plan, error) {
	maxBytes, err := parseSizeUnit("--max-size", s.maxSize, 1<<20)
	if err != nil {
		return capture.Plan{}, err
	}
	// Flight: a Go target serving package handler's flight recorder gives
	// the seconds before each moment too (a 404 is asked once).
	p := capture.Plan{Timeout: s.timeout, MaxBytes: maxBytes, MaxPause: s.maxPause, Locks: s.locks, ForceAttach: s.forceAttach, Flight: true}
	if !cmd.Flags().Changed("max-pause") {
		p.MaxPause = 0 // the package default
	} else if s.maxPause == 0 {
		p.MaxPause = -1 // --max-pause 0: no budget
	}
	if p.Targets, err = targetsOf(args, s.actuators, s.pids, s.execs); err != nil {
		return p, err
	}
	p.Headers, err = headersOf(s.headers)
	return p, err
}

// targetsOf are the targets of capture's and watch's arguments and
// flags, in that order: URLs (an Actuator URL by its path), --actuator,
// --pid, --exec.
func targetsOf(args, actuators, pids, execs []string) ([]capture.Target, error) {
	var ts []capture.Target
	for _, u := range args {
		// A bare number is a pid given without --pid: taken for a URL, it
		// would be looked up as a host name.
		if _, err := strconv.Atoi(strings.TrimSpace(u)); err == nil {
			return nil, fmt.Errorf("%q is not a URL: did you mean --pid %s?", u, strings.TrimSpace(u))
		}
		if capture.IsActuatorURL(u) {
			ts = append(ts, capture.ActuatorTarget("", u))
		} else {
			ts = append(ts, capture.PprofTarget("", u))
		}
	}
	for _, u := range actuators {
		ts = append(ts, capture.ActuatorTarget("", u))
	}
	for _, p := range pids {
		pid, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || pid <= 0 {
			return nil, fmt.Errorf("--pid %q: want a process id (a whole number above 0)", p)
		}
		ts = append(ts, capture.JVMTarget("", pid))
	}
	for _, c := range execs {
		ts = append(ts, capture.ExecTarget("", c))
	}
	if len(ts) == 0 {
		return nil, fmt.Errorf("nothing to capture: give a pprof or Actuator URL, --actuator, --pid or --exec")
	}
	return ts, nil
}

// headersOf reads --header values ("Name: value"); nil for none.
func headersOf(headers []string) (http.Header, error) {
	if len(headers) == 0 {
		return nil, nil
	}
	h := http.Header{}
	for _, v := range headers {
		k, val, ok := strings.Cut(v, ":")
		if !ok {
			return nil, fmt.Errorf("--header %q: want 'Name: value'", strings.SplitN(v, ":", 2)[0])
		}
		h.Add(strings.TrimSpace(k), strings.TrimSpace(val))
	}
	return h, nil
}

// reportFlags are the main job's report flags, for capture --analyze.
type reportFlags struct {
	format, failOn, color string
	parsed                report.Format // --format, checked
	fo                    failOn        // --fail-on, checked
}

func (rf *reportFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVarP(&rf.format, "format", "f", "text", "--analyze output: "+report.FormatNames())
	cmd.Flags().StringVar(&rf.failOn, "fail-on", "", "with --analyze, exit 3 when a finding of these kinds or severities is present (comma-separated: critical, warning, "+strings.Join(findingKinds, ",")+")")
	cmd.Flags().StringVar(&rf.color, "color", "auto", "colour the --analyze text report: auto, always, never")
}

// check validates the flags as the main job does.
func (rf *reportFlags) check() error {
	c, err := parseColor(rf.color)
	if err != nil {
		return err
	}
	rf.color = c
	f, err := report.ParseFormat(lowerEnum(rf.format))
	if err != nil {
		return fmt.Errorf("unknown --format %q: want %s", rf.format, report.FormatNames())
	}
	rf.parsed = f
	rf.fo, err = parseFailOn(rf.failOn)
	return err
}

// generate writes the report and returns the --fail-on exit error when a
// finding it names is present (nil for none).
func (rf *reportFlags) generate(out io.Writer, rs []*analyze.Result) (failure, err error) {
	if err := report.GenerateMany(out, rs, report.Options{Format: rf.parsed, Color: wantColor(rf.color, out), Width: termWidth(out)}); err != nil {
		return nil, err
	}
	return rf.fo.exit(rs), nil
}

// hasDump reports whether the capture kept at least one moment's dump.
func hasDump(m *capture.Manifest) bool {
	for _, t := range m.Targets {
		if len(m.Dumps(t.Name)) > 0 {
			return true
		}
	}
	return false
}

// partialStatus is capture's exit status when it kept dumps but some
// moments of some targets failed (0: all captured, 1: an error or nothing
// captured, 3: --analyze --fail-on found what it names, which wins over
// this). Documented in the README's Capture section.
const partialStatus = 4

// partialCapture says how much of this run failed, nil when nothing did:
// failed moments (a primary dump without its file; interrupted ones not
// counted) and the targets they belong to, out of all.
func partialCapture(m *capture.Manifest, ntargets int, dir string) error {
	fails := m.RunFailures()
	if len(fails) == 0 {
		return nil
	}
	targets := map[string]bool{}
	for _, f := range fails {
		targets[f.Target] = true
	}
	return fmt.Errorf("%d of %d targets failed at least one moment (%d of their dumps missing; first: %s); every target's fate is in %s",
		len(targets), ntargets, len(fails), fails[0].Error, filepath.Join(dir, capture.ManifestName))
}

// interruptStatus is the shell's status for a run ended by a signal: 130
// for Ctrl-C (SIGINT), 143 for SIGTERM.
func interruptStatus(ctx context.Context) int {
	if cause := context.Cause(ctx); cause != nil && strings.HasPrefix(cause.Error(), "terminated") {
		return 143
	}
	return 130
}

// outDirMessage says what to do about an --out folder capture refused.
func outDirMessage(e *capture.OutDirError) error {
	switch {
	case e.Err != nil:
		return fmt.Errorf("capture: --out %s holds a capture that cannot be continued (%v): give a new folder", e.Dir, e.Err)
	case e.Capture != nil:
		return fmt.Errorf("capture: --out %s already holds a capture (%d moments, started %s): add --append to continue it, or give a new folder; nothing was touched",
			e.Dir, len(e.Capture.Moments), e.Capture.Started.Local().Format("2006-01-02 15:04:05"))
	}
	return fmt.Errorf("capture: --out %s is not empty and holds no capture: give a new or empty folder; nothing was touched", e.Dir)
}
