package tui

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/analyze"
)

// threeTargets is a capture of three Tomcat services from real jstack
// dumps at the same four moments: web-1 calls a slow upstream behind a
// bulkhead, web-2 calls it without a timeout, shop-1 runs out of HikariCP
// connections. All three have the http-nio-18080-exec-* pool; only the web
// ones have its socket-read via http-client state.
func threeTargets(t testing.TB) []*analyze.Result {
	labels := []string{"before", "during-1", "during-2", "after"}
	target := func(name, scenario string) *analyze.Result {
		var files []string
		for _, m := range labels {
			files = append(files, filepath.Join(scenarios, scenario, m+".txt"))
		}
		return analyzeTarget(t, name, labels, files)
	}
	return []*analyze.Result{
		target("web-1", "slow-upstream-bulkhead"),
		target("web-2", "slow-upstream-no-timeout"),
		target("shop-1", "hikari-pool-exhausted"),
	}
}

// TestTargetsGolden draws the overview of the first target and, after t,
// the second, and a pool followed into the second, at 80×24.
func TestTargetsGolden(t *testing.T) {
	for _, c := range []struct {
		name string
		keys []string
	}{
		{"targets-overview", nil},
		{"targets-next", []string{"t"}},
		{"targets-pool-next", []string{"/", "http-nio-18080-exec", "enter", "G", "enter", "2", "t"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := send(t, NewMany(threeTargets(t), Options{NoColor: true}), c.keys...)
			got := text(m)
			checkSize(t, got, 80, 24)
			golden(t, c.name+"-80x24.txt", got)
		})
	}
}

// openPoolNamed moves the overview cursor to the pool called name and
// opens it.
func openPoolNamed(t *testing.T, m Model, name string) Model {
	t.Helper()
	m = send(t, m, "g")
	for range overviewOf(t, m).rows {
		if r := overviewOf(t, m).selected(); r != nil && r.p != nil && r.p.p.Name == name {
			return send(t, m, "enter")
		}
		m = send(t, m, "down")
	}
	t.Fatalf("no pool %s in the overview:\n%s", name, text(m))
	return m
}

// openStateNamed moves the pool cursor to state and opens it.
func openStateNamed(t *testing.T, m Model, state string) Model {
	t.Helper()
	m = send(t, m, "g")
	for range poolOf(t, m).groups {
		if gi := poolOf(t, m).selected(); gi != nil && gi.g.State == state {
			return send(t, m, "enter")
		}
		m = send(t, m, "down")
	}
	t.Fatalf("no state %s in the pool:\n%s", state, text(m))
	return m
}

// TestSessionTargets follows the socket-read state of the Tomcat workers
// from web-1 to web-2 with t, then to shop-1, whose workers never read a
// socket; a pool only shop-1 has leads back to web-1's overview. Exports
// name the target.
func TestSessionTargets(t *testing.T) {
	dir := t.TempDir()
	m := NewMany(threeTargets(t), Options{NoColor: true, ExportDir: dir, Now: fixedNow})
	s := text(m)
	contains(t, "first target", s, "web-1 (1 of 3) · jvm · 4 moments (before → after) · 51 threads at the last", "t target")
	if strings.Contains(s, "web-1/before") {
		t.Errorf("labels repeat the target named in the title:\n%s", s)
	}

	m = openPoolNamed(t, m, "http-nio-18080-exec-*")
	m = openStateNamed(t, m, "socket-read")
	m = send(t, m, "2") // during-1: the moment is kept by label
	contains(t, "web-1 state", text(m), "web-1 (1 of 3, t: next) › http-nio-18080-exec-* › socket-read via http-client", "[2:during-1 20]")
	m = send(t, m, "t")
	if m.screen() != screenState {
		t.Fatalf("t on a state went to screen %d, want the same state in web-2", m.screen())
	}
	contains(t, "web-2 state", text(m), "web-2 (2 of 3, t: next) › http-nio-18080-exec-* › socket-read via http-client",
		"[2:during-1 200]", "showing web-2 (2 of 3)")

	m = send(t, m, "t")
	if m.screen() != screenPool || poolOf(t, m).moment != 1 {
		t.Fatalf("t to shop-1: screen %d at moment %d, want its worker pool at during-1", m.screen(), poolOf(t, m).moment)
	}
	contains(t, "shop-1 pool", text(m), "shop-1 (3 of 3, t: next) › POOL http-nio-18080-exec-*", "[during-1]",
		"shop-1 has no socket-read via http-client in http-nio-18080-exec-*")

	m = send(t, m, "esc")
	m = openPoolNamed(t, m, "shop-db housekeeper")
	m = send(t, m, "m")
	md := readFile(t, filepath.Join(dir, "dumpdiff-shop-1-pool-20261129-173000.md"))
	contains(t, "shop-1 export", md, "# shop-1 › POOL shop-db housekeeper")

	m = send(t, m, "t")
	if m.screen() != screenOverview {
		t.Fatalf("t to web-1, which has no shop-db pool, went to screen %d, want its overview", m.screen())
	}
	contains(t, "back to web-1", text(m), "web-1 (1 of 3) · jvm", "web-1 has no pool shop-db housekeeper")

	// From a finding, t shows the same finding in the next target, or says
	// it has none.
	m = send(t, m, "g", "enter", "t")
	if m.screen() != screenOverview {
		t.Fatalf("t from web-1's recovered finding went to screen %d, want web-2's overview", m.screen())
	}
	contains(t, "web-2 without the finding", text(m), "web-2 has no finding recovered http-nio-18080-exec-* socket-read http-client")
}

// TestOneTargetNoKey checks that a single analysis neither answers t nor
// lists it.
func TestOneTargetNoKey(t *testing.T) {
	m := New(goScenario(t), Options{NoColor: true})
	before := text(m)
	m = send(t, m, "t")
	if got := text(m); got != before {
		t.Errorf("t changed a single target's screen:\n%s", got)
	}
	if s := text(send(t, m, "?")); strings.Contains(s, "next target") {
		t.Errorf("help of a single target lists t:\n%s", s)
	}
}

// TestRunMany starts the real program on several analyses and switches
// target with t; an empty list is an error.
func TestRunMany(t *testing.T) {
	rs := threeTargets(t)
	in, keys := io.Pipe()
	out := &syncBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- RunMany(context.Background(), func() ([]*analyze.Result, error) { return rs, nil },
			Options{Input: in, Output: out, NoColor: true})
	}()
	waitFor(t, out, "web-1 (1 of 3")
	if _, err := keys.Write([]byte("t")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, out, "web-2 (2 of 3")
	if _, err := keys.Write([]byte("q")); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("RunMany: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("RunMany did not return after q")
	}

	in2, _ := io.Pipe()
	err := RunMany(context.Background(), func() ([]*analyze.Result, error) { return nil, nil },
		Options{Input: in2, Output: io.Discard})
	if err == nil || !strings.Contains(err.Error(), "no analysis") {
		t.Errorf("RunMany of no analysis = %v, want an error", err)
	}
}
