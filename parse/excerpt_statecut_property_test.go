package parse

import (
	"math/rand"
	"strings"
	"testing"
)

// The cut-header property (issue 33's class-initialization cycle pasted
// as deephaven-core#4383 pastes a thread: from its state line, the header
// left out): a person who copies several threads that way drops every
// header, so the paste is state lines over frames, one after another. Each
// state line that follows a thread's frames starts a thread of its own;
// none is read as more frames of the thread above. The oracle is the
// whole dump: the paste of threads k..k+n, each cut at its state line
// (at random: indented or not, fenced or not, blank lines between or
// not), reads as n threads "(unnamed 1)".."(unnamed n)" with the whole
// dump's states, frames and lock lines, in order.
//
// Threads with no state line or no frame (the VM's own, "VM Thread") are
// not in a run: with their header cut, nothing of them is left to read,
// and a state line after a thread with none is not told from its own.
func TestStateLineCutProperty(t *testing.T) {
	// Temurin 25's real jstack dumps of the verdict programs besides: a
	// clone without the corpus still has sources enough.
	srcs := headlessSources(t, "../testdata/verdicts/jdk25-*/1.txt")
	if len(srcs) < 3 {
		t.Fatalf("%d whole JVM text dumps: testdata has more", len(srcs))
	}
	r := rand.New(rand.NewSource(33))
	tried := 0
	for _, src := range srcs {
		// runs of consecutive threads, each a header, a state line and
		// at least one frame.
		ok := func(k int) bool {
			th := src.d.Threads[k]
			if th.Line < 1 || th.Line >= src.end || len(th.Frames) == 0 || !isHotSpotHeader([]byte(src.lines[th.Line-1])) {
				return false
			}
			return strings.HasPrefix(strings.TrimLeft(src.lines[th.Line], " "), "java.lang.Thread.State:")
		}
		// Draws until two pastes of this source are tried: a random thread
		// is often the VM's own (no state line), and a clone without the
		// corpus has fewer sources to draw from.
		for draw, made := 0, 0; draw < 60 && made < 2; draw++ {
			k := r.Intn(len(src.d.Threads))
			n := 0
			for k+n < len(src.d.Threads) && n < 6 && ok(k+n) {
				n++
			}
			if n < 2 {
				continue
			}
			indent := []string{"", "    ", "  "}[r.Intn(3)]
			fenced := r.Intn(2) == 0
			var out []string
			if fenced {
				out = append(out, "The threads hang, jstack shows:", "", "```")
			}
			for j := 0; j < n; j++ {
				th := src.d.Threads[k+j]
				end := src.end
				if k+j+1 < len(src.d.Threads) && src.d.Threads[k+j+1].Line-1 < end {
					end = src.d.Threads[k+j+1].Line - 1
				}
				for _, l := range src.lines[th.Line:end] {
					if strings.TrimSpace(l) == "" {
						continue
					}
					if strings.HasPrefix(l, "JNI global ref") || strings.HasPrefix(l, "Found one ") {
						break
					}
					out = append(out, indent+strings.Replace(l, "\t", "    ", 1))
				}
				if r.Intn(2) == 0 {
					out = append(out, "")
				}
			}
			if fenced {
				out = append(out, "```")
			}
			text := strings.Join(out, "\n") + "\n"
			dumps, err := Parse("paste.txt", strings.NewReader(text))
			if err != nil || len(dumps) != 1 {
				t.Fatalf("%s threads %d..%d: %d dumps, %v\n%s", src.name, k, k+n, len(dumps), err, text)
			}
			got := dumps[0].Threads
			if len(got) != n {
				t.Fatalf("%s threads %d..%d: %d threads read, want %d\n%s", src.name, k, k+n, len(got), n, text)
			}
			for j := 0; j < n; j++ {
				// threadPrint reads "(unnamed 1)" as a thread whose header's
				// words went with the header: the cut took them from all.
				want := threadPrint(src.d.Threads[k+j], "(unnamed 1)", false)
				if g := threadPrint(got[j], "(unnamed 1)", false); g != want || got[j].Name() != unnamedName(j+1) {
					t.Fatalf("%s thread %d of %d..%d: %q\n got %s\nwant %s\n%s", src.name, j, k, k+n, got[j].Name(), g, want, text)
				}
			}
			if dumps[0].Excerpt == "" {
				t.Errorf("%s: a paste of cut threads is not said to be an excerpt", src.name)
			}
			tried++
			made++
		}
	}
	if tried < 20 {
		t.Fatalf("only %d pastes tried", tried)
	}
	t.Logf("%d pastes of 2-6 threads, each cut at its state line", tried)
}
