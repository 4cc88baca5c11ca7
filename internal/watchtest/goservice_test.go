package watchtest

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/internal/testwait"
)

// The service's own functions, as its goroutines show them (its main.go).
const (
	watchdogFunc = "main.(*service).watchdog"   // a leaked goroutine
	upstreamRead = "main.(*upstreamConn).get"   // a worker on the upstream
	handleWork   = "main.(*service).handleWork" // a /work request being served
)

// TestGoServicePhases drives the service through its phases and checks
// each through the goroutine profile (debug=1), the way a capture sees it,
// against what its main.go says: the leak grows and goes, the workers
// block and return.
func TestGoServicePhases(t *testing.T) {
	s := StartGoService(t)
	healthy := fetchGoProfile(t, s.URL())
	if n := healthy.in(watchdogFunc); n != 0 {
		t.Fatalf("healthy: %d goroutines in %s, want 0", n, watchdogFunc)
	}

	s.Phase(t, "leak")
	first := fetchGoProfile(t, s.URL()).in(watchdogFunc)
	if first < 1 {
		t.Errorf("leak: %d goroutines in %s once the phase answered, want at least 1", first, watchdogFunc)
	}
	// 50 lookups a second: ten more leaked soon (later on a loaded machine).
	profileUntil(t, s.URL(), func(leak goProfile) error {
		if n := leak.in(watchdogFunc); n < first+10 || leak.total < healthy.total+10 {
			return fmt.Errorf("leak: %d then %d goroutines in %s, %d in all (healthy %d); want 10 more", first, n, watchdogFunc, leak.total, healthy.total)
		}
		return nil
	})

	s.Phase(t, "recover")
	profileUntil(t, s.URL(), func(back goProfile) error {
		if n := back.in(watchdogFunc); n != 0 {
			return fmt.Errorf("recover after leak: %d goroutines still in %s", n, watchdogFunc)
		}
		if d := back.total - healthy.total; d < -3 || d > 3 {
			return fmt.Errorf("recover after leak: %d goroutines, healthy %d: want the healthy count (±3)", back.total, healthy.total)
		}
		return nil
	})

	s.Phase(t, "exhaust")
	ex := fetchGoProfile(t, s.URL())
	if n := ex.in(upstreamRead); n != 8 {
		t.Errorf("exhaust: %d goroutines in %s, want all 8 workers", n, upstreamRead)
	}
	if n := ex.in(handleWork); n != 32 {
		t.Errorf("exhaust: %d goroutines in %s, want all 32 clients' requests", n, handleWork)
	}

	s.Phase(t, "recover")
	profileUntil(t, s.URL(), func(rec goProfile) error {
		if n := rec.in(upstreamRead); n > 2 {
			return fmt.Errorf("recover after exhaust: %d workers still in %s", n, upstreamRead)
		}
		if d := rec.total - healthy.total; d < -3 || d > 3 {
			return fmt.Errorf("recover after exhaust: %d goroutines, healthy %d: want the healthy count (±3)", rec.total, healthy.total)
		}
		return nil
	})
}

// TestGoServiceStopRestart: a stopped service refuses connections, and a
// restarted one answers on the same port, healthy, as a new process.
func TestGoServiceStopRestart(t *testing.T) {
	s := StartGoService(t)
	url := s.URL()
	addr := strings.TrimPrefix(url, "http://")
	s.Phase(t, "leak")

	s.Stop()
	if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		c.Close()
		t.Fatalf("stopped: %s still accepts connections", addr)
	}
	s.Stop() // twice: nothing to do

	s.Restart(t)
	if s.URL() != url {
		t.Fatalf("restarted on %s, want %s", s.URL(), url)
	}
	if n := fetchGoProfile(t, url).in(watchdogFunc); n != 0 {
		t.Errorf("restarted: %d goroutines in %s, want 0 (a new process, healthy)", n, watchdogFunc)
	}
	s.Phase(t, "exhaust") // it works as before
	s.Restart(t)          // while running: stopped first
	// Healthy, the new process's workers pass through the upstream's read
	// in milliseconds; one snapshot on a loaded machine caught 4 there at
	// once (make test at load 46): polled until it shows at most 2, which
	// the exhausted process never does (all 8 held).
	profileUntil(t, url, func(rec goProfile) error {
		if n := rec.in(upstreamRead); n > 2 {
			return fmt.Errorf("restarted while exhausted: %d workers in %s, want a healthy process", n, upstreamRead)
		}
		return nil
	})
}

func TestGoServiceUnknownPhase(t *testing.T) {
	s := StartGoService(t)
	resp, err := http.Post(s.URL()+"/phase?to=slow", "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("phase slow: %s, want 400 Bad Request", resp.Status)
	}
}

// profileUntil fetches the goroutine profile until ok accepts it. Recover
// answers once what it let go has returned (the watchdogs' WaitGroup, the
// handlers' count); a goroutine past that point may still be on its way
// out for an instant on a loaded machine, and a worker may be serving a
// new request.
func profileUntil(t *testing.T, base string, ok func(goProfile) error) {
	t.Helper()
	testwait.Eventually(t, 20*time.Second, func() error { return ok(fetchGoProfile(t, base)) })
}

// goProfile is a goroutine profile in debug=1: its total and its records.
type goProfile struct {
	total   int
	records []goRecord
}

// goRecord is one stack of a debug=1 profile: how many goroutines share it
// and its function names, top first.
type goRecord struct {
	n     int
	funcs []string
}

// in counts the goroutines with fn in their stack.
func (g goProfile) in(fn string) int {
	n := 0
	for _, r := range g.records {
		for _, f := range r.funcs {
			if f == fn {
				n += r.n
				break
			}
		}
	}
	return n
}

// fetchGoProfile fetches /debug/pprof/goroutine?debug=1 and reads it:
//
//	goroutine profile: total 150
//	32 @ 0x47a2ae 0x4743b7 ...
//	#	0x6a1f04	main.(*clients).user+0x84	/.../main.go:657
func fetchGoProfile(t *testing.T, base string) goProfile {
	t.Helper()
	c := &http.Client{Timeout: 10 * time.Second}
	resp, err := c.Get(base + "/debug/pprof/goroutine?debug=1")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("goroutine profile: %s", resp.Status)
	}
	var g goProfile
	sc := bufio.NewScanner(io.LimitReader(resp.Body, 64<<20))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if v, ok := strings.CutPrefix(line, "goroutine profile: total "); ok {
			g.total, err = strconv.Atoi(v)
			if err != nil {
				t.Fatalf("goroutine profile: %q", line)
			}
			continue
		}
		if n, _, ok := strings.Cut(line, " @ "); ok {
			k, err := strconv.Atoi(n)
			if err != nil {
				t.Fatalf("goroutine profile: %q", line)
			}
			g.records = append(g.records, goRecord{n: k})
			continue
		}
		if rest, ok := strings.CutPrefix(line, "#\t"); ok && len(g.records) > 0 {
			fields := strings.Split(rest, "\t") // address, function+offset, file:line
			if len(fields) >= 2 {
				fn, _, _ := strings.Cut(fields[1], "+")
				r := &g.records[len(g.records)-1]
				r.funcs = append(r.funcs, fn)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if g.total == 0 {
		t.Fatal("goroutine profile: no total line")
	}
	return g
}
