package parse

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The pasted property (issue 20): a dump passed through the ways people
// and tools move text (a browser's or Slack's tabs as spaces, an indent or
// a quote, CRLF, a Markdown fence, a JSON field of a log line, HTML
// escapes, a test's leak report, log lines between threads) parses to the
// same dumps, threads, states and frames as the dump itself. No oracle
// says what a dump holds; this says what a paste must not change.
//
// The rewrites are code, below; the inputs are every committed Go and JVM
// text dump (testdata/go, testdata/jvm, and the shared corpus when
// present). A file larger than pasteCap is cut at the last thread that
// ends before pasteCap (the 20,000-goroutine and 3,000-thread dumps read
// whole cost seconds per rewrite; their shape is the same throughout).

// pasteCap bounds the bytes of one input of the property test.
const pasteCap = 192 << 10

// pasteRewrite is one way a dump reaches a reader second-hand.
type pasteRewrite struct {
	name string
	// rt limits the rewrite to one runtime's dumps; "" for both.
	rt Runtime
	// format limits the rewrite to one format's dumps; "" for every one.
	format Format
	// records is true for a rewrite that wraps the runtime's goroutine
	// records in a test framework's report: not for a tool's listing.
	records bool
	// prefix is true for a rewrite that puts a prefix before every line.
	// It is not applied to a dump that is read under a prefix already (a
	// go test -json stream): prefixes do not nest (prefix.go reads one).
	prefix bool
	// apply rewrites a whole file; ok false when the rewrite does not fit
	// the text (no thread boundary to put a note at).
	apply func(text string, rt Runtime) (string, bool)
	// keeps is the fingerprint of what a form that prints less than the
	// dump keeps (the Serviceability Agent's frames have no file); nil for
	// a rewrite that keeps all of dumpFingerprint.
	keeps func(dumps []*Dump) string
}

func mapLines(text string, f func(i int, line string) string) string {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for i, l := range lines {
		lines[i] = f(i, l)
	}
	return strings.Join(lines, "\n") + "\n"
}

func replaceTabs(with string) func(string, Runtime) (string, bool) {
	return func(text string, _ Runtime) (string, bool) {
		return strings.ReplaceAll(text, "\t", with), strings.Contains(text, "\t")
	}
}

// isThreadStart reports whether line starts a thread of rt's dumps as the
// runtime prints it, for the rewrites that put notes between threads.
func isThreadStart(line string, rt Runtime) bool {
	if rt == RuntimeGo {
		return strings.HasPrefix(line, "goroutine ") && strings.HasSuffix(line, ":")
	}
	return strings.HasPrefix(line, `"`)
}

