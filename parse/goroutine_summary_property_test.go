package parse

import (
	"errors"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// The hand-summary property (issue 33): every committed Go text dump,
// summarised as a person writes it (groups of goroutines by state, wait
// and functions, in one of the three shapes: arrow lines, indented names,
// a chain on the header's line, some chains written caller first), reads
// as an excerpt of as many goroutines, whose groups carry the dump's
// states, waits and functions, top first. The dump is the oracle.

// summaryGroup is one group of a dump's goroutines as a summary gives it.
type summaryGroup struct {
	state   string
	minutes int
	fns     []string // top first, as the runtime prints them (no goexit, no go wrapper)
	n       int
}

// summaryGroups groups d's goroutines by state, wait and function names;
// ok false when a state or a function is not one a summary can name
// (the summary could not be written as this one is).
func summaryGroups(d *Dump) (gs []*summaryGroup, ok bool) {
	idx := map[string]*summaryGroup{}
	for _, t := range d.Threads {
		fs, _ := runtimeView(t.Frames)
		var fns []string
		for _, f := range fs {
			if !isGoFuncName([]byte(f.Func)) {
				return nil, false
			}
			fns = append(fns, f.Func)
		}
		if !goWaitReasons[t.State] || len(fns) == 0 {
			return nil, false
		}
		k := fmt.Sprint(t.State, "|", t.WaitMinutes, "|", fns)
		g := idx[k]
		if g == nil {
			g = &summaryGroup{state: t.State, minutes: t.WaitMinutes, fns: fns}
			idx[k] = g
			gs = append(gs, g)
		}
		g.n++
	}
	return gs, true
}

// writeSummary prints gs in shape 0 (arrow lines), 1 (indented names) or
// 2 (a chain on the header's line, caller first where rev says so).
func writeSummary(gs []*summaryGroup, r *rand.Rand) string {
	var b strings.Builder
	b.WriteString("Here is what the goroutines were doing, grouped:\n\n")
	for _, g := range gs {
		st := g.state
		if g.minutes > 0 {
			st += fmt.Sprintf(", %d minutes", g.minutes)
		}
		head := fmt.Sprintf("%d goroutines [%s]:", g.n, st)
		if g.n == 1 && r.Intn(2) == 0 {
			head = fmt.Sprintf("goroutine %d [%s]:", 1+r.Intn(9999), st)
		}
		switch shape := r.Intn(3); {
		case shape == 2 || len(g.fns) == 1 && shape == 1:
			fns := slices.Clone(g.fns)
			if callerFirst(reversed(fns)) {
				fns = reversed(fns) // the writer went from caller to callee
			}
			fmt.Fprintf(&b, "%s %s\n", head, strings.Join(fns, " -> "))
		case shape == 0:
			b.WriteString(head + "\n")
			for _, f := range g.fns {
				fmt.Fprintf(&b, "  -> %s\n", f)
			}
		default:
			b.WriteString(head + "\n")
			for _, f := range g.fns {
				fmt.Fprintf(&b, "    %s\n", f)
			}
		}
		if r.Intn(2) == 0 {
			b.WriteString("\n")
		}
	}
	b.WriteString("\nThe rest of the dump is attached -> see above.\n")
	return b.String()
}

func reversed(s []string) []string {
	s = slices.Clone(s)
	slices.Reverse(s)
	return s
}

func TestGoSummaryProperty(t *testing.T) {
	names, _, dumps := goTextSources(t)
	read, cannot := 0, 0
	for i, d := range dumps {
		gs, ok := summaryGroups(d)
		if !ok {
			cannot++ // a state or function no summary names (said below)
			continue
		}
		// A chain that reads as written caller first when written top
		// first is ambiguous: the reader turns it round, as it says.
		ambiguous := false
		for _, g := range gs {
			ambiguous = ambiguous || callerFirst(g.fns)
		}
		if ambiguous {
			cannot++
			continue
		}
		r := rand.New(rand.NewSource(int64(i)))
		text := writeSummary(gs, r)
		ds, err := Parse(names[i]+".summary", strings.NewReader(text))
		if err != nil || len(ds) != 1 {
			starts := []int{}
			for _, x := range ds {
				starts = append(starts, x.Threads[0].Line)
			}
			t.Errorf("%s: summary not read (%v, %d dumps at %v):\n%s", names[i], err, len(ds), starts, text)
			continue
		}
		got := ds[0]
		if !strings.Contains(got.Excerpt, "summary written by hand") || got.ThreadCount() != d.ThreadCount() || len(got.Threads) != len(gs) {
			t.Errorf("%s: read %d goroutines in %d groups (%q), want %d in %d:\n%s", names[i], got.ThreadCount(), len(got.Threads), got.Excerpt, d.ThreadCount(), len(gs), text)
			continue
		}
		for k, g := range gs {
			th := got.Threads[k]
			var fns []string
			for _, f := range th.Frames {
				fns = append(fns, f.Func)
			}
			if th.Weight != g.n || th.State != g.state || th.WaitMinutes != g.minutes || !slices.Equal(fns, g.fns) {
				t.Errorf("%s: group %d read as %d [%s, %d] %v, want %d [%s, %d] %v", names[i], k, th.Weight, th.State, th.WaitMinutes, fns, g.n, g.state, g.minutes, g.fns)
			}
		}
		read++
	}
	t.Logf("%d dumps summarised and read; %d with a state or function no summary names, or only chains ambiguous in their direction", read, cannot)
	if read < 50 || read < 2*cannot {
		t.Errorf("only %d of %d dumps summarised", read, read+cannot)
	}
}

// TestGoSummaryProseNoStart: lines of prose with arrows (sentences,
// Markdown lists, file names, Go names inside sentences, headers that
// name no state of the runtime's) start no dump, however they are mixed.
func TestGoSummaryProseNoStart(t *testing.T) {
	words := []string{"the cache", "retry", "backoff", "give up", "main.go", "server.go", "config", "output", "we call pkg.F", "main.go -> handler.go",
		"it hangs", "step 1", "step 2", "`http.Get`", "the store.", "A", "B", "net/http", "done", "foo.bar baz", "x.y()", "e.g.", "1.2.3"}
	heads := []string{"%d goroutines [stuck]: %s", "%d goroutines [waiting on the DB]: %s", "goroutine leak: %[2]s", "%d: running %[2]s",
		"see goroutine %d -> %s", "%d goroutines [chan receive] %s", "%d goroutines:  %s",
		// A state the runtime prints, over a chain with prose in it.
		"%d goroutines [select]: %s -> the cache", "goroutine %d [chan receive]: %s -> it hangs"}
	shapes := []string{"%s", "- %s", "* %s", "1. %s", "  %s", "> %s", "    %s", "**%s**"}
	r := rand.New(rand.NewSource(33))
	for i := 0; i < 2000; i++ {
		var b strings.Builder
		for l := 0; l < 1+r.Intn(8); l++ {
			var chain []string
			for k := 0; k < 2+r.Intn(3); k++ {
				chain = append(chain, words[r.Intn(len(words))])
			}
			line := strings.Join(chain, " -> ")
			if r.Intn(4) == 0 {
				line = fmt.Sprintf(heads[r.Intn(len(heads))], 1+r.Intn(500), line)
			}
			fmt.Fprintf(&b, shapes[r.Intn(len(shapes))]+"\n", line)
			if r.Intn(3) == 0 {
				fmt.Fprintf(&b, "    %s\n", words[r.Intn(len(words))])
			}
		}
		ds, err := Parse("prose.md", strings.NewReader(b.String()))
		var nd *NoDumpError
		if !errors.As(err, &nd) {
			t.Fatalf("prose read as %d dumps (err %v):\n%s", len(ds), err, b.String())
		}
	}
}

// TestGoSummaryLines: which lines start a summary, and which are prose.
func TestGoSummaryLines(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{"40 goroutines [select]: example.com/rpc.(*Conn).loop -> example.com/rpc.(*Conn).Call", true},
		{"goroutine 12 [chan receive, 3 minutes]: main.worker -> main.main", true},
		{"1234 goroutines [sync.RWMutex.Lock, 11 minutes]: sync.(*RWMutex).Lock", true},
		{"goroutine 12 [chan receive]:", false},                                     // the runtime's header: a dump's
		{"5 goroutines [select]: main.go -> server.go", false},                      // file names
		{"5 goroutines [stuck]: main.worker -> main.main", false},                   // no state of the runtime's
		{"5 goroutines [select]: the cache -> the store", false},                    // prose
		{"5 goroutines [select]: see pkg.F -> pkg.G", false},                        // a sentence
		{"goroutine 12 [chan receive]: main.worker -> main.main.", false},           // a full stop
		{"goroutine 12 [chan receive, many minutes]: main.worker -> x.y", false},    // no number
		{"3 goroutines [select, 2 minutes]: net/http.(*conn).serve -> e.g.", false}, // an abbreviation
	} {
		if got := startsGoSummary([]byte(c.line)); got != c.want {
			t.Errorf("startsGoSummary(%q) = %v, want %v", c.line, got, c.want)
		}
		if got := startsGoText([]byte(c.line), nil); got && c.want {
			t.Errorf("startsGoText(%q) claims a summary's line", c.line)
		}
	}
}
