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

// The deadlock-excerpt property (issue 32): a JVM's deadlock report cut
// out of a whole dump, as people paste it (alone, indented, quoted, with
// its indentation lost, in a fence, without its last line, its summary
// or its stack copy alone), reads as an excerpt whose threads are the
// report's, with the frames, states and lock lines the whole dump gives
// those threads, and the holder the whole dump gives each lock waited
// for. The whole dump is the oracle: no expectation is written by hand.

// deadlockSource is a whole JVM text dump with a deadlock report.
type deadlockSource struct {
	name string
	full *Dump
	// report are the report's lines, from its "Found one" line to its
	// "Found N deadlock(s)." line.
	report []string
}

// deadlockSources reads the committed whole JVM text dumps that carry a
// deadlock report (testdata, and the shared corpus when present).
func deadlockSources(t *testing.T) []deadlockSource {
	t.Helper()
	var paths []string
	for _, g := range []string{"../testdata/jvm/*", "../testdata/formats/*", "../testdata/verdicts/*/*", "../testdata/scenarios/*/*", corpusDir + "/jvm/*"} {
		m, _ := filepath.Glob(g)
		paths = append(paths, m...)
	}
	if _, err := os.Stat(corpusDir); err != nil {
		t.Logf("shared corpus not present (%v): testdata only", err)
	}
	sort.Strings(paths)
	var out []deadlockSource
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil || !bytes.Contains(b, []byte("Found one Java-level deadlock:")) {
			continue
		}
		text := strings.ReplaceAll(string(b), "\r\n", "\n")
		dumps, err := Parse(p, strings.NewReader(text))
		if err != nil {
			continue
		}
		lines := strings.Split(text, "\n")
		for _, d := range dumps {
			if d.Format != FormatJVMText || d.Excerpt != "" || d.Prefix != "" || len(d.Deadlocks) == 0 ||
				isSAStart([]byte(strings.TrimSpace(lines[max(0, d.Source.Line-1)]))) {
				// The Serviceability Agent's report has no stack copies,
				// and its threads' lock lines are mended from the report
				// (jstack_sa.go): a part of it is not read as the whole.
				continue
			}
			first := d.Deadlocks[0].Line - 1
			end := -1
			for i := first; i < len(lines); i++ {
				l := strings.TrimSpace(lines[i])
				if strings.HasPrefix(l, "Found ") && (strings.HasSuffix(l, " deadlock.") || strings.HasSuffix(l, " deadlocks.")) {
					end = i
					break
				}
			}
			if end < 0 || timedReport(d) {
				continue
			}
			out = append(out, deadlockSource{name: fmt.Sprintf("%s:%d", strings.TrimPrefix(p, "../"), first+1), full: d, report: lines[first : end+1]})
		}
	}
	return out
}

// timedReport: a thread of d's report is TIMED_WAITING in d's thread
// section (a cycle of tryLock(timeout)s, which HotSpot reports too:
// testdata/verdicts/backoff-ring-stuck). Such threads move between the
// thread section and the report, taken at other instants, and the
// report's summary cannot tell a timed wait: the whole dump is no oracle
// for a part of it.
func timedReport(d *Dump) bool {
	for _, dl := range d.Deadlocks {
		for _, e := range dl.Cycle {
			for _, th := range d.Threads {
				if th.Name() == e.Thread && th.State == "TIMED_WAITING" {
					return true
				}
			}
		}
	}
	return false
}

// deadlockCut is one way a person pastes a deadlock report.
type deadlockCut struct {
	name string
	// part: "all", "summary" (before the stack copy), "stacks" (from it).
	part string
	// wrap rewrites the lines cut (indentation, quote, fence, prose).
	wrap func(r *rand.Rand, lines []string) []string
}

