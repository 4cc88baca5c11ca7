package tui

import (
	"path/filepath"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/parse"
)

// largeResult is three 100,000-goroutine moments made from a real
// 20,000-goroutine debug=2 dump written by Go 1.26.8, each goroutine
// replicated five times under new ids (frames stay shared, as the parser
// interns them). The second moment lacks every 7th goroutine and the third
// every 5th, so that identity across moments has something to find.
func largeResult(b *testing.B) *analyze.Result {
	b.Helper()
	large.once.Do(func() {
		dumps, err := parse.ParseFile(filepath.Join(corpus, "go/dumpdiff-gen__go1.26.8__lookup-goroutine-debug2-20000-goroutines.txt"))
		if err != nil {
			large.err = err
			return
		}
		src := dumps[0]
		var in []analyze.Input
		for k, label := range []string{"before", "during", "after"} {
			d := *src
			d.Threads = nil
			for rep := int64(0); rep < 5; rep++ {
				for i, t := range src.Threads {
					if (k == 1 && i%7 == 0) || (k == 2 && i%5 == 0) {
						continue
					}
					c := *t
					c.ID = t.ID + rep*10_000_000
					d.Threads = append(d.Threads, &c)
				}
			}
			in = append(in, analyze.Input{Label: label, Dump: &d})
		}
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