// betweenThreads puts note(k) before every thread header that follows a
// blank line (the k-th such header), and reports whether it put any.
func betweenThreads(text string, rt Runtime, note func(k int, header string) string) (string, bool) {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	var b strings.Builder
	k := 0
	for i, l := range lines {
		if i > 0 && lines[i-1] == "" && isThreadStart(l, rt) {
			if n := note(k, l); n != "" {
				b.WriteString(n)
				b.WriteByte('\n')
			}
			k++
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String(), k > 0
}

// goleakReport writes the goroutines of a Go dump as goleak prints them
// (stack.Stack's String, in a slice's %v): a line before each record, the
// records run together, the whole in brackets. goleak reads one
// runtime.Stack: a file of several captures (a goroutine id seen twice)
// does not fit, nor does one whose prologue holds goroutines' frames.
func goleakReport(text string, _ Runtime) (string, bool) {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	seen := map[string]bool{}
	for _, l := range lines {
		if isThreadStart(l, RuntimeGo) {
			id := strings.Fields(l)[1]
			if seen[id] {
				return "", false
			}
			seen[id] = true
		}
	}
	var b strings.Builder
	b.WriteString("goleak: Errors on successful test run: found unexpected goroutines:\n")
	n := 0
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if !isThreadStart(l, RuntimeGo) {
			continue
		}
		// One record: the header up to the blank line.
		j := i + 1
		for j < len(lines) && lines[j] != "" {
			j++
		}
		id, state := "", ""
		if f := strings.Fields(l); len(f) > 2 {
			id = f[1]
			state = strings.SplitN(strings.SplitN(l, "[", 2)[1], "]", 2)[0]
		}
		top := "unknown"
		if i+1 < j {
			top = strings.SplitN(lines[i+1], "(", 2)[0]
		}
		open := " "
		if n == 0 {
			open = "["
		}
		fmt.Fprintf(&b, "%sGoroutine %s in state %s, with %s on top of the stack:\n", open, id, state, top)
		for _, r := range lines[i:j] {
			b.WriteString(r)
			b.WriteByte('\n')
		}
		n++
		i = j
	}
	b.WriteString("]\n")
	return b.String(), n > 0
}

// goleak13Report writes the goroutines of a Go dump as goleak 1.3+
// prints them (go.uber.org/goleak internal/stack: "Goroutine %v in state
// %v, with %v on top of the stack:\n%s", the state the header's text in
// brackets, the stack without its header), inside go test's t.Error
// indentation: the record is each goroutine's only header. A header with
// the traceback's fields before its reason (GOTRACEBACK=system's "gp=")
// goleak itself reads wrong: such dumps are left out.
func goleak13Report(text string, _ Runtime) (string, bool) {
	recs, ok := goRecordsOf(text)
	if !ok || len(recs) == 0 {
		return "", false
	}
	var b strings.Builder
	b.WriteString("--- FAIL: TestLeak (0.45s)\n    leak_test.go:62: found unexpected goroutines:\n")
	for k, rec := range recs {
		h := strings.TrimSuffix(rec[0], ":")
		parts := strings.SplitN(h, " ", 3)
		if len(parts) != 3 || !strings.HasPrefix(parts[2], "[") {
			return "", false
		}
		state := strings.TrimSuffix(strings.TrimPrefix(parts[2], "["), "]")
		top := "unknown"
		if len(rec) > 1 {
			top = strings.SplitN(rec[1], "(", 2)[0]
		}
		open := " "
		if k == 0 {
			open = "["
		}
		fmt.Fprintf(&b, "        %sGoroutine %s in state %s, with %s on top of the stack:\n", open, parts[1], state, top)
		for _, r := range rec[1:] {
			b.WriteString("        " + r + "\n")
		}
	}
	b.WriteString("        ]\nFAIL\n")
	return b.String(), true
}

// goRecordsOf splits a Go dump of one capture into its goroutine records
// (header to blank line); ok false for several captures (an id seen
// twice).
func goRecordsOf(text string) ([][]string, bool) {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	seen := map[string]bool{}
	var recs [][]string
	for i := 0; i < len(lines); i++ {
		if !isThreadStart(lines[i], RuntimeGo) {
			continue
		}
		id := strings.Fields(lines[i])[1]
		if seen[id] {
			return nil, false
		}
		seen[id] = true
		j := i + 1
		for j < len(lines) && lines[j] != "" {
			j++
		}
		recs = append(recs, lines[i:j])
		i = j
	}
	return recs, len(recs) > 0
}

// leakcheckReport writes a Go dump's goroutines as grpc's leak checker
// logs them (logger.Errorf("Leaked goroutine: %v", g)): to a plain
// logger, or through t.Errorf, which indents the message's later lines.
func leakcheckReport(tlog bool) func(string, Runtime) (string, bool) {
	return func(text string, _ Runtime) (string, bool) {
		recs, ok := goRecordsOf(text)
		if !ok {
			return "", false
		}
		var b strings.Builder
		b.WriteString("=== RUN   TestClientConn\n--- FAIL: TestClientConn (10.02s)\n")
		for _, r := range recs {
			if tlog {
				b.WriteString("    leakcheck.go:131: Leaked goroutine: " + r[0] + "\n")
				for _, l := range r[1:] {
					b.WriteString("        " + l + "\n")
				}
				continue
			}
			b.WriteString("Leaked goroutine: " + strings.Join(r, "\n") + "\n")
		}
		b.WriteString("FAIL\nFAIL\tgoogle.golang.org/grpc\t10.1s\n")
		return b.String(), true
	}
}

// headingAteHash is a debug=1 profile pasted from a page that rendered it
// as Markdown: a line "#", then a space or TAB, is a heading, shown
// without its '#' and the white space after it (frame and label lines).
func headingAteHash(text string, _ Runtime) (string, bool) {
	lines := strings.Split(text, "\n")
	changed := false
	for i, l := range lines {
		if strings.HasPrefix(l, "#\t") || strings.HasPrefix(l, "# ") {
			lines[i] = strings.TrimLeft(l[1:], " \t")
			changed = true
		}
	}
	return strings.Join(lines, "\n"), changed
}

// collapseWhite makes each run of TABs and spaces one space: a page
// that collapses white space (HTML outside <pre>), a chat that drops TABs.
func collapseWhite(text string, _ Runtime) (string, bool) {
	var b strings.Builder
	white := false
	for _, c := range text {
		if c == ' ' || c == '\t' {
			if !white {
				b.WriteByte(' ')
			}
			white = true
			continue
		}
		white = false
		b.WriteRune(c)
	}
	return b.String(), strings.Contains(text, "\t")
}

// wrapAt breaks every line longer than width as a terminal or a mail
// client does: atSpace breaks it at its last run of white space before
// width (fold -s, the white space dropped, as an editor strips it);
// otherwise it cuts it at width, in the middle of a word (fold).
func wrapAt(width int, atSpace bool) func(string, Runtime) (string, bool) {
	return func(text string, _ Runtime) (string, bool) {
		wrapped := false
		out := mapLines(text, func(_ int, l string) string {
			var parts []string
			for len(l) > width {
				cut := width
				if atSpace {
					i := strings.LastIndexAny(l[:width], " \t")
					if i <= 0 {
						break
					}
					j := i
					for j > 0 && (l[j-1] == ' ' || l[j-1] == '\t') {
						j--
					}
					if j == 0 {
						break
					}
					parts = append(parts, l[:j])
					l = strings.TrimLeft(l[i:], " \t")
					wrapped = true
					continue
				}
				parts = append(parts, l[:cut])
				l = l[cut:]
				wrapped = true
			}
			return strings.Join(append(parts, l), "\n")
		})
		return out, wrapped
	}
}

// goHeaderGap rewrites the text between a goroutine header's id and its
// state: with, or the runtime's "gp=0x... m=..." fields when with is "".
// Go 1.23 and later print those fields under GOTRACEBACK=system and
// crash; a person shortening a header writes "..." or "…" there.
func goHeaderGap(with string) func(string, Runtime) (string, bool) {
	return func(text string, _ Runtime) (string, bool) {
		n := 0
		out := mapLines(text, func(_ int, l string) string {
			if !isThreadStart(l, RuntimeGo) {
				return l
			}
			f := strings.SplitN(l, " ", 3)
			open := strings.Index(l, " [")
			if len(f) < 3 || open < len(f[0])+len(f[1])+1 {
				return l
			}
			gap := with
			if gap == "" {
				gap = fmt.Sprintf("gp=0x%x m=nil", 0xc000102a80+n*0x1c0)
			} else if gap == "alternate" {
				gap = []string{"...", "…", "gp=0xc0001 ..."}[n%3]
			}
			n++
			return f[0] + " " + f[1] + " " + gap + l[open:]
		})
		return out, n > 0
	}
}

// threadStarts returns the indexes of the lines that start a thread
// after a blank line: goroutine headers, debug=1 records, JVM thread
// headers.
func threadStarts(lines []string, rt Runtime) []int {
	var at []int
	for i := 1; i < len(lines); i++ {
		if lines[i-1] != "" {
			continue
		}
		if isThreadStart(lines[i], rt) || rt == RuntimeGo && classifyDebug1Line([]byte(lines[i])) == d1Record {
			at = append(at, i)
		}
	}
	return at
}

// fencedParts pastes a dump as parts fenced apart with prose between,
// cut at thread starts: one message too long for a chat, a comment that
// goes on.
func fencedParts(parts int) func(string, Runtime) (string, bool) {
	prose := []string{
		"Seen on prod-3 after the deploy; the dump is long, so in %d parts:",
		"(the rest, it did not fit in one block)",
		"and the last part:",
	}
	return func(text string, rt Runtime) (string, bool) {
		lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		at := threadStarts(lines, rt)
		if len(at) < parts {
			return "", false
		}
		var b strings.Builder
		from := 0
		for k := 0; k < parts; k++ {
			to := len(lines)
			if k < parts-1 {
				to = at[(k+1)*len(at)/parts]
			}
			p := prose[min(k, len(prose)-1)]
			if k == 0 {
				p = fmt.Sprintf(p, parts)
			}
			fmt.Fprintf(&b, "%s\n\n```\n%s\n```\n\n", p, strings.TrimRight(strings.Join(lines[from:to], "\n"), "\n"))
			from = to
		}
		return b.String(), true
	}
}

// pasteRewrites are the rewrites of the property test.
var pasteRewrites = []pasteRewrite{
	{name: "tabs as 2 spaces", apply: replaceTabs("  ")},
	{name: "tabs as 4 spaces", apply: replaceTabs("    ")},
	{name: "tabs as 8 spaces", apply: replaceTabs("        ")},
	{name: "tabs as no-break spaces", apply: replaceTabs("\u00a0\u00a0\u00a0\u00a0")},
	{name: "indented 4", prefix: true, apply: func(text string, _ Runtime) (string, bool) {
		return mapLines(text, func(_ int, l string) string {
			if l == "" {
				return l
			}
			return "    " + l
		}), true
	}},
	{name: "quoted \"> \"", prefix: true, apply: func(text string, _ Runtime) (string, bool) {
		return mapLines(text, func(_ int, l string) string {
			if l == "" {
				return ">"
			}
			return "> " + l
		}), true
	}},
	{name: "indented 4, tabs as 4 spaces", prefix: true, apply: func(text string, _ Runtime) (string, bool) {
		return mapLines(strings.ReplaceAll(text, "\t", "    "), func(_ int, l string) string {
			if l == "" {
				return l
			}
			return "    " + l
		}), true
	}},
	{name: "CRLF", apply: func(text string, _ Runtime) (string, bool) {
		return strings.ReplaceAll(text, "\n", "\r\n"), true
	}},
	{name: "Markdown fence in prose", apply: func(text string, _ Runtime) (string, bool) {
		return "Seen on prod-3 after the deploy, the pool stops answering:\n\n```\n" + text + "```\n\nAnything obvious? The second one is ten minutes later.\n", true
	}},
	{name: "trailing whitespace stripped", apply: func(text string, _ Runtime) (string, bool) {
		return mapLines(text, func(_ int, l string) string { return strings.TrimRight(l, " \t") }), true
	}},
	// A log stream that trims each line (Heroku's: a Go file line starts at
	// its path, a JVM frame at "at").
	{name: "leading whitespace stripped", apply: func(text string, _ Runtime) (string, bool) {
		return mapLines(text, func(_ int, l string) string { return strings.TrimLeft(l, " \t") }), strings.Contains(text, "\n\t")
	}},
	{name: "JSON string field of a log line", apply: func(text string, _ Runtime) (string, bool) {
		v, err := json.Marshal(text)
		if err != nil {
			return "", false
		}
		return `{"level":"info","ts":"2026-12-01T10:38:11.089Z","msg":"starting"}` + "\n" +
			`{"level":"warn","ts":"2026-12-01T10:38:12.001Z","caller":"debug/dump.go:41","msg":"thread dump","dump":` + string(v) + `,"pid":4242}` + "\n" +
			`{"level":"info","ts":"2026-12-01T10:38:12.300Z","msg":"done"}` + "\n", true
	}},
	{name: "docker json-file", prefix: true, apply: func(text string, _ Runtime) (string, bool) {
		return mapLines(text, func(_ int, l string) string {
			v, _ := json.Marshal(l + "\n")
			return `{"log":` + string(v) + `,"stream":"stderr","time":"2026-12-01T10:38:11.089203512Z"}`
		}), true
	}},
	{name: "HTML-escaped in <pre>", apply: func(text string, _ Runtime) (string, bool) {
		return "<html><head><title>Console Output</title></head><body>\n<h1>Build #412</h1>\n<pre class=\"console-output\">" +
			html.EscapeString(text) + "</pre>\n</body></html>\n", true
	}},
	{name: "white space collapsed", format: FormatGoDebug1, apply: collapseWhite},
	{name: "# taken by a Markdown heading", format: FormatGoDebug1, apply: headingAteHash},
	{name: "wrapped at 60 (fold)", format: FormatGoDebug1, apply: wrapAt(60, false)},
	{name: "wrapped at 60 at spaces (fold -s)", format: FormatGoDebug1, apply: wrapAt(60, true)},
	{name: "wrapped at 40, tabs as 4 spaces", format: FormatGoDebug1, apply: func(text string, rt Runtime) (string, bool) {
		return wrapAt(40, true)(strings.ReplaceAll(text, "\t", "    "), rt)
	}},
	{name: "gp= m= between id and state", format: FormatGoText, apply: goHeaderGap("")},
	{name: "... between id and state", format: FormatGoText, apply: goHeaderGap("alternate")},
	{name: "two fenced parts, prose between", apply: fencedParts(2)},
	{name: "three fenced parts, prose between", apply: fencedParts(3)},
	{name: "two fenced parts, tabs as 4 spaces", apply: func(text string, rt Runtime) (string, bool) {
		return fencedParts(2)(strings.ReplaceAll(text, "\t", "    "), rt)
	}},
	{name: "inline code: a backtick around", apply: func(text string, _ Runtime) (string, bool) {
		return "`" + strings.TrimSuffix(text, "\n") + "`\n", true
	}},
	{name: "Slack block: ``` glued to the text", apply: func(text string, _ Runtime) (string, bool) {
		// From the text's first line on: a bare ``` line is a fence, and
		// a close glued to the last line after one is not read (left).
		return "look at this:\n```" + strings.Trim(text, "\n") + "```\nthoughts?\n", true
	}},
	{name: "goleak report", rt: RuntimeGo, records: true, apply: goleakReport},
	{name: "goleak 1.3 report: the record is the header", rt: RuntimeGo, records: true, apply: goleak13Report},
	{name: "grpc leakcheck", rt: RuntimeGo, records: true, apply: leakcheckReport(false)},
	{name: "grpc leakcheck via t.Errorf", rt: RuntimeGo, records: true, apply: leakcheckReport(true)},
	{name: "=== RUN between goroutines", rt: RuntimeGo, apply: func(text string, rt Runtime) (string, bool) {
		return betweenThreads(text, rt, func(k int, _ string) string {
			switch k % 3 {
			case 0:
				return fmt.Sprintf("=== RUN   TestPool/case_%d", k)
			case 1:
				return fmt.Sprintf("--- FAIL: TestPool/case_%d (2.00s)", k-1)
			}
			return fmt.Sprintf("=== CONT  TestPool/case_%d", k-2)
		})
	}},
	{name: "a person's notes between threads", apply: func(text string, rt Runtime) (string, bool) {
		notes := []string{"## the stuck one", "2026-12-01 10:40:00", "this one holds the lock:", "12345:", "---", "(two minutes later)"}
		return betweenThreads(text, rt, func(k int, _ string) string {
			if k%3 != 1 {
				return ""
			}
			return notes[(k/3)%len(notes)]
		})
	}},
	{name: "log lines between threads", rt: RuntimeJVM, apply: func(text string, rt Runtime) (string, bool) {
		return betweenThreads(text, rt, func(k int, _ string) string {
			if k%2 == 1 {
				return ""
			}
			return fmt.Sprintf("2026-12-01 10:38:11.%03d  INFO 4242 --- [nio-8080-exec-%d] c.e.orders.OrderController : order %d placed", k%1000, k%9+1, k)
		})
	}},
	{name: "debug=1 without its header line", format: FormatGoDebug1, apply: dropDebug1Header(false)},
	{name: "debug=1 without header, quoted \"> \"", format: FormatGoDebug1, prefix: true, apply: dropDebug1Header(true)},
	{name: "headers without tid= and nid=", rt: RuntimeJVM, format: FormatJVMText, apply: mapHeaders(dropIDs)},
	{name: "from its first thread, without tid=, nid=", rt: RuntimeJVM, format: FormatJVMText, apply: func(text string, rt Runtime) (string, bool) {
		// A paste that starts at its first thread (no "Full thread dump"
		// line), whose headers lost their ids: it starts at such a header.
		i := strings.Index(text, "\n\"")
		if i < 0 || strings.Count(text, "Full thread dump") != 1 || strings.Contains(text, "Found one Java-level deadlock") || !strings.Contains(text, "\nJNI global refs") {
			// One whole dump to its end: an excerpt has no "Full thread
			// dump" line to say a missing end is a cut.
			return "", false
		}
		return mapHeaders(dropIDs)(text[i+1:], rt)
	}},
	{name: "a header's closing quote lost", rt: RuntimeJVM, format: FormatJVMText, apply: mapHeaders(func(k int, h string) string {
		if q := strings.Index(h[1:], `" `); k%3 == 1 && q > 0 && !strings.Contains(h[1:q+1], `"`) {
			return h[:q+1] + h[q+2:]
		}
		return h
	})},
	{name: "a header's opening quote lost", rt: RuntimeJVM, format: FormatJVMText, apply: mapHeaders(func(k int, h string) string {
		if k%3 == 1 {
			return h[1:]
		}
		return h
	})},
	{name: "Eclipse's Copy Stack", rt: RuntimeJVM, format: FormatJVMText, apply: eclipseRewrite, keeps: eclipseKeeps},
	{name: "jhsdb jstack (the agent's frames)", rt: RuntimeJVM, format: FormatJVMText, apply: saRewrite(false), keeps: saKeeps(false)},
	{name: "jstack -F of JDK 8", rt: RuntimeJVM, format: FormatJVMText, apply: saRewrite(true), keeps: saKeeps(true)},
}

// pasteInput is one committed dump for the property test.
type pasteInput struct {
	name string // path as read
	text string
	rt   Runtime
	want string // the fingerprint of the dump as written
	// prefixed is true when the dump is read under a prefix already.
	prefixed bool
	format   Format // the format of its first dump
	// aggregated is true for a tool's grouped listing of goroutines
	// (goroutine_aggregated.go): no test framework prints one.
	aggregated bool
	dumps      []*Dump // the dumps as written, for a rewrite's keeps
}

// dropIDs takes the tid= and nid= fields out of a header.
func dropIDs(_ int, h string) string {
	for _, f := range []string{" tid=", " nid="} {
		if i := strings.Index(h, f); i > 0 {
			j := strings.IndexByte(h[i+1:], ' ')
			if j < 0 {
				h = h[:i]
			} else {
				h = h[:i] + h[i+1+j:]
			}
		}
	}
	return h
}

// mapHeaders rewrites each HotSpot thread header with #N (the k-th) as
// f says, and reports whether the dump has any: a header that a tool or
// a paste mangled. Headers of other shapes (ThreadInfo's, IntelliJ's)
// are left alone.
func mapHeaders(f func(k int, header string) string) func(string, Runtime) (string, bool) {
	return func(text string, _ Runtime) (string, bool) {
		k := 0
		out := mapLines(text, func(_ int, l string) string {
			if !isHotSpotHeader([]byte(l)) || strings.Contains(l, " nid=NA") || !strings.Contains(l, `" #`) {
				return l
			}
			k++
			return f(k-1, l)
		})
		return out, k > 0
	}
}

// dropDebug1Header is a debug=1 profile pasted from its first record:
// every "goroutine profile: total N" line left out (a profile's first
// line, and the first of each profile after it), in prose that ends
// with a colon (quoted under "> " when quote), as a person pastes the
// records that matter.
func dropDebug1Header(quote bool) func(string, Runtime) (string, bool) {
	return func(text string, _ Runtime) (string, bool) {
		var b strings.Builder
		b.WriteString("The profile:\n\n")
		dropped := false
		for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
			if _, ok := debug1Header([]byte(l)); ok {
				dropped = true
				continue
			}
			if quote {
				l = strings.TrimRight("> "+l, " ")
			}
			b.WriteString(l + "\n")
		}
		return b.String(), dropped
	}
}

