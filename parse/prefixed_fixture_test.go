package parse

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// prefixedDir holds dumps behind other tools' prefixes than the six
// shapes of prefix_shapes.go (issue 32): real tools run here over real
// programs' dumps, and the shapes of public logs that could not be
// copied (testdata/prefixed/README.md says which is which and where each
// came from).
const prefixedDir = "../testdata/prefixed"

// prefixedCount is one line of testdata/prefixed/COUNTS.tsv: the dumps
// and threads of a file, counted with grep, not by this parser.
type prefixedCount struct{ dumps, threads int }

func prefixedCounts(t *testing.T) map[string]prefixedCount {
	t.Helper()
	f, err := os.Open(filepath.Join(prefixedDir, "COUNTS.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]prefixedCount{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 3 {
			t.Fatalf("COUNTS.tsv: bad line %q", sc.Text())
		}
		d, err1 := strconv.Atoi(f[1])
		n, err2 := strconv.Atoi(f[2])
		if err1 != nil || err2 != nil {
			t.Fatalf("COUNTS.tsv: bad line %q", sc.Text())
		}
		out[f[0]] = prefixedCount{d, n}
	}
	return out
}

// TestPrefixedFixtures reads every file of testdata/prefixed: the dumps
// and threads grep counted, each dump read under a prefix (Dump.Prefix
// names the learned shape), and no file without its count.
func TestPrefixedFixtures(t *testing.T) {
	counts := prefixedCounts(t)
	files, err := filepath.Glob(filepath.Join(prefixedDir, "*.log"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(counts) || len(files) < 20 {
		t.Errorf("%d .log files, %d in COUNTS.tsv: every file needs its count", len(files), len(counts))
	}
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			want, ok := counts[name]
			if !ok {
				t.Fatalf("%s is not in COUNTS.tsv", name)
			}
			dumps, err := ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			threads := 0
			for _, d := range dumps {
				threads += d.ThreadCount()
				if d.Prefix == "" {
					t.Errorf("dump at line %d read without a prefix", d.Source.Line)
				}
				rt := FormatGoText
				if strings.HasSuffix(name, ".jvm.log") {
					rt = FormatJVMText
				}
				if d.Format != rt {
					t.Errorf("dump at line %d: format %s, want %s", d.Source.Line, d.Format, rt)
				}
			}
			if len(dumps) != want.dumps || threads != want.threads {
				t.Errorf("got %d dumps, %d threads; want %d, %d (COUNTS.tsv)", len(dumps), threads, want.dumps, want.threads)
			}
		})
	}
}

// TestCutLinesJoined: the lines concurrently cut in two (testdata/prefixed
// README: two in each file, by their line numbers) are read joined, each
// join said with the rest's position.
func TestCutLinesJoined(t *testing.T) {
	for name, want := range map[string][]int{
		"cut-concurrently.go.log":  {215, 407},
		"cut-concurrently.jvm.log": {285, 315},
	} {
		dumps, err := ParseFile(filepath.Join(prefixedDir, name))
		if err != nil {
			t.Fatal(err)
		}
		if len(dumps) != 1 {
			t.Errorf("%s: %d dumps, want 1", name, len(dumps))
			continue
		}
		var got []int
		for _, j := range dumps[0].Joined {
			got = append(got, j.Line)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: joined lines %v, want %v", name, got, want)
		}
	}
}
