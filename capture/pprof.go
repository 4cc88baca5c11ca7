package capture

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"sync"
	"syscall"
	"time"
)

// errNotDump marks a 200 answer whose first bytes are not the dump asked
// for (a login page, a catch-all route's HTML): refused before writing.
var errNotDump = errors.New("refused before writing")

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

// statusHint explains the statuses people hit when pointing at pprof;
// line is the error body's last line, already cleaned (serverLine).
func statusHint(code int, line string) string {
	switch code {
	case http.StatusUnauthorized, http.StatusForbidden:
		return "pprof needs authentication here (pass a header such as Authorization)"
	case http.StatusNotFound:
		return "pprof is not exposed at this path (import _ \"net/http/pprof\" and serve it, or check the URL)"
	}
	return line
}

// errorBodyBytes is how much of an error answer's body is read for its
// last line: a proxy's or framework's error page puts its message near the
// end of a few KiB; more is not read.
const errorBodyBytes = 4 << 10

// serverLine is the last non-empty line of an error body read up to
// errorBodyBytes (cut: more followed), as it may be shown and stored:
// secrets scrubbed in the whole of what was read before anything is cut
// (a server may echo the request's headers), the start of a secret cut by
// the read limit scrubbed too, then made inert and cut to maxServerText.
func (r *runner) serverLine(body []byte, cut bool) string {
	text := string(body)
	if cut {
		text = r.secrets.scrubCut(text)
	} else {
		text = r.secrets.scrub(text)
	}
	return r.secrets.clean(lastLineOf(text), maxServerText)
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

// answer is what a response said besides its body.
type answer struct {
	header http.Header
	// wait is from the request written to the first byte of the answer:
	// the server's time to produce it (net/http/pprof computes a profile
	// whole before writing it) plus one round trip.
	wait time.Duration
	// connect is how long the TCP connection took to open (one round
	// trip); 0 when a kept-alive connection was reused.
	connect time.Duration
}

// sniffFunc says from a body's first bytes (up to headBytes, fewer only
// when the body is shorter) whether it is the kind of dump asked for; nil
// when it may be.
type sniffFunc func(head []byte) error

// get fetches rawURL into a new atomic file, returned uncommitted, with the
// response's header. accept, when not empty, is sent as Accept unless the
// plan's headers set one. The body's first bytes are read before anything
// is written and checked by sniff: a login page, an error page sent with
// 200 or a stream of zeros is refused without touching the disk. The
// per-request timeout covers the whole body; the size cap is checked
// against Content-Length first and then while copying, which stops at the
// cap.
func (r *runner) get(ctx context.Context, rawURL, accept string, sniff sniffFunc) (*atomicFile, answer, error) {
	cctx, cancel := context.WithTimeout(ctx, r.plan.Timeout)
	defer cancel()
	var ans answer
	// The trace's callbacks run on the transport's goroutines, and may
	// still run after Do has returned an error (a request cut by its
	// timeout): what they measure is read under tmu.
	var (
		tmu           sync.Mutex
		wrote, dial   time.Time
		wait, connect time.Duration
	)
	locked := func(f func()) { tmu.Lock(); defer tmu.Unlock(); f() }
	cctx = httptrace.WithClientTrace(cctx, &httptrace.ClientTrace{
		ConnectStart:         func(string, string) { locked(func() { dial = time.Now() }) },
		ConnectDone:          func(string, string, error) { locked(func() { connect = time.Since(dial) }) },
		WroteRequest:         func(httptrace.WroteRequestInfo) { locked(func() { wrote = time.Now() }) },
		GotFirstResponseByte: func() { locked(func() { wait = time.Since(wrote) }) },
	})
	timed := func() answer {
		a := ans
		locked(func() { a.wait, a.connect = wait, connect })
		return a
	}
	req, err := http.NewRequestWithContext(cctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, timed(), fmt.Errorf("bad URL %s", showURL(rawURL))
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	for k, vs := range r.plan.Headers {
		if http.CanonicalHeaderKey(k) == "Accept" {
			req.Header.Del("Accept") // the user's own choice wins
		}
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	shown := showURL(rawURL)
	resp, err := r.client.Do(req)
	if err != nil {
		return nil, timed(), r.transportError(ctx, cctx, err, shown)
	}
	defer resp.Body.Close()
	ans.header = resp.Header
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, errorBodyBytes+1))
		cut := len(body) > errorBodyBytes
		line := r.serverLine(body[:min(len(body), errorBodyBytes)], cut)
		return nil, timed(), &httpStatusError{URL: shown, Status: r.secrets.clean(resp.Status, maxServerText), Code: resp.StatusCode,
			Hint: statusHint(resp.StatusCode, line)}
	}
	if resp.ContentLength > r.plan.MaxBytes {
		return nil, timed(), fmt.Errorf("GET %s: body of %d bytes %w of %d bytes", shown, resp.ContentLength, errTooLarge, r.plan.MaxBytes)
	}
	head := make([]byte, min(headBytes, r.plan.MaxBytes+1))
	n, err := io.ReadFull(resp.Body, head)
	head = head[:n]
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF: // a body shorter than head: all of it
	case err != nil:
		return nil, timed(), r.transportError(ctx, cctx, err, shown)
	}
	if sniff != nil {
		if err := sniff(head); err != nil {
			return nil, timed(), fmt.Errorf("GET %s: %w (%w)", shown, err, errNotDump)
		}
	}
	af, err := createAtomic(r.plan.OutDir, r.plan.MaxBytes)
	if err != nil {
		return nil, timed(), err
	}
	_, err = af.Write(head)
	if err == nil {
		_, err = io.Copy(af, resp.Body)
	}
	if err != nil {
		af.discard()
		if af.over {
			return nil, timed(), fmt.Errorf("GET %s: response %w of %d bytes (stopped writing at the cap)", shown, errTooLarge, r.plan.MaxBytes)
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, timed(), withReason(ReasonNotADump, fmt.Errorf("GET %s: body truncated after %d bytes (connection closed early)", shown, af.n))
		}
		return nil, timed(), r.transportError(ctx, cctx, err, shown)
	}
	return af, timed(), nil
}

