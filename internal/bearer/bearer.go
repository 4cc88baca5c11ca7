// Package bearer is the check an HTTP endpoint of dumpdiff makes before it
// acts for a caller (watch's POST /trigger, the MCP server's streamable
// HTTP): with a token, the caller must send it as "Authorization: Bearer
// <token>"; without one, only a loopback listener serves. One place, so
// that the two endpoints cannot drift apart.
package bearer

import (
	"crypto/subtle"
	"net"
	"net/http"
	"strings"
)

// Authorized reports whether r carries token as its bearer token. The
// comparison takes the same time whatever the bytes sent (no timing
// oracle on the token).
func Authorized(r *http.Request, token string) bool {
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return ok && subtle.ConstantTimeCompare([]byte(got), []byte(token)) == 1
}

// Refuse answers 401 with the WWW-Authenticate challenge of realm and msg
// as the body.
func Refuse(rw http.ResponseWriter, realm, msg string) {
	rw.Header().Set("WWW-Authenticate", `Bearer realm="`+realm+`"`)
	http.Error(rw, msg, http.StatusUnauthorized)
}

// Loopback reports whether l listens on a loopback address only (false
// for nil and for 0.0.0.0, which listens on every address).
func Loopback(l net.Listener) bool {
	if l == nil {
		return false
	}
	a, ok := l.Addr().(*net.TCPAddr)
	return ok && a.IP.IsLoopback()
}
