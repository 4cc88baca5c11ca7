package capture

import (
	"cmp"
	"net/url"
	"slices"
	"strings"
)

// redactURL drops user info, query and fragment, which may hold credentials.
// An unparsable URL is replaced entirely.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "<unparsable URL>"
	}
	u.User = nil
	if u.RawQuery != "" {
		u.RawQuery = "REDACTED"
	}
	u.Fragment = ""
	return u.String()
}

// redacted replaces every secret in text written by this package.
const redacted = "REDACTED"

// minSecret is the shortest value scrubbed: shorter ones would scrub
// ordinary words ("ab" in "table").
const minSecret = 4

// secrets holds the plan's credentials (header values, the token of
// "Bearer abc", URL passwords), longest first. They must never be written to
// the manifest, progress lines or errors, and are easily copied elsewhere:
// a server may echo a request header back in an error body, and the same
// token is often pasted into the --load or --exec command text. Every string
// the manifest or progress receives is passed through scrub.
type secrets []string

// secrets collects p's credentials: every header value and its part after
// the first space, and every pprof target's URL password (decoded and as
// written in the URL).
func (p Plan) secrets() secrets {
	var s secrets
	add := func(v string) {
		if len(v) >= minSecret && !slices.Contains(s, v) {
			s = append(s, v)
		}
	}
	for _, vs := range p.Headers {
		for _, v := range vs {
			add(v)
			// "Bearer abc": the token alone may be echoed too.
			if _, tok, ok := strings.Cut(v, " "); ok {
				add(strings.TrimSpace(tok))
			}
		}
	}
	for _, t := range p.Targets {
		if t.Kind != KindPprof && t.Kind != KindActuator {
			continue
		}
		if u, err := url.Parse(withScheme(t.URL)); err == nil && u.User != nil {
			if pw, ok := u.User.Password(); ok {
				add(pw)
				// "p%40ss" in the URL for "p@ss".
				_, esc, _ := strings.Cut(u.User.String(), ":")
				add(esc)
			}
		}
	}
	// Longest first, so a value is replaced whole before a token inside it.
	slices.SortStableFunc(s, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	return s
}

// scrub replaces every secret in msg with REDACTED.
func (s secrets) scrub(msg string) string {
	for _, v := range s {
		msg = strings.ReplaceAll(msg, v, redacted)
	}
	return msg
}

// scrubErr is err with its text scrubbed; errors.Is and errors.As still see
// err and what it wraps (whose own texts are not scrubbed: print the
// returned error, not what it wraps).
func (s secrets) scrubErr(err error) error {
	if err == nil {
		return nil
	}
	msg := s.scrub(err.Error())
	if msg == err.Error() {
		return err
	}
	return &scrubbedError{msg: msg, err: err}
}

type scrubbedError struct {
	msg string
	err error
}

func (e *scrubbedError) Error() string { return e.msg }
func (e *scrubbedError) Unwrap() error { return e.err }

// scrubLoad scrubs the texts of a load record.
func (s secrets) scrubLoad(l LoadRecord) LoadRecord {
	l.Command = s.scrub(l.Command)
	l.Error = s.scrub(l.Error)
	l.OutputTail = s.scrub(l.OutputTail)
	return l
}