var deadlockCuts = []deadlockCut{
	{"alone", "all", func(_ *rand.Rand, l []string) []string { return l }},
	{"no last line", "all", func(_ *rand.Rand, l []string) []string { return l[:len(l)-1] }},
	{"indented", "all", func(r *rand.Rand, l []string) []string {
		ind := strings.Repeat(" ", 1+r.Intn(8))
		if r.Intn(4) == 0 {
			ind = "\t"
		}
		return eachLine(l, func(s string) string { return ind + s })
	}},
	{"quoted", "all", func(_ *rand.Rand, l []string) []string {
		return eachLine(l, func(s string) string { return "> " + s })
	}},
	{"indentation lost", "all", func(r *rand.Rand, l []string) []string {
		ind := strings.Repeat(" ", r.Intn(3))
		return eachLine(l, func(s string) string { return ind + strings.TrimLeft(s, " \t") })
	}},
	{"in prose and a fence", "all", func(_ *rand.Rand, l []string) []string {
		out := []string{"The service hung; jstack says:", "", "```"}
		out = append(out, l...)
		return append(out, "```", "", "Any idea?")
	}},
	// Pasted into an issue as Markdown: the report's two title lines made
	// headings (or bold), each part in a fence of its own.
	{"titles as Markdown", "all", func(r *rand.Rand, l []string) []string {
		var out []string
		mark := []string{"# ", "## ", "### "}[r.Intn(3)]
		bold := r.Intn(3) == 0
		open := false
		for _, s := range l {
			t := strings.TrimSpace(s)
			if isDeadlockStart([]byte(t)) || isDeadlockStacks([]byte(t)) {
				if open {
					out = append(out, "```")
				}
				if bold {
					out = append(out, "**"+t+"**", "", "```")
				} else {
					out = append(out, mark+t, "", "```")
				}
				open = true
				continue
			}
			out = append(out, s)
		}
		if open {
			out = append(out, "```")
		}
		return out
	}},
	{"summary", "summary", func(_ *rand.Rand, l []string) []string { return l }},
	{"stacks", "stacks", func(_ *rand.Rand, l []string) []string { return l }},
	// Pasted from the line below the title (issue 33, "unread JVM
	// forms"): the first report without "Found one Java-level deadlock:"
	// and its rule; the summary alone so; its entries joined on one line
	// each; the stack copy without its "Java stack information" line.
	{"no title", "all", func(_ *rand.Rand, l []string) []string { return untitled(l) }},
	{"summary, no title", "summary", func(_ *rand.Rand, l []string) []string { return untitled(l) }},
	{"entries on one line", "all", func(_ *rand.Rand, l []string) []string { return joinEntries(untitled(l)) }},
	{"summary on one line", "summary", func(_ *rand.Rand, l []string) []string { return joinEntries(untitled(l)) }},
	{"stacks, no title", "stacks", func(_ *rand.Rand, l []string) []string { return untitled(l) }},
}

// untitled drops a cut's first title line ("Found one Java-level
// deadlock:" or "Java stack information ...") and the rule under it.
func untitled(l []string) []string {
	if len(l) == 0 {
		return l
	}
	if t := []byte(strings.TrimSpace(l[0])); !isDeadlockStart(t) && !isDeadlockStacks(t) {
		return l
	}
	l = l[1:]
	if len(l) > 0 && strings.HasPrefix(strings.TrimSpace(l[0]), "=") {
		l = l[1:]
	}
	return l
}

// joinEntries joins each summary entry (`"T1":`, its waiting line(s) and
// its "which is held by" line) on one line, as a paste into a chat does.
func joinEntries(l []string) []string {
	var out []string
	for i := 0; i < len(l); i++ {
		t := strings.TrimSpace(l[i])
		if isReportName([]byte(t)) && i+1 < len(l) && strings.HasPrefix(strings.TrimSpace(l[i+1]), "waiting ") {
			line := t
			j := i + 1
			for ; j < len(l); j++ {
				u := strings.TrimSpace(l[j])
				if u == "" || strings.HasPrefix(u, "\"") {
					break
				}
				line += " " + u
				if strings.HasPrefix(u, "which is held by ") {
					j++
					break
				}
			}
			out = append(out, line)
			i = j - 1
			continue
		}
		out = append(out, l[i])
	}
	return out
}

