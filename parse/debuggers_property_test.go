package parse

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"
)

// The debuggers' property: a listing written by code from goroutines made
// at random, in each form Delve prints (goroutines, -t, -l, the selected
// goroutine's "*", a goroutine on a thread, stamps or none, the prompt,
// bold names, the footer) and in GoLand's, reads back as those
// goroutines: ids, states, frames in the runtime's view (no
// runtime.goexit, no go statement's wrapper), labels, creators, and waits
// from the stamps in whole minutes against the newest.

// genGoroutine is one goroutine the property writes.
type genGoroutine struct {
	id      int64
	state   string // "" when not waiting: no bracket
	stamp   int64  // 0 for none
	thread  int
	labels  map[string]string
	frames  []genFrame // innermost first, the go statement's wrapper and runtime.goexit included
	creator string     // the function holding the go statement, "" if none
}

type genFrame struct {
	fn, file string
	line     int
}

var genFuncs = []genFrame{
	{"runtime.gopark", "/usr/local/go/src/runtime/proc.go", 463},
	{"runtime.chanrecv", "/usr/local/go/src/runtime/chan.go", 664},
	{"internal/sync.(*Mutex).lockSlow", "/usr/local/go/src/internal/sync/mutex.go", 149},
	{"net.(*netFD).accept", "/usr/local/go/src/net/fd_unix.go", 150},
	{"main.(*store).get", "/home/dev/app/store.go", 29},
	{"example.com/app/worker.(*Pool).run[...]", "/home/dev/app/worker/pool.go", 88},
	{"main.handler.func1", "/home/dev/app/main.go", 41},
}

var genStates = []string{"", "chan receive", "chan send", "sync.Mutex.Lock", "IO wait", "select", "sleep", "sync.WaitGroup.Wait", "GC worker (idle)", "select (no cases)"}

func genGoroutines(r *rand.Rand) []genGoroutine {
	n := 1 + r.Intn(12)
	gs := make([]genGoroutine, n)
	id := int64(1)
	for i := range gs {
		g := &gs[i]
		id += 1 + int64(r.Intn(40))
		g.id = id
		g.state = genStates[r.Intn(len(genStates))]
		if g.state != "" && r.Intn(3) > 0 {
			g.stamp = 3_000_000_000_000 + r.Int63n(600_000_000_000) // within 10 minutes of each other
		}
		if g.state == "" && r.Intn(2) == 0 {
			g.thread = 1000 + r.Intn(9000)
		}
		if r.Intn(4) == 0 {
			g.labels = map[string]string{"job": fmt.Sprintf("import-%d", r.Intn(9)), "tenant": "a b\"c"}
		}
		k := 1 + r.Intn(6)
		for j := 0; j < k; j++ {
			g.frames = append(g.frames, genFuncs[r.Intn(len(genFuncs))])
		}
		if r.Intn(2) == 0 {
			g.creator = "main.main"
			g.frames = append(g.frames, genFrame{fmt.Sprintf("main.main.gowrap%d", 1+r.Intn(9)), "/home/dev/app/main.go", 60})
		}
		g.frames = append(g.frames, genFrame{"runtime.goexit", "/usr/local/go/src/runtime/asm_amd64.s", 1771})
	}
	return gs
}

