package main

import (
	"cmp"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/capture"
	"github.com/dumpdiff/dumpdiff/parse"
	"github.com/dumpdiff/dumpdiff/report"
)

// flagValues are the values shell completion offers for a flag, by flag
// name, wherever the flag is defined. cmd is the command being completed;
// args are the arguments given so far (the dumps, for --pool-by).
var flagValues = map[string]func(cmd *cobra.Command, args []string) []string{
	"format": func(cmd *cobra.Command, _ []string) []string {
		if cmd.Name() == "parse" {
			return []string{"text", "json"}
		}
		var out []string
		for _, f := range report.Formats() {
			out = append(out, fmt.Sprint(f))
		}
		return out
	},
	"color": func(*cobra.Command, []string) []string { return []string{"auto", "always", "never"} },
	"order": func(*cobra.Command, []string) []string { return []string{"time", "args"} },
	"sort":  func(*cobra.Command, []string) []string { return []string{"time", "args"} },
	"fail-on": func(*cobra.Command, []string) []string {
		return append(append([]string(nil), analyze.Kinds...), "critical", "warning")
	},
	"pool-by": poolByValues,
	"alert":   func(*cobra.Command, []string) []string { return []string{"critical", "warning"} },
	// The JVMs of this machine that capture may attach to, with their
	// command lines (cobra shows what follows a tab as the description).
	"pid": func(*cobra.Command, []string) []string {
		var out []string
		for _, j := range capture.LocalJVMs() {
			out = append(out, strconv.Itoa(j.PID)+"\t"+cmp.Or(j.Command, "java"))
		}
		return out
	},
}

// registerCompletions wires the completions: dump files and folders for
// the main command and tui, flag values from flagValues.
func registerCompletions(root *cobra.Command) {
	files := func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return nil, cobra.ShellCompDirectiveDefault // the shell's own file and folder completion
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c == root || c.Name() == "tui" || c.Name() == "parse" {
			c.ValidArgsFunction = files
		}
		for name, values := range flagValues {
			if c.Flags().Lookup(name) == nil {
				continue
			}
			values := values
			_ = c.RegisterFlagCompletionFunc(name, func(cmd *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
				return values(cmd, args), cobra.ShellCompDirectiveNoFileComp
			})
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// poolByValues offers label:KEY for the pprof label keys of the dumps
// given so far (only the files, read whole; folders are skipped to stay
// cheap), and the bare "label:" prefix.
func poolByValues(_ *cobra.Command, args []string) []string {
	keys := map[string]bool{}
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil || st.IsDir() || st.Size() > 64<<20 {
			continue
		}
		ds, err := parse.ParseFile(a)
		if err != nil {
			continue
		}
		for _, d := range ds {
			for _, t := range d.Threads {
				for k := range t.Labels {
					keys[k] = true
				}
			}
		}
	}
	out := []string{"label:"}
	var ks []string
	for k := range keys {
		ks = append(ks, "label:"+k)
	}
	sort.Strings(ks)
	return append(out, ks...)
}

// lowerEnum lower-cases an enum flag value and trims it: --format JSON is
// --format json.
func lowerEnum(v string) string { return strings.ToLower(strings.TrimSpace(v)) }
