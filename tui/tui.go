// Package tui is dumpdiff's interactive terminal UI: the overview of
// findings and pools, a finding whole (its sentence, facts and a stack), a
// deadlock's cycle, a pool's states × moments table, a state's threads and
// stacks at each moment, and the comparison of a state's stacks between two
// moments. Each screen is a pane (component.go); the root model routes to
// the one on top. It only reads an *analyze.Result, computed once.
package tui

import (
	"context"
	"errors"
	"io"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/dumpdiff/dumpdiff/analyze"
)

// Options configures the TUI.
type Options struct {
	// Input and Output replace the terminal (tests); nil means stdin and
	// stdout.
	Input  io.Reader
	Output io.Writer
	// NoColor draws without colours (bold and reverse stay). Run sets it
	// too when the NO_COLOR environment variable is not empty.
	NoColor bool
	// ExportDir is where `m` writes Markdown files; "" is the current
	// directory.
	ExportDir string
	// Markdown renders the whole analysis as Markdown (report.Generate in
	// Markdown form); `m` on the unfiltered overview writes it, for the
	// target on screen when there are several. nil means the TUI's own
	// Markdown of the overview.
	Markdown func(w io.Writer, r *analyze.Result) error
	// Now stamps export file names; nil means time.Now.
	Now func() time.Time
	// Width and Height are the size before the terminal tells it; 0 means
	// 80×24.
	Width, Height int
}

// Run starts the TUI at once with a spinner while load runs in a command,
// then shows its result. It returns load's error, or the terminal's.
func Run(ctx context.Context, load func() (*analyze.Result, error), opt Options) error {
	return RunMany(ctx, func() ([]*analyze.Result, error) {
		r, err := load()
		if err != nil {
			return nil, err
		}
		return []*analyze.Result{r}, nil
	}, opt)
}

// RunMany is Run for a capture of several targets: load returns one
// analysis per target (as the report's instances), the first is shown and
// `t` cycles through the others, keeping the pool and state on screen when
// the next target has them. An empty list is an error.
func RunMany(ctx context.Context, load func() ([]*analyze.Result, error), opt Options) error {
	if os.Getenv("NO_COLOR") != "" {
		opt.NoColor = true
	}
	popts := []tea.ProgramOption{tea.WithContext(ctx)}
	if opt.Input != nil {
		popts = append(popts, tea.WithInput(opt.Input))
	}
	if opt.Output != nil {
		// Not a terminal: nobody will tell the size, so give it.
		w, h := opt.Width, opt.Height
		if w == 0 || h == 0 {
			w, h = 80, 24
		}
		popts = append(popts, tea.WithOutput(opt.Output), tea.WithWindowSize(w, h))
	}
	if opt.NoColor {
		popts = append(popts, tea.WithColorProfile(colorprofile.Ascii))
	}
	final, err := tea.NewProgram(newLoading(load, opt), popts...).Run()
	if m, ok := final.(Model); ok && m.err != nil {
		return m.err
	}
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}
