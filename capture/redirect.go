package capture

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// maxRedirects is the most redirects one request follows. A pprof or
// Actuator endpoint behind a proxy or a framework redirects once or twice
// (a trailing slash, http to https); more is a loop or a login dance.
const maxRedirects = 3

// errOffTarget marks a redirect that was refused because it leaves the
// target: the moment fails, nothing of the other location is kept.
var errOffTarget = errors.New("redirect refused")

// checkRedirect is the HTTP client's redirect policy. Go's default follows
// up to 10 redirects to any host and sends the request's custom headers
// (an API key given with --header) along; only Authorization and Cookie are
// dropped on a cross-host hop. A capture must never save another host's
// dump as its target's, nor send its credentials anywhere but the target,
// so a redirect is followed only to the target's own origin: the same
// scheme, host and port, or from http to https on the same host (its
// default port, or the same explicit port). Anything else fails the moment
// with a message naming both locations.
func checkRedirect(req *http.Request, via []*http.Request) error {
	from := via[0].URL // the target as requested
	last := via[len(via)-1].URL
	if len(via) > maxRedirects {
		return fmt.Errorf("%w: more than %d redirects (last from %s to %s): a loop, or a login page in front of the endpoint",
			errOffTarget, maxRedirects, showURL(last.String()), showURL(req.URL.String()))
	}
	if !sameOrigin(from.Scheme, from.Host, req.URL.Scheme, req.URL.Host) {
		return fmt.Errorf("%w: %s redirected to %s, off the target (another scheme, host or port): a capture never follows a target elsewhere; give the final URL if it is the same service",
			errOffTarget, showURL(last.String()), showURL(req.URL.String()))
	}
	return nil
}

// sameOrigin reports whether a request to scheme://host may follow a
// redirect to toScheme://toHost: same scheme, host and port, or an upgrade
// from http to https on the same host whose port is the https default
// where the target's was the http default, or the same explicit port.
// Hosts compare case-insensitively; a port left out is the scheme's default.
func sameOrigin(scheme, host, toScheme, toHost string) bool {
	scheme, toScheme = strings.ToLower(scheme), strings.ToLower(toScheme)
	name, port := splitHostPort(host, scheme)
	toName, toPort := splitHostPort(toHost, toScheme)
	if !strings.EqualFold(name, toName) {
		return false
	}
	switch {
	case scheme == toScheme:
		return port == toPort
	case scheme == "http" && toScheme == "https":
		return port == toPort || (port == "80" && toPort == "443")
	}
	return false // https to http sends the credentials in the clear
}

// splitHostPort splits "host:port" (or "[::1]:port", or a host alone) and
// fills in the scheme's default port.
func splitHostPort(hostport, scheme string) (host, port string) {
	host = hostport
	if i := strings.LastIndexByte(hostport, ':'); i >= 0 && !strings.Contains(hostport[i:], "]") {
		host, port = hostport[:i], hostport[i+1:]
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[scheme]
	}
	return host, port
}