func eachLine(l []string, f func(string) string) []string {
	out := make([]string, len(l))
	for i, s := range l {
		if s == "" {
			out[i] = s
			continue
		}
		out[i] = f(s)
	}
	return out
}

// cutReport returns the lines of part of a report.
func cutReport(report []string, part string) []string {
	k := -1
	for i, l := range report {
		if isDeadlockStacks([]byte(strings.TrimSpace(l))) {
			k = i
			break
		}
	}
	switch {
	case part == "summary" && k > 0:
		// Every report's summary, without the stack copies.
		var out []string
		in := true
		for _, l := range report {
			t := strings.TrimSpace(l)
			switch {
			case isDeadlockStacks([]byte(t)):
				in = false
			case isDeadlockStart([]byte(t)):
				in = true
			}
			if in {
				out = append(out, l)
			}
		}
		return out
	case part == "stacks" && k > 0:
		for _, l := range report[k:] {
			if isDeadlockStart([]byte(strings.TrimSpace(l))) {
				return nil // several reports: a paste from the first stack copy holds the next report whole
			}
		}
		return report[k:]
	case part == "all":
		return report
	}
	return nil
}

// TestDeadlockExcerptProperty cuts every committed deadlock report in each
// of deadlockCuts' ways, with random indentation, and checks the excerpt
// read against the whole dump.
func TestDeadlockExcerptProperty(t *testing.T) {
	srcs := deadlockSources(t)
	if len(srcs) < 2 {
		t.Fatalf("%d dumps with a deadlock report: the testdata has two at least", len(srcs))
	}
	r := rand.New(rand.NewSource(32))
	kept := map[string]int{}
	tried := map[string]int{}
	for _, src := range srcs {
		for _, c := range deadlockCuts {
			lines := cutReport(src.report, c.part)
			if lines == nil {
				continue
			}
			tried[c.name]++
			text := strings.Join(c.wrap(r, lines), "\n") + "\n"
			if msg := checkDeadlockExcerpt(src, c.part, text); msg != "" {
				t.Errorf("%s, %s: %s\n%s", src.name, c.name, msg, text)
				continue
			}
			kept[c.name]++
		}
	}
	for _, c := range deadlockCuts {
		t.Logf("%-22s %d of %d reports read as the whole dump reads them", c.name, kept[c.name], tried[c.name])
	}
}

