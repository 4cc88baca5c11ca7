package capture

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"encoding/json"
	"html"
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

// secrets collects p's credentials in every form a server or a log may
// hand them back in:
//   - every header value, and its part after the first space (the token of
//     "Bearer abc"); for "Basic <base64>", the decoded "user:password" and
//     the password;
//   - every pprof and Actuator target's URL password, decoded and as written
//     in the URL, and the "Authorization: Basic" value Go's client makes of
//     the URL's user info (base64 of "user:password"), padded and not;
//   - every value of a target URL's own query (?token=...), decoded and as
//     written;
//   - each of these as a server would echo it inside a URL, a JSON string
//     or an HTML page (percent-, JSON- and HTML-escaped).
func (p Plan) secrets() secrets {
	var s secrets
	add := func(v string) {
		if len(v) >= minSecret && !slices.Contains(s, v) {
			s = append(s, v)
		}
	}
	addBasic := func(userPass string) {
		enc := base64.StdEncoding.EncodeToString([]byte(userPass))
		add(enc)
		add(strings.TrimRight(enc, "="))
	}
	for _, vs := range p.Headers {
		for _, v := range vs {
			add(v)
			// "Bearer abc": the token alone may be echoed too.
			scheme, tok, ok := strings.Cut(v, " ")
			if !ok {
				continue
			}
			tok = strings.TrimSpace(tok)
			add(tok)
			if strings.EqualFold(scheme, "basic") {
				if dec, err := base64.StdEncoding.DecodeString(tok); err == nil {
					add(string(dec))
					if _, pw, ok := strings.Cut(string(dec), ":"); ok {
						add(pw)
					}
				}
			}
		}
	}
	for _, t := range p.Targets {
		if t.Kind != KindPprof && t.Kind != KindActuator {
			continue
		}
		u, err := url.Parse(withScheme(t.URL))
		if err != nil {
			continue
		}
		if u.User != nil {
			if pw, ok := u.User.Password(); ok {
				add(pw)
				// "p%40ss" in the URL for "p@ss".
				_, esc, _ := strings.Cut(u.User.String(), ":")
				add(esc)
			}
			pw, _ := u.User.Password()
			addBasic(u.User.Username() + ":" + pw)
		}
		for _, kv := range strings.Split(u.RawQuery, "&") {
			k, v, _ := strings.Cut(kv, "=")
			if ownQueryKey(k) {
				continue
			}
			add(v)
			if dec, err := url.QueryUnescape(v); err == nil {
				add(dec)
			}
		}
	}
	for _, v := range slices.Clone(s) {
		for _, esc := range escapedForms(v) {
			add(esc)
		}
	}
	// Longest first, so a value is replaced whole before a token inside it.
	slices.SortStableFunc(s, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	return s
}

// ownQueryKey reports whether k is a query parameter capture sets itself
// on pprof endpoints: not the user's, never a secret, and replaced by ours.
func ownQueryKey(k string) bool {
	switch k {
	case "debug", "seconds", "gc":
		return true
	}
	return false
}

// escapedForms are v as a server may echo it: percent-escaped in a URL
// (query and path), inside a JSON string (Go's encoder escapes <, > and &
// too), and HTML-escaped. Most tokens are the same in every form.
func escapedForms(v string) []string {
	j, _ := json.Marshal(v)
	var plain bytes.Buffer
	enc := json.NewEncoder(&plain)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	return []string{
		url.QueryEscape(v), url.PathEscape(v),
		strings.Trim(string(j), `"`), strings.Trim(strings.TrimSpace(plain.String()), `"`),
		html.EscapeString(v),
	}
}

// scrub replaces every secret in msg with REDACTED.
func (s secrets) scrub(msg string) string {
	for _, v := range s {
		msg = strings.ReplaceAll(msg, v, redacted)
	}
	return msg
}

// minCutSecret is the shortest start of a secret scrubbed at the end of a
// cut text: two characters of a token say nothing of it, and scrubbing them
// would mark every cut that happens to end like a secret starts.
const minCutSecret = 3

// scrubCut is scrub for a text cut at its end from a longer one (an error
// body read up to a limit): a secret cut in two leaves its start at the
// end, which is replaced too.
func (s secrets) scrubCut(msg string) string {
	msg = s.scrub(msg)
	for _, v := range s {
		for k := len(v) - 1; k >= minCutSecret; k-- {
			if strings.HasSuffix(msg, v[:k]) {
				return msg[:len(msg)-k] + redacted
			}
		}
	}
	return msg
}

// clean is msg fit to show and store: secrets scrubbed, then made inert on
// one line and cut to max bytes (0: maxMessage). Scrubbing comes first, so
// no cut ever splits a secret.
func (s secrets) clean(msg string, max int) string {
	if max <= 0 {
		max = maxMessage
	}
	return inert(s.scrub(msg), max)
}

// scrubErr is err with its text scrubbed and made inert; errors.Is and errors.As still see
// err and what it wraps (whose own texts are not scrubbed: print the
// returned error, not what it wraps).
func (s secrets) scrubErr(err error) error {
	if err == nil {
		return nil
	}
	msg := s.clean(err.Error(), 0)
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
	l.Command = s.scrub(l.Command) // the user's own command: shown as given
	l.Error = s.clean(l.Error, 0)
	l.OutputTail = inertLines(s.scrub(l.OutputTail))
	return l
}

// Redact is text with every secret of p replaced by REDACTED, as this
// package scrubs what it writes (see Plan.Headers): for a caller that
// hands on text near the plan (the MCP server's answers and errors).
func (p Plan) Redact(text string) string { return p.secrets().scrub(text) }
