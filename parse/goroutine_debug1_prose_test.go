package parse

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDebug1ProseBetweenGroups: a debug=1 profile pasted into an issue
// comment in parts, a person's words between its groups, with or without
// fences, is one moment: every group kept, each line of words skipped at
// its position.
func TestDebug1ProseBetweenGroups(t *testing.T) {
	group := func(n int, fn string) string {
		return fmt.Sprintf("%d @ 0x43a6c5 0x4061ee 0x46e9a1\n#\t0x4061ed\t%s+0x2d\t/src/app/main.go:20\n", n, fn)
	}
	tests := []struct {
		name    string
		in      string
		weights [][]int // per dump
		skipped []int   // lines
	}{
		{
			name:    "words between unfenced groups",
			in:      "goroutine profile: total 1041\n" + group(1000, "main.a") + "\nand this one grows with it:\n" + group(40, "main.b") + "\nThe rest:\n\n" + group(1, "main.c") + "\nAny idea?\n",
			weights: [][]int{{1000, 40, 1}},
			skipped: []int{5, 9},
		},
		{
			name:    "a fenced part, then words, then an unfenced group",
			in:      "```\ngoroutine profile: total 1040\n" + group(1000, "main.a") + "```\n\nThe rest are small:\n" + group(40, "main.b"),
			weights: [][]int{{1000, 40}},
			skipped: []int{5, 7},
		},
		{
			name:    "more words than a note: two pastes",
			in:      "goroutine profile: total 1000\n" + group(1000, "main.a") + strings.Repeat("a line of a long story\n", fenceProseMax+1) + group(40, "main.b"),
			weights: [][]int{{1000}, {40}},
		},
		{
			name:    "a second profile after the words is a second moment",
			in:      "goroutine profile: total 1000\n" + group(1000, "main.a") + "\nan hour later:\ngoroutine profile: total 40\n" + group(40, "main.b"),
			weights: [][]int{{1000}, {40}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dumps, err := Parse("issue.md", strings.NewReader(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			var weights [][]int
			var skipped []int
			for _, d := range dumps {
				var w []int
				for _, th := range d.Threads {
					w = append(w, th.Weight)
				}
				weights = append(weights, w)
				for _, s := range d.Skipped {
					skipped = append(skipped, s.Line)
				}
			}
			if diff := cmp.Diff(tt.weights, weights); diff != "" {
				t.Errorf("groups (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.skipped, skipped); diff != "" {
				t.Errorf("skipped lines (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDebug1ProseGenerated is the generated test: every committed debug=1
// profile, cut at random record boundaries with a person's words between
// the parts (one to fenceProseMax lines, blank lines, fences or none),
// reads to the same groups, and each line of words is skipped and counted.
func TestDebug1ProseGenerated(t *testing.T) {
	var files []string
	filepath.WalkDir("../testdata", func(p string, e os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".txt") && (strings.Contains(p, "debug1") || strings.Contains(p, "healthy-debug1")) {
			files = append(files, p)
		}
		return nil
	})
	rng := rand.New(rand.NewSource(33))
	words := []string{"and this one grows with it:", "The rest are small:", "(cut here, it did not fit)", "Then:", "see also #1234", "same after the restart"}
	cases := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Parse(file, strings.NewReader(string(data)))
		if err != nil || len(want) != 1 || want[0].Format != FormatGoDebug1 || len(want[0].Threads) < 2 || len(want[0].Skipped) > 0 {
			continue
		}
		lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
		for round := 0; round < 4; round++ {
			var b strings.Builder
			inserted := 0
			fenced := round%2 == 1
			if fenced {
				b.WriteString("```\n")
			}
			for i, l := range lines {
				if i > 1 && classifyDebug1Line([]byte(l)) == d1Record && rng.Intn(4) == 0 {
					if fenced {
						b.WriteString("```\n")
						inserted++
					}
					b.WriteString("\n")
					n := 1 + rng.Intn(fenceProseMax-1)
					for k := 0; k < n; k++ {
						b.WriteString(words[rng.Intn(len(words))] + "\n")
					}
					inserted += n
					b.WriteString("\n")
					if fenced {
						b.WriteString("```\n")
						inserted++
					}
				}
				b.WriteString(l + "\n")
			}
			if fenced {
				b.WriteString("```\n")
			}
			got, err := Parse(file, strings.NewReader(b.String()))
			if err != nil {
				t.Fatalf("%s round %d: %v", file, round, err)
			}
			cases++
			if len(got) != 1 {
				if testing.Verbose() {
					os.WriteFile("/tmp/parse/gen-fail.txt", []byte(b.String()), 0o644)
				}
				t.Errorf("%s round %d: %d dumps, want 1", file, round, len(got))
				continue
			}
			if g, w := d1Key(got[0]), d1Key(want[0]); g != w {
				t.Errorf("%s round %d: groups differ", file, round)
			}
			if len(got[0].Skipped) != inserted {
				t.Errorf("%s round %d: %d skipped, %d lines of words inserted: %v", file, round, len(got[0].Skipped), inserted, got[0].Skipped)
			}
		}
	}
	if cases < 40 {
		t.Errorf("only %d cases", cases)
	}
	t.Logf("%d profiles with words between their groups", cases)
}

func d1Key(d *Dump) string {
	var b strings.Builder
	for _, th := range d.Threads {
		fmt.Fprintf(&b, "%d", th.Weight)
		for _, f := range th.Frames {
			fmt.Fprintf(&b, " %s:%d", f.Func, f.Line)
		}
		b.WriteString("\n")
	}
	return b.String()
}
