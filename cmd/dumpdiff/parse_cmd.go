package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
	"github.com/spf13/cobra"
)

func newParseCmd() *cobra.Command {
	var format string
	var stats bool
	cmd := &cobra.Command{
		Use:   "parse [--format text|json] [--stats] FILE...",
		Short: "Show what dumpdiff reads in each dump",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			format = lowerEnum(format)
			if format != "text" && format != "json" {
				return fmt.Errorf("unknown --format %q: want text or json", format)
			}
			out := cmd.OutOrStdout()
			var failed []error
			var all []*parse.Dump
			restoreGC := loadGC(args)
			for _, name := range args {
				var dumps []*parse.Dump
				var err error
				if name == "-" {
					dumps, err = parse.Parse("-", cmd.InOrStdin())
				} else {
					dumps, err = parse.ParseFile(name)
				}
				if err != nil {
					failed = append(failed, err)
					fmt.Fprintln(cmd.ErrOrStderr(), "dumpdiff:", err)
					// A truncated input still shows what was read before the cut.
					if len(dumps) == 0 {
						continue
					}
				}
				if stats {
					for _, d := range dumps {
						src := d.Source.File
						if len(dumps) > 1 {
							src = fmt.Sprintf("%s#%d", src, d.Source.Index+1)
						}
						prefix := ""
						if d.Prefix != "" {
							// What was stripped from every line; quoted when it has a space.
							prefix = " prefix=" + d.Prefix
							if strings.ContainsRune(d.Prefix, ' ') {
								prefix = fmt.Sprintf(" prefix=%q", d.Prefix)
							}
						}
						if d.Excerpt != "" {
							prefix += " excerpt" // it starts in its middle (Dump.Excerpt says how)
						}
						fmt.Fprintf(out, "%s format=%s threads=%d skipped=%d%s\n", src, d.Format, d.ThreadCount(), len(d.Skipped), prefix)
					}
					continue
				}
				all = append(all, dumps...)
				for _, d := range dumps {
					if n := len(d.Skipped); n > 0 {
						fmt.Fprintf(cmd.ErrOrStderr(), "dumpdiff: %s: %d line(s) not understood, first at line %d: %s\n",
							d.Source, n, d.Skipped[0].Line, d.Skipped[0].Reason)
					}
				}
			}
			restoreGC()
			if !stats {
				switch format {
				case "json":
					if err := writeDumpsJSON(out, all); err != nil {
						return err
					}
				default:
					if err := parse.WriteCanonical(out, all); err != nil {
						return err
					}
				}
			}
			if len(failed) > 0 {
				return &exitError{code: 1} // each failure was printed above
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&format, "format", "f", "text", "output format: text or json")
	cmd.Flags().BoolVar(&stats, "stats", false, "print one line per dump: FILE[#K] format=NAME threads=N skipped=M [prefix=WHAT] [excerpt]")
	return cmd
}

// writeDumpsJSON writes dumps as one indented JSON array, the bytes
// json.Encoder with a two-space indent writes for the slice, a dump at a
// time: a trace's eleven moments of 10,000 goroutines are 120 MB of JSON,
// which the encoder held whole before writing a byte.
func writeDumpsJSON(w io.Writer, dumps []*parse.Dump) error {
	if dumps == nil {
		_, err := io.WriteString(w, "null\n")
		return err
	}
	if len(dumps) == 0 {
		_, err := io.WriteString(w, "[]\n")
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString("[\n")
	for i, d := range dumps {
		b, err := json.MarshalIndent(d, "  ", "  ")
		if err != nil {
			return err
		}
		bw.WriteString("  ")
		bw.Write(b)
		if i < len(dumps)-1 {
			bw.WriteByte(',')
		}
		bw.WriteByte('\n')
	}
	bw.WriteString("]\n")
	return bw.Flush()
}
