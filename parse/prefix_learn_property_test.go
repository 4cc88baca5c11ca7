package parse

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The learned-prefix property (issue 32): a dump whose every line carries
// a prefix made up here, at random, of the pieces tools' prefixes are made
// of (literal text with brackets, pipes, colons and non-ASCII, a time in
// one of many layouts that advances line by line, a counter, a padded
// name, a hex id, ANSI colour), alone or nested with other layers in any
// order (a tool's prefix over a docker record over a kubectl time, a CRI
// line around a tool's prefix, two tools' prefixes), or with another
// source's lines interleaved, parses to the same dumps, threads, states
// and frames as the dump itself. No list of tools: the shapes are drawn,
// and each case's seed is printed with its failure.

// learnCases is how many prefixes each input is read under: 24 over the
// hundred inputs run in seconds (raise it locally to search wider).
const learnCases = 24

// prefixPart makes one piece of a prefix: what it prints before line i.
type prefixPart struct {
	kind string
	at   func(i int) string
}

var (
	learnWords  = []string{"info", "INFO", "web", "api", "orders", "worker", "app", "Pipeline", "stdout", "db", "svc", "main"}
	learnOpen   = []string{"[", "(", "<", "«", "|", "│", "▶ ", "", "{", "⟦"}
	learnClose  = []string{"]", ")", ">", "»", "|", "│", ":", "", "}", "⟧"}
	learnSep    = []string{" ", "  ", ": ", " | ", " - ", " :: ", " → ", "\t"}
	learnLayout = []string{
		time.RFC3339Nano, time.RFC3339, "2006-01-02T15:04:05.000000000Z07:00",
		"2006-01-02 15:04:05.000", "2006-01-02 15:04:05,000", "2006-01-02 15:04:05",
		"2006/01/02 15:04:05", "2006/01/02 15:04:05.000000", "15:04:05.000", "15:04:05",
		"Jan _2 15:04:05", "Jan 02 15:04:05.000000", "02/Jan/2006:15:04:05 -0700", "[15:04:05]",
		"2006-01-02T15:04:05.000-0700", "Mon Jan _2 15:04:05 2006",
	}
)

// name draws a source's name: a word, perhaps numbered as a replica.
func (g *prefixGen) name() string {
	w := learnWords[g.r.IntN(len(learnWords))]
	switch g.r.IntN(4) {
	case 0:
		return fmt.Sprintf("%s-%d", w, 1+g.r.IntN(9))
	case 1:
		return fmt.Sprintf("%s.%d", w, 1+g.r.IntN(3))
	case 2:
		return fmt.Sprintf("%s_%s", w, learnWords[g.r.IntN(len(learnWords))])
	}
	return w
}

type prefixGen struct {
	r *rand.Rand
}

