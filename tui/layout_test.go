package tui

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/parse"
)

// layoutCase is a generated analysis: moments with labels of 1 to 40
// cells, pools whose counts go from 0 to 10,000,000.
type layoutCase struct {
	labels []string
	pools  []*analyze.Pool
	width  int
}

func (c layoutCase) String() string {
	return fmt.Sprintf("%d moments %q at %d columns", len(c.labels), c.labels, c.width)
}

// genLayoutCase draws a case: 1–12 moments, labels 1–40 cells (some
// sharing a start or an end, as folders' and logs' dumps do, some numbers
// only, as a capture's), counts of 1–8 digits, 60–200 columns.
func genLayoutCase(rng *rand.Rand) layoutCase {
	n := 1 + rng.IntN(12)
	word := func(w int) string {
		const chars = "abcdefghijklmnopqrstuvwxyz0123456789-._ ()#"
		b := make([]byte, w)
		for i := range b {
			b[i] = chars[rng.IntN(len(chars))]
		}
		b[0], b[w-1] = 'a'+byte(rng.IntN(26)), '0'+byte(rng.IntN(10)) // no space at either end
		return string(b)
	}
	labels := make([]string, n)
	pre, suf := "", ""
	shape := rng.IntN(5)
	switch shape {
	case 0:
		pre = word(1 + rng.IntN(20))
	case 1:
		suf = word(1 + rng.IntN(12))
	case 2: // both: the cuts of such labels read alike but for distinctCuts
		pre, suf = word(1+rng.IntN(16)), word(1+rng.IntN(12))
	}
	seen := map[string]bool{}
	for k := range labels {
		var l string
		switch {
		case shape == 3: // times in a dump, seconds apart
			l = fmt.Sprintf("2026-12-01 22:%02d:%02d", rng.IntN(60), rng.IntN(60))
		case rng.IntN(3) == 0:
			l = itoa(k + 1) // a capture's moments
		default:
			l = pre + word(1+rng.IntN(6)) + suf
			if rng.IntN(2) == 0 {
				l = pre + word(1+rng.IntN(40)) + suf
			}
		}
		if len(l) > 40 {
			l = l[:39] + "x"
		}
		for seen[l] {
			l = l[:len(l)-1] + "z" // dedupeLabels makes them unique
			if seen[l] {
				l = itoa(rng.IntN(1000)) + l[min(len(l), 4):]
			}
		}
		seen[l] = true
		labels[k] = l
	}
	count := func() int {
		d := 1 + rng.IntN(8)
		top := 1
		for range d - 1 {
			top *= 10
		}
		return min(10_000_000, top+rng.IntN(top*9))
	}
	var pools []*analyze.Pool
	for i := range 1 + rng.IntN(3) {
		p := &analyze.Pool{Name: word(3+rng.IntN(50)) + itoa(i), Counts: make([]int, n)}
		g := &analyze.Group{Pool: p.Name, State: word(3 + rng.IntN(30)), Category: analyze.Waiting, Counts: make([]int, n)}
		for k := range n {
			if rng.IntN(5) > 0 {
				g.Counts[k] = count()
			}
			p.Counts[k] = g.Counts[k]
			p.Max = max(p.Max, p.Counts[k])
		}
		p.States = []*analyze.Group{g}
		pools = append(pools, p)
	}
	return layoutCase{labels: labels, pools: pools, width: 60 + rng.IntN(141)}
}

func (c layoutCase) result() *analyze.Result {
	r := &analyze.Result{Runtime: parse.RuntimeGo, Pools: c.pools, Totals: make([]int, len(c.labels))}
	for k, l := range c.labels {
		r.Moments = append(r.Moments, analyze.Moment{Label: l})
		for _, p := range c.pools {
			r.Totals[k] += p.Counts[k]
		}
	}
	return r
}

