package tui

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/internal/testwait"
)

// fixedNow stamps export files in tests.
func fixedNow() time.Time { return time.Date(2026, 11, 29, 17, 30, 0, 0, time.UTC) }

// TestSessionGo drives the TUI through a real session on the Go scenario:
// filter, drill into a pool and a state, switch moments, compare, go back,
// export, quit.
func TestSessionGo(t *testing.T) {
	dir := t.TempDir()
	m := New(goScenario(t), Options{NoColor: true, ExportDir: dir, Now: fixedNow})

	// Filter by a frame function: only pools whose threads run it stay.
	m = send(t, m, "/", "handleSearch.func1")
	if !m.editing {
		t.Fatal("/ did not open the filter input")
	}
	m = send(t, m, "enter")
	s := text(m)
	contains(t, "filtered overview", s, "main.(*server).handleSearch", "filter: handleSearch.func1")
	if strings.Contains(s, "net/http client connections") {
		t.Errorf("filter kept a pool with no handleSearch.func1 frame:\n%s", s)
	}

	// The only pool row is the cursor's first pool; open it.
	m = send(t, m, "G", "enter")
	if m.screen() != screenPool {
		t.Fatalf("enter on a pool row opened screen %d, want the pool", m.screen())
	}
	s = text(m)
	contains(t, "pool view", s, "POOL main.(*server).handleSearch", "chan-send", "[after-2]")
	// The sleep state stays: its goroutines run search inside handleSearch.func1.
	contains(t, "pool view", s, "sleep ")

	// Open the state at the pool's selected moment (after-2, 40 s after the
	// load): the 150 leaked goroutines are all still there.
	m = send(t, m, "enter")
	s = text(m)
	contains(t, "state view", s, "main.(*server).handleSearch › chan-send", "[5:after-2 150]",
		"THREADS at after-2 (150", "◀ culprit", "same goroutines in this state (of 150): 0 at before · 48 at during-1 · 99 at\n  during-2 · 150 at after")

	// ← goes to after (the same 150), ← again to during-2; 2 to during-1;
	// the same goroutines stay there.
	m = send(t, m, "left")
	contains(t, "state at after", text(m), "[4:after 150]", "THREADS at after (150")
	m = send(t, m, "left")
	contains(t, "state at during-2", text(m), "[3:during-2 99]", "THREADS at during-2 (99")
	m = send(t, m, "2")
	contains(t, "state at during-1", text(m), "[2:during-1 48]", "48 at during-2 · 48 at\n  after")

	// Compare during-1 with the nearest other moment holding the state,
	// then with the last one.
	m = send(t, m, "c")
	s = text(m)
	contains(t, "compare", s, "COMPARE goroutine ", " · during-1 chan-send ⇄ during-2 chan-send (←/→)", "at both moments")
	m = send(t, m, "right", "right")
	contains(t, "compare moved", text(m), "⇄ after-2")

	// Export the comparison, then the pool after going back.
	m = send(t, m, "m")
	want := filepath.Join(dir, "dumpdiff-compare-20261129-173000.md")
	contains(t, "status", text(m), "wrote "+want)
	md := readFile(t, want)
	contains(t, "compare export", md, "# main.(\\*server).handleSearch › chan-send", "## Stacks of goroutine ", ": during-1 chan-send ⇄ after-2 chan-send",
		"  main.(*server).handleSearch.func1 (main.go:97)", "| 0 | 48 | 99 | 150 | 150 |")

	// esc does what the footer says: back to the pool, the filter kept.
	m = send(t, m, "c")
	contains(t, "footer with a filter", text(m), "filter: handleSearch.func1  (/ edits, / then esc clears)", "esc pool")
	m = send(t, m, "esc")
	if m.screen() != screenPool || m.query != "handleSearch.func1" {
		t.Fatalf("esc from the state: screen %d, query %q; want the pool, filtered", m.screen(), m.query)
	}
	m = send(t, m, "m")
	md = readFile(t, filepath.Join(dir, "dumpdiff-pool-20261129-173000.md"))
	contains(t, "pool export", md, "# POOL main.(\\*server).handleSearch", "Filter: `handleSearch.func1`",
		"| chan-send | waiting | 0 | 48 | 99 | 150 | 150 | `main.(*server).handleSearch.func1` |")

	// esc twice: back to the overview, then (as its footer says) the
	// filter is cleared.
	m = send(t, m, "esc")
	contains(t, "overview footer with a filter", text(m), "filter: handleSearch.func1  (/ edits, esc clears)", "esc clear filter")
	m = send(t, m, "esc")
	s = text(m)
	if m.screen() != screenOverview || m.query != "" {
		t.Fatalf("after esc esc: screen %d, query %q; want overview without filter", m.screen(), m.query)
	}
	if strings.Contains(s, "esc ") {
		t.Errorf("the overview without a filter names esc, which does nothing there:\n%s", s)
	}
	// (At 80 columns, five moments leave the pool names cut short.)
	contains(t, "overview", s, "net/http cli…t connections", "POOLS (5)")

	if _, out := sendOut(t, m, "q"); !quits(out) {
		t.Errorf("q did not quit")
	}
}

