package tui

import (
	"path/filepath"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/internal/benchinput"
	"github.com/dumpdiff/dumpdiff/parse"
)

// largeResult is the analysis of three 100,000-goroutine moments made
// from a real 20,000-goroutine debug=2 dump (benchinput.ThreeMoments, the
// input report's BenchmarkRender renders too).
func largeResult(b *testing.B) *analyze.Result {
	b.Helper()
	large.once.Do(func() {
		dumps, err := parse.ParseFile(filepath.Join("..", "..", benchinput.Corpus20k))
		if err != nil {
			large.err = err
			return
		}
		in := benchinput.ThreeMoments(dumps[0])
		large.r = analyze.Analyze(in, analyze.Options{})
	})
	if large.err != nil {
		b.Skipf("real dump not available: %v", large.err)
	}
	return large.r
}

// large caches the synthesized Result across benchmarks of one run (a
// test-only cache, not package state of the TUI).
var large struct {
	once sync.Once
	r    *analyze.Result
	err  error
}

// BenchmarkKeyPress measures one key (Update, the messages its commands
// return — the pane it opens —, and the View that follows) on three
// 100,000-goroutine moments, from the screen where the key is pressed.
func BenchmarkKeyPress(b *testing.B) {
	r := largeResult(b)
	start := New(r, Options{NoColor: true})
	nm, _ := start.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	start = nm.(Model)
	// The biggest pool and its biggest state.
	inPool := send(b, start, "enter")
	for inPool.screen() != screenPool {
		start = send(b, start, "down")
		inPool = send(b, start, "enter")
	}
	inState := send(b, inPool, "enter")
	filtering := send(b, inState, "/", "chan")
	// A finding of the biggest state, whole (the overview lists findings
	// first).
	onFinding := send(b, start, "g")
	inFinding := send(b, onFinding, "enter")
	cases := []struct {
		name string
		from Model
		key  string
	}{
		{"overview-down", start, "down"},
		{"overview-sort", start, "s"},
		{"open-pool", start, "enter"},
		{"open-state", inPool, "enter"},
		{"state-down", inState, "down"},
		{"switch-moment", inState, "right"},
		{"compare", inState, "c"},
		{"filter-char", filtering, "r"},
		{"back", inState, "esc"},
		{"open-finding", onFinding, "enter"},
		{"finding-scroll", inFinding, "down"},
		{"finding-open-state", inFinding, "enter"},
		{"copy-stack", inState, "y"},
	}
	b.Logf("%d moments, %v threads; state opened: %s", len(r.Moments), r.Totals, firstLine(text(inState)))
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			msg := press(c.key)
			for b.Loop() {
				m, _ := step(b, c.from, msg)
				_ = m.View()
			}
		})
	}
}

// BenchmarkNewIndex is the cost paid once, in the load command, before the
// first screen.
func BenchmarkNewIndex(b *testing.B) {
	r := largeResult(b)
	for b.Loop() {
		newIndex(r)
	}
}

func firstLine(s string) string {
	for i := range len(s) {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}

// BenchmarkOpen measures what the TUI does before its first screen (New:
// indexing every pool and group) and the first state pane's identities
// (placeAt's sets for every moment, made on first use), on three
// 100,000-goroutine moments.
func BenchmarkOpen(b *testing.B) {
	r := largeResult(b)
	b.Run("new", func(b *testing.B) {
		for b.Loop() {
			New(r, Options{NoColor: true})
		}
	})
	b.Run("where", func(b *testing.B) {
		for b.Loop() {
			ix := newIndex(r)
			g := r.Pools[0].States[0]
			for k := range r.Moments {
				ix.placeAt(k, threadKey{id: 1}, g)
			}
		}
	})
}
