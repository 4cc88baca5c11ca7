package main

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dumpdiff/dumpdiff/watch"
)

// versionText says which dumpdiff this is, from the build info the Go
// toolchain records: the module version ("(devel)" for a build from a
// checkout), the VCS commit and its time (with "+modified" when the tree had
// changes), and the Go version.
func versionText() string {
	return versionFrom(debug.ReadBuildInfo())
}

// commit and commitTime are stamped by `make build` (-ldflags -X): a build
// without VCS information (-buildvcs=false, go run, a tarball) says its
// commit all the same. The toolchain's own stamp wins when present.
var commit, commitTime string

func versionFrom(bi *debug.BuildInfo, ok bool) string {
	b := buildFrom(bi, ok)
	parts := []string{"dumpdiff", b.Version}
	if b.Commit != "" {
		c := "commit " + b.Commit
		if b.when != "" {
			c += " (" + b.when + ")"
		}
		parts = append(parts, c)
	}
	if b.GoVersion != "" {
		parts = append(parts, b.GoVersion)
	}
	return strings.Join(parts, " ")
}

// build is which dumpdiff this is, in parts (watch serves them as
// dumpdiff_build_info's labels).
type build struct {
	watch.Build
	when string // the commit's time
}

func buildFrom(bi *debug.BuildInfo, ok bool) build {
	if !ok {
		bi = &debug.BuildInfo{Main: debug.Module{Version: "(no build info)"}}
	}
	var rev, when, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = "+modified"
			}
		}
	}
	if rev == "" && commit != "" {
		rev, modified, when = strings.TrimSuffix(commit, "+modified"), "", commitTime
		if strings.HasSuffix(commit, "+modified") {
			modified = "+modified"
		}
	}
	b := build{Build: watch.Build{Version: bi.Main.Version, GoVersion: bi.GoVersion}, when: when}
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		b.Commit = rev + modified
	}
	return b
}

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print dumpdiff's version, commit and Go version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintln(cmd.OutOrStdout(), versionText())
			return err
		},
	}
}
