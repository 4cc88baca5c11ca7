package capture

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// tailBuffer keeps the last max bytes written to it: a command's stderr for
// its error message, the load command's output for the manifest.
type tailBuffer struct {
	max int
	b   []byte
	cut bool // bytes before b were dropped, and not at a line's end
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > 2*t.max {
		from := len(t.b) - t.max
		t.cut = t.b[from-1] != '\n'
		t.b = append(t.b[:0], t.b[from:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string { return string(t.b[max(0, len(t.b)-t.max):]) }

// scrubbedTail is the last max bytes with secrets scrubbed. It scrubs all
// it holds before cutting, and when it was cut inside a line it starts at
// the next line, so no part of a secret cut in two survives at its start.
func (t *tailBuffer) scrubbedTail(s secrets) string {
	b := s.scrub(string(t.b))
	cut := t.cut
	if from := len(b) - t.max; from > 0 {
		cut = b[from-1] != '\n'
		b = b[from:]
	}
	if i := strings.IndexByte(b, '\n'); cut && i >= 0 && i < len(b)-1 {
		b = b[i+1:]
	}
	return b
}

// runToFile runs argv with stdout into a new atomic file in dir (capped at
// maxBytes) and returns it uncommitted. On any failure the file is discarded
// and the error carries stderr's last line. The command runs in its own
// process group, killed whole on timeout or cancel.
func runToFile(ctx context.Context, dir string, maxBytes int64, timeout time.Duration, argv []string) (*atomicFile, error) {
	af, err := createAtomic(dir, maxBytes)
	if err != nil {
		return nil, err
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(cctx, argv[0], argv[1:]...)
	var stderr tailBuffer
	stderr.max = 2 << 10
	cmd.Stdout, cmd.Stderr = af, &stderr
	KillGroupOnCancel(cmd)
	cmd.WaitDelay = time.Second // a background child holding stdout open
	err = cmd.Run()
	switch {
	case af.over:
		err = fmt.Errorf("output %w of %d bytes", errTooLarge, maxBytes)
	case ctx.Err() != nil:
		err = context.Cause(ctx)
	case cctx.Err() != nil:
		err = withReason(ReasonTimeout, fmt.Errorf("timed out after %v", timeout))
	case errors.Is(err, exec.ErrNotFound):
		// keep: callers test for it
	case err != nil:
		msg := lastLineOf(stderr.String())
		if msg == "" { // jcmd prints its failures on stdout
			msg = string(lastLine(af.lastBytes()))
		}
		if msg != "" {
			err = fmt.Errorf("%v: %s", err, msg)
		}
		err = withReason(ReasonTool, err)
	}
	if err != nil {
		af.discard()
		return nil, err
	}
	return af, nil
}

func lastLineOf(s string) string {
	s = strings.TrimRight(s, "\r\n\t ")
	// A Java stack trace's frames ("\tat ...", "... 5 more") say where,
	// not what: the line above them does (jcmd on a pid that is gone:
	// "java.io.IOException: No such process").
	for {
		i := strings.LastIndexByte(s, '\n')
		if i < 0 {
			break
		}
		last := strings.TrimSpace(s[i+1:])
		if !strings.HasPrefix(last, "at ") && !(strings.HasPrefix(last, "... ") && strings.HasSuffix(last, " more")) {
			break
		}
		s = strings.TrimRight(s[:i], "\r\n\t ")
	}
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return strings.TrimSpace(s)
}