// dumpFingerprint is what a paste must keep: the dumps, and of each
// thread its id, name, state and frames.
func dumpFingerprint(dumps []*Dump) string {
	var b strings.Builder
	for _, d := range dumps {
		fmt.Fprintf(&b, "dump %s %d threads\n", d.Format, len(d.Threads))
		for _, t := range d.Threads {
			fmt.Fprintf(&b, "  %d %q [%s] x%d\n", t.ID, t.Name(), t.State, t.Weight)
			for _, f := range t.Frames {
				fmt.Fprintf(&b, "    %s %s:%d %s %s\n", f.Func, f.File, f.Line, f.Module, f.Note)
			}
		}
	}
	return b.String()
}

// cutAtThread cuts text before pasteCap, at the last thread header that
// follows a blank line.
func cutAtThread(text string, rt Runtime) string {
	if len(text) <= pasteCap {
		return text
	}
	if i := strings.Index(text, "\n0SECTION       THREADS"); i >= 0 {
		// A javacore: its thread section, cut before a thread.
		text = text[i+1:]
		if len(text) <= pasteCap {
			return text
		}
		return text[:strings.LastIndex(text[:pasteCap], "\n3XMTHREADINFO ")+1]
	}
	head := text[:pasteCap]
	for i := len(head) - 1; i > 0; i-- {
		if head[i] == '\n' && head[i-1] == '\n' {
			rest := head[i+1:]
			if line, _, _ := strings.Cut(rest, "\n"); isThreadStart(line, rt) {
				return head[:i]
			}
		}
	}
	return head[:strings.LastIndexByte(head, '\n')+1]
}

