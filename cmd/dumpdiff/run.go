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
		Use:           "dumpdiff [flags] DUMP...",
		Short:         "Compare thread dumps across moments and say what never recovers",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(newParseCmd(), newTUICmd(), newCaptureCmd(), newWatchCmd(), newVersionCmd())
	root.Version = versionText()
	root.SetVersionTemplate("{{.Version}}\n")
	addAnalysis(root)
	registerCompletions(root)
	root.SetFlagErrorFunc(flagError) // inherited by every subcommand
	return root
}
