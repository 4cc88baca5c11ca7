package handler

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/pprof"
	"strconv"
	"sync"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// park starts n goroutines blocked in parkedInHandlerTest, depth frames
// deep, and returns a func that ends them.
func park(n, depth int) func() {
	var wg, ready sync.WaitGroup
	stop := make(chan struct{})
	for range n {
		wg.Add(1)
		ready.Add(1)
		go func() {
			defer wg.Done()
			parkedInHandlerTest(stop, depth, &ready)
		}()
	}
	// Every goroutine is inside parkedInHandlerTest before the test
	// dumps: one started but not yet run has none of its frames (a dump
	// taken under a loaded machine counted 2,969 of 3,000).
	ready.Wait()
	return func() { close(stop); wg.Wait() }
}

//go:noinline
func parkedInHandlerTest(stop chan struct{}, depth int, ready *sync.WaitGroup) {
	if depth > 0 {
		parkedInHandlerTest(stop, depth-1, ready)
		return
	}
	ready.Done()
	<-stop
}

// get fetches the handler from a real server on 127.0.0.1.
func get(t *testing.T, h http.Handler, query string) (*http.Response, []byte) {
	t.Helper()
	s := httptest.NewServer(h)
	defer s.Close()
	resp, err := http.Get(s.URL + Path + query)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

// countParked parses a dump with dumpdiff's parser and counts all its
// goroutines and those parked by the test.
func countParked(t *testing.T, b []byte) (all, parked int) {
	t.Helper()
	dumps, err := parse.Parse("handler", bytes.NewReader(b))
	if err != nil || len(dumps) != 1 {
		t.Fatalf("parse: %v (%d dumps)", err, len(dumps))
	}
	d := dumps[0]
	if len(d.Skipped) > 0 {
		t.Errorf("%d lines skipped, first %+v", len(d.Skipped), d.Skipped[0])
	}
	for _, th := range d.Threads {
		for _, f := range th.Frames {
			if f.Func == "github.com/dumpdiff/dumpdiff/handler.parkedInHandlerTest" {
				parked++
				break
			}
		}
	}
	return d.ThreadCount(), parked
}

// The handler's answer is a goroutine dump dumpdiff parses whole, with as
// many goroutines as the process had, in one walk once it has seen a dump.
func TestHandlerDump(t *testing.T) {
	done := park(3000, 3)
	defer done()
	h := New()
	for round := 1; round <= 2; round++ {
		resp, b := get(t, h, "")
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/plain; charset=utf-8" {
			t.Fatalf("status %s, content type %q", resp.Status, resp.Header.Get("Content-Type"))
		}
		n, _ := strconv.Atoi(resp.Header.Get("Dumpdiff-Goroutines"))
		all, parked := countParked(t, b)
		if parked != 3000 || all < 3000 || n < 3000 || all > n+10 || n > all+10 {
			t.Errorf("round %d: parsed %d goroutines (%d parked), header says %d; want 3000 parked and the counts alike", round, all, parked, n)
		}
		if w := resp.Header.Get("Dumpdiff-Walks"); w != "1" {
			t.Errorf("round %d: %s walks, want 1", round, w)
		}
		if resp.Header.Get("Dumpdiff-Stop") == "" {
			t.Error("no Dumpdiff-Stop header")
		}
		// The leak collection is timed apart, when this Go has one.
		hasLeak := pprof.Lookup("goroutineleak") != nil
		if lc := resp.Header.Get("Dumpdiff-Leak-Check"); hasLeak != (lc != "") {
			t.Errorf("round %d: Dumpdiff-Leak-Check %q with goroutineleak profile present = %v", round, lc, hasLeak)
		}
	}
}

// A guess that is short walks again with a larger buffer: the dump is never
// cut.
func TestHandlerShortGuess(t *testing.T) {
	done := park(5000, 2)
	defer done()
	h := New()
	h.perG.Store(1) // 5000 goroutines in a bit over 1 MiB: too small
	resp, b := get(t, h, "?leaks=0")
	if w, _ := strconv.Atoi(resp.Header.Get("Dumpdiff-Walks")); w < 2 {
		t.Errorf("%d walks, want more than one", w)
	}
	if _, parked := countParked(t, b); parked != 5000 {
		t.Errorf("%d parked goroutines in the dump, want 5000", parked)
	}
	if per := h.perG.Load(); per < int64(len(b))/int64(runtime.NumGoroutine())-1 {
		t.Errorf("learned %d bytes per goroutine for a %d-byte dump", per, len(b))
	}
}

// Past 64 MiB (where net/http/pprof cuts the dump) the handler sends all
// of it: 20,000 goroutines 40 frames deep print about 75 MB.
func TestHandlerNoCap(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: a 75 MB dump")
	}
	done := park(20000, 40)
	defer done()
	_, b := get(t, New(), "")
	if len(b) <= 64<<20 {
		t.Fatalf("dump of %d bytes: the test needs more than 64 MiB", len(b))
	}
	if _, parked := countParked(t, b); parked != 20000 {
		t.Errorf("%d parked goroutines in a %d-byte dump, want 20000", parked, len(b))
	}
}

func TestHandlerHeadAndMethods(t *testing.T) {
	s := httptest.NewServer(New())
	defer s.Close()
	resp, err := http.Head(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Dumpdiff-Goroutines") == "" || resp.Header.Get("Dumpdiff-Stop") != "" {
		t.Errorf("HEAD: %s %v, want the count and no dump", resp.Status, resp.Header)
	}
	resp, err = http.Post(s.URL, "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: %s", resp.Status)
	}
}
