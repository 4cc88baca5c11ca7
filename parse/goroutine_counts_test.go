package parse

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestGoCounts reads every file of testdata/go/COUNTS.tsv, whose dumps
// and goroutines were counted without dumpdiff (grep on the headers, the
// debug=1 totals, go tool pprof -raw), and checks that the parser finds
// as many.
func TestGoCounts(t *testing.T) {
	f, err := os.Open("../testdata/go/COUNTS.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) < 3 {
			t.Fatalf("COUNTS.tsv: bad line %q", line)
		}
		wantDumps, err1 := strconv.Atoi(cols[1])
		wantG, err2 := strconv.Atoi(cols[2])
		if err1 != nil || err2 != nil {
			t.Fatalf("COUNTS.tsv: bad counts in %q", line)
		}
		n++
		t.Run(cols[0], func(t *testing.T) {
			dumps, err := ParseFile(filepath.Join("../testdata/go", cols[0]))
			if err != nil {
				t.Fatal(err)
			}
			g := 0
			for _, d := range dumps {
				g += d.ThreadCount()
			}
			if len(dumps) != wantDumps || g != wantG {
				t.Errorf("%d dumps, %d goroutines; counted %d, %d (%s)", len(dumps), g, wantDumps, wantG, cols[3])
			}
			if len(dumps) != 1 || dumps[0].Format != FormatGoDebug1 {
				return
			}
			// A debug=1 profile pasted without its header line reads from
			// its first record: the same goroutines, said to be an excerpt.
			b, err := os.ReadFile(filepath.Join("../testdata/go", cols[0]))
			if err != nil {
				t.Fatal(err)
			}
			_, rest, _ := strings.Cut(string(b), "\n")
			cut, err := Parse(cols[0], strings.NewReader(rest))
			if err != nil || len(cut) != 1 || cut[0].ThreadCount() != wantG || cut[0].Excerpt != headerless || !cut[0].Cut || len(cut[0].Skipped) != 0 {
				t.Errorf("without its header: %d dumps (%v), want 1 of %d goroutines, an excerpt, nothing skipped", len(cut), err, wantG)
			}
		})
	}
	if n == 0 {
		t.Fatal("COUNTS.tsv lists no file")
	}
}