// pasteInputs reads the committed Go and JVM text dumps. Files that parse
// to other formats (proto, JSON, debug=1, JFR) or to none are left out.
func pasteInputs(t *testing.T) []pasteInput {
	t.Helper()
	var paths []string
	for _, g := range []string{"../testdata/go/*", "../testdata/jvm/*", "../testdata/formats/*", corpusDir + "/go/*", corpusDir + "/jvm/*"} {
		m, _ := filepath.Glob(g)
		paths = append(paths, m...)
	}
	if _, err := os.Stat(corpusDir); err != nil {
		t.Logf("shared corpus not present (%v): the property test reads testdata/ only", err)
	}
	sort.Strings(paths)
	var out []pasteInput
	for _, p := range paths {
		if strings.HasSuffix(p, ".md") || strings.HasSuffix(p, ".tsv") {
			continue
		}
		if st, err := os.Stat(p); err != nil || st.IsDir() {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
			zr, err := gzip.NewReader(bytes.NewReader(b))
			if err != nil {
				continue
			}
			if b, err = io.ReadAll(io.LimitReader(zr, 64<<20)); err != nil {
				continue
			}
		}
		dumps, err := Parse(p, bytes.NewReader(b))
		if err != nil || len(dumps) == 0 {
			continue
		}
		f := dumps[0].Format
		if f != FormatGoText && f != FormatGoDebug1 && f != FormatJVMText && f != FormatJavacore {
			continue
		}
		if strings.HasPrefix(dumps[0].Excerpt, lockReportExcerpt) {
			// A deadlock detector's report names its threads with free text
			// from the line's start (lockreport.go): a prefix or a rewrite
			// before a name is read as part of it. Its own tests hold it.
			continue
		}
		text := strings.ReplaceAll(string(b), "\r\n", "\n")
		if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		rt := f.Runtime()
		text = cutAtThread(text, rt)
		dumps, err = Parse(p, strings.NewReader(text))
		if err != nil {
			continue
		}
		out = append(out, pasteInput{name: strings.TrimPrefix(strings.TrimPrefix(p, "../"), "../../shared/"), text: text, rt: rt, format: f,
			want: dumpFingerprint(dumps), prefixed: dumps[0].Prefix != "", aggregated: strings.HasPrefix(dumps[0].Excerpt, "aggregated by "), dumps: dumps})
	}
	return out
}

