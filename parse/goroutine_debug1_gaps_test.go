package parse

import (
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDebug1BlankLinesInRecordsProperty: real debug=1 profiles (Go 1.13,
// 1.26 and 1.27, with labels and without, fetched from net/http/pprof or
// written by the program) with blank lines inserted at random inside
// their records (after a record line, between frame lines, one or several
// in a row, as a paste leaves them) read as the same goroutines: the same
// records with the same counts, labels and frames, nothing skipped that
// was not skipped before, and each inserted blank line said in Gaps.
// Seeded.
func TestDebug1BlankLinesInRecordsProperty(t *testing.T) {
	files := []string{
		"testdata/verdicts/shapes-body-stream-debug1-healthy/1.txt",
		"testdata/verdicts/shapes-body-leak-debug1-go113/1.txt",
		"testdata/go/go1.26.8-debug1.txt",
		"testdata/go/go1.27.3-debug1.txt",
		"testdata/scenarios/go-slow-upstream-leak/after-2-debug1.txt",
	}
	for _, name := range files {
		text := readFixture(t, filepath.Join("..", name))
		want := parseOne(t, name, text)
		lines := strings.SplitAfter(text, "\n")
		for seed := range uint64(12) {
			rng := rand.New(rand.NewPCG(seed, 33))
			var b strings.Builder
			inserted := 0
			for i, l := range lines {
				b.WriteString(l)
				// Inside a record: this line is its record or frame line
				// and a frame line follows.
				if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "#\t") && l != "\n" && rng.IntN(6) == 0 {
					k := 1 + rng.IntN(3)
					b.WriteString(strings.Repeat("\n", k))
					inserted += k
				}
			}
			got := parseOne(t, name, b.String())
			if len(got.Threads) != len(want.Threads) || got.ThreadCount() != want.ThreadCount() {
				t.Fatalf("%s seed %d: %d records of %d goroutines, want %d of %d", name, seed, len(got.Threads), got.ThreadCount(), len(want.Threads), want.ThreadCount())
			}
			for i, w := range want.Threads {
				g := got.Threads[i]
				if g.Weight != w.Weight || fmt.Sprint(g.Labels) != fmt.Sprint(w.Labels) || frameText(g) != frameText(w) {
					t.Errorf("%s seed %d: record %d (line %d) is %d %s, want %d %s", name, seed, i, g.Line, g.Weight, frameText(g), w.Weight, frameText(w))
				}
			}
			if len(got.Skipped) != len(want.Skipped) {
				t.Errorf("%s seed %d: %d skipped, want %d: %+v", name, seed, len(got.Skipped), len(want.Skipped), got.Skipped)
			}
			if len(got.Gaps) != inserted {
				t.Errorf("%s seed %d: %d gaps said, want the %d blank lines inserted", name, seed, len(got.Gaps), inserted)
			}
		}
	}
}

// TestDebug1BlankLineBeforeOtherRecord: frame lines after a blank line
// that are not the ended record's (their PCs are not in its record line:
// another record whose record line a cut lost) are not taken into it;
// they stay skipped, counted, as before.
func TestDebug1BlankLineBeforeOtherRecord(t *testing.T) {
	text := "goroutine profile: total 4\n" +
		"2 @ 0x43a0ae 0x471b61 0x1\n" +
		"#\t0x471b60\tmain.a+0x20\t/src/a.go:10\n" +
		"\n" +
		"#\t0x55aa10\tmain.b+0x20\t/src/b.go:10\n" +
		"\n" +
		"1 @ 0x43a0ae 0x471c61\n" +
		"#\t0x471c60\tmain.c+0x20\t/src/c.go:10\n\n"
	d := parseOne(t, "cut.txt", text)
	if len(d.Threads) != 2 || len(d.Threads[0].Frames) != 1 || len(d.Gaps) != 0 || len(d.Skipped) != 2 {
		t.Errorf("records %d, frames of the first %d, gaps %+v, skipped %+v: want 2, 1, none, the lost record's frame and the total",
			len(d.Threads), len(d.Threads[0].Frames), d.Gaps, d.Skipped)
	}
}

func readFixture(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("%s: %v", path, err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		if r, err = gzip.NewReader(f); err != nil {
			t.Fatal(err)
		}
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func parseOne(t *testing.T, name, text string) *Dump {
	t.Helper()
	ds, err := Parse(name, strings.NewReader(text))
	if err != nil || len(ds) != 1 || ds[0].Format != FormatGoDebug1 {
		t.Fatalf("%s: %d dumps, %v", name, len(ds), err)
	}
	return ds[0]
}

func frameText(t *Thread) string {
	var b strings.Builder
	for _, f := range t.Frames {
		fmt.Fprintf(&b, "%s@%s:%d;", f.Func, f.File, f.Line)
	}
	return b.String()
}
