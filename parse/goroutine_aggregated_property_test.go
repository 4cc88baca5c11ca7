package parse

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The aggregated-listing property (issue 32): every committed Go text
// dump, grouped as panicparse's pp and as gotraceanalyzer group it (by
// code below that follows their printers: pp's internal/ui.go
// BucketHeader and callLine, gotraceanalyzer's main.go), reads as an
// excerpt of as many goroutines as the dump, whose groups carry the
// states, wait minutes, frames and creators of the goroutines grouped.
// The dump is the oracle.

// goTextSources reads the committed Go text dumps (testdata and the
// shared corpus when present), each with its text.
func goTextSources(t *testing.T) (names, texts []string, dumps []*Dump) {
	t.Helper()
	var paths []string
	for _, g := range []string{"../testdata/go/*.txt", "../testdata/verdicts/*/*.txt", corpusDir + "/go/*.txt"} {
		m, _ := filepath.Glob(g)
		paths = append(paths, m...)
	}
	sort.Strings(paths)
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil || bytes.Contains(b, []byte("unique goroutines out of")) {
			continue
		}
		text := strings.ReplaceAll(string(b), "\r\n", "\n")
		ds, err := Parse(p, strings.NewReader(text))
		if err != nil || len(ds) != 1 || ds[0].Format != FormatGoText || ds[0].Prefix != "" || ds[0].Excerpt != "" || len(ds[0].Threads) < 2 {
			continue
		}
		names, texts, dumps = append(names, strings.TrimPrefix(p, "../")), append(texts, text), append(dumps, ds[0])
	}
	return names, texts, dumps
}

// ppName is a function as pp prints it: its package's last element and
// the name ("net/http.(*conn).serve" gives "http", "(*conn).serve").
func ppName(fn string) (pkg, name string) {
	s := strings.LastIndexByte(fn, '/')
	d := strings.IndexByte(fn[s+1:], '.')
	if d < 0 {
		return fn, ""
	}
	return fn[s+1 : s+1+d], fn[s+1+d+1:]
}

// ppGroupKey groups goroutines as pp's default similarity does when
// arguments are left out: the state, the frames, the creator.
func ppGroupKey(g *Thread) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s|%v|", g.State, g.GoExtra != nil && g.FramesElided)
	for _, f := range g.Frames {
		fmt.Fprintf(&b, "%s %s:%d;", f.Func, path.Base(f.File), f.Line)
	}
	if c := g.CreatedBy; c != nil {
		fmt.Fprintf(&b, "|%s %s:%d", c.Func, path.Base(c.File), c.Line)
	}
	return b.String()
}

// ppListing prints d grouped as pp prints it, and returns for each
// goroutine the least wait of its group (pp prints a group's waits as a
// range, read as its least).
func ppListing(d *Dump) (string, map[*Thread]int) {
	groups := map[string][]*Thread{}
	var order []string
	for _, g := range d.Threads {
		k := ppGroupKey(g)
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], g)
	}
	least := map[*Thread]int{}
	var b strings.Builder
	for _, k := range order {
		gs := groups[k]
		lo, hi := gs[0].WaitMinutes, gs[0].WaitMinutes
		for _, g := range gs {
			lo, hi = min(lo, g.WaitMinutes), max(hi, g.WaitMinutes)
		}
		for _, g := range gs {
			least[g] = lo
		}
		g := gs[0]
		fmt.Fprintf(&b, "%d: %s", len(gs), g.State)
		switch {
		case hi == 0:
		case lo != hi:
			fmt.Fprintf(&b, " [%d~%d minutes]", lo, hi)
		default:
			fmt.Fprintf(&b, " [%d minutes]", hi)
		}
		for _, f := range g.Flags() {
			if f == "locked to thread" {
				b.WriteString(" [locked]")
			}
		}
		if c := g.CreatedBy; c != nil {
			pkg, name := ppName(c.Func)
			fmt.Fprintf(&b, " [Created by %s.%s @ %s:%d]", pkg, name, path.Base(c.File), c.Line)
		}
		b.WriteByte('\n')
		for _, f := range g.Frames {
			pkg, name := ppName(f.Func)
			fmt.Fprintf(&b, "    %-8s %-24s %s(...)\n", pkg, fmt.Sprintf("%s:%d", path.Base(f.File), f.Line), name)
		}
		if g.GoExtra != nil && g.FramesElided {
			b.WriteString("    (...)\n")
		}
	}
	return b.String(), least
}

