package main

import (
	"context"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dumpdiff/dumpdiff/mcpserver"
)

// bearerRT adds a bearer token to every request.
type bearerRT struct{ token string }

func (b bearerRT) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// anyAddr is a loopback listener that says it listens on every address
// (0.0.0.0), as `--listen :8765` would: the test binds nothing but
// 127.0.0.1.
type anyAddr struct{ net.Listener }

func (anyAddr) Addr() net.Addr { return &net.TCPAddr{IP: net.IPv4zero, Port: 8765} }

// TestMCPHTTPToken: over streamable HTTP, a server with a token answers
// only the client that sends it (as watch's triggers), and a listener off
// loopback is refused without a token.
func TestMCPHTTPToken(t *testing.T) {
	root, _ := filepath.Abs("../../testdata/scenarios")
	s, err := mcpserver.New(mcpserver.Config{Roots: []string{root}, Analyze: mcpAnalyze(analysisFlags{})})
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.ServeHTTP(context.Background(), anyAddr{l}, ""); err == nil || !strings.Contains(err.Error(), "needs a bearer token") {
		t.Errorf("a listener on every address without a token: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.ServeHTTP(ctx, l, "s3cret") }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("ServeHTTP: %v", err)
		}
	}()
	url := "http://" + l.Addr().String() + "/mcp"
	client := mcp.NewClient(&mcp.Implementation{Name: "dumpdiff-test", Version: "1"}, nil)
	if cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, nil); err == nil {
		cs.Close()
		t.Errorf("a client without the token was let in")
	} else if !strings.Contains(err.Error(), "401") && !strings.Contains(strings.ToLower(err.Error()), "unauthorized") {
		t.Errorf("a client without the token: %v, want 401", err)
	}
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1,
		HTTPClient: &http.Client{Transport: bearerRT{"s3cret"}}}, nil)
	if err != nil {
		t.Fatalf("a client with the token: %v", err)
	}
	defer cs.Close()
	var v mcpserver.Verdict
	callTool(t, cs, "analyze", map[string]any{"paths": []string{"mypage-pool-stuck"}}, &v)
	if len(v.Findings) == 0 {
		t.Errorf("analyze over HTTP: no finding: %+v", v)
	}
}