// transportError turns a client error into one line without the request's
// user info, telling timeout, cancel and refusal apart.
func (r *runner) transportError(ctx, cctx context.Context, err error, shown string) error {
	switch {
	case ctx.Err() != nil:
		return context.Cause(ctx)
	case cctx.Err() != nil:
		return withReason(ReasonTimeout, fmt.Errorf("GET %s: no complete answer within %v (per-request timeout)", shown, r.plan.Timeout))
	case errors.Is(err, syscall.ECONNREFUSED):
		return withReason(ReasonRefused, fmt.Errorf("GET %s: connection refused (is the process running and serving pprof on that port?)", shown))
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return fmt.Errorf("GET %s: %w", shown, err) // %w: a disk error while copying stays one (reasonOf)
}

// notServed reports whether err is a 404: an optional endpoint (the
// goroutineleak profile before Go 1.27, package handler) the target does not serve.
func notServed(err error) bool {
	var se *httpStatusError
	return errors.As(err, &se) && se.Code == http.StatusNotFound
}

// fetchActuator gets a Spring Boot Actuator thread dump as JSON.
func (r *runner) fetchActuator(ctx context.Context, rawURL string) (*atomicFile, error) {
	af, _, err := r.get(ctx, rawURL, "application/json", actuatorStart)
	var se *httpStatusError
	if errors.As(err, &se) {
		se.Hint = actuatorHint(se.Code, se.Hint)
	}
	if err != nil {
		return nil, err
	}
	if err := checkActuatorJSON(af.head, af.lastBytes(), af.n); err != nil {
		af.discard()
		return nil, fmt.Errorf("GET %s: %w", showURL(rawURL), err)
	}
	return af, nil
}

// actuatorHint replaces pprof's hints for the statuses an Actuator
// endpoint answers with.
func actuatorHint(code int, hint string) string {
	switch code {
	case http.StatusUnauthorized, http.StatusForbidden:
		return "the Actuator endpoint needs authentication (pass a header such as Authorization)"
	case http.StatusNotFound:
		return "no thread dump endpoint at this path (expose it with management.endpoints.web.exposure.include=threaddump, or check the base path)"
	case http.StatusNotAcceptable:
		return "the endpoint does not serve JSON"
	}
	return hint
}
