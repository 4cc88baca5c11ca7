package main

import (
	"github.com/spf13/cobra"
)

func runTUI(cmd *cobra.Command, af *analysisFlags, args []string) error {
	return &exitError{code: 2, msg: "tui: not wired yet"}
}
