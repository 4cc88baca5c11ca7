package main

import (
	"cmp"
	"io"
	"slices"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/report"
	"github.com/dumpdiff/dumpdiff/tui"
	"github.com/spf13/cobra"
)

func newTUICmd() *cobra.Command {
	var af analysisFlags
	var exportDir string
	cmd := &cobra.Command{
		Use:   "tui DUMP|FOLDER...",
		Short: "Browse pools, states and stacks across the moments",
		Long: "Browse pools, states and stacks across the moments: the findings and pools first,\n" +
			"enter opens a pool, a state or a thread, c compares a thread's stacks across moments.\n" +
			"Dumps and folders are read as the main command reads them (moments in time order).\n\nKeys:\n" + tui.KeysText(),
		Example: "  dumpdiff tui testdata/scenarios/hikari-pool-exhausted/\n  dumpdiff tui --export-dir /tmp/notes before.txt during.txt after.txt",
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runTUIWith(cmd, &af, args, exportDir)
		},
	}
	af.register(cmd)
	cmd.Flags().StringVar(&exportDir, "export-dir", "", "folder where the m key writes Markdown (default "+tui.DefaultExportDir()+")")
	return cmd
}

func runTUI(cmd *cobra.Command, af *analysisFlags, args []string) error {
	return runTUIWith(cmd, af, args, "")
}

// runTUIWith opens the TUI at once; the analysis loads behind a spinner.
// With several captured targets the first is shown and `t` shows the next.
func runTUIWith(cmd *cobra.Command, af *analysisFlags, args []string, exportDir string) error {
	load := func() ([]*analyze.Result, error) {
		// The load's GC percent holds through the analysis, and the usual
		// one comes back for the browsing (see loadGC).
		restoreGC := loadGC(args)
		defer restoreGC()
		af.stdin = cmd.InOrStdin()
		return tuiResults(af, args)
	}
	opt := tui.Options{ExportDir: exportDir, Markdown: func(w io.Writer, r *analyze.Result) error {
		return report.Generate(w, r, report.Options{Format: "markdown"})
	}}
	return tui.RunMany(cmd.Context(), load, opt)
}

// tuiResults is the analysis the TUI shows: the main command's, with its
// loading notes (a file skipped in a folder, moments put in time order, a
// copy read as one moment) as the first warnings, since a terminal the TUI
// owns cannot print them; the target with the most severe finding first.
func tuiResults(af *analysisFlags, args []string) ([]*analyze.Result, error) {
	rs, notes, err := af.analyze(args)
	if err != nil {
		return nil, err
	}
	rs[0].Warnings = append(notes, rs[0].Warnings...)
	slices.SortStableFunc(rs, func(a, b *analyze.Result) int { return cmp.Compare(worst(b), worst(a)) })
	return rs, nil
}

// worst is the severity of the most severe finding of r, -1 when none.
func worst(r *analyze.Result) int {
	w := -1
	for _, f := range r.Findings {
		w = max(w, int(f.Severity))
	}
	return w
}
