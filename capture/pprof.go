package capture

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"syscall"
)

// errAbsent marks a goroutineleak endpoint that answered 404: not served by
// this Go version (before 1.27) or not enabled. Not an error for the run.
var errAbsent = errors.New("not served")

// httpStatusError is a non-200 answer; Hint says what it usually means.
type httpStatusError struct {
	URL    string // without user info
	Status string // "401 Unauthorized"
	Code   int
	Hint   string // may be empty
}

func (e *httpStatusError) Error() string {
	msg := fmt.Sprintf("HTTP %s from %s", e.Status, e.URL)
	if e.Hint != "" {
		msg += ": " + e.Hint
	}
	return msg
}

// statusHint explains the statuses people hit when pointing at pprof.
func statusHint(code int, body string) string {
	switch code {
	case http.StatusUnauthorized, http.StatusForbidden:
		return "pprof needs authentication here (pass a header such as Authorization)"
	case http.StatusNotFound:
		return "pprof is not exposed at this path (import _ \"net/http/pprof\" and serve it, or check the URL)"
	}
	if line := lastLineOf(body); line != "" {
		return line
	}
	return ""
}

// showURL is a request URL fit for messages: our own query (debug=2) is kept,
// user info is dropped.
func showURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "<unparsable URL>"
	}
	u.User = nil
	return u.String()
}

// get fetches rawURL into a new atomic file, returned uncommitted. The
// per-request timeout covers the whole body; the size cap is checked against
// Content-Length first and then while copying.
func (r *runner) get(ctx context.Context, rawURL string) (*atomicFile, error) {
	cctx, cancel := context.WithTimeout(ctx, r.plan.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(cctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, fmt.Errorf("bad URL %s", showURL(rawURL))
	}
	for k, vs := range r.plan.Headers {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	shown := showURL(rawURL)
	resp, err := r.client.Do(req)
	if err != nil {
		return nil, r.transportError(ctx, cctx, err, shown)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return nil, &httpStatusError{URL: shown, Status: resp.Status, Code: resp.StatusCode,
			Hint: statusHint(resp.StatusCode, string(body))}
	}
	if resp.ContentLength > r.plan.MaxBytes {
		return nil, fmt.Errorf("GET %s: body of %d bytes %w of %d bytes", shown, resp.ContentLength, errTooLarge, r.plan.MaxBytes)
	}
	af, err := createAtomic(r.plan.OutDir, r.plan.MaxBytes)
	if err != nil {
		return nil, err
	}
	if _, err := io.Copy(af, resp.Body); err != nil {
		af.discard()
		if af.over {
			return nil, fmt.Errorf("GET %s: response %w of %d bytes", shown, errTooLarge, r.plan.MaxBytes)
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("GET %s: body truncated after %d bytes (connection closed early)", shown, af.n)
		}
		return nil, r.transportError(ctx, cctx, err, shown)
	}
	return af, nil
}

// transportError turns a client error into one line without the request's
// user info, telling timeout, cancel and refusal apart.
func (r *runner) transportError(ctx, cctx context.Context, err error, shown string) error {
	switch {
	case ctx.Err() != nil:
		return context.Cause(ctx)
	case cctx.Err() != nil:
		return fmt.Errorf("GET %s: no complete answer within %v (per-request timeout)", shown, r.plan.Timeout)
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Errorf("GET %s: connection refused (is the process running and serving pprof on that port?)", shown)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return fmt.Errorf("GET %s: %v", shown, err)
}

// pprofFiles are the files of one pprof moment, primary first.
func pprofFiles(base, prefix string) []fileJob {
	return []fileJob{
		{kind: FileGoroutine, primary: true, name: prefix + ".txt", what: "goroutine debug=2", url: base + "/goroutine?debug=2"},
		{kind: FileGoroutineProto, name: prefix + ".pb.gz", what: "goroutine debug=0", url: base + "/goroutine?debug=0"},
		{kind: FileGoroutineLeak, name: prefix + "-leak.txt", what: "goroutineleak debug=2", url: base + "/goroutineleak?debug=2"},
	}
}

// fetchPprof gets one pprof file and checks its bytes.
func (r *runner) fetchPprof(ctx context.Context, j fileJob) (*atomicFile, error) {
	af, err := r.get(ctx, j.url)
	var se *httpStatusError
	if j.kind == FileGoroutineLeak && errors.As(err, &se) && se.Code == http.StatusNotFound {
		return nil, errAbsent
	}
	if err != nil {
		return nil, err
	}
	switch j.kind {
	case FileGoroutineProto:
		err = checkGzipFile(af.head, af.f.Name())
	case FileGoroutineLeak:
		if af.n > 0 { // no goroutines to report may be an empty body
			err = checkGoroutineText(af.head, af.lastBytes(), af.n)
		}
	default:
		err = checkGoroutineText(af.head, af.lastBytes(), af.n)
	}
	if err != nil {
		af.discard()
		return nil, fmt.Errorf("GET %s: %w", showURL(j.url), err)
	}
	return af, nil
}