// part draws one piece of a prefix.
func (g *prefixGen) part() prefixPart {
	r := g.r
	sep := learnSep[r.IntN(len(learnSep))]
	switch k := r.IntN(7); k {
	case 0: // literal
		o := r.IntN(len(learnOpen))
		s := learnOpen[o] + g.name() + learnClose[o] + sep
		return prefixPart{"literal", func(int) string { return s }}
	case 1: // a time advancing line by line
		layout := learnLayout[r.IntN(len(learnLayout))]
		t0 := time.Date(2020+r.IntN(10), time.Month(1+r.IntN(12)), 1+r.IntN(28), 1+r.IntN(20), r.IntN(60), r.IntN(60), r.IntN(1e9), time.UTC)
		if r.IntN(3) == 0 {
			t0 = t0.In(time.FixedZone("", (r.IntN(25)-12)*3600))
		}
		steps := make([]time.Duration, 0, 64)
		stepMax := time.Duration(1 + r.IntN(3000))
		t := t0
		return prefixPart{"time", func(i int) string {
			for len(steps) <= i {
				steps = append(steps, time.Duration(g.r.Int64N(int64(stepMax)))*time.Millisecond)
			}
			_ = t
			d := time.Duration(0)
			// the time of line i: t0 plus the steps before it (cumulative,
			// computed once per line in order)
			for _, s := range steps[:i] {
				d += s
			}
			return t0.Add(d).Format(layout) + sep
		}}
	case 2: // a counter
		start := r.IntN(10000)
		f := []string{"%d:", "%d: ", "%6d\t", "%4d | ", "%-5d| ", "#%d ", "[%d] ", "%3d  "}[r.IntN(8)]
		return prefixPart{"counter", func(i int) string { return fmt.Sprintf(f, start+i) }}
	case 3: // a padded name
		n := g.name()
		w := len(n) + r.IntN(7)
		f := "%-*s"
		if r.IntN(2) == 0 {
			f = "%*s"
		}
		s := fmt.Sprintf(f, w, n) + []string{" | ", ": ", " ", "|"}[r.IntN(4)]
		return prefixPart{"padded name", func(int) string { return s }}
	case 4: // a hex id per line
		return prefixPart{"hex id", func(int) string {
			b := []byte(fmt.Sprintf("%08x", g.r.Uint32()))
			b[g.r.IntN(8)] = "0123456789"[g.r.IntN(10)]
			b[g.r.IntN(8)] = "abcdef"[g.r.IntN(6)]
			if b[0] >= '0' && b[0] <= '9' && allDigitsStr(string(b)) {
				b[7] = 'a'
			}
			return "[" + string(b) + "] "
		}}
	case 5: // a level, padded
		lv := []string{"INFO", "WARN", "DEBUG", "ERROR"}[r.IntN(4)]
		s := fmt.Sprintf("%-5s ", lv)
		if r.IntN(2) == 0 {
			s = "[" + lv + "] "
		}
		return prefixPart{"literal", func(int) string { return s }}
	default: // a coloured piece
		in := g.part()
		c := fmt.Sprintf("\x1b[%dm", 31+r.IntN(7))
		if r.IntN(2) == 0 {
			c = fmt.Sprintf("\x1b[1;%dm", 31+r.IntN(7))
		}
		return prefixPart{"ansi " + in.kind, func(i int) string { return c + in.at(i) + "\x1b[0m" }}
	}
}

