package handler

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestFlight serves a real flight recorder from a real server on 127.0.0.1:
// the snapshot reads as moments whose last holds the 300 goroutines parked
// while it ran, in chan receive, created by this test; HEAD answers the
// bounds without a snapshot; a stopped recorder answers 503.
func TestFlight(t *testing.T) {
	f, err := NewFlight(5*time.Second, 8<<20)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Stop()
	done := park(300, 3)
	defer done()
	s := httptest.NewServer(f)
	defer s.Close()

	resp, err := http.Get(s.URL + FlightPath)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET: %d %v", resp.StatusCode, err)
	}
	if resp.Header.Get("Dumpdiff-Window") != "5s" || resp.Header.Get("Dumpdiff-Write") == "" {
		t.Errorf("headers %v", resp.Header)
	}
	dumps, err := parse.Parse("flight.trace", bytes.NewReader(body))
	if err != nil {
		t.Fatalf("the snapshot does not read: %v", err)
	}
	last := dumps[len(dumps)-1]
	if last.Format != parse.FormatGoTrace {
		t.Fatalf("format %q", last.Format)
	}
	parked := 0
	for _, th := range last.Threads {
		for _, fr := range th.Frames {
			if strings.HasSuffix(fr.Func, "parkedInHandlerTest") {
				parked++
				if th.State != "chan receive" {
					t.Errorf("goroutine %d in %q, want chan receive", th.ID, th.State)
				}
				if th.GoExtra == nil || th.Waited <= 0 {
					t.Errorf("goroutine %d: no measured wait", th.ID)
				}
				break
			}
		}
	}
	if parked != 300 {
		t.Errorf("%d parked goroutines in the snapshot's last moment, want 300", parked)
	}

	req, _ := http.NewRequest(http.MethodHead, s.URL+FlightPath, nil)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.ContentLength > 0 || resp.Header.Get("Dumpdiff-Max-Bytes") != "8388608" {
		t.Errorf("HEAD: %d, length %d, %v", resp.StatusCode, resp.ContentLength, resp.Header)
	}
	resp, err = http.Post(s.URL+FlightPath, "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d", resp.StatusCode)
	}

	f.Stop()
	resp, err = http.Get(s.URL + FlightPath)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("after Stop: %d, want 503", resp.StatusCode)
	}
}