// TestLayoutGenerated draws the overview, a pool and a state of generated
// analyses and reads them back as a user would: in every table row each
// count is a word of its own, whole (no two run together, none cut), a
// gap "…" where moments are left out; every header label sits over its
// count, apart from its neighbours, whole or cut with "…", and no two read
// alike; the moment bar of the state keeps its counts whole too.
func TestLayoutGenerated(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 2026))
	for i := range 300 {
		c := genLayoutCase(rng)
		t.Run(itoa(i), func(t *testing.T) {
			m := New(c.result(), Options{NoColor: true})
			nm, _ := m.Update(tea.WindowSizeMsg{Width: c.width, Height: 30})
			m = nm.(Model)
			s := text(m)
			checkSize(t, s, c.width, 30)
			o := overviewOf(t, m)
			for _, r := range o.rows {
				if r.kind == rowPool {
					checkTableRow(t, c, "overview", s, "  POOLS (", r.counts, o.tab, true)
				}
			}
			m = send(t, m, "enter")
			p := poolOf(t, m)
			counts := p.groups[0].g.Counts
			for _, key := range []string{"", "left", "left", "right", "1"} {
				if key != "" {
					m = send(t, m, key)
					p = poolOf(t, m)
				}
				s := text(m)
				checkSize(t, s, c.width, 30)
				checkTableRow(t, c, "pool after "+key, s, "  STATE", counts, p.tab, false)
				if full := c.labels[p.moment]; !strings.Contains(s, "["+full+"]") && !strings.Contains(s, "\nat "+full+" · ") {
					t.Errorf("%v: pool at moment %d names %q neither in its header nor in its subtitle:\n%s", c, p.moment, full, s)
				}
			}
			m = send(t, m, "enter")
			s = text(m)
			checkSize(t, s, c.width, 30)
			checkBar(t, c, strings.Split(s, "\n")[1], counts, stateOf(t, m).moment)
		})
	}
}

// checkTableRow finds the row of counts in screen s, under the header
// line starting with head, and checks it as TestLayoutGenerated says.
// moved: the row ends with how much the counts moved (the overview).
func checkTableRow(t *testing.T, c layoutCase, what, s, head string, counts []int, tab *table, moved bool) {
	t.Helper()
	lines := strings.Split(s, "\n")
	h := -1
	for i, l := range lines {
		if strings.HasPrefix(l, head) {
			h = i
		}
	}
	if h < 0 {
		t.Fatalf("%v: %s: no header %q:\n%s", c, what, head, s)
	}
	f := tab.moments
	var want []string
	for _, k := range f.idx {
		if k == gapCol {
			want = append(want, "…")
		} else {
			want = append(want, itoa(counts[k]))
		}
	}
	if moved {
		want = append(want, itoa(spread(counts)))
	}
	// The row: the line whose last words are want.
	var row []rune
	for _, l := range lines[h+1:] {
		fs := strings.Fields(l)
		if len(fs) >= len(want) && strings.Join(fs[len(fs)-len(want):], " ") == strings.Join(want, " ") {
			row = []rune(l)
			break
		}
	}
	if row == nil {
		t.Fatalf("%v: %s: no row ends in the counts %q, each whole and apart:\n%s", c, what, want, s)
	}
	// Each count's right edge is its column's: the label over it ends there
	// too, and starts after a space.
	hr := []rune(lines[h])
	edges := rightEdges(row, len(want))
	var shown []string
	for j, k := range f.idx {
		hi := edges[j][1]
		start := hi - f.w[j] + 1 // the column, its lead included
		if hi >= len(hr) || start < 0 {
			t.Errorf("%v: %s: the header does not span column %d:\n%s", c, what, j, s)
			continue
		}
		if hr[start] != ' ' {
			t.Errorf("%v: %s: header %q runs into the column before it:\n%s", c, what, string(hr[start:hi+1]), s)
		}
		label := strings.TrimSpace(string(hr[start : hi+1]))
		if k == gapCol {
			if label != "…" {
				t.Errorf("%v: %s: a gap headed %q, not …", c, what, label)
			}
			continue
		}
		if tab.sel == k {
			if !strings.HasPrefix(label, "[") || !strings.HasSuffix(label, "]") {
				t.Errorf("%v: %s: the selected moment's header %q is not bracketed", c, what, label)
			}
			label = strings.TrimSuffix(strings.TrimPrefix(label, "["), "]")
		}
		if label != c.labels[k] && !strings.Contains(label, "…") && !strings.Contains(c.labels[k], label) {
			t.Errorf("%v: %s: moment %d (%q) headed %q: neither whole nor cut with …:\n%s", c, what, k, c.labels[k], label, s)
		}
		for _, o := range shown {
			if o == label {
				t.Errorf("%v: %s: two moments headed %q:\n%s", c, what, label, s)
			}
		}
		shown = append(shown, label)
	}
	if f.hidden() > 0 != strings.Contains(strings.Join(want, " "), "…") {
		t.Errorf("%v: %s: %d moments hidden, counts %q", c, what, f.hidden(), want)
	}
}

// rightEdges are the rune spans [first, last] of the last n words of row.
func rightEdges(row []rune, n int) [][2]int {
	var spans [][2]int
	i := len(row) - 1
	for len(spans) < n && i >= 0 {
		for i >= 0 && row[i] == ' ' {
			i--
		}
		hi := i
		for i >= 0 && row[i] != ' ' {
			i--
		}
		spans = append([][2]int{{i + 1, hi}}, spans...)
	}
	return spans
}

