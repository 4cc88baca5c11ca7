package parse

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The headless-paste property (issue 32): a whole JVM text dump (HotSpot's
// jstack, NetBeans' and VisualVM's `"name" - Thread t@N`), pasted from the
// middle of a thread list, reads as an excerpt whose threads are the whole
// dump's from there on: pasted from a thread's header; from its state
// line (the header lost: the thread is "(unnamed 1)"); from its first
// frame (header and state lost); from its header without the opening
// quote. The whole dump is the oracle; the thread cut at is drawn at
// random (seeded).

// headlessCut is one place a paste starts at in a thread's entry.
type headlessCut struct {
	name string
	// cut returns the paste's first lines in place of the thread's header
	// and the lines after it (entry), and how the first thread must
	// read: its name ("" for the whole dump's) and whether its state is
	// lost; ok false when the cut does not fit the entry.
	cut func(entry []string) (first []string, name string, noState bool, ok bool)
}

var headlessCuts = []headlessCut{
	{"at a header", func(e []string) ([]string, string, bool, bool) { return e, "", false, true }},
	{"at a state line", func(e []string) ([]string, string, bool, bool) {
		if len(e) < 2 || !strings.HasPrefix(strings.TrimLeft(e[1], " "), "java.lang.Thread.State:") {
			return nil, "", false, false
		}
		return e[1:], "(unnamed 1)", false, true
	}},
	{"at a state line, unindented", func(e []string) ([]string, string, bool, bool) {
		if len(e) < 2 || !strings.HasPrefix(strings.TrimLeft(e[1], " "), "java.lang.Thread.State:") {
			return nil, "", false, false
		}
		return append([]string{strings.TrimLeft(e[1], " ")}, e[2:]...), "(unnamed 1)", false, true
	}},
	{"at its frames", func(e []string) ([]string, string, bool, bool) {
		if len(e) < 3 || !strings.HasPrefix(strings.TrimLeft(e[1], " "), "java.lang.Thread.State:") || !strings.HasPrefix(e[2], "\tat ") {
			return nil, "", false, false
		}
		return e[2:], "(unnamed 1)", true, true
	}},
	{"names over frames", func(e []string) ([]string, string, bool, bool) {
		// A reporter's abbreviation: every header cut to its quoted
		// name, the state lines left out.
		var out []string
		for _, l := range e {
			if strings.HasPrefix(l, "JNI global ref") || strings.HasPrefix(l, "Found one ") {
				break // the threads only: no trailer, no deadlock report
			}
			switch {
			case isHotSpotHeader([]byte(l)) && strings.Contains(l, " nid=") || isThreadAtHeader([]byte(l)):
				// (A header with no nid, a JDK 25 carrier's, is left whole:
				// the abbreviation is of the threads a reporter names.)
				out = append(out, l[:strings.LastIndex(l, `" `)+1])
			case strings.HasPrefix(strings.TrimLeft(l, " "), "java.lang.Thread.State:"):
			default:
				out = append(out, l)
			}
		}
		return out, namesOverFrames, true, true
	}},
	{"quote lost", func(e []string) ([]string, string, bool, bool) {
		if !isHotSpotHeader([]byte(e[0])) {
			return nil, "", false, false
		}
		return append([]string{e[0][1:]}, e[1:]...), "", false, true
	}},
}

// namesOverFrames marks the cut whose every thread loses its state.
const namesOverFrames = "\x00names"

// pasteThreads bounds the threads of one paste.
const pasteThreads = 40

// headlessSource is a whole dump and its text's lines.
type headlessSource struct {
	name  string
	d     *Dump
	lines []string
	end   int // index of the line after the dump's last (the next dump's first, or len(lines))
}

func headlessSources(t *testing.T, more ...string) []headlessSource {
	t.Helper()
	var paths []string
	for _, g := range append([]string{"../testdata/jvm/*", "../testdata/jvm/actuator/*", "../testdata/formats/*", corpusDir + "/jvm/*"}, more...) {
		m, _ := filepath.Glob(g)
		paths = append(paths, m...)
	}
	sort.Strings(paths)
	var out []headlessSource
	for _, p := range paths {
		if strings.HasSuffix(p, ".md") || strings.HasSuffix(p, ".tsv") {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil || bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
			continue
		}
		text := strings.ReplaceAll(string(b), "\r\n", "\n")
		dumps, err := Parse(p, strings.NewReader(text))
		if err != nil {
			continue
		}
		lines := strings.Split(text, "\n")
		for i, d := range dumps {
			if d.Format != FormatJVMText || d.Excerpt != "" || d.Prefix != "" || len(d.Threads) < 3 || strings.HasPrefix(filepath.Base(p), "intellij__") ||
				strings.HasPrefix(strings.TrimSpace(lines[max(0, d.Source.Line-1)]), string(jrockitStart)) ||
				isSAStart([]byte(strings.TrimSpace(lines[max(0, d.Source.Line-1)]))) {
				// IntelliJ's debugger prints no "Full thread dump" line:
				// a paste from its middle is not told from the whole.
				// JRockit's threads (jrockit.go) are read whole only: a
				// paste of their middle is no excerpt dumpdiff reads.
				// The Serviceability Agent's lock lines are mended from its
				// deadlock report (jstack_sa.go), which a paste of its
				// threads leaves out.
				continue
			}
			end := len(lines)
			if i+1 < len(dumps) {
				end = dumps[i+1].Source.Line - 1
			}
			out = append(out, headlessSource{name: fmt.Sprintf("%s:%d", strings.TrimPrefix(p, "../"), d.Source.Line), d: d, lines: lines, end: end})
		}
	}
	return out
}

// threadPrint is what a paste must keep of a thread: its name, state,
// frames and lock lines.
func threadPrint(th *Thread, name string, noState bool) string {
	if name == "" {
		name = th.Name()
	}
	st := th.State + " " + th.StateDetail
	if noState {
		st = ""
	}
	if name == "(unnamed 1)" && !noState {
		st = th.State // the header's words ("waiting on condition") went with it
	}
	var locks []string
	for _, l := range th.Locks() {
		locks = append(locks, fmt.Sprintf("%s<%s>(%s)@%d owner=%q", l.Kind, l.Address, l.Class, l.Frame, l.Owner))
	}
	return fmt.Sprintf("%q %s\n%s  %s", name, st, framesString(th.Frames), strings.Join(locks, " "))
}

// TestHeadlessPasteProperty: see the comment at the top of this file.
func TestHeadlessPasteProperty(t *testing.T) {
	srcs := headlessSources(t)
	if len(srcs) < 3 {
		t.Fatalf("%d whole JVM text dumps: testdata has more", len(srcs))
	}
	r := rand.New(rand.NewSource(32))
	kept, tried := map[string]int{}, map[string]int{}
	for _, src := range srcs {
		// Threads whose header starts a line after a blank one: where a
		// person's selection starts.
		var at []int
		for k, th := range src.d.Threads {
			if k > 0 && th.Line > 1 && strings.TrimSpace(src.lines[th.Line-2]) == "" && th.Line-1 < src.end &&
				(isHotSpotHeader([]byte(src.lines[th.Line-1])) || isThreadAtHeader([]byte(src.lines[th.Line-1]))) {
				at = append(at, k)
			}
		}
		if len(at) == 0 {
			continue
		}
		for draw := 0; draw < 3; draw++ {
			k := at[r.Intn(len(at))]
			th := src.d.Threads[k]
			for _, c := range headlessCuts {
				// At most pasteThreads threads, cut where the next begins:
				// a paste is a screenful or a few, and a 3,000-thread dump
				// read whole per cut costs seconds.
				end, upto := src.end, len(src.d.Threads)
				if n := k + pasteThreads; n < len(src.d.Threads) && src.d.Threads[n].Line-1 > th.Line && src.d.Threads[n].Line-1 < end {
					end, upto = src.d.Threads[n].Line-1, n
				}
				first, name, noState, ok := c.cut(src.lines[th.Line-1 : end])
				if !ok {
					continue
				}
				text := strings.Join(first, "\n") + "\n"
				want := src.d.Threads[k:upto]
				if name == namesOverFrames {
					// A name over no frame is no thread (a note, a heading):
					// the threads read are those with frames.
					want = nil
					for _, th := range src.d.Threads[k:upto] {
						if len(th.Frames) > 0 {
							want = append(want, th)
						}
					}
					if len(want) == 0 {
						continue // no thread with frames after it: nothing to paste
					}
				}
				tried[c.name]++
				if msg := checkHeadless(want, name, noState, text); msg != "" {
					t.Errorf("%s, thread %d (line %d), %s: %s", src.name, k, th.Line, c.name, msg)
					continue
				}
				kept[c.name]++
			}
		}
	}
	for _, c := range headlessCuts {
		t.Logf("%-28s %d of %d pastes read as the whole dump reads them", c.name, kept[c.name], tried[c.name])
	}
}

func checkHeadless(want []*Thread, name string, noState bool, text string) string {
	d, msg := oneExcerpt("paste.txt", text)
	if msg != "" {
		return msg
	}
	if len(d.Threads) != len(want) {
		return fmt.Sprintf("%d threads, want the whole dump's %d from there", len(d.Threads), len(want))
	}
	for i, th := range d.Threads {
		n, ns := "", false
		switch {
		case name == namesOverFrames:
			ns = true
		case i == 0:
			n, ns = name, noState
		}
		g := threadPrint(th, "", ns)
		if i == 0 && n == "(unnamed 1)" && !ns {
			g = threadPrint(th, n, ns)
		}
		if w := threadPrint(want[i], n, ns); g != w {
			return fmt.Sprintf("thread %d:\n%s\nwant\n%s", i, g, w)
		}
	}
	return ""
}