// TestSessionExportOverview writes the unfiltered overview with the given
// Markdown renderer, and the filtered one with the TUI's own table.
func TestSessionExportOverview(t *testing.T) {
	dir := t.TempDir()
	r := goScenario(t)
	render := func(w io.Writer, r *analyze.Result) error {
		_, err := io.WriteString(w, "# full report of "+itoa(len(r.Moments))+" moments\n")
		return err
	}
	m := New(r, Options{NoColor: true, ExportDir: dir, Now: fixedNow, Markdown: render})
	m = send(t, m, "m")
	path := filepath.Join(dir, "dumpdiff-overview-20261129-173000.md")
	if got := readFile(t, path); got != "# full report of 5 moments\n" {
		t.Errorf("unfiltered overview export = %q, want the renderer's output", got)
	}
	send(t, m, "/", "roundTrip", "enter", "m")
	md := readFile(t, path)
	contains(t, "filtered overview export", md, "Filter: `roundTrip`",
		"| pool | trend | before | during-1 | during-2 | after | after-2 | moved |", "*moved* is how many threads moved between two moments",
		"| net/http server connections | ▂▄▇█▂ | 2 | 174 | 326 | 452 | 4 | 450 |")
	if strings.Contains(md, "| main.(*server).handleSearch |") || strings.Contains(md, "| net/http client connections |") {
		t.Errorf("filtered export lists a pool without roundTrip:\n%s", md)
	}

	// A renderer error is shown, not fatal.
	m = New(r, Options{ExportDir: dir, Now: fixedNow, Markdown: func(io.Writer, *analyze.Result) error { return errors.New("boom") }})
	m = send(t, m, "m")
	contains(t, "status", text(m), "export failed: boom")
}

// TestSessionJVM follows the contention finding of a real jstack log to the
// blocked threads and checks thread identity across the three dumps.
func TestSessionJVM(t *testing.T) {
	m := New(samurai(t), Options{NoColor: true})
	m = send(t, m, "enter")
	if m.screen() != screenFinding {
		t.Fatalf("enter on the contention finding opened screen %d, want its detail", m.screen())
	}
	m = send(t, m, "enter")
	if m.screen() != screenState {
		t.Fatalf("enter on the contention finding's detail opened screen %d, want the state", m.screen())
	}
	s := text(m)
	// Thread-1 held the lock (sleeping) in the first dump and waits for it
	// in the last: ○ then ●●.
	contains(t, "state", s, "Thread-* › monitor-blocked", "Thread-1  #16 nid=0x6803  BLOCKED (on object monitor)  ○●●")
	m = send(t, m, "/", "Thread-1", "enter")
	s = text(m)
	contains(t, "filtered threads", s, "THREADS at samurai__openjdk-17+35__blocker-example#3 (1 matching \"Thread-1\")")
	m = send(t, m, "s", "?")
	contains(t, "help", text(m), "compare stacks", "export Markdown")
	m = send(t, m, "esc")
	if m.screen() != screenState {
		t.Errorf("esc from help went to screen %d, want the state", m.screen())
	}
}

// TestResize follows the terminal size.
func TestResize(t *testing.T) {
	m := New(goScenario(t), Options{NoColor: true})
	for _, sz := range [][2]int{{100, 30}, {80, 24}, {200, 60}, {40, 10}} {
		nm, _ := m.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		m = send(t, nm.(Model), "down", "enter", "enter")
		checkSize(t, text(m), sz[0], sz[1])
		m = send(t, m, "esc", "esc")
	}
}