// gtaListing groups the goroutine records of text as gotraceanalyzer
// does (the header's state words and the file lines), and prints each
// group's count over its first record's lines.
func gtaListing(text string) string {
	type group struct {
		n     int
		state string
		trace []string
	}
	var groups []*group
	index := map[string]*group{}
	var cur []string
	state := ""
	flush := func() {
		if state == "" {
			return
		}
		key := state
		for _, l := range cur {
			if strings.HasPrefix(l, "\t") {
				key += "|" + strings.Fields(l)[0]
			}
		}
		if g := index[key]; g != nil {
			g.n++
		} else {
			g = &group{n: 1, state: state, trace: cur}
			index[key] = g
			groups = append(groups, g)
		}
		state, cur = "", nil
	}
	for _, l := range strings.Split(text, "\n") {
		if gtaReads(l) {
			flush()
			o := strings.IndexByte(l, '[')
			state = l[o+1 : strings.LastIndexByte(l, ']')] // its regexp's greedy "\[(.+)\]"
			continue
		}
		if state == "" {
			continue
		}
		if l == "" {
			flush()
			continue
		}
		cur = append(cur, l)
	}
	flush()
	total := 0
	for _, g := range groups {
		total += g.n
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Showing %d unique goroutines out of %d total:\n\n", len(groups), total)
	for _, g := range groups {
		fmt.Fprintf(&b, "%d goroutines [%s]:\n%s\n\n", g.n, g.state, strings.Join(g.trace, "\n"))
	}
	return b.String()
}

// gtaReads reports whether gotraceanalyzer's header regexp,
// "goroutine \d+ \[(.+)\]", matches l at its start.
func gtaReads(l string) bool {
	rest, ok := strings.CutPrefix(l, "goroutine ")
	if !ok {
		return false
	}
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	return i > 0 && strings.HasPrefix(rest[i:], " [") && strings.LastIndexByte(rest, ']') > i+2
}

// gtaApplies reports whether gotraceanalyzer reads every goroutine header
// of d's text (not "goroutine 1 gp=0x... [running]:", whose words before
// the bracket its regexp does not allow).
func gtaApplies(text string, d *Dump) bool {
	n := 0
	for _, l := range strings.Split(text, "\n") {
		if gtaReads(l) {
			n++
		}
	}
	return n == len(d.Threads)
}

// ppApplies reports whether every function of d has a package (a
// "panic" frame has none: pp's columns have no place for it).
func ppApplies(d *Dump) bool {
	for _, g := range d.Threads {
		for _, f := range g.Frames {
			if !strings.Contains(f.Func, ".") {
				return false
			}
		}
	}
	return true
}

// groupPrint is what a listing keeps of a goroutine: state, wait, frames
// and creator, the functions as short or long as the tool prints them.
func groupPrint(g *Thread, minutes int, short bool) string {
	fn := func(f string) string {
		if short {
			pkg, name := ppName(f)
			return pkg + "." + name
		}
		return f
	}
	var b strings.Builder
	fmt.Fprintf(&b, "[%s %d]", g.State, minutes)
	for _, f := range g.Frames {
		fmt.Fprintf(&b, " %s@%s:%d", fn(f.Func), path.Base(f.File), f.Line)
	}
	if c := g.CreatedBy; c != nil {
		fmt.Fprintf(&b, " by %s@%s:%d", fn(c.Func), path.Base(c.File), c.Line)
	}
	return b.String()
}

func TestAggregatedListingProperty(t *testing.T) {
	names, texts, dumps := goTextSources(t)
	if len(names) < 3 {
		t.Fatalf("%d Go text dumps: testdata has more", len(names))
	}
	kept, tried := map[string]int{}, map[string]int{}
	for i, d := range dumps {
		for _, tool := range []string{"panicparse", "gotraceanalyzer"} {
			if tool == "panicparse" && !ppApplies(d) || tool == "gotraceanalyzer" && !gtaApplies(texts[i], d) {
				continue
			}
			tried[tool]++
			var listing string
			want := map[string]int{}
			if tool == "panicparse" {
				var least map[*Thread]int
				listing, least = ppListing(d)
				for _, g := range d.Threads {
					want[groupPrint(g, least[g], true)] += g.Weight
				}
			} else {
				listing = gtaListing(texts[i])
				for _, g := range d.Threads {
					want[groupPrint(g, g.WaitMinutes, false)] += g.Weight
				}
			}
			got, err := Parse("listing.txt", strings.NewReader(listing))
			if err != nil || len(got) != 1 {
				t.Errorf("%s as %s: %d dumps, %v\n%.2000s", names[i], tool, len(got), err, listing)
				continue
			}
			x := got[0]
			if !strings.HasPrefix(x.Excerpt, "aggregated by "+tool) || x.ThreadCount() != d.ThreadCount() {
				t.Errorf("%s as %s: %d goroutines, excerpt %q; want %d, aggregated by %s", names[i], tool, x.ThreadCount(), x.Excerpt, d.ThreadCount(), tool)
				continue
			}
			have := map[string]int{}
			for _, g := range x.Threads {
				have[groupPrint(g, g.WaitMinutes, false)] += g.Weight
			}
			if msg := mapDiff(want, have); msg != "" {
				t.Errorf("%s as %s: %s", names[i], tool, msg)
				continue
			}
			kept[tool]++
		}
	}
	for _, tool := range []string{"panicparse", "gotraceanalyzer"} {
		t.Logf("%-16s %d of %d dumps read as the dump reads (of %d)", tool, kept[tool], tried[tool], len(names))
	}
}

func mapDiff(want, got map[string]int) string {
	var out []string
	for k, n := range want {
		if got[k] != n {
			out = append(out, fmt.Sprintf("%d × %s, want %d", got[k], k, n))
		}
	}
	for k, n := range got {
		if _, ok := want[k]; !ok {
			out = append(out, fmt.Sprintf("%d × %s, want none", n, k))
		}
	}
	sort.Strings(out)
	if len(out) > 4 {
		out = append(out[:4], fmt.Sprintf("(%d more)", len(out)-4))
	}
	return strings.Join(out, "\n")
}