// TestPastedSameDumps is the pasted property over every committed dump;
// the log holds a table of how many inputs each rewrite keeps whole, and
// the first difference of each failure (run with -v to see it).
func TestPastedSameDumps(t *testing.T) {
	inputs := pasteInputs(t)
	if len(inputs) == 0 {
		t.Fatal("no Go or JVM text dump found in testdata/")
	}
	type tally struct{ tried, same int }
	tallies := make([]tally, len(pasteRewrites))
	var failures []string
	for _, in := range inputs {
		for ri, rw := range pasteRewrites {
			if rw.rt != "" && rw.rt != in.rt || rw.format != "" && rw.format != in.format || rw.prefix && in.prefixed || rw.records && in.aggregated {
				continue
			}
			text, ok := rw.apply(in.text, in.rt)
			if !ok {
				continue
			}
			tallies[ri].tried++
			dumps, err := Parse(in.name, strings.NewReader(text))
			want, got := in.want, dumpFingerprint(dumps)
			if rw.keeps != nil {
				want, got = rw.keeps(in.dumps), rw.keeps(dumps)
			}
			if err == nil && got == want {
				tallies[ri].same++
				continue
			}
			why := firstDiff(want, got)
			if err != nil {
				why = err.Error()
			}
			failures = append(failures, fmt.Sprintf("%-32s %s: %s", rw.name, in.name, why))
		}
	}
	var b strings.Builder
	total, same := 0, 0
	fmt.Fprintf(&b, "%-34s %6s %6s\n", "rewrite", "same", "tried")
	for ri, rw := range pasteRewrites {
		tl := tallies[ri]
		total += tl.tried
		same += tl.same
		fmt.Fprintf(&b, "%-34s %6d %6d\n", rw.name, tl.same, tl.tried)
	}
	fmt.Fprintf(&b, "%-34s %6d %6d  (%d inputs)\n", "all", same, total, len(inputs))
	t.Logf("rewrites that parse to the same dumps as the original:\n%s", b.String())
	for _, f := range failures {
		t.Error(f)
	}
}

