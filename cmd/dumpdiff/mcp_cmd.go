package main

import (
	"fmt"
	"net"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/mcpserver"
)

func newMCPCmd() *cobra.Command {
	var (
		roots        []string
		listen       string
		tokenFile    string
		allowCapture bool
		src          sourceFlags
		af           analysisFlags
	)
	cmd := &cobra.Command{
		Use:   "mcp [--root DIR]... [--listen ADDR] [--allow-capture URL... --pid PID --exec CMD]",
		Short: "Serve the analysis to an AI assistant as an MCP server (stdio, or HTTP with --listen)",
		Long: `Serve the analysis to an AI assistant over the Model Context Protocol: on standard input
and output (what an assistant's configuration starts), or as streamable HTTP at
http://ADDR/mcp with --listen (loopback only, unless --token-file gives the bearer token
every request must carry).

Tools: analyze (the verdict and an analysis id), verdict (its next pages), finding,
pools, groups, stack, compare, incidents (a watch folder's), bundle (an incident
bundle's analysis), capture (off unless --allow-capture, and then only of the targets
given here). Resources: each analysis' reports (Markdown, HTML, JSON), the folders
and incident bundles read. Prompt: investigate_incident.

The server reads files only under the --root folders (default: the current folder),
symlinks resolved; answers come in pages bounded in size.`,
		Example: `  dumpdiff mcp --root /var/lib/dumpdiff
  dumpdiff mcp --root dumps/ --allow-capture http://127.0.0.1:6060 --pid 4242
  dumpdiff mcp --root dumps/ --listen 127.0.0.1:8765`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(roots) == 0 {
				roots = []string{"."}
			}
			cfg := mcpserver.Config{Roots: roots, AllowCapture: allowCapture, Version: buildFrom(debug.ReadBuildInfo()).Version}
			for _, name := range momentFlags {
				if cmd.Flags().Changed(name) {
					return fmt.Errorf("--%s means nothing to mcp: each analyze call gives its own order and labels", name)
				}
			}
			cfg.Analyze = mcpAnalyze(af)
			given := len(args)+len(src.pids)+len(src.execs)+len(src.actuators) > 0
			if given && !allowCapture {
				return fmt.Errorf("targets given without --allow-capture: give --allow-capture to let the assistant capture them, or drop them")
			}
			if given {
				plan, err := src.plan(cmd, args)
				if err != nil {
					return err
				}
				cfg.Plan, cfg.Targets = plan, plan.Targets
			}
			s, err := mcpserver.New(cfg)
			if err != nil {
				return err
			}
			if listen == "" {
				if tokenFile != "" {
					return fmt.Errorf("--token-file is for --listen: stdio has no one else to keep out")
				}
				return s.Run(cmd.Context(), mcpserver.Stdio(cmd.InOrStdin(), cmd.OutOrStdout()))
			}
			token, err := readTokenFile(tokenFile)
			if err != nil {
				return err
			}
			l, err := net.Listen("tcp", listen)
			if err != nil {
				return fmt.Errorf("--listen: %w", err)
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "dumpdiff: MCP server at http://%s/mcp (roots: %s)\n", l.Addr(), strings.Join(roots, ", "))
			return s.ServeHTTP(cmd.Context(), l, token)
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&roots, "root", nil, "a folder the server may read (repeatable; default the current folder); nothing outside is read")
	f.StringVar(&listen, "listen", "", "serve streamable HTTP at http://ADDR/mcp instead of stdio (a loopback address unless --token-file)")
	f.StringVar(&tokenFile, "token-file", "", "file holding the bearer token every HTTP request must carry (needed when --listen is not a loopback address)")
	f.BoolVar(&allowCapture, "allow-capture", false, "let the assistant capture the targets given (URLs, --pid, --exec, --actuator), and no other")
	src.register(cmd)
	af.register(cmd)
	for _, name := range momentFlags {
		cmd.Flags().MarkHidden(name)
	}
	return cmd
}

// mcpAnalyze is the main command's analysis for the MCP server: af's
// flags (--pool-by, --signatures) for every call, the order and labels of
// the call.
func mcpAnalyze(af analysisFlags) mcpserver.AnalyzeFunc {
	return func(paths []string, opt mcpserver.AnalyzeOptions) ([]*analyze.Result, []string, error) {
		f := af // a copy per call: the flags that shape the moments are the call's
		f.order = opt.Order
		if f.order == "" {
			f.order = "time"
		}
		for _, l := range opt.Labels {
			if strings.Contains(l, ",") {
				return nil, nil, fmt.Errorf("label %q: a label holds no comma", l)
			}
		}
		f.labels = strings.Join(opt.Labels, ",")
		return f.analyze(paths)
	}
}
