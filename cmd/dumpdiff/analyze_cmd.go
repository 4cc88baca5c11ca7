package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/charmbracelet/x/term"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/report"
	"github.com/spf13/cobra"
)

// analysisFlags are the flags of the main job, shared by the root command
// and `tui`.
type analysisFlags struct {
	labels string
	order  string // --order: time or args
	poolBy string
	// signatures is the signatures file (--signatures); "" reads the
	// default location if a file is there.
	signatures string
	stdin      io.Reader // what "-" reads; set by the command
}

func (f *analysisFlags) register(cmd *cobra.Command) {
	f.order = "time"
	cmd.Flags().StringVar(&f.labels, "labels", "", "comma-separated moment labels, in the order the dumps are given (default: from file names)")
	cmd.Flags().StringVar(&f.order, "order", "time", "moment order: time (the time each dump prints, or its capture's; moments without one keep their place) or args (as given)")
	// --sort time was the flag before time order became the default; it
	// stays as an alias so that scripts keep working.
	cmd.Flags().StringVar(&f.order, "sort", "time", "alias of --order")
	cmd.Flags().MarkHidden("sort")
	cmd.Flags().StringVar(&f.poolBy, "pool-by", "", "group goroutines by a pprof label instead of their creator: label:KEY")
	cmd.Flags().StringVar(&f.signatures, "signatures", "", "a signatures file that adds or overrides states and pool sizes (default "+defaultSignatures()+" when present)")
}

// analyze loads the arguments and analyzes them: one analysis per
// captured target (one in all for plain files). What loading had to say
// comes back as notes.
func (f *analysisFlags) analyze(args []string) ([]*analyze.Result, []string, error) {
	var warn loadNotes
	rs, err := f.analyzeNotes(args, &warn)
	return rs, warn.list, err
}

func (f *analysisFlags) analyzeNotes(args []string, warn *loadNotes) ([]*analyze.Result, error) {
	f.order = lowerEnum(f.order)
	if f.order != "args" && f.order != "time" {
		return nil, fmt.Errorf("unknown --order %q: want time or args", f.order)
	}
	if f.poolBy != "" && !strings.HasPrefix(f.poolBy, "label:") {
		return nil, fmt.Errorf("unknown --pool-by %q: want label:KEY", f.poolBy)
	}
	lo := loadOptions{argsOrder: f.order == "args"}
	if f.labels != "" {
		seen := map[string]bool{}
		for _, l := range strings.Split(f.labels, ",") {
			l = strings.TrimSpace(l)
			if l == "" {
				return nil, fmt.Errorf("--labels %q: an empty label", f.labels)
			}
			if seen[l] {
				return nil, fmt.Errorf("--labels %q: label %q given twice", f.labels, l)
			}
			seen[l] = true
			lo.labels = append(lo.labels, l)
		}
	}
	sigPath, explicit := f.signatures, f.signatures != ""
	if !explicit {
		sigPath = defaultSignatures()
	}
	ext, err := loadExtensions(sigPath, explicit)
	if err != nil {
		return nil, err
	}
	in, err := loadInputs(args, lo, f.stdin, warn)
	if err != nil {
		return nil, err
	}
	var rs []*analyze.Result
	groups := byTarget(in)
	warnMixedRuntimes(groups, warn)
	for _, g := range groups {
		rs = append(rs, analyze.Analyze(g, analyze.Options{PoolBy: f.poolBy, Extensions: ext}))
	}
	return rs, nil
}

var findingKinds = analyze.Kinds

// addAnalysis makes root run the main job: dumps in, verdicts out.
func addAnalysis(root *cobra.Command) {
	var af analysisFlags
	var format, failOn, color string
	var interactive bool
	af.register(root)
	root.Flags().StringVarP(&format, "format", "f", "text", "output: "+report.FormatNames())
	root.Flags().StringVar(&failOn, "fail-on", "", "exit 3 when a finding of these kinds or severities is present (comma-separated: critical, warning, "+strings.Join(findingKinds, ",")+")")
	root.Flags().StringVar(&color, "color", "auto", "colour the text report: auto (a terminal and no NO_COLOR), always, never")
	root.Flags().BoolVarP(&interactive, "interactive", "i", false, "open the interactive TUI (same as the tui command)")
	root.Args = cobra.ArbitraryArgs
	root.RunE = func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return cmd.Help()
		}
		if interactive {
			// The TUI renders nothing to stdout: a report flag with -i is a
			// mistake, said rather than ignored.
			for _, name := range []string{"format", "fail-on", "color"} {
				if cmd.Flags().Changed(name) {
					return fmt.Errorf("-i opens the TUI, which takes no --%s: drop one of them", name)
				}
			}
			return runTUI(cmd, &af, args)
		}
		color, err := parseColor(color)
		if err != nil {
			return err
		}
		outFormat, err := report.ParseFormat(lowerEnum(format))
		if err != nil {
			return fmt.Errorf("unknown --format %q: want %s", format, report.FormatNames())
		}
		fo, err := parseFailOn(failOn)
		if err != nil {
			return err
		}
		// The load's GC percent holds until the report is written and the
		// process exits (see loadGC).
		defer loadGC(args)()
		af.stdin = cmd.InOrStdin()
		rs, notes, err := af.analyze(args)
		for _, n := range notes {
			fmt.Fprintln(cmd.ErrOrStderr(), "dumpdiff:", n)
		}
		if err != nil {
			return err
		}
		out := cmd.OutOrStdout()
		opt := report.Options{Format: outFormat, Color: wantColor(color, out), Width: termWidth(out)}
		if err := report.GenerateMany(out, rs, opt); err != nil {
			return err
		}
		return fo.exit(rs)
	}
}

// termWidth is the width of the terminal out writes to; 0 (the report's
// stable default) when out is not a terminal.
func termWidth(out io.Writer) int {
	f, ok := out.(*os.File)
	if !ok || !term.IsTerminal(f.Fd()) {
		return 0
	}
	w, _, err := term.GetSize(f.Fd())
	if err != nil {
		return 0
	}
	return w
}

// wantColor decides colour: never when NO_COLOR is set or out is not a
// terminal, unless forced.
func wantColor(mode string, out io.Writer) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	if os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
		return false
	}
	f, ok := out.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// warnMixedRuntimes says on stderr when the dumps given come from both a Go
// and a JVM process: they cannot be one timeline, so each runtime is
// analyzed on its own, one report after the other (JSON: the several-analyses
// document, report/SCHEMA.md).
func warnMixedRuntimes(groups [][]analyze.Input, warn *loadNotes) {
	seen := map[string][]string{}
	var order []string
	for _, g := range groups {
		rt := string(g[0].Dump.Format.Runtime())
		if _, ok := seen[rt]; !ok {
			order = append(order, rt)
		}
		for _, x := range g {
			if len(seen[rt]) < 3 {
				seen[rt] = append(seen[rt], x.Dump.Source.File)
			}
		}
	}
	if len(order) < 2 {
		return
	}
	var parts []string
	for _, rt := range order {
		parts = append(parts, fmt.Sprintf("%s (%s)", rt, strings.Join(dedupeStrings(seen[rt]), ", ")))
	}
	warn.add("warning: the dumps come from different runtimes: %s; each is analyzed on its own timeline, one report per runtime",
		strings.Join(parts, " and "))
}

func dedupeStrings(xs []string) []string {
	var out []string
	for _, x := range xs {
		if len(out) == 0 || out[len(out)-1] != x {
			out = append(out, x)
		}
	}
	return out
}