// checkDeadlockExcerpt parses text, cut from src's report (part), and
// returns what differs from the whole dump; "" when nothing does.
func checkDeadlockExcerpt(src deadlockSource, part, text string) string {
	d, msg := oneExcerpt("excerpt.txt", text)
	if msg != "" {
		return msg
	}
	if len(d.Deadlocks) != len(src.full.Deadlocks) {
		return fmt.Sprintf("%d deadlock reports, want %d", len(d.Deadlocks), len(src.full.Deadlocks))
	}
	var want []string
	for _, dl := range src.full.Deadlocks {
		for _, e := range dl.Cycle {
			want = append(want, e.Thread) // each entry a thread: two of one name may deadlock
		}
	}
	var got []string
	for _, th := range d.Threads {
		got = append(got, th.Name())
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		return fmt.Sprintf("threads %q, want the report's %q", got, want)
	}
	holder := map[string]string{} // address → name of the thread the whole dump shows holding it
	for _, th := range src.full.Threads {
		for _, l := range th.Locks() {
			if (l.Kind == LockHeld || l.Kind == LockOwnable) && l.Address != "" && !releasedByWaitP(th, l.Address) {
				holder[l.Address] = th.Name()
			}
		}
	}
	for _, th := range d.Threads {
		f := fullThread(src.full, th)
		if f == nil {
			return fmt.Sprintf("%q: not in the whole dump", th.Name())
		}
		// JDK 5 and older print no state line: the whole dump says none.
		if f.State != "" && th.State != f.State {
			return fmt.Sprintf("%q: state %q, the whole dump's %q", th.Name(), th.State, f.State)
		}
		if part != "summary" {
			if g, w := framesString(th.Frames), framesString(f.Frames); g != w {
				return fmt.Sprintf("%q: frames\n%s\nwant\n%s", th.Name(), g, w)
			}
			if g, w := locksString(th.Locks()), locksString(f.Locks()); g != w {
				return fmt.Sprintf("%q: locks %s, the whole dump's %s", th.Name(), g, w)
			}
		}
		var wait *Lock
		for i, l := range th.Locks() {
			if l.Kind == LockWaitingTo || l.Kind == LockParking {
				wait = &th.JVM.Locks[i]
				break
			}
		}
		if wait == nil {
			return fmt.Sprintf("%q: no lock waited for", th.Name())
		}
		if part != "stacks" {
			if h := holder[wait.Address]; h != "" && wait.Owner != h {
				return fmt.Sprintf("%q waits for %s: owner %q, the whole dump's holder %q", th.Name(), wait.Address, wait.Owner, h)
			}
			if wait.Owner == "" {
				return fmt.Sprintf("%q waits for %s: no owner", th.Name(), wait.Address)
			}
		}
	}
	return ""
}

// fullThread is the thread of the whole dump that x, a thread of an
// excerpt, is: of the threads of its name, the one waiting for the lock x
// waits for.
func fullThread(d *Dump, x *Thread) *Thread {
	want := ""
	for _, l := range x.Locks() {
		if l.Kind == LockWaitingTo || l.Kind == LockParking {
			want = l.Address
			break
		}
	}
	var pick *Thread
	for _, th := range d.Threads {
		if th.Name() == x.Name() && locksString(th.Locks()) == locksString(x.Locks()) {
			return th // several threads of one name may wait for one lock: the one holding the same ones
		}
	}
	for _, th := range d.Threads {
		if th.Name() != x.Name() {
			continue
		}
		if pick == nil {
			pick = th
		}
		for _, l := range th.Locks() {
			if (l.Kind == LockWaitingTo || l.Kind == LockParking) && l.Address == want {
				return th
			}
		}
	}
	return pick
}

func releasedByWaitP(t *Thread, addr string) bool {
	for _, l := range t.Locks() {
		if (l.Kind == LockWaitingOn || l.Kind == LockWaitingTo || l.Kind == LockReLocking) && l.Address == addr {
			return true
		}
	}
	return false
}

func framesString(fs []*Frame) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "%s %s:%d %s %s\n", f.Func, f.File, f.Line, f.Module, f.Note)
	}
	return b.String()
}

// locksString lists the lock lines of a stack (not the ownable
// synchronizers, which a report's stack copy does not print).
func locksString(ls []Lock) string {
	var out []string
	for _, l := range ls {
		if l.Kind == LockOwnable {
			continue
		}
		out = append(out, fmt.Sprintf("%s<%s>(%s)@%d", l.Kind, l.Address, l.Class, l.Frame))
	}
	return strings.Join(out, " ")
}

// oneExcerpt parses text as one dump said to be an excerpt; msg says what
// differs from that ("" when it is one).
func oneExcerpt(name, text string) (d *Dump, msg string) {
	dumps, err := Parse(name, strings.NewReader(text))
	if err != nil {
		return nil, fmt.Sprintf("not read: %v", err)
	}
	if len(dumps) != 1 {
		return nil, fmt.Sprintf("%d dumps, want 1", len(dumps))
	}
	if dumps[0].Excerpt == "" {
		return nil, "not said to be an excerpt"
	}
	return dumps[0], ""
}