// TestRun starts the real program: the spinner shows while load is
// blocked, then the overview, and q quits.
func TestRun(t *testing.T) {
	r := goScenario(t)
	release := make(chan struct{})
	in, keys := io.Pipe()
	out := &syncBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- Run(context.Background(), func() (*analyze.Result, error) {
			<-release
			return r, nil
		}, Options{Input: in, Output: out, NoColor: true})
	}()
	waitFor(t, out, "analyzing the dumps")
	close(release)
	waitFor(t, out, "FINDINGS")
	if _, err := keys.Write([]byte("q")); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after q")
	}
}

// TestRunLoadError returns load's error.
func TestRunLoadError(t *testing.T) {
	in, _ := io.Pipe()
	want := errors.New("reading during.txt: no dump found")
	err := Run(context.Background(), func() (*analyze.Result, error) { return nil, want },
		Options{Input: in, Output: io.Discard})
	if !errors.Is(err, want) {
		t.Fatalf("Run = %v, want %v", err, want)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("export: %v", err)
	}
	return string(b)
}

// syncBuffer is a bytes.Buffer safe for the program's writer and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitFor waits until the program has written want (bounded, so that a
// broken program fails instead of hanging).
func waitFor(t *testing.T, out *syncBuffer, want string) {
	t.Helper()
	testwait.Eventually(t, 20*time.Second, func() error {
		if got := out.String(); !strings.Contains(got, want) {
			return fmt.Errorf("the program never wrote %q; output:\n%q", want, got)
		}
		return nil
	})
}

// TestStackScroll scrolls a stack longer than the screen with tab and the
// cursor keys, and back to the thread list.
func TestStackScroll(t *testing.T) {
	m := New(goScenario(t), Options{NoColor: true})
	m = send(t, m, "down", "enter", "enter") // the http-client-wait finding's state: a 16-line stack
	s := text(m)
	contains(t, "stack top", s, "net/http.(*persistConn).roundTrip (transport.go:2911)", "9 more lines")
	m = send(t, m, "tab", "G")
	s = text(m)
	contains(t, "stack bottom", s, "↕ STACK of goroutine 10", "main.(*server).handleItems (main.go:76)  ◀ culprit")
	if strings.Contains(s, "roundTrip (transport.go:2911)") || strings.Contains(s, "more lines") {
		t.Errorf("after tab G the stack still shows its top or a note of more lines:\n%s", s)
	}
	m = send(t, m, "tab", "down")
	contains(t, "thread list", text(m), "› goroutine 9  [select]", "roundTrip (transport.go:2911)")
}

// TestCompareEmptyMoment compares from a moment where the state has no
// goroutine: the screen and the export name that moment and show no diff;
// the status names the file by its absolute path though ExportDir is "".
func TestCompareEmptyMoment(t *testing.T) {
	r := goScenario(t)
	// Without --export-dir, m writes into the user's state folder, never
	// the current one (the dumps' folder, a repository).
	t.Chdir(t.TempDir())
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	cwd := filepath.Join(state, "dumpdiff", "exports")
	m := New(r, Options{NoColor: true, Now: fixedNow})
	m = send(t, m, "down", "down", "enter", "enter", "1", "c")
	s := text(m)
	contains(t, "compare from before", s, "<1:before 0>", "no goroutine in this state at before: nothing to compare")
	for _, bad := range []string{"during-1: nothing", "frames in both", "internal/poll"} {
		if strings.Contains(s, bad) {
			t.Errorf("compare from an empty moment shows %q:\n%s", bad, s)
		}
	}
	m = send(t, m, "m")
	want := filepath.Join(cwd, "dumpdiff-compare-20261129-173000.md")
	if m.status != "wrote "+want {
		t.Errorf("status = %q, want %q", m.status, "wrote "+want)
	}
	// At 80 columns a long path wraps: it is shown whole.
	contains(t, "status line", strings.ReplaceAll(text(m), "\n  ", ""), want+"\n")
	md := readFile(t, want)
	contains(t, "export", md, "No goroutine in this state at before: nothing to compare.")
	if here, _ := filepath.Glob("dumpdiff-*.md"); len(here) > 0 {
		t.Errorf("m wrote into the current folder: %v", here)
	}
	if strings.Contains(md, "```") {
		t.Errorf("export of an empty comparison has a stack:\n%s", md)
	}
}
