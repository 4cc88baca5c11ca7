package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// elapsedSources are real jstack moments of one process each, every one
// printing its time and its threads' elapsed=.
var elapsedSources = [][]string{
	{"../../testdata/verdicts/onedump-read-pool-healthy", "1.txt", "2.txt", "3.txt"},
	{"../../testdata/verdicts/queue-busy-rising", "1.txt", "2.txt", "3.txt"},
	{"../../testdata/scenarios/hikari-pool-exhausted", "before.txt", "during-1.txt", "during-2.txt", "after.txt"},
}

// elapsedField is jstack's elapsed= ("elapsed=4.55s").
var elapsedField = regexp.MustCompile(`elapsed=([0-9.]+)s`)

// threadBlocks are a jstack text's thread entries (a header line in
// quotes and what follows it up to the blank line), and the text's first
// line (its time).
func threadBlocks(text string) (first string, blocks []string) {
	first, _, _ = strings.Cut(text, "\n")
	for b := range strings.SplitSeq(text, "\n\n") {
		b = strings.TrimLeft(b, "\n")
		if strings.HasPrefix(b, `"`) && strings.Contains(b, "elapsed=") {
			blocks = append(blocks, b)
		}
	}
	return first, blocks
}

// TestDateByElapsedProperty: an untimed JVM moment among timed moments of
// its process, generated from real dumps in three ways:
//   - an excerpt (a random subset of one timed dump's threads, no time):
//     read as part of that dump, so the moments are the timed ones;
//   - a whole timed dump with its time line cut: dated within
//     elapsedSpread of the time it printed, and ordered there;
//   - the same with each thread's elapsed= moved by a random 2 s to an
//     hour (another process whose threads share the names): not dated,
//     not dropped, kept where given.
//
// Seeded; the seed and the case are printed on failure.
func TestDateByElapsedProperty(t *testing.T) {
	for _, src := range elapsedSources {
		dir, files := src[0], src[1:]
		texts := make([]string, len(files))
		times := make([]time.Time, len(files))
		for i, f := range files {
			b, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				t.Fatal(err)
			}
			texts[i] = string(b)
			first, _ := threadBlocks(texts[i])
			tm, err := time.Parse("2006-01-02 15:04:05", strings.TrimSpace(first))
			if err != nil {
				t.Fatalf("%s/%s: first line %q is no time", dir, f, first)
			}
			times[i] = tm
		}
		for trial := range 30 {
			seed := uint64(trial*7919 + len(dir))
			rng := rand.New(rand.NewPCG(seed, 3))
			k := rng.IntN(len(files))
			first, blocks := threadBlocks(texts[k])
			tmp := t.TempDir()
			var args []string
			for i, f := range files {
				if i != k {
					args = append(args, filepath.Join(dir, f))
				}
			}
			kind := trial % 3
			var body string
			switch kind {
			case 0: // an excerpt of dump k
				rng.Shuffle(len(blocks), func(a, b int) { blocks[a], blocks[b] = blocks[b], blocks[a] })
				body = strings.Join(blocks[:1+rng.IntN(len(blocks))], "\n\n") + "\n"
				args = append(args, filepath.Join(dir, files[k]))
			case 1: // dump k without its time
				body = strings.TrimPrefix(texts[k], first+"\n")
			case 2: // another process: every elapsed= moved
				body = elapsedField.ReplaceAllStringFunc(strings.TrimPrefix(texts[k], first+"\n"), func(m string) string {
					v, _ := strconv.ParseFloat(elapsedField.FindStringSubmatch(m)[1], 64)
					return fmt.Sprintf("elapsed=%.2fs", v+2+rng.Float64()*3600)
				})
			}
			path := filepath.Join(tmp, "pasted.txt")
			if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
				t.Fatal(err)
			}
			at := rng.IntN(len(args) + 1)
			args = append(args[:at], append([]string{path}, args[at:]...)...)
			var warn loadNotes
			in, err := loadInputs(args, loadOptions{}, nil, &warn)
			if err != nil {
				t.Fatalf("%s seed %d: %v", dir, seed, err)
			}
			name := fmt.Sprintf("%s seed %d kind %d (moment %s, args %v)", dir, seed, kind, files[k], args)
			var pasted = -1
			for i, x := range in {
				if x.Dump.Source.File == path {
					pasted = i
				}
			}
			switch kind {
			case 0:
				if pasted >= 0 || len(in) != len(files) {
					t.Errorf("%s: the excerpt is read as a moment of its own (%d moments)\nnotes: %v", name, len(in), warn.list)
				}
			case 1:
				if pasted < 0 || len(in) != len(files) {
					t.Errorf("%s: the undated dump is dropped\nnotes: %v", name, warn.list)
					continue
				}
				got := momentTime(in[pasted])
				if d := got.Sub(times[k]); d > elapsedSpread || d < -elapsedSpread {
					t.Errorf("%s: dated %v, printed %v", name, got, times[k])
				}
				if pasted != k {
					t.Errorf("%s: at place %d, taken %d", name, pasted, k)
				}
			case 2:
				if pasted < 0 || !momentTime(in[pasted]).IsZero() {
					t.Errorf("%s: another process's dump is dated or dropped\nnotes: %v", name, warn.list)
				}
			}
		}
	}
}