func allDigitsStr(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// learnCase is one drawn prefix.
type learnCase struct {
	kind  string // the row of the table
	parts []prefixPart
	// layers are the wrappers around each line, innermost first: "tool"
	// (the drawn parts), "docker" (a json-file record), "kubectl" (an RFC
	// 3339 time), "cri" (a CRI log line), "tool2" (a second tool's parts).
	// One "tool" alone is a prefix alone; more are nested.
	layers []string
	inner  []prefixPart // tool2's parts
	// strip: empty lines lose their trailing white space.
	strip bool
	// foreign: another source's lines are put between the dump's.
	foreign bool
	// cut: as concurrently does when another process's output comes
	// between two chunks of one line, some lines are cut in two, another
	// source's line between the pieces, the rest prefixed again; only
	// where the format's own rules prove the cut (rejoin.go: the first
	// piece no whole line, or one that may go on, the rest no line's
	// start). rt is the dump's runtime, whose rules those are.
	cut bool
	// wrap: as a terminal or a page wraps a long line that a person then
	// copies, some lines are cut in two at the same places as cut's and
	// the rest written bare on the next line, without the prefix
	// (rejoin.go's rule 4; golang/go#12816's journald paste).
	wrap bool
	rt   Runtime
}

// drawParts draws the pieces of one tool's prefix and the row they count in.
func (g *prefixGen) drawParts() ([]prefixPart, string) {
	var parts []prefixPart
	n := 1 + g.r.IntN(3)
	kinds := map[string]bool{}
	for range n {
		p := g.part()
		parts = append(parts, p)
		kinds[strings.TrimPrefix(p.kind, "ansi ")] = true
		if strings.HasPrefix(p.kind, "ansi") {
			kinds["ansi"] = true
		}
	}
	switch {
	case len(kinds) > 1 && !kinds["ansi"] || len(kinds) > 2:
		return parts, "mixed"
	case kinds["ansi"]:
		return parts, "ansi colour"
	}
	return parts, parts[0].kind
}

// nestLayers are the wrappers a tool's prefix is nested with; each is
// drawn at most once (each wrapper is another program), in any order.
var nestLayers = []string{"docker", "kubectl", "cri", "tool2"}

func (g *prefixGen) draw() learnCase {
	c := learnCase{layers: []string{"tool"}}
	c.parts, c.kind = g.drawParts()
	switch k := g.r.IntN(10); {
	case k < 4:
		// Nested: one to three more layers, each inside or outside the
		// tool's, in a drawn order ("tool > docker > kubectl": a tool's
		// prefix over a docker record over a kubectl time).
		n := 1 + g.r.IntN(3)
		for _, k := range g.r.Perm(len(nestLayers))[:n] {
			at := g.r.IntN(len(c.layers) + 1)
			c.layers = slices.Insert(c.layers, at, nestLayers[k])
		}
		if slices.Contains(c.layers, "tool2") {
			c.inner, _ = g.drawParts()
		}
		var outer []string
		for i := len(c.layers) - 1; i >= 0; i-- {
			outer = append(outer, c.layers[i])
		}
		c.kind = "nested: " + strings.Join(outer, " > ")
		if len(outer) > 2 {
			c.kind = "nested: three or more"
		}
	case k == 4:
		c.foreign, c.kind = true, "another source interleaved"
	case k == 5:
		c.foreign, c.cut, c.kind = true, true, "lines cut, another source between"
	}
	c.strip = g.r.IntN(2) == 0
	return c
}

// apply writes text with the case's prefix on every line.
func (c learnCase) apply(g *prefixGen, text string) string {
	var b strings.Builder
	other := "zz-other-" + fmt.Sprint(g.r.IntN(100)) + " ~ "
	t0 := time.Date(2026, 12, 1, 10, 38, 11, 89203512, time.UTC)
	stream := []string{"stdout", "stderr"}[g.r.IntN(2)]
	j := goJoin
	if c.rt == RuntimeJVM {
		j = jvmJoin
	}
	var cutLines []string
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		// A dump's first line is cut only after its start word
		// (joinCutStart: a piece before it holds nothing to look for),
		// and a JVM dump's date line not at all.
		first := startsText([]byte(l), nil)
		if !c.cut && !c.wrap || g.r.IntN(12) != 0 || j.cut([]byte(l)) || isDateLine([]byte(l)) {
			cutLines = append(cutLines, l)
			continue
		}
		if first && c.wrap {
			// A wrapped dump's first line stays whole: the prefix is
			// learned from it (prefix_learn.go), before any rule of the
			// dump's lines can see a wrap.
			cutLines = append(cutLines, l)
			continue
		}
		var at []int
		for p := 1; p < len(l); p++ {
			a, r := []byte(l[:p]), []byte(l[p:])
			if first {
				// A start line is cut after its start word; Eclipse's and
				// the Serviceability Agent's lines have no rejoin rules
				// (rejoin.go), as Delve's have none, and are not cut.
				lb := []byte(l)
				if startsEclipse(lb, nil) || isSAStart(lb) || isSAThreadHeader(bytes.TrimSpace(lb)) {
					break
				}
				if mayStartInside(a) && strongStart(a) == nil && len(bytes.TrimSpace(r)) > 0 {
					at = append(at, p)
				}
				continue
			}
			mayGoOn := j.mayGoOn != nil && j.mayGoOn(a) && !c.wrap // a wrap after a whole line is not proven (rejoin.go's rule 4)
			if (j.cut(a) || mayGoOn) && j.rest(r) && len(bytes.TrimSpace(r)) > 0 {
				at = append(at, p)
			}
		}
		if len(at) == 0 {
			cutLines = append(cutLines, l)
			continue
		}
		p := at[g.r.IntN(len(at))]
		if c.wrap {
			cutLines = append(cutLines, l[:p], "\x00"+l[p:])
			continue
		}
		cutLines = append(cutLines, l[:p], "\x00"+other+"GET /health 200 1ms", l[p:])
	}
	for i, l := range cutLines {
		if rest, ok := strings.CutPrefix(l, "\x00"); ok {
			b.WriteString(rest + "\n") // the other source's line between two pieces, or a wrapped line's rest
			continue
		}
		if c.foreign && g.r.IntN(30) == 0 {
			fmt.Fprintf(&b, "%sGET /health 200 %dms\n", other, g.r.IntN(90))
		}
		stamp := t0.Add(time.Duration(i) * time.Millisecond).Format(time.RFC3339Nano)
		line := l
		for _, layer := range c.layers {
			switch layer {
			case "tool", "tool2":
				parts := c.parts
				if layer == "tool2" {
					parts = c.inner
				}
				var p strings.Builder
				for _, part := range parts {
					p.WriteString(part.at(i))
				}
				line = p.String() + line
				if c.strip && l == "" {
					line = strings.TrimRight(line, " \t")
				}
			case "kubectl":
				line = stamp + " " + line
			case "cri":
				line = stamp + " " + stream + " F " + line
			case "docker":
				v, _ := json.Marshal(line + "\n")
				line = `{"log":` + string(v) + `,"stream":"` + stream + `","time":"` + stamp + `"}`
			}
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// TestLearnedPrefixSameDumps is the property over every committed dump;
// the log holds a table of how many cases of each kind read as the
// original (run with -v to see it).
func TestLearnedPrefixSameDumps(t *testing.T) {
	inputs := pasteInputs(t)
	if len(inputs) == 0 {
		t.Fatal("no Go or JVM text dump found in testdata/")
	}
	type tally struct{ tried, same int }
	tallies := map[string]*tally{}
	var failures []string
	for ii, in := range inputs {
		if in.prefixed {
			continue // a go test -json stream: read under its own shape already
		}
		if ppListingText(in.text) {
			continue // panicparse's "1: running" starts no dump after a learned prefix (strongStart)
		}
		for k := range learnCases {
			seed := uint64(ii)*1000 + uint64(k)
			g := &prefixGen{r: rand.New(rand.NewPCG(seed, 32))}
			c := g.draw()
			c.rt = in.rt
			if (c.cut || c.wrap) && (in.aggregated || in.format != FormatGoText && in.format != FormatJVMText) {
				c.cut, c.wrap = false, false // a format without rejoin rules (rejoin.go): interleaved only
			}
			text := c.apply(g, in.text)
			tl := tallies[c.kind]
			if tl == nil {
				tl = &tally{}
				tallies[c.kind] = tl
			}
			tl.tried++
			dumps, err := Parse(in.name, strings.NewReader(text))
			got := dumpFingerprint(dumps)
			if err == nil && got == in.want {
				tl.same++
				continue
			}
			why := firstDiff(in.want, got)
			if err != nil {
				why = err.Error()
			}
			head := strings.SplitN(text, "\n", 4)
			failures = append(failures, fmt.Sprintf("%s, seed %d (%s): %s\n\tfirst lines: %q", in.name, seed, c.kind, why, head[:min(3, len(head))]))
		}
	}
	var kinds []string
	for k := range tallies {
		kinds = append(kinds, k)
	}
	sortStrings(kinds)
	var b strings.Builder
	total, same := 0, 0
	fmt.Fprintf(&b, "%-34s %6s %6s\n", "prefix drawn", "same", "tried")
	for _, k := range kinds {
		tl := tallies[k]
		total += tl.tried
		same += tl.same
		fmt.Fprintf(&b, "%-34s %6d %6d\n", k, tl.same, tl.tried)
	}
	fmt.Fprintf(&b, "%-34s %6d %6d  (%d inputs)\n", "all", same, total, len(inputs))
	t.Logf("generated prefixes that parse to the same dumps as the original:\n%s", b.String())
	// Every case reads as the original (2376 of 2376 on the committed
	// dumps and the corpus; 11880 of 11880 with 120 cases an input, and
	// 5940 of 5940 on another stream of seeds, when this was written). The
	// five misses this test once allowed (a SIGQUIT after a learned prefix
	// inside a docker record; a counter outgrowing its padding) were fixed
	// as classes: layers nest to any depth, padding beside a field may
	// vanish, a collector's shape is confirmed on the next lines. Since
	// cuts are drawn in headers, state lines and a dump's first line too
	// (joinCutStart, goJoin and jvmJoin's header and state rules): 3000
	// of 3000; 12000 of 12000 with 96 cases an input.
	// A deadlock report's title cut with another source's line between
	// its pieces (drawn without the shared corpus) is joined since
	// cutStartPiece knows the title: 1080 of 1080 there.
	// Known: a blocked-thread checker's warning (blocked_warning.go) cut
	// with another source's line between its pieces where the same thread
	// is warned again: the moment before ends at the joined warning, but
	// the rest's piece is read again after it, and the next moment loses
	// its stack (3 of 3504 when this was written: the three such cuts
	// drawn). The line source's rejoin given back across a dump's end is
	// the fix to make. And one of a tool's thread header (jvm_tool_headers.go)
	// cut in its id ("\"pool-1-thread-1\" #" / "12 WAITING on …") where it is
	// the dump's first line: cutStartPiece does not know its pieces yet
	// (Dropwizard's page, dropwizard.go, is such a header: "\"scheduler\"
	// id=18 state" / "=TIMED_WAITING").
	// These are allowed by their class, not by a count (the seeds each
	// input draws shift as fixtures are added): only a cut with another
	// source's line between its pieces, only in those two forms'
	// fixtures; any other miss fails.
	knownMiss := func(f string) bool {
		return strings.Contains(f, "(lines cut, another source between)") &&
			(strings.Contains(f, "testdata/formats/blocked-warning-") || strings.Contains(f, "testdata/formats/tool-headers-") ||
				strings.Contains(f, "testdata/formats/dropwizard-"))
	}
	known := 0
	for _, f := range failures {
		t.Log(f)
		if knownMiss(f) {
			known++
		} else {
			t.Errorf("a generated prefix not read as the original, outside the known misses: %s", f)
		}
	}
	if known > 0 {
		t.Logf("%d of %d generated prefixes are the known misses (a Vert.x warning or a tool's thread header cut with another source's line between its pieces)", known, total)
	}
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// FuzzLearnedPrefix: a fuzzed prefix on every line of a small Go dump and
// of a JVM dump never panics the learner, gives consistent dumps
// (checkDumps), and every line it skips has its position. Seeds: the
// shapes of issue 32's examples.
func FuzzLearnedPrefix(f *testing.F) {
	for _, p := range []string{"[info] ", "api-1  | ", "  12 | ", "[INFO] ", "2026-12-06 10:00:01.123 INFO  [main] c.e.App - ",
		"2026-12-06T10:00:01.1234567Z ", "[pod/x/c] ", "app[web.1]: ", "\x1b[36mapi-1  |\x1b[0m ", "{web} ", "goroutine 1 [", "\"x\" #1 "} {
		f.Add(p, uint8(0))
		f.Add(p, uint8(1))
	}
	jvm := "2026-11-29 17:32:33\nFull thread dump OpenJDK 64-Bit Server VM (17.0.15+6 mixed mode, sharing):\n\n" +
		"\"main\" #1 prio=5 os_prio=0 cpu=10.00ms elapsed=1.00s tid=0x1 nid=0x2 waiting on condition  [0x3]\n" +
		"   java.lang.Thread.State: TIMED_WAITING (sleeping)\n\tat java.lang.Thread.sleep(java.base@17.0.15/Native Method)\n\tat Main.main(Main.java:3)\n\n"
	dumps := []string{strings.Join(goDump, "\n") + "\n", jvm}
	f.Fuzz(func(t *testing.T, prefix string, which uint8) {
		if len(prefix) > 300 || strings.ContainsAny(prefix, "\n\r") {
			return
		}
		var b strings.Builder
		for _, l := range strings.SplitAfter(dumps[int(which)%len(dumps)], "\n") {
			if l != "" {
				b.WriteString(prefix + l)
			}
		}
		got, _ := Options{MaxLine: 512}.Parse("fuzz.log", strings.NewReader(b.String()))
		checkDumps(t, got)
		for _, d := range got {
			for _, s := range d.Skipped {
				if s.Line <= 0 {
					t.Fatalf("skipped line without position: %+v", s)
				}
			}
		}
	})
}

// TestStartNeedles: wherever strongStart finds a dump's first line in a
// line of a committed dump (at its start, or after any word boundary, as
// peel looks), mayStartInside says the line may hold one; else the
// filter would hide a dump from the learner.
func TestStartNeedles(t *testing.T) {
	inputs := pasteInputs(t)
	checked := 0
	for _, in := range inputs {
		for _, line := range strings.Split(in.text, "\n") {
			b := []byte(line)
			for k := 0; k < len(b); k++ {
				if k > 0 && (b[k] == ' ' || isWordByte(b[k-1])) {
					continue
				}
				if strongStart(b[k:]) == nil {
					continue
				}
				checked++
				if !mayStartInside(b) {
					t.Fatalf("%s: %q starts a dump at %d, but mayStartInside says no", in.name, line, k)
				}
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d starts found: the test reads too little", checked)
	}
	t.Logf("%d starts checked", checked)
	for _, l := range []string{"2026-12-01 10:00:00 INFO  [main] c.e.App - GET /api/orders 200", `{"level":"info","msg":"ok"}`} {
		if mayStartInside([]byte(l)) {
			t.Errorf("mayStartInside(%q) = true: the filter passes an ordinary log line", l)
		}
	}
}

// ppListingText reports whether text is a panicparse listing: its first line
// that is not blank is a group header ("1: running [3 minutes]").
func ppListingText(text string) bool {
	for _, l := range strings.Split(text, "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		_, ok := ppHeader([]byte(strings.TrimRight(l, "\r")))
		return ok
	}
	return false
}

// TestLearnedPrefixDebuggers is the same property over the debuggers'
// listings (testdata/debuggers: Delve's goroutines -t/-l/-g/-group and
// stack, GoLand's copied stacks), which indent their headers with spaces
// and their frames with a tab: the prefix learned from a header then
// holds the header's indent, and a frame carries fewer of those spaces
// before its tab (learnedShape.match).
func TestLearnedPrefixDebuggers(t *testing.T) {
	paths, _ := filepath.Glob("../testdata/debuggers/*.txt")
	type input struct{ name, text, want string }
	var inputs []input
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		dumps, err := Parse(p, bytes.NewReader(b))
		if err != nil || len(dumps) == 0 {
			continue // a transcript with no listing in it
		}
		if first, _, _ := strings.Cut(string(b), "\n"); startsGoLand([]byte(first), nil) {
			continue // GoLand's "Goroutine 87" is prose as often: never learned from (strongStart)
		}
		inputs = append(inputs, input{p, string(b), dumpFingerprint(dumps)})
	}
	if len(inputs) < 5 {
		t.Fatalf("%d debugger listings in testdata/debuggers: want the committed ones", len(inputs))
	}
	tried, same := 0, 0
	var failures []string
	for ii, in := range inputs {
		for k := range learnCases {
			seed := uint64(ii)*1000 + uint64(k)
			g := &prefixGen{r: rand.New(rand.NewPCG(seed, 33))}
			c := g.draw()
			c.rt, c.cut = RuntimeGo, false // no rejoin rules for a debugger's lines
			text := c.apply(g, in.text)
			tried++
			dumps, err := Parse(in.name, strings.NewReader(text))
			if got := dumpFingerprint(dumps); err == nil && got == in.want {
				same++
				continue
			} else if err == nil {
				failures = append(failures, fmt.Sprintf("%s, seed %d (%s): %s", in.name, seed, c.kind, firstDiff(in.want, got)))
			} else {
				failures = append(failures, fmt.Sprintf("%s, seed %d (%s): %v", in.name, seed, c.kind, err))
			}
		}
	}
	t.Logf("%d of %d prefixed debugger listings read as the listing itself (%d listings)", same, tried, len(inputs))
	// 287 of 288 when this was written (GoLand's listings left out: never learned). The one known miss: another
	// source's line between "(dlv) goroutine 22 stack" and the listing it
	// prints, so the listing's goroutine id (read from the line before it,
	// delveStackID) is lost: the stack is read, as goroutine 0.
	const debuggerKnownMisses = 1
	for _, f := range failures {
		t.Log(f)
	}
	if len(failures) > debuggerKnownMisses {
		t.Errorf("%d of %d prefixed debugger listings not read as the listing (at most %d known): see the log", len(failures), tried, debuggerKnownMisses)
	}
}

// TestCutStartPiece: every piece of a committed dump's goroutine header
// cut after its start word is a piece joinCutStart looks ahead for, and
// log lines that name a goroutine or a signal are not (the look ahead
// would then run on every such line of a log: a 200,000-line log of them
// took 52 s instead of 0.8 s before the pieces were told apart).
func TestCutStartPiece(t *testing.T) {
	pieces := 0
	for _, in := range pasteInputs(t) {
		for _, l := range strings.Split(in.text, "\n") {
			b := []byte(strings.TrimRight(l, " "))
			if !isGoHeader(b) || b[len(b)-1] != ':' {
				continue
			}
			for p := len("goroutine"); p < len(b); p++ {
				if strongStart(b[:p]) != nil {
					continue // a piece that starts a dump itself needs no join
				}
				pieces++
				if !cutStartPiece(b[:p]) {
					t.Fatalf("%s: %q cut at %d: %q is not taken for a piece", in.name, l, p, b[:p])
				}
			}
		}
	}
	if pieces < 1000 {
		t.Fatalf("only %d header pieces checked", pieces)
	}
	for _, l := range []string{
		"goroutine 5 finished; no deadlock seen", "goroutine leak detected", "goroutines: 12",
		"SIGTERM received, shutting down", "SIGHUP: reloading config 2", "java.lang.Thread.State is an enum",
	} {
		if cutStartPiece([]byte(l)) {
			t.Errorf("cutStartPiece(%q) = true: a log line would be looked ahead of", l)
		}
	}
}

// TestWrappedPrefixedLinesJoined: a prefixed dump whose long lines a
// terminal or a page wrapped, the rest of each written bare on the next
// line (rejoin.go's rule 4), reads as the original, for every committed
// dump and the corpus under a drawn tool prefix; lines are wrapped where
// the format's own rules prove the cut (the cut mode's places).
func TestWrappedPrefixedLinesJoined(t *testing.T) {
	inputs := pasteInputs(t)
	if len(inputs) == 0 {
		t.Fatal("no Go or JVM text dump found in testdata/")
	}
	tried, same, wrapped, known := 0, 0, 0, 0
	for ii, in := range inputs {
		if in.prefixed || ppListingText(in.text) || in.aggregated || in.format != FormatGoText && in.format != FormatJVMText {
			continue
		}
		for k := range 4 {
			g := &prefixGen{r: rand.New(rand.NewPCG(uint64(ii)*1000+uint64(k), 77))}
			c := learnCase{layers: []string{"tool"}, wrap: true, rt: in.rt}
			c.parts, c.kind = g.drawParts()
			text := c.apply(g, in.text)
			if strings.Count(text, "\n") > strings.Count(in.text, "\n")+1 {
				wrapped++
			}
			tried++
			dumps, err := Parse(in.name, strings.NewReader(text))
			got := dumpFingerprint(dumps)
			if err == nil && got == in.want {
				same++
				continue
			}
			why := firstDiff(in.want, got)
			if err != nil {
				why = err.Error()
			}
			head := strings.SplitN(text, "\n", 4)
			msg := fmt.Sprintf("%s, seed %d (%s, lines wrapped): %s\n\tfirst lines: %q", in.name, uint64(ii)*1000+uint64(k), c.kind, why, head[:min(3, len(head))])
			// Known: frames printed without "at " (Karaf's shell, JRockit's
			// CRLF dumps) give jvmJoin no mark of a line's start, so a
			// frame line after a bare rest reads as the rest (rules 1–2
			// run first). Allowed by class, logged; any other miss fails.
			if strings.Contains(in.name, "karaf-thread-") || strings.Contains(in.name, "jrockit") {
				known++
				t.Log("known miss: " + msg)
				continue
			}
			t.Error(msg)
		}
	}
	t.Logf("wrapped prefixed dumps read as the original: %d of %d (%d with a line wrapped; %d known misses)", same, tried, wrapped, known)
	if wrapped < 20 {
		t.Fatalf("only %d of %d drawn cases had a line wrapped: the property was not exercised", wrapped, tried)
	}
}