// checkBar reads the state's moment bar: cells apart (" │ "), each a
// key, a label whole or cut with "…", and the moment's count whole; the
// selected moment bracketed; a gap "…".
func checkBar(t *testing.T, c layoutCase, bar string, counts []int, sel int) {
	t.Helper()
	if strings.HasSuffix(bar, "…") && width(bar) == c.width {
		t.Errorf("%v: the moment bar is cut at the screen's edge: %q", c, bar)
	}
	selected := false
	for _, cell := range strings.Split(bar, " │ ") {
		if cell == "…" {
			continue
		}
		if strings.HasPrefix(cell, "[") && strings.HasSuffix(cell, "]") {
			cell, selected = cell[1:len(cell)-1], true
		}
		sp := strings.LastIndexByte(cell, ' ')
		if sp < 0 {
			t.Errorf("%v: moment bar cell %q has no count apart", c, cell)
			continue
		}
		label, n := cell[:sp], cell[sp+1:]
		if k, rest, ok := strings.Cut(label, ":"); ok && len(k) == 1 && k[0] >= '1' && k[0] <= '9' {
			m := int(k[0] - '1')
			if n != itoa(counts[m]) {
				t.Errorf("%v: moment bar cell %q: count %q, want %d", c, cell, n, counts[m])
			}
			if rest != c.labels[m] && !strings.Contains(rest, "…") && !strings.Contains(c.labels[m], rest) {
				t.Errorf("%v: moment bar cell %q: label neither whole nor cut with …", c, cell)
			}
		}
	}
	if !selected {
		t.Errorf("%v: the moment bar %q brackets no moment (selected %d)", c, bar, sel)
	}
}

// TestSameFileNameGolden is issue 26 as a new user met it: the same
// goroutines.debug2.txt captured in three folders (the real Go runtime's
// dump, copied), then the same labels over 100,000-goroutine counts, and a
// capture's moments 1, 2, 3 over five- to seven-digit counts. Each is drawn
// at 80, 120 and 160 columns: the counts apart, the labels whole where
// they fit and told apart where they do not.
func TestSameFileNameGolden(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("../testdata/go/go1.26.8-debug2.txt")
	if err != nil {
		t.Skipf("real dump not available: %v", err)
	}
	var files []string
	for _, d := range []string{"a", "b", "c"} {
		f := filepath.Join(dir, d, "goroutines.debug2.txt")
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, src, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	real := analyzeFiles(t, files...)
	if got, want := real.Moments[1].Label, "goroutines.debug2 (2)"; got != want {
		t.Fatalf("the second dump is labelled %q, want %q", got, want)
	}
	big := func(labels []string, counts ...[]int) func() *analyze.Result {
		return func() *analyze.Result {
			c := layoutCase{labels: labels}
			for i, cs := range counts {
				p := &analyze.Pool{Name: []string{"main.main", "net/http.(*Server).Serve", "main"}[i], Counts: cs}
				g := &analyze.Group{Pool: p.Name, State: "chan-receive", Category: analyze.Waiting, Counts: cs}
				for _, n := range cs {
					p.Max = max(p.Max, n)
				}
				p.States = []*analyze.Group{g}
				c.pools = append(c.pools, p)
			}
			return c.result()
		}
	}
	cases := []struct {
		name string
		data func() *analyze.Result
	}{
		{"same-name", func() *analyze.Result { return real }},
		{"same-name-100k", big(labelsOf(real), []int{100000, 100000, 100000}, []int{1, 1, 1})},
		{"capture-1-2-3", big([]string{"1", "2", "3"}, []int{10000, 250000, 1250000}, []int{9, 10000, 12}, []int{1, 1, 1})},
	}
	for _, size := range [][2]int{{80, 14}, {120, 14}, {160, 14}} {
		for _, c := range cases {
			for _, screen := range []struct {
				name string
				keys []string
			}{{"overview", nil}, {"pool", []string{"enter"}}, {"state", []string{"enter", "enter"}}} {
				name := fmt.Sprintf("issue26-%s-%s-%dx%d", c.name, screen.name, size[0], size[1])
				t.Run(name, func(t *testing.T) {
					m := New(c.data(), Options{NoColor: true})
					nm, _ := m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
					m = send(t, nm.(Model), screen.keys...)
					got := text(m)
					checkSize(t, got, size[0], size[1])
					golden(t, name+".txt", got)
				})
			}
		}
	}
}

func labelsOf(r *analyze.Result) []string {
	var ls []string
	for _, m := range r.Moments {
		ls = append(ls, m.Label)
	}
	return ls
}
