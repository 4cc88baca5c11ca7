package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"
)

// exitError carries an exit status other than 1 (e.g. 3 for --fail-on).
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// run executes dumpdiff with args and returns the process exit status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCmd()
	if err := unknownCommand(root, args); err != nil {
		fmt.Fprintln(stderr, "dumpdiff:", err)
		return 1
	}
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetIn(stdin)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintln(stderr, "dumpdiff:", ee.msg)
		}
		return ee.code
	}
	fmt.Fprintln(stderr, "dumpdiff:", err)
	return 1
}

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "dumpdiff [flags] DUMP|FOLDER...",
		Short: "Compare thread dumps across moments and say what never recovers",
		Long: "Compare thread dumps across moments and say what never recovers.\n\n" +
			"Give the dumps of one process taken at several moments (before, during and after a\n" +
			"load), or a folder of them (a dumpdiff capture, or files named before/during/after):\n" +
			"Go goroutine dumps (debug=1, debug=2, proto profiles), JVM thread dumps (jstack,\n" +
			"jcmd, kill -3 in a log, Actuator JSON, OpenJ9 javacores), pasted, prefixed or gzipped.\n" +
			"Moments are read in the order of the times they print; a copy of a dump is one moment.",
		Example: "  dumpdiff before.txt during.txt after.txt\n" +
			"  dumpdiff testdata/scenarios/slow-upstream-no-timeout/     # a folder of moments\n" +
			"  dumpdiff -f markdown dumps/ > ticket.md                   # also jira, slack, html, json\n" +
			"  dumpdiff tui dumps/                                       # browse pools, states, stacks\n" +
			"  dumpdiff capture --pid 4242 --load 'wrk -d30s http://127.0.0.1:8080/' --out dumps/ --analyze",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(newParseCmd(), newTUICmd(), newCaptureCmd(), newWatchCmd(), newMCPCmd(), newVersionCmd())
	root.Version = versionText()
	root.SetVersionTemplate("{{.Version}}\n")
	addAnalysis(root)
	registerCompletions(root)
	root.SetFlagErrorFunc(flagError) // inherited by every subcommand
	return root
}
