package parse

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// grepOutput is what `grep -B before -A after` prints for the lines at
// matches (sorted indexes into lines): each match with its context,
// groups that touch or overlap merged, "--" between groups.
func grepOutput(lines []string, matches []int, before, after int) string {
	type span struct{ from, to int }
	var spans []span
	for _, m := range matches {
		s := span{max(0, m-before), min(len(lines)-1, m+after)}
		if n := len(spans); n > 0 && s.from <= spans[n-1].to+1 {
			spans[n-1].to = max(spans[n-1].to, s.to)
			continue
		}
		spans = append(spans, s)
	}
	var b strings.Builder
	for i, s := range spans {
		if i > 0 {
			b.WriteString("--\n")
		}
		for _, l := range lines[s.from : s.to+1] {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// TestGrepFragmentsProperty: grep's output of real Go debug=2 dumps
// (Go 1.26 and 1.13, committed fixtures), with random matches and
// context, reads as what it holds: every header as its goroutine, every
// frame whose function and file lines grep kept as a frame of one of the
// goroutines read, in order, and nothing else; what is not read is
// counted in Skipped. Seeded; the seed and the input are printed on
// failure.
func TestGrepFragmentsProperty(t *testing.T) {
	files := []string{
		"../testdata/verdicts/go-waits-cycles/1.txt",
		"../testdata/verdicts/go-waits-cycles-go113/1.txt",
		"../testdata/verdicts/go-moments-stuck/1.txt",
		"../testdata/verdicts/go-moments-healthy-go113/2.txt",
	}
	for _, file := range files {
		data, err := os.ReadFile(filepath.FromSlash(file))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
		for seed := range uint64(150) {
			rng := rand.New(rand.NewPCG(seed, 36))
			var matches []int
			for i := range lines {
				if rng.IntN(40) == 0 {
					matches = append(matches, i)
				}
			}
			if len(matches) == 0 {
				continue
			}
			text := grepOutput(lines, matches, rng.IntN(6), rng.IntN(10))
			out := strings.Split(strings.TrimRight(text, "\n"), "\n")
			// What grep kept: headers, and frames whose two lines it kept;
			// a function line that ends a group (grep cut its file line) may
			// be read too, as a frame without its file (allowed).
			var headers []int64
			var frames, allowed []string
			for i, l := range out {
				if isGoHeader([]byte(l)) {
					id, _ := goHeaderID([]byte(l))
					headers = append(headers, id)
					continue
				}
				k, paren := classifyGoLineParen([]byte(l))
				if k == glFunc {
					if i+1 < len(out) && isGoFileLine([]byte(out[i+1])) {
						frames = append(frames, l[:paren])
						allowed = append(allowed, l[:paren])
					} else if i+1 == len(out) || out[i+1] == "--" {
						allowed = append(allowed, l[:paren])
					}
				}
			}
			ds, err := Parse("grep.txt", strings.NewReader(text))
			if err != nil {
				if len(headers) > 0 || len(frames) > 1 {
					t.Errorf("%s seed %d: %v\n%s", file, seed, err, text)
				}
				continue
			}
			var gotIDs []int64
			var gotFrames []string
			skipped := 0
			for _, d := range ds {
				skipped += len(d.Skipped)
				for _, th := range d.Threads {
					if th.ID != 0 {
						gotIDs = append(gotIDs, th.ID)
					}
					for _, f := range th.Frames {
						gotFrames = append(gotFrames, f.Func)
					}
				}
			}
			if fmt.Sprint(gotIDs) != fmt.Sprint(headers) {
				t.Errorf("%s seed %d: goroutines %v, want %v\n%s", file, seed, gotIDs, headers, text)
				continue
			}
			// Frames grep kept whole are read, in order; a frame cut
			// before the first goroutine a group can begin is skipped.
			if j := subsequence(allowed, gotFrames); j < len(gotFrames) {
				t.Errorf("%s seed %d: frame %q read but not kept by grep\n%s", file, seed, gotFrames[j], text)
				continue
			}
			if missing := len(frames) - len(gotFrames); missing > 0 && skipped == 0 && !lostBeforeDump(out) {
				t.Errorf("%s seed %d: %d frames not read and nothing skipped\n%s", file, seed, missing, text)
			}
		}
	}
}

// subsequence returns len(got) when got is a subsequence of want, else
// the index in got of the first element that is not.
func subsequence(want, got []string) int {
	i := 0
	for j, g := range got {
		for i < len(want) && want[i] != g {
			i++
		}
		if i == len(want) {
			return j
		}
		i++
	}
	return len(got)
}

// lostBeforeDump: grep's output begins with lines no dump claims (a file
// line, a single frame before a separator): lines before a dump are
// another text's, not counted.
func lostBeforeDump(out []string) bool {
	return len(out) > 0 && !isGoHeader([]byte(out[0])) && !bytes.HasSuffix([]byte(out[0]), []byte(")"))
}