// firstDiff names the first line where two fingerprints differ.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d of the fingerprint: want %q, got %q", i+1, strings.TrimSpace(wl), strings.TrimSpace(gl))
		}
	}
	return "same"
}

// FuzzPasted feeds Parse the rewrites of small dumps and whatever the
// fuzzer makes of them: it must never panic, and every line skipped in a
// text dump must carry its position.
func FuzzPasted(f *testing.F) {
	jvm, err := os.ReadFile("../testdata/jvm/jstack-l.txt")
	if err != nil {
		f.Fatal(err)
	}
	for _, src := range []struct {
		rt   Runtime
		text string
	}{{RuntimeGo, join(goDump)}, {RuntimeJVM, string(jvm[:min(len(jvm), 4<<10)])}} {
		for _, rw := range pasteRewrites {
			if rw.rt != "" && rw.rt != src.rt {
				continue
			}
			if text, ok := rw.apply(src.text, src.rt); ok {
				f.Add([]byte(text))
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dumps, _ := Options{MaxLine: 4 << 10}.Parse("fuzz.txt", bytes.NewReader(data))
		checkDumps(t, dumps)
		for _, d := range dumps {
			if d.Format != FormatGoText && d.Format != FormatJVMText {
				continue
			}
			for _, s := range d.Skipped {
				if s.Line <= 0 {
					t.Fatalf("skipped line without position: %+v", s)
				}
			}
		}
	})
}

// TestPastedCutAtEnd: a dump cut inside its last frame line, then pasted,
// is reported cut: at least one Skipped entry says the dump is truncated,
// and its threads are those of the cut dump read as it is.
func TestPastedCutAtEnd(t *testing.T) {
	jvm := readInput(t, "../testdata/jvm/jstack-l.txt")
	goText := readInput(t, "../testdata/go/go1.27.3-debug2.txt")
	cutIn := func(text, frameStart string) string {
		// Inside the last frame line: after its function's first '('
		// (Go) or in its middle (JVM).
		if j := strings.Index(text, "\nJNI global refs"); j > 0 {
			text = text[:j] // the threads' frames, not the deadlock report's
		}
		i := strings.LastIndex(text, frameStart)
		line, _, _ := strings.Cut(text[i+len(frameStart):], "\n")
		return text[:i+len(frameStart)+len(line)/2]
	}
	inputs := []struct {
		rt     Runtime
		format Format
		name   string
		text   string
	}{
		{RuntimeGo, FormatGoText, "go debug=2", cutIn(goText, "\nmain.")},
		{RuntimeJVM, FormatJVMText, "jstack", cutIn(jvm, "\n\tat ")},
	}
	truncated := func(dumps []*Dump) bool {
		for _, d := range dumps {
			for _, s := range d.Skipped {
				if strings.Contains(s.Reason, "truncated") {
					return true
				}
			}
		}
		return false
	}
	for _, in := range inputs {
		orig, err := Parse("cut", strings.NewReader(in.text))
		if err != nil || !truncated(orig) {
			t.Fatalf("%s cut as it is: not reported truncated (%v): %+v", in.name, err, summarize(orig))
		}
		for _, rw := range pasteRewrites {
			if rw.rt != "" && rw.rt != in.rt || rw.format != "" && rw.format != in.format {
				continue
			}
			text, ok := rw.apply(in.text, in.rt)
			if !ok {
				continue
			}
			// The rewrites end the text with a newline; the paste of a cut
			// dump has one too (a fence, a quote), or not (a cut file).
			dumps, err := Parse("cut", strings.NewReader(text))
			if err != nil {
				t.Errorf("%s, %s: %v", in.name, rw.name, err)
				continue
			}
			if got, want := dumpFingerprint(dumps), dumpFingerprint(orig); got != want {
				t.Errorf("%s, %s: %s", in.name, rw.name, firstDiff(want, got))
			}
			if !truncated(dumps) {
				t.Errorf("%s, %s: not reported truncated: %+v", in.name, rw.name, summarize(dumps))
			}
		}
	}
}