// writeDelve writes gs as Delve prints them: stacks for -t, labels for -l.
func writeDelve(r *rand.Rand, gs []genGoroutine, stacks, labels bool) string {
	var b strings.Builder
	prompt := r.Intn(2) == 0
	bold := stacks && r.Intn(2) == 0
	b.WriteString("(dlv) goroutines")
	if stacks {
		b.WriteString(" -t")
	}
	if labels {
		b.WriteString(" -l")
	}
	b.WriteString("\n")
	sel := r.Intn(len(gs))
	for i, g := range gs {
		mark := "  "
		if i == sel {
			mark = "* "
		}
		if i == 0 && prompt {
			mark = "(dlv) " + mark // a transcript: the prompt before the first line
		}
		top := g.frames[0]
		fmt.Fprintf(&b, "%sGoroutine %d - User: %s:%d %s (0x%x)", mark, g.id, top.file, top.line, top.fn, 0x400000+r.Intn(1<<20))
		if g.thread != 0 {
			fmt.Fprintf(&b, " (thread %d)", g.thread)
		}
		if g.state != "" {
			fmt.Fprintf(&b, " [%s", g.state)
			if g.stamp != 0 {
				fmt.Fprintf(&b, " %d", g.stamp)
			}
			b.WriteString("]")
		}
		b.WriteString("\n")
		if labels && g.labels != nil {
			keys := make([]string, 0, len(g.labels))
			for k := range g.labels {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			var parts []string
			for _, k := range keys {
				parts = append(parts, fmt.Sprintf("%q:%q", k, g.labels[k]))
			}
			b.WriteString("\tLabels: " + strings.Join(parts, ", ") + "\n")
		}
		if stacks {
			d := len(fmt.Sprint(len(g.frames) - 1))
			for j, f := range g.frames {
				fn, file := f.fn, f.file
				if bold {
					fn = "\x1b[1m" + fn + "\x1b[0m"
					slash := strings.LastIndexByte(file, '/') + 1
					file = file[:slash] + "\x1b[1m" + file[slash:]
				}
				fmt.Fprintf(&b, "\t%*d  0x%016x in %s\n", d, j, 0x400000+r.Intn(1<<20), fn)
				fmt.Fprintf(&b, "\t%sat %s:%d", strings.Repeat(" ", d+2), file, f.line)
				if bold {
					b.WriteString("\x1b[0m")
				}
				b.WriteString("\n")
			}
		}
	}
	fmt.Fprintf(&b, "[%d goroutines]\n", len(gs))
	return b.String()
}

// writeGoLand writes gs as GoLand's copied stacks, a "<snip>" now and then.
func writeGoLand(r *rand.Rand, gs []genGoroutine) string {
	var b strings.Builder
	indent := []string{"  ", "\t", "    "}[r.Intn(3)]
	for _, g := range gs {
		fmt.Fprintf(&b, "Goroutine %d\n", g.id)
		for _, f := range g.frames {
			fmt.Fprintf(&b, "%s%s (%s:%d)\n", indent, f.fn, f.file, f.line)
		}
		if g.creator != "" {
			fmt.Fprintf(&b, "%screated at: %s (/home/dev/app/main.go)\n", indent, g.creator)
		}
		if r.Intn(4) == 0 {
			b.WriteString("<snip>\n")
		}
	}
	return b.String()
}

// checkRead compares what was read with the goroutines written.
func checkRead(t *testing.T, what, text string, gs []genGoroutine, stacks, labels, states bool) {
	t.Helper()
	dumps, err := Parse("gen.txt", strings.NewReader(text))
	if err != nil || len(dumps) != 1 {
		t.Fatalf("%s: %d dumps, %v\n%s", what, len(dumps), err, text)
	}
	d := dumps[0]
	if len(d.Threads) != len(gs) || len(d.Skipped) != 0 || d.Format != FormatGoText || d.Excerpt == "" {
		t.Fatalf("%s: %d goroutines, %d skipped (%+v), %s, excerpt %q; want %d, 0\n%s", what, len(d.Threads), len(d.Skipped), d.Skipped, d.Format, d.Excerpt, len(gs), text)
	}
	newest := int64(0)
	for _, g := range gs {
		newest = max(newest, g.stamp)
	}
	for i, g := range gs {
		th := d.Threads[i]
		var want []string
		for _, f := range g.frames {
			if f.fn == "runtime.goexit" || strings.Contains(f.fn, ".gowrap") {
				continue
			}
			want = append(want, fmt.Sprintf("%s %s:%d", f.fn, f.file, f.line))
		}
		if !stacks {
			want = []string{fmt.Sprintf("%s %s:%d", g.frames[0].fn, g.frames[0].file, g.frames[0].line)}
		}
		var got []string
		for _, f := range th.Frames {
			got = append(got, fmt.Sprintf("%s %s:%d", f.Func, f.File, f.Line))
		}
		if th.ID != g.id || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s: goroutine %d read as %d with %v, want %v\n%s", what, g.id, th.ID, got, want, text)
		}
		wantState, wantMin := "", 0
		if states {
			wantState = g.state
			if g.stamp != 0 {
				wantMin = int((newest - g.stamp) / 60e9)
			}
		}
		if th.State != wantState || th.WaitMinutes != wantMin {
			t.Fatalf("%s: goroutine %d state %q, %d minutes; want %q, %d", what, g.id, th.State, th.WaitMinutes, wantState, wantMin)
		}
		if labels && fmt.Sprint(th.Labels) != fmt.Sprint(g.labels) || !labels && th.Labels != nil {
			t.Fatalf("%s: goroutine %d labels %v, want %v", what, g.id, th.Labels, g.labels)
		}
		wantCreator := ""
		if stacks {
			wantCreator = g.creator
		}
		gotCreator := ""
		if th.CreatedBy != nil {
			gotCreator = th.CreatedBy.Func
		}
		if gotCreator != wantCreator {
			t.Fatalf("%s: goroutine %d creator %q, want %q", what, g.id, gotCreator, wantCreator)
		}
	}
}

// TestDebuggersProperty writes 300 sets of goroutines in each form and
// reads them back (seeded: the same sets every run).
func TestDebuggersProperty(t *testing.T) {
	r := rand.New(rand.NewSource(32))
	for i := 0; i < 300; i++ {
		gs := genGoroutines(r)
		stacks, labels := r.Intn(2) == 0, r.Intn(2) == 0
		checkRead(t, fmt.Sprintf("delve #%d (-t %v, -l %v)", i, stacks, labels), writeDelve(r, gs, stacks, labels), gs, stacks, labels, true)
		checkRead(t, fmt.Sprintf("goland #%d", i), writeGoLand(r, gs), gs, true, false, false)
	}
}
