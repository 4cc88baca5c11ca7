package parse

import (
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const pprofTextDir = "../testdata/pprof-text"

// pprofKey is what -traces keeps of a goroutine profile: each stack's
// weight and functions (and files and lines when printed), in a stable
// order.
func pprofKey(dumps []*Dump, lines bool) []string {
	var out []string
	for _, d := range dumps {
		for _, th := range d.Threads {
			if len(th.Frames) == 0 {
				continue // pprof prints no sample without a stack
			}
			var b strings.Builder
			fmt.Fprintf(&b, "%d %v:", th.Weight, th.Labels)
			for _, f := range th.Frames {
				b.WriteString(" " + f.Func)
				if lines && f.Line > 0 {
					fmt.Fprintf(&b, " %s:%d", f.File, f.Line)
				}
			}
			out = append(out, b.String())
		}
	}
	sort.Strings(out)
	return out
}

// TestPprofTextFixtures reads testdata/pprof-text as its README says
// (written before dumpdiff ran on it).
func TestPprofTextFixtures(t *testing.T) {
	proto, err := ParseFile("../testdata/go/go1.26.8-debug0.pb.gz")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		file    string
		threads int
		weights []int
		when    string
		same    []*Dump // the profile it was printed from; nil if not committed
		lines   bool
	}{
		{"mutexpile.traces.txt", 49, []int{40, 7, 1, 1}, "2026-12-07 13:15:50", nil, false},
		{"mutexpile.traces-lines.txt", 49, []int{40, 7, 1, 1}, "2026-12-07 13:15:50", nil, true},
		{"go1.26.8-debug0.traces.txt", 30, nil, "2026-11-29 17:28:25", proto, false},
		{"go1.26.8-debug0.traces-lines.txt", 30, nil, "2026-11-29 17:28:25", proto, true},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			dumps, err := ParseFile(filepath.Join(pprofTextDir, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if len(dumps) != 1 {
				t.Fatalf("got %d dumps, want 1", len(dumps))
			}
			d := dumps[0]
			if d.ThreadCount() != tt.threads || len(d.Skipped) != 0 || d.Format != FormatGoDebug1 || d.Excerpt != "" {
				t.Errorf("got %d goroutines, %d skipped, format %s, excerpt %q", d.ThreadCount(), len(d.Skipped), d.Format, d.Excerpt)
			}
			if got := d.Time.UTC().Format(time.DateTime); got != tt.when {
				t.Errorf("time %s, want %s", got, tt.when)
			}
			if tt.weights != nil {
				var w []int
				for _, th := range d.Threads {
					w = append(w, th.Weight)
				}
				if diff := cmp.Diff(tt.weights, w); diff != "" {
					t.Errorf("weights (-want +got):\n%s", diff)
				}
			}
			if tt.same != nil {
				if diff := cmp.Diff(pprofKey(tt.same, tt.lines), pprofKey(dumps, tt.lines)); diff != "" {
					t.Errorf("stacks differ from the profile's (-profile +traces):\n%s", diff)
				}
			}
		})
	}
	refused, _ := filepath.Glob(filepath.Join(pprofTextDir, "*.t[or][pe]*.txt"))
	peek, _ := filepath.Glob(filepath.Join(pprofTextDir, "*.peek.txt"))
	refused = append(refused, peek...)
	if len(refused) != 6 {
		t.Fatalf("%d refused files: %v", len(refused), refused)
	}
	for _, f := range refused {
		if strings.Contains(f, ".traces") {
			continue
		}
		_, err := ParseFile(f)
		var nd *NoDumpError
		if !errors.As(err, &nd) || !strings.Contains(nd.Looks, "go tool pprof -top, -tree or -peek") {
			t.Errorf("%s: %v, want a refusal that names pprof's reports", filepath.Base(f), err)
		}
	}
}

// renderTraces writes d as `go tool pprof -traces` prints a goroutine
// profile (pprof_text.go's format): a header unless bare, the samples
// between separators, labels first; lines adds each frame's file and
// line, addrs an address before each function, inline marks some frames
// inlined, indent is put before every line.
func renderTraces(d *Dump, rng *rand.Rand, bare, lines, addrs, inline bool, indent string) string {
	var b strings.Builder
	w := func(s string) { b.WriteString(indent + s + "\n") }
	if !bare {
		w("File: prog")
		w("Build ID: 0123456789abcdef0123456789abcdef01234567")
		w("Type: goroutine")
		if !d.Time.IsZero() {
			w("Time: " + d.Time.UTC().Format("2006-01-02 15:04:05 MST"))
		}
	}
	sep := "-----------+-------------------------------------------------------"
	for _, th := range d.Threads {
		if len(th.Frames) == 0 {
			continue
		}
		w(sep)
		var keys []string
		for k := range th.Labels {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			w(fmt.Sprintf("%10s:  %s", k, th.Labels[k]))
		}
		for i, f := range th.Frames {
			v := ""
			if i == 0 {
				v = fmt.Sprint(th.Weight)
			}
			name := f.Func
			if addrs {
				name = fmt.Sprintf("%016x %s", rng.Uint64()>>8, name)
			}
			if lines && f.Line > 0 {
				name += fmt.Sprintf(" %s:%d", f.File, f.Line)
			}
			if inline && i+1 < len(th.Frames) && rng.Intn(3) == 0 {
				name += " (inline)"
			}
			w(fmt.Sprintf("%10s   %s", v, name))
		}
	}
	w(sep)
	return b.String()
}

