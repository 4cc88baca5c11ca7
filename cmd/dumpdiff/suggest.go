package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
)

// unknownCommand catches a mistyped subcommand before the main command
// reads it as a dump file: the first argument names no file and is close to
// a subcommand's name ("captur"). Returns nil otherwise.
func unknownCommand(root *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	a := args[0]
	if a == "" || a == "-" || strings.HasPrefix(a, "-") || strings.ContainsAny(a, `/\.`) {
		return nil
	}
	if _, err := os.Stat(a); err == nil {
		return nil // a file or folder of that name: the main job
	}
	for _, c := range root.Commands() {
		if c.Name() == a || c.HasAlias(a) {
			return nil
		}
	}
	root.SuggestionsMinimumDistance = 2
	if s := root.SuggestionsFor(a); len(s) > 0 {
		return fmt.Errorf("unknown command %q: did you mean %q? (a dump file of that name does not exist)", a, s[0])
	}
	return nil
}
