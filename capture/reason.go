package capture

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Why a file failed, in a few words a metric or an alert can group by
// (File.Reason). The set is closed: every failure is one of these.
const (
	ReasonRefused     = "refused"     // nothing listens: the process is down or not serving there
	ReasonTimeout     = "timeout"     // no complete answer within Plan.Timeout
	ReasonHTTPStatus  = "http-status" // an answer other than 200 (401, 404, 500...)
	ReasonNotADump    = "not-a-dump"  // an answer that is no dump (a login page, a truncated body)
	ReasonTooLarge    = "too-large"   // past Plan.MaxBytes
	ReasonRedirect    = "redirect"    // a redirect off the target, refused
	ReasonGone        = "gone"        // the pid has exited, is not a JVM, or nothing shows it is one (not attached)
	ReasonTool        = "tool"        // jcmd, jstack or a command failed
	ReasonDisk        = "disk"        // the out folder could not be written (full, read-only, removed)
	ReasonInterrupted = "interrupted" // the run was stopped while the file was in flight
	ReasonOther       = "other"       // none of the above (a network error, a bad URL)
)

// Reasons is the closed set, in the order above: what a metric serves a
// zero series for.
var Reasons = []string{ReasonRefused, ReasonTimeout, ReasonHTTPStatus, ReasonNotADump, ReasonTooLarge,
	ReasonRedirect, ReasonGone, ReasonTool, ReasonDisk, ReasonInterrupted, ReasonOther}

// reasoned carries a Reason for an error whose text says it in words.
type reasoned struct {
	error
	reason string
}

func (e *reasoned) Unwrap() error { return e.error }

func withReason(reason string, err error) error { return &reasoned{err, reason} }

// reasonOf classifies a failure, most specific first. A file error is
// "disk" only when it is of the out folder, dir (a file read back through
// /proc/PID/root from a JVM that exited is not the disk's fault).
func reasonOf(ctx context.Context, err error, dir string) string {
	var re *reasoned
	var se *httpStatusError
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case ctx.Err() != nil:
		return ReasonInterrupted
	case errors.As(err, &re):
		return re.reason
	case errors.Is(err, errOffTarget):
		return ReasonRedirect
	case errors.Is(err, errTooLarge):
		return ReasonTooLarge
	case errors.As(err, &se):
		return ReasonHTTPStatus
	case errors.Is(err, errNotDump):
		return ReasonNotADump
	case errors.Is(err, syscall.ECONNREFUSED):
		return ReasonRefused
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT), errors.Is(err, syscall.EROFS):
		return ReasonDisk
	case errors.As(err, &pe):
		if inDir(pe.Path, dir) {
			return ReasonDisk
		}
	case errors.As(err, &le):
		if inDir(le.New, dir) {
			return ReasonDisk
		}
	}
	return ReasonOther
}

// inDir reports whether path is dir or below it (a bare name, as commit
// reports it, is the out folder's).
func inDir(path, dir string) bool {
	if !filepath.IsAbs(path) && !strings.Contains(path, string(filepath.Separator)) {
		return true
	}
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