// TestPprofTracesRendered is the generated test: every committed
// goroutine profile (debug=0), printed as -traces in each of its shapes
// (with files and lines, with addresses, inlined frames marked, without
// its header, indented as a Markdown block, inside prose), reads to the
// profile's own stacks, weights and labels.
func TestPprofTracesRendered(t *testing.T) {
	var files []string
	filepath.WalkDir("../testdata", func(p string, e os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".pb.gz") {
			files = append(files, p)
		}
		return nil
	})
	rng := rand.New(rand.NewSource(33))
	cases := 0
	for _, file := range files {
		dumps, err := ParseFile(file)
		if err != nil || len(dumps) != 1 || dumps[0].Format != FormatGoProto || len(dumps[0].Threads) == 0 {
			continue
		}
		d := dumps[0]
		for k := 0; k < 6; k++ {
			bare, lines, addrs, inline := k == 3, k == 1 || k == 5, k == 2, k >= 2
			indent := ""
			if k == 4 {
				indent = "    "
			}
			text := renderTraces(d, rng, bare, lines, addrs, inline, indent)
			if k == 5 {
				text = "Here is what pprof says:\n\n```\n" + text + "```\n\nThanks.\n"
			}
			got, err := Parse(file, strings.NewReader(text))
			if err != nil {
				t.Errorf("%s, shape %d: %v", file, k, err)
				continue
			}
			cases++
			if len(got) != 1 {
				t.Errorf("%s, shape %d: %d dumps", file, k, len(got))
				continue
			}
			if !bare && !got[0].Time.Equal(d.Time.Truncate(time.Second)) {
				t.Errorf("%s, shape %d: time %v, want %v", file, k, got[0].Time, d.Time)
			}
			if len(got[0].Skipped) != 0 {
				t.Errorf("%s, shape %d: skipped %v", file, k, got[0].Skipped)
			}
			if diff := cmp.Diff(pprofKey(dumps, lines), pprofKey(got, lines)); diff != "" {
				t.Errorf("%s, shape %d: stacks (-profile +traces):\n%s", file, k, diff)
			}
		}
	}
	if cases < 100 {
		t.Errorf("only %d rendered profiles read", cases)
	}
	t.Logf("%d rendered profiles read", cases)
}

// TestPprofTextLines: the reader's edges.
func TestPprofTextLines(t *testing.T) {
	sep := "-----------+-------------------------------------------------------\n"
	tests := []struct {
		name    string
		in      string
		weights []int
		skipped []string
		looks   string // the refusal, when no dump
	}{
		{
			name:    "labels go to the next sample",
			in:      sep + "    worker:  3\n        12   runtime.gopark\n             main.work\n" + sep + "         1   main.main\n" + sep,
			weights: []int{12, 1},
		},
		{
			name:  "a cpu profile's -traces is refused",
			in:    "File: x\nType: cpu\nTime: 2026-12-07 13:15:50 UTC\nDuration: 1s, Total samples = 10ms (1%)\n" + sep + "      10ms   main.spin\n" + sep,
			looks: "not of goroutines",
		},
		{
			name:  "values with units start no goroutines",
			in:    sep + "      10ms   main.spin\n" + sep,
			looks: "",
		},
		{
			name:    "a line that is no frame inside a sample is skipped at its position",
			in:      sep + "         2   runtime.gopark\n             this is not a frame\n             main.wait\n" + sep,
			weights: []int{2},
			skipped: []string{"3: a line of a pprof -traces sample that is no frame"},
		},
		{
			name:    "a label with no sample after it is skipped",
			in:      sep + "         2   main.wait\n" + sep + "      note:  nothing follows\n",
			weights: []int{2},
			skipped: []string{"4: a pprof -traces label line with no sample after it"},
		},
		{
			name:  "-tree's separator starts nothing",
			in:    "----------------------------------------------------------+-------------\n      flat  flat%   sum%        cum   cum%   calls calls% + context\n",
			looks: "go tool pprof -top, -tree or -peek",
		},
		{
			name:  "Type: goroutine in prose",
			in:    "The profile said\nType: goroutine\nand then it was gone.\n",
			looks: "",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dumps, err := Parse("p.txt", strings.NewReader(tt.in))
			if tt.weights == nil {
				var nd *NoDumpError
				if !errors.As(err, &nd) {
					t.Fatalf("got %d dumps, %v; want no dump", len(dumps), err)
				}
				if tt.looks != "" && !strings.Contains(nd.Looks, tt.looks) || tt.looks == "" && nd.Looks != "" && strings.Contains(nd.Looks, "pprof") {
					t.Errorf("looks %q, want %q", nd.Looks, tt.looks)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var w []int
			for _, d := range dumps {
				for _, th := range d.Threads {
					w = append(w, th.Weight)
				}
			}
			if diff := cmp.Diff(tt.weights, w); diff != "" {
				t.Errorf("weights (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.skipped, skippedAt(dumps)); diff != "" {
				t.Errorf("skipped (-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzPprofText: any text, seeded with the committed reports, parses
// without a panic, every skipped line with its position and every
// goroutine weighed.
func FuzzPprofText(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(pprofTextDir, "*.txt"))
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data[:min(len(data), 4<<10)])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dumps, _ := Options{MaxLine: 4 << 10}.Parse("fuzz.txt", strings.NewReader(string(data)))
		checkDumps(t, dumps)
		for _, d := range dumps {
			for _, th := range d.Threads {
				if th.Weight < 1 {
					t.Fatalf("weight %d", th.Weight)
				}
			}
			for _, s := range d.Skipped {
				if s.Line <= 0 {
					t.Fatalf("skipped line without position: %+v", s)
				}
			}
		}
	})
}
