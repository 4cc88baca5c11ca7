package capture

import (
	"net/http"
	"net/url"
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

// secrets holds header values that must never be written to the manifest,
// progress lines or errors. Its scrub is the last step before any of those:
// a server may echo a request header back in an error body.
type secrets []string

func newSecrets(h http.Header) secrets {
	var s secrets
	for _, vs := range h {
		for _, v := range vs {
			if len(v) >= 4 { // shorter values would scrub ordinary words
				s = append(s, v)
			}
			// "Bearer abc": the token alone may be echoed too.
			if _, tok, ok := strings.Cut(v, " "); ok && len(tok) >= 4 {
				s = append(s, tok)
			}
		}
	}
	return s
}

func (s secrets) scrub(msg string) string {
	for _, v := range s {
		msg = strings.ReplaceAll(msg, v, "REDACTED")
	}
	return msg
}

// urlPassword is the password of a URL's user info (http://u:pw@host), as a
// secret to scrub; none when absent or too short to scrub safely.
func urlPassword(raw string) secrets {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return nil
	}
	if pw, ok := u.User.Password(); ok && len(pw) >= 4 {
		return secrets{pw}
	}
	return nil
}
