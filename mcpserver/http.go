package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dumpdiff/dumpdiff/internal/bearer"
)

// ServeHTTP serves the server as streamable HTTP on l at /mcp until ctx
// ends. With token, every request must carry it ("Authorization: Bearer
// TOKEN", checked as watch checks its triggers); without one, l must be a
// loopback listener: the tools read files under the roots and may capture,
// not for anyone who can reach the port. The SDK's DNS-rebinding guard
// stays on (a loopback request must name a loopback host).
func (s *Server) ServeHTTP(ctx context.Context, l net.Listener, token string) error {
	if token == "" && !bearer.Loopback(l) {
		return fmt.Errorf("--listen %s is not a loopback address: serving it needs a bearer token (--token-file)", l.Addr())
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.srv }, &mcp.StreamableHTTPOptions{SessionTimeout: 30 * time.Minute})
	mux := http.NewServeMux()
	mux.Handle("/mcp", authorized(h, token))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			srv.Shutdown(shut)
		case <-done:
		}
	}()
	err := srv.Serve(l)
	close(done)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// authorized lets through requests with the token (all when token is "").
func authorized(h http.Handler, token string) http.Handler {
	if token == "" {
		return h
	}
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if !bearer.Authorized(r, token) {
			bearer.Refuse(rw, "dumpdiff mcp", "this MCP server needs its bearer token (--token-file)")
			return
		}
		h.ServeHTTP(rw, r)
	})
}
